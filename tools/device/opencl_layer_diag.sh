#!/usr/bin/env bash
# Whether gpaprof gets into an OpenCL application under NVIDIA's OpenCL driver: each route (the loader's
# layers, the preload shim) alone and both, with the loader the application finds (the CUDA toolkit's
# libOpenCL.so.1, which ld.so.cache lists first on the GPU machine, has no layers).
# Writes $OUT/layer-diag/: one log per loader with the loader's debug output and the kept spool's records.
# Usage: tools/device/opencl_layer_diag.sh [build-dir]
set -u
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
dir=${OUT:-$PWD/gpu-out}/layer-diag
mkdir -p "$dir"
app=$build/tests/tools/gpaprof/apps/multi_kernel_threads
lib=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
{
  echo "== driver library: $lib"
  ldd "$app" | grep -i opencl
  for l in /usr/local/cuda/targets/x86_64-linux/lib/libOpenCL.so.1 /lib/x86_64-linux-gnu/libOpenCL.so.1; do
    echo "== $l -> $(readlink -f "$l")"; strings "$l" 2>/dev/null | grep -E "OPENCL_LAYERS|OCL_ICD|clInitLayer" | sort -u
  done
} > "$dir/loaders.txt" 2>&1
run() {  # run NAME [env...]: gpaprof -t on the app under NAME's loader
  local name=$1; shift
  env OCL_ICD_FILENAMES="$lib" OCL_ICD_VENDORS=/nonexistent OCL_ICD_DEBUG=7 "$@" \
    "$build/bin/gpaprof" -t --keep-temp --api opencl -o "$dir/$name" -- "$app" --threads 1 --iterations 1 \
    > "$dir/$name.log" 2>&1
  echo "== rc=$?" >> "$dir/$name.log"
  spool=$(grep -o "spool kept in .*" "$dir/$name.log" | awk '{print $4}')
  [ -n "$spool" ] && { ls -la "$spool"; for f in "$spool"/*.spool; do strings "$f" | head -40; done; } >> "$dir/$name.log" 2>&1
  tail -3 "$dir/$name.log" | head -1
}
run default
run layer-only GPAPROF_OPENCL_INJECTION=layer
run preload-only GPAPROF_OPENCL_INJECTION=preload
run cuda-loader LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib
grep -h "wrote .*atp" "$dir"/*.log
cat "$dir/loaders.txt"
