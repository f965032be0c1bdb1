#!/usr/bin/env bash
# What flushing the L2 before each profiled kernel costs, gpaprof's way and the alternatives
# (bench/range_flush_cost), and the kernel durations each gives (docs/benchmarks.md, "Counter mode: the flush").
#
# Usage: bench/counter_flush_cost.sh [build-dir]   (LAUNCHES=200; MODES: range_flush_cost modes, default all;
#        METRICS=a,b: the configuration, e.g. gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
#        (a graph flush is no range with the duration alone, and breaks CUPTI's Stop with any hardware counter))
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-200}
bench_header "L2 flush before profiled kernels: range_flush_cost, $LAUNCHES launches"
for elements in 65536 16777216; do
  for mode in ${MODES:-auto auto-ownctx auto-appctx ownctx-alone user-appctx auto-memset auto-copy auto-graph legacy-disable legacy-plain}; do
    if wall "$BIN/range_flush_cost" --mode "$mode" --launches "$LAUNCHES" --elements "$elements" ${METRICS:+--metrics "$METRICS"}; then
      grep '^range_flush_cost' "$BENCH_TMP/last.out"
    else
      echo "mode=$mode elements=$elements failed:"; tail -5 "$BENCH_TMP/last.out"
    fi
  done
done
