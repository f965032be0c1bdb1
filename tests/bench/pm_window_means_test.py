#!/usr/bin/env python3
"""bench/pm_window_means.py on a recorded gpaprof run (tests/tools/gpaprof/report/data/pm_phases.*: 8 kernels of about
5 ms, sampled every 100 us on an H200) against stand-in ncu exports written here: a kernel within the tolerance
passes, one outside it DIFFERs (exit 1), the largest of several metrics is compared, a missing column stops the check,
and too few samples inside a window make a kernel "not comparable".

    pm_window_means_test.py BENCH_SCRIPT DATA_DIR
"""
import os
import subprocess
import sys
import tempfile

SCRIPT, DATA = sys.argv[1], sys.argv[2]
ATP = os.path.join(DATA, "pm_phases.atp")
PM = os.path.join(DATA, "pm_phases.pmsampling.csv")
SM = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"
GR = "gr__cycles_active.avg.pct_of_peak_sustained_elapsed"
failures = []
SCRATCH = tempfile.TemporaryDirectory()  # the stand-in exports, removed at exit (they were left in /tmp)


def kernel_names():
    lines = open(ATP).read().splitlines()
    at = lines.index("=====cuda Kernel Timestamp Output=====")
    return [line.split()[0] for line in lines[at + 2: at + 2 + int(lines[at + 1].split()[0])]]


def ncu_export(values, metric=SM):
    handle, path = tempfile.mkstemp(suffix=".csv", dir=SCRATCH.name)
    with os.fdopen(handle, "w") as out:
        out.write('"ID","Kernel Name","%s"\n"","","%%"\n' % metric)
        for i, (name, value) in enumerate(zip(kernel_names(), values)):
            out.write('"%d","%s","%s"\n' % (i, name, value))
    return path


def run(sampled, reference, ncu, regex="Phase", *extra):
    done = subprocess.run([sys.executable, SCRIPT, ATP, PM, ncu, sampled, reference, regex] + list(extra),
                          capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def expect(condition, what, output):
    if not condition:
        failures.append("%s\n--- output:\n%s" % (what, output))


names = kernel_names()
memory = [n for n in names if "MemoryPhase" in n]
expect(len(names) == 8 and len(memory) == 4, "the recorded run has 4 memory and 4 compute kernels", "\n".join(names))

# The recorded samples: SM activity about 95.1-95.9 % in the memory kernels, 100 % in the compute ones.
near = ncu_export(["95.5" if "MemoryPhase" in n else "99.9" for n in names])
rc, out = run(SM, SM, near)
expect(rc == 0 and "8 within 5%, 0 DIFFER, 0 not comparable" in out and "check: passed" in out,
       "within the tolerance: passed", out)

far = ncu_export(["80" if "MemoryPhase" in n else "99.9" for n in names])
rc, out = run(SM, SM, far)
expect(rc == 1 and "4 within 5%, 4 DIFFER" in out and "check: FAILED" in out, "a 20 % difference DIFFERs", out)
rc, out = run(SM, SM, far, "Phase", "0.25")
expect(rc == 0 and "8 within 25%" in out, "TOLERANCE widens the check", out)

# The largest of two metrics' window means: the graphics engine's 100 % in every kernel.
full = ncu_export(["100" for _ in names])
rc, out = run(SM + "," + GR, SM, full)
expect(rc == 0 and "max(" in out and "8 within 5%" in out and "each part's mean" in out,
       "the largest of several metrics is compared, each part listed", out)

rc, out = run("no_such__metric.sum", SM, near)
expect(rc != 0 and "has no column no_such__metric.sum" in out, "a metric the file lacks stops the check", out)

rc, out = run(SM, SM, near, "NoSuchKernel")
expect(rc == 1 and "no kernel could be compared" in out, "no kernel matched: FAILED, saying why", out)

if failures:
    print("\n\n".join(failures))
    sys.exit(1)
print("pm_window_means: 6 checks passed")
