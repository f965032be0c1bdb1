#!/usr/bin/env bash
# gpaprof -t's own callbacks, site by site, for two builds (or variants) in the same rounds: GPAPROF_CUDA_STATS on the
# launch loop (bench/launch_loop: LAUNCHES launches of a ~2 us saxpy, then cudaGetLastError), the contenders taking
# turns at going first. A launch makes six callbacks, so its cost here is
#   2 x enter(app) + enter(nested) + 2 x exit(app) + exit(nested)
# (the application's cudaLaunchKernel and cudaGetLastError, and the runtime's driver launch nested in the first), in
# ns; each site's figure includes its own measurement (two timestamp-counter reads and two atomic adds a call).
#
# Why not the wall clock: the GPU machine's runs fall into two modes a process at a time, which move
# bench/trace_launch_bound.sh's ratios by 3-10 %, more than a change of the callbacks does. The callbacks' sums move
# with the mode too, but two builds' runs in the same mode differ by little (docs/benchmarks.md, 2026-11-30 14:30):
# "same mode" gives the ratio over the rounds where both runs' loops were on the same side of the median loop.
#
# Usage: bench/trace_callback_costs.sh [build-dir]
#   BASE_GPAPROF (a second gpaprof, e.g. of an earlier commit, with its injection library beside it: the reference),
#   GPAPROF_VARIANTS ("name:VAR=value,--option ...", as in bench/trace_launch_bound.sh), ROUNDS (12), LAUNCHES
#   (50000), ELEMENTS (65536), WARMUP (100), PIN ("taskset -c 2-5" on machines of 8 cores or more).
source "$(dirname "$0")/common.sh" "$@"
ROUNDS=${ROUNDS:-12}
LAUNCHES=${LAUNCHES:-50000}
ELEMENTS=${ELEMENTS:-65536}
WARMUP=${WARMUP:-100}
bench_default_pin
bench_header "gpaprof's callbacks by site: $LAUNCHES launches, $ROUNDS rounds, pinned: ${PIN:-no}"

loop="$BIN/launch_loop --launches $LAUNCHES --elements $ELEMENTS --kernel saxpy --warmup $WARMUP"
contenders=("gpaprof|$GPAPROF -t")
for variant in ${GPAPROF_VARIANTS:-}; do
  gpaprof_variant "$variant"
  contenders+=("gpaprof:$VARIANT_NAME|$VARIANT_COMMAND")
done
[ -n "${BASE_GPAPROF:-}" ] && contenders+=("gpaprof-base|$BASE_GPAPROF -t")
reference=$([ -n "${BASE_GPAPROF:-}" ] && echo gpaprof-base || echo gpaprof)

runs=$BENCH_TMP/runs.txt  # round contender loop_s enter(app) enter(nested) exit(app) exit(nested) enqueue app_entries
: > "$runs"
site() { grep -oE "$1 [0-9]+ x [0-9]+ ns" <<< "$costs" | awk '{print $2, $4}'; }  # calls and ns of a site in $costs
for round in $(seq "$ROUNDS"); do
  count=${#contenders[@]}
  for place in $(seq 0 $((count - 1))); do
    IFS='|' read -r name command <<< "${contenders[$(((place + round - 1) % count))]}"
    # shellcheck disable=SC2086  # the command is a word list on purpose
    wall env GPAPROF_CUDA_STATS=1 $PIN $command --no-progress -o "$BENCH_TMP/run" -- $loop
    last_figure loop_seconds "$name, round $round" || continue
    costs=$(grep -m1 'CUDA callback costs' "$BENCH_TMP/last.out")
    entries='' enter_app='' enter_nested='' exit_app='' exit_nested='' enqueue=''
    read -r entries enter_app <<< "$(site 'enter\(app\)')"
    read -r _ enter_nested <<< "$(site 'enter\(nested\)')"
    read -r _ exit_app <<< "$(site 'exit\(app\)')"
    read -r _ exit_nested <<< "$(site 'exit\(nested\)')"
    read -r _ enqueue <<< "$(site 'enqueue')"
    if [ -z "$exit_nested" ] || [ -z "$enter_app" ] || [ -z "$enter_nested" ] || [ -z "$exit_app" ]; then
      echo "   $name, round $round: no callback costs in its output:"; tail -5 "$BENCH_TMP/last.out" | sed 's/^/     /'
      continue
    fi
    echo "$round $name $FIGURE $enter_app $enter_nested $exit_app $exit_nested ${enqueue:-0} $entries" >> "$runs"
  done
done

awk -v reference="$reference" '
  function median(list, n,   i, j, t, a) {
    for (i = 1; i <= n; i++) a[i] = list[i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n == 0 ? 0 : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
  }
  {
    name = $2; sum = 2 * $4 + $5 + 2 * $6 + $7
    if (!(name in count)) order[++names] = name
    k = ++count[name]
    loop[name, k] = $3; s[name, k] = sum
    for (c = 4; c <= 8; c++) site[name, c, k] = $c
    byRound[name, $1] = sum; loopOfRound[name, $1] = $3; rounds[$1] = 1
    all[++total] = $3
    entries[name] = entries[name] (index(" " entries[name] " ", " " $9 " ") ? "" : " " $9)
  }
  END {
    middle = median(all, total)
    printf "%-16s %10s %13s %9s %12s %8s %10s %8s %8s %9s  %s\n", "contender", "enter(app)", "enter(nested)", "exit(app)",
           "exit(nested)", "enqueue", "ns/launch", "loop_s", "paired", "same_mode", "app entries a run"
    for (i = 1; i <= names; i++) {
      name = order[i]; n = count[name]
      for (c = 4; c <= 8; c++) { for (k = 1; k <= n; k++) v[k] = site[name, c, k]; m[c] = median(v, n) }
      for (k = 1; k <= n; k++) v[k] = s[name, k]; sums = median(v, n)
      for (k = 1; k <= n; k++) v[k] = loop[name, k]; loops = median(v, n)
      p = 0; q = 0
      for (r in rounds) {
        if (!((name, r) in byRound) || !((reference, r) in byRound)) continue
        pr[++p] = byRound[name, r] / byRound[reference, r]
        if ((loopOfRound[name, r] <= middle) == (loopOfRound[reference, r] <= middle)) sm[++q] = pr[p]
      }
      printf "%-16s %10.1f %13.1f %9.1f %12.1f %8.1f %10.1f %8.4f %8s %9s  %s\n", name, m[4], m[5], m[6], m[7], m[8], sums,
             loops, p ? sprintf("%.3f", median(pr, p)) : "-", q ? sprintf("%.3f", median(sm, q)) : "-", entries[name]
      if (q) printf "   (%s / %s: %d of %d rounds in the same mode)\n", name, reference, q, p
      delete pr; delete sm
    }
  }' "$runs"
