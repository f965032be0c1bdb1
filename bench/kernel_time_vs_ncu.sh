#!/usr/bin/env bash
# Kernel durations: gpaprof's Time and GPUTime columns against ncu's gpu__time_duration.sum, on the same
# program in the same run (bench/launch_loop, one kernel at a time, kernels of 50 µs and more). gpaprof rows:
# the one-pass GPUTime set (no replay), a set of several passes under gpaprof's own replay (batched and
# immediate; with the L2 flushed before measured kernels, the default, and without: GPAPROF_CUDA_CACHE_CONTROL=none)
# and under CUPTI's kernel replay, and the kernel's activity record under -t. ncu rows: its default
# cache control (caches flushed before each pass) and --cache-control none. Median over the launches of each
# kernel; the ratio is gpaprof / ncu (default). Target: within 3% for kernels over 50 µs (issue 8).
#
# Usage: bench/kernel_time_vs_ncu.sh [build-dir]    LAUNCHES (20), ELEMENTS (67108864: 256 MiB per buffer)
source "$(dirname "$0")/common.sh" "$@"
LAUNCHES=${LAUNCHES:-20}
ELEMENTS=${ELEMENTS:-67108864}
MULTI="smsp__warps_launched.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,VALUInsts,FlatVMemInsts,GPUTime"
bench_header "kernel durations: gpaprof Time/GPUTime vs ncu gpu__time_duration.sum, $LAUNCHES launches, $ELEMENTS elements"

# Median milliseconds per kernel name of a gpaprof .csv column.
csv_medians() {  # csv_medians FILE COLUMN
  python3 - "$1" "$2" <<'PY'
import statistics, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if not l.startswith("#") and l.strip()]
header = [c.strip() for c in lines[0].split(",")]
col = header.index(sys.argv[2])
values = {}
for line in lines[1:]:
    cells = [c.strip() for c in line.split(",")]
    kernel = cells[0].split("__k")[0]
    if cells[col] != "NA":
        values.setdefault(kernel, []).append(float(cells[col]))
for kernel, v in sorted(values.items()):
    print(kernel, "%.5f" % statistics.median(v))
PY
}

# Median kernel duration (ms) per kernel name from the .atp kernel timestamp lines (CPU-clock ns).
atp_medians() {
  python3 - "$1" <<'PY'
import statistics, sys
lines = open(sys.argv[1]).read().splitlines()
at = lines.index("=====cuda Kernel Timestamp Output=====")
count = int(lines[at + 1].split()[0])
values = {}
for line in lines[at + 2: at + 2 + count]:
    f = line.split()
    # <kernel> <handle> <start> <end> <device> ... (docs/profiler_files.md, the CUDA kernel timestamp lines)
    name, start, end = f[0], int(f[2]), int(f[3])
    if end > start:
        values.setdefault(name, []).append((end - start) / 1e6)
for kernel, v in sorted(values.items()):
    print(kernel, "%.5f" % statistics.median(v))
PY
}

ncu_medians() {  # ncu_medians REPORT
  ncu --import "$1" --csv --page raw --print-units base 2>/dev/null | python3 -c '
import csv, statistics, sys
rows = list(csv.reader(sys.stdin))
header = rows[0]
name, col = header.index("Kernel Name"), header.index("gpu__time_duration.sum")
values = {}
for r in rows[2:]:
    values.setdefault(r[name].split("(")[0], []).append(float(r[col].replace(",", "")) / 1e6)
for k, v in sorted(values.items()):
    print(k, "%.5f" % statistics.median(v))
'
}

printf '%-14s %-34s %10s %8s\n' kernel source ms vs_ncu
for kernel in saxpy fma reduce; do
  program=("$BIN/launch_loop" --launches "$LAUNCHES" --elements "$ELEMENTS" --kernel "$kernel")
  declare -A ms=()
  wall ncu --metrics gpu__time_duration.sum --clock-control none -f -o "$BENCH_TMP/ncu_$kernel" "${program[@]}" &&
    ms[ncu]=$(ncu_medians "$BENCH_TMP/ncu_$kernel.ncu-rep" | awk '{print $2; exit}')
  wall ncu --metrics gpu__time_duration.sum --clock-control none --cache-control none -f -o "$BENCH_TMP/ncu_nc_$kernel" "${program[@]}" &&
    ms[ncu_cache_none]=$(ncu_medians "$BENCH_TMP/ncu_nc_$kernel.ncu-rep" | awk '{print $2; exit}')
  run() {  # run NAME COLUMN COUNTERS [ENV...]
    local name=$1 column=$2 counters=$3
    shift 3
    wall env "$@" "$GPAPROF" -p --no-progress --counters "$counters" -o "$BENCH_TMP/${name}_$kernel" -- "${program[@]}" ||
      { tail -5 "$BENCH_TMP/last.out"; return; }
    ms[$name]=$(csv_medians "$BENCH_TMP/${name}_$kernel.csv" "$column" | awk '{print $2; exit}')
  }
  run gpaprof_1pass_Time Time GPUTime
  run gpaprof_1pass_GPUTime GPUTime GPUTime
  run gpaprof_own_Time Time "$MULTI"
  run gpaprof_own_GPUTime GPUTime "$MULTI"
  run gpaprof_own_nocache_Time Time "$MULTI" GPAPROF_CUDA_CACHE_CONTROL=none
  run gpaprof_1pass_nocache_Time Time GPUTime GPAPROF_CUDA_CACHE_CONTROL=none
  run gpaprof_immediate_Time Time "$MULTI" GPAPROF_CUDA_OWN_REPLAY=immediate
  run gpaprof_cupti_Time Time "$MULTI" GPAPROF_CUDA_REPLAY=cupti
  if wall "$GPAPROF" -t --no-progress -o "$BENCH_TMP/trace_$kernel" -- "${program[@]}"; then
    ms[gpaprof_trace_activity]=$(atp_medians "$BENCH_TMP/trace_$kernel.atp" | awk '{print $2; exit}')
  fi
  for source in ncu ncu_cache_none gpaprof_1pass_Time gpaprof_1pass_GPUTime gpaprof_1pass_nocache_Time gpaprof_own_Time \
                gpaprof_own_GPUTime gpaprof_own_nocache_Time gpaprof_immediate_Time gpaprof_cupti_Time gpaprof_trace_activity; do
    value=${ms[$source]:-}
    [ -n "$value" ] || { printf '%-14s %-34s %10s\n' "$kernel" "$source" "failed"; continue; }
    printf '%-14s %-34s %10s %8s\n' "$kernel" "$source" "$value" "$(ratio "$value" "${ms[ncu]:-$value}")"
  done
  unset ms
done
