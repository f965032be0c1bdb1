#!/usr/bin/env bash
# What CUPTI itself costs a launch loop (bench/cupti_trace_floor: CUPTI set up in the program, callbacks that
# return at once), feature by feature, against the program alone in the same run: the floor under gpaprof -t
# (docs/benchmarks.md, "Trace mode: where the time goes"). Median of REPEATS runs per row.
#
# Usage: bench/trace_floor.sh [build-dir]
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-20000}
REPEATS=${REPEATS:-3}
VARIANTS=${VARIANTS:-"none conc conc,zeroed conc,pinned conc,bigdev conc,shared kernel rt drv rt,drv res rt,drvlaunch conc,rt,drv,res"}
bench_header "CUPTI's floor: cupti_trace_floor, $LAUNCHES launches"
printf '%-13s %-26s %12s %10s %8s\n' case cupti loop_s us/launch x_alone
for case in ${CASES:-launch-bound:65536 gpu-bound:4194304}; do
  name=${case%%:*}
  elements=${case##*:}
  alone=
  for variant in $VARIANTS; do
    loops=()
    for r in $(seq "$REPEATS"); do
      wall "$BIN/cupti_trace_floor" --launches "$LAUNCHES" --elements "$elements" --cupti "$variant" ||
        { cat "$BENCH_TMP/last.out"; continue 2; }
      loops+=("$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | cut -d= -f2)")
    done
    loop=$(median "${loops[@]}")
    [ "$variant" = none ] && alone=$loop
    printf '%-13s %-26s %12.4f %10.3f %8.3f   (%s)\n' "$name" "$variant" "$loop" \
      "$(awk -v s="$loop" -v n="$LAUNCHES" 'BEGIN {print s * 1e6 / n}')" "$(ratio "$loop" "${alone:-$loop}")" \
      "$(grep -o 'callbacks_per_launch=[0-9.]*' "$BENCH_TMP/last.out")"
  done
done
