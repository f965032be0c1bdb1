"""Reading gpaprof's files into pandas DataFrames: <out>.csv, <out>.atp, <out>.occupancy and <out>.pmsampling.csv.

    profile = opengpa.read_profile("out/run")    # the -o name of `gpaprof -o out/run ...`
    profile.dispatches     # .csv: one row per kernel dispatch, counters as columns
    profile.counters       # .csv: the names of its counter columns, in order
    profile.api_calls      # .atp: every traced API call with its CPU and device times
    profile.kernels        # .atp kernel timestamp sections (CUDA)
    profile.markers        # .atp perf markers
    profile.occupancy      # .occupancy: theoretical occupancy per dispatch
    profile.pm_samples     # .pmsampling.csv: NVIDIA metrics sampled over time, one row per sample and device

The layouts are docs/profiler_files.md. NA (a value that was not measured) reads as a missing value; work
sizes read as tuples of ints ((1024, 1, 1); NULL when the runtime chose the work-group size, and both sizes
of a whole CUDA graph's row). The parse_* functions return plain tables (header, columns, rows of dicts) for
use without pandas.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Union

Cell = Union[int, float, str, None]

_INT = re.compile(r"^-?\d+$")
_FLOAT = re.compile(r"^-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")


def _cell(text: str) -> Cell:
    text = text.strip()
    if text == "NA" or text == "":
        return None
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def work_size(text: str) -> Any:
    """`{  1024       1       1}` (the .csv) or `{1024,1,1}` (the .atp) as a tuple of ints; others as they are
    (`NULL`: the runtime chose the work-group size)."""
    inner = text.strip()
    if not (inner.startswith("{") and inner.endswith("}")):
        return text
    parts = inner[1:-1].replace(",", " ").split()
    return tuple(int(part) for part in parts) if parts and all(_INT.match(part) for part in parts) else text


# The .csv's dispatch-statistic columns, in file order (docs/profiler_files.md); every other column is a counter.
CSV_STATISTIC_COLUMNS = ("Method", "ExecutionOrder", "ThreadID", "CallIndex", "GlobalWorkSize", "WorkGroupSize", "Time",
                         "LocalMemSize", "VGPRs", "SGPRs", "ScratchRegs", "KernelOccupancy", "GraphLaunch", "GraphNode")
# CUDA graph rows (gpaprof --graph-profiling): the launch's number and the kernel node; NA on other rows.
CSV_GRAPH_COLUMNS = ("GraphLaunch", "GraphNode")


def counter_columns(columns: list[str]) -> list[str]:
    """The counter columns of a .csv column row, in order: those that are not dispatch statistics."""
    return [name for name in columns if name not in CSV_STATISTIC_COLUMNS]


@dataclass
class Table:
    """A file's header lines (key -> value) and its rows, one dict per row keyed by column name."""

    header: dict[str, str] = field(default_factory=dict)
    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, Cell]] = field(default_factory=list)


def parse_csv(text: str) -> Table:
    """<out>.csv: `#Key=Value` header lines, a column row, one row per dispatch."""
    table = Table()
    lines = [line for line in text.splitlines() if line.strip()]
    body = []
    for line in lines:
        if line.startswith("#"):
            key, _, value = line[1:].partition("=")
            table.header.setdefault(key, value)
        else:
            body.append(line)
    if not body:
        return table
    separator = table.header.get("ListSeparator", ",") or ","
    table.columns = [name.strip() for name in body[0].split(separator)]
    for line in body[1:]:
        fields = [value.strip() for value in line.split(separator)]
        if len(fields) != len(table.columns):
            raise ValueError(f"a .csv row has {len(fields)} fields, the column row {len(table.columns)}: {line!r}")
        row = {name: _cell(value) for name, value in zip(table.columns, fields)}
        if isinstance(row.get("Method"), (int, float)):
            row["Method"] = fields[0]
        for size in ("GlobalWorkSize", "WorkGroupSize"):
            if isinstance(row.get(size), str):
                row[size] = work_size(str(row[size]))
        table.rows.append(row)
    return table


def parse_occupancy(text: str) -> Table:
    """<out>.occupancy: `# Key=Value` header lines, a column row, one row per dispatch (one separator)."""
    table = Table()
    body = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition("=")
            table.header.setdefault(key, value)
        else:
            body.append(line)
    if not body:
        return table
    separator = table.header.get("ListSeparator", ",") or ","
    table.columns = body[0].split(separator)
    for line in body[1:]:
        fields = line.split(separator)
        if len(fields) != len(table.columns):
            raise ValueError(f"an .occupancy row has {len(fields)} fields, the column row {len(table.columns)}")
        row: dict[str, Cell] = {name: _cell(value) for name, value in zip(table.columns, fields)}
        for text_column in ("Kernel Name", "Device Name", "Graphics IP Version"):
            if text_column in row and row[text_column] is not None:
                row[text_column] = fields[table.columns.index(text_column)]
        table.rows.append(row)
    return table


@dataclass
class PmSamplingTable:
    """<out>.pmsampling.csv: its header, devices, the metrics asked for but not sampled, and one dict per sample
    (device, start_ns, end_ns, flags, then each metric: a float, None for NA)."""

    header: dict[str, str] = field(default_factory=dict)
    interval_ns: int | None = None
    devices: dict[int, tuple[str, str]] = field(default_factory=dict)  # index -> (name, chip)
    left_out: dict[str, str] = field(default_factory=dict)  # metric -> why it was not sampled
    metrics: list[str] = field(default_factory=list)
    rows: list[dict[str, Cell]] = field(default_factory=list)


PM_SAMPLING_COLUMNS = ["device", "start_ns", "end_ns", "flags"]
_PM_FIXED_COLUMNS = ["Device", "StartNs", "EndNs", "Flags"]
_PM_FLAGS = ("dropped-before", "replay")
_DEVICE_KEY = re.compile(r"^Device(\d+)$")


def parse_pm_sampling(text: str) -> PmSamplingTable:
    """<out>.pmsampling.csv: `# Key=Value` header lines, the column row `Device,StartNs,EndNs,Flags,<metric>...`,
    one row per sample (one separator, no spaces). Flags: "" or `dropped-before` and/or `replay` joined by `|`."""
    table = PmSamplingTable()
    body = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition("=")
            device = _DEVICE_KEY.match(key)
            if device:
                name, _, chip = value.rpartition(" (")
                if not name or not chip.endswith(")"):
                    raise ValueError(f"a device line is '# Device<index>=<name> (<chip>)': {line!r}")
                table.devices[int(device.group(1))] = (name, chip[:-1])
            elif key == "LeftOut":
                metric, _, reason = value.partition(": ")
                table.left_out[metric] = reason
            else:
                table.header.setdefault(key, value)
        else:
            body.append(line)
    if "IntervalNs" in table.header:
        table.interval_ns = int(table.header["IntervalNs"])
    if not body:
        return table
    separator = table.header.get("ListSeparator", ",") or ","
    columns = body[0].split(separator)
    if columns[:4] != _PM_FIXED_COLUMNS:
        raise ValueError(f"the column row must start with {separator.join(_PM_FIXED_COLUMNS)}: {body[0]!r}")
    table.metrics = columns[4:]
    for line in body[1:]:
        fields = line.split(separator)
        if len(fields) != len(columns):
            raise ValueError(f"a .pmsampling.csv row has {len(fields)} fields, the column row {len(columns)}: {line!r}")
        flags = fields[3]
        if flags and not all(flag in _PM_FLAGS for flag in flags.split("|")):
            raise ValueError(f"unknown flags {flags!r}: {line!r}")
        row: dict[str, Cell] = {"device": int(fields[0]), "start_ns": int(fields[1]), "end_ns": int(fields[2]),
                                "flags": flags}
        for metric, value in zip(table.metrics, fields[4:]):
            row[metric] = None if value == "NA" else float(value)
        table.rows.append(row)
    return table


_SECTION = re.compile(r"^=====(?:CodeXL )?(\w+) (API Trace|Timestamp|Kernel Timestamp|Stack Trace) Output=====$")
_MARKERS = re.compile(r"^=====(?:OpenCL )?Perfmarker Output=====$")
_CALL = re.compile(r"^(?:(?P<ret>.+?) = )?(?P<name>[A-Za-z_]\w*) \( ?(?P<args>.*?) ?\)$")

ATP_CALL_COLUMNS = ["api", "thread_id", "call_index", "api_type", "function", "cpu_start", "cpu_end",
                    "command_type", "command_name", "queued", "submit", "start", "end", "queue_id", "queue",
                    "context_id", "context", "device", "kernel_handle", "kernel_name", "global_size",
                    "local_size", "transfer_size", "return_value", "arguments"]
ATP_KERNEL_COLUMNS = ["api", "kernel_name", "kernel_object", "start", "end", "device", "device_handle",
                      "queue_index", "device_index", "packet_type", "packet_id", "fields"]
ATP_MARKER_COLUMNS = ["thread_id", "kind", "time", "name", "group"]


@dataclass
class AtpFile:
    """<out>.atp read into three tables: API calls, kernel timestamps, perf markers."""

    header: dict[str, str] = field(default_factory=dict)
    api_calls: list[dict[str, Cell]] = field(default_factory=list)
    kernels: list[dict[str, Cell]] = field(default_factory=list)
    markers: list[dict[str, Cell]] = field(default_factory=list)


def _thread_blocks(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Thread blocks: a thread id line, an entry count line, the entries."""
    position = 0
    while position < len(lines):
        if not lines[position].strip():
            position += 1
            continue
        thread = int(lines[position].strip())
        count = int(lines[position + 1].strip())
        yield thread, lines[position + 2:position + 2 + count]
        position += 2 + count


def _unescape(text: str) -> str:
    return "" if text == '""' else text.replace("&nbsp;", " ")


def parse_atp(text: str) -> AtpFile:
    """<out>.atp: the header, then the sections of each API part (docs/profiler_files.md)."""
    atp = AtpFile()
    sections: list[tuple[str, str, list[str]]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        section = _SECTION.match(line)
        if section:
            current = []
            sections.append((section.group(1), section.group(2), current))
        elif _MARKERS.match(line):
            current = []
            sections.append(("", "Perfmarker", current))
        elif current is not None:
            current.append(line)
        elif "=" in line:
            key, _, value = line.partition("=")
            atp.header.setdefault(key.strip(), value.strip())
    traces: dict[tuple[str, int], list[str]] = {}
    for api, kind, lines in sections:
        if kind == "API Trace":
            for thread, entries in _thread_blocks(lines):
                traces[(api, thread)] = entries
    for api, kind, lines in sections:
        if kind == "Timestamp":
            for thread, entries in _thread_blocks(lines):
                calls = traces.get((api, thread), [])
                for index, entry in enumerate(entries):
                    atp.api_calls.append(_timestamp_row(api, thread, index, entry,
                                                        calls[index] if index < len(calls) else ""))
        elif kind == "Kernel Timestamp":
            body = [line for line in lines if line.strip()]
            for entry in body[1:1 + int(body[0])] if body else []:
                fields = entry.split(None, 10)
                values: list[Cell] = [api]
                values.extend(_cell(value) for value in fields[:10])
                values.append(fields[10] if len(fields) > 10 else None)
                row = dict(zip(ATP_KERNEL_COLUMNS, values))
                row["kernel_name"], row["device"] = fields[0], fields[4]
                atp.kernels.append(row)
        elif kind == "Perfmarker":
            for thread, entries in _thread_blocks(lines):
                for entry in entries:
                    atp.markers.append(_marker_row(thread, entry))
    return atp


def _timestamp_row(api: str, thread: int, index: int, entry: str, call: str) -> dict[str, Cell]:
    fields = entry.split()
    row: dict[str, Cell] = dict.fromkeys(ATP_CALL_COLUMNS)
    row.update(api=api, thread_id=thread, call_index=index, api_type=_cell(fields[0]), function=fields[1],
               cpu_start=_cell(fields[2]), cpu_end=_cell(fields[3]))
    if len(fields) >= 15:
        names = ["command_type", "command_name", "queued", "submit", "start", "end", "queue_id", "queue",
                 "context_id", "context", "device"]
        for name, value in zip(names, fields[4:15]):
            row[name] = _cell(value)
        for name in ("command_name", "queue", "context", "device"):
            row[name] = fields[4 + names.index(name)]
    if len(fields) == 16:
        row["transfer_size"] = _cell(fields[15])
    elif len(fields) >= 19:
        row.update(kernel_handle=fields[15], kernel_name=fields[16], global_size=work_size(fields[17]),
                   local_size=work_size(fields[18]))
    parsed = _CALL.match(call.strip())
    if parsed:
        row["return_value"] = parsed.group("ret")
        row["arguments"] = parsed.group("args")
    return row


def _marker_row(thread: int, entry: str) -> dict[str, Cell]:
    fields = entry.split()
    row: dict[str, Cell] = {"thread_id": thread, "kind": fields[0], "time": None, "name": None, "group": None}
    if fields[0] == "clBeginPerfMarker" and len(fields) >= 4:
        row.update(kind="begin", name=_unescape(fields[1]), time=_cell(fields[2]), group=_unescape(fields[3]))
    elif fields[0] == "clEndPerfMarker" and len(fields) >= 2:
        row.update(kind="end", time=_cell(fields[1]))
    elif fields[0] == "clEndPerfMarkerEx" and len(fields) >= 4:
        row.update(kind="end", time=_cell(fields[1]), name=_unescape(fields[2]), group=_unescape(fields[3]))
    return row


@dataclass
class Profile:
    """What gpaprof wrote for one process. A file gpaprof was not asked for (-p, -t, -O) is None."""

    name: str
    dispatches: Any = None  # pandas.DataFrame of <name>.csv
    counters: list[str] = field(default_factory=list)  # the .csv's counter columns, in order
    dispatches_header: dict[str, str] = field(default_factory=dict)
    api_calls: Any = None  # pandas.DataFrame of the .atp API trace and timestamps
    kernels: Any = None  # pandas.DataFrame of the .atp kernel timestamp sections
    markers: Any = None  # pandas.DataFrame of the .atp perf markers
    trace_header: dict[str, str] = field(default_factory=dict)
    occupancy: Any = None  # pandas.DataFrame of <name>.occupancy
    occupancy_header: dict[str, str] = field(default_factory=dict)
    pm_samples: Any = None  # pandas.DataFrame of <name>.pmsampling.csv: device, start_ns, end_ns, flags, metrics
    pm_sampling: PmSamplingTable | None = None  # its header, interval, devices and the metrics left out


def read_profile(name: str | os.PathLike[str]) -> Profile:
    """Reads <name>.csv, <name>.atp, <name>.occupancy and <name>.pmsampling.csv (those that exist) into DataFrames
    (needs pandas).

    `name` is gpaprof's -o value; a path ending in one of the four suffixes is taken without it."""
    try:
        import pandas
    except ImportError as error:
        raise ImportError("read_profile() needs pandas (pip install pandas); parse_csv(), parse_atp(), "
                          "parse_occupancy() and parse_pm_sampling() read the files without it") from error
    stem = os.fspath(name)
    suffixes = (".pmsampling.csv", ".csv", ".atp", ".occupancy")  # .pmsampling.csv first: it ends in .csv
    for suffix in suffixes:
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    paths = {suffix: Path(stem + suffix) for suffix in suffixes}
    if not any(path.exists() for path in paths.values()):
        raise FileNotFoundError(f"no gpaprof files named {stem}.csv, {stem}.atp, {stem}.occupancy or "
                                f"{stem}.pmsampling.csv")
    profile = Profile(name=stem)
    if paths[".csv"].exists():
        csv = parse_csv(paths[".csv"].read_text(errors="replace"))
        profile.dispatches = pandas.DataFrame(csv.rows, columns=csv.columns)
        for column in CSV_GRAPH_COLUMNS:
            values = [row[column] for row in csv.rows] if column in csv.columns else []
            # Nullable integers, so that 64-bit node ids stay exact (a float column would round them) and NA is <NA>.
            if values and all(value is None or (isinstance(value, int) and value >= 0) for value in values):
                profile.dispatches[column] = pandas.array(values, dtype="UInt64")
        profile.counters = counter_columns(csv.columns)
        profile.dispatches_header = csv.header
    if paths[".atp"].exists():
        atp = parse_atp(paths[".atp"].read_text(errors="replace"))
        profile.api_calls = pandas.DataFrame(atp.api_calls, columns=ATP_CALL_COLUMNS)
        profile.kernels = pandas.DataFrame(atp.kernels, columns=ATP_KERNEL_COLUMNS)
        profile.markers = pandas.DataFrame(atp.markers, columns=ATP_MARKER_COLUMNS)
        profile.trace_header = atp.header
    if paths[".occupancy"].exists():
        occupancy = parse_occupancy(paths[".occupancy"].read_text(errors="replace"))
        profile.occupancy = pandas.DataFrame(occupancy.rows, columns=occupancy.columns)
        profile.occupancy_header = occupancy.header
    if paths[".pmsampling.csv"].exists():
        samples = parse_pm_sampling(paths[".pmsampling.csv"].read_text(errors="replace"))
        frame = pandas.DataFrame(samples.rows, columns=PM_SAMPLING_COLUMNS + samples.metrics)
        # Times exact as 64-bit integers; metrics as floats with NaN for NA (never 0).
        for column in ("start_ns", "end_ns"):
            frame[column] = frame[column].astype("uint64")
        frame["device"] = frame["device"].astype("int64")
        for metric in samples.metrics:
            frame[metric] = frame[metric].astype("float64")
        profile.pm_samples = frame
        profile.pm_sampling = samples
    return profile
