#!/usr/bin/env bash
# gpaprof on programs that use two GPUs (issue 12), on a machine of two GPUs or more (device kind nvidia-h100-x2):
#   1. the GPU end-to-end test of one process driving both GPUs (cuda_multi_gpu_test.cpp: threads, one thread,
#      peer copies, kernels that wait for the other device; -t, -p, several passes, CUPTI's replay, -t -p -O);
#   2. NCCL all-reduce (tests/tools/gpaprof/cuda_apps/nccl_allreduce.py): one process driving both GPUs from one
#      thread (CuPy's NCCL) and torchrun with one process per GPU, in every mode; checks that each run ends with the
#      right sum, that every NCCL kernel has its row and kernel line on its device, and says which rows are measured;
#   3. the same counters through ncu on the two-thread program, per device (nccl single-process too: ncu's kernel
#      replay holds the launching thread, the run is given 40 s).
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0 and the rest): the machine's GPUs are shared.
#
# Writes $OUT/multi_gpu.txt (everything, FIGURE lines) and $OUT/multi_gpu_files.tgz (the files of every run).
# Exit status 0 when every check passed. Usage: tools/device/gpu_gpaprof_multi_gpu.sh [build-dir]
# (built already: gpaprof, gpaprof_cuda_injection, gpaprof_cuda_end_to_end_tests).
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
build=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-multi-gpu-out}
mkdir -p "$OUT"
report=$OUT/multi_gpu.txt
: > "$report"
gpaprof=$PWD/$build/bin/gpaprof
script=$PWD/tests/tools/gpaprof/cuda_apps/nccl_allreduce.py
app=$PWD/$build/tests/tools/gpaprof/cuda_apps/multi_gpu
passes="smsp__warps_launched.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,VALUInsts,FlatVMemInsts"
work=$(mktemp -d /tmp/gpaprof-multi-gpu-XXXXXX)
status=0
say() { echo "$*" | tee -a "$report"; }
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv >> "$report" 2>&1
nvidia-smi topo -m 2>/dev/null | head -3 >> "$report"

# 1. The end-to-end test of one process driving both GPUs.
s=$SECONDS
timeout 400 "$build/tests/tools/gpaprof/cuda/gpaprof_cuda_end_to_end_tests" --gtest_filter='*TwoGpus*' > "$work/e2e.log" 2>&1
rc=$?
grep -E "^FIGURE|^\[  (FAILED|PASSED|SKIPPED) |Failure|Expected|Which is|value of" "$work/e2e.log" | head -60 >> "$report"
say "e2e_two_gpus rc=$rc ($((SECONDS - s)) s)"
[ $rc -eq 0 ] || status=1

# 2. NCCL. count FILE: rows (or kernel lines) per device, NCCL's apart, and how many of them have counters.
summarize() {  # summarize NAME: one FIGURE line from the run's files
  python3 - "$work" "$1" <<'EOF'
import glob, os, re, sys
work, name = sys.argv[1], sys.argv[2]
out = []
for csv in sorted(glob.glob(os.path.join(work, name + "*.csv"))):
    lines = [l.rstrip("\n") for l in open(csv) if l.strip()]
    devices = sorted({l.split("=")[0][len("#Device "):-len(" Platform Vendor")] for l in lines if l.startswith("#Device ") and " Platform Vendor=" in l}, key=len, reverse=True)
    rows = [l.split(", ") for l in lines if not l.startswith("#")]
    if not rows:
        continue
    header, rows = rows[0], rows[1:]
    first = header.index("KernelOccupancy") + 1 if "KernelOccupancy" in header else 11
    stats = {}
    for r in rows:
        method = r[0]
        device = method.rsplit("__k", 1)[1].split("_", 1)[1]
        index = next((device[len(d):] for d in devices if device.startswith(d) and device[len(d):].isdigit()), "?")
        kind = "nccl" if "nccl" in method.lower() else "other"
        measured = any(v.strip() not in ("NA", "") for v in r[first:])
        key = (kind, index)
        total, meas = stats.get(key, (0, 0))
        stats[key] = (total + 1, meas + measured)
    out.append(os.path.basename(csv) + ": " + " ".join(f"{k}@dev{i}={t}(measured {m})" for (k, i), (t, m) in sorted(stats.items())))
for atp in sorted(glob.glob(os.path.join(work, name + "*.atp"))):
    text = open(atp).read()
    section = text.split("=====cuda Kernel Timestamp Output=====")
    stats = {}
    if len(section) > 1:
        for line in section[1].splitlines()[2:]:
            if line.startswith("====="):
                break
            fields = line.split()
            if len(fields) < 8:
                continue
            kind = "nccl" if "nccl" in fields[0].lower() else "other"
            stats[(kind, fields[7])] = stats.get((kind, fields[7]), 0) + 1
    out.append(os.path.basename(atp) + ": " + " ".join(f"{k}@dev{i}={n}" for (k, i), n in sorted(stats.items())))
print("FIGURE nccl " + name + " | " + " | ".join(out))
EOF
}
run() {  # run NAME LIMIT [ENV=...] -- command...: a profiled run with a time limit; the result must be right
  local name=$1 limit=$2
  shift 2
  local s=$SECONDS
  (cd "$work" && timeout -k 5 "$limit" env "$@" > "$work/$name.out" 2>&1)
  local rc=$?
  pkill -9 -f nccl_allreduce 2>/dev/null
  local result
  result=$(grep -E "sum correct|results correct" "$work/$name.out" | head -1)
  say "RUN $name rc=$rc $((SECONDS - s)) s: ${result:-NO RESULT} | $(grep -E "not profiled|NA:" "$work/$name.out" | head -2 | cut -c1-160 | tr '\n' ' ')"
  if [ $rc -ne 0 ] || [ -z "$result" ]; then status=1; tail -5 "$work/$name.out" >> "$report"; fi
  summarize "$name" | tee -a "$report"
}
G="$gpaprof --no-progress"
run single_trace 90 X=1 $G -t -o "$work/single_trace" -- python3 "$script" --single-process --steps 3
run single_counters 90 X=1 $G -p -o "$work/single_counters" -- python3 "$script" --single-process --steps 3
run single_passes 90 X=1 $G -p --counters "$passes" -o "$work/single_passes" -- python3 "$script" --single-process --steps 3
run single_passes_cupti 90 GPAPROF_CUDA_REPLAY=cupti $G -p --counters "$passes" -o "$work/single_passes_cupti" -- python3 "$script" --single-process --steps 3
run single_all 90 X=1 $G -t -p -O --counters "$passes" -o "$work/single_all" -- python3 "$script" --single-process --steps 3
torchrun="python3 -m torch.distributed.run --standalone --nproc_per_node 2 $script --steps 3"
run torchrun_all 120 X=1 $G -t -p -O -o "$work/torchrun_all_%q{RANK}" -- $torchrun
# Three times: replays that put NCCL's buffers back hung this in 2 of 3 runs (2026-11-28, before the fix).
for again in "" _2 _3; do
  run torchrun_passes$again 120 X=1 $G -p --counters "$passes" -o "$work/torchrun_passes${again}_%q{RANK}" -- $torchrun
done
run torchrun_passes_cupti 120 GPAPROF_CUDA_REPLAY=cupti $G -p --counters "$passes" -o "$work/torchrun_passes_cupti_%q{RANK}" -- $torchrun

# 3. ncu on the same programs, the same metrics, per device.
if command -v ncu > /dev/null; then
  ncu_metrics="smsp__warps_launched.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum"
  (cd "$work" && timeout 120 ncu --clock-control none --metrics "$ncu_metrics" --csv "$app" --way threads --launches 2 > ncu_threads.csv 2> ncu_threads.err)
  say "ncu threads rc=$?"
  (cd "$work" && timeout 120 $G -p --counters "$ncu_metrics" -o "$work/gpaprof_threads" -- "$app" --way threads --launches 2 > gpaprof_threads.out 2>&1)
  python3 - "$work" <<'EOF' | tee -a "$report"
import csv, os, sys
work = sys.argv[1]
ncu = {}
for row in csv.DictReader(l for l in open(os.path.join(work, "ncu_threads.csv")) if l.startswith('"')):
    ncu.setdefault((row["Device"] if "Device" in row else "?", row["Metric Name"]), []).append(row["Metric Value"].replace(",", ""))
mine = {}
lines = [l.rstrip("\n") for l in open(os.path.join(work, "gpaprof_threads.csv")) if l.strip() and not l.startswith("#")]
header = lines[0].split(", ")
for l in lines[1:]:
    f = l.split(", ")
    device = str(int(f[0][-1]) - 1)
    for name in header[header.index("KernelOccupancy") + 1:]:
        mine.setdefault((device, name), []).append(f[header.index(name)].strip())
for key in sorted(set(ncu) | set(mine)):
    print("FIGURE ncu_vs_gpaprof device=%s metric=%s ncu=%s gpaprof=%s" % (key[0], key[1], sorted(ncu.get(key, [])), sorted(mine.get(key, []))))
EOF
  (cd "$work" && timeout 40 ncu --clock-control none --metrics smsp__warps_launched.sum python3 "$script" --single-process --steps 1 > ncu_single.out 2>&1)
  say "ncu on the single-process NCCL program: rc=$? (124: hung, given up after 40 s); $(grep -c "ncclDevKernel" "$work/ncu_single.out") NCCL kernel results"
  pkill -9 -f nccl_allreduce 2>/dev/null
fi
tar czf "$OUT/multi_gpu_files.tgz" -C "$work" . 2>/dev/null
say "multi_gpu status=$status"
rm -rf "$work"
exit $status
