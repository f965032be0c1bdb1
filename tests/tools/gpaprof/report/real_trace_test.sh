#!/usr/bin/env bash
# A real trace: runs gpaprof (-t -p -O) on one of our OpenCL programs, then gpaprof-report on its three
# files. The files gpaprof writes must read without a single problem (exit 0), the Perfetto export must
# pass check_trace_events.py, and the HTML page must render in headless Chromium when there is one.
#   real_trace_test.sh GPAPROF GPAPROF_REPORT APP SOURCE_DIR OUT_DIR
# Exits 77 (CTest: skipped) with the reason when there is no OpenCL device.
set -euo pipefail
gpaprof=$1 report_tool=$2 app=$3 source_dir=$4 out=$5
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "$0")/skip_without_opencl.sh"
skip_without_opencl "$app" "$out"
set +e
"$gpaprof" -t -p -O -o "$out/real" -- "$app" >"$out/gpaprof.log" 2>&1
status=$?
set -e
[ $status -eq 0 ] || { echo "gpaprof exited $status:"; tail -30 "$out/gpaprof.log"; exit 1; }
for file in real.atp real.csv real.occupancy; do
  [ -s "$out/$file" ] || { echo "gpaprof wrote no $file:"; ls -l "$out"; tail -30 "$out/gpaprof.log"; exit 1; }
done
"$report_tool" --html "$out/report.html" --perfetto "$out/trace.json" --text \
  "$out/real.atp" "$out/real.csv" "$out/real.occupancy" >"$out/summary.txt"
python3 "$source_dir/check_trace_events.py" "$out/trace.json" --min-slices 10 --expect clEnqueueNDRangeKernel
grep -q "OpenCL API summary" "$out/summary.txt" || { echo "no API summary:"; cat "$out/summary.txt"; exit 1; }
if command -v chromium >/dev/null 2>&1; then
  CHECK_DOM_ARGS="--min-charts 3 --min-rects 10" "$source_dir/chromium_render_test.sh" "$report_tool" "$source_dir" \
    "$out/render" "$out/real.atp" "$out/real.csv" "$out/real.occupancy"
else
  echo "note: no chromium, the page was not rendered"
fi
cat "$out/summary.txt"
