#!/usr/bin/env bash
# gpaprof -p against ncu on CUDA graphs (issue 33): tests/tools/gpaprof/cuda_apps/graph_known_answers (fill ->
# copy node -> sum -> child graph {combine} -> empty node, LAUNCHES graph launches, fill's grid changed half-way;
# graph_known_answers.cu) in its graph mode and in its eager mode (the same kernels launched one by one). For
# each metric set: `gpaprof -p --counters <set>` against `ncu --graph-profiling node --clock-control none
# --metrics <the same NVIDIA metrics>` (ncu writes its report to a file, as bench/gpaprof_vs_ncu.sh has it), and
# `gpaprof -p --graph-profiling graph` against `ncu --graph-profiling graph` on the graph mode (ncu's range replay
# refuses the SASS-patching metrics of the GPA set: its run goes without them, and says so). Wall time of the
# whole command, one run each, the ratio gpaprof / ncu, and the rows gpaprof wrote against ncu's results (its raw
# page) and the number the program's launches should give. Then, for the `exact` set, every metric of every kernel
# in both tools: the medians, and for the counts (all but dram__*) whether both tools' values are the same
# multiset. Every run's program must print "results correct" (its data after the tool's replays).
#
# Usage: bench/graph_vs_ncu.sh [build-dir]
#   LAUNCHES (50), ELEMENTS (4194304 floats per buffer: 16 MiB), SETS ("exact gpa": the metrics of EXACT, and
#   the GPA compute set of bench/gpa_compute_metrics), TIMEOUT (300 s per command), EXACT (the metric list)
BENCH_KEEPS_FILES=1  # it prints "files in $BENCH_TMP"
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-50}
ELEMENTS=${ELEMENTS:-4194304}
SETS=${SETS:-exact gpa}
TIMEOUT=${TIMEOUT:-300}
EXACT=${EXACT:-smsp__warps_launched.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,dram__bytes_write.sum}
APP=${APP:-$BUILD/tests/tools/gpaprof/cuda_apps/graph_known_answers}
KERNELS_PER_LAUNCH=3
[ -x "$APP" ] || { echo "no $APP (build the target gpaprof_cuda_app_graph_known_answers)"; exit 1; }
command -v ncu > /dev/null || { echo "ncu (Nsight Compute) is not on PATH"; exit 1; }
bench_header "CUDA graphs: gpaprof -p / ncu --graph-profiling, graph_known_answers, $LAUNCHES launches, $ELEMENTS elements"

program() {  # program MODE: the command line of the test program
  echo "$APP" --mode "$1" --launches "$LAUNCHES" --elements "$ELEMENTS"
}

# Rows of a gpaprof .csv, those with a GraphLaunch, and NA counter values.
csv_rows() {
  python3 - "$1" <<'PY'
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if not l.startswith("#") and l.strip()]
header = [c.strip() for c in lines[0].split(",")]
rows = [[c.strip() for c in l.split(",")] for l in lines[1:]]
graph = header.index("GraphLaunch") if "GraphLaunch" in header else -1
first = max(header.index("KernelOccupancy"), graph, header.index("GraphNode") if "GraphNode" in header else -1) + 1
print(len(rows), sum(1 for r in rows if graph >= 0 and r[graph] != "NA"),
      sum(1 for r in rows for c in r[first:] if c == "NA"))
PY
}

checked() {  # checked NAME: the program's own verdict in $BENCH_TMP/NAME.log
  grep -q "results correct" "$BENCH_TMP/$1.log" && echo ok || echo WRONG
}

# run_ncu NAME GRAPH_PROFILING METRICS MODE: sets NC_WALL, NC_RESULTS; raw page in $BENCH_TMP/NAME.csv
run_ncu() {
  local name=$1 profiling=$2 metrics=$3 mode=$4
  # shellcheck disable=SC2046
  wall timeout "$TIMEOUT" ncu --graph-profiling "$profiling" --clock-control none --metrics "$metrics" -f \
    -o "$BENCH_TMP/$name" $(program "$mode")
  local rc=$?
  NC_WALL=$WALL
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/$name.log"
  if [ $rc -ne 0 ]; then
    echo "ncu failed (rc=$rc): $name"; tail -8 "$BENCH_TMP/$name.log" | sed 's/^/      /'
    NC_RESULTS=-
    return 1
  fi
  ncu --import "$BENCH_TMP/$name.ncu-rep" --csv --page raw --print-units base > "$BENCH_TMP/$name.csv" 2>/dev/null
  NC_RESULTS=$(tail -n +3 "$BENCH_TMP/$name.csv" | grep -c .)
}

# run_gpaprof NAME GRAPH_PROFILING COUNTERS MODE: sets GP_WALL, GP_ROWS, GP_GRAPH_ROWS, GP_NA
run_gpaprof() {
  local name=$1 profiling=$2 counters=$3 mode=$4
  # shellcheck disable=SC2046
  wall timeout "$TIMEOUT" env GPAPROF_CUDA_STATS=1 "$GPAPROF" -p --no-progress --graph-profiling "$profiling" \
    --counters "$counters" -o "$BENCH_TMP/$name" -- $(program "$mode")
  local rc=$?
  GP_WALL=$WALL
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/$name.log"
  if [ $rc -ne 0 ] || [ ! -f "$BENCH_TMP/$name.csv" ]; then
    echo "gpaprof failed (rc=$rc): $name"; tail -8 "$BENCH_TMP/$name.log" | sed 's/^/      /'
    GP_ROWS=- GP_GRAPH_ROWS=- GP_NA=-
    return 1
  fi
  read -r GP_ROWS GP_GRAPH_ROWS GP_NA < <(csv_rows "$BENCH_TMP/$name.csv")
}

row() {  # row LABEL WALL ROWS GRAPH_ROWS NA EXPECTED RATIO PROGRAM
  printf '%-58s %8s %6s %6s %6s %8s %7s %s\n' "$@"
}

# The values table: every metric of every kernel (or of the whole graph) in a gpaprof .csv and an ncu raw page.
compare_values() {  # compare_values LABEL GPAPROF_CSV NCU_CSV METRICS WHOLE(0|1)
  python3 - "$@" <<'PY'
import csv, re, statistics, sys
label, gp_path, nc_path, metrics, whole = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(","), sys.argv[5] == "1"

def plain(mangled):  # "fill" from "_Z4fillPfiPKj"
    m = re.match(r"_Z(\d+)", mangled)
    return mangled[m.end():m.end() + int(m.group(1))] if m else mangled

gp = {}
lines = [l.rstrip("\n") for l in open(gp_path) if not l.startswith("#") and l.strip()]
header = [c.strip() for c in lines[0].split(",")]
for line in lines[1:]:
    cells = [c.strip() for c in line.split(",")]
    kernel = "(graph)" if whole else plain(cells[0].split("__k")[0])
    for metric in metrics:
        if metric in header and cells[header.index(metric)] != "NA":
            gp.setdefault((kernel, metric), []).append(float(cells[header.index(metric)]))
nc = {}
rows = [r for r in csv.reader(open(nc_path)) if r]
if rows:
    head = rows[0]
    for r in rows[2:]:
        kernel = "(graph)" if whole else r[head.index("Kernel Name")].split("(")[0].strip()
        for metric in metrics:
            if metric in head:
                text = r[head.index(metric)].replace(",", "")
                try:
                    nc.setdefault((kernel, metric), []).append(float(text))
                except ValueError:
                    pass
print("-- values, %s: median per kernel over its rows (gpaprof) and results (ncu)" % label)
print("%-10s %-50s %6s %6s %16s %16s %8s %s" % ("kernel", "metric", "n_gp", "n_ncu", "gpaprof", "ncu", "ratio", "same"))
same = counted = 0
for key in sorted(set(gp) | set(nc)):
    a, b = gp.get(key, []), nc.get(key, [])
    ma = statistics.median(a) if a else float("nan")
    mb = statistics.median(b) if b else float("nan")
    exact = not key[1].startswith("dram__")
    verdict = "-"
    if exact:
        counted += 1
        equal = sorted(a) == sorted(b)
        same += equal
        verdict = "yes" if equal else "NO"
    ratio = ma / mb if a and b and mb else float("nan")
    print("%-10s %-50s %6d %6d %16.1f %16.1f %8.4f %s" % (key[0], key[1], len(a), len(b), ma, mb, ratio, verdict))
print("-- %s: %d of %d count lists equal in both tools" % (label, same, counted))
PY
}

gpa_counters='' gpa_metrics=''
if [[ " $SETS " == *" gpa "* ]]; then
  if set_line=$("$BIN/gpa_compute_metrics" 2>&1); then
    gpa_counters=$(echo "$set_line" | grep '^counters=' | cut -d= -f2)
    gpa_metrics=$(echo "$set_line" | grep '^metrics=' | cut -d= -f2)
  else
    echo "gpa set skipped: gpa_compute_metrics failed: $set_line"
  fi
fi

row run wall_s rows graph NA expected vs_ncu program
for mode in graph eager; do
  # shellcheck disable=SC2046
  wall $(program "$mode") || { cat "$BENCH_TMP/last.out"; exit 1; }
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/alone_$mode.log"
  row "program alone, $mode mode" "$WALL" - - - - - "$(checked "alone_$mode")"
done
status=0
for set in $SETS; do
  case $set in
    exact) counters=$EXACT metrics=$EXACT ;;
    gpa) [ -n "$gpa_counters" ] || continue; counters=$gpa_counters metrics=$gpa_metrics ;;
    *) echo "unknown set $set"; continue ;;
  esac
  echo "-- set $set: $(echo "$metrics" | tr ',' '\n' | wc -l) NVIDIA metrics"
  for mode in graph eager; do
    run_ncu "ncu_${set}_$mode" node "$metrics" "$mode"
    row "ncu --graph-profiling node, $mode mode" "$NC_WALL" "$NC_RESULTS" - - $((KERNELS_PER_LAUNCH * LAUNCHES)) 1 \
      "$(checked "ncu_${set}_$mode")"
    nc=$NC_WALL
    run_gpaprof "gp_${set}_$mode" node "$counters" "$mode" || status=1
    row "gpaprof -p (node), $mode mode" "$GP_WALL" "$GP_ROWS" "$GP_GRAPH_ROWS" "$GP_NA" \
      $((KERNELS_PER_LAUNCH * LAUNCHES)) "$(ratio "$GP_WALL" "$nc")" "$(checked "gp_${set}_$mode")"
    grep -h "statistics\|instead of\|are NA\|graph" "$BENCH_TMP/gp_${set}_$mode.log" | grep '^gpaprof' | head -4 | sed 's/^/      /'
  done
  # ncu's range replay (--graph-profiling graph) refuses the SASS-patching metrics (smsp__sass_*): it runs without.
  whole_metrics=$(echo "$metrics" | tr ',' '\n' | grep -v '^smsp__sass_' | paste -sd,)
  whole_label="ncu --graph-profiling graph, graph mode"
  [ "$whole_metrics" = "$metrics" ] ||
    whole_label="$whole_label (w/o $(echo "$metrics" | tr ',' '\n' | grep -c '^smsp__sass_') SASS metrics)"
  run_ncu "ncu_${set}_whole" graph "$whole_metrics" graph
  row "$whole_label" "$NC_WALL" "$NC_RESULTS" - - "$LAUNCHES" 1 "$(checked "ncu_${set}_whole")"
  nc=$NC_WALL
  run_gpaprof "gp_${set}_whole" graph "$counters" graph || status=1
  row "gpaprof -p --graph-profiling graph" "$GP_WALL" "$GP_ROWS" "$GP_GRAPH_ROWS" "$GP_NA" "$LAUNCHES" \
    "$(ratio "$GP_WALL" "$nc")" "$(checked "gp_${set}_whole")"
done

if [[ " $SETS " == *" exact "* ]]; then
  for mode in graph eager; do
    [ -f "$BENCH_TMP/gp_exact_$mode.csv" ] && [ -f "$BENCH_TMP/ncu_exact_$mode.csv" ] &&
      compare_values "node, $mode mode" "$BENCH_TMP/gp_exact_$mode.csv" "$BENCH_TMP/ncu_exact_$mode.csv" "$EXACT" 0
  done
  [ -f "$BENCH_TMP/gp_exact_whole.csv" ] && [ -f "$BENCH_TMP/ncu_exact_whole.csv" ] &&
    compare_values "whole graph" "$BENCH_TMP/gp_exact_whole.csv" "$BENCH_TMP/ncu_exact_whole.csv" "$EXACT" 1
fi
echo "files in $BENCH_TMP"
exit $status
