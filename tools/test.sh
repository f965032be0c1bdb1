#!/usr/bin/env bash
# The README's test command: installs dependencies, builds with warnings as errors, runs every test.
# GPU tests skip with their reason when no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=ON
cmake --build "$build" -j "$(nproc)"
bash tools/run_tests.sh "$build"
