#!/usr/bin/env bash
# Builds gpaprof's CUDA part on the GPU machine and runs its tests and benchmarks there:
#   host tests (tests/tools/gpaprof/cuda), GPU end-to-end tests on the CUDA programs of
#   tests/tools/gpaprof/cuda_apps (ncu comparison included), and the benchmarks of bench/ (docs/benchmarks.md).
#   CUDA graph counters (issue 33) are steps of their own: `graphs` (the GpaprofCudaGraphs end-to-end tests and
#   bench/graph_vs_ncu.sh, about 3 minutes), `graphs-torch` and `graphs-torch-compile` (bench/graph_rows_vs_ncu_torch.sh
#   on PyTorch: a ResNet-18 step in torch.cuda.graph, about 2 minutes; under torch.compile(mode="reduce-overhead"),
#   the rest of a device command).
#
# Writes to $OUT (default ./gpu-gpaprof-out): device.txt, build.log, tests.log, bench.log, summary.txt (one
# line per step), figures.txt (the FIGURE lines and benchmark tables), samples.tar.gz (the .atp/.csv/.occupancy
# of one profiled run, for docs and readers).
#
# Usage: tools/device/gpu_gpaprof_tests.sh [build-dir] [steps...]
#   steps: tests bench launch-bound graphs graphs-torch graphs-torch-compile (default: tests bench; launch-bound: issue
#   34's table against nsys, ROUNDS 9 and REPEATS 3 by default, and gpaprof's callbacks by site; BASE_GPAPROF for an
#   A/B row in both); DEADLINE (seconds, default 560) stops starting new steps after it, and each step's limit is cut
#   to the time left.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-gpaprof-out}
build=${1:-build-gpu}
shift || true
steps=${*:-tests bench}
DEADLINE=${DEADLINE:-560}
mkdir -p "$OUT"
summary=$OUT/summary.txt
log=$OUT/tests.log
benchlog=$OUT/bench.log
: > "$summary"
: > "$log"
: > "$benchlog"

{
  echo "== date"; date -u
  echo "== gpu"; nvidia-smi --query-gpu=name,pci.device_id,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  echo "== tools"; nvcc --version | tail -2; cmake --version | head -1; g++ --version | head -1; ncu --version | tail -1
  echo "== cpu"; nproc
} > "$OUT/device.txt" 2>&1

left() { echo $((DEADLINE - SECONDS)); }
step() {  # step LOG NAME LIMIT COMMAND...: runs within the time left, logs, records the exit status
  local file=$1 name=$2 limit=$3
  shift 3
  local remaining
  remaining=$(left)
  if [ "$remaining" -lt 20 ]; then
    printf '%-28s skipped (deadline)\n' "$name" | tee -a "$summary"
    return 1
  fi
  [ "$limit" -gt "$remaining" ] && limit=$remaining
  echo "==== $name: $*" >> "$file"
  local start=$SECONDS
  timeout "$limit" "$@" >> "$file" 2>&1
  local rc=$?
  echo "==== $name rc=$rc ($((SECONDS - start)) s)" >> "$file"
  printf '%-28s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - start))" | tee -a "$summary"
  return $rc
}

targets="gpaprof gpaprof_cuda_injection gpaprof_cuda_host_tests gpaprof_cuda_end_to_end_tests opengpa_benchmarks"
if ! step "$OUT/build.log" configure 200 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=OFF; then
  tail -30 "$OUT/build.log"; exit 1
fi
# shellcheck disable=SC2086
if ! step "$OUT/build.log" build 400 cmake --build "$build" -j "$(nproc)" --target $targets; then
  grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1
fi

if [[ " $steps " == *" tests "* ]]; then
  step "$log" host_tests 60 "$build/tests/tools/gpaprof/cuda/gpaprof_cuda_host_tests"
  # The CUDA graph counter tests run in the `graphs` step, within a limit of their own.
  step "$log" gpu_end_to_end 450 "$build/tests/tools/gpaprof/cuda/gpaprof_cuda_end_to_end_tests" \
    --gtest_filter='-GpaprofCudaGraphs.*'
  # One profiled run kept for the documentation: every mode at once.
  samples=$PWD/$build/gpaprof-samples
  rm -rf "$samples"; mkdir -p "$samples"
  step "$log" sample_files 60 "$build/bin/gpaprof" -t -p -O --sym --no-progress -o "$samples/runtime_kernels" -- \
    "$build/tests/tools/gpaprof/cuda_apps/runtime_kernels" --iterations 2
  step "$log" sample_check 30 "$build/bin/gpaprof" --check "$samples/runtime_kernels.atp" "$samples/runtime_kernels.csv" \
    "$samples/runtime_kernels.occupancy"
  tar czf "$OUT/samples.tar.gz" -C "$samples" .
fi

if [[ " $steps " == *" bench "* ]]; then
  export BUILD=$PWD/$build
  step "$benchlog" bench_trace 150 bench/trace_overhead.sh
  step "$benchlog" bench_trace_floor 120 bench/trace_floor.sh
  step "$benchlog" bench_launch_bound 150 bench/trace_launch_bound.sh
  # perf is not installed on the GPU machine: PERF (and PERF_LIBS) name one carried there (docs/benchmarks.md).
  if [ -n "${PERF:-}" ] || command -v perf > /dev/null; then
    step "$benchlog" bench_launch_profile 120 bench/trace_launch_profile.sh
  else
    echo "bench_launch_profile: skipped, no perf (set PERF)" | tee -a "$benchlog"
  fi
  step "$benchlog" bench_flush_cost 60 bench/counter_flush_cost.sh
  step "$benchlog" bench_sample 60 bench/sample_overhead.sh
  step "$benchlog" bench_counters 300 bench/gpaprof_vs_ncu.sh
  step "$benchlog" bench_kernel_time 150 bench/kernel_time_vs_ncu.sh
  step "$benchlog" bench_metrics 120 bench/gpa_vs_ncu_metrics.sh
fi

if [[ " $steps " == *" launch-bound "* ]]; then
  # Issue 34's comparison: gpaprof against Nsight Systems (its defaults, and every call) in the same rounds, the
  # fastest of REPEATS runs of each a round (this machine's runs fall into two modes a process at a time,
  # docs/benchmarks.md); a row with -F cudaGetLastError (no callbacks for it, as nsys's defaults leave such calls
  # out); BASE_GPAPROF (another build's gpaprof) adds a row for an A/B in the same rounds.
  printf 'cudaGetLastError\n' > "$OUT/left_out.txt"
  BUILD=$PWD/$build ROUNDS=${ROUNDS:-9} REPEATS=${REPEATS:-3} GPAPROF_VARIANTS="F:--apifilterfile=$OUT/left_out.txt" \
    CONTENDERS="alone gpaprof gpaprof:F${BASE_GPAPROF:+ gpaprof-base} nsys nsys-all" \
    step "$benchlog" bench_launch_bound_vs_nsys 500 bench/trace_launch_bound.sh
  # gpaprof's callbacks site by site (against BASE_GPAPROF's in the same rounds where it is given): less moved by the
  # machine's two modes than the wall clock.
  BUILD=$PWD/$build ROUNDS=${ROUNDS:-9} step "$benchlog" bench_callback_costs 120 bench/trace_callback_costs.sh
fi

if [[ " $steps " == *" graphs "* ]]; then
  # gpaprof -p on CUDA graphs: node rows against eager rows, --graph-profiling graph, -t -p -O, capture, threads,
  # graphs it cannot replay (tests/tools/gpaprof/cuda/cuda_graph_counters_test.cpp); then against ncu.
  step "$log" gpu_graph_counters 300 "$build/tests/tools/gpaprof/cuda/gpaprof_cuda_end_to_end_tests" \
    --gtest_filter='GpaprofCudaGraphs.*'
  BUILD=$PWD/$build step "$benchlog" bench_graph_vs_ncu 300 bench/graph_vs_ncu.sh
fi

if [[ " $steps " == *" graphs-torch "* ]]; then
  # Rows against ncu's results (or the trace's kernel lines) on a ResNet-18 step in a CUDA graph.
  BUILD=$PWD/$build VARIANTS=graph TIMEOUT=120 step "$benchlog" bench_graph_torch 300 bench/graph_rows_vs_ncu_torch.sh
fi
if [[ " $steps " == *" graphs-torch-compile "* ]]; then
  # The same compiled with torch.compile(mode="reduce-overhead"): says why and is skipped where that cannot work.
  BUILD=$PWD/$build VARIANTS=compile TIMEOUT=150 step "$benchlog" bench_graph_torch_compile 540 bench/graph_rows_vs_ncu_torch.sh
fi

{
  grep -h '^FIGURE' "$log"
  sed -n '/^== /,/^====/p' "$benchlog" | grep -v '^===='
} > "$OUT/figures.txt"
echo "---- figures"; cat "$OUT/figures.txt" | tail -60
echo "---- failures"; grep -E "^\[  FAILED  \]|Failure$" "$log" | sort -u | head -40
echo "---- summary"; cat "$summary"
