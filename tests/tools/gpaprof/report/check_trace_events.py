#!/usr/bin/env python3
"""Checks a Chrome trace-event JSON file as Perfetto's importer reads it: strict JSON (no NaN), the
traceEvents array, each event's fields and types, complete events ("X") that nest on every (pid, tid)
track, flow starts and finishes in pairs, counter events ("C": a name and numeric args, times not going back
per (pid, name)), and optionally event names that must be there.

usage: check_trace_events.py FILE [--expect NAME]... [--expect-counter NAME]... [--min-slices N] [--min-counters N]
"""
import json
import sys


def fail(message):
    print("check_trace_events: " + message)
    sys.exit(1)


def reject_constant(name):
    raise ValueError("non-JSON number " + name)


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: check_trace_events.py FILE [--expect NAME]... [--expect-counter NAME]... [--min-slices N] "
             "[--min-counters N]")
    path, expected, min_slices = args[0], [], 1
    expected_counters, min_counters = [], 0
    i = 1
    while i < len(args):
        if args[i] == "--expect":
            expected.append(args[i + 1])
        elif args[i] == "--min-slices":
            min_slices = int(args[i + 1])
        elif args[i] == "--expect-counter":
            expected_counters.append(args[i + 1])
        elif args[i] == "--min-counters":
            min_counters = int(args[i + 1])
        else:
            fail("unknown argument " + args[i])
        i += 2
    with open(path, "rb") as f:
        raw = f.read()
    try:
        root = json.loads(raw.decode("utf-8"), parse_constant=reject_constant)
    except (ValueError, UnicodeDecodeError) as error:
        fail("%s is not valid JSON: %s" % (path, error))
    if not isinstance(root, dict) or not isinstance(root.get("traceEvents"), list):
        fail("no traceEvents array")
    tracks, flows, names, counters = {}, {}, set(), {}
    for index, event in enumerate(root["traceEvents"]):
        where = "event %d" % index
        if not isinstance(event, dict) or event.get("ph") not in ("X", "M", "s", "f", "C"):
            fail(where + ": unexpected phase %r" % (event.get("ph") if isinstance(event, dict) else event))
        if not isinstance(event.get("pid"), int):
            fail(where + ": pid is not an integer")
        phase = event["ph"]
        if phase == "M":
            if event.get("name") not in ("process_name", "thread_name", "process_sort_index", "thread_sort_index"):
                fail(where + ": unknown metadata " + str(event.get("name")))
            continue
        if phase == "C":
            # Process-scoped counters: no tid; each arg a number (Perfetto makes a track per arg).
            if not isinstance(event.get("name"), str) or not isinstance(event.get("ts"), (int, float)) or event["ts"] < 0:
                fail(where + ": counter event without name or with a bad ts")
            values = event.get("args")
            if not isinstance(values, dict) or not values or \
                    not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values.values()):
                fail(where + ": counter args must be numbers")
            times = counters.setdefault((event["pid"], event["name"]), [])
            if times and event["ts"] < times[-1]:
                fail(where + ": counter %r of pid %d goes back in time" % (event["name"], event["pid"]))
            times.append(event["ts"])
            continue
        if not isinstance(event.get("tid"), int):
            fail(where + ": tid is not an integer")
        if not isinstance(event.get("ts"), (int, float)) or event["ts"] < 0:
            fail(where + ": ts is not a non-negative number")
        if phase == "X":
            if not isinstance(event.get("name"), str) or not isinstance(event.get("dur"), (int, float)) or event["dur"] < 0:
                fail(where + ": complete event without name or dur")
            names.add(event["name"])
            # Integer nanoseconds: three decimals of microseconds.
            start = round(event["ts"] * 1000)
            tracks.setdefault((event["pid"], event["tid"]), []).append((start, start + round(event["dur"] * 1000)))
        else:
            flows.setdefault(event.get("id"), []).append(phase)
    slices = sum(len(v) for v in tracks.values())
    if slices < min_slices:
        fail("only %d complete events, expected at least %d" % (slices, min_slices))
    for track, intervals in tracks.items():
        intervals.sort(key=lambda iv: (iv[0], -iv[1]))
        stack = []
        for start, end in intervals:
            while stack and stack[-1] <= start:
                stack.pop()
            if stack and end > stack[-1]:
                fail("track pid %d tid %d: [%d, %d) ns overlaps its parent ending at %d" % (track[0], track[1], start, end, stack[-1]))
            stack.append(end)
    for flow_id, phases in flows.items():
        if sorted(phases) != ["f", "s"]:
            fail("flow %r has phases %r" % (flow_id, phases))
    for name in expected:
        if name not in names:
            fail("no complete event named %r" % name)
    counter_events = sum(len(v) for v in counters.values())
    if counter_events < min_counters:
        fail("only %d counter events, expected at least %d" % (counter_events, min_counters))
    counter_names = {name for (_, name) in counters}
    for name in expected_counters:
        if name not in counter_names:
            fail("no counter named %r" % name)
    print("check_trace_events: %s: %d slices on %d tracks, %d flows, %d counter events on %d counter tracks"
          % (path, slices, len(tracks), len(flows), counter_events, len(counters)))


if __name__ == "__main__":
    main()
