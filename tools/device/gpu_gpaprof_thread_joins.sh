#!/usr/bin/env bash
# The multi-thread trace defect of 2026-11-27 (docs/gpaprof.md, "GPU runs of 2026-11-27, late"): in about one
# profile in ten on an H100, every launch of one thread of a 4-thread trace lost its kernel, because gpaprof stopped
# listening to the runtime's cuKernelGetName while that thread was inside it, and CUPTI then gave all of the
# thread's later kernels that call's correlation id. Runs the GPU test that finds it
# (EveryLaunchOfEveryThreadCarriesItsKernelInATraceWithoutCounters: two profiles a run, launches staged and
# registered under the lock) RUNS times and counts incomplete profiles; a run that lost joins also prints which
# thread and which correlation ids (gpaprof's "CUDA joins" statistics line).
#
# Writes $OUT/thread_joins.txt. Exit status 0 when every run printed its figures and no profile was incomplete.
# Usage: tools/device/gpu_gpaprof_thread_joins.sh [build-dir]      RUNS (10), OUT (./gpu-thread-joins-out)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-thread-joins-out}
RUNS=${RUNS:-10}
mkdir -p "$OUT"
report=$OUT/thread_joins.txt
tests=$build/tests/tools/gpaprof/cuda/gpaprof_cuda_end_to_end_tests
[ -x "$tests" ] || { echo "no $tests: build the target gpaprof_cuda_end_to_end_tests first" >&2; exit 2; }
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1; } > "$report"
incomplete=0
missing=0
for run in $(seq "$RUNS"); do
  log=$(timeout 120 "$tests" --gtest_filter='*EveryLaunchOfEveryThread*' 2>&1)
  joined=$(grep -oE 'staged=[01] launches=[0-9]+ with_kernel=[0-9]+' <<< "$log" | sed 's/ launches=[0-9]*//' | tr '\n' ' ')
  incomplete=$((incomplete + $(grep -oE 'launches=[0-9]+ with_kernel=[0-9]+' <<< "$log" | awk -F'[= ]' '$2 != $4' | wc -l)))
  [ -n "$joined" ] || missing=$((missing + 1))
  echo "run=$run ${joined:-no FIGURE line (did the test run?)}" >> "$report"
  grep -E 'FIGURE (launches without|gpaprof: CUDA joins: kernel records without their launch: [1-9])' <<< "$log" >> "$report"
done
echo "incomplete profiles: $incomplete of $((2 * RUNS))" >> "$report"
[ "$missing" -eq 0 ] || echo "$missing runs printed no figures: the test skipped (no GPU?) or failed to start" >> "$report"
cat "$report"
[ "$missing" -eq 0 ] && [ "$incomplete" -eq 0 ]
