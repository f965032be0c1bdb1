#!/usr/bin/env bash
# gpaprof -p against ncu on the same program: 300 launches of bench/launch_loop (the three bench kernels in
# turn), collecting the GPA compute set with gpaprof (every GPA counter OpenGPA exposes on the chip) and the
# NVIDIA metrics behind it with `ncu --metrics <same>`. Both replay each kernel (gpaprof: CUPTI kernel replay;
# ncu: its kernel replay), both run the program once. ncu runs with --clock-control none (gpaprof leaves the
# clocks alone; with ncu's default it would lock them and the values would differ) and writes its report to a
# file, as gpaprof does. Wall time of the whole command; one run each.
#
# Usage: bench/gpaprof_vs_ncu.sh [build-dir]          (target: ratio <= 0.2, aim <= 0.1)
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-300}
ELEMENTS=${ELEMENTS:-1048576}
set_line=$("$BIN/gpa_compute_metrics") || { echo "gpa_compute_metrics failed"; exit 1; }
chip=$(echo "$set_line" | grep '^chip=' | cut -d= -f2)
counters=$(echo "$set_line" | grep '^counters=' | cut -d= -f2)
metrics=$(echo "$set_line" | grep '^metrics=' | cut -d= -f2)
n_counters=$(echo "$counters" | tr ',' '\n' | wc -l)
n_metrics=$(echo "$metrics" | tr ',' '\n' | wc -l)
bench_header "counter mode: gpaprof -p / ncu --metrics, $LAUNCHES launches, $n_counters GPA counters = $n_metrics NVIDIA metrics on $chip"
program=("$BIN/launch_loop" --launches "$LAUNCHES" --elements "$ELEMENTS")

wall "${program[@]}" || { cat "$BENCH_TMP/last.out"; exit 1; }
alone=$WALL
wall env GPAPROF_CUDA_STATS=1 "$GPAPROF" -p --no-progress --counters "$counters" -o "$BENCH_TMP/counters" -- "${program[@]}"
rc=$?; gp=$WALL; cp "$BENCH_TMP/last.out" "$BENCH_TMP/gpaprof_batch1.log"
[ $rc -eq 0 ] || { cat "$BENCH_TMP/last.out"; exit 1; }
rows=$(grep -c '__k' "$BENCH_TMP/counters.csv")
na=$(grep '__k' "$BENCH_TMP/counters.csv" | grep -c 'NA')
wall env GPAPROF_CUDA_STATS=1 GPAPROF_CUDA_COUNTER_BATCH=64 "$GPAPROF" -p --no-progress --counters "$counters" \
  -o "$BENCH_TMP/counters64" -- "${program[@]}"
gp64=$WALL; cp "$BENCH_TMP/last.out" "$BENCH_TMP/gpaprof_batch64.log"
rows64=$(grep -c '__k' "$BENCH_TMP/counters64.csv")
wall ncu --metrics "$metrics" --clock-control none -f -o "$BENCH_TMP/ncu_report" "${program[@]}"
rc=$?; nc=$WALL
[ $rc -eq 0 ] || { tail -20 "$BENCH_TMP/last.out"; echo "ncu failed"; exit 1; }
ncu_kernels=$(ncu --import "$BENCH_TMP/ncu_report.ncu-rep" --csv --page raw 2>/dev/null | tail -n +3 | wc -l)

printf '%-34s %10s %10s %14s %10s\n' run wall_s kernels ms_per_kernel vs_ncu
printf '%-34s %10.2f %10s %14s %10s\n' "program alone" "$alone" "$LAUNCHES" - -
printf '%-34s %10.2f %10s %14.2f %10.3f\n' "gpaprof -p (decode every launch)" "$gp" "$rows" \
  "$(per_kernel_ms "$gp" "$alone" "$LAUNCHES")" "$(ratio "$gp" "$nc")"
printf '%-34s %10.2f %10s %14.2f %10.3f\n' "gpaprof -p (decode every 64)" "$gp64" "$rows64" \
  "$(per_kernel_ms "$gp64" "$alone" "$LAUNCHES")" "$(ratio "$gp64" "$nc")"
printf '%-34s %10.2f %10s %14.2f %10s\n' "ncu --metrics <same>" "$nc" "$ncu_kernels" \
  "$(per_kernel_ms "$nc" "$alone" "$LAUNCHES")" 1
echo "   gpaprof rows with an NA value: $na of $rows"
grep -h "replay pass\|statistics" "$BENCH_TMP/gpaprof_batch1.log" "$BENCH_TMP/gpaprof_batch64.log" | sed 's/^/   /'
