#include "tools/gpaprof/report/html_assets.h"

namespace gpaprof::report {

const char* const kReportStyle = R"CSS(
:root { --fg: #1d2330; --muted: #5b6475; --line: #d9dee7; --bg: #ffffff; --panel: #f6f8fb; --accent: #2f6fde;
        --warn: #b3261e; --advice: #9a6700; --ok: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
       background: var(--bg); }
header { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { margin: 0 0 4px; font-size: 20px; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; font-size: 13px; }
nav a:hover { text-decoration: underline; }
main { padding: 8px 24px 40px; max-width: 1400px; }
section { margin-top: 26px; }
h2 { font-size: 17px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
p.help { color: var(--muted); margin: 4px 0 10px; }
#gpaprof-status { font-size: 12px; color: var(--muted); }
#gpaprof-status[data-state="error"] { color: var(--warn); font-weight: 600; }
table.data { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
table.data th, table.data td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
table.data th { background: var(--panel); position: sticky; top: 0; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[data-sorted="asc"]::after { content: " \25B2"; font-size: 10px; }
table.sortable th[data-sorted="desc"]::after { content: " \25BC"; font-size: 10px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.code, span.code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px;
                     word-break: break-all; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 170px; background: var(--panel); }
.card .value { font-size: 18px; font-weight: 600; }
.card .label { color: var(--muted); font-size: 12px; }
.chart { margin: 8px 0 14px; width: 100%; overflow: hidden; }
.chart svg text { font-size: 11px; fill: var(--fg); }
.chart .axis line { stroke: var(--line); }
.chart .bar { fill: var(--accent); }
.chart .lane-label { fill: var(--muted); }
.chart rect.k0 { fill: #4c78c8; } .chart rect.k1 { fill: #e8833a; } .chart rect.k2 { fill: #3fa34d; }
.chart rect.k3 { fill: #9aa3b2; } .chart rect.k4 { fill: #8e63c7; } .chart rect.k5 { fill: #d23b30; }
.chart rect.k6 { fill: #2a9d8f; } .chart rect.k7 { fill: #b8bec8; } .chart rect.k8 { fill: #d23b30; }
.legend span { display: inline-block; margin-right: 12px; font-size: 12px; color: var(--muted); }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
#timeline-tip { position: fixed; display: none; pointer-events: none; background: #1d2330; color: #fff;
                padding: 4px 8px; border-radius: 4px; font-size: 12px; max-width: 520px; z-index: 10; }
article.check { border: 1px solid var(--line); border-left: 5px solid var(--ok); border-radius: 4px;
                padding: 6px 14px; margin: 10px 0; }
article.check.fired.warning { border-left-color: var(--warn); }
article.check.fired.advice { border-left-color: var(--advice); }
article.check.undecidable { border-left-color: var(--muted); }
article.check h3 { margin: 4px 0; }
.badge { display: inline-block; font-size: 11px; padding: 1px 7px; border-radius: 9px; margin-left: 8px;
         color: #fff; background: var(--ok); vertical-align: middle; }
.fired.warning .badge { background: var(--warn); } .fired.advice .badge { background: var(--advice); }
.undecidable .badge { background: var(--muted); }
ul.evidence li { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; margin: 2px 0; }
.problems li { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.note { color: var(--muted); }
)CSS";

const char* const kReportScript = R"JS(
(function () {
  'use strict';
  var status = document.getElementById('gpaprof-status');
  var failed = false;
  function fail(message) {
    failed = true;
    status.setAttribute('data-state', 'error');
    status.textContent = 'Report script error: ' + message;
  }
  window.addEventListener('error', function (event) { fail(event.message || 'unknown error'); });

  var SVG = 'http://www.w3.org/2000/svg';
  function svgNode(name, attributes, parent) {
    var node = document.createElementNS(SVG, name);
    for (var key in attributes) node.setAttribute(key, attributes[key]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function text(parent, x, y, content, attributes) {
    var node = svgNode('text', attributes || {}, parent);
    node.setAttribute('x', x);
    node.setAttribute('y', y);
    node.textContent = content;
    return node;
  }
  function formatNs(ns) {
    if (ns < 1000) return Math.round(ns) + ' ns';
    if (ns < 1e6) return (ns / 1e3).toFixed(3) + ' us';
    if (ns < 1e9) return (ns / 1e6).toFixed(3) + ' ms';
    return (ns / 1e9).toFixed(3) + ' s';
  }
  function formatValue(value, unit) {
    if (unit === 'ns') return formatNs(value);
    if (unit === 'percent') return value.toFixed(1) + ' %';
    return String(value);
  }
  function shorten(label, max) { return label.length > max ? label.slice(0, max - 1) + '\u2026' : label; }
  function widthOf(container) { return Math.max(480, container.clientWidth || 960); }

  // Horizontal bars, one per entry, longest first as given.
  function barChart(container, chart) {
    var width = widthOf(container), labelWidth = 260, valueWidth = 110, rowHeight = 22;
    var bars = chart.bars || [];
    var height = bars.length * rowHeight + 8;
    var svg = svgNode('svg', {width: width, height: height, role: 'img', 'class': 'gpaprof-chart bar-chart'}, container);
    var max = 0;
    bars.forEach(function (bar) { max = Math.max(max, bar.value); });
    var span = width - labelWidth - valueWidth;
    bars.forEach(function (bar, i) {
      var y = 4 + i * rowHeight;
      var label = text(svg, labelWidth - 6, y + 14, shorten(bar.label, 40), {'text-anchor': 'end'});
      svgNode('title', {}, label).textContent = bar.label;
      var w = max > 0 ? Math.max(1, span * bar.value / max) : 1;
      var rect = svgNode('rect', {x: labelWidth, y: y + 2, width: w, height: rowHeight - 6, 'class': 'bar'}, svg);
      svgNode('title', {}, rect).textContent = bar.label + ': ' + formatValue(bar.value, chart.unit);
      text(svg, labelWidth + w + 6, y + 14, formatValue(bar.value, chart.unit));
    });
    return svg;
  }

  // Lanes of intervals with a time axis; wheel zooms around the pointer, drag pans, double-click resets.
  function timelineChart(container, chart) {
    var width = widthOf(container), labelWidth = 230, rowHeight = 16, axisHeight = 22;
    var lanes = chart.lanes || [], items = chart.items || [], names = chart.names || [];
    var span = Math.max(1, chart.span || 1);
    // Lanes may be taller (PM sample lanes: "height"); tops[i] is lane i's top.
    var tops = [], next = axisHeight;
    lanes.forEach(function (lane) { tops.push(next); next += lane.height || rowHeight; });
    var height = next + 6;
    var svg = svgNode('svg', {width: width, height: height, 'class': 'gpaprof-chart timeline-chart'}, container);
    var plot = width - labelWidth - 10;
    lanes.forEach(function (lane, i) {
      var bottom = tops[i] + (lane.height || rowHeight);
      var label = text(svg, 4, bottom - (lane.height || rowHeight) / 2 + 4, shorten(lane.name, 34), {'class': 'lane-label'});
      svgNode('title', {}, label).textContent = lane.name;
      svgNode('line', {x1: labelWidth, x2: width - 10, y1: bottom, y2: bottom, stroke: '#eef1f5'}, svg);
    });
    var axis = svgNode('g', {'class': 'axis'}, svg);
    var body = svgNode('g', {}, svg);
    // Items [lane, start, duration, name, kind]; PM sample bars [lane, start, duration, samples, kind >= 6, value],
    // as high as value against the lane's top.
    var rects = items.map(function (item, i) {
      var lane = lanes[item[0]], inner = (lane.height || rowHeight) - 4, h = inner;
      if (item[4] >= 6) h = Math.max(1, inner * Math.min(1, lane.top > 0 ? item[5] / lane.top : 0));
      return svgNode('rect', {y: tops[item[0]] + 2 + inner - h, height: h, 'class': 'k' + item[4], 'data-i': i}, body);
    });
    var view = [0, span];
    function layout() {
      var scale = plot / (view[1] - view[0]);
      rects.forEach(function (rect, i) {
        var item = items[i];
        var x = labelWidth + (item[1] - view[0]) * scale;
        var w = Math.max(0.5, item[2] * scale);
        if (x + w < labelWidth || x > width - 10) { rect.setAttribute('display', 'none'); return; }
        rect.removeAttribute('display');
        var left = Math.max(x, labelWidth);
        rect.setAttribute('x', left);
        rect.setAttribute('width', Math.max(0.5, Math.min(x + w, width - 10) - left));
      });
      while (axis.firstChild) axis.removeChild(axis.firstChild);
      for (var t = 0; t <= 8; ++t) {
        var x = labelWidth + plot * t / 8;
        svgNode('line', {x1: x, x2: x, y1: axisHeight - 4, y2: height}, axis);
        text(axis, t === 8 ? x - 2 : x + 2, 12, formatNs(view[0] + (view[1] - view[0]) * t / 8),
             t === 8 ? {'text-anchor': 'end'} : {});
      }
    }
    layout();
    var tip = document.getElementById('timeline-tip');
    svg.addEventListener('mousemove', function (event) {
      var index = event.target.getAttribute && event.target.getAttribute('data-i');
      if (index === null || index === undefined || !tip) { if (tip) tip.style.display = 'none'; return; }
      var item = items[+index];
      if (item[4] >= 6) {
        var lane = lanes[item[0]];
        tip.textContent = lane.name + ': ' + formatValue(item[5], lane.unit) +
                          (item[3] > 1 ? ' (mean of ' + item[3] + ' samples)' : '') +
                          (item[4] === 7 ? ' \u2014 gpaprof replay: not the application\'s work' : '') +
                          (item[4] === 8 ? ' \u2014 samples before it were lost' : '') +
                          ' \u2014 ' + formatNs(item[2]) + ' at +' + formatNs(item[1]);
      } else {
        tip.textContent = names[item[3]] + ' \u2014 ' + formatNs(item[2]) + ' at +' + formatNs(item[1]) +
                          ' \u2014 ' + lanes[item[0]].name;
      }
      tip.style.left = (event.clientX + 12) + 'px';
      tip.style.top = (event.clientY + 12) + 'px';
      tip.style.display = 'block';
    });
    svg.addEventListener('mouseleave', function () { if (tip) tip.style.display = 'none'; });
    svg.addEventListener('wheel', function (event) {
      event.preventDefault();
      var box = svg.getBoundingClientRect();
      var fraction = Math.min(1, Math.max(0, (event.clientX - box.left - labelWidth) / plot));
      var at = view[0] + (view[1] - view[0]) * fraction;
      var factor = event.deltaY > 0 ? 1.25 : 0.8;
      var length = Math.max(10, Math.min(span, (view[1] - view[0]) * factor));
      view = [Math.max(0, at - length * fraction), 0];
      view[1] = Math.min(span, view[0] + length);
      view[0] = Math.max(0, view[1] - length);
      layout();
    }, {passive: false});
    var dragFrom = null;
    svg.addEventListener('mousedown', function (event) { dragFrom = [event.clientX, view[0], view[1]]; });
    window.addEventListener('mouseup', function () { dragFrom = null; });
    window.addEventListener('mousemove', function (event) {
      if (!dragFrom) return;
      var shift = (dragFrom[0] - event.clientX) * (dragFrom[2] - dragFrom[1]) / plot;
      var length = dragFrom[2] - dragFrom[1];
      var start = Math.max(0, Math.min(span - length, dragFrom[1] + shift));
      view = [start, start + length];
      layout();
    });
    svg.addEventListener('dblclick', function () { view = [0, span]; layout(); });
    return svg;
  }

  function makeSortable(table) {
    var headers = table.querySelectorAll('thead th');
    headers.forEach(function (header, column) {
      header.addEventListener('click', function () {
        var descending = header.getAttribute('data-sorted') !== 'desc';
        headers.forEach(function (other) { other.removeAttribute('data-sorted'); });
        header.setAttribute('data-sorted', descending ? 'desc' : 'asc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[column], y = b.cells[column];
          if (!x || !y) return 0;
          var sx = x.getAttribute('data-sort'), sy = y.getAttribute('data-sort');
          var order = (sx !== null && sy !== null) ? (+sx) - (+sy)
                                                   : x.textContent.localeCompare(y.textContent);
          return descending ? -order : order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  }

  try {
    var data = JSON.parse(document.getElementById('gpaprof-data').textContent);
    var drawn = 0;
    document.querySelectorAll('[data-chart]').forEach(function (container) {
      var chart = data.charts[container.getAttribute('data-chart')];
      if (!chart) throw new Error('no data for chart ' + container.getAttribute('data-chart'));
      while (container.firstChild) container.removeChild(container.firstChild);
      if (chart.kind === 'timeline') timelineChart(container, chart); else barChart(container, chart);
      ++drawn;
    });
    document.querySelectorAll('table.sortable').forEach(makeSortable);
    if (!failed) {
      status.setAttribute('data-state', 'ready');
      status.setAttribute('data-charts', String(drawn));
      status.textContent = 'Charts drawn: ' + drawn + '. Click a column heading to sort a table.';
      document.body.setAttribute('data-gpaprof-report', 'ready');
    }
  } catch (error) {
    fail(error && error.message ? error.message : String(error));
  }
})();
)JS";

}  // namespace gpaprof::report
