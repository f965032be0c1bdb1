#!/usr/bin/env bash
# Builds OpenGPA's CUDA backend on the GPU machine and runs every CUDA test there: the GPU tests with known
# answers (tests/gpu/cuda), the kernel-replay test, the host tests (also against the counter data fixtures
# recorded by this very run), gpa-counters on the local device and both CUDA samples.
#
# Writes to $OUT (default ./gpu-cuda-out): device.txt, build.log, tests.log (everything the tests printed),
# summary.txt (one line per step), figures.txt (the "FIGURE name value" lines docs/cuda_backend.md quotes),
# sass.txt (opcode counts of the test kernels) and fixtures.tar.xz (counter data images and expected values;
# commit it as tests/backends/cuda/fixtures/<chip>.tar.xz, e.g. gh100.tar.xz for an H100 or H200).
#
# Usage: tools/device/gpu_cuda_tests.sh [build-dir]      (default build-dir: build-gpu)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-cuda-out}
build=${1:-build-gpu}
mkdir -p "$OUT"
log=$OUT/tests.log
summary=$OUT/summary.txt
: > "$log"
: > "$summary"

{
  echo "== date"; date -u
  echo "== gpu"; nvidia-smi --query-gpu=name,pci.device_id,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  echo "== tools"; nvcc --version | tail -2; cmake --version | head -1; g++ --version | head -1; uname -r
  echo "== cupti"; ls -l /usr/local/cuda/lib64 2>/dev/null | grep -E "cupti|nvperf"
  echo "== counter permission"; grep -i profil /proc/driver/nvidia/params 2>/dev/null; id -u
} > "$OUT/device.txt" 2>&1

step() {  # step NAME COMMAND...: runs, logs, records the exit status
  local name=$1
  shift
  echo "==== $name: $*" >> "$log"
  local start=$SECONDS
  "$@" >> "$log" 2>&1
  local rc=$?
  echo "==== $name rc=$rc ($((SECONDS - start)) s)" >> "$log"
  printf '%-58s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - start))" | tee -a "$summary"
  return $rc
}

# Warnings do not stop the run here (CI builds with -Werror); they are in build.log.
targets="GPUPerfAPICUDA gpa-counters cuda_host_tests cuda_failure_mode_tests cuda_missing_cupti_tests
         gpa_counters_cli_tests gpu_cuda_known_answer_tests gpu_cuda_kernel_replay_tests gpa_example_cuda
         gpa_cpp_example_cuda"
if ! step configure cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=OFF; then
  cp "$log" "$OUT/build.log"; tail -40 "$log"; exit 1
fi
# shellcheck disable=SC2086
if ! step build cmake --build "$build" -j "$(nproc)" --target $targets; then
  cp "$log" "$OUT/build.log"; grep -E "error|FAILED" "$log" | head -40; exit 1
fi
mv "$log" "$OUT/build.log"
: > "$log"

fixtures=$PWD/$build/fixtures
rm -rf "$fixtures"
mkdir -p "$fixtures"

# One process per test, so that a crash in one leaves the others their say.
known="$build/tests/gpu/cuda/gpu_cuda_known_answer_tests"
for test in $("$known" --gtest_list_tests | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
  step "gpu ${test#*.}" env OPENGPA_TEST_FIXTURE_DIR="$fixtures" timeout 120 "$known" --gtest_filter="$test"
done
step gpu_kernel_replay timeout 120 "$build/tests/gpu/cuda/gpu_cuda_kernel_replay_tests"
step host_tests env OPENGPA_CUDA_FIXTURES_DIR="$fixtures" timeout 120 "$build/tests/backends/cuda/cuda_host_tests"
step failure_modes "$build/tests/backends/cuda/cuda_failure_mode_tests"
step missing_cupti "$build/tests/backends/cuda/cuda_missing_cupti_tests"
step cli_tests timeout 120 "$build/tests/tools/gpa-counters/gpa_counters_cli_tests"
step gpa_counters_local "$build/bin/gpa-counters"
step gpa_counters_local_all "$build/bin/gpa-counters" --all
step sample_c timeout 60 "$build/samples/cuda/gpa_example_cuda" --library "$build/lib/libGPUPerfAPICUDA.so" \
  --csv "$build/GPUPerfAPI-CUDA-Example.csv"
cat "$build/GPUPerfAPI-CUDA-Example.csv" >> "$log" 2>/dev/null
step sample_cpp timeout 60 "$build/samples/cuda/gpa_cpp_example_cuda"

# Opcode counts of the test kernels: the known answers of the instruction counters come from these.
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$build/tests/gpu/cuda/gpu_cuda_known_answer_tests" 2>/dev/null | python3 -c '
import re, sys
text = sys.stdin.read()
for chunk in re.split(r"\n\s+Function : ", text)[1:]:
    name = chunk.split("\n", 1)[0].strip()
    ops = {}
    for m in re.finditer(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_]+)*)", chunk):
        op = m.group(1) + m.group(2)
        ops[op] = ops.get(op, 0) + 1
    print(name)
    print("   ", " ".join("%s:%d" % (k, v) for k, v in sorted(ops.items())))
' > "$OUT/sass.txt"
fi

grep -h '^FIGURE' "$log" > "$OUT/figures.txt"
# One directory per test at the archive's top, as tests/backends/cuda/fixtures/<chip>.tar.xz wants them.
(cd "$fixtures" && tar cJf "$OUT/fixtures.tar.xz" -- *) || tar czf "$OUT/fixtures.tar.gz" -C "$fixtures" .
echo "---- figures"; cat "$OUT/figures.txt"
echo "---- failures"; grep -E "^\[  FAILED  \]|Failure$" "$log" | sort -u | head -40
echo "---- summary"; cat "$summary"
