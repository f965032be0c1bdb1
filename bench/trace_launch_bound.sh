#!/usr/bin/env bash
# Launch-bound tracing, every contender in the same rounds: the loop of ~2 us kernels alone, CUPTI's own floor
# (bench/cupti_trace_floor: CUPTI set up inside the program, callbacks that return at once), gpaprof -t with its
# callbacks returning at once, gpaprof -t, and the peer, Nsight Systems' CUDA trace (nsys profile --trace=cuda),
# where it is installed. Rounds are interleaved (one run of each contender per round, each round starting one
# contender further on) so that a machine's drift and a place in the round fall on all of them alike, the
# processes are pinned to the same cores (PIN), and the timed loop starts after WARMUP launches (module load and
# first-call costs are not per-launch costs). Ratios are medians over ROUNDS.
#
# Usage: bench/trace_launch_bound.sh [build-dir]
#   LAUNCHES (50000), ELEMENTS (65536), ROUNDS (7), WARMUP (100), PIN ("taskset -c 2-5" on machines of 8 cores
#   or more; PIN= runs unpinned), NSYS (path of nsys; found on the PATH or under /opt/nvidia otherwise),
#   BASE_GPAPROF (a second gpaprof, e.g. of an earlier commit: a "gpaprof-base" row, for A/B comparisons in one
#   run), GPAPROF_VARIANTS ("name:VAR=value,--option ..." : a "gpaprof:name" row each, gpaprof -t with that
#   environment and those options), FLOORS (more feature sets of bench/cupti_trace_floor, space-separated: a "floor:<set>" row each),
#   CONTENDERS (names of the rows to run, space-separated; default all), REPEATS (1: runs of each contender in a round,
#   the fastest kept; on a machine whose runs fall into two modes a process at a time, docs/benchmarks.md, 3 makes
#   the rounds compare fast runs with fast runs). Rows "nsys" (Nsight Systems' defaults) and
#   "nsys-all" (--cuda-trace-all-apis=true, where nsys has it: every call, as gpaprof records); each nsys row's last
#   report's API calls are counted at the end. Columns: x_ref (the medians' ratio), best (the fastest runs'), paired
#   (the median of the rounds' ratios), q25 (the ratio of the lower quartiles of every run, repeats included: the
#   fast mode's figure, which the share of slow-mode runs moves little).
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-50000}
ELEMENTS=${ELEMENTS:-65536}
ROUNDS=${ROUNDS:-7}
REPEATS=${REPEATS:-1}
WARMUP=${WARMUP:-100}
bench_default_pin
if [ -z "${NSYS+set}" ]; then
  NSYS=$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2> /dev/null | head -1)
fi
bench_header "launch-bound tracing: $LAUNCHES launches, $ELEMENTS elements, $ROUNDS interleaved rounds ($REPEATS run(s) of each a round, the fastest kept), warm-up $WARMUP, pinned: ${PIN:-no}"

loop_args=(--launches "$LAUNCHES" --elements "$ELEMENTS")
# name|reference|command ...; the reference is the contender whose loop this one is compared with.
contenders=(
  "alone|alone|$BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP"
  "floor:none|floor:none|$BIN/cupti_trace_floor ${loop_args[*]} --cupti none"
  "floor:conc|floor:none|$BIN/cupti_trace_floor ${loop_args[*]} --cupti conc"
  "floor:rt|floor:none|$BIN/cupti_trace_floor ${loop_args[*]} --cupti rt"
  "floor:conc,rt|floor:none|$BIN/cupti_trace_floor ${loop_args[*]} --cupti conc,rt"
  "floor:gpaprof|floor:none|$BIN/cupti_trace_floor ${loop_args[*]} --cupti gpaprof"
  "gpaprof-empty|alone|env GPAPROF_CUDA_DIAG=empty-callbacks $GPAPROF -t --no-progress -o $BENCH_TMP/empty -- $BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP"
  "gpaprof|alone|$GPAPROF -t --no-progress -o $BENCH_TMP/traced -- $BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP"
)
for floor in ${FLOORS:-}; do
  contenders+=("floor:$floor|floor:none|$BIN/cupti_trace_floor ${loop_args[*]} --cupti $floor")
done
for variant in ${GPAPROF_VARIANTS:-}; do
  gpaprof_variant "$variant"
  contenders+=("gpaprof:$VARIANT_NAME|alone|$VARIANT_COMMAND --no-progress -o $BENCH_TMP/variant -- $BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP")
done
if [ -n "${BASE_GPAPROF:-}" ]; then
  contenders+=("gpaprof-base|alone|$BASE_GPAPROF -t --no-progress -o $BENCH_TMP/base -- $BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP")
fi
if [ -n "$NSYS" ]; then
  contenders+=("nsys|alone|$NSYS profile --trace=cuda --sample=none --cpuctxsw=none --force-overwrite=true -o $BENCH_TMP/nsys -- $BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP")
  # By default Nsight Systems leaves out frequent, cheap calls (cudaGetLastError among them: its user guide's
  # --cuda-trace-all-apis); gpaprof traces every call. The like-for-like row, where this nsys has the option:
  # (The help into a variable first: grep -q ending the pipe early would fail it under pipefail.)
  nsys_help=$("$NSYS" profile --help 2>&1)
  if grep -q -- "--cuda-trace-all-apis" <<< "$nsys_help"; then
    contenders+=("nsys-all|alone|$NSYS profile --trace=cuda --cuda-trace-all-apis=true --sample=none --cpuctxsw=none --force-overwrite=true -o $BENCH_TMP/nsys-all -- $BIN/launch_loop ${loop_args[*]} --kernel saxpy --warmup $WARMUP")
  fi
else
  echo "   (no nsys found: the peer's row is left out)"
fi

if [ -n "${CONTENDERS:-}" ]; then
  chosen=()
  for entry in "${contenders[@]}"; do
    case " $CONTENDERS " in *" ${entry%%|*} "*) chosen+=("$entry") ;; esac
  done
  contenders=("${chosen[@]}")
fi

declare -A loops calls round_loop every_run
for round in $(seq "$ROUNDS"); do
  # Each round starts one contender further on: with a fixed order, the same two builds compared in one run read
  # 1.016 and 1.029 by the paired medians with one first, 0.999 with the other first (docs/benchmarks.md,
  # 2026-11-30): a place in the round moves a row by as much as the changes compared.
  count=${#contenders[@]}
  for place in $(seq 0 $((count - 1))); do
    entry=${contenders[$(((place + round - 1) % count))]}
    IFS='|' read -r name _ command <<< "$entry"
    fastest_run=""
    for _ in $(seq "$REPEATS"); do
      # shellcheck disable=SC2086  # the command is a word list on purpose
      wall $PIN $command
      last_figure loop_seconds "$name, round $round" || continue
      loop=$FIGURE
      every_run[$name]="${every_run[$name]:-} $loop"
      # gpaprof's runs say how many calls they wrote: a run that lost calls is cheaper, and its time no evidence.
      written=$(grep -o '([0-9]* API calls' "$BENCH_TMP/last.out" | head -1 | tr -dc '0-9')
      [ -n "$written" ] && calls[$name]="${calls[$name]:-} $written"
      if [ -z "$fastest_run" ] || awk -v a="$loop" -v b="$fastest_run" 'BEGIN {exit !(a < b)}'; then fastest_run=$loop; fi
    done
    [ -n "$fastest_run" ] || continue
    loops[$name]="${loops[$name]:-} $fastest_run"
    round_loop[$name,$round]=$fastest_run
  done
done

# x_ref: the medians' ratio (the figure reported); best: the fastest run's against the reference's fastest, for
# a machine whose runs fall into two modes (docs/benchmarks.md), where a median of few rounds moves with the mix;
# paired: the median of each round's ratio to the reference's run of the same round (a drift slower than a round
# falls out of it).
fastest() { printf '%s\n' "$@" | sort -g | head -1; }
# The lower quartile of every run (each repeat counted, not only a round's fastest): on a machine whose runs fall into
# modes a process at a time, the figure of the fast mode that a few slow-mode runs do not move, unlike the fastest run.
quartile() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {i=(NR-1)*0.25; f=int(i); print (f+1<NR) ? v[f+1]+(v[f+2]-v[f+1])*(i-f) : v[NR]}'; }
paired() {
  local name=$1 reference=$2 ratios=() r
  for r in $(seq "$ROUNDS"); do
    [ -n "${round_loop[$name,$r]:-}" ] && [ -n "${round_loop[$reference,$r]:-}" ] &&
      ratios+=("$(ratio "${round_loop[$name,$r]}" "${round_loop[$reference,$r]}")")
  done
  [ ${#ratios[@]} -gt 0 ] && median "${ratios[@]}" || echo 0
}
printf '%-16s %12s %11s %10s %8s %8s %8s %-14s %s\n' contender loop_s us/launch x_ref best paired q25 reference runs
for entry in "${contenders[@]}"; do
  IFS='|' read -r name reference _ <<< "$entry"
  [ -n "${loops[$name]:-}" ] || continue
  # shellcheck disable=SC2086
  m=$(median ${loops[$name]})
  # shellcheck disable=SC2086
  r=$(median ${loops[$reference]:-$m})
  # shellcheck disable=SC2086
  best=$(ratio "$(fastest ${loops[$name]})" "$(fastest ${loops[$reference]:-$m})")
  # shellcheck disable=SC2086
  q25=$(ratio "$(quartile ${every_run[$name]})" "$(quartile ${every_run[$reference]:-${every_run[$name]}})")
  printf '%-16s %12.4f %11.3f %10.3f %8.3f %8.3f %8.3f %-14s %s\n' "$name" "$m" "$(awk -v s="$m" -v n="$LAUNCHES" 'BEGIN {print s * 1e6 / n}')" \
    "$(ratio "$m" "$r")" "$best" "$(paired "$name" "$reference")" "$q25" "$reference" "${loops[$name]}"
done
# Issue 34's comparison: each gpaprof row against each nsys row, round by round (the median of the rounds' ratios).
for name in "${!loops[@]}"; do
  case $name in gpaprof | gpaprof:* | gpaprof-base) ;; *) continue ;; esac
  for peer in nsys nsys-all; do
    # shellcheck disable=SC2086
    [ -n "${loops[$peer]:-}" ] && echo "   ($name / $peer, paired by round: $(paired "$name" "$peer"); lower quartiles of every run: $(ratio "$(quartile ${every_run[$name]})" "$(quartile ${every_run[$peer]})"))"
  done
done
for name in "${!calls[@]}"; do
  # shellcheck disable=SC2086
  distinct=$(printf '%s\n' ${calls[$name]} | sort -u | tr '\n' ' ')
  echo "   ($name: API calls written per run: $distinct$([ "$(wc -w <<< "$distinct")" -gt 1 ] && echo "- NOT THE SAME IN EVERY RUN"))"
done
# What each nsys run recorded (its last report): the API calls by name, as gpaprof's count above.
# The nsys that Nsight Compute carries leaves a .qdstrm: its QdstrmImporter (beside it, under host/) makes the report.
importer=$(ls "$(dirname "$(readlink -f "${NSYS:-/nonexistent}")")"/../linux-desktop-*/QdstrmImporter \
             /opt/nvidia/nsight-*/*/host/linux-desktop-*/QdstrmImporter /opt/nvidia/nsight-systems/*/host-linux-x64/QdstrmImporter \
             2> /dev/null | head -1)
for report in nsys nsys-all; do
  if [ ! -f "$BENCH_TMP/$report.nsys-rep" ] && [ -f "$BENCH_TMP/$report.qdstrm" ] && [ -n "$importer" ]; then
    "$importer" -i "$BENCH_TMP/$report.qdstrm" > /dev/null 2>&1
  fi
  [ -f "$BENCH_TMP/$report.nsys-rep" ] || { [ -f "$BENCH_TMP/$report.qdstrm" ] && echo "   ($report: only a .qdstrm, ${importer:-no importer} did not read it)"; continue; }
  counts=$("$NSYS" stats -q --force-export=true --report cuda_api_sum --format csv "$BENCH_TMP/$report.nsys-rep" 2> /dev/null |
    awk -F'","|^"|"$' 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i == "Num Calls") c = i; if ($i == "Name") n = i}; next}
                      c && n {total += $c; list = list sprintf("%s %s, ", $n, $c)} END {printf "%d API calls: %s", total, list}')
  echo "   ($report's last report: ${counts:-could not be read})"
done
kernels=$(awk '/=====cuda Kernel Timestamp Output=====/{getline; print; exit}' "$BENCH_TMP/traced.atp" 2> /dev/null)
echo "   (gpaprof's last .atp: ${kernels:-?} kernel lines for $((LAUNCHES + WARMUP)) launches)"
