#!/usr/bin/env bash
# The rows gpaprof -p writes against the results ncu gives on PyTorch training steps run from CUDA graphs (issue 33):
# tests/tools/gpaprof/cuda_apps/torch_training_loop.py with --graph (ResNet-18: 3 warm-up steps on a side stream,
# the step captured with torch.cuda.graph, STEPS replays) and with --compile (torch.compile(mode="reduce-overhead"):
# TorchInductor's kernels in CUDA graphs PyTorch records itself; where compiling is not possible the script says
# why and the variant is skipped). Both tools count smsp__warps_launched.sum: `gpaprof -p --counters <it>` against
# `ncu --graph-profiling node --clock-control none --metrics <it>`. Every kernel that ran, launched on its own or
# as a graph node, is one gpaprof row and one ncu result, so the counts, and the sums of the warps, must be equal.
# With WHOLE=1 the same with --graph-profiling graph in both tools (one row / result per graph launch, the kernels
# launched on their own as before). Where ncu's node mode fails, node rows are compared with the kernel lines of
# `gpaprof -t` (CUPTI's activity records: every kernel that ran). Wall time of each command; the ratio gpaprof / ncu.
#
# Usage: bench/graph_rows_vs_ncu_torch.sh [build-dir]
#   VARIANTS ("graph compile"), MODEL (resnet18), STEPS (3), BATCH (32), WHOLE (1), TIMEOUT (400 s per command),
#   PYTHON (python3: with torch and torchvision)
BENCH_KEEPS_FILES=1  # it prints "files in $BENCH_TMP"
source "$(dirname "$0")/common.sh" "$@"
VARIANTS=${VARIANTS:-graph compile}
MODEL=${MODEL:-resnet18}
STEPS=${STEPS:-3}
BATCH=${BATCH:-32}
WHOLE=${WHOLE:-1}
TIMEOUT=${TIMEOUT:-400}
PYTHON=${PYTHON:-python3}
METRIC=smsp__warps_launched.sum
SCRIPT=$BENCH_ROOT/tests/tools/gpaprof/cuda_apps/torch_training_loop.py
command -v ncu > /dev/null || { echo "ncu (Nsight Compute) is not on PATH"; exit 1; }
"$PYTHON" -c "import torch, torchvision" 2> /dev/null || { echo "$PYTHON has no torch or torchvision"; exit 1; }
bench_header "CUDA graphs in PyTorch: gpaprof -p rows / ncu results, $MODEL, $STEPS steps, batch $BATCH"

# gpaprof .csv: rows, rows of graph launches, distinct graph launches, the sum of METRIC, NA values of it.
csv_counts() {
  python3 - "$1" "$METRIC" <<'PY'
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if not l.startswith("#") and l.strip()]
header = [c.strip() for c in lines[0].split(",")]
rows = [[c.strip() for c in l.split(",")] for l in lines[1:]]
graph = header.index("GraphLaunch") if "GraphLaunch" in header else -1
col = header.index(sys.argv[2])
graph_rows = [r for r in rows if graph >= 0 and r[graph] != "NA"]
print(len(rows), len(graph_rows), len({r[graph] for r in graph_rows}),
      "%.0f" % sum(float(r[col]) for r in rows if r[col] != "NA"), sum(1 for r in rows if r[col] == "NA"))
PY
}

# ncu raw page: results, the sum of METRIC.
ncu_counts() {
  ncu --import "$1" --csv --page raw --print-units base 2> /dev/null | python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if r]
if not rows:
    print(0, 0)
    sys.exit()
col = rows[0].index(sys.argv[1])
print(len(rows) - 2, "%.0f" % sum(float(r[col].replace(",", "")) for r in rows[2:] if r[col].replace(",", "").strip()))
' "$METRIC"
}

line() {  # line VARIANT TOOL WALL ROWS GRAPH_ROWS GRAPH_LAUNCHES WARPS NA VS_NCU PROGRAM
  printf '%-8s %-40s %8s %7s %7s %7s %14s %4s %7s %s\n' "$@"
}

# Kernel lines of a gpaprof .atp: all, and those of graph launches (CUDA_GRAPH_KERNEL).
atp_counts() {
  python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
at = lines.index("=====cuda Kernel Timestamp Output=====")
count = int(lines[at + 1].split()[0])
entries = lines[at + 2: at + 2 + count]
# A graph's copy node the driver runs as a kernel of its own (memcpy32_post, docs/gpaprof.md 2026-11-29) is device
# work in the trace but no kernel node: no row in either tool.
entries = [e for e in entries if not (" CUDA_GRAPH_KERNEL " in e and e.startswith("memcpy"))]
print(len(entries), sum(1 for e in entries if " CUDA_GRAPH_KERNEL " in e))
PY
}

run_ncu() {  # run_ncu VARIANT PROFILING: sets NC_RESULTS, NC_WARPS, prints its line
  local name=$1_$2
  wall timeout "$TIMEOUT" env PYTHONUNBUFFERED=1 ncu --graph-profiling "$2" --clock-control none \
    --metrics "$METRIC" -f -o "$BENCH_TMP/ncu_$name" "${app[@]}"
  local rc=$? ok
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/ncu_$name.log"
  ok=$(grep -q '^torch_training_loop ' "$BENCH_TMP/ncu_$name.log" && echo ok || echo FAILED)
  NC_RESULTS=- NC_WARPS=-
  if [ $rc -eq 0 ] && [ -f "$BENCH_TMP/ncu_$name.ncu-rep" ]; then
    read -r NC_RESULTS NC_WARPS < <(ncu_counts "$BENCH_TMP/ncu_$name.ncu-rep")
  else
    grep -h "==ERROR==" "$BENCH_TMP/ncu_$name.log" | head -3 | sed 's/^/         /'
    [ $rc -eq 124 ] && echo "         (stopped after TIMEOUT=$TIMEOUT s)"
  fi
  line "$1" "ncu --graph-profiling $2" "$WALL" "$NC_RESULTS" - - "$NC_WARPS" - - "$ok"
  NC_WALL=$WALL
}

run_gpaprof() {  # run_gpaprof VARIANT PROFILING: sets GP_ROWS, GP_WARPS, GP_WALL, prints its line
  local name=$1_$2
  wall timeout "$TIMEOUT" env PYTHONUNBUFFERED=1 "$GPAPROF" -p --no-progress --graph-profiling "$2" \
    --counters "$METRIC" -o "$BENCH_TMP/gp_$name" -- "${app[@]}"
  local rc=$? ok graph_rows launches na
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/gp_$name.log"
  ok=$(grep -q '^torch_training_loop ' "$BENCH_TMP/gp_$name.log" && echo ok || echo FAILED)
  GP_ROWS=- GP_WARPS=- graph_rows=- launches=- na=-
  [ -f "$BENCH_TMP/gp_$name.csv" ] && read -r GP_ROWS graph_rows launches GP_WARPS na < <(csv_counts "$BENCH_TMP/gp_$name.csv")
  [ $rc -eq 0 ] || status=1
  line "$1" "gpaprof -p --graph-profiling $2" "$WALL" "$GP_ROWS" "$graph_rows" "$launches" "$GP_WARPS" "$na" - "$ok"
  # What gpaprof said about the run (graphs, NA values), its own lines.
  grep -h '^gpaprof:' "$BENCH_TMP/gp_$name.log" | grep -v '^gpaprof: profiling\|^gpaprof: wrote\|exited with code' | head -4 |
    cut -c1-220 | sed 's/^/         /'
  GP_WALL=$WALL
}

verdict() {  # verdict VARIANT PROFILING REFERENCE_NAME REFERENCE_ROWS REFERENCE_WARPS
  local rows warps
  rows=$([ "$GP_ROWS" = "$4" ] && echo equal || echo DIFFER)
  warps=$([ "$5" = - ] && echo "not compared" || { [ "$GP_WARPS" = "$5" ] && echo equal || echo DIFFER; })
  echo "         $1 $2: rows $rows, warps $warps (gpaprof $GP_ROWS rows, $3 $4)"
  [ "$rows" = equal ] && [ "$warps" != DIFFER ] || status=1
}

status=0
line variant run wall_s rows graph launches warps_sum NA vs_ncu program
for variant in $VARIANTS; do
  app=("$PYTHON" "$SCRIPT" --model "$MODEL" --steps "$STEPS" --batch "$BATCH" "--$variant")
  wall timeout "$TIMEOUT" env PYTHONUNBUFFERED=1 "${app[@]}"
  rc=$?
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/alone_$variant.log"
  if grep -q "not possible" "$BENCH_TMP/alone_$variant.log"; then
    echo "$variant: skipped: $(grep -h 'not possible' "$BENCH_TMP/alone_$variant.log" | head -1)"
    continue
  fi
  if [ $rc -ne 0 ] || ! grep -q '^torch_training_loop ' "$BENCH_TMP/alone_$variant.log"; then
    echo "$variant: the program alone failed (rc=$rc)"; tail -5 "$BENCH_TMP/alone_$variant.log"; status=1; continue
  fi
  line "$variant" "program alone" "$WALL" - - - - - - ok
  # The kernels that ran, by CUPTI's activity records (gpaprof -t): the rows node mode must give.
  wall timeout "$TIMEOUT" env PYTHONUNBUFFERED=1 "$GPAPROF" -t --no-progress -o "$BENCH_TMP/trace_$variant" -- "${app[@]}"
  trace_lines=- trace_graph=-
  [ -f "$BENCH_TMP/trace_$variant.atp" ] && read -r trace_lines trace_graph < <(atp_counts "$BENCH_TMP/trace_$variant.atp")
  line "$variant" "gpaprof -t (kernel lines: all, of graphs)" "$WALL" "$trace_lines" "$trace_graph" - - - - \
    "$(grep -q '^torch_training_loop ' "$BENCH_TMP/last.out" && echo ok || echo FAILED)"
  # gpaprof first, then ncu's graph mode, ncu's node mode last (the slowest; on 2026-11-28 it failed on the
  # torch.cuda.graph variant with the driver's LaunchFailed).
  run_gpaprof "$variant" node
  gp_node_rows=$GP_ROWS gp_node_warps=$GP_WARPS gp_node_wall=$GP_WALL
  if [ "$WHOLE" = 1 ]; then
    run_gpaprof "$variant" graph
    gp_graph_wall=$GP_WALL
    run_ncu "$variant" graph
    echo "         gpaprof / ncu, --graph-profiling graph: $(ratio "$gp_graph_wall" "$NC_WALL")"
    verdict "$variant" graph "ncu" "$NC_RESULTS" "$NC_WARPS"
  fi
  run_ncu "$variant" node
  GP_ROWS=$gp_node_rows GP_WARPS=$gp_node_warps
  if [ "$NC_RESULTS" != - ]; then
    echo "         gpaprof / ncu, --graph-profiling node: $(ratio "$gp_node_wall" "$NC_WALL")"
    verdict "$variant" node "ncu" "$NC_RESULTS" "$NC_WARPS"
  else
    verdict "$variant" node "trace kernel lines" "$trace_lines" -
  fi
done
echo "files in $BENCH_TMP"
exit $status
