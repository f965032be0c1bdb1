#!/usr/bin/env bash
# Several real ranks: gpaprof -t -o out/run_%q{RANK} on a small launcher (sh) that starts RANKS copies of one
# of our OpenCL programs, each with its RANK, as torchrun or mpirun would; then gpaprof-report over their
# files. Each rank must get its own .atp saying its ProcessRank, HostName and ClockId, the launcher none;
# the cross-rank report must list every rank from its ProcessRank line with its dispatches, one machine's
# clock, and a merged Perfetto file with one process per rank that passes check_trace_events.py.
#   ranks_pocl_test.sh GPAPROF GPAPROF_REPORT APP SOURCE_DIR OUT_DIR
# Exits 77 (CTest: skipped) with the reason when there is no OpenCL device.
set -euo pipefail
gpaprof=$1 report_tool=$2 app=$3 source_dir=$4 out=$5
ranks=3
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "$0")/skip_without_opencl.sh"
skip_without_opencl "$app" "$out"
set +e
"$gpaprof" -t -o "$out/run_%q{RANK}" -- sh -c \
  'for r in $(seq 0 $(($1 - 1))); do RANK=$r "$2" & done; wait' launcher "$ranks" "$app" >"$out/gpaprof.log" 2>&1
status=$?
set -e
[ $status -eq 0 ] || { echo "gpaprof exited $status:"; tail -30 "$out/gpaprof.log"; exit 1; }
for r in $(seq 0 $((ranks - 1))); do
  [ -s "$out/run_$r.atp" ] || { echo "no run_$r.atp:"; ls -l "$out"; tail -30 "$out/gpaprof.log"; exit 1; }
  grep -qx "ProcessRank=RANK=$r" "$out/run_$r.atp" || { echo "run_$r.atp does not say RANK=$r"; head -14 "$out/run_$r.atp"; exit 1; }
  grep -q "^ClockId=." "$out/run_$r.atp" || { echo "run_$r.atp has no ClockId"; exit 1; }
done
[ "$(ls "$out"/*.atp | wc -l)" -eq $ranks ] || { echo "files for other processes than the ranks:"; ls "$out"; exit 1; }

"$report_tool" --perfetto "$out/ranks.json" --text "$out"/run_*.atp >"$out/summary.txt" 2>"$out/report.log" || {
  echo "gpaprof-report failed:"; cat "$out/report.log"; exit 1; }
cat "$out/summary.txt"
grep -q "gpaprof report over $ranks ranks: $ranks of $ranks trace files read" "$out/summary.txt"
grep -q "clocks: one machine's clock (ClockId " "$out/summary.txt"
for r in $(seq 0 $((ranks - 1))); do
  # rank, file, host, device, then dispatches: 30 a rank (5 kernels x 3 threads x 2 iterations), then times
  grep -Eq "^  $r +run_$r\.atp +[^ ]+ +.+ +30 +[0-9.]+ [mun]?s" "$out/summary.txt" || {
    echo "no row for rank $r with its 30 dispatches"; exit 1; }
done
python3 "$source_dir/check_trace_events.py" "$out/ranks.json" --min-slices 30 --expect clEnqueueNDRangeKernel
python3 - "$out/ranks.json" "$ranks" <<'PY'
import json, sys
root = json.load(open(sys.argv[1]))
ranks = int(sys.argv[2])
names = [e["args"]["name"] for e in root["traceEvents"] if e.get("ph") == "M" and e["name"] == "process_name"]
expected = ["rank %d (run_%d.atp, " % (r, r) for r in range(ranks)]
assert len(names) == ranks and all(n.startswith(e) for n, e in zip(names, expected)), names
assert [r["rankFrom"] for r in root["otherData"]["ranks"]] == ["ProcessRank RANK=%d" % r for r in range(ranks)]
assert all(r["shiftNs"] == 0 for r in root["otherData"]["ranks"])
print("merged timeline: one process per rank:", names)
PY
