#!/usr/bin/env bash
# gpaprof, run after run, on a PyTorch training loop (tests/tools/gpaprof/cuda_apps/torch_training_loop.py):
# RUNS runs in each mode (-t, -p, -t -p -O). Every run must end as the program alone does (exit 0, no crash
# message) and every run of a mode must write the same numbers of API calls, kernel lines, rows and NA rows.
#
# Writes $OUT/repeat.txt (one line per run, then one per mode) and $OUT/abnormal_*.log (the first few runs that
# ended badly). Exit status 0 when every run of every mode passed.
#
# Usage: tools/device/gpu_gpaprof_repeat.sh [build-dir]
#   RUNS (20), MODEL (resnet18 | convnet), STEPS (3), GRAPH (1: the step captured into a CUDA graph and
#   replayed STEPS times), WORKERS (W > 0: batches from a DataLoader of W forked worker processes, pinned by a
#   thread), MODES ("t p tpO"), PARALLEL_TRACE (4: -t runs at once;
#   counter runs go one at a time, the GPU's profiler serves one process), OUT (./gpu-repeat-out)
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-repeat-out}
RUNS=${RUNS:-20}
MODEL=${MODEL:-resnet18}
STEPS=${STEPS:-3}
GRAPH=${GRAPH:-0}
WORKERS=${WORKERS:-0}
MODES=${MODES:-t p tpO}
PARALLEL_TRACE=${PARALLEL_TRACE:-4}
mkdir -p "$OUT"
table=$OUT/repeat.txt
: > "$table"
gpaprof=$PWD/$build/bin/gpaprof
app=(python3 "$PWD/tests/tools/gpaprof/cuda_apps/torch_training_loop.py" --model "$MODEL" --steps "$STEPS")
[ "$GRAPH" = 1 ] && app+=(--graph)
[ "$WORKERS" -gt 0 ] && app+=(--workers "$WORKERS")
work=$(mktemp -d /tmp/gpaprof-repeat-XXXXXX)

options_of() {
  case $1 in
    t) echo "-t" ;;
    p) echo "-p" ;;
    tpO) echo "-t -p -O" ;;
  esac
}

one_run() {  # one_run MODE N: runs gpaprof once, prints its line
  local mode=$1 n=$2 dir=$work/$1_$2
  mkdir -p "$dir"
  local start=$SECONDS
  # shellcheck disable=SC2046
  (cd "$dir" && PYTHONUNBUFFERED=1 timeout 600 "$gpaprof" --no-progress $(options_of "$mode") -o "$dir/run" -- "${app[@]}") \
    > "$dir/log" 2>&1
  local rc=$?
  local calls rows kernels abnormal=no
  calls=$(grep -o '([0-9]* API calls' "$dir/log" | head -1 | tr -dc '0-9')
  rows=$(grep -o '([0-9]* dispatches)' "$dir/log" | head -1 | tr -dc '0-9')
  kernels=$(awk '/^=====cuda Kernel Timestamp Output=====/ {getline; print $1; exit}' "$dir/run.atp" 2>/dev/null)
  # Rows whose last counter is NA (a graph launch gpaprof could not replay, a kernel it could not measure).
  local na=-
  [ -f "$dir/run.csv" ] && na=$(grep -c ',[[:space:]]*NA[[:space:]]*$' "$dir/run.csv")
  if [ $rc -ne 0 ] || grep -qE 'corrupted|terminate called|pure virtual|Segmentation|double free|killed by|free\(\)|malloc\(\)' "$dir/log" ||
     ! grep -q '^torch_training_loop ' "$dir/log"; then
    abnormal=yes
    [ "$(ls "$OUT"/abnormal_* 2>/dev/null | wc -l)" -lt 6 ] && cp "$dir/log" "$OUT/abnormal_${mode}_$n.log"
  fi
  # Files written: the run's own (run.*), and none for processes that made no CUDA call (forked data workers).
  local files
  files=$(find "$dir" -maxdepth 1 -type f ! -name log | wc -l)
  printf '%-4s run=%-3s rc=%-3s calls=%-7s kernels=%-6s rows=%-6s na_rows=%-5s files=%-2s abnormal=%s %ss\n' "$mode" "$n" \
    "$rc" "${calls:--}" "${kernels:--}" "${rows:--}" "$na" "$files" "$abnormal" "$((SECONDS - start))"
  rm -rf "$dir"
}

{ echo "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "== program alone:"; (cd "$work" && PYTHONUNBUFFERED=1 "${app[@]}"; echo "rc=$?"); } 2>&1 | tee -a "$table"
# Stopped by a time limit: each run's `timeout` leads a process group of its own, out of reach of the signal
# that stopped this script, and a run left behind would hold the GPU's profiler for whatever runs next
# (ncu then fails: "a driver resource was unavailable"). End those groups too.
stop_runs() {
  local pid
  for pid in $(pgrep -f -- "$work/" 2>/dev/null); do
    kill -TERM -- "-$(ps -o pgid= -p "$pid" | tr -d ' ')" 2>/dev/null
  done
  rm -rf "$work"
  exit 143
}
trap stop_runs TERM INT

status=0
for mode in $MODES; do
  lines=$OUT/$mode.lines  # in $OUT: what a run cut short by a time limit had done comes back
  : > "$lines"
  parallel=1
  [ "$mode" = t ] && parallel=$PARALLEL_TRACE
  for n in $(seq 1 "$RUNS"); do
    one_run "$mode" "$n" >> "$lines" &
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n; done
  done
  wait
  sort -V "$lines" >> "$table"
  bad=$(grep -c 'abnormal=yes' "$lines")
  distinct=$(grep -o 'calls=[^ ]* *kernels=[^ ]* *rows=[^ ]* *na_rows=[^ ]* *files=[^ ]*' "$lines" | tr -s ' ' | sort -u | wc -l)
  summary="mode $mode: $RUNS runs, $bad abnormal, $distinct distinct (calls, kernel lines, rows, NA rows, files)"
  echo "$summary" | tee -a "$table"
  [ "$bad" -eq 0 ] && [ "$distinct" -eq 1 ] || status=1
done
rm -rf "$work"
echo "repeat status=$status" | tee -a "$table"
exit $status
