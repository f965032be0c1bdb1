#!/usr/bin/env python3
"""A sampled metric's mean inside each kernel's window against ncu's per-kernel value (issue 35's SM throughput
check; bench/pm_sm_throughput_vs_ncu.sh runs it).

    pm_window_means.py ATP PMSAMPLING_CSV NCU_RAW_CSV SAMPLED_METRICS NCU_METRIC KERNEL_REGEX [TOLERANCE]

SAMPLED_METRICS: one metric, or several joined by commas whose window means' largest is compared (ncu's
sm__throughput is the largest of its breakdown's parts, each averaged over the kernel).

- The kernels: the .atp's CUDA kernel lines whose name matches KERNEL_REGEX, longer than 1 ms, in order
  (docs/profiler_files.md); the i-th is paired with ncu's i-th result of a kernel matching KERNEL_REGEX.
- The sampled value of a window: the mean of SAMPLED_METRIC over the kernel's device's samples that lie wholly
  inside the window, weighted by their durations. Samples astride an edge are left out: a percentage of elapsed
  cycles in such a sample mixes the kernel with what ran before or after it. The mean over every sample touching the
  window, weighted by the overlap, is printed beside it for information.
- A kernel is "not comparable", with the reason, when fewer than 3 samples lie inside it (or fewer than 3 known
  values of a metric: NA readings are left out of their metric's mean, and counted), a sample touching it is flagged
  (dropped-before, replay), or ncu has no value; never silently.
Exit status 1 when a kernel DIFFERs by more than TOLERANCE (default 0.05) or none could be compared.
"""
import csv
import re
import sys

MIN_NS = 1000000
MIN_INSIDE = 3


def number(text):
    text = (text or "").strip().replace(",", "")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value else None


def atp_kernels(path, pattern):
    lines = open(path, errors="replace").read().splitlines()
    marker = "=====cuda Kernel Timestamp Output====="
    if marker not in lines:
        raise SystemExit("check: not made: the .atp has no CUDA kernel section")
    at = lines.index(marker)
    count = int(lines[at + 1].split()[0])
    kernels = []
    for line in lines[at + 2: at + 2 + count]:
        f = line.split()
        if not f or not pattern.search(f[0]):
            continue
        start = int(f[2]) if len(f) > 2 and f[2].isdigit() else 0
        end = int(f[3]) if len(f) > 3 and f[3].isdigit() else 0
        device = int(f[7]) if len(f) > 7 and f[7].isdigit() else None
        kernels.append({"name": f[0], "start": start, "end": end, "device": device})
    return kernels


def pm_samples(path, metrics):
    sep, columns, samples, left_out = ",", None, [], []
    for line in open(path, errors="replace"):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        if line.startswith("#"):
            key, _, value = line[1:].lstrip().partition("=")
            if key == "ListSeparator" and value:
                sep = value[0]
            elif key == "LeftOut":
                left_out.append(value)
            continue
        cells = line.split(sep)
        if columns is None:
            columns = [c.strip() for c in cells]
            for metric in metrics:
                if metric not in columns:
                    why = [l for l in left_out if l.startswith(metric + ":")]
                    raise SystemExit("check: not made: the .pmsampling.csv has no column %s%s" % (
                        metric, " (" + why[0] + ")" if why else ""))
            at = {c: columns.index(c) for c in ["Device", "StartNs", "EndNs", "Flags"] + metrics}
            continue
        samples.append({"device": int(cells[at["Device"]]), "start": int(cells[at["StartNs"]]),
                        "end": int(cells[at["EndNs"]]),
                        "flags": set(cells[at["Flags"]].strip().split("|")) - {""},
                        "values": [number(cells[at[m]]) for m in metrics]})
    if columns is None:
        raise SystemExit("check: not made: the .pmsampling.csv has no column row")
    return samples


def ncu_values(path, metric, pattern):
    rows = [r for r in csv.reader(open(path, errors="replace")) if r and not r[0].startswith("==")]
    if not rows:
        return [], "ncu's export is empty"
    header = [c.strip() for c in rows[0]]
    if "Kernel Name" not in header or metric not in header:
        return [], "ncu's export lacks %s" % ("Kernel Name" if "Kernel Name" not in header else metric)
    name, col = header.index("Kernel Name"), header.index(metric)
    ident = header.index("ID") if "ID" in header else None
    values = []
    for r in rows[1:]:
        if ident is not None and number(r[ident] if ident < len(r) else "") is None:
            continue  # the units row
        if name < len(r) and pattern.search(r[name]):
            values.append(number(r[col]) if col < len(r) else None)
    return values, None


def main(argv):
    if len(argv) not in (7, 8):
        raise SystemExit(__doc__)
    atp, pm, ncu_path, sampled, ncu_metric, regex = argv[1:7]
    metrics = [m.strip() for m in sampled.split(",") if m.strip()]
    tolerance = float(argv[7]) if len(argv) == 8 else 0.05
    pattern = re.compile(regex)
    kernels = atp_kernels(atp, pattern)
    samples = pm_samples(pm, metrics)
    ncu, problem = ncu_values(ncu_path, ncu_metric, pattern)
    print("sampled %s against ncu's %s; %d kernels matching /%s/ in the .atp, %d in ncu's export%s" % (
        metrics[0] if len(metrics) == 1 else "max(" + ", ".join(metrics) + ")", ncu_metric, len(kernels), regex, len(ncu), " (" + problem + ")" if problem else ""))
    print("%-4s %-28s %9s %7s %10s %10s %10s %7s  %s" % (
        "#", "kernel", "window_ms", "inside", "sampled", "edges_in", "ncu", "ratio", "verdict"))
    counts = {"within": 0, "differ": 0, "not": 0}
    parts = []
    for i, k in enumerate(kernels):
        duration = k["end"] - k["start"]
        if duration <= MIN_NS:
            continue
        mine = [s for s in samples if k["device"] is None or s["device"] == k["device"]]
        inside = [s for s in mine if s["start"] >= k["start"] and s["end"] <= k["end"] and s["end"] > s["start"]]
        touching = [s for s in mine if min(s["end"], k["end"]) > max(s["start"], k["start"])]
        reasons = []
        if len(inside) < MIN_INSIDE:
            reasons.append("%d sample(s) wholly inside it" % len(inside))
        flagged = [s for s in touching if s["flags"] & {"dropped-before", "replay"}]
        if flagged:
            reasons.append("%d flagged sample(s) touch it" % len(flagged))
        # NA readings (gpaprof withholds impossible ones: docs/pm_sampling.md) are left out of their metric's mean.
        na = sum(1 for s in inside for v in s["values"] if v is None)
        if any(sum(1 for s in inside if s["values"][m] is not None) < MIN_INSIDE for m in range(len(metrics))):
            reasons.append("fewer than %d known values of a metric inside it" % MIN_INSIDE)
        ref = ncu[i] if i < len(ncu) else None
        if ref is None:
            reasons.append("ncu has no value for it")

        def window_mean(samples_in, weight_of, m):
            pairs = [(weight_of(s), s["values"][m]) for s in samples_in if s["values"][m] is not None]
            total = sum(w for w, _ in pairs)
            return sum(w * v for w, v in pairs) / total if total else None

        # Each part's duration-weighted mean over the samples wholly inside, then the largest part; beside it the
        # same over every sample touching the window, weighted by the overlap.
        means = [window_mean(inside, lambda s: s["end"] - s["start"], m) for m in range(len(metrics))]
        overlaps = [window_mean(touching, lambda s: min(s["end"], k["end"]) - max(s["start"], k["start"]), m)
                    for m in range(len(metrics))]
        value = max((v for v in means if v is not None), default=None)
        edges = max((v for v in overlaps if v is not None), default=None)
        if len(metrics) > 1 and value is not None:
            parts.append("%-4d %s" % (i + 1, "  ".join("%.3f" % v if v is not None else "NA" for v in means)))
        ratio = value / ref if value is not None and ref else None
        if reasons or ratio is None:
            verdict = "not comparable: " + ("; ".join(reasons) or "no value")
            counts["not"] += 1
        elif abs(ratio - 1) <= tolerance:
            verdict = "within %g%%" % (100 * tolerance)
            counts["within"] += 1
        else:
            verdict = "DIFFER"
            counts["differ"] += 1
        fmt = lambda v, f: f % v if v is not None else "NA"
        print("%-4d %-28s %9.3f %7d %10s %10s %10s %7s  %s%s" % (
            i + 1, k["name"][:28], duration / 1e6, len(inside), fmt(value, "%.3f"), fmt(edges, "%.3f"),
            fmt(ref, "%.3f"), fmt(ratio, "%.4f"), verdict, " (%d NA reading(s) inside left out)" % na if na else ""))
    if parts:
        print("each part's mean inside the window (the samples wholly inside), in order: " + ", ".join(metrics))
        for line in parts:
            print(line)
    compared = counts["within"] + counts["differ"]
    print("check: %d kernels longer than 1 ms: %d within %g%%, %d DIFFER, %d not comparable" % (
        compared + counts["not"], counts["within"], 100 * tolerance, counts["differ"], counts["not"]))
    if counts["differ"] or not compared:
        print("check: FAILED" + ("" if compared else ": no kernel could be compared"))
        return 1
    print("check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
