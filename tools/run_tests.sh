#!/usr/bin/env bash
# Runs the whole test suite of a build directory (the README's test command calls this).
# Usage: tools/run_tests.sh [build-dir [ctest arguments...]]   (default: build; e.g. build -R GpaprofEndToEnd)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
# PoCL and the OpenCL ICD loader keep some allocations until exit by design; leak reports from them are
# suppressed (see tools/lsan.supp), every other leak still fails the run.
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# PoCL compiles kernels into a cache; keep it inside the build so runs do not depend on $HOME.
case $build in /*) export POCL_CACHE_DIR="$build/pocl-cache" ;; *) export POCL_CACHE_DIR="$PWD/$build/pocl-cache" ;; esac
mkdir -p "$build/Testing"
summary="$build/Testing/run_tests.out"
set +e
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@" 2>&1 | tee "$summary"
status=${PIPESTATUS[0]}
set -e

# ctest lists skipped tests without their reasons; print each distinct reason with how many tests gave it.
# The reason of a test: the line after GoogleTest's "...: Skipped", else a script's "SKIP: ..." line (exit
# code 77), else its first line naming a missing device (the samples' SKIP_REGULAR_EXPRESSION), else its last line.
log="$build/Testing/Temporary/LastTest.log"
skipped=$(sed -n 's/^[[:space:]]*\([0-9][0-9]*\) - .* (Skipped)$/\1/p' "$summary")  # test numbers
if [ -f "$log" ] && [ -n "$skipped" ]; then
  echo
  echo "Why tests were skipped (count, reason):"
  awk -v names="$skipped" '
    BEGIN { n = split(names, list, "\n"); for (i = 1; i <= n; ++i) wanted[list[i]] = 1 }
    function done_test() {
      if (name != "" && (name in wanted)) print (gtest != "" ? gtest : (script != "" ? script : (device != "" ? device : last)))
      name = ""; inside = 0; gtest = ""; script = ""; device = ""; last = ""; after = 0
    }
    /^[0-9]+\/[0-9]+ Test: / { done_test(); name = $0; sub(/\/.*/, "", name); next }
    name == "" { next }
    /^Output:$/ { getline; inside = 1; next }
    /^<end of output>$/ { inside = 0; next }
    /" end time: / { done_test(); next }
    !inside { next }
    after { if (gtest == "") gtest = $0; after = 0; next }
    /: Skipped$/ { after = 1; next }
    /^SKIP: / { if (script == "") { script = $0; sub(/^SKIP: /, "", script) } next }
    /no [A-Za-z]+ device/ { if (device == "") device = $0 }
    /^\[ *[A-Z=-]+ *\]/ { next }  # the lines of GoogleTest itself
    /[^[:space:]]/ { last = $0 }
    END { done_test() }
  ' "$log" | sort | uniq -c | sort -rn
fi
exit $status
