#!/usr/bin/env bash
# gpaprof -t against the program alone on OpenCL, without a GPU: an OpenCL program making 50,000 tiny kernel
# launches on the default OpenCL device (PoCL's CPU device where there is no other), run alone and under
# `gpaprof -t`, several times each, medians compared. Two numbers per run: the launch loop's own time (measured
# inside the program around the loop and its final clFinish: what tracing costs the application) and the wall
# time of the whole command (under gpaprof also its start-up and turning the spool into the .atp after the
# program ended: gpaprof's own work, docs/benchmarks.md "gpaprof's own work after the application (CPU)").
#
# Usage: bench/trace_overhead_opencl.sh [build-dir]      (LAUNCHES=50000 REPEATS=5 MODES="-t" by default)
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-50000}
REPEATS=${REPEATS:-5}
MODES=${MODES:--t}
CC=${CC:-cc}

# The program: one kernel on 64 work-items, launched LAUNCHES times on an in-order queue without events.
PROGRAM=$BENCH_TMP/opencl_launch_loop
cat > "$BENCH_TMP/opencl_launch_loop.c" <<'EOF'
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call) do { cl_int s_ = (call); if (s_ != CL_SUCCESS) { fprintf(stderr, "%s: %d\n", #call, s_); exit(1); } } while (0)

static double Now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
    const int launches = argc > 1 ? atoi(argv[1]) : 50000;
    cl_platform_id platform;
    cl_device_id device;
    cl_int error = CL_SUCCESS;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    CHECK(error);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
    CHECK(error);
    const char* source = "__kernel void add_one(__global int* x) { x[get_global_id(0)] += 1; }";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &error);
    CHECK(error);
    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "add_one", &error);
    CHECK(error);
    const size_t global = 64, local = 64;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, global * sizeof(int), NULL, &error);
    CHECK(error);
    int zeros[64] = {0};
    CHECK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, sizeof zeros, zeros, 0, NULL, NULL));
    CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    CHECK(clFinish(queue));
    const double start = Now();
    for (int i = 0; i < launches; ++i) CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clFinish(queue));
    const double loop = Now() - start;
    int result[64];
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    if (result[0] != launches) {
        fprintf(stderr, "wrong result %d, expected %d\n", result[0], launches);
        return 1;
    }
    printf("opencl_launch_loop launches=%d loop_seconds=%.6f\n", launches, loop);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
EOF
"$CC" -O2 -o "$PROGRAM" "$BENCH_TMP/opencl_launch_loop.c" -lOpenCL || { echo "cannot build the OpenCL program"; exit 1; }
"$PROGRAM" 10 > /dev/null 2>&1 || { echo "no OpenCL device: nothing to measure"; exit 77; }

cpu=$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)
echo "== trace overhead on OpenCL: gpaprof $MODES / program alone, $LAUNCHES launches — $(date -u +%Y-%m-%dT%H:%MZ)" \
     "— $(clinfo -l 2>/dev/null | awk -F'Device #0: ' 'NF>1{print $2; exit}') — $cpu, $(nproc) cores"
app_loop=(); app_wall=(); traced_loop=(); traced_wall=()
for r in $(seq "$REPEATS"); do
  wall "$PROGRAM" "$LAUNCHES" || { cat "$BENCH_TMP/last.out"; exit 1; }
  app_wall+=("$WALL")
  app_loop+=("$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | cut -d= -f2)")
  # shellcheck disable=SC2086
  wall "$GPAPROF" $MODES --no-progress -o "$BENCH_TMP/trace" -- "$PROGRAM" "$LAUNCHES" || { cat "$BENCH_TMP/last.out"; exit 1; }
  traced_wall+=("$WALL")
  traced_loop+=("$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | cut -d= -f2)")
done
calls=$(grep -c 'clEnqueueNDRangeKernel' "$BENCH_TMP/trace.atp")
al=$(median "${app_loop[@]}"); tl=$(median "${traced_loop[@]}")
aw=$(median "${app_wall[@]}"); tw=$(median "${traced_wall[@]}")
printf '%12s %12s %12s %12s %9s %9s %12s\n' app_loop_s traced_loop_s app_wall_s traced_wall_s loop_x wall_x after_app_s
printf '%12.4f %12.4f %12.4f %12.4f %9.3f %9.3f %12.4f\n' "$al" "$tl" "$aw" "$tw" "$(ratio "$tl" "$al")" \
  "$(ratio "$tw" "$aw")" "$(awk -v a="$tw" -v b="$aw" -v c="$tl" -v d="$al" 'BEGIN {printf "%.4f", (a - b) - (c - d)}')"
echo "   (.atp lines naming clEnqueueNDRangeKernel: $calls, API and timestamp sections;" \
     "runs: app wall ${app_wall[*]}; traced wall ${traced_wall[*]}; app loop ${app_loop[*]}; traced loop ${traced_loop[*]})"
rm -rf "$BENCH_TMP"
