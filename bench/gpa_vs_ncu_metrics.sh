#!/usr/bin/env bash
# The same three kernels (bench/bench_kernels.cuh) measured through OpenGPA's C API with raw NVIDIA counters
# and by ncu --metrics with the same metrics (the NVIDIA metrics behind the GPA compute set): a table of
# every metric for every kernel, with the relative difference. Like with like: ncu with --clock-control none
# (GPA leaves clocks alone) and --cache-control all (every ncu pass starts with flushed caches; the GPA
# program streams a buffer 4x the L2 before each sample, outside the sample, for the same cold start).
# A GPA sample is a user range (from the CPU's push to its pop), ncu times the kernel alone: metrics counted
# over elapsed time are reported apart, as not comparable.
#
# Usage: bench/gpa_vs_ncu_metrics.sh [build-dir]       (target: every metric within 1%; counts exact)
source "$(dirname "$0")/common.sh" "$@"
set_line=$("$BIN/gpa_compute_metrics") || { echo "gpa_compute_metrics failed"; exit 1; }
metrics=${METRICS:-$(echo "$set_line" | grep '^metrics=' | cut -d= -f2)}
bench_header "GPA raw counters / ncu --metrics, same kernels, $(echo "$metrics" | tr ',' '\n' | wc -l) metrics"
"$BIN/gpa_vs_ncu_metrics" gpa "$metrics" > "$BENCH_TMP/gpa.txt" 2>&1 || { cat "$BENCH_TMP/gpa.txt"; exit 1; }
ncu --metrics "$metrics" --clock-control none --cache-control all --kernel-name regex:bench_ --csv --page raw --print-units base \
  --kernel-name-base mangled "$BIN/gpa_vs_ncu_metrics" plain > "$BENCH_TMP/ncu.csv" 2> "$BENCH_TMP/ncu.err" \
  || { cat "$BENCH_TMP/ncu.err"; exit 1; }
grep -E '^passes|^missing' "$BENCH_TMP/gpa.txt"
python3 - "$BENCH_TMP/gpa.txt" "$BENCH_TMP/ncu.csv" <<'PY'
import csv, sys
gpa = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 4 and parts[0] == "value":
        gpa[(int(parts[1]), parts[2])] = float(parts[3])
rows = [r for r in csv.reader(open(sys.argv[2])) if r]
header = next(r for r in rows if "Kernel Name" in r)
start = rows.index(header)
kernels = rows[start + 2:]
names = ["bench_saxpy", "bench_fma", "bench_reduce"]
print("%-8s %-62s %18s %18s %9s %s" % ("kernel", "metric", "gpa", "ncu", "rel_diff", ""))
within = exact = total = counts = 0
worst = []
elapsed = []
for k, row in enumerate(kernels[:3]):
    for (kernel, metric), value in sorted(gpa.items()):
        if kernel != k or metric not in header:
            continue
        text = row[header.index(metric)].replace(",", "")
        try:
            theirs = float(text)
        except ValueError:
            print("%-8s %-62s %18.6g %18s" % (names[k], metric, value, text))
            continue
        if "time_duration" in metric or "cycles_elapsed" in metric or "pct_of_peak_sustained_elapsed" in metric:
            elapsed.append((names[k], metric, value, theirs))
            continue
        total += 1
        diff = abs(value - theirs) / abs(theirs) if theirs else (0.0 if value == 0 else float("inf"))
        integer = metric.endswith(".sum") and float(theirs).is_integer()
        counts += integer
        exact += integer and value == theirs
        within += diff <= 0.01
        flag = "" if diff <= 0.01 else "  > 1%"
        if diff > 0.01:
            worst.append((diff, names[k], metric))
        print("%-8s %-62s %18.6g %18.6g %9.4f%s" % (names[k].replace("bench_", ""), metric, value, theirs, diff, flag))
print("summary: %d of %d values within 1%%; %d of %d integer counts exact" % (within, total, exact, counts))
print("not comparable (a GPA sample spans its user range, ncu the kernel alone): %d values over elapsed time" % len(elapsed))
for kernel, metric, value, theirs in elapsed:
    print("   %-8s %-62s gpa %14.6g  ncu %14.6g" % (kernel.replace("bench_", ""), metric, value, theirs))
for diff, kernel, metric in sorted(worst, reverse=True)[:10]:
    print("   off by %.2f%%: %s %s" % (100 * diff, kernel, metric))
PY
