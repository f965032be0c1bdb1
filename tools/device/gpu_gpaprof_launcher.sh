#!/usr/bin/env bash
# gpaprof on a launcher (issue 8, item 5): `gpaprof -p -o run_%q{RANK} -- torchrun --nproc_per_node 2 ...` on the
# PyTorch training loop, as the issue ran it. Each rank writes its own files (run_0.*, run_1.*); the launcher,
# which dispatches nothing, writes none (gpaprof says so in one line). Both ranks share the machine's one GPU,
# whose counters serve one process at a time: the rank that finds them taken has NA counters, with a note.
# (Under -t a launcher that made a CUDA call, torch's device query, keeps its files: its calls are data.)
#
# Writes $OUT/launcher.txt; exit status 0 when the files are as described and every rank's .csv has rows.
# Usage: tools/device/gpu_gpaprof_launcher.sh [build-dir]
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-launcher-out}
mkdir -p "$OUT"
gpaprof=$PWD/$build/bin/gpaprof
script=$PWD/tests/tools/gpaprof/cuda_apps/torch_training_loop.py
work=$(mktemp -d /tmp/gpaprof-launcher-XXXXXX)
report=$OUT/launcher.txt
(cd "$work" && PYTHONUNBUFFERED=1 timeout 300 "$gpaprof" --no-progress -p -o "$work/run_%q{RANK}" -- \
   python3 -m torch.distributed.run --standalone --nproc_per_node 2 "$script" --model convnet --steps 2) > "$report" 2>&1
rc=$?
{
  echo "== gpaprof exit status $rc; files written:"
  (cd "$work" && ls -1)
} >> "$report"
status=0
[ $rc -eq 0 ] || status=1
for rank in 0 1; do
  rows=$(grep -vc '^#' "$work/run_$rank.csv" 2>/dev/null)
  echo "rank $rank: ${rows:-no} .csv lines (header included)" >> "$report"
  [ -n "$rows" ] && [ "$rows" -gt 1 ] || status=1
done
if ls "$work" | grep -q unset; then
  echo "FAIL: the launcher wrote files of its own" >> "$report"
  status=1
fi
grep -q "no files written for it" "$report" || { echo "FAIL: no line says the launcher got no files" >> "$report"; status=1; }
echo "launcher status=$status" >> "$report"
cat "$report"
rm -rf "$work"
exit $status
