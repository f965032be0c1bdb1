#!/usr/bin/env bash
# gpaprof -p against ncu on the same program: 300 launches of bench/launch_loop (the three bench kernels in
# turn), collecting the GPA compute set with gpaprof (every GPA counter OpenGPA exposes on the chip) and the
# NVIDIA metrics behind it with `ncu --metrics <same>`. Both replay each kernel (gpaprof: its own replay, or
# CUPTI's kernel replay with GPAPROF_CUDA_REPLAY=cupti; ncu: its kernel replay), both run the program once. ncu
# runs with --clock-control none (gpaprof leaves the clocks alone; with ncu's default it would lock them and the
# values would differ) and writes its report to a file, as gpaprof does. Wall time of the whole command, one run
# each; the "GPA compute set" rows are the target's. The program runs at the sizes SIZES names (the replays
# save and restore device memory, so the cost per kernel depends on it); further rows: gpaprof's default
# one-pass set, and with ROWS other replay methods, decoding batch sizes or the set without the one GPA counter
# that needs SASS patching (FlatLDSInsts).
#
# Usage: bench/gpaprof_vs_ncu.sh [build-dir]          (target: ratio <= 0.2, aim <= 0.1)
#   ROWS: which:batch:replay[:cache] ...  which = full | default | nosass, batch = GPAPROF_CUDA_COUNTER_BATCH,
#         replay = own | cupti (GPAPROF_CUDA_REPLAY), cache = all (default: gpaprof flushes the L2 before each
#         measured kernel, as ncu does by default) | none (GPAPROF_CUDA_CACHE_CONTROL=none, compared with
#         `ncu --cache-control none`, run once per size for such rows)
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-300}
SIZES=${SIZES:-1048576 65536}   # elements per kernel: 12 MiB and 768 KiB of device memory in the program
ROWS=${ROWS:-full:256:own default:256:own full:64:cupti default:64:cupti}  # also: full:1:own nosass:256:own
set_line=$("$BIN/gpa_compute_metrics") || { echo "gpa_compute_metrics failed"; exit 1; }
chip=$(echo "$set_line" | grep '^chip=' | cut -d= -f2)
counters=$(echo "$set_line" | grep '^counters=' | cut -d= -f2)
metrics=$(echo "$set_line" | grep '^metrics=' | cut -d= -f2)
no_sass=$(echo "$counters" | tr ',' '\n' | grep -v '^FlatLDSInsts$' | paste -sd,)
n_counters=$(echo "$counters" | tr ',' '\n' | wc -l)
n_metrics=$(echo "$metrics" | tr ',' '\n' | wc -l)
bench_header "counter mode: gpaprof -p / ncu --metrics, $LAUNCHES launches, $n_counters GPA counters = $n_metrics NVIDIA metrics on $chip"

# Rows of the .csv and how many counter values are NA (the dispatch columns SGPRs is NA on NVIDIA by design).
csv_summary() {
  python3 - "$1" <<'PY'
import sys
rows = [l.rstrip("\n") for l in open(sys.argv[1]) if not l.startswith("#")]
header = [c.strip() for c in rows[0].split(",")]
first = header.index("KernelOccupancy") + 1
data = [[c.strip() for c in r.split(",")] for r in rows[1:] if r.strip()]
na = sum(1 for r in data for c in r[first:] if c == "NA")
print(len(data), na, len(header) - first)
PY
}

run_gpaprof() {  # run_gpaprof NAME BATCH COUNTERS REPLAY CACHE
  wall env GPAPROF_CUDA_STATS=1 GPAPROF_CUDA_COUNTER_BATCH="$2" GPAPROF_CUDA_REPLAY="$4" GPAPROF_CUDA_CACHE_CONTROL="$5" \
    "$GPAPROF" -p --no-progress \
    --counters "$3" -o "$BENCH_TMP/$1" -- "${program[@]}"
  local rc=$?
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/$1.log"
  [ $rc -eq 0 ] || { cat "$BENCH_TMP/last.out"; exit 1; }
  read -r ROWS_WRITTEN NA COLUMNS < <(csv_summary "$BENCH_TMP/$1.csv")
  GPWALL=$WALL
}
for elements in $SIZES; do
  program=("$BIN/launch_loop" --launches "$LAUNCHES" --elements "$elements")
  echo "-- $elements elements per kernel ($((elements * 12 / 1024)) KiB of device memory in the program)"
  wall "${program[@]}" || { cat "$BENCH_TMP/last.out"; exit 1; }
  alone=$WALL
  wall ncu --metrics "$metrics" --clock-control none -f -o "$BENCH_TMP/ncu_report" "${program[@]}"
  rc=$?; nc=$WALL
  [ $rc -eq 0 ] || { tail -20 "$BENCH_TMP/last.out"; echo "ncu failed"; exit 1; }
  ncu_kernels=$(ncu --import "$BENCH_TMP/ncu_report.ncu-rep" --csv --page raw 2>/dev/null | tail -n +3 | wc -l)
  printf '%-44s %9s %8s %10s %13s %8s\n' run wall_s kernels NA ms_per_kernel vs_ncu
  printf '%-44s %9.2f %8s %10s %13s %8s\n' "program alone" "$alone" "$LAUNCHES" - - -
  printf '%-44s %9.2f %8s %10s %13.2f %8s\n' "ncu --metrics <GPA set metrics>" "$nc" "$ncu_kernels" - \
    "$(per_kernel_ms "$nc" "$alone" "$LAUNCHES")" 1
  nc_none=
  for spec in $ROWS; do
    IFS=: read -r which batch replay cache <<< "$spec"
    replay=${replay:-own}
    cache=${cache:-all}
    peer=$nc
    if [ "$cache" = none ]; then
      if [ -z "$nc_none" ]; then
        wall ncu --metrics "$metrics" --clock-control none --cache-control none -f -o "$BENCH_TMP/ncu_none" "${program[@]}"
        rc=$?; nc_none=$WALL
        [ $rc -eq 0 ] || { tail -20 "$BENCH_TMP/last.out"; echo "ncu --cache-control none failed"; exit 1; }
        printf '%-44s %9.2f %8s %10s %13.2f %8s\n' "ncu --metrics <same> --cache-control none" "$nc_none" "$LAUNCHES" - \
          "$(per_kernel_ms "$nc_none" "$alone" "$LAUNCHES")" 1
      fi
      peer=$nc_none
    fi
    case $which in
      full) list=$counters; label="GPA compute set, $replay, batch $batch" ;;
      nosass) list=$no_sass; label="GPA set w/o FlatLDSInsts, $replay, batch $batch" ;;
      default) list=GPUTime,Wavefronts,FetchSize,WriteSize,CacheHit,L1CacheHit,L2CacheHit; label="default set, $replay, batch $batch" ;;
    esac
    [ "$cache" = none ] && label="$label, no L2 flush (vs ncu without)"
    name="gp_${which}_${batch}_${replay}_${cache}_$elements"
    run_gpaprof "$name" "$batch" "$list" "$replay" "$cache"
    printf '%-44s %9.2f %8s %10s %13.2f %8.3f\n' "gpaprof -p: $label" "$GPWALL" "$ROWS_WRITTEN" \
      "$NA/$((ROWS_WRITTEN * COLUMNS))" "$(per_kernel_ms "$GPWALL" "$alone" "$LAUNCHES")" "$(ratio "$GPWALL" "$peer")"
    grep -h "replay pass\|statistics\|instead of\|per configuration\|are NA" "$BENCH_TMP/$name.log" | sed 's/^/      /'
  done
done
