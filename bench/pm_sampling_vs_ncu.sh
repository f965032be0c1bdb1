#!/usr/bin/env bash
# PM sampling against ncu, and what sampling costs (issue 35). The check of the issue: for kernels longer than 1 ms,
# the mean of the sampled DRAM bandwidth inside the kernel's window within 5% of ncu's dram__bytes.sum.per_second
# (--clock-control none). The program: tests/tools/gpaprof/cuda_apps/known_dram_writes, KERNELS kernels `WriteAll`
# that each write GIB GiB REPEATS times over (40 GiB: about 10 ms on an H200), GAP_MS apart.
#
# - `gpaprof -t --pm-sampling=INTERVAL` gives the kernels' windows (the .atp's kernel lines, CUPTI's activity
#   records) and the samples (<out>.pmsampling.csv), both on CLOCK_MONOTONIC (docs/profiler_files.md).
#   For each WriteAll kernel longer than 1 ms, in order, the sampled bandwidth is
#     sum over the kernel's device's samples of (dram__bytes_read.sum + dram__bytes_write.sum) x the share of the
#     sample inside the window, divided by the window's duration.
#   The same sum of dram__bytes_write.sum alone gives the sampled write bytes inside the window.
# - `ncu --clock-control none --metrics dram__bytes.sum.per_second,dram__bytes_write.sum,gpu__time_duration.sum`
#   on the same program: the i-th WriteAll result is the i-th WriteAll kernel's reference.
# - Per kernel: the window (ms), ncu's duration (ms), the samples touching the window, the share of the window
#   they cover, sampled GB/s, ncu GB/s, their ratio and the verdict, "within 5%" or "DIFFER"; then the write bytes
#   inside the window against ncu's dram__bytes_write.sum and against the bytes the kernel is known to write.
# - A kernel is "not comparable", with the reason, never silently, when: a sample flagged dropped-before touches its
#   window, or the hole before such a sample falls in it (samples are missing there); a sample in it has NA bytes
#   or is flagged replay; the samples cover less than 95% of it; the .atp has no times for it; ncu has no result.
# - Cost: median wall seconds over RUNS interleaved rounds of the program alone, `gpaprof -t`, `gpaprof -t
#   --pm-sampling` and the peer, `nsys profile --trace=cuda --gpu-metrics-devices=0` at the same rate (GPU metrics
#   every INTERVAL, CPU sampling and context switches off, as gpaprof takes neither; only its wall time counts, its
#   report may fail on these machines); ratios to the program alone and to gpaprof -t, and gpaprof -t
#   --pm-sampling / nsys. ncu's wall time is shown too (it replays kernels: not a cost peer).
# Exit status 1 when a kernel's bandwidth DIFFERs, when no kernel could be compared, or when a run of the program
# or of gpaprof failed.
#
# Usage: bench/pm_sampling_vs_ncu.sh [build-dir]
#   BUILD (build dir, default build-gpu; or the first argument), INTERVAL (100us: gpaprof's spelling, ns/us/ms or bare
#   ns), KERNELS (5), GIB (1), REPEATS (40), GAP_MS (20), RUNS (3: rounds for the wall times), TIMEOUT (300 s per
#   command), NCU (path of ncu; found on the PATH or under /opt/nvidia otherwise), NSYS (path of nsys; likewise;
#   NSYS= leaves the peer out)
BENCH_KEEPS_FILES=1  # it prints "files in $BENCH_TMP"
source "$(dirname "$0")/common.sh" "$@"
INTERVAL=${INTERVAL:-100us}
KERNELS=${KERNELS:-5}
GIB=${GIB:-1}
REPEATS=${REPEATS:-40}
GAP_MS=${GAP_MS:-20}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-300}
if [ -z "${NCU+set}" ]; then
  NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -1)
fi
if [ -z "${NSYS+set}" ]; then
  NSYS=$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys \
    2> /dev/null | head -1)
fi
APP=$BUILD/tests/tools/gpaprof/cuda_apps/known_dram_writes
app=("$APP" --kernels "$KERNELS" --gib "$GIB" --repeats "$REPEATS" --gap-ms "$GAP_MS")
[ -x "$APP" ] || { echo "no $APP (build the target gpaprof_cuda_app_known_dram_writes)"; exit 1; }
[ -x "$GPAPROF" ] || { echo "no $GPAPROF (build the targets gpaprof gpaprof_cuda_injection)"; exit 1; }

# The interval in ns (gpaprof's spelling: 100us, 0.5ms, 20000ns, or bare ns), and nsys's rate for it (10-200000 Hz).
interval_ns=$(awk -v s="$INTERVAL" 'BEGIN {
  f = 1; if (s ~ /ns$/) sub(/ns$/, "", s); else if (s ~ /us$/) { sub(/us$/, "", s); f = 1e3 } else if (s ~ /ms$/) { sub(/ms$/, "", s); f = 1e6 }
  if (s !~ /^[0-9]*\.?[0-9]+$/) { print "bad"; exit } printf "%.0f", s * f }')
if [ "$interval_ns" = bad ] || [ "$interval_ns" -le 0 ]; then
  echo "INTERVAL=$INTERVAL: not an interval (100us, 0.5ms, 20000ns)"; exit 1
fi
nsys_hz=$(awk -v n="$interval_ns" 'BEGIN {h = 1e9 / n; if (h > 200000) h = 200000; if (h < 10) h = 10; printf "%.0f", h}')
known_bytes=$(awk -v g="$GIB" -v r="$REPEATS" 'BEGIN {printf "%.0f", g * 1073741824 * r}')

bench_header "PM sampling vs ncu: known_dram_writes, $KERNELS kernels of $GIB GiB x $REPEATS, every $INTERVAL, $RUNS rounds"

# The check, from the files: COMPARE ATP PMSAMPLING_CSV NCU_RAW_CSV KNOWN_BYTES. Prints the tables, exits 1 when a
# kernel DIFFERs or none could be compared.
compare() {
  python3 - "$@" <<'PY'
import csv, sys

atp_path, pm_path, ncu_path, known = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
MIN_NS, TOLERANCE, MIN_COVER = 1000000, 0.05, 0.95
READ, WRITE = "dram__bytes_read.sum", "dram__bytes_write.sum"

def number(text):
    """A float from a cell, None for NA, n/a, empty or anything else that is not a number."""
    text = (text or "").strip().replace(",", "")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value else None  # NaN: not known

# The WriteAll kernels of the .atp's CUDA kernel section, in order (it is sorted by start):
# <name> <handle> <start> <end> <device name> <device handle> <queue> <device index> ... (docs/profiler_files.md).
def atp_kernels(path):
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError as error:
        return None, "cannot read the .atp: %s" % error
    marker = "=====cuda Kernel Timestamp Output====="
    if marker not in lines:
        return None, "the .atp has no CUDA kernel section"
    at = lines.index(marker)
    try:
        count = int(lines[at + 1].split()[0])
    except (IndexError, ValueError):
        return None, "the .atp's CUDA kernel section has no count"
    kernels = []
    for line in lines[at + 2: at + 2 + count]:
        f = line.split()
        if not f or "WriteAll" not in f[0]:
            continue
        start = int(f[2]) if len(f) > 2 and f[2].isdigit() else 0
        end = int(f[3]) if len(f) > 3 and f[3].isdigit() else 0
        device = int(f[7]) if len(f) > 7 and f[7].isdigit() else None
        kernels.append({"start": start, "end": end, "device": device})
    return kernels, None

# The samples: header lines "# Key=Value", the column row, then rows joined by the one separator.
def pm_samples(path):
    header, left_out, columns, rows, unread = {}, [], None, [], 0
    sep = ","
    try:
        handle = open(path, errors="replace")
    except OSError as error:
        return None, "cannot read the .pmsampling.csv: %s" % error
    for line in handle:
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        if line.startswith("#"):
            key, _, value = line[1:].lstrip().partition("=")
            if key == "ListSeparator" and value:
                sep = value[0]
            elif key == "LeftOut":
                left_out.append(value)
            else:
                header[key] = value
            continue
        cells = line.split(sep)
        if columns is None:
            columns = [c.strip() for c in cells]
            continue
        rows.append(cells)
    if columns is None:
        return None, "the .pmsampling.csv has no column row"
    need = ["Device", "StartNs", "EndNs", "Flags", READ, WRITE]
    missing = [c for c in need if c not in columns]
    if missing:
        why = "; ".join(l for l in left_out if l.split(":")[0].strip() in missing)
        return None, "the .pmsampling.csv lacks %s%s" % (", ".join(missing), " (" + why + ")" if why else "")
    at = {c: columns.index(c) for c in need}
    samples = []
    for cells in rows:
        try:
            sample = {"device": int(cells[at["Device"]]), "start": int(cells[at["StartNs"]]),
                      "end": int(cells[at["EndNs"]]),
                      "flags": set(cells[at["Flags"]].strip().split("|")) - {""},
                      "read": number(cells[at[READ]]), "write": number(cells[at[WRITE]])}
        except (IndexError, ValueError):
            unread += 1
            continue
        if sample["end"] < sample["start"]:
            unread += 1
            continue
        samples.append(sample)
    # The hole before a dropped-before sample: from the end of its device's previous sample (the beginning of time
    # for the device's first one) to its start.
    samples.sort(key=lambda s: (s["device"], s["start"]))
    previous = {}
    for s in samples:
        s["hole_from"] = previous.get(s["device"], -1)
        previous[s["device"]] = s["end"]
    return {"header": header, "left_out": left_out, "samples": samples, "unread": unread}, None

# ncu's raw page (--csv --page raw --print-units base): the header row, a units row, one row per result.
def ncu_results(path):
    try:
        rows = [r for r in csv.reader(open(path, errors="replace")) if r]
    except OSError as error:
        return [], {}, "cannot read ncu's export: %s" % error
    rows = [r for r in rows if not r[0].startswith("==")]  # ncu's own messages, where they reached the file
    if not rows:
        return [], {}, "ncu's export is empty"
    header = [c.strip() for c in rows[0]]
    if "Kernel Name" not in header:
        return [], {}, "ncu's export has no Kernel Name column"
    name = header.index("Kernel Name")
    ident = header.index("ID") if "ID" in header else None
    data = [r for r in rows[1:] if ident is None or number(r[ident] if ident < len(r) else "") is not None]
    units_row = rows[1] if len(rows) > 1 and ident is not None and ident < len(rows[1]) \
        and number(rows[1][ident]) is None else []
    wanted = {"bandwidth": "dram__bytes.sum.per_second", "write": "dram__bytes_write.sum",
              "ns": "gpu__time_duration.sum"}
    # Factors into bytes/second, bytes and ns, should the units not be the base ones asked for.
    prefixes = {"": 1, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
    times = {"second": 1, "msecond": 1e-3, "usecond": 1e-6, "nsecond": 1e-9}
    def factor(kind, unit):
        unit = unit.strip()
        if not unit:
            return 1.0, None
        if kind == "ns":
            return (times[unit] * 1e9, None) if unit in times else (1.0, unit)
        top, _, bottom = unit.partition("/")
        if not top.endswith("byte") or top[:-4] not in prefixes or (kind == "bandwidth") != bool(bottom) \
                or (bottom and bottom not in times):
            return 1.0, unit
        return prefixes[top[:-4]] / (times[bottom] if bottom else 1), None
    columns, notes = {}, []
    for key, metric in wanted.items():
        if metric not in header:
            notes.append("ncu's export has no %s column" % metric)
            continue
        col = header.index(metric)
        scale, odd = factor(key, units_row[col] if col < len(units_row) else "")
        if odd:
            notes.append("%s in %r: read as the base unit" % (metric, odd))
        columns[key] = (col, scale)
    results = []
    for r in data:
        if name >= len(r) or "WriteAll" not in r[name]:
            continue
        result = {}
        for key, (col, scale) in columns.items():
            value = number(r[col]) if col < len(r) else None
            result[key] = value * scale if value is not None else None
        results.append(result)
    return results, columns, "; ".join(notes) or None

kernels, problem = atp_kernels(atp_path)
if problem:
    print("check: not made: " + problem)
    sys.exit(1)
pm, problem = pm_samples(pm_path)
if problem:
    print("check: not made: " + problem)
    sys.exit(1)
ncu, _, ncu_note = ncu_results(ncu_path)
samples = pm["samples"]
flagged_all = sum(1 for s in samples if "dropped-before" in s["flags"])
print("samples: %d (IntervalNs=%s, %s), %d flagged dropped-before in the file%s%s" % (
    len(samples), pm["header"].get("IntervalNs", "?"),
    ", ".join("%s=%s" % (k, v) for k, v in sorted(pm["header"].items()) if k.startswith("Device")) or "no device line",
    flagged_all, ", %d rows not read" % pm["unread"] if pm["unread"] else "",
    "".join("\nleft out: " + l for l in pm["left_out"])))
print("kernels: %d WriteAll in the .atp, %d WriteAll results of ncu%s" % (
    len(kernels), len(ncu), " (" + ncu_note + ")" if ncu_note else ""))
if ncu and len(ncu) != len(kernels):
    print("         the counts differ: the i-th of each is still paired, the kernels without a pair are not comparable")

def fmt(value, form):
    return form % value if value is not None else "NA"

def get(result, key):
    return result.get(key) if result else None

def div(a, b):
    return a / b if a is not None and b else None

print("%-7s %9s %9s %7s %6s %12s %12s %7s  %s" % (
    "kernel", "window_ms", "ncu_ms", "samples", "cover", "sampled_GB/s", "ncu_GB/s", "ratio", "verdict"))
byte_lines, counts = [], {"long": 0, "within": 0, "differ": 0, "not": 0, "untimed": 0}
for i, k in enumerate(kernels):
    duration = k["end"] - k["start"]
    ref = ncu[i] if i < len(ncu) else None
    label = "#%d" % (i + 1)
    if duration <= 0:
        counts["untimed"] += 1
        print("%-7s %9s %9s %7s %6s %12s %12s %7s  not comparable: the .atp has no times for it (a -p run?)" % (
            label, "NA", fmt(div(get(ref, "ns"), 1e6), "%.3f"), "-", "-", "-", "-", "-"))
        continue
    if duration <= MIN_NS:
        print("%-7s %9.3f %9s %7s %6s %12s %12s %7s  not in the check (not longer than 1 ms)" % (
            label, duration / 1e6, fmt(div(get(ref, "ns"), 1e6), "%.3f"), "-", "-", "-", "-", "-"))
        continue
    counts["long"] += 1
    total = written = covered = 0.0
    touching = na = replayed = 0
    dropped = []
    for s in samples:
        if k["device"] is not None and s["device"] != k["device"]:
            continue
        lo, hi = max(s["start"], k["start"]), min(s["end"], k["end"])
        overlaps = hi > lo
        hole_inside = "dropped-before" in s["flags"] and s["start"] > k["start"] and s["hole_from"] < k["end"]
        if "dropped-before" in s["flags"] and (overlaps or hole_inside):
            dropped.append(s)
        if not overlaps or s["end"] == s["start"]:
            continue
        touching += 1
        share = (hi - lo) / (s["end"] - s["start"])
        covered += hi - lo
        if "replay" in s["flags"]:
            replayed += 1
        if s["write"] is not None:
            written += s["write"] * share
        if s["read"] is None or s["write"] is None:
            na += 1
            continue
        total += (s["read"] + s["write"]) * share
    sampled = total / (duration / 1e9)
    cover = covered / duration
    reasons = []
    if dropped:
        reasons.append("%d sample(s) flagged dropped-before (samples missing before each) touch it or have their "
                       "hole in it (starting %s ns from the kernel's start)" % (
                           len(dropped), ",".join(str(s["start"] - k["start"]) for s in dropped[:4])))
    if na:
        reasons.append("%d sample(s) in it with NA bytes" % na)
    if replayed:
        reasons.append("%d sample(s) in it flagged replay (a profiler's replays)" % replayed)
    if cover < MIN_COVER:
        reasons.append("the samples cover %.1f%% of it" % (100 * cover))
    if ref is None:
        reasons.append("ncu has no WriteAll result #%d" % (i + 1))
    elif get(ref, "bandwidth") is None or ref["bandwidth"] <= 0:
        reasons.append("ncu's dram__bytes.sum.per_second is NA for it")
    bandwidth = get(ref, "bandwidth")
    ratio = div(sampled, bandwidth)
    if reasons:
        verdict = "not comparable: " + "; ".join(reasons)
        counts["not"] += 1
    elif abs(ratio - 1) <= TOLERANCE:
        verdict = "within 5%"
        counts["within"] += 1
    else:
        verdict = "DIFFER"
        counts["differ"] += 1
    print("%-7s %9.3f %9s %7d %5.1f%% %12.2f %12s %7s  %s" % (
        label, duration / 1e6, fmt(div(get(ref, "ns"), 1e6), "%.3f"), touching, 100 * cover,
        sampled / 1e9, fmt(div(bandwidth, 1e9), "%.2f"), fmt(ratio, "%.4f"), verdict))
    ncu_write = get(ref, "write")
    byte_lines.append("%-7s %14.4f %14s %9s %14.4f %9s" % (
        label, written / 1e9, fmt(div(ncu_write, 1e9), "%.4f"), fmt(div(written, ncu_write), "%.4f"), known / 1e9,
        fmt(div(written, known), "%.4f")))

print("write bytes inside the window (GB = 1e9 bytes) against ncu's dram__bytes_write.sum and the known bytes:")
print("%-7s %14s %14s %9s %14s %9s" % ("kernel", "sampled_GB", "ncu_GB", "vs_ncu", "known_GB", "vs_known"))
for line in byte_lines:
    print(line)
print("check: %d WriteAll kernels longer than 1 ms: %d within 5%%, %d DIFFER, %d not comparable%s" % (
    counts["long"], counts["within"], counts["differ"], counts["not"],
    "; %d without times in the .atp, not comparable" % counts["untimed"] if counts["untimed"] else ""))
if counts["differ"] or not counts["within"]:
    if not counts["within"] and not counts["differ"]:
        print("check: FAILED: no kernel could be compared")
    else:
        print("check: FAILED")
    sys.exit(1)
print("check: passed" + (" for the kernels compared" if counts["not"] or counts["untimed"] else ""))
PY
}

status=0
ok() { grep -q '^known_dram_writes: ' "$1" && echo ok || echo FAILED; }
line() {  # line RUN WALL_S VS_ALONE VS_TRACE PROGRAM
  printf '%-58s %8s %9s %9s  %s\n' "$@"
}

# Wall times: RUNS interleaved rounds (a machine's drift falls on every contender alike); the last round's gpaprof
# files are the ones checked.
declare -A walls=() fails=()
nsys_ended=
contenders=(alone trace pm)
[ -n "$NSYS" ] && contenders+=(nsys)
for round in $(seq 1 "$RUNS"); do
  for name in "${contenders[@]}"; do
    case $name in
      alone) wall timeout "$TIMEOUT" "${app[@]}" ;;
      trace) wall timeout "$TIMEOUT" "$GPAPROF" -t --no-progress -o "$BENCH_TMP/trace" -- "${app[@]}" ;;
      pm)
        rm -f "$BENCH_TMP"/pm.*
        wall timeout "$TIMEOUT" "$GPAPROF" -t "--pm-sampling=$INTERVAL" --no-progress -o "$BENCH_TMP/pm" -- "${app[@]}" ;;
      nsys)
        rm -f "$BENCH_TMP"/nsys.*
        wall timeout "$TIMEOUT" "$NSYS" profile --trace=cuda --sample=none --cpuctxsw=none --gpu-metrics-devices=0 \
          "--gpu-metrics-frequency=$nsys_hz" -o "$BENCH_TMP/nsys" -f true -- "${app[@]}" ;;
    esac
    rc=$?
    cp "$BENCH_TMP/last.out" "$BENCH_TMP/${name}_$round.log"
    walls[$name]="${walls[$name]:-} $WALL"
    if [ "$name" = nsys ] && [ $rc -ne 0 ]; then
      nsys_ended+="round $round rc=$rc; "  # only its wall time counts: its report may fail after the program ran
    fi
    if { [ $rc -ne 0 ] && [ "$name" != nsys ]; } || [ "$(ok "$BENCH_TMP/${name}_$round.log")" != ok ]; then
      fails[$name]="${fails[$name]:-}round $round rc=$rc; "
    fi
  done
done
declare -A med=()
for name in "${contenders[@]}"; do
  # shellcheck disable=SC2086
  med[$name]=$(median ${walls[$name]})
done

echo "-- cost: median wall seconds of $RUNS rounds"
line run wall_s vs_alone vs_gp_t program
declare -A names=([alone]="program alone" [trace]="gpaprof -t" [pm]="gpaprof -t --pm-sampling=$INTERVAL"
       [nsys]="nsys --trace=cuda --gpu-metrics-devices=0 ($nsys_hz Hz)")
for name in "${contenders[@]}"; do
  vs_trace=-
  [ "$name" = alone ] || vs_trace=$(ratio "${med[$name]}" "${med[trace]}")
  line "${names[$name]}" "${med[$name]}" "$(ratio "${med[$name]}" "${med[alone]}")" "$vs_trace" \
    "$([ -z "${fails[$name]:-}" ] && echo ok || echo "FAILED: ${fails[$name]}")"
done
[ -n "$NSYS" ] || echo "   nsys not found (PATH, /opt/nvidia/nsight-systems, /opt/nvidia/nsight-compute/*/host): no peer"
if [ -n "$NSYS" ]; then
  echo "   gpaprof -t --pm-sampling / nsys: $(ratio "${med[pm]}" "${med[nsys]}")"
  if [ -n "$nsys_ended" ]; then
    # Only its wall time counts; say how it ended.
    echo "   nsys failed (${nsys_ended%; }); its wall time is still shown:"
    grep -hiE "error|fail" "$BENCH_TMP/nsys_${RUNS}.log" | head -3 | cut -c1-200 | sed 's/^/   nsys: /'
  fi
fi
[ -z "${fails[alone]:-}" ] || { echo "   the program alone failed:"; tail -5 "$BENCH_TMP/alone_$RUNS.log"; status=1; }
[ -z "${fails[trace]:-}" ] || status=1
[ -z "${fails[pm]:-}" ] || { tail -5 "$BENCH_TMP/pm_$RUNS.log"; status=1; }
# What gpaprof said about the samples (devices not sampled, decoding behind, overwritten samples).
grep -h '^gpaprof: .*pm-sampling' "$BENCH_TMP/pm_$RUNS.log" | head -4 | cut -c1-220 | sed 's/^/   /'

# ncu: once (it replays every kernel for its metrics; its wall time is shown, not a cost peer).
echo "-- ncu --clock-control none (the reference)"
ncu_csv=$BENCH_TMP/ncu.csv
: > "$ncu_csv"
if [ -n "$NCU" ]; then
  rm -f "$BENCH_TMP/ncu.ncu-rep"
  wall timeout "$TIMEOUT" "$NCU" --clock-control none \
    --metrics dram__bytes.sum.per_second,dram__bytes_write.sum,gpu__time_duration.sum -f -o "$BENCH_TMP/ncu" "${app[@]}"
  rc=$?
  cp "$BENCH_TMP/last.out" "$BENCH_TMP/ncu.log"
  line ncu "$WALL" "$(ratio "$WALL" "${med[alone]}")" - "$([ $rc -eq 0 ] && ok "$BENCH_TMP/ncu.log" || echo "FAILED: rc=$rc")"
  if [ -f "$BENCH_TMP/ncu.ncu-rep" ]; then
    "$NCU" --import "$BENCH_TMP/ncu.ncu-rep" --csv --page raw --print-units base > "$ncu_csv" 2> "$BENCH_TMP/ncu_import.log"
    [ -s "$ncu_csv" ] || head -3 "$BENCH_TMP/ncu_import.log" | sed 's/^/   ncu --import: /'
  else
    grep -h "==ERROR==" "$BENCH_TMP/ncu.log" | head -3 | sed 's/^/   /'
    [ $rc -eq 124 ] && echo "   (stopped after TIMEOUT=$TIMEOUT s)"
  fi
else
  echo "   ncu not found (PATH, /opt/nvidia/nsight-compute; set NCU): no reference, no kernel is comparable"
fi

echo "-- sampled DRAM bandwidth inside each WriteAll kernel's window against ncu's dram__bytes.sum.per_second"
compare "$BENCH_TMP/pm.atp" "$BENCH_TMP/pm.pmsampling.csv" "$ncu_csv" "$known_bytes" || status=1
echo "files in $BENCH_TMP"
exit $status
