#!/usr/bin/env bash
# The README's main job: builds OpenGPA, then profiles a bundled application with gpaprof (counters,
# API trace and occupancy in one run, plus the HTML report and the Perfetto timeline of that trace).
# On a machine with an NVIDIA GPU it profiles the CUDA sample; otherwise the OpenCL sample on the default
# OpenCL device (PoCL on the CPU).
# Usage: tools/main.sh [output-directory]   (default: out)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# Only what the job runs: the GPA libraries, gpaprof with its parts, the sample (tools/test.sh builds everything).
cmake --build "$build" -j "$(nproc)" --target opengpa_main_job

outdir=${1:-out}
mkdir -p "$outdir"
if [ -x "$build/bin/image_pipeline_cuda" ] && nvidia-smi -L >/dev/null 2>&1; then
  app=("$build/bin/image_pipeline_cuda" 8)
else
  app=("$build/bin/image_pipeline_opencl" 8)
fi
out="$outdir/image_pipeline"
echo
echo "== gpaprof -t -p -O -T --perfetto -o $out -- ${app[*]}"
"$build/bin/gpaprof" -t -p -O -T --perfetto -o "$out" -- "${app[@]}"

echo
echo "== counters per dispatch ($out.csv, first rows)"
grep -v '^#' "$out.csv" | head -6
cat <<EOM

Files:
  $out.csv        one row per kernel dispatch: dispatch statistics and counters
  $out.atp        API trace, timestamps on the CPU clock, kernel timestamps, perf markers
  $out.occupancy  theoretical occupancy per dispatch and what limits it
  $out.html       summary report: open it in a browser (self-contained, works offline)
  $out.json       timeline: open it at https://ui.perfetto.dev (Open trace file) or chrome://tracing
EOM
