"""The binding on the default OpenCL device (PoCL in CI): contexts, sessions, passes, samples, results, errors."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import opengpa
from opengpa import GPAError, Status


def run_scale(cl: Any, queue: Any, kernel: Any, elements: int) -> None:
    data = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, elements * 4)
    kernel(queue, (elements,), None, data)


def test_gputime_of_samples_in_every_pass(cl: Any, queue: Any, scale_kernel: Any) -> None:
    with opengpa.Library() as gpa:
        with gpa.context(queue) as context:
            assert gpa.api == "CL"
            assert gpa.path and gpa.path.endswith("libGPUPerfAPICL.so")
            assert context.device_description
            names = [counter.name for counter in context.counters()]
            assert "GPUTime" in names
            gputime = context.counter("GPUTime")
            assert gputime.usage == opengpa.Usage.MILLISECONDS and gputime.type == opengpa.DataType.FLOAT64
            context.enable("GPUTime")
            assert context.enabled() == ["GPUTime"]
            with context.session() as session:
                passes = 0
                for gpa_pass in session.passes():
                    passes += 1
                    for sample, elements in enumerate((1 << 16, 1 << 20, 1 << 22)):
                        with gpa_pass.sample(sample):
                            run_scale(cl, queue, scale_kernel, elements)
            assert passes == context.pass_count >= 1
            results = session.results()
            rows = results.rows()
            assert [row["sample"] for row in rows] == [0, 1, 2]
            assert all(row["session"] == session.id for row in rows)
            assert all(isinstance(row["GPUTime"], float) and row["GPUTime"] > 0 for row in rows)
            assert results.is_ready()
            assert results.sample_count == 3
            # The same results, read again by session id, as a DataFrame.
            frame = context.results(session.id).to_pandas()
            assert list(frame.index) == [0, 1, 2]
            numpy.testing.assert_allclose(frame["GPUTime"].to_numpy(), [row["GPUTime"] for row in rows])


def test_measure_and_explicit_passes(cl: Any, queue: Any, scale_kernel: Any) -> None:
    with opengpa.Library("CL") as gpa, gpa.context(queue.int_ptr) as context:  # a raw handle, API named
        context.enable_all()
        session = context.session()
        for _ in range(session.pass_count):
            with session.begin_pass() as gpa_pass:
                gpa_pass.measure(7, lambda: run_scale(cl, queue, scale_kernel, 1 << 18))
        results = session.end()
        assert results.sample_ids == [7]
        table = results.table()
        assert list(table.index) == [7]
        assert table.loc[7, "GPUTime"] > 0


def test_errors_carry_status_and_reason(queue: Any) -> None:
    with opengpa.Library() as gpa, gpa.context(queue) as context:
        with pytest.raises(GPAError) as not_found:
            context.enable("NoSuchCounter")
        assert not_found.value.status == Status.ERROR_NOT_FOUND
        assert not_found.value.function == "GPA_EnableCounterStr"
        assert "NoSuchCounter" in not_found.value.reason
        assert "GPA_STATUS_ERROR_NOT_FOUND" in str(not_found.value)

        with pytest.raises(GPAError) as nothing_enabled:
            context.session()
        assert nothing_enabled.value.status == Status.ERROR_NO_COUNTERS_ENABLED

        context.enable("GPUTime")
        with pytest.raises(GPAError) as twice:
            context.enable("GPUTime")
        assert twice.value.status == Status.ERROR_ALREADY_ENABLED

        with pytest.raises(GPAError) as no_session:
            context.results(9999).sample_count
        assert no_session.value.status == Status.ERROR_SESSION_NOT_FOUND

        with pytest.raises(GPAError) as again:
            gpa.context(queue)
        assert again.value.status == Status.ERROR_COUNTERS_ALREADY_OPEN


def test_queue_without_profiling_is_refused_with_a_reason(cl: Any, cl_context: Any) -> None:
    plain = cl.CommandQueue(cl_context)
    with opengpa.Library() as gpa:
        with pytest.raises(GPAError) as refused:
            gpa.context(plain)
        assert refused.value.status == Status.ERROR_HARDWARE_NOT_SUPPORTED
        assert "PROFILING" in refused.value.reason.upper()


def test_second_library_instance_is_refused() -> None:
    with opengpa.Library("CL"):
        with pytest.raises(GPAError) as twice:
            opengpa.Library("CL")
        assert twice.value.status == Status.ERROR_FAILED
        assert twice.value.function == "GPA_Initialize"


def test_int_handle_needs_an_api() -> None:
    with opengpa.Library() as gpa:
        with pytest.raises(ValueError, match="does not say its API"):
            gpa.context(12345)
