"""opengpa.read_profiles on several processes' files: one DataFrame per table with a rank column, ranks from
ProcessRank= or the file names, files that cannot be read named with the reason while the others are read."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any, Optional

import pytest

import opengpa
from opengpa.profiles import ranks_from_file_names


def atp(rank_line: str, kernel_start: int, kernel: str = "_Z9block_sumPfPKf") -> str:
    """A CUDA trace of one thread: cudaMalloc, then one launch whose kernel runs 100 us from kernel_start."""
    return f"""TraceFileVersion=3.2
Application=/usr/bin/python3
DisplayName=run
HostName=node07
ClockId=boot-7
{rank_line}
=====cuda API Trace Output=====
1513
2
cudaSuccess = cudaMalloc ( [0x00007FD24C800000];4194304 )
cudaSuccess = cudaLaunchKernel ( 0x0000557E3E6E65B0;{{4096,1,1}};{{256,1,1}};0x00007FFDEB1E4660;0;NULL )
=====cuda Timestamp Output=====
1513
2
20   cudaMalloc       68370488587  68370586382
211  cudaLaunchKernel 68959132825  68959142130  1   CUDA_KERNEL  0  0  {kernel_start}  {kernel_start + 100000}  7  0x0000000000000000  1  0x0000557E3D3FD470  NVIDIA_H200  0x0000557E3E6E2F80  {kernel} {{131072,1,1}} {{256,1,1}}
"""


CSV = """#ProfileFileVersion=3.0
#API=CUDA
#ListSeparator=,
Method, ExecutionOrder, ThreadID, CallIndex, GlobalWorkSize, WorkGroupSize, Time, LocalMemSize, VGPRs, SGPRs, \
ScratchRegs, KernelOccupancy, GPUTime
_Z9block_sumPfPKf__k1_NVIDIA H2001, 1, 1513, 1, {{ 131072       1       1}}, {{  256     1     1}},         0.{ms:05d}, 0, 32, NA, 0,       100.00,         0.{ms:05d}
"""


@pytest.fixture()
def ranks(tmp_path: Path) -> Path:
    """Ranks 0-2 by their ProcessRank lines (the names say 10, 11, 12), a launcher without a rank, two bad files."""
    for index, rank in enumerate((2, 0, 1)):
        (tmp_path / f"run_{10 + index}.atp").write_text(atp(f"ProcessRank=RANK={rank}", 68960000000 + rank * 1000))
        (tmp_path / f"run_{10 + index}.csv").write_text(CSV.format(ms=100 + rank))
    (tmp_path / "run_unset-RANK.atp").write_text(atp("", 68960000000))
    (tmp_path / "run_13.atp").write_text("")
    (tmp_path / "run_14.atp").write_text("not a trace\n")
    (tmp_path / "run_14.csv").write_text("#ProfileFileVersion=3.0\n#ListSeparator=,\nMethod, Time\nk, 1, 2\n")
    (tmp_path / "notes.txt").write_text("not gpaprof's\n")
    return tmp_path


def test_read_profiles_one_table_per_kind_with_a_rank_column(ranks: Path) -> None:
    pytest.importorskip("pandas")
    with pytest.warns(UserWarning, match="could not read"):
        profiles = opengpa.read_profiles(str(ranks / "run_*"))
    table = profiles.ranks
    assert table["rank"].tolist()[:3] == [0, 1, 2] and table["rank"].isna().tolist() == [False] * 3 + [True]
    assert table["profile"].tolist() == [str(ranks / n) for n in ("run_11", "run_12", "run_10", "run_unset-RANK")]
    assert table["rank_from"].tolist() == ["ProcessRank RANK=0", "ProcessRank RANK=1", "ProcessRank RANK=2", "none"]
    assert table["host"].tolist() == ["node07"] * 4 and table["clock_id"].tolist() == ["boot-7"] * 4
    assert table["files"].tolist() == ["atp,csv", "atp,csv", "atp,csv", "atp"]
    assert profiles.names == table["profile"].tolist()

    calls = profiles.api_calls
    assert list(calls.columns[:2]) == ["rank", "profile"] and str(calls["rank"].dtype) == "Int64"
    assert len(calls) == 8  # 2 calls of 4 processes
    launches = calls[calls["function"] == "cudaLaunchKernel"]
    assert launches["rank"].tolist()[:3] == [0, 1, 2]
    assert launches["start"].tolist()[:3] == [68960000000, 68960001000, 68960002000]  # each rank's own kernel

    dispatches = profiles.dispatches
    assert dispatches["rank"].tolist() == [0, 1, 2]
    assert dispatches["GPUTime"].tolist() == [0.001, 0.00101, 0.00102]
    assert profiles.counters == ["GPUTime"]
    assert profiles.occupancy is None  # gpaprof ran without -O

    problems = dict(profiles.problems)
    assert problems[str(ranks / "run_13.atp")] == "the file is empty"
    assert problems[str(ranks / "run_14.atp")].startswith("not a gpaprof .atp file")
    assert "fields" in problems[str(ranks / "run_14.csv")]
    assert len(problems) == 3


def test_read_profiles_takes_a_folder_files_and_ranks_from_names(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    for rank in (3, 1):
        (tmp_path / f"resnet18_rank{rank}.atp").write_text(atp("", 68960000000 + rank))
    from_folder = opengpa.read_profiles(tmp_path)
    assert from_folder.ranks["rank"].tolist() == [1, 3]
    assert from_folder.ranks["rank_from"].tolist() == ["file name", "file name"]
    from_list = opengpa.read_profiles([tmp_path / "resnet18_rank3.atp", tmp_path / "resnet18_rank1"])
    assert from_list.ranks["rank"].tolist() == [1, 3] and not from_list.problems
    assert from_list.kernels is not None and len(from_list.kernels) == 0


def test_read_profiles_when_nothing_can_be_read(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    (tmp_path / "run_0.atp").write_text("garbage\n")
    with pytest.raises(FileNotFoundError, match="run_0.atp: not a gpaprof .atp file"):
        opengpa.read_profiles(tmp_path / "run_*")
    with pytest.raises(FileNotFoundError, match="no files found"):
        opengpa.read_profiles(tmp_path / "nothing_*")


def test_read_profiles_without_pandas_says_what_to_use(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="parse_csv"):
        opengpa.read_profiles(tmp_path)


RankList = list[Optional[int]]


@pytest.mark.parametrize("names, expected", [
    (["out/run_0.atp", "out/run_1.atp", "out/run_10.atp"], [0, 1, 10]),
    (["resnet18_run_3", "resnet18_run_4"], [3, 4]),
    (["run_3.4321", "run_4.4400"], [3, 4]),
    (["job7_rank-12_x.atp", "job7_rank5_x.atp"], [12, 5]),
    (["node2_gpu0", "node2_gpu1", "node3_gpu0", "node3_gpu1"], [None] * 4),
    (["run_0", "run_1", "run_unset-RANK"], [0, 1, None]),
    (["out/run_7.csv"], [7]),
    (["trace", "other"], [None, None]),
])
def test_ranks_from_file_names_as_gpaprof_report(names: list[str], expected: RankList) -> None:
    assert ranks_from_file_names(names) == expected


def test_read_profiles_reads_what_gpaprof_wrote_for_ranks(tmp_path: Path, gpaprof: str) -> None:
    """gpaprof -t -p on a launcher starting two pyopencl ranks: read back with each rank's RANK."""
    pytest.importorskip("pandas")
    try:
        import pyopencl  # noqa: F401
    except ImportError:
        pytest.skip("pyopencl is not installed: the profiled application uses it")
    import subprocess
    from test_profile import APPLICATION
    script = tmp_path / "application.py"
    script.write_text(APPLICATION)
    launcher = f"for r in 0 1; do RANK=$r {sys.executable} {script} & done; wait"
    run = subprocess.run([gpaprof, "-t", "-p", "-o", str(tmp_path / "run_%q{RANK}"), "--", "sh", "-c", launcher],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        profiles = opengpa.read_profiles(tmp_path / "run_*")
    assert profiles.ranks["rank"].tolist() == [0, 1]
    assert profiles.ranks["rank_from"].tolist() == ["ProcessRank RANK=0", "ProcessRank RANK=1"]
    assert profiles.dispatches.groupby("rank").size().tolist() == [5, 5]
    assert (profiles.api_calls["function"] == "clEnqueueNDRangeKernel").sum() == 10
