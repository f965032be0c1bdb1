#!/usr/bin/env bash
# Builds all of OpenGPA on the GPU machine and runs every GPU test, the benchmarks and the main job there.
# Each part writes its logs under $OUT/<part>/, then is packed into $OUT/<part>.tar.gz (the device tool
# brings back at most 8 files); $OUT/summary.txt has one line per step with its exit status.
#
# Usage: tools/device/run_gpu_tests.sh [parts...]
#   parts: build opencl opencl-layer cuda pm-sampling gpaprof graphs joins bench main   (default: all, in that order)
#   opencl  the OpenCL backend, samples, C++ API and gpaprof's OpenCL end-to-end tests on NVIDIA's OpenCL
#           driver (its ICD is registered for the run: the machine lists only PoCL), then gpaprof's OpenCL tests and
#           the layer's routes on the machine's own ICDs (PoCL)
#   opencl-layer  tools/device/gpu_opencl_layer_tests.sh: the OpenCL layer (cl_codeplay_performance_counters)
#           on NVIDIA's OpenCL driver with its NVML counters, and the CPU counters of the machine's PoCL
#   cuda    tools/device/gpu_cuda_tests.sh: CUDA backend known-answer tests, fixtures, samples
#   pm-sampling  the PM-sampling engine's host and GPU tests (tests/gpu/pm_sampling: known DRAM writes sampled
#           every 100 us, then at each of PM_INTERVALS ns; the samples' clock against the host's)
#   pm-bench  bench/pm_sampling_vs_ncu.sh (issue 35): gpaprof -t --pm-sampling's DRAM bandwidth inside each kernel
#           of known_dram_writes against ncu's dram__bytes.sum.per_second, and the cost against gpaprof -t, the
#           program alone and nsys --gpu-metrics-devices (not in the default list; configures the build directory
#           if the build part has not; PM_BENCH_ENV: "VAR=value ..." for the script, e.g. "INTERVAL=50us RUNS=5")
#   pm-sm   bench/pm_sm_throughput_vs_ncu.sh (issue 35): the sampled parts of SM throughput inside each kernel of
#           pm_phases and cublas_gemm against ncu's sm__throughput (not in the default list; configures the build
#           directory if the build part has not)
#   gl      tools/device/gpu_gl_tests.sh: the OpenGL backend's tests on NVIDIA's EGL driver (not in the default
#           list: the run must carry .gl/, see that script)
#   gpaprof tools/device/gpu_gpaprof_tests.sh tests: gpaprof on CUDA programs, compared with ncu
#   graphs  tools/device/gpu_gpaprof_tests.sh graphs: gpaprof -p on CUDA graphs (issue 33), the GpaprofCudaGraphs
#           end-to-end tests (tests/tools/gpaprof/cuda/cuda_graph_counters_test.cpp) and bench/graph_vs_ncu.sh
#   graphs-torch, graphs-torch-compile  tools/device/gpu_gpaprof_tests.sh with that step:
#           bench/graph_rows_vs_ncu_torch.sh, gpaprof's rows against ncu's results on a ResNet-18 step in
#           torch.cuda.graph (about 2 minutes after the build), and under torch.compile(mode="reduce-overhead") (a
#           device command of its own) (not in the default list: PyTorch)
#   joins   tools/device/gpu_gpaprof_thread_joins.sh: the 4-thread trace test RUNS times (10, ~2 s each), every
#           launch call of every profile with its kernel (a defect of 2026-11-27 hit about one profile in ten)
#   bench   tools/device/gpu_gpaprof_tests.sh bench: the ratios of bench/ (docs/benchmarks.md)
#   launch-bound  tools/device/gpu_gpaprof_tests.sh launch-bound: issue 34's launch-bound table against nsys and nsys
#           recording every call, the fastest of 3 runs a round, 9 rounds (not in the default list)
#   main    tools/main.sh's job on the CUDA sample
#   vulkan  tools/device/gpu_vulkan_tests.sh: the Vulkan layer and library tests on NVIDIA's Vulkan driver
#           (not in the default list: the run must carry .gl/, see that script)
#   repeat  tools/device/gpu_gpaprof_repeat.sh: gpaprof -t, -p and -t -p -O on a PyTorch training loop, RUNS
#           runs each (20), no abnormal end and the same counts in every run (not in the default list: about
#           15 minutes for 20 runs; MODES picks modes)
#   launcher  tools/device/gpu_gpaprof_launcher.sh: gpaprof -t over torchrun with two ranks: files per rank,
#           none for the launcher (not in the default list)
#   multigpu  on a machine of 2 GPUs or more (nvidia-h100-x2): the GPA library with one context per device
#           (tests/gpu/cuda/multi_device_test.cu) and tools/device/gpu_gpaprof_multi_gpu.sh (gpaprof on one process
#           driving two GPUs, NCCL in one process and under torchrun, ncu per device); with fewer GPUs it says
#           so and skips (not in the default list: the default machine has one GPU)
#   python  tools/device/gpu_python_tests.sh: pip install ./python without network, its pytest tests on CUDA
#           (PyTorch, cuda-python, CuPy contexts), the PyTorch example, the main job's build on 2 cores
#           (not in the default list: about 3 minutes)
# Environment: OUT (default ./gpu-out), BUILD (default build-gpu).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
build=${BUILD:-build-gpu}
parts=${*:-build opencl opencl-layer cuda pm-sampling gpaprof graphs joins bench main}
mkdir -p "$OUT"
summary=$OUT/summary.txt
touch "$summary"

record() { printf '%-34s %s\n' "$1" "$2" | tee -a "$summary"; }
# build_for_bench DIR TARGET...: configures the build directory if the build part has not, builds the targets (log in
# DIR/build.log); on failure, its errors go to the summary.
build_for_bench() {
  local dir=$1
  shift
  { [ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=OFF; } \
    > "$dir/build.log" 2>&1 && cmake --build "$build" -j "$(nproc)" --target "$@" >> "$dir/build.log" 2>&1 && return 0
  grep -E "error|FAILED" "$dir/build.log" | head -20 | tee -a "$summary"
  return 1
}
pack() {  # pack PART: folds $OUT/PART into $OUT/PART.tar.gz
  [ -d "$OUT/$1" ] && tar -C "$OUT" -czf "$OUT/$1.tar.gz" "$1" && rm -rf "${OUT:?}/$1"
}

# The NVIDIA OpenCL driver, registered with whichever ICD loader the machine has.
nvidia_opencl_library() {
  for candidate in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/local/nvidia/lib64/libnvidia-opencl.so \
                   /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1; do
    [ -e "$candidate" ] && { echo "$candidate"; return 0; }
  done
  return 1
}

for part in $parts; do
  dir=$OUT/$part
  mkdir -p "$dir"
  start=$SECONDS
  case $part in
    build)
      { date -u; nvidia-smi; nvcc --version | tail -1; cmake --version | head -1; } > "$dir/device.txt" 2>&1
      cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=ON > "$dir/build.log" 2>&1 &&
        cmake --build "$build" -j "$(nproc)" -- -k 0 >> "$dir/build.log" 2>&1
      rc=$?
      # -k 0: a file that fails (a newer compiler's warning under -Werror) stops neither the rest of the build nor
      # the parts after it; its errors, all of them, go to the summary.
      grep -E "SKIPPED|building:" "$dir/build.log" | tee -a "$summary"
      [ $rc -ne 0 ] && grep -E "error:|FAILED:" "$dir/build.log" | sort -u | head -30 | tee -a "$summary"
      ;;
    opencl)
      lib=$(nvidia_opencl_library) || { record opencl "no NVIDIA OpenCL driver library found"; continue; }
      export OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/nonexistent OPENGPA_CL_PLATFORM=NVIDIA
      clinfo -l > "$dir/clinfo.txt" 2>&1
      cat "$dir/clinfo.txt" | tee -a "$summary"
      POCL_CACHE_DIR=$PWD/$build/pocl-cache ctest --test-dir "$build" -L "opencl|cpp_api|samples" -LE gpu \
        --output-on-failure -V > "$dir/ctest-opencl.log" 2>&1
      rc=$?
      grep -E "tests passed|Failed|\(Failed\)|\(Skipped\)" "$dir/ctest-opencl.log" | tail -15 | tee -a "$summary"
      # How gpaprof gets into OpenCL applications here: each route alone and both (tools/device/opencl_layer_diag.sh).
      OUT=$dir bash tools/device/opencl_layer_diag.sh "$build" 2>&1 | head -8
      ctest --test-dir "$build" -R "GpaprofEndToEnd|OpenclLayerEntry" --output-on-failure > "$dir/ctest-gpaprof-opencl.log" 2>&1
      rc2=$?
      grep -E "tests passed|\(Failed\)" "$dir/ctest-gpaprof-opencl.log" | tail -8 | tee -a "$summary"
      # The guide's example on NVIDIA OpenCL: its CSV is the evidence the issue asks for.
      "$build/samples/opencl/gpa_example" --library "$build/lib/libGPUPerfAPICL.so" > "$dir/gpa_example.txt" 2>&1
      rc3=$?
      cp "$build"/samples/opencl/*.csv "$dir/" 2>/dev/null
      tail -20 "$dir/gpa_example.txt"
      unset OCL_ICD_FILENAMES OCL_ICD_VENDORS OPENGPA_CL_PLATFORM
      # gpaprof and the layers on the machine's own OpenCL (PoCL 5.0 there). On that machine gpaprof crashed programs
      # twice through C++ runtimes our libraries shared; the first time only on PoCL (docs/gpaprof.md, 2026-11-29).
      POCL_CACHE_DIR=$PWD/$build/pocl-cache ctest --test-dir "$build" -R "GpaprofEndToEnd|OpenclLayerEntry|LayerRoutes|PrivateRuntime" \
        --output-on-failure > "$dir/ctest-gpaprof-machine-icd.log" 2>&1
      rc4=$?
      grep -E "tests passed|\(Failed\)" "$dir/ctest-gpaprof-machine-icd.log" | tail -8 | sed 's/^/machine ICD: /' | tee -a "$summary"
      rc=$((rc | rc2 | rc3 | rc4))
      ;;
    opencl-layer)
      lib=$(nvidia_opencl_library) || { record opencl-layer "no NVIDIA OpenCL driver library found"; continue; }
      OUT=$dir bash tools/device/gpu_opencl_layer_tests.sh "$build" "$lib" > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary" | tail -40
      ;;
    pm-sampling)
      # The PM-sampling engine (src/pm_sampling): known DRAM writes sampled every 100 us, their sum and their time.
      cmake --build "$build" -j "$(nproc)" --target gpu_pm_sampling_tests pm_sampling_tests > "$dir/build.log" 2>&1
      "$build/tests/pm_sampling/pm_sampling_tests" > "$dir/host.log" 2>&1
      "$build/tests/gpu/pm_sampling/gpu_pm_sampling_tests" > "$dir/gpu.log" 2>&1
      rc=$?
      # The smallest interval the hardware sustains: the known-answer test at shorter and shorter intervals.
      for interval in ${PM_INTERVALS:-50000 20000 10000 5000 2000 1000 500}; do
        OPENGPA_PM_INTERVAL_NS=$interval "$build/tests/gpu/pm_sampling/gpu_pm_sampling_tests" \
          --gtest_filter='*KnownDram*' > "$dir/interval_$interval.log" 2>&1
        echo "interval $interval ns: rc=$?" >> "$dir/intervals.txt"
      done
      grep -hE "^FIGURE pm_|^left out|Failure|^\[  (PASSED|FAILED|SKIPPED)" "$dir/host.log" "$dir/gpu.log" | tee -a "$summary"
      grep -h "^FIGURE pm_sampling interval" "$dir"/interval_*.log | tee -a "$summary"
      tee -a "$summary" < "$dir/intervals.txt"
      ;;
    pm-bench)
      # PM sampling against ncu: builds what the script runs, then runs it; its files (less nsys's reports) come back.
      build_for_bench "$dir" gpaprof gpaprof_cuda_injection gpaprof_cuda_app_known_dram_writes
      rc=$?
      if [ $rc -eq 0 ]; then
        mkdir -p "$dir/files"
        # shellcheck disable=SC2086
        env BUILD="$(cd "$build" && pwd)" BENCH_TMP="$dir/files" ${PM_BENCH_ENV:-} timeout "${PM_BENCH_LIMIT:-500}" \
          bash bench/pm_sampling_vs_ncu.sh > "$dir/bench.log" 2>&1
        rc=$?
        rm -f "$dir"/files/nsys.nsys-rep "$dir"/files/nsys.sqlite "$dir"/files/nsys.qdstrm
        sed -n '/^-- cost/,$p' "$dir/bench.log" | grep -v '^files in' | cut -c1-220 | tee -a "$summary" | tail -40
      fi
      ;;
    pm-sm)
      build_for_bench "$dir" gpaprof gpaprof_cuda_injection gpaprof_cuda_app_pm_phases gpaprof_cuda_app_cublas_gemm
      rc=$?
      if [ $rc -eq 0 ]; then
        mkdir -p "$dir/files"
        env BUILD="$(cd "$build" && pwd)" BENCH_TMP="$dir/files" timeout "${PM_BENCH_LIMIT:-500}" \
          bash bench/pm_sm_throughput_vs_ncu.sh > "$dir/bench.log" 2>&1
        rc=$?
        rm -f "$dir"/files/*.ncu-rep
        grep -v '^files in' "$dir/bench.log" | cut -c1-220 | tee -a "$summary" | tail -40
      fi
      ;;
    cuda)
      OUT=$dir bash tools/device/gpu_cuda_tests.sh "$build" > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary" | tail -40
      ;;
    gpaprof)
      OUT=$dir DEADLINE=${GPAPROF_DEADLINE:-400} bash tools/device/gpu_gpaprof_tests.sh "$build" tests > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary"
      ;;
    graphs|graphs-torch|graphs-torch-compile|launch-bound)
      OUT=$dir DEADLINE=${GRAPHS_DEADLINE:-560} bash tools/device/gpu_gpaprof_tests.sh "$build" "$part" > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary"
      grep -hE "^FIGURE graph_(whole|trace|threads|unreplayable|capture)|^FIGURE graph_node rows|^-- .*count lists|rows (equal|DIFFER)|skipped:" \
        "$dir/tests.log" "$dir/bench.log" 2>/dev/null | cut -c1-200 | tee -a "$summary" | tail -40
      grep -E "^\[  FAILED  \]" "$dir/tests.log" 2>/dev/null | sort -u | head -20
      ;;
    joins)
      OUT=$dir bash tools/device/gpu_gpaprof_thread_joins.sh "$build" > "$dir/run.log" 2>&1
      rc=$?
      grep -E "^incomplete|printed no figures|launches without" "$dir/thread_joins.txt" 2>/dev/null | tee -a "$summary"
      ;;
    bench)
      OUT=$dir DEADLINE=${BENCH_DEADLINE:-500} bash tools/device/gpu_gpaprof_tests.sh "$build" bench > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary"
      cat "$dir/figures.txt" 2>/dev/null | tail -40
      ;;
    gl)
      OUT=$dir bash tools/device/gpu_gl_tests.sh "${build}-gl" > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary"
      ;;
    vulkan)
      # Not in the default list: needs the Vulkan loader, headers and validation layer carried in .gl/ (carry [".gl"]).
      OUT=$dir bash tools/device/gpu_vulkan_tests.sh "${build}-vulkan" > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary" | tail -40
      ;;
    repeat)
      OUT=$dir bash tools/device/gpu_gpaprof_repeat.sh "$build" > "$dir/run.log" 2>&1
      rc=$?
      grep -E "^mode|abnormal=yes|status" "$dir/repeat.txt" 2>/dev/null | tee -a "$summary"
      ;;
    launcher)
      OUT=$dir bash tools/device/gpu_gpaprof_launcher.sh "$build" > "$dir/run.log" 2>&1
      rc=$?
      grep -E "rank|status|FAIL|no files" "$dir/launcher.txt" 2>/dev/null | tee -a "$summary"
      ;;
    multigpu)
      if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -lt 2 ]; then
        record multigpu "skipped: needs 2 GPUs (device kind nvidia-h100-x2), this machine has $(nvidia-smi -L 2>/dev/null | grep -c '^GPU')"
        continue
      fi
      "$build/tests/gpu/cuda/gpu_cuda_multi_device_tests" > "$dir/gpa_multi_device.log" 2>&1
      rc=$?
      record gpa_multi_device "rc=$rc"
      OUT=$dir bash tools/device/gpu_gpaprof_multi_gpu.sh "$build" > "$dir/run.log" 2>&1
      rc=$(( rc | $? ))
      grep -E "^RUN|status=|e2e_two_gpus|ncu" "$dir/multi_gpu.txt" 2>/dev/null | cut -c1-200 | tee -a "$summary"
      ;;
    python)
      OUT=$dir bash tools/device/gpu_python_tests.sh > "$dir/run.log" 2>&1
      rc=$?
      cat "$dir/summary.txt" 2>/dev/null | tee -a "$summary" | tail -40
      ;;
    main)
      BUILD_DIR=$build bash tools/main.sh "$dir/out" > "$dir/main.log" 2>&1 || true
      # main.sh installs with apt-get, which the GPU machine cannot reach: run its job directly if it stopped there.
      if [ ! -f "$dir/out/image_pipeline.csv" ]; then
        "$build/bin/gpaprof" -t -p -O -T --perfetto -o "$dir/out/image_pipeline" -- "$build/bin/image_pipeline_cuda" 8 \
          >> "$dir/main.log" 2>&1
      fi
      rc=$?
      tail -25 "$dir/main.log"
      head -12 "$dir/out/image_pipeline.csv" 2>/dev/null
      ;;
    *) echo "unknown part '$part' (parts: build opencl opencl-layer cuda pm-sampling pm-bench gpaprof graphs graphs-torch graphs-torch-compile launch-bound joins bench main gl vulkan repeat launcher multigpu python)"; exit 2 ;;
  esac
  record "$part" "rc=$rc $((SECONDS - start))s"
  pack "$part"
done
