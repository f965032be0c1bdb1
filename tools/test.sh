#!/usr/bin/env bash
# The README's test command: installs dependencies, builds with warnings as errors, runs every test.
# GPU tests skip with their reason when no GPU is present.
# Usage: tools/test.sh [ctest arguments, e.g. -R GpaprofEndToEnd]   (BUILD_DIR=dir: another build directory than build)
#
# Where packages cannot be installed (no package mirror, not root), it names them and goes on: the configure
# leaves out what needs them (its summary says what, and why), and tests whose device, layer or tool is missing
# skip, each with its reason (listed at the end). Without GoogleTest or the build's own tools it stops with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}

missing_file=$(mktemp)
trap 'rm -f "$missing_file"' EXIT
bash tools/install_deps.sh --best-effort --missing-file "$missing_file" all
mapfile -t missing <"$missing_file"

fail() {
  echo "tools/test.sh: error: $*" >&2
  if [ ${#missing[@]} -gt 0 ]; then
    echo "tools/test.sh: packages that could not be installed: ${missing[*]}" >&2
    echo "tools/test.sh: install them (apt-get install ${missing[*]}) or provide what the error above names" >&2
  fi
  exit 1
}

command -v cmake >/dev/null 2>&1 || fail "cmake not found: the build needs CMake 3.25 or newer (package cmake)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=ON -DOPENGPA_REQUIRE_TESTS=ON ||
  fail "the configure failed (its errors are above)"
cmake --build "$build" -j "$(nproc)" || fail "the build failed (its errors are above)"
status=0
bash tools/run_tests.sh "$build" "$@" || status=$?
if [ ${#missing[@]} -gt 0 ]; then
  echo
  echo "Packages that could not be installed: ${missing[*]}"
  echo "(what needs them is listed as SKIPPED in the configure's summary above, or skipped with its reason)"
fi
exit $status
