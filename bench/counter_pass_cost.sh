#!/usr/bin/env bash
# Where counter mode's time per dispatch and pass goes (docs/benchmarks.md): each pass of the GPA compute set
# under CUPTI's range profiler, with and without gpaprof's flush as a range of its own, with a larger counter
# data image, and each of its metrics alone (bench/range_pass_cost).
#
# Usage: bench/counter_pass_cost.sh [build-dir]      (LAUNCHES=100, ELEMENTS=65536, PER_METRIC=1)
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-100}
ELEMENTS=${ELEMENTS:-65536}
PER_METRIC=${PER_METRIC:-1}
bench_header "per-pass cost of the GPA compute set: range_pass_cost, $LAUNCHES launches of $ELEMENTS elements"
metrics=$("$BIN/gpa_compute_metrics" | sed -n 's/^metrics=//p')
[ -n "$metrics" ] || { echo "gpa_compute_metrics gave no metrics"; exit 1; }
run() {
  if wall "$BIN/range_pass_cost" --metrics "$metrics" --launches "$LAUNCHES" --elements "$ELEMENTS" "$@"; then
    grep '^range_pass_cost' "$BENCH_TMP/last.out"
  else
    echo "range_pass_cost $* failed:"; tail -5 "$BENCH_TMP/last.out"
  fi
  echo "wall_s=$WALL"
}
run --flush 0
run --flush 1
run --flush 0 --room 4
run --flush 1 --range user
[ "$PER_METRIC" = 1 ] && run --flush 0 --per-metric 1
