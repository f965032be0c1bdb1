#!/usr/bin/env bash
# The Vulkan layer and library tests on the GPU machine's NVIDIA Vulkan driver (about 3 minutes on 16 cores).
#
# That machine has no Vulkan loader: it is carried as Debian packages in .gl/ (the device README's recipe,
# unpacked into /), with the Vulkan headers and the Khronos validation layer in .gl/extra/ (unpacked into
# /tmp/opengpa-vulkan, not into /). The NVIDIA driver is named with VK_DRIVER_FILES.
#
# Usage (device tool: carry [".gl"]):  bash tools/device/gpu_vulkan_tests.sh [build-dir]
# Writes under $OUT (default ./gpu-out/vulkan): summary.txt (one line per step and the figures, and the
# VK_KHR_performance_query probe's lines), device.txt, build.log, performance_query_probe.txt,
# vulkan_layer_gpu_tests.txt (the PM-sampling block's FIGURE lines), vulkan_layer_tests_pm_on.txt,
# ctest-vulkan.log, gpa_example_vulkan.txt and its CSV.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out/vulkan}
build=${1:-build-gpu-vulkan}
extra=/tmp/opengpa-vulkan
source tools/device/carried_loaders.sh
start_summary "$OUT"
unpack_loaders libvulkan.so.1 || exit 1
unpack_extra "$extra" '*.deb'
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
export LD_LIBRARY_PATH="$extra/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# OpenGPA's layer from the build tree, the validation layer from the carried package.
export VK_ADD_LAYER_PATH="$(realpath -m "$build")/share/vulkan/explicit_layer.d:$extra/usr/share/vulkan/explicit_layer.d"
[ -d "$extra/usr/share/vulkan/explicit_layer.d" ] || { record validation "not carried (.gl/extra/vulkan-validationlayers_*.deb): tests run without it"; export OPENGPA_VK_VALIDATION=0; }

{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; ls -l "$icd"; ldconfig -p | grep libvulkan; } > "$OUT/device.txt" 2>&1
head -3 "$OUT/device.txt" | tail -2 | tee -a "$summary"

start=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=ON \
      -DVulkan_INCLUDE_DIR="$extra/usr/include" -DVulkan_LIBRARY="$(ldconfig -p | awk '/libvulkan.so.1 .*x86-64/ {print $NF; exit}')" \
      > "$OUT/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" --target vulkan_layer_tests vulkan_backend_tests vulkan_implicit_layer_tests \
        vulkan_layer_unit_tests vulkan_performance_query_probe gpa_example_vulkan \
        vulkan_layer_pm_fake_tests vulkan_backend_pm_fake_tests vulkan_layer_gpu_tests >> "$OUT/build.log" 2>&1
rc=$?
grep -E "SKIPPED|building: lib(Vk|GPUPerfAPIVK)|PM-sampling block" "$OUT/build.log" | tee -a "$summary"
record build "rc=$rc $((SECONDS - start))s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" "$OUT/build.log" | head -20; exit 1; }

# Does NVIDIA's driver have VK_KHR_performance_query (then the layer offers its counters as block KHR)?
# The probe prints each queue family's counters and the passes they need, or skips with the reason.
"$build/tests/layers/vulkan/vulkan_performance_query_probe" > "$OUT/performance_query_probe.txt" 2>&1
rc=$?
record vulkan_performance_query_probe "rc=$rc (all of it in performance_query_probe.txt; the first 80 lines:)"
grep -E "^\[probe\]|Skipped|SKIPPED \]" "$OUT/performance_query_probe.txt" | head -80 | tee -a "$summary"

# The GPU machine's compiler (/opt/gcc) links libstdc++ statically, so in a test process the carried validation
# layer is the only user of the shared libstdc++.so.6: the loader unloads both when an instance is destroyed
# and loads them again for the next instance, and libstdc++ does not survive being loaded a second time in one
# process (on 2026-11-25 the second instance crashed in the validation layer's vkCreateInstance, inside
# libstdc++'s ostream code; with libstdc++.so.6 kept loaded it passed: docs/vulkan_backend.md). Keep it loaded,
# as it is in any program linked with the shared libstdc++ (in CI, on lavapipe, the tests are such programs).
validation_so=$extra/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so
if [ -f "$validation_so" ] && ! ldd "$build/tests/layers/vulkan/vulkan_layer_tests" | grep -q 'libstdc++'; then
  stdcxx=$(ldd "$validation_so" | awk '/libstdc\+\+/ {print $3; exit}')
  [ -n "$stdcxx" ] && export LD_PRELOAD="$stdcxx${LD_PRELOAD:+:$LD_PRELOAD}" &&
    record libstdc++ "kept loaded for the validation layer (the tests link it statically here): LD_PRELOAD=$stdcxx"
fi

# The layer's PM-sampling block on the GPU (docs/vulkan_layer.md): known DRAM writes of fills (trace sample), compute
# and draws (cumulative samples), each within 5%, with FIGURE lines; then the layer's own tests with the block on
# (every device that enables VK_AMD_gpa_interface starts the GPU's PM sampling). Skipped tests say why.
start=$SECONDS
"$build/tests/layers/vulkan/gpu/vulkan_layer_gpu_tests" > "$OUT/vulkan_layer_gpu_tests.txt" 2>&1
rc=$?
grep -E "FIGURE|\[  (FAILED|SKIPPED|PASSED) |Skipped|no PM-sampling block" "$OUT/vulkan_layer_gpu_tests.txt" | sort | uniq | head -20 | tee -a "$summary"
record vulkan_layer_gpu_tests "rc=$rc $((SECONDS - start))s (all of it in vulkan_layer_gpu_tests.txt)"
start=$SECONDS
"$build/tests/layers/vulkan/vulkan_layer_tests" > "$OUT/vulkan_layer_tests_pm_on.txt" 2>&1
rc=$?
grep -E "\[  (FAILED|PASSED) |tests ran" "$OUT/vulkan_layer_tests_pm_on.txt" | head -20 | tee -a "$summary"
record "vulkan_layer_tests with PM sampling on" "rc=$rc $((SECONDS - start))s"

# Programs that call exit() with GPA's context open while PM sampling runs (every counter enabled): exit code 0.
start=$SECONDS
"$build/tests/backends/vulkan/vulkan_backend_tests" --gtest_filter='ExitWithOpenContext.*' > "$OUT/exit_with_open_context.txt" 2>&1
rc=$?
grep -E "\[  (FAILED|PASSED|SKIPPED) |Skipped|Result:|Actual msg" "$OUT/exit_with_open_context.txt" | head -12 | tee -a "$summary"
record "ExitWithOpenContext with PM sampling on" "rc=$rc $((SECONDS - start))s"

# Every Vulkan test (layer, library, implicit layer, sample), each test in its own process; PM sampling off (as
# before the block existed: one CUDA context and CUPTI start per test process otherwise), the GPU tests above run it.
start=$SECONDS
OPENGPA_VK_PM_SAMPLING=0 ctest --test-dir "$build" -L vulkan -E "PmSamplingGpu" --output-on-failure -V --timeout 300 > "$OUT/ctest-vulkan.log" 2>&1
rc=$?
grep -E "tests passed|\(Failed\)|\(Skipped\)|\*\*\*" "$OUT/ctest-vulkan.log" | tail -25 | tee -a "$summary"
record "ctest -L vulkan" "rc=$rc $((SECONDS - start))s"

# A failed test once more, alone, with the loader's messages and (where gdb is there) the stack of a crash:
# the GPU machine keeps nothing, so what a later session needs to find the cause has to come back now.
failed=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (\(Failed\|SEGFAULT\|Subprocess aborted\|Child aborted\)).*/\1/p' "$OUT/ctest-vulkan.log")
for name in $failed; do
  file="$OUT/failed_${name//[^A-Za-z0-9_.]/_}.log"
  listing=$(ctest --test-dir "$build" -R "^${name}\$" -N -V 2>/dev/null)
  command=$(sed -n 's/^.*Test command: //p' <<< "$listing" | head -1)          # quoted as ctest prints it
  environment=$(sed -n 's/^[0-9]*:  \([A-Z_]*=.*\)$/\1/p' <<< "$listing" | tr '\n' ' ')
  {
    echo "== $name: $command"; echo "== its environment: $environment"
    eval "env $environment VK_LOADER_DEBUG=error,warn,layer timeout 120 $command" 2>&1 | tail -150
    echo "== again without the validation layer (OPENGPA_VK_VALIDATION=0)"
    eval "env $environment OPENGPA_VK_VALIDATION=0 timeout 120 $command" 2>&1 | tail -40
    # The GPU machine has no gdb; cuda-gdb debugs host code as well.
    debugger=$(command -v gdb || command -v cuda-gdb)
    if [ -n "$debugger" ]; then
      echo "== under $debugger"
      eval "env $environment timeout 180 $debugger -q -batch -ex run -ex bt -ex 'info sharedlibrary' --args $command" 2>&1 |
        grep -vE "^\[(New|Thread)" | tail -120
    fi
  } > "$file" 2>&1
  record "rerun $name" "$(grep -cE 'SIGSEGV|SIGABRT' "$file") crash lines; log in $(basename "$file")"
done
# The figures docs/vulkan_layer.md and docs/vulkan_backend.md quote: the guide's example on the GPU, and
# the known-answer tests' values as the driver gave them.
"$build/samples/vulkan/gpa_example_vulkan" --library "$build/lib/libGPUPerfAPIVK.so" --csv "$OUT/gpa_example_vulkan.csv" \
  --frames 6 > "$OUT/gpa_example_vulkan.txt" 2>&1
record gpa_example_vulkan "rc=$?"
head -4 "$OUT/gpa_example_vulkan.csv" 2>/dev/null | tee -a "$summary"
grep -E "\[figure\]|Which is|clock mode|\[  FAILED|SKIPPED \]" "$OUT/ctest-vulkan.log" | sort | uniq -c | head -60 | tee -a "$summary"
exit 0
