#!/usr/bin/env python3
"""Checks the DOM that headless Chromium dumped after loading a gpaprof report: the page's script ran
to the end (#gpaprof-status data-state="ready", no error state), it drew its charts as SVG (at least
--min-charts of them, the timeline with at least --min-rects rectangles), and trace strings stayed text.

usage: check_report_dom.py DOM.html [--min-charts N] [--min-rects N]
"""
import re
import sys


def fail(message):
    print("check_report_dom: " + message)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: check_report_dom.py DOM.html [--min-charts N] [--min-rects N]")
    path, min_charts, min_rects = args[0], 3, 1
    i = 1
    while i < len(args):
        if args[i] == "--min-charts":
            min_charts = int(args[i + 1])
        elif args[i] == "--min-rects":
            min_rects = int(args[i + 1])
        else:
            fail("unknown argument " + args[i])
        i += 2
    dom = open(path, encoding="utf-8").read()
    status = re.search(r'<div id="gpaprof-status"([^>]*)>(.*?)</div>', dom, re.S)
    if not status:
        fail("no #gpaprof-status element in the dumped DOM")
    attributes, text = status.group(1), status.group(2)
    state = re.search(r'data-state="([^"]*)"', attributes)
    if not state or state.group(1) != "ready":
        fail("the report script did not finish: state %r, status text %r" % (state.group(1) if state else None, text))
    if 'data-gpaprof-report="ready"' not in dom:
        fail("body is not marked ready")
    charts = re.search(r'data-charts="(\d+)"', attributes)
    drawn = int(charts.group(1)) if charts else 0
    svgs = len(re.findall(r'<svg[^>]*class="gpaprof-chart', dom))
    if drawn < min_charts or svgs < min_charts:
        fail("expected at least %d charts, script says %d, DOM has %d chart SVGs" % (min_charts, drawn, svgs))
    timeline = re.search(r'<svg[^>]*class="gpaprof-chart timeline-chart".*?</svg>', dom, re.S)
    if timeline:
        rects = len(re.findall(r"<rect ", timeline.group(0)))
        if rects < min_rects:
            fail("the timeline has %d rectangles, expected at least %d" % (rects, min_rects))
    elif min_rects > 0:
        fail("no timeline chart")
    if "<script>alert(1)</script>" in dom or "<b>&amp;" in dom:
        fail("a trace string became markup")
    print("check_report_dom: %s: ready, %d charts%s" % (path, svgs, ", timeline with %d rectangles" % rects if timeline else ""))


if __name__ == "__main__":
    main()
