#!/usr/bin/env bash
# The README's main job: builds OpenGPA, then profiles a bundled application with gpaprof (counters,
# API trace and occupancy in one run, plus the HTML report and the Perfetto timeline of that trace).
# On a machine with an NVIDIA GPU it profiles the CUDA sample; otherwise the OpenCL sample on the default
# OpenCL device (PoCL on the CPU).
# Usage: tools/main.sh [output-directory]   (default: out; BUILD_DIR=dir for another build directory than build)
#
# It installs only what this job needs (tools/install_deps.sh main). Where packages cannot be installed (no
# package mirror, not root), it names them and goes on: CMake's configure decides whether the build can be
# done without them, and the job fails with the reason when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
outdir=${1:-out}

missing_file=$(mktemp)
trap 'rm -f "$missing_file"' EXIT
bash tools/install_deps.sh --best-effort --missing-file "$missing_file" main
mapfile -t missing <"$missing_file"

fail() {
  echo "tools/main.sh: error: $*" >&2
  if [ ${#missing[@]} -gt 0 ]; then
    echo "tools/main.sh: packages that could not be installed: ${missing[*]}" >&2
    echo "tools/main.sh: install them (apt-get install ${missing[*]}) or provide what the error above names" >&2
  fi
  exit "${status:-1}"
}

command -v cmake >/dev/null 2>&1 || fail "cmake not found: the build needs CMake 3.25 or newer (package cmake)"
mkdir -p "$build"
configure_log="$build/main-job-configure.log"
# The configure's errors reach the terminal; its report is kept in $configure_log.
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$configure_log"; then
  fail "the configure failed (its errors are above; its report: $configure_log)"
fi
# What the configure left out, and why (for this job the GPA libraries, gpaprof and one sample are enough).
if grep -q "SKIPPED:" "$configure_log"; then
  echo "Configured without (CMake's summary):"
  grep "SKIPPED:" "$configure_log" | sed -e 's/^-- *SKIPPED: */  /'
fi
# Only what the job runs: the GPA libraries, gpaprof with its parts, the sample (tools/test.sh builds everything).
cmake --build "$build" -j "$(nproc)" --target opengpa_main_job || fail "the build failed (its errors are above)"

if [ -x "$build/bin/image_pipeline_cuda" ] && nvidia-smi -L >/dev/null 2>&1; then
  app=("$build/bin/image_pipeline_cuda" 8)
elif [ -x "$build/bin/image_pipeline_opencl" ]; then
  app=("$build/bin/image_pipeline_opencl" 8)
else
  fail "nothing to profile: the OpenCL sample needs OpenCL's headers and ICD loader (ocl-icd-opencl-dev opencl-headers)," \
       "the CUDA sample the CUDA toolkit and an NVIDIA GPU; the configure found neither (see above)"
fi

mkdir -p "$outdir"
out="$outdir/image_pipeline"
echo
echo "== gpaprof -t -p -O -T --perfetto -o $out -- ${app[*]}"
status=0
"$build/bin/gpaprof" -t -p -O -T --perfetto -o "$out" -- "${app[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  hint=""
  case " ${missing[*]} " in
    *" pocl-opencl-icd "*) hint="; without pocl-opencl-icd the OpenCL sample has a device only where a GPU driver gives one" ;;
  esac
  fail "gpaprof -- ${app[*]} exited with $status (its messages are above)$hint"
fi
for file in "$out.csv" "$out.atp" "$out.occupancy" "$out.html" "$out.json"; do
  [ -s "$file" ] || { status=1; fail "gpaprof wrote no $file"; }
done

echo
echo "== counters per dispatch ($out.csv, first rows)"
# awk alone, no pipe: under pipefail a reader that stops early would end the job with SIGPIPE (141).
awk '!/^#/ && shown++ < 6' "$out.csv"
cat <<EOM

Files:
  $out.csv        one row per kernel dispatch: dispatch statistics and counters
  $out.atp        API trace, timestamps on the CPU clock, kernel timestamps, perf markers
  $out.occupancy  theoretical occupancy per dispatch and what limits it
  $out.html       summary report: open it in a browser (self-contained, works offline)
  $out.json       timeline: open it at https://ui.perfetto.dev (Open trace file) or chrome://tracing
EOM
if [ ${#missing[@]} -gt 0 ]; then
  echo
  echo "Done without the packages that could not be installed: ${missing[*]}"
fi
