"""The GPA C API as Python objects: Library, Context, Session, Pass, Sample, Results.

    with opengpa.Library() as gpa:                 # GPA_Initialize ... GPA_Destroy
        with gpa.context(queue) as context:        # GPA_OpenContext ... GPA_CloseContext
            context.enable("GPUTime")
            with context.session() as session:     # GPA_BeginSession ... GPA_EndSession
                for gpa_pass in session.passes():  # GPA_BeginPass ... GPA_EndPass, as many as needed
                    with gpa_pass.sample(0):       # GPA_BeginSample(0) ... GPA_EndSample
                        run_kernel()
            print(session.results().table())       # a pandas DataFrame, or a list of dicts

Every failing call raises GPAError with the status and the library's reason. GPA keeps one selected
context per process; each call of these classes selects its own context first (as gpa.hpp does).
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Callable, Iterator, Sequence, Union

from . import handles
from ._native import Native
from .enums import DataType, OpenContextFlags, Usage

Value = Union[int, float]


@dataclass(frozen=True)
class Counter:
    """One counter of a context, as the catalog functions describe it."""

    index: int
    name: str
    group: str
    description: str
    type: DataType
    usage: Usage


class Library:
    """A GPA library of one API, initialised (GPA_Initialize) until close() or the end of a ``with`` block.

    ``api`` is "CL" (libGPUPerfAPICL.so), "CUDA", "VK" or "GL" (libGPUPerfAPIGL.so, OpenGL and OpenGL ES);
    left out, it is taken from the first context's API object (a pyopencl queue: CL; a CUcontext or no object
    at all: CUDA). ``path`` loads that file instead of searching (opengpa.library_path() says what the search
    finds).
    """

    def __init__(self, api: str | None = None, *, path: str | os.PathLike[str] | None = None) -> None:
        self._path = path
        self._native: Native | None = None
        self._contexts: list[Context] = []
        if api is not None:
            self._start(api)

    def _start(self, api: str) -> Native:
        if self._native is None:
            native = Native(api, self._path)
            native.check("GPA_Initialize")
            self._native = native
        elif self._native.api != api.upper():
            raise ValueError(f"this Library is the {self._native.api} library; open {api} contexts with "
                             f"opengpa.Library('{api.upper()}')")
        return self._native

    @property
    def api(self) -> str | None:
        return self._native.api if self._native else None

    @property
    def path(self) -> str | None:
        """The file of the loaded library."""
        return self._native.path if self._native else None

    def context(self, handle: Any = None, *, flags: OpenContextFlags | int = OpenContextFlags.DEFAULT) -> Context:
        """Opens the counters on an API object (GPA_OpenContext).

        OpenCL: a pyopencl CommandQueue created with profiling enabled (or its address). CUDA: a CUcontext
        (cuda-python, or an int), or None for the thread's current context (PyTorch's, CuPy's). GL (a
        Library("GL")): the EGLContext or GLXContext current on the calling thread, as an int, or None for it;
        every call on the context must then be made on that thread."""
        api = handles.api_of(handle)
        if handle is None and self._native is not None and self._native.api == "GL":
            api = "GL"
            handle = handles.gl_current_context()
        elif handle is None:
            api = "CUDA"
            handle = handles.cuda_current_context()
        if api is None:
            if self._native is None:
                raise ValueError("an int handle does not say its API: create the Library with the API "
                                 "(opengpa.Library('CL'), opengpa.Library('CUDA') or opengpa.Library('GL'))")
            api = self._native.api
        native = self._start(api)
        context = Context(native, handles.pointer_of(handle), OpenContextFlags(int(flags)))
        self._contexts.append(context)
        return context

    def set_session_buffer_size(self, sessions: int) -> None:
        """How many finished sessions contexts opened afterwards keep (OGPA_SetSessionBufferSize, at least 4)."""
        self._require().check("OGPA_SetSessionBufferSize", sessions)

    def status_string(self, status: int) -> str:
        value = self._require().library.GPA_GetStatusAsStr(status)
        return value.decode() if value else ""

    def _require(self) -> Native:
        if self._native is None:
            raise RuntimeError("the Library has no API yet: create it with one (opengpa.Library('CL')) or open a context")
        return self._native

    def close(self) -> None:
        """Closes the contexts left open and destroys GPA (GPA_Destroy)."""
        for context in reversed(self._contexts):
            if context.is_open:
                context.close()
        self._contexts.clear()
        if self._native is not None:
            native, self._native = self._native, None
            native.check("GPA_Destroy")

    def __enter__(self) -> Library:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class Context:
    """Counters opened on one API object; close() or the end of a ``with`` block closes them."""

    def __init__(self, native: Native, pointer: int, flags: OpenContextFlags) -> None:
        self._native = native
        self._pointer = pointer
        native.check("GPA_OpenContext", ctypes.c_void_p(pointer), int(flags))
        self._open = True
        self._counters: list[Counter] | None = None

    @property
    def handle(self) -> int:
        """The API object's address (what GPA_OpenContext got)."""
        return self._pointer

    @property
    def is_open(self) -> bool:
        return self._open

    def _select(self) -> Native:
        if not self._open:
            raise RuntimeError("the context is closed")
        self._native.check("GPA_SelectContext", ctypes.c_void_p(self._pointer))
        return self._native

    @property
    def device_description(self) -> str:
        return self._select().string("GPA_GetDeviceDesc")

    @property
    def device_id(self) -> int:
        return self._select().uint32("GPA_GetDeviceID")

    def counters(self) -> list[Counter]:
        """Every counter of the context, in index order."""
        if self._counters is None:
            native = self._select()
            found = []
            for index in range(native.uint32("GPA_GetNumCounters")):
                data_type = ctypes.c_int()
                usage = ctypes.c_int()
                native.check("GPA_GetCounterDataType", index, ctypes.byref(data_type))
                native.check("GPA_GetCounterUsageType", index, ctypes.byref(usage))
                found.append(Counter(index=index,
                                     name=native.string("GPA_GetCounterName", index),
                                     group=native.string("GPA_GetCounterCategory", index),
                                     description=native.string("GPA_GetCounterDescription", index),
                                     type=DataType(data_type.value), usage=Usage(usage.value)))
            self._counters = found
        return list(self._counters)

    def counter(self, name_or_index: str | int) -> Counter:
        """One counter, by name (GPA_GetCounterIndex) or index."""
        index = name_or_index if isinstance(name_or_index, int) else self.index_of(name_or_index)
        counters = self.counters()
        if not 0 <= index < len(counters):
            self._select().check("GPA_GetCounterName", index, ctypes.byref(ctypes.c_char_p()))  # raises
        return counters[index]

    def index_of(self, name: str) -> int:
        return self._select().uint32("GPA_GetCounterIndex", name.encode())

    def enable(self, *counters: str | int) -> None:
        """Enables counters by name or index (GPA_EnableCounterStr / GPA_EnableCounter)."""
        native = self._select()
        for counter in counters:
            if isinstance(counter, int):
                native.check("GPA_EnableCounter", counter)
            else:
                native.check("GPA_EnableCounterStr", counter.encode())

    def disable(self, *counters: str | int) -> None:
        native = self._select()
        for counter in counters:
            if isinstance(counter, int):
                native.check("GPA_DisableCounter", counter)
            else:
                native.check("GPA_DisableCounterStr", counter.encode())

    def enable_all(self) -> None:
        self._select().check("GPA_EnableAllCounters")

    def disable_all(self) -> None:
        self._select().check("GPA_DisableAllCounters")

    def enabled(self) -> list[str]:
        """The names of the enabled counters, in the order they were enabled."""
        native = self._select()
        names = self.counters()
        return [names[native.uint32("GPA_GetEnabledIndex", i)].name
                for i in range(native.uint32("GPA_GetEnabledCount"))]

    @property
    def pass_count(self) -> int:
        """Passes a session needs for the enabled counters (GPA_GetPassCount)."""
        return self._select().uint32("GPA_GetPassCount")

    def session(self) -> Session:
        """Begins a session (GPA_BeginSession); it ends with end() or at the end of a ``with`` block."""
        return Session(self)

    def results(self, session_id: int, sample_ids: Sequence[int] | None = None) -> Results:
        """The results of an earlier session of this context, by its id."""
        return Results(self, session_id, sample_ids)

    def close(self) -> None:
        if self._open:
            self._select()
            self._open = False
            self._native.check("GPA_CloseContext")

    def __enter__(self) -> Context:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class Session:
    """A session being recorded; its passes repeat the same work, each with the same samples."""

    def __init__(self, context: Context) -> None:
        self._context = context
        self._id = context._select().uint32("GPA_BeginSession")
        self._ended = False
        self._sample_ids: list[int] = []
        self._passes_done = 0

    @property
    def id(self) -> int:
        return self._id

    @property
    def pass_count(self) -> int:
        return self._context.pass_count

    def begin_pass(self) -> Pass:
        """Begins the next pass (GPA_BeginPass); it ends with end() or at the end of a ``with`` block."""
        return Pass(self)

    def passes(self) -> Iterator[Pass]:
        """Every pass the enabled counters need, each begun before it is yielded and ended after."""
        for _ in range(self.pass_count):
            with self.begin_pass() as gpa_pass:
                yield gpa_pass

    def end(self) -> Results:
        """Ends the session (GPA_EndSession) and returns its results (they may still be on their way)."""
        if not self._ended:
            self._context._select().check("GPA_EndSession")
            self._ended = True
        return self.results()

    def results(self) -> Results:
        return Results(self._context, self._id, self._sample_ids or None)

    def _record_sample(self, sample_id: int) -> None:
        if self._passes_done == 0 and sample_id not in self._sample_ids:
            self._sample_ids.append(sample_id)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:
            self.end()
        elif not self._ended:  # keep the first exception; GPA may refuse to end a broken session
            try:
                self.end()
            except Exception:
                pass


class Pass:
    """One pass of a session: the work measured, bracketed by samples."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._context = session._context
        self._context._select().check("GPA_BeginPass")
        self._ended = False

    def sample(self, sample_id: int) -> Sample:
        """Begins sample `sample_id` (GPA_BeginSample); it ends with end() or at the end of a ``with`` block."""
        sample = Sample(self._context, sample_id)
        self._session._record_sample(sample_id)
        return sample

    def measure(self, sample_id: int, work: Callable[[], object]) -> None:
        """Runs `work` inside sample `sample_id`."""
        with self.sample(sample_id):
            work()

    def end(self) -> None:
        if not self._ended:
            self._context._select().check("GPA_EndPass")
            self._ended = True
            self._session._passes_done += 1

    def __enter__(self) -> Pass:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:
            self.end()


class Sample:
    """A sample being recorded (GPA_BeginSample ... GPA_EndSample)."""

    def __init__(self, context: Context, sample_id: int) -> None:
        self._context = context
        self.id = sample_id
        context._select().check("GPA_BeginSample", sample_id)
        self._ended = False

    def end(self) -> None:
        if not self._ended:
            self._context._select().check("GPA_EndSample")
            self._ended = True

    def __enter__(self) -> Sample:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:
            self.end()


class Results:
    """The results of one ended session. Reading a value blocks until the device delivered it."""

    def __init__(self, context: Context, session_id: int, sample_ids: Sequence[int] | None = None) -> None:
        self._context = context
        self.session_id = session_id
        self._sample_ids = list(sample_ids) if sample_ids else None

    def is_ready(self) -> bool:
        """GPA_IsSessionReady: never blocks."""
        ready = ctypes.c_bool()
        self._context._select().check("GPA_IsSessionReady", ctypes.byref(ready), self.session_id)
        return bool(ready.value)

    @property
    def sample_count(self) -> int:
        return self._context._select().uint32("GPA_GetSampleCount", self.session_id)

    @property
    def sample_ids(self) -> list[int]:
        """The ids of the samples, in the order of the first pass (0..count-1 for a session opened by id)."""
        return list(self._sample_ids) if self._sample_ids is not None else list(range(self.sample_count))

    def value(self, sample_id: int, counter: str | int) -> Value:
        """One counter's result for one sample, read in the counter's own type."""
        info = self._context.counter(counter)
        native = self._context._select()
        result: ctypes.c_uint32 | ctypes.c_uint64 | ctypes.c_float | ctypes.c_double
        if info.type == DataType.UINT32:
            function, result = "GPA_GetSampleUInt32", ctypes.c_uint32()
        elif info.type == DataType.UINT64:
            function, result = "GPA_GetSampleUInt64", ctypes.c_uint64()
        elif info.type == DataType.FLOAT32:
            function, result = "GPA_GetSampleFloat32", ctypes.c_float()
        elif info.type == DataType.FLOAT64:
            function, result = "GPA_GetSampleFloat64", ctypes.c_double()
        else:
            raise TypeError(f"counter {info.name} has type {info.type.name}, which GPA cannot read")
        native.check(function, self.session_id, sample_id, info.index, ctypes.byref(result))
        return result.value

    def rows(self, counters: Sequence[str] | None = None) -> list[dict[str, Value]]:
        """One dict per sample: {"session": id, "sample": sample id, <counter>: value, ...}, for the given
        counters or every enabled one."""
        names = list(counters) if counters is not None else self._context.enabled()
        table = []
        for sample_id in self.sample_ids:
            row: dict[str, Value] = {"session": self.session_id, "sample": sample_id}
            for name in names:
                row[name] = self.value(sample_id, name)
            table.append(row)
        return table

    def to_pandas(self, counters: Sequence[str] | None = None) -> Any:
        """The rows as a pandas DataFrame indexed by sample (needs pandas)."""
        try:
            import pandas
        except ImportError as error:
            raise ImportError("Results.to_pandas() needs pandas (pip install pandas); Results.rows() "
                              "gives the same as a list of dicts") from error
        return pandas.DataFrame(self.rows(counters)).set_index("sample")

    def table(self, counters: Sequence[str] | None = None) -> Any:
        """A pandas DataFrame when pandas is installed, else the list of dicts of rows()."""
        try:
            import pandas  # noqa: F401
        except ImportError:
            return self.rows(counters)
        return self.to_pandas(counters)
