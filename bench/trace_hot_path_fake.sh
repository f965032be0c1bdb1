#!/usr/bin/env bash
# gpaprof -t's own cost a launch, on the CPU alone: the stand-in for CUPTI and the driver (tests/tools/gpaprof/cuda/
# fake_cuda) delivers the callbacks of a launch loop (cudaLaunchKernel with its nested cuLaunchKernel, then
# cudaGetLastError) to gpaprof's real CUDA part, without a GPU and without CUDA's own costs, so that what gpaprof
# does on the launching thread is measured apart from the GPU machine's run-to-run modes (docs/benchmarks.md).
# Contenders, in interleaved rounds: the loop with no subscriber (the stand-in's own cost), gpaprof -t with callbacks
# that return at once (GPAPROF_CUDA_DIAG=empty-callbacks: the floor), gpaprof -t, and gpaprof -t -F cudaGetLastError.
# gpaprof's own share is its row minus the floor's; the ratio against the floor is the figure to compare across
# commits on one machine.
#
# The stand-in does some of what the real driver does around the callbacks, by default: it sweeps TOUCH_KB of memory
# before each callback (a model of the driver's and CUPTI's own work pushing gpaprof's state out of the core's
# first-level cache between two callbacks: gpaprof's callbacks cost the GPU machine more than the stand-in's cost
# here, docs/benchmarks.md, 2026-11-30; a model, not a measurement: a thread_local look-up less a callback, which it
# showed, did not show on the GPU machine, docs/benchmarks.md, 2026-11-30 14:19) and spends LAUNCH_NS in each launch (as a real launch does: gpaprof's writer
# thread then keeps up with the loop, as there; with 0, on a machine of two cores, the launching thread wrote about
# half its calls itself).
#
# Usage: bench/trace_hot_path_fake.sh [build-dir]    (a build with the tests: default build/)
#   LAUNCHES (200000), ROUNDS (7), TOUCH_KB (32), LAUNCH_NS (2000), BASE_GPAPROF (a second gpaprof, e.g. of an
#   earlier commit, with its own injection library beside it: a "gpaprof-base" row, for A/B comparisons in one run),
#   PIN (a command prefix such as "taskset -c 2-5"; unpinned by default: pinned to one core, gpaprof's writer thread
#   shares it with the loop and the launching thread ends up encoding its own calls)
BUILD=${BUILD:-${1:-$(cd "$(dirname "$0")/.." && pwd)/build}}
source "$(dirname "$0")/common.sh" "$BUILD"
LAUNCHES=${LAUNCHES:-200000}
ROUNDS=${ROUNDS:-7}
export FAKE_CUDA_TOUCH_KB=${TOUCH_KB:-32} FAKE_CUDA_LAUNCH_NS=${LAUNCH_NS:-2000}
PIN=${PIN:-}
APP=$BUILD/tests/tools/gpaprof/cuda/gpaprof_fake_cuda_app
FAKE=$BUILD/tests/tools/gpaprof/cuda/libgpaprof_fake_cuda.so
for needed in "$APP" "$FAKE" "$GPAPROF"; do
  [ -e "$needed" ] || { echo "missing $needed: build the tests first (cmake --build $BUILD)" >&2; exit 2; }
done
printf 'cudaGetLastError\n' > "$BENCH_TMP/left_out.txt"
bench_header "launch hot path on the CPU (fake CUDA): $LAUNCHES launches, $ROUNDS interleaved rounds, driver work: ${FAKE_CUDA_TOUCH_KB} KiB swept a callback, ${FAKE_CUDA_LAUNCH_NS} ns a launch, pinned: ${PIN:-no}"

loop=("$APP" --launches "$LAUNCHES" --threads 1 --driver-every 0)
export GPAPROF_CUDA_TRACING_LIBRARY=$FAKE
contenders=(
  "no-subscriber|${loop[*]}"
  "gpaprof-empty|env GPAPROF_CUDA_DIAG=empty-callbacks $GPAPROF -t --no-progress -o $BENCH_TMP/empty -- ${loop[*]}"
  "gpaprof|$GPAPROF -t --no-progress -o $BENCH_TMP/traced -- ${loop[*]}"
  "gpaprof-F|$GPAPROF -t --no-progress -F $BENCH_TMP/left_out.txt -o $BENCH_TMP/left_out -- ${loop[*]}"
)
if [ -n "${BASE_GPAPROF:-}" ]; then
  contenders+=("gpaprof-base|$BASE_GPAPROF -t --no-progress -o $BENCH_TMP/base -- ${loop[*]}")
fi
declare -A runs
for round in $(seq "$ROUNDS"); do
  # Each round starts one contender further on (a place in the round moves a row: bench/trace_launch_bound.sh).
  count=${#contenders[@]}
  for place in $(seq 0 $((count - 1))); do
    entry=${contenders[$(((place + round - 1) % count))]}
    IFS='|' read -r name command <<< "$entry"
    # shellcheck disable=SC2086  # the command is a word list on purpose
    wall $PIN $command
    last_figure ns_per_launch "$name" || continue
    runs[$name]="${runs[$name]:-} $FIGURE"
  done
done

printf '%-16s %14s %16s %18s   %s\n' contender ns/launch "x gpaprof-empty" "own ns/launch" runs
# shellcheck disable=SC2086
floor=$(median ${runs[gpaprof-empty]:-0})
for entry in "${contenders[@]}"; do
  name=${entry%%|*}
  [ -n "${runs[$name]:-}" ] || continue
  # shellcheck disable=SC2086
  m=$(median ${runs[$name]})
  printf '%-16s %14.1f %16s %18s   %s\n' "$name" "$m" "$(ratio "$m" "$floor")" \
    "$(awk -v a="$m" -v b="$floor" 'BEGIN {printf "%.1f", a - b}')" "${runs[$name]}"
done
