#!/usr/bin/env bash
# gpaprof-report over 64 ranks' traces of a ResNet-18 data-parallel run, timed on the CPU (docs/benchmarks.md,
# "gpaprof-report over many ranks"). The traces are synthetic (bench/rank_traces: the shape gpaprof -t writes
# for PyTorch's ResNet-18, about 315 kernels and 6,600 CUDA calls a training step, NCCL all-reduces ending
# together, rank 5 computing 30 % slower); the files are written, then gpaprof-report reads them: the text
# summary alone, and with the merged Perfetto timeline. Each is run REPEATS times; the median wall time is
# printed with the peak memory (GNU time, when installed).
#
# Usage: bench/report_ranks.sh [BUILD]     (default: build; needs the targets gpaprof-report and rank_traces)
# Environment: RANKS (64), STEPS ("3 20": one run of each length), REPEATS (3), OUT (the files' folder; default a
# temporary one, removed at the end), PYTHON (python3: with pandas, opengpa.read_profiles is timed once over the
# shortest run's files; PYTHON_BENCH=0 leaves it out)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
report=$build/bin/gpaprof-report
generate=$build/bench/rank_traces
ranks=${RANKS:-64}
python=${PYTHON:-python3}
steps_list=${STEPS:-3 20}
repeats=${REPEATS:-3}
out=${OUT:-}
if [ -z "$out" ]; then
  out=$(mktemp -d /tmp/opengpa-report-ranks-XXXXXX)
  trap 'rm -rf "$out"' EXIT
fi
for tool in "$report" "$generate"; do
  [ -x "$tool" ] || { echo "missing $tool: cmake --build $build --target gpaprof-report rank_traces"; exit 2; }
done

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

# Wall seconds of the command (stdout to /dev/null), and its peak resident memory in MiB when GNU time is there.
timed() {
  local start end
  start=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%M" -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" || { cat "$out/stderr.txt"; return 1; }
    PEAK_MIB=$(awk '{printf "%.0f", $1 / 1024}' "$out/time.txt")
  else
    "$@" >/dev/null 2>"$out/stderr.txt" || { cat "$out/stderr.txt"; return 1; }
    PEAK_MIB=NA
  fi
  end=$(date +%s.%N)
  WALL=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}')
}

echo "== gpaprof-report over $ranks ranks — $(date -u +%Y-%m-%dT%H:%MZ) — $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"
printf '%-6s %-10s %-10s %-12s %-10s %-14s %-10s\n' steps "files MiB" "calls/rank" "kernels/rank" "text s" "perfetto s" "peak MiB"
for steps in $steps_list; do
  dir=$out/steps_$steps
  rm -rf "$dir" && mkdir -p "$dir"
  "$generate" --out "$dir" --ranks "$ranks" --steps "$steps" --slow-rank 5 >"$out/generate.txt" || exit 1
  calls=$(awk 'NR == 1 {print $3}' "$out/generate.txt")
  kernels=$(awk 'NR == 1 {print $5}' "$out/generate.txt")
  size=$(du -sm "$dir" | cut -f1)
  text=() both=() peak=0
  for _ in $(seq "$repeats"); do
    timed "$report" "$dir" || exit 1
    text+=("$WALL")
    timed "$report" --perfetto "$out/ranks.json" "$dir" || exit 1
    both+=("$WALL")
    peak=$PEAK_MIB
  done
  "$report" "$dir" >"$out/summary_$steps.txt" 2>/dev/null
  straggler=$(sed -n '/^Stragglers/{n;p}' "$out/summary_$steps.txt" | sed 's/^ *//')
  printf '%-6s %-10s %-10s %-12s %-10s %-14s %-10s\n' "$steps" "$size" "$calls" "$kernels" "$(median "${text[@]}")" \
    "$(median "${both[@]}")" "$peak"
  echo "       straggler found: $straggler; merged timeline $(du -m "$out/ranks.json" | cut -f1) MiB"
  # Python's read_profiles over the same files (once, for the shortest run: its tables hold every call).
  if [ "$steps" = "${steps_list%% *}" ] && [ "${PYTHON_BENCH:-1}" = 1 ] && "$python" -c "import pandas" 2>/dev/null; then
    seconds=$(PYTHONPATH="$root/python/src" "$python" -c "
import sys, time, opengpa
start = time.time()
profiles = opengpa.read_profiles(sys.argv[1] + '/run_*')
print('%.2f s, %d API call rows' % (time.time() - start, len(profiles.api_calls)))" "$dir")
    echo "       python read_profiles: $seconds"
  fi
done
echo "text: $report DIR; perfetto: $report --perfetto OUT.json DIR (text summary and merged timeline); DIR: $ranks"
echo "files run_<rank>.atp; seconds: median of $repeats; peak MiB: the perfetto run's resident memory"
rm -rf "$out"/steps_* "$out/ranks.json"
