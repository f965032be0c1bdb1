"""Fixtures of the opengpa tests: an OpenCL queue on the default device (PoCL in CI), gpaprof.

A test whose device or tool is missing skips with the reason, unless OPENGPA_TEST_REQUIRE names it
(opencl, gpaprof, cuda, opengl; comma-separated): then it fails, so that CI cannot pass without running it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator, NoReturn

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def unavailable(what: str, reason: str) -> NoReturn:
    required = {name.strip() for name in os.environ.get("OPENGPA_TEST_REQUIRE", "").split(",")}
    if what in required:
        pytest.fail(f"{reason} (OPENGPA_TEST_REQUIRE names {what})")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def cl() -> Any:
    try:
        import pyopencl
    except ImportError as error:
        unavailable("opencl", f"pyopencl is not installed ({error}): apt-get install python3-pyopencl")
    return pyopencl


@pytest.fixture(scope="session")
def cl_context(cl: Any) -> Any:
    try:
        platforms = cl.get_platforms()
    except cl.Error as error:
        unavailable("opencl", f"no OpenCL platform: {error}")
    devices = [device for platform in platforms for device in platform.get_devices()]
    if not devices:
        unavailable("opencl", "no OpenCL device")
    return cl.Context([devices[0]])


@pytest.fixture()
def queue(cl: Any, cl_context: Any) -> Iterator[Any]:
    """A command queue with profiling enabled, as GPA's OpenCL library requires."""
    queue = cl.CommandQueue(cl_context, properties=cl.command_queue_properties.PROFILING_ENABLE)
    yield queue
    queue.finish()


@pytest.fixture(scope="session")
def scale_kernel(cl: Any, cl_context: Any) -> Any:
    source = "__kernel void scale(__global float* x) { size_t i = get_global_id(0); x[i] = 2.0f * x[i] + 1.0f; }"
    return cl.Program(cl_context, source).build().scale


@pytest.fixture(scope="session")
def gpaprof() -> str:
    path = os.environ.get("OPENGPA_GPAPROF") or shutil.which("gpaprof")
    if not path or not os.access(path, os.X_OK):
        unavailable("gpaprof", "gpaprof not found: set OPENGPA_GPAPROF to an installed or built bin/gpaprof")
    return path
