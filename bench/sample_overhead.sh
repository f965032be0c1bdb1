#!/usr/bin/env bash
# GPA_BeginSample + GPA_EndSample against cuptiRangeProfilerPushRange + PopRange around the same kernel
# launches in the same program (bench/sample_overhead): CPU time per sample, median of rounds that alternate.
#
# Usage: bench/sample_overhead.sh [build-dir]          (target: ratio <= 1.1)
source "$(dirname "$0")/common.sh" "$@"
bench_header "sample overhead: GPA_BeginSample+EndSample / cuptiRangeProfilerPushRange+PopRange"
"$BIN/sample_overhead" --samples "${SAMPLES:-200}" --rounds "${ROUNDS:-9}"
