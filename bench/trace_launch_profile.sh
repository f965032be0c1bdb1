#!/usr/bin/env bash
# Where a launch-bound loop's time goes under gpaprof -t: perf's cpu-clock samples of the launching thread, summed
# by library and turned into microseconds a launch, for the loop alone, gpaprof -t with its callbacks returning at
# once (what CUPTI's subscription and kernel activity records cost before gpaprof records anything), and gpaprof -t.
# The difference of the last two columns is gpaprof's own recording; that of the first two is CUPTI's (issue 8).
# Samples cover the launching thread's whole life (CUDA's start-up too), so the rows of the loop alone add up to
# more than its loop time; compare the columns, not a column with the loop.
#
# Usage: bench/trace_launch_profile.sh [build-dir]
#   LAUNCHES (200000), ELEMENTS (65536), FREQ (20000 samples a second), PIN ("taskset -c 2-5" on machines of 8
#   cores or more), PERF (perf's path; found on the PATH otherwise), PERF_LIBS (a folder of libraries for a perf
#   binary carried from another system: given to perf alone, never to the profiled program), SYMBOLS (25: the
#   launching thread's costliest symbols under gpaprof -t, in gpaprof's own libraries, libc, libstdc++ and the vDSO,
#   in us a launch; 0 leaves the table out), RUNS (1: runs of each contender, interleaved by round; each library's
#   figure and the loop time are the medians over the runs, since this machine's runs fall into two modes a process
#   at a time, docs/benchmarks.md), GPAPROF_VARIANTS ("name:VAR=value,--option ...": a "gpaprof:name" column each,
#   gpaprof -t with that environment and those options, as in bench/trace_launch_bound.sh), BASE_GPAPROF (a second
#   gpaprof, e.g. of an earlier commit: a "gpaprof-base" column, for A/B comparisons in the same rounds), ANNOTATE
#   (functions of gpaprof's, e.g. "gpaprof::cuda::injection::CudaPart::ApiExit": where in each the samples of
#   gpaprof -t's last run fall, source line by source line, the 12 busiest; perf annotate, every thread's samples).
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-200000}
ELEMENTS=${ELEMENTS:-65536}
FREQ=${FREQ:-20000}
bench_default_pin
PERF=${PERF:-$(command -v perf)}
if [ -z "$PERF" ] || ! [ -x "$PERF" ]; then
  echo "no perf: install it (linux-perf) or set PERF to its path" >&2
  exit 2
fi
perf_cmd=(env ${PERF_LIBS:+LD_LIBRARY_PATH=$PERF_LIBS} "$PERF")
bench_header "launch-bound profile: $LAUNCHES launches, $ELEMENTS elements, perf cpu-clock at $FREQ Hz, pinned: ${PIN:-no}"

loop=("$BIN/launch_loop" --launches "$LAUNCHES" --elements "$ELEMENTS" --kernel saxpy --warmup 100)
contenders=(
  "alone|${loop[*]}"
  "gpaprof-empty|env GPAPROF_CUDA_DIAG=empty-callbacks $GPAPROF -t --no-progress -o $BENCH_TMP/empty -- ${loop[*]}"
  "gpaprof|$GPAPROF -t --no-progress -o $BENCH_TMP/traced -- ${loop[*]}"
)
if [ -n "${BASE_GPAPROF:-}" ]; then
  contenders+=("gpaprof-base|$BASE_GPAPROF -t --no-progress -o $BENCH_TMP/base -- ${loop[*]}")
fi
for variant in ${GPAPROF_VARIANTS:-}; do
  gpaprof_variant "$variant"
  contenders+=("gpaprof:$VARIANT_NAME|$VARIANT_COMMAND --no-progress -o $BENCH_TMP/variant -- ${loop[*]}")
done
RUNS=${RUNS:-1}
declare -A costs loops dsos done_runs
names=()
for entry in "${contenders[@]}"; do names+=("${entry%%|*}"); done
for run in $(seq "$RUNS"); do
  for entry in "${contenders[@]}"; do
    IFS='|' read -r name command <<< "$entry"
    data=$BENCH_TMP/${name//:/-}.data
    # shellcheck disable=SC2086  # the command is a word list on purpose
    "${perf_cmd[@]}" record -q -e cpu-clock -F "$FREQ" -o "$data" -- env -u LD_LIBRARY_PATH $PIN $command > "$BENCH_TMP/$name.out" 2>&1
    seconds=$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/$name.out" | head -1 | cut -d= -f2)
    if [ -z "$seconds" ]; then
      echo "   $name: no loop time; its output:"
      sed 's/^/     /' "$BENCH_TMP/$name.out" | tail -20
      continue
    fi
    loops[$name]="${loops[$name]:-} $(awk -v s="$seconds" -v n="$LAUNCHES" 'BEGIN {printf "%.2f", s * 1e6 / n}')"
    # The launching thread: the program's thread with the most samples.
    tid=$("${perf_cmd[@]}" report -i "$data" --stdio --no-children -g none --sort pid 2> /dev/null |
          awk '$2 ~ /:launch_loop$/ {print $2; exit}')
    tid=${tid%%:*}
    [ -n "$tid" ] || { echo "   $name: no samples of launch_loop"; continue; }
    done_runs[$name]="${done_runs[$name]:-} $run"
    while read -r samples dso; do
      costs[$name,$dso,$run]=$(awk -v c="$samples" -v f="$FREQ" -v n="$LAUNCHES" 'BEGIN {printf "%.2f", c * 1e6 / f / n}')
      dsos[$dso]=1
    # (Sorted by thread and library rather than filtered with --tid: perf 6.1's --tid drops the samples a thread
    # took after its process exec'd, as gpaprof's child does.)
    done < <("${perf_cmd[@]}" report -i "$data" --stdio --no-children -g none -n --sort pid,dso 2> /dev/null |
             awk -v t="$tid" '!/^#/ && NF >= 4 && $3 ~ ("^" t ":") {print $2, $4}')
    [ "$name" = gpaprof ] && traced_tid=$tid
  done
done
declare -A cost loop_us
for name in "${names[@]}"; do
  # shellcheck disable=SC2086  # word lists on purpose
  [ -n "${loops[$name]:-}" ] && loop_us[$name]=$(median ${loops[$name]})
  [ -n "${done_runs[$name]:-}" ] || continue
  for dso in "${!dsos[@]}"; do
    # A library without samples in one of the runs counts 0 there: the median is over every run.
    values=() any=
    for run in ${done_runs[$name]}; do
      values+=("${costs[$name,$dso,$run]:-0}")
      [ -n "${costs[$name,$dso,$run]:-}" ] && any=1
    done
    [ -n "$any" ] && cost[$name,$dso]=$(printf '%.2f' "$(median "${values[@]}")")
  done
done

printf '%-34s' "us a launch, launching thread"
for name in "${names[@]}"; do printf ' %14s' "$name"; done
echo
for dso in $(printf '%s\n' "${!dsos[@]}" | sort); do
  printf '%-34s' "$dso"
  for name in "${names[@]}"; do printf ' %14s' "${cost[$name,$dso]:--}"; done
  echo
done
printf '%-34s' "sum"
for name in "${names[@]}"; do
  printf ' %14s' "$(for dso in "${!dsos[@]}"; do echo "${cost[$name,$dso]:-0}"; done | awk '{s += $1} END {printf "%.2f", s}')"
done
echo
printf '%-34s' "loop time a launch"
for name in "${names[@]}"; do printf ' %14s' "${loop_us[$name]:--}"; done
echo
[ "$RUNS" -gt 1 ] && echo "   (medians of $RUNS runs a contender; loop times of the runs: $(for name in "${names[@]}"; do printf '%s:%s; ' "$name" "${loops[$name]:-}"; done))"
grep -h -o -m 1 '([0-9]* API calls' "$BENCH_TMP/gpaprof.out" 2> /dev/null | sed 's/^(/   (gpaprof wrote /; s/$/)/'

# Where gpaprof's own share goes, by function (what to make cheaper next).
if [ "${SYMBOLS:-25}" -gt 0 ] && [ -n "${traced_tid:-}" ]; then
  echo "-- gpaprof -t, launching thread: the costliest symbols of gpaprof's libraries, libc, libstdc++ and the vDSO (us a launch)"
  "${perf_cmd[@]}" report -i "$BENCH_TMP/gpaprof.data" --stdio --no-children -g none -n --sort pid,dso,sym 2> /dev/null |
    awk -v t="$traced_tid" -v f="$FREQ" -v n="$LAUNCHES" -v max="${SYMBOLS:-25}" '
      # (The count kept here, not by head: head leaving early ended perf with SIGPIPE and the script with 141.)
      !/^#/ && NF >= 6 && $3 ~ ("^" t ":") && $4 ~ /gpaprof|^libc[.-]|libstdc|vdso/ && ++shown <= max {
        sym = ""; for (i = 6; i <= NF; i++) sym = sym " " $i
        printf "   %8.3f  %-28s %s\n", $2 * 1e6 / f / n, $4, sym }'
fi

# Where inside a function its samples fall (what docs/benchmarks.md's 2026-11-29, 07:38 section found this way).
for function in ${ANNOTATE:-}; do
  echo "-- gpaprof -t: $function, the share of its samples by source line"
  "${perf_cmd[@]}" annotate -i "$BENCH_TMP/gpaprof.data" --stdio -l "$function" 2> /dev/null |
    awk '/Sorted summary/ {on = 1; next} on && NF == 2 && ++shown <= 12 {printf "   %7s %%  %s\n", $1, $2}'
done
