#!/usr/bin/env bash
# Sampled SM throughput against ncu's (issue 35). ncu's sm__throughput.avg.pct_of_peak_sustained_elapsed is the
# largest of its breakdown's parts, each averaged over the kernel, and needs 19 passes on GH100; PM sampling has
# one. gpaprof's metric set `sm-throughput` samples, in one pass, TriageCompute.sm__throughput (the one-pass SM
# throughput of GH100's and GB100's PM-sampling catalogs: issue and pipe parts) and the MIO queues' parts it lacks
# (sm__mio_pq_read/write_cycles_active). For kernels longer than 1 ms: the largest of the three's means over the
# samples wholly inside the kernel's window, against ncu's value for the same kernel (--clock-control none); the
# one-pass variant alone, and sm__cycles_active against ncu's, for information. bench/pm_window_means.py compares.
#
# Programs (tests/tools/gpaprof/cuda_apps): pm_phases (PAIRS pairs of a memory-bound and a compute-bound kernel,
# about 5 ms each on an H200) and cublas_gemm (GEMM_SIZE² SGEMM, GEMM_REPEATS times: cuBLAS's own kernels).
#
# Usage: bench/pm_sm_throughput_vs_ncu.sh [build-dir]
#   BUILD (default build-gpu), PM_METRICS (gpaprof's --pm-metrics: sm-throughput and sm__cycles_active.avg.pct_of_
#   peak_sustained_elapsed), INTERVAL (200us: sm-throughput is not decoded in real time at 100us, docs/pm_sampling.md),
#   PAIRS (4), GEMM_SIZE (4096), GEMM_REPEATS (4), TOLERANCE (0.05), TIMEOUT (600 s a command), NCU (path of ncu;
#   found on the PATH or under /opt/nvidia otherwise)
# Exit status 1 when a kernel DIFFERs, none could be compared in a program, or a run failed.
BENCH_KEEPS_FILES=1  # it prints "files in $BENCH_TMP"
source "$(dirname "$0")/common.sh" "$@"
PM_METRICS=${PM_METRICS:-sm-throughput,sm__cycles_active.avg.pct_of_peak_sustained_elapsed}
INTERVAL=${INTERVAL:-200us}
PAIRS=${PAIRS:-4}
GEMM_SIZE=${GEMM_SIZE:-4096}
GEMM_REPEATS=${GEMM_REPEATS:-4}
TOLERANCE=${TOLERANCE:-0.05}
TIMEOUT=${TIMEOUT:-600}
if [ -z "${NCU+set}" ]; then
  NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -1)
fi
APPS=$BUILD/tests/tools/gpaprof/cuda_apps
[ -x "$GPAPROF" ] || { echo "no $GPAPROF (build the targets gpaprof gpaprof_cuda_injection)"; exit 1; }
[ -n "$NCU" ] || { echo "ncu not found (PATH, /opt/nvidia/nsight-compute; set NCU): no reference"; exit 1; }
TRIAGE=TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed
PARTS=$TRIAGE,sm__mio_pq_read_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__mio_pq_write_cycles_active.avg.pct_of_peak_sustained_elapsed
REFERENCE=sm__throughput.avg.pct_of_peak_sustained_elapsed
ACTIVE=sm__cycles_active.avg.pct_of_peak_sustained_elapsed

bench_header "PM-sampled SM throughput vs ncu's: --pm-metrics $PM_METRICS, every $INTERVAL"
status=0

# check NAME KERNEL_REGEX PROGRAM ARGS...: gpaprof -t --pm-sampling, ncu, then the comparisons.
check() {
  local name=$1 regex=$2 rc
  shift 2
  echo "== $name: $*"
  [ -x "$1" ] || { echo "no $1 (build the target gpaprof_cuda_app_$name)"; status=1; return; }
  rm -f "$BENCH_TMP/$name".*
  wall timeout "$TIMEOUT" "$GPAPROF" -t "--pm-sampling=$INTERVAL" --pm-metrics "$PM_METRICS" --no-progress -o "$BENCH_TMP/$name" -- "$@"
  rc=$?
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/$name.gpaprof.log"
  echo "gpaprof -t --pm-sampling=$INTERVAL: rc=$rc, $WALL s"
  grep -h '^gpaprof: .*\(pmsampling\|left out\|pm-sampling\)' "$BENCH_TMP/$name.gpaprof.log" | head -4 | cut -c1-220 | sed 's/^/   /'
  [ $rc -eq 0 ] || { status=1; tail -5 "$BENCH_TMP/$name.gpaprof.log"; return; }
  wall timeout "$TIMEOUT" "$NCU" --clock-control none --metrics "$REFERENCE,$ACTIVE,gpu__time_duration.sum" \
    -f -o "$BENCH_TMP/$name.ncu" "$@"
  rc=$?
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/$name.ncu.log"
  echo "ncu --clock-control none: rc=$rc, $WALL s"
  if [ ! -f "$BENCH_TMP/$name.ncu.ncu-rep" ]; then
    grep -h "==ERROR==" "$BENCH_TMP/$name.ncu.log" | head -3 | sed 's/^/   /'
    status=1
    return
  fi
  "$NCU" --import "$BENCH_TMP/$name.ncu.ncu-rep" --csv --page raw --print-units base > "$BENCH_TMP/$name.ncu.csv" \
    2> "$BENCH_TMP/$name.ncu_import.log"
  rm -f "$BENCH_TMP/$name.ncu.ncu-rep"
  local files=("$BENCH_TMP/$name.atp" "$BENCH_TMP/$name.pmsampling.csv" "$BENCH_TMP/$name.ncu.csv")
  echo "-- SM throughput: the largest sampled part / ncu's $REFERENCE"
  python3 "$BENCH_ROOT/bench/pm_window_means.py" "${files[@]}" "$PARTS" "$REFERENCE" "$regex" "$TOLERANCE" || status=1
  echo "-- for information: $TRIAGE alone / ncu's $REFERENCE"
  python3 "$BENCH_ROOT/bench/pm_window_means.py" "${files[@]}" "$TRIAGE" "$REFERENCE" "$regex" "$TOLERANCE" | grep -v "^check"
  echo "-- for information: SM activity, sampled / ncu's $ACTIVE"
  python3 "$BENCH_ROOT/bench/pm_window_means.py" "${files[@]}" "$ACTIVE" "$ACTIVE" "$regex" "$TOLERANCE" | grep -v "^check: passed"
}

check pm_phases 'Phase' "$APPS/pm_phases" --pairs "$PAIRS"
check cublas_gemm 'gemm' "$APPS/cublas_gemm" --size "$GEMM_SIZE" --repeats "$GEMM_REPEATS"
echo "files in $BENCH_TMP"
exit $status
