#!/usr/bin/env bash
# gpaprof on a launcher (issue 8, item 5): `gpaprof -p -o run_%q{RANK} -- torchrun --nproc_per_node 2 ...` on the
# PyTorch training loop, as the issue ran it. Each rank writes its own files (run_0.*, run_1.*); the launcher,
# which dispatches nothing, writes none (gpaprof says so in one line). Both ranks share the machine's one GPU,
# whose counters serve one process at a time: the rank that finds them taken has NA counters, with a note.
# (Under -t a launcher that made a CUDA call, torch's device query, keeps its files: its calls are data.)
# Then the way around the shared GPU, `--ranks 0` and `--ranks 1`, one run each: the listed rank alone writes files,
# every one of its rows measured; the other rank runs unprofiled, named in one line.
#
# Writes $OUT/launcher.txt; exit status 0 when the files are as described, every rank's .csv has rows and each
# --ranks run is as described.
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

# rows_measured CSV: "<rows> <rows with a counter value>" (a row is measured when any counter column is not NA).
rows_measured() {
  python3 - "$1" <<'PY'
import sys
rows = [l.rstrip("\n").split(", ") for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
header, rows = rows[0], rows[1:]
first = header.index("KernelOccupancy") + 1 if "KernelOccupancy" in header else 11
print(len(rows), sum(any(v.strip() not in ("NA", "") for v in r[first:]) for r in rows))
PY
}
# The way around the shared GPU: one rank a run.
for listed in 0 1; do
  other=$((1 - listed))
  rm -rf "${work:?}"/*
  (cd "$work" && PYTHONUNBUFFERED=1 timeout 300 "$gpaprof" --no-progress -p --ranks "$listed" -o "$work/run_%q{RANK}" -- \
     python3 -m torch.distributed.run --standalone --nproc_per_node 2 "$script" --model convnet --steps 2) > "$work.ranks.log" 2>&1
  rc=$?
  {
    echo "== --ranks $listed: gpaprof exit status $rc; files written: $(cd "$work" && ls -1 | tr '\n' ' ')"
    grep -E "ran unprofiled|recorded anything" "$work.ranks.log"
  } >> "$report"
  [ $rc -eq 0 ] || status=1
  if [ -f "$work/run_$listed.csv" ]; then
    read -r rows measured < <(rows_measured "$work/run_$listed.csv")
    echo "--ranks $listed: rank $listed has $rows rows, $measured measured" >> "$report"
    if [ "${rows:-0}" -eq 0 ] || [ "$rows" != "$measured" ]; then
      echo "FAIL: --ranks $listed: rank $listed's rows are not all measured" >> "$report"
      status=1
    fi
  else
    echo "FAIL: --ranks $listed: no run_$listed.csv" >> "$report"
    tail -5 "$work.ranks.log" >> "$report"
    status=1
  fi
  if ls "$work" | grep -q -e "run_$other\." -e unset; then
    echo "FAIL: --ranks $listed: rank $other or the launcher wrote files" >> "$report"
    status=1
  fi
  grep -q "ran unprofiled (rank $other" "$work.ranks.log" ||
    { echo "FAIL: --ranks $listed: no line names the unprofiled processes" >> "$report"; status=1; }
  rm -f "$work.ranks.log"
done
echo "launcher status=$status" >> "$report"
cat "$report"
rm -rf "$work"
exit $status
