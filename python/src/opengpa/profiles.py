"""Reading several processes' gpaprof files (the ranks of a distributed run) into one DataFrame per table.

    profiles = opengpa.read_profiles("out/run_*")   # gpaprof -t -p -O -o out/run_%q{RANK} -- torchrun ...
    profiles.ranks         # one row per process: rank, profile (its -o name), where the rank came from, host,
                           # clock id, which files it has
    profiles.dispatches    # every rank's .csv rows, with a `rank` and a `profile` column first
    profiles.api_calls     # every rank's .atp calls; likewise kernels, markers, occupancy
    profiles.problems      # (path, reason) of each file that could not be read; the others are read

A rank comes, as for gpaprof-report over ranks (docs/gpaprof_report.md), from the file's ProcessRank= header
line (the launcher's RANK, OMPI_COMM_WORLD_RANK, ... in the process), else from the file names (the number
after "rank" in every name, else the first number that tells all the names apart, else each name's last number
when no two names share it), else it is missing (<NA>).
"""

from __future__ import annotations

import glob
import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from .profile import (ATP_CALL_COLUMNS, ATP_KERNEL_COLUMNS, ATP_MARKER_COLUMNS, CSV_GRAPH_COLUMNS, counter_columns,
                      parse_atp, parse_csv, parse_occupancy)

SUFFIXES = (".atp", ".csv", ".occupancy")
# The first line each file starts with (docs/profiler_files.md).
_FIRST_LINE = {".atp": "TraceFileVersion=", ".csv": "#ProfileFileVersion=", ".occupancy": "# ProfilerVersion="}
RANK_COLUMNS = ["rank", "profile", "rank_from", "host", "clock_id", "files"]


@dataclass
class Profiles:
    """What gpaprof wrote for several processes, one DataFrame per table, each with `rank` and `profile` first.

    A table no process has (no .csv: gpaprof ran without -p) is None."""

    names: list[str] = field(default_factory=list)  # the -o names read, in rank order
    ranks: Any = None  # one row per name: RANK_COLUMNS
    dispatches: Any = None
    counters: list[str] = field(default_factory=list)  # counter columns of every .csv, in first-seen order
    api_calls: Any = None
    kernels: Any = None
    markers: Any = None
    occupancy: Any = None
    problems: list[tuple[str, str]] = field(default_factory=list)


def _numbers(name: str) -> list[tuple[int, int]]:
    """(position, value) of each run of at most 9 digits in the name."""
    return [(match.start(), int(match.group())) for match in re.finditer(r"\d+", name) if len(match.group()) <= 9]


def ranks_from_file_names(paths: list[str]) -> list[Optional[int]]:
    """The rank each file name gives, as gpaprof-report takes it (src/tools/gpaprof/report/rank_files.h)."""
    names = []
    for path in paths:
        name = os.path.basename(path)
        for suffix in SUFFIXES:
            if name.endswith(suffix):
                name = name[: -len(suffix)]
                break
        names.append(name)
    numbers = [_numbers(name) for name in names]
    if not paths:
        return []
    after_rank = [re.search(r"rank[_.-]?(\d{1,9})(?!\d)", name, re.IGNORECASE) for name in names]
    if all(after_rank):
        return [int(match.group(1)) for match in after_rank if match]
    count = len(numbers[0])
    if len(paths) > 1 and all(len(n) == count for n in numbers):
        for position in range(count):
            values = [n[position][1] for n in numbers]
            if len(set(values)) == len(values):
                return list(values)
    last: list[Optional[int]] = [n[-1][1] if n else None for n in numbers]
    present = [value for value in last if value is not None]
    return last if len(set(present)) == len(present) else [None] * len(paths)


def _names(sources: Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]]]) -> list[str]:
    """The -o names (paths without their suffix) of the files a pattern, folder or list names, sorted."""
    items = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    paths: list[str] = []
    for item in items:
        text = os.fspath(item)
        if os.path.isdir(text):
            paths.extend(os.path.join(text, entry) for entry in os.listdir(text))
        elif glob.has_magic(text):
            # "out/run_*" names -o names, "out/run_*.atp" files: either way their files are what it matches, or
            # what it matches with a suffix added.
            paths.extend(glob.glob(text))
            paths.extend(match for suffix in SUFFIXES for match in glob.glob(text + suffix))
        else:
            paths.append(text)
    stems = set()
    for path in paths:
        for suffix in SUFFIXES:
            if path.endswith(suffix):
                stems.add(path[: -len(suffix)])
                break
        else:
            if not os.path.isdir(path) and any(os.path.exists(path + suffix) for suffix in SUFFIXES):
                stems.add(path)
    return sorted(stems)


def _read(path: Path, suffix: str) -> str:
    """The file's text; ValueError with the reason when it is not the profiler file its name says."""
    text = path.read_text(errors="replace")
    if not text:
        raise ValueError("the file is empty")
    if not text.startswith(_FIRST_LINE[suffix]):
        raise ValueError(f"not a gpaprof {suffix} file: the first line is not {_FIRST_LINE[suffix]}...")
    return text


def read_profiles(sources: Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]]]) -> Profiles:
    """Reads the .csv, .atp and .occupancy files of several processes (needs pandas).

    `sources`: a glob pattern of -o names or files ("out/run_*", "out/run_*.atp"), a folder, or a list of names
    or files. A file that cannot be read is left out and named in `problems` (and in a warning); FileNotFoundError
    when no file could be read at all."""
    try:
        import pandas
    except ImportError as error:
        raise ImportError("read_profiles() needs pandas (pip install pandas); parse_csv(), parse_atp() and "
                          "parse_occupancy() read the files without it") from error
    stems = _names(sources)
    profiles = Profiles()
    rows: list[dict[str, Any]] = []
    tables: dict[str, list[Any]] = {"dispatches": [], "api_calls": [], "kernels": [], "markers": [], "occupancy": []}
    for stem in stems:
        row: dict[str, Any] = {"rank": None, "profile": stem, "rank_from": "none", "host": None, "clock_id": None,
                               "files": ""}
        header: dict[str, str] = {}
        frames: dict[str, Any] = {}
        for suffix in SUFFIXES:
            path = Path(stem + suffix)
            if not path.exists():
                continue
            try:
                text = _read(path, suffix)
                if suffix == ".atp":
                    atp = parse_atp(text)
                    frames["api_calls"] = pandas.DataFrame(atp.api_calls, columns=ATP_CALL_COLUMNS)
                    frames["kernels"] = pandas.DataFrame(atp.kernels, columns=ATP_KERNEL_COLUMNS)
                    frames["markers"] = pandas.DataFrame(atp.markers, columns=ATP_MARKER_COLUMNS)
                    header.update(atp.header)
                elif suffix == ".csv":
                    csv = parse_csv(text)
                    frame = pandas.DataFrame(csv.rows, columns=csv.columns)
                    for column in CSV_GRAPH_COLUMNS:
                        values = [r[column] for r in csv.rows] if column in csv.columns else []
                        # As read_profile(): nullable integers, so that 64-bit node ids stay exact.
                        if values and all(v is None or (isinstance(v, int) and v >= 0) for v in values):
                            frame[column] = pandas.array(values, dtype="UInt64")
                    frames["dispatches"] = frame
                    profiles.counters.extend(name for name in counter_columns(csv.columns)
                                             if name not in profiles.counters)
                    for key, value in csv.header.items():
                        header.setdefault(key, value)
                else:
                    occupancy = parse_occupancy(text)
                    frames["occupancy"] = pandas.DataFrame(occupancy.rows, columns=occupancy.columns)
            except (OSError, ValueError, IndexError) as error:
                profiles.problems.append((str(path), str(error)))
                continue
            row["files"] += ("," if row["files"] else "") + suffix[1:]
        if not row["files"]:
            continue
        variable, _, value = header.get("ProcessRank", "").partition("=")
        if value.strip().lstrip("-").isdigit():
            row["rank"], row["rank_from"] = int(value), f"ProcessRank {variable}={value.strip()}"
        row["host"], row["clock_id"] = header.get("HostName"), header.get("ClockId")
        rows.append(row)
        for table, frame in frames.items():
            tables[table].append((row, frame))
    if not rows:
        reasons = "; ".join(f"{path}: {reason}" for path, reason in profiles.problems) or "no files found"
        raise FileNotFoundError(f"no gpaprof files could be read from {sources!r}: {reasons}")
    by_name = ranks_from_file_names([row["profile"] for row in rows])
    for row, name_rank in zip(rows, by_name):
        if row["rank"] is None and name_rank is not None:
            row["rank"], row["rank_from"] = name_rank, "file name"
    rows.sort(key=lambda row: (row["rank"] is None, row["rank"] if row["rank"] is not None else 0, row["profile"]))
    order = {row["profile"]: index for index, row in enumerate(rows)}
    profiles.names = [row["profile"] for row in rows]
    profiles.ranks = pandas.DataFrame(rows, columns=RANK_COLUMNS)
    profiles.ranks["rank"] = pandas.array(list(profiles.ranks["rank"]), dtype="Int64")
    for table, pieces in tables.items():
        if not pieces:
            continue
        pieces.sort(key=lambda piece: order[piece[0]["profile"]])
        frames_with_rank = []
        for row, frame in pieces:
            frame = frame.copy()
            frame.insert(0, "profile", row["profile"])
            frame.insert(0, "rank", pandas.array([row["rank"]] * len(frame), dtype="Int64"))
            frames_with_rank.append(frame)
        setattr(profiles, table, pandas.concat(frames_with_rank, ignore_index=True))
    if profiles.problems:
        warnings.warn("read_profiles: could not read " +
                      "; ".join(f"{path} ({reason})" for path, reason in profiles.problems), stacklevel=2)
    return profiles
