#!/usr/bin/env bash
# Renders gpaprof reports in headless Chromium and checks the dumped DOM: the page's script ran, drew its
# charts and marked itself ready. Also leaves a screenshot (report.png) next to the report for a person.
#   chromium_render_test.sh GPAPROF_REPORT SOURCE_DIR OUT_DIR REPORT_ARGS...
# Exits 77 (CTest: skipped) with the reason when no Chromium is installed.
set -euo pipefail
report_tool=$1 source_dir=$2 out=$3
shift 3
chrome=""
for candidate in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$candidate" >/dev/null 2>&1; then chrome=$candidate; break; fi
done
if [ -z "$chrome" ]; then
  echo "SKIP: no headless Chromium (apt-get install chromium; tools/install_deps.sh installs it)"
  exit 77
fi
mkdir -p "$out"
"$report_tool" --html "$out/report.html" "$@"
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --no-default-browser-check
       --user-data-dir="$out/chromium-profile" --virtual-time-budget=10000)
timeout 180 "$chrome" "${flags[@]}" --dump-dom "file://$out/report.html" >"$out/dom.html" 2>"$out/chromium.log" || {
  echo "chromium failed:"; tail -20 "$out/chromium.log"; exit 1; }
python3 "$source_dir/check_report_dom.py" "$out/dom.html" ${CHECK_DOM_ARGS:-}
timeout 180 "$chrome" "${flags[@]}" --window-size=1400,2600 --screenshot="$out/report.png" "file://$out/report.html" \
  >>"$out/chromium.log" 2>&1 || { echo "chromium screenshot failed:"; tail -20 "$out/chromium.log"; exit 1; }
[ -s "$out/report.png" ] || { echo "no screenshot written"; exit 1; }
echo "rendered $out/report.html; screenshot $out/report.png"
