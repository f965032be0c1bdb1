#!/usr/bin/env bash
# gpaprof over data-parallel training (issue 34's GPU check): `gpaprof -t -o run_%q{RANK} -- torchrun
# --nproc_per_node N torch_training_loop.py --ddp` (ResNet-18 in DistributedDataParallel, gradients all-reduced
# over NCCL, one GPU per rank) for each N of RANKS that the machine has GPUs for, then the cross-rank report over
# the ranks' files (text, HTML and the merged Perfetto timeline) and Python's read_profiles() where pandas is.
# Checks: a trace per rank and none for the launcher, the report reads N of N files, every rank has NCCL kernels
# (communication time > 0), read_profiles() gives N ranks.
#
# Writes $OUT/ddp.txt (and ddp_N/ with the report's outputs); exit status 0 when every check held.
# Usage: tools/device/gpu_gpaprof_ddp.sh [build-dir]   RANKS ("2 4"), STEPS (20), MODE ("-t"; e.g. "-t -p")
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-ddp-out}
mkdir -p "$OUT"
gpaprof=$PWD/$build/bin/gpaprof
report_tool=$PWD/$build/bin/gpaprof-report
script=$PWD/tests/tools/gpaprof/cuda_apps/torch_training_loop.py
report=$OUT/ddp.txt
gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
status=0
say() { echo "$*" | tee -a "$report"; }
fail() { say "FAIL: $*"; status=1; }
for n in ${RANKS:-2 4}; do
  if [ "$gpus" -lt "$n" ]; then
    say "ranks=$n skipped: needs $n GPUs, this machine has $gpus"
    continue
  fi
  work=$(mktemp -d /tmp/gpaprof-ddp-XXXXXX)
  start=$SECONDS
  # shellcheck disable=SC2086  # MODE is a word list
  (cd "$work" && PYTHONUNBUFFERED=1 timeout 420 "$gpaprof" --no-progress ${MODE:--t} -o "$work/run_%q{RANK}" -- \
     python3 -m torch.distributed.run --standalone --nproc_per_node "$n" "$script" --ddp --steps "${STEPS:-20}") \
     > "$OUT/ddp_${n}_gpaprof.log" 2>&1
  rc=$?
  say "ranks=$n gpaprof ${MODE:--t} exit $rc in $((SECONDS - start)) s; files: $(cd "$work" && ls | tr '\n' ' ')"
  [ $rc -eq 0 ] || fail "gpaprof exit $rc (tail of its log:)"
  [ $rc -eq 0 ] || tail -15 "$OUT/ddp_${n}_gpaprof.log" | tee -a "$report"
  grep -h "torch_training_loop model" "$OUT/ddp_${n}_gpaprof.log" | tee -a "$report"
  for ((r = 0; r < n; r++)); do [ -s "$work/run_$r.atp" ] || fail "ranks=$n: no trace of rank $r"; done
  # The launcher (torchrun) keeps a trace only when it made CUDA calls itself (its calls are data: docs/gpaprof.md),
  # never kernels or a .csv.
  for f in "$work"/*unset*; do
    [ -e "$f" ] || continue
    case $f in
      *.atp) say "ranks=$n: the launcher's trace $(basename "$f"): $(grep -c . "$f") lines (its own CUDA calls)" ;;
      *) fail "ranks=$n: the launcher wrote $(basename "$f")" ;;
    esac
  done
  mkdir -p "$OUT/ddp_$n"
  start=$SECONDS
  "$report_tool" "$work"/run_*.atp > "$OUT/ddp_$n/report.txt" 2>&1
  rc=$?
  "$report_tool" --perfetto "$OUT/ddp_$n/ranks.json" "$work" > /dev/null 2>&1 || fail "ranks=$n: --perfetto exit $?"
  say "ranks=$n gpaprof-report exit $rc in $((SECONDS - start)) s (text, --perfetto)"
  [ $rc -eq 0 ] || fail "ranks=$n: gpaprof-report exit $rc"
  sed -n '/^Top kernels/q;p' "$OUT/ddp_$n/report.txt" | head -30 | tee -a "$report"  # up to the heading, which grep prints next
  grep -A4 "^Top kernels" "$OUT/ddp_$n/report.txt" | cut -c1-200 | tee -a "$report"
  files=$(ls "$work"/*.atp | wc -l)
  grep -q "$files of $files trace files read" "$OUT/ddp_$n/report.txt" || fail "ranks=$n: the report did not read $files of $files files"
  for ((r = 0; r < n; r++)); do
    grep -qE "^  $r +run_$r\.atp" "$OUT/ddp_$n/report.txt" || fail "ranks=$n: rank $r is not in the per-rank table"
  done
  comm=$(grep -c "ncclDevKernel\|ncclKernel" "$work"/run_*.atp | awk -F: '$2 > 0' | wc -l)
  say "ranks=$n traces with NCCL kernels: $comm of $n"
  [ "$comm" -eq "$n" ] || fail "ranks=$n: not every rank's trace has NCCL kernels"
  if python3 -c "import pandas" 2> /dev/null; then
    PYTHONPATH=$PWD/python/src python3 - "$work" "$n" <<'PY' 2>&1 | tee -a "$report"
import sys
from opengpa.profiles import read_profiles
profiles = read_profiles(sys.argv[1] + "/run_*")
ranks = sorted(r for r in profiles.ranks["rank"].dropna())
print(f"FIGURE ddp read_profiles ranks={len(ranks)} kernels={len(profiles.kernels)} api_calls={len(profiles.api_calls)} "
      f"problems={len(profiles.problems)}")
sys.exit(0 if len(ranks) == int(sys.argv[2]) else 1)
PY
    [ "${PIPESTATUS[0]}" -eq 0 ] || fail "ranks=$n: read_profiles() did not give $n ranks"
  else
    say "ranks=$n read_profiles skipped: no pandas in this Python"
  fi
  rm -rf "$work"
done
say "ddp status=$status"
exit $status
