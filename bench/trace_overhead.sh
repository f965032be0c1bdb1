#!/usr/bin/env bash
# gpaprof -t against the program alone: 50,000 kernel launches of bench/launch_loop, each run three times,
# medians compared. Two numbers per case: the launch loop's own time (measured inside the program around the
# loop and its final synchronisation: what tracing costs the application) and the wall time of the whole
# command (process start, CUDA start-up and, under gpaprof, writing the .atp after the program ended).
# Cases: "gpu-bound" kernels of about 17 us (the CPU-side tracing cost overlaps the GPU's work), "long-kernels"
# of about 70 us, and "launch-bound" kernels of about 2 us (every microsecond the CPU spends shows).
#
# Usage: bench/trace_overhead.sh [build-dir]          (target: loop ratio <= 1.05)
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-50000}
REPEATS=${REPEATS:-3}
bench_header "trace overhead: gpaprof -t / program alone, $LAUNCHES launches"
printf '%-13s %-10s %12s %12s %12s %12s %9s %9s\n' case elements app_loop_s traced_loop_s app_wall_s traced_wall_s loop_x wall_x
for case in gpu-bound:4194304 long-kernels:16777216 launch-bound:65536; do
  name=${case%%:*}
  elements=${case##*:}
  app_loop=(); app_wall=(); traced_loop=(); traced_wall=()
  for r in $(seq "$REPEATS"); do
    wall "$BIN/launch_loop" --launches "$LAUNCHES" --elements "$elements" --kernel saxpy || { cat "$BENCH_TMP/last.out"; exit 1; }
    app_wall+=("$WALL")
    app_loop+=("$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | cut -d= -f2)")
    wall "$GPAPROF" -t --no-progress -o "$BENCH_TMP/trace_$name" -- "$BIN/launch_loop" --launches "$LAUNCHES" \
      --elements "$elements" --kernel saxpy || { cat "$BENCH_TMP/last.out"; exit 1; }
    traced_wall+=("$WALL")
    traced_loop+=("$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | cut -d= -f2)")
  done
  kernels=$(awk '/=====cuda Kernel Timestamp Output=====/{getline; print; exit}' "$BENCH_TMP/trace_$name.atp")
  al=$(median "${app_loop[@]}"); tl=$(median "${traced_loop[@]}")
  aw=$(median "${app_wall[@]}"); tw=$(median "${traced_wall[@]}")
  printf '%-13s %-10s %12.4f %12.4f %12.4f %12.4f %9.3f %9.3f\n' "$name" "$elements" "$al" "$tl" "$aw" "$tw" \
    "$(ratio "$tl" "$al")" "$(ratio "$tw" "$aw")"
  echo "   ($name: $kernels kernels in the .atp kernel timestamp section; runs: app loop ${app_loop[*]}; traced loop ${traced_loop[*]})"
done
# Where the launch-bound overhead goes: CUPTI's callbacks and activity alone (gpaprof's callbacks return at
# once), and gpaprof's call tracing without activity records.
echo "   launch-bound breakdown (median loop seconds of $REPEATS runs):"
for diag in empty-callbacks no-activity; do
  loops=()
  for r in $(seq "$REPEATS"); do
    wall env GPAPROF_CUDA_DIAG=$diag "$GPAPROF" -t --no-progress -o "$BENCH_TMP/diag" -- "$BIN/launch_loop" \
      --launches "$LAUNCHES" --elements 65536 --kernel saxpy || { cat "$BENCH_TMP/last.out"; exit 1; }
    loops+=("$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | cut -d= -f2)")
  done
  printf '   %-16s %9.4f s\n' "$diag" "$(median "${loops[@]}")"
done
