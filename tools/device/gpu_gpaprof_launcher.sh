#!/usr/bin/env bash
# gpaprof on a launcher (issue 8, item 5): `gpaprof -t -o run_%q{RANK} -- torchrun --nproc_per_node 2 ...` on the
# PyTorch training loop. Each rank writes its own files (run_0.*, run_1.*); the launcher, which makes no CUDA
# call of its own, writes none (gpaprof says so in one line). Both ranks share the machine's GPU (-t: no
# counters, which one process at a time may collect).
#
# Writes $OUT/launcher.txt; exit status 0 when the files are as described and every rank's trace has kernels.
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
(cd "$work" && PYTHONUNBUFFERED=1 timeout 300 "$gpaprof" --no-progress -t -o "$work/run_%q{RANK}" -- \
   python3 -m torch.distributed.run --standalone --nproc_per_node 2 "$script" --model convnet --steps 2) > "$report" 2>&1
rc=$?
{
  echo "== gpaprof exit status $rc; files written:"
  (cd "$work" && ls -1)
} >> "$report"
status=0
[ $rc -eq 0 ] || status=1
for rank in 0 1; do
  kernels=$(awk '/^=====cuda Kernel Timestamp Output=====/ {getline; print $1; exit}' "$work/run_$rank.atp" 2>/dev/null)
  echo "rank $rank: ${kernels:-no} kernel lines" >> "$report"
  [ -n "$kernels" ] && [ "$kernels" -gt 0 ] || status=1
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
