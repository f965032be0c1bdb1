"""The binding on a CUDA device, with PyTorch's context (runs on the GPU machine; skips without a device)."""

from __future__ import annotations

from typing import Any

import pytest

import opengpa
from opengpa import GPAError, Status

from conftest import unavailable


@pytest.fixture(scope="module")
def torch_cuda() -> Any:
    try:
        import torch
    except ImportError as error:
        unavailable("cuda", f"PyTorch is not installed ({error})")
    if not torch.cuda.is_available():
        unavailable("cuda", "no CUDA device: PyTorch sees none")
    try:
        opengpa.library_path("CUDA")
    except opengpa.LibraryNotFoundError as error:
        unavailable("cuda", str(error))
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    return torch


def test_current_context_is_pytorchs(torch_cuda: Any) -> None:
    handle = opengpa.cuda_current_context()
    assert handle != 0
    with opengpa.Library() as gpa, gpa.context() as context:
        assert gpa.api == "CUDA" and context.handle == handle
        assert "NVIDIA" in context.device_description or context.device_description


def test_gputime_grows_with_the_work(torch_cuda: Any) -> None:
    torch = torch_cuda
    sizes = [512, 2048, 4096]
    matrices = [(torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")) for n in sizes]
    for a, b in matrices:  # warm-up outside the samples
        torch.matmul(a, b)
    torch.cuda.synchronize()
    with opengpa.Library("CUDA") as gpa, gpa.context(opengpa.cuda_current_context()) as context:
        context.enable("GPUTime")
        with context.session() as session:
            for gpa_pass in session.passes():
                for sample, (a, b) in enumerate(matrices):
                    with gpa_pass.sample(sample):
                        torch.matmul(a, b)
                torch.cuda.synchronize()
        rows = session.results().rows()
    times = [float(row["GPUTime"]) for row in rows]
    assert all(time > 0 for time in times)
    assert times[0] < times[1] < times[2], times  # 4x, 8x the flops of the step before


def test_counters_of_several_passes(torch_cuda: Any) -> None:
    torch = torch_cuda
    a = torch.randn(2048, 2048, device="cuda")
    torch.cuda.synchronize()
    with opengpa.Library() as gpa, gpa.context() as context:
        names = {counter.name for counter in context.counters()}
        wanted = [name for name in ("GPUTime", "Wavefronts", "FetchSize", "WriteSize") if name in names]
        context.enable(*wanted)
        with context.session() as session:
            for gpa_pass in session.passes():
                with gpa_pass.sample(0):
                    (a @ a).sum()
                torch.cuda.synchronize()
        (row,) = session.results().rows()
        assert row["GPUTime"] > 0
        if "Wavefronts" in row:
            assert row["Wavefronts"] > 0
        if "FetchSize" in row:
            assert row["FetchSize"] > 0


def test_errors_on_cuda(torch_cuda: Any) -> None:
    with opengpa.Library() as gpa, gpa.context() as context:
        with pytest.raises(GPAError) as refused:
            context.enable("NoSuchCounter")
        assert refused.value.status == Status.ERROR_NOT_FOUND and refused.value.reason


def test_context_from_cuda_python(torch_cuda: Any) -> None:
    try:
        from cuda.bindings import driver
    except ImportError:
        pytest.skip("cuda-python (cuda.bindings) is not installed")
    error, current = driver.cuCtxGetCurrent()
    assert error == driver.CUresult.CUDA_SUCCESS
    with opengpa.Library() as gpa, gpa.context(current) as context:  # a CUcontext object: the CUDA library
        assert gpa.api == "CUDA" and context.handle == int(current) == opengpa.cuda_current_context()


def test_cupy_work_in_the_current_context(torch_cuda: Any) -> None:
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy is not installed")
    cupy.cuda.Device(0).use()
    x = cupy.ones(1 << 24, dtype=cupy.float32)
    cupy.cuda.Device(0).synchronize()
    with opengpa.Library() as gpa, gpa.context() as context:
        context.enable("GPUTime")
        with context.session() as session:
            for gpa_pass in session.passes():
                with gpa_pass.sample(0):
                    (x * 2.0).sum()
                cupy.cuda.Device(0).synchronize()
        assert session.results().rows()[0]["GPUTime"] > 0
