"""opengpa.read_profile on files gpaprof writes in this test run, and the parsers on the documented layouts."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import opengpa
from opengpa import profile as profile_files

APPLICATION = textwrap.dedent("""
    import numpy, pyopencl as cl
    context = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(context)
    program = cl.Program(context, "__kernel void scale(__global float* x) "
                                  "{ size_t i = get_global_id(0); x[i] = 2.0f * x[i] + 1.0f; }").build()
    host = numpy.ones(1 << 16, dtype=numpy.float32)
    data = cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    for _ in range(5):
        program.scale(queue, host.shape, (64,), data)
    cl.enqueue_copy(queue, host, data)
    queue.finish()
    assert host[0] == 63.0, host[0]
    print("application done")
""")


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory, gpaprof: str) -> Path:
    """gpaprof -t -p -O on a pyopencl program; the -o name of the files."""
    try:
        import pyopencl  # noqa: F401
    except ImportError:
        pytest.skip("pyopencl is not installed: the profiled application uses it")
    work = tmp_path_factory.mktemp("gpaprof")
    script = work / "application.py"
    script.write_text(APPLICATION)
    run = subprocess.run([gpaprof, "-t", "-p", "-O", "-o", str(work / "run"), "--", sys.executable, str(script)],
                         cwd=work, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "application done" in run.stdout
    return work / "run"


def test_read_profile_reads_what_gpaprof_wrote(profiled: Path) -> None:
    profile = opengpa.read_profile(profiled)
    dispatches = profile.dispatches
    assert len(dispatches) == 5
    assert profile.dispatches_header["API"] == "OpenCL"
    assert dispatches["Method"].str.match(r"^scale__k\d+_").all()  # pyopencl makes a kernel object per launch
    assert list(dispatches["ExecutionOrder"]) == [1, 2, 3, 4, 5]
    assert (dispatches["Time"] > 0).all()
    assert (dispatches["GPUTime"] > 0).all()
    assert all(size == (64, 1, 1) for size in dispatches["WorkGroupSize"])
    assert all(size == (1 << 16, 1, 1) for size in dispatches["GlobalWorkSize"])

    calls = profile.api_calls
    launches = calls[calls["function"] == "clEnqueueNDRangeKernel"]
    assert len(launches) == 5
    assert (launches["kernel_name"] == "scale").all()
    assert (launches["end"] >= launches["start"]).all() and (launches["start"] > 0).all()
    assert (launches["return_value"] == "CL_SUCCESS").all()
    copies = calls[calls["function"].str.startswith("clEnqueueReadBuffer")]
    assert (copies["transfer_size"] == 4 << 16).all() and len(copies) == 1
    # The .csv's CallIndex is the launch's index in its thread's API trace.
    assert sorted(dispatches["CallIndex"]) == sorted(launches["call_index"])

    occupancy = profile.occupancy
    assert len(occupancy) == 5
    assert int(profile.occupancy_header["KernelCount"]) == 5
    assert (occupancy["Kernel Name"] == "scale").all()
    assert (occupancy["Work-group size"] == 64).all()


def test_read_profile_takes_a_file_name_too(profiled: Path) -> None:
    assert len(opengpa.read_profile(str(profiled) + ".csv").dispatches) == 5


def test_read_profile_without_files_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no gpaprof files named"):
        opengpa.read_profile(tmp_path / "nothing")


# The CUDA part's layout, from docs/profiler_files.md (an H200 run); markers as gpaprof writes them.
CUDA_ATP = """TraceFileVersion=3.2
Application=/work/runtime_kernels
Device NVIDIA H200 Platform Vendor = NVIDIA Corporation
=====cuda API Trace Output=====
1513
3
cudaSuccess = cudaMalloc ( [0x00007FD24C800000];4194304 )
cudaSuccess = cudaMemcpy ( 0x00007FD24C800000;0x00007FD4695F7010;4194304;cudaMemcpyHostToDevice )
cudaSuccess = cudaLaunchKernel ( 0x0000557E3E6E65B0;{4096,1,1};{256,1,1};0x00007FFDEB1E4660;0;NULL )
=====cuda Timestamp Output=====
1513
3
20   cudaMalloc       68370488587  68370586382
31   cudaMemcpy       68370706978  68374083091  17  CUDA_MEMCPY_HTOD  0  0  68370831673  68371173626  7  0x0000000000000000  1  0x0000557E3D3FD470  NVIDIA_H200  4194304
211  cudaLaunchKernel 68959132825  68986042130  1   CUDA_KERNEL       0  0  68960000000  68960100000  7  0x0000000000000000  1  0x0000557E3D3FD470  NVIDIA_H200  0x0000557E3E6E2F80  _Z9block_sumPfPKf {131072,1,1} {256,1,1}
=====cuda Kernel Timestamp Output=====
1
_Z5saxpyPfPKffi   0x0000557E3E6E65B0   0   0   NVIDIA_H200   0x0000000000000000   7   0   CUDA_KERNEL   127   {grid={4096,1,1},block={256,1,1},registers=16}
=====Perfmarker Output=====
1513
3
clBeginPerfMarker solve&nbsp;step 68370000000 physics
clBeginPerfMarker inner 68370000100 ""
clEndPerfMarker 68370000200
"""


def test_parse_atp_of_the_cuda_layout() -> None:
    atp = profile_files.parse_atp(CUDA_ATP)
    assert atp.header["Application"] == "/work/runtime_kernels"
    assert atp.header["Device NVIDIA H200 Platform Vendor"] == "NVIDIA Corporation"
    malloc, memcpy, launch = atp.api_calls
    assert malloc["function"] == "cudaMalloc" and malloc["command_name"] is None
    assert malloc["arguments"] == "[0x00007FD24C800000];4194304" and malloc["return_value"] == "cudaSuccess"
    assert memcpy["command_name"] == "CUDA_MEMCPY_HTOD" and memcpy["transfer_size"] == 4194304
    assert memcpy["queue_id"] == 7 and memcpy["device"] == "NVIDIA_H200"
    assert launch["kernel_name"] == "_Z9block_sumPfPKf" and launch["global_size"] == (131072, 1, 1)
    assert launch["start"] == 68960000000 and launch["api_type"] == 211 and launch["thread_id"] == 1513
    (kernel,) = atp.kernels
    assert kernel["kernel_name"] == "_Z5saxpyPfPKffi" and kernel["packet_type"] == "CUDA_KERNEL"
    assert kernel["packet_id"] == 127 and kernel["fields"] == "{grid={4096,1,1},block={256,1,1},registers=16}"
    begin, inner, end = atp.markers
    assert (begin["kind"], begin["name"], begin["group"], begin["time"]) == ("begin", "solve step", "physics", 68370000000)
    assert inner["group"] == "" and end["kind"] == "end" and end["time"] == 68370000200


def test_parse_csv_with_another_separator_and_na() -> None:
    text = ("#ProfileFileVersion=3.0\n#API=OpenCL\n#ListSeparator=;\n"
            "Method; ExecutionOrder; ThreadID; CallIndex; GlobalWorkSize; WorkGroupSize; Time; LocalMemSize; "
            "VGPRs; SGPRs; ScratchRegs; KernelOccupancy; GPUTime\n"
            "k__k1_CPU1; 1; 77; 4; {   1024       1       1}; NULL;         0.01000; 0; NA; NA; NA; NA;      0.01000\n")
    table = profile_files.parse_csv(text)
    (row,) = table.rows
    assert row["Method"] == "k__k1_CPU1" and row["CallIndex"] == 4 and row["VGPRs"] is None
    assert row["Time"] == pytest.approx(0.01) and row["WorkGroupSize"] == "NULL"
    assert row["GlobalWorkSize"] == (1024, 1, 1)
    assert table.columns[-1] == "GPUTime"


# A CUDA .csv with rows of graph launches (gpaprof --graph-profiling node, then graph): an eager row, two kernel
# nodes of graph launch 1, and a whole-graph row of launch 2 (no node, no work sizes).
CUDA_GRAPH_CSV = """#ProfileFileVersion=3.0
#API=CUDA
#ListSeparator=,
Method, ExecutionOrder, ThreadID, CallIndex, GlobalWorkSize, WorkGroupSize, Time, LocalMemSize, VGPRs, SGPRs, \
ScratchRegs, KernelOccupancy, GraphLaunch, GraphNode, GPUTime, Wavefronts
_Z4fillPfi__k1_NVIDIA H2001, 1, 77, 4, {   4096       1       1}, {  256     1     1},         0.00300, 0, 16, NA, 0, \
      100.00, NA, NA,         0.00300, 128
_Z4fillPfi__k1_NVIDIA H2001, 2, 77, 9, {   4096       1       1}, {  256     1     1},         0.00310, 0, 16, NA, 0, \
      100.00, 1, 18446744073709551615,         0.00310, 128
_Z5scalePfi__k2_NVIDIA H2001, 3, 77, 9, {   8192       1       1}, {  256     1     1},         0.00420, 0, 18, NA, 0, \
      100.00, 1, 5,         0.00420, 256
graph__k3_NVIDIA H2001, 4, 77, 12, NULL, NULL,         0.00800, 0, NA, NA, NA, NA, 2, NA,         0.00800, 384
"""


def test_parse_csv_graph_columns_are_integers_not_counters() -> None:
    table = profile_files.parse_csv(CUDA_GRAPH_CSV)
    eager, first, second, whole = table.rows
    assert (eager["GraphLaunch"], eager["GraphNode"]) == (None, None)
    assert (first["GraphLaunch"], first["GraphNode"]) == (1, 18446744073709551615)
    assert (second["GraphLaunch"], second["GraphNode"]) == (1, 5)
    assert (whole["GraphLaunch"], whole["GraphNode"]) == (2, None)
    assert whole["GlobalWorkSize"] == "NULL" and whole["WorkGroupSize"] == "NULL"
    assert first["GlobalWorkSize"] == (4096, 1, 1) and first["Method"] == "_Z4fillPfi__k1_NVIDIA H2001"
    assert profile_files.counter_columns(table.columns) == ["GPUTime", "Wavefronts"]
    assert set(profile_files.CSV_GRAPH_COLUMNS) <= set(profile_files.CSV_STATISTIC_COLUMNS)


def test_read_profile_graph_columns(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas")
    (tmp_path / "graphs.csv").write_text(CUDA_GRAPH_CSV)
    profile = opengpa.read_profile(tmp_path / "graphs")
    dispatches = profile.dispatches
    assert profile.counters == ["GPUTime", "Wavefronts"]
    assert list(dispatches.columns[12:14]) == ["GraphLaunch", "GraphNode"]
    assert str(dispatches["GraphLaunch"].dtype) == "UInt64" and str(dispatches["GraphNode"].dtype) == "UInt64"
    assert dispatches["GraphLaunch"].isna().tolist() == [True, False, False, False]
    assert dispatches["GraphNode"].isna().tolist() == [True, False, False, True]
    assert int(dispatches["GraphNode"][1]) == 18446744073709551615  # exact: no float in between
    assert dispatches["GraphLaunch"].dropna().tolist() == [1, 1, 2]
    assert dispatches.loc[dispatches["GraphLaunch"] == 1, "ExecutionOrder"].tolist() == [2, 3]  # NA rows: not 1
    assert dispatches["GPUTime"].dtype == float and pandas.api.types.is_integer_dtype(dispatches["Wavefronts"])
    # A file without graph rows has no such columns.
    (tmp_path / "plain.csv").write_text("#ListSeparator=,\nMethod, ExecutionOrder, GPUTime\nk__k1_CPU1, 1, 0.5\n")
    plain = opengpa.read_profile(tmp_path / "plain")
    assert "GraphLaunch" not in plain.dispatches.columns and plain.counters == ["GPUTime"]


def test_parse_csv_refuses_a_short_row() -> None:
    with pytest.raises(ValueError, match="fields"):
        profile_files.parse_csv("#ListSeparator=,\nMethod, Time\nk, 1, 2\n")


def test_read_profile_without_pandas_says_what_to_use(monkeypatch: Any, profiled: Path) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="parse_csv"):
        opengpa.read_profile(profiled)


# <name>.pmsampling.csv as docs/profiler_files.md lays it out (the C++ writer's text in
# tests/tools/gpaprof/pm_sampling_file_test.cpp): two devices, NA values, both flags, a metric left out.
PM_SAMPLING = """# PmSamplingFileVersion=1
# ProfilerVersion=0.1.0
# Application=/opt/app/bin/solver
# ApplicationArgs=--size 64 "two words"
# WorkingDirectory=/home/user/run
# OS Version=Debian GNU/Linux 12 (bookworm) Build 6.1.0
# DisplayName=session1
# ListSeparator=;
# IntervalNs=100000
# Device0=NVIDIA H100 80GB HBM3 (GH100)
# Device1=NVIDIA H100 80GB HBM3 (GH100)
# LeftOut=nvlrx__bytes.sum: the chip's PM-sampling catalog has no such metric
Device;StartNs;EndNs;Flags;sm__cycles_active.avg.pct_of_peak_sustained_elapsed;dram__bytes_read.sum
0;1000000;1100000;;12.5;1048576
1;1000050;1100050;;NA;0
0;1100000;1200000;replay;99.75;NA
0;1500000;1600000;dropped-before;0.001;3500000000000
1;1300050;1400050;dropped-before|replay;100;2048
"""
SM = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"
DRAM = "dram__bytes_read.sum"


def test_parse_pm_sampling() -> None:
    table = profile_files.parse_pm_sampling(PM_SAMPLING)
    assert table.interval_ns == 100000
    assert table.devices == {0: ("NVIDIA H100 80GB HBM3", "GH100"), 1: ("NVIDIA H100 80GB HBM3", "GH100")}
    assert table.left_out == {"nvlrx__bytes.sum": "the chip's PM-sampling catalog has no such metric"}
    assert table.metrics == [SM, DRAM]
    assert table.header["Application"] == "/opt/app/bin/solver"
    first, second, replay, dropped, both = table.rows
    assert first == {"device": 0, "start_ns": 1000000, "end_ns": 1100000, "flags": "", SM: 12.5, DRAM: 1048576.0}
    assert second[SM] is None and second[DRAM] == 0.0  # NA is unknown; a measured 0 stays 0
    assert replay["flags"] == "replay" and replay[DRAM] is None
    assert dropped["flags"] == "dropped-before" and dropped[DRAM] == 3.5e12
    assert both["flags"] == "dropped-before|replay" and both["device"] == 1


def test_parse_pm_sampling_refuses_what_the_layout_does_not_allow() -> None:
    with pytest.raises(ValueError, match="fields"):
        profile_files.parse_pm_sampling(PM_SAMPLING + "0;1;2;;3\n")
    with pytest.raises(ValueError, match="flags"):
        profile_files.parse_pm_sampling(PM_SAMPLING + "0;1;2;overflow;3;4\n")
    with pytest.raises(ValueError, match="column row"):
        profile_files.parse_pm_sampling("# ListSeparator=,\nStart,End\n1,2\n")


def test_read_profile_pm_samples(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas")
    (tmp_path / "run.pmsampling.csv").write_text(PM_SAMPLING)
    profile = opengpa.read_profile(tmp_path / "run")
    samples = profile.pm_samples
    assert list(samples.columns) == ["device", "start_ns", "end_ns", "flags", SM, DRAM]
    assert samples["device"].tolist() == [0, 1, 0, 0, 1]
    assert str(samples["start_ns"].dtype) == "uint64" and samples["end_ns"].tolist()[0] == 1100000
    assert samples["flags"].tolist() == ["", "", "replay", "dropped-before", "dropped-before|replay"]
    assert samples[SM].isna().tolist() == [False, True, False, False, False]
    assert samples[DRAM].isna().tolist() == [False, False, True, False, False]
    assert samples[DRAM][1] == 0.0 and samples[DRAM][3] == 3.5e12
    assert pandas.api.types.is_float_dtype(samples[SM])
    # Application samples only: leave out gpaprof's replay windows.
    application = samples[~samples["flags"].str.contains("replay")]
    assert application[SM].mean() == pytest.approx((12.5 + 0.001) / 2)
    assert profile.pm_sampling is not None and profile.pm_sampling.interval_ns == 100000
    assert profile.dispatches is None and profile.api_calls is None
    # The file's own name works too, and does not read run.csv for it.
    assert len(opengpa.read_profile(tmp_path / "run.pmsampling.csv").pm_samples) == 5
