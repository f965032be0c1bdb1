#!/usr/bin/env bash
# bench/trace_callback_costs.sh's own arithmetic without a GPU: stand-ins for launch_loop and two gpaprof builds (the
# base's sites 10 % dearer) whose runs alternate between a fast and a slow mode, as the GPU machine's do a process at
# a time; the slow mode makes every site 1.5 times as dear.
#
# Usage: trace_callback_costs_test.sh <bench/trace_callback_costs.sh>
set -uo pipefail
script=$1
work=$(mktemp -d /tmp/trace-callback-costs-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/bench" "$work/build/bin" "$work/base/bin" "$work/tmp"

# launch_loop: 0.3 s of loop in runs 1-2, 5-6, ... (slow mode), 0.2 s in runs 3-4, 7-8, ...; tells its gpaprof
# stand-in the mode. With two contenders, both runs of a round are in one mode, and rounds alternate.
cat > "$work/build/bench/launch_loop" <<'STUB'
#!/usr/bin/env bash
counter=$STUB_DIR/runs
n=$(( $(cat "$counter" 2> /dev/null || echo 0) + 1 ))
echo "$n" > "$counter"
[ $(((n - 1) % 4)) -ge 2 ] && echo 0.2 > "$STUB_DIR/mode" || echo 0.3 > "$STUB_DIR/mode"
echo "launch_loop launches=10 loop_seconds=$(cat "$STUB_DIR/mode")"
STUB
# gpaprof: runs the program after "--", then prints its callback costs (STUB_COST times the sites, 1.5 times in the
# slow mode) and the line it prints of what it wrote.
cat > "$work/build/bin/gpaprof" <<'STUB'
#!/usr/bin/env bash
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
"$@"
[ -n "${GPAPROF_CUDA_STATS:-}" ] || { echo "gpaprof: no GPAPROF_CUDA_STATS"; exit 1; }
f=$(awk -v c="${STUB_COST:-1}" -v m="$(cat "$STUB_DIR/mode")" 'BEGIN {print c * (m > 0.25 ? 1.5 : 1)}')
s() { awk -v f="$f" -v v="$1" 'BEGIN {printf "%d", v * f}'; }
echo "gpaprof: CUDA callback costs: enter(app) 20 x $(s 80) ns, enter(nested) 10 x $(s 120) ns, exit(app) 20 x $(s 100) ns, exit(nested) 10 x $(s 40) ns, enqueue 10 x $(s 60) ns, stack-walk 3 x 50000 ns; 10 activity records"
echo "gpaprof: wrote out.atp (20 API calls, 1 threads)"
STUB
printf '#!/usr/bin/env bash\nSTUB_COST=1.1 exec %s "$@"\n' "$work/build/bin/gpaprof" > "$work/base/bin/gpaprof"
chmod +x "$work/build/bench/launch_loop" "$work/build/bin/gpaprof" "$work/base/bin/gpaprof"

source "$(dirname "$0")/checks.sh"
row() { awk -v n="$1" '$1 == n' "$work/out.txt"; }

STUB_DIR=$work BENCH_TMP=$work/tmp PIN='' ROUNDS=4 LAUNCHES=10 BASE_GPAPROF=$work/base/bin/gpaprof \
  bash "$script" "$work/build" > "$work/out.txt" 2>&1
rc=$?
cat "$work/out.txt"
check "exit status" 0 "$rc"
# Sums a launch: fast 2*80+120+2*100+40 = 520, slow 780; the base's 1.1 times (572, 858). Each contender has two fast
# and two slow runs.
check "gpaprof's sites, medians of fast and slow runs" "100.0 150.0 125.0 50.0 75.0" \
  "$(row gpaprof | awk '{print $2, $3, $4, $5, $6}')"
check "gpaprof: ns a launch, the median of 520 and 780" "650.0" "$(row gpaprof | awk '{print $7}')"
check "paired and same-mode ratios against the base: 1/1.1" "0.909 0.909" "$(row gpaprof | awk '{print $9, $10}')"
check "the base against itself" "1.000 1.000" "$(row gpaprof-base | awk '{print $9, $10}')"
check "the application's entries a run" "20" "$(row gpaprof | awk '{print $NF}')"
check "how many rounds were in the same mode is said" "1" "$(grep -c '(gpaprof / gpaprof-base: 4 of 4 rounds in the same mode)' "$work/out.txt")"

# A run without the costs line is named and left out, the others still reported; a variant has a row of its own.
cat > "$work/broken" <<'STUB'
#!/usr/bin/env bash
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
"$@"
echo "gpaprof: wrote out.atp (20 API calls, 1 threads)"
STUB
chmod +x "$work/broken"
rm -f "$work/runs"
STUB_DIR=$work BENCH_TMP=$work/tmp PIN='' ROUNDS=2 LAUNCHES=10 BASE_GPAPROF=$work/broken \
  GPAPROF_VARIANTS="v:SOME_SWITCH=1" bash "$script" "$work/build" > "$work/out2.txt" 2>&1
cat "$work/out2.txt"
check "a run without costs is named" "2" "$(grep -c 'gpaprof-base, round [12]: no callback costs' "$work/out2.txt")"
check "the other contenders are reported, with no ratio to a base that has no runs" "- -|- -" \
  "$(awk '$1 == "gpaprof" || $1 == "gpaprof:v" {print $9, $10}' "$work/out2.txt" | paste -sd'|')"

checks_done
