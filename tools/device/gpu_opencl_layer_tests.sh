#!/usr/bin/env bash
# The OpenCL layer (docs/opencl_layer.md) on the GPU machine: its tests on NVIDIA's OpenCL driver (the NVIDIA
# ICD registered for the run, as the opencl part of run_gpu_tests.sh does; the CUDA toolkit's loader has no
# layers, so the tests take the preload route), the counters and NVML readings the layer lists there, and the
# extension's test program on the machine's PoCL (which CPU counters a bare-metal host lists). About a minute.
# Writes $OUT/summary.txt and one log per step.
# Usage: tools/device/gpu_opencl_layer_tests.sh [build-dir] [libnvidia-opencl.so.1]
set -u
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
lib=${2:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}
dir=${OUT:-$PWD/gpu-out}
mkdir -p "$dir"
summary=$dir/summary.txt
layer=$PWD/$build/lib/libopengpa_opencl_layer.so
program=$build/tests/layers/opencl/opencl_performance_counters_tests
export POCL_CACHE_DIR=$PWD/$build/pocl-cache
record() { printf '%-40s %s\n' "$1" "$2" | tee -a "$summary"; }

[ -f "$layer" ] || { record "opencl-layer" "no $layer: build first (run_gpu_tests.sh build)"; exit 1; }
{ echo "loader: $(ldd "$program" | grep -i libopencl)"; ls -la /etc/OpenCL/vendors 2>&1; } > "$dir/loaders.txt"

status=0
# NVIDIA's driver.
nvidia=(env OCL_ICD_FILENAMES="$lib" OCL_ICD_VENDORS=/nonexistent OPENGPA_CL_PLATFORM=NVIDIA)
"${nvidia[@]}" clinfo -l > "$dir/clinfo-nvidia.txt" 2>&1
"${nvidia[@]}" ctest --test-dir "$build" -L opencl_layer --output-on-failure -V > "$dir/ctest-nvidia.log" 2>&1
rc=$?; status=$((status | rc))
record "ctest -L opencl_layer (NVIDIA)" "rc=$rc"
grep -E "tests passed|\(Failed\)|\(SEGFAULT\)|\(Skipped\)" "$dir/ctest-nvidia.log" | tail -12 | tee -a "$summary"
# The counters the layer lists on the GPU, why the others are absent, and NVML's readings over a kernel.
"${nvidia[@]}" OPENGPA_CL_LAYER_LOG=1 LD_PRELOAD="$layer" "$program" \
  --gtest_filter='*DeviceLists*:*Sensor*:*KernelCounters*' > "$dir/nvidia-counters.txt" 2>&1
rc=$?; status=$((status | rc))
record "counters and readings (NVIDIA)" "rc=$rc"
grep -E "opengpa-cl-layer|^[A-Z][A-Za-z]+ +[0-9.e+-]+$" "$dir/nvidia-counters.txt" | tee -a "$summary"

# The machine's PoCL: the CPU counters of a bare-metal host (RAPL, cpufreq, perf events), as root.
OPENGPA_CL_PLATFORM=Portable OPENGPA_CL_LAYER_LOG=1 LD_PRELOAD="$layer" "$program" > "$dir/pocl.txt" 2>&1
rc=$?; status=$((status | rc))
record "extension test program (PoCL)" "rc=$rc"
grep -E "opengpa-cl-layer: (device|  not)|^[A-Z][A-Za-z]+ +[0-9.e+-]+$|PASSED|FAILED" "$dir/pocl.txt" | tee -a "$summary"
echo "perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid 2>&1)" | tee -a "$summary"
exit $status
