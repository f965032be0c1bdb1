#!/usr/bin/env bash
# What PM sampling costs an application (issue 35's cost check: time with --pm-sampling / alone <= 1.02), on a
# launch-bound loop (bench/launch_loop, ~2 us kernels: its own loop time) and on the ResNet-18 training loop
# (tests/tools/gpaprof/cuda_apps/torch_training_loop.py: its loop_seconds, and wall time with Python's and the
# sampler's start included, as a second table), against the peer in
# the same interleaved rounds: Nsight Systems sampling GPU metrics at the same rate (--gpu-metrics-devices=0, CPU
# sampling and context switches off; with --trace=none as the like of gpaprof --pm-sampling alone, and with
# --trace=cuda as the like of gpaprof -t --pm-sampling). Ratios are medians over ROUNDS, each contender against the
# program alone.
#
# Usage: bench/pm_sampling_cost.sh [build-dir]
#   INTERVAL (100us), ROUNDS (5), LAUNCHES (50000), STEPS (30: ResNet-18 steps), PROGRAMS ("launch resnet"),
#   PIN (as bench/common.sh), NSYS (path of nsys; NSYS= leaves the peer out), TIMEOUT (300 s a run),
#   CONTENDERS (default "alone pm trace trace-pm" and nsys's two; alone is always run)
source "$(dirname "$0")/common.sh" "$@"
INTERVAL=${INTERVAL:-100us}
ROUNDS=${ROUNDS:-5}
TIMEOUT=${TIMEOUT:-300}
bench_default_pin
if [ -z "${NSYS+set}" ]; then
  NSYS=$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2> /dev/null | head -1)
fi
interval_ns=$(awk -v s="$INTERVAL" 'BEGIN {n = s + 0; if (s ~ /ms$/) n *= 1e6; else if (s ~ /us$/) n *= 1e3; printf "%.0f", n}')
nsys_hz=$(awk -v n="$interval_ns" 'BEGIN {h = 1e9 / n; if (h > 200000) h = 200000; if (h < 10) h = 10; printf "%.0f", h}')
bench_header "PM sampling cost: every $INTERVAL (nsys $nsys_hz Hz), $ROUNDS interleaved rounds, pinned: ${PIN:-no}"

script=$BENCH_ROOT/tests/tools/gpaprof/cuda_apps/torch_training_loop.py
declare -A program=(
  [launch]="$BIN/launch_loop --launches ${LAUNCHES:-50000} --elements 65536 --kernel saxpy --warmup 100"
  [resnet]="python3 $script --steps ${STEPS:-30}"
)
contenders=(alone pm trace trace-pm)
[ -n "$NSYS" ] && contenders+=(nsys-metrics nsys-trace-metrics)
if [ -n "${CONTENDERS:-}" ]; then
  read -r -a contenders <<< "alone ${CONTENDERS//alone/}"
  [ -z "$NSYS" ] && read -r -a contenders <<< "$(printf '%s ' "${contenders[@]}" | sed 's/nsys-[a-z-]*//g')"
fi
nsys_common="profile --sample=none --cpuctxsw=none --gpu-metrics-devices=0 --gpu-metrics-frequency=$nsys_hz -f true"

status=0
for name in ${PROGRAMS:-launch resnet}; do
  app=${program[$name]:-}
  [ -n "$app" ] || { echo "   unknown program '$name' (launch, resnet)"; status=1; continue; }
  if [ "$name" = resnet ] && ! python3 -c "import torch, torchvision" 2> /dev/null; then
    echo "   $name skipped: no torch/torchvision in this Python"
    continue
  fi
  declare -A times=() walls=()
  for round in $(seq "$ROUNDS"); do
    for c in "${contenders[@]}"; do
      case $c in
        alone) cmd="$app" ;;
        pm) cmd="$GPAPROF --pm-sampling=$INTERVAL --no-progress -o $BENCH_TMP/pm -- $app" ;;
        trace) cmd="$GPAPROF -t --no-progress -o $BENCH_TMP/trace -- $app" ;;
        trace-pm) cmd="$GPAPROF -t --pm-sampling=$INTERVAL --no-progress -o $BENCH_TMP/tpm -- $app" ;;
        nsys-metrics) cmd="$NSYS $nsys_common --trace=none -o $BENCH_TMP/nsys1 -- $app" ;;
        nsys-trace-metrics) cmd="$NSYS $nsys_common --trace=cuda -o $BENCH_TMP/nsys2 -- $app" ;;
      esac
      # shellcheck disable=SC2086  # word lists on purpose
      wall $PIN timeout "$TIMEOUT" $cmd
      rc=$?
      loop=$(grep -o 'loop_seconds=[0-9.]*' "$BENCH_TMP/last.out" | head -1 | cut -d= -f2)
      value=${loop:-$WALL}
      if [ $rc -ne 0 ] && [[ $c != nsys* ]]; then
        echo "   $name/$c round $round: exit $rc; its output:"; tail -8 "$BENCH_TMP/last.out" | sed 's/^/     /'
        status=1
        continue
      fi
      case $c in
        pm | trace-pm)
          f=$BENCH_TMP/$([ "$c" = pm ] && echo pm || echo tpm).pmsampling.csv
          [ -s "$f" ] || echo "   $name/$c round $round: no $(basename "$f") written"
          rm -f "$f" ;;
      esac
      times[$c]="${times[$c]:-} $value"
      walls[$c]="${walls[$c]:-} $WALL"
    done
  done
  table() {  # table WHAT KIND: the medians of times (loop) or walls (wall)
    echo "-- $name ($1, median of $ROUNDS)"
    printf '   %-20s %10s %10s\n' contender seconds vs_alone
    local -n values=$2
    local alone m
    alone=$(median ${values[alone]})
    for c in "${contenders[@]}"; do
      [ -n "${values[$c]:-}" ] || { printf '   %-20s %10s\n' "$c" "no runs"; continue; }
      m=$(median ${values[$c]})
      printf '   %-20s %10s %10s\n' "$c" "$m" "$(ratio "$m" "$alone")"
      echo "FIGURE pm_cost $name${3:-} $c $(ratio "$m" "$alone")"
    done
  }
  table "loop seconds" times
  [ "$name" = resnet ] && table "wall seconds: Python's start and the sampler's included" walls " wall"
  unset times walls
done
exit $status
