#!/usr/bin/env bash
# bench/trace_launch_bound.sh's own arithmetic without a GPU: stand-ins for launch_loop and gpaprof (in a build folder
# of their own) whose runs alternate between a fast and a slow mode, as the GPU machine's do a process at a time.
# With REPEATS=2 each round keeps each contender's fast run, and the ratio is exact; every row says what it kept.
#
# Usage: trace_launch_bound_test.sh <bench/trace_launch_bound.sh>
set -uo pipefail
script=$1
work=$(mktemp -d /tmp/trace-launch-bound-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/bench" "$work/build/bin" "$work/tmp"

# launch_loop: 0.2 s of loop in even runs, 0.3 s in odd ones (a counter file per stand-in), times STUB_FACTOR.
cat > "$work/build/bench/launch_loop" <<'STUB'
#!/usr/bin/env bash
counter=$STUB_DIR/runs
n=$(( $(cat "$counter" 2> /dev/null || echo 0) + 1 ))
echo "$n" > "$counter"
base=$([ $((n % 2)) -eq 0 ] && echo 0.2 || echo 0.3)
awk -v b="$base" -v f="${STUB_FACTOR:-1}" 'BEGIN {printf "launch_loop launches=10 loop_seconds=%.6f\n", b * f}'
STUB
# gpaprof: the program after "--" at 1.5 times its loop, and the line gpaprof prints of what it wrote.
cat > "$work/build/bin/gpaprof" <<'STUB'
#!/usr/bin/env bash
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
STUB_FACTOR=1.5 "$@"
echo "gpaprof: wrote out.atp (100112 API calls, 1 threads)"
STUB
chmod +x "$work/build/bench/launch_loop" "$work/build/bin/gpaprof"

source "$(dirname "$0")/checks.sh"
row() { awk -v n="$1" '$1 == n' "$work/out.txt"; }

STUB_DIR=$work BENCH_TMP=$work/tmp NSYS='' PIN='' ROUNDS=3 REPEATS=2 LAUNCHES=10 CONTENDERS="alone gpaprof" \
  bash "$script" "$work/build" > "$work/out.txt" 2>&1
rc=$?
cat "$work/out.txt"
check "exit status" 0 "$rc"
check "the header says what a round keeps" 1 "$(grep -c '(2 run(s) of each a round, the fastest kept)' "$work/out.txt")"
# Each contender's two runs of a round are one fast, one slow: the fast one is kept.
check "alone: the fast runs kept" "0.200000 0.200000 0.200000" "$(row alone | awk '{print $(NF-2), $(NF-1), $NF}')"
check "gpaprof: the fast runs kept" "0.300000 0.300000 0.300000" "$(row gpaprof | awk '{print $(NF-2), $(NF-1), $NF}')"
check "gpaprof against the loop alone (medians)" "1.500" "$(row gpaprof | awk '{print $4}')"
check "gpaprof against the loop alone (paired)" "1.500" "$(row gpaprof | awk '{print $6}')"
check "the calls of every run are counted" 1 "$(grep -c '(gpaprof: API calls written per run: 100112 )' "$work/out.txt")"

# One run a round (the default): each run is kept as it came, whatever its mode, and each round starts one contender
# further on: round 1 runs the loop alone (the 1st run: slow) then gpaprof (2nd: fast), round 2 gpaprof (3rd: slow)
# then the loop alone (4th: fast). With a fixed order each contender would have kept one mode in every round.
rm -f "$work/runs"
STUB_DIR=$work BENCH_TMP=$work/tmp NSYS='' PIN='' ROUNDS=2 LAUNCHES=10 CONTENDERS="alone gpaprof" \
  bash "$script" "$work/build" > "$work/out.txt" 2>&1
check "one run a round: alone's runs as they came" "0.300000 0.200000" "$(row alone | awk '{print $(NF-1), $NF}')"
check "one run a round: gpaprof's runs as they came" "0.300000 0.450000" "$(row gpaprof | awk '{print $(NF-1), $NF}')"
checks_done
