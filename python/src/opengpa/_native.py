"""Loading a GPA library and the ctypes prototypes of its C functions (GPUPerfAPIFunctionList.h)."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Callable

from .enums import Status
from .errors import GPAError, LibraryNotFoundError

APIS = ("CL", "CUDA", "VK", "GL")

_u32 = ctypes.c_uint32
_u32p = ctypes.POINTER(ctypes.c_uint32)
_charpp = ctypes.POINTER(ctypes.c_char_p)
_status = ctypes.c_int
LoggingCallback = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p)

# name: (restype, argtypes), in the order of GPUPerfAPIFunctionList.h (tests/test_native.py compares them).
PROTOTYPES: dict[str, tuple[object, list[object]]] = {
    "GPA_RegisterLoggingCallback": (_status, [ctypes.c_int, LoggingCallback]),
    "GPA_Initialize": (_status, []),
    "GPA_Destroy": (_status, []),
    "GPA_OpenContext": (_status, [ctypes.c_void_p, ctypes.c_uint]),
    "GPA_CloseContext": (_status, []),
    "GPA_SelectContext": (_status, [ctypes.c_void_p]),
    "GPA_GetNumCounters": (_status, [_u32p]),
    "GPA_GetCounterName": (_status, [_u32, _charpp]),
    "GPA_GetCounterCategory": (_status, [_u32, _charpp]),
    "GPA_GetCounterDescription": (_status, [_u32, _charpp]),
    "GPA_GetCounterDataType": (_status, [_u32, ctypes.POINTER(ctypes.c_int)]),
    "GPA_GetCounterUsageType": (_status, [_u32, ctypes.POINTER(ctypes.c_int)]),
    "GPA_GetDataTypeAsStr": (_status, [ctypes.c_int, _charpp]),
    "GPA_GetUsageTypeAsStr": (_status, [ctypes.c_int, _charpp]),
    "GPA_GetCounterIndex": (_status, [ctypes.c_char_p, _u32p]),
    "GPA_EnableCounter": (_status, [_u32]),
    "GPA_DisableCounter": (_status, [_u32]),
    "GPA_GetEnabledCount": (_status, [_u32p]),
    "GPA_GetEnabledIndex": (_status, [_u32, _u32p]),
    "GPA_IsCounterEnabled": (_status, [_u32]),
    "GPA_EnableCounterStr": (_status, [ctypes.c_char_p]),
    "GPA_DisableCounterStr": (_status, [ctypes.c_char_p]),
    "GPA_EnableAllCounters": (_status, []),
    "GPA_DisableAllCounters": (_status, []),
    "GPA_GetPassCount": (_status, [_u32p]),
    "GPA_BeginSession": (_status, [_u32p]),
    "GPA_EndSession": (_status, []),
    "GPA_BeginPass": (_status, []),
    "GPA_EndPass": (_status, []),
    "GPA_BeginSample": (_status, [_u32]),
    "GPA_EndSample": (_status, []),
    "GPA_GetSampleCount": (_status, [_u32, _u32p]),
    "GPA_IsSampleReady": (_status, [ctypes.POINTER(ctypes.c_bool), _u32, _u32]),
    "GPA_IsSessionReady": (_status, [ctypes.POINTER(ctypes.c_bool), _u32]),
    "GPA_GetSampleUInt64": (_status, [_u32, _u32, _u32, ctypes.POINTER(ctypes.c_uint64)]),
    "GPA_GetSampleUInt32": (_status, [_u32, _u32, _u32, _u32p]),
    "GPA_GetSampleFloat64": (_status, [_u32, _u32, _u32, ctypes.POINTER(ctypes.c_double)]),
    "GPA_GetSampleFloat32": (_status, [_u32, _u32, _u32, ctypes.POINTER(ctypes.c_float)]),
    "GPA_GetStatusAsStr": (ctypes.c_char_p, [_status]),
    "GPA_GetDeviceID": (_status, [_u32p]),
    "GPA_GetDeviceDesc": (_status, [_charpp]),
    "OGPA_GetLastErrorMessage": (ctypes.c_char_p, []),
    "OGPA_SetSessionBufferSize": (_status, [_u32]),
    "OGPA_SetCommandList": (_status, [ctypes.c_void_p]),
}


def _candidates(api: str) -> list[str]:
    name = f"libGPUPerfAPI{api}.so"
    found: list[str] = []
    custom = os.environ.get("OPENGPA_LIBRARY_DIR")
    if custom:
        found.append(str(Path(custom) / name))
    found.append(str(Path(__file__).resolve().parent / "lib" / name))  # bundled in the wheel
    found.append(name)  # the dynamic loader's search: LD_LIBRARY_PATH, ld.so.cache (an installed OpenGPA)
    return found


def library_path(api: str = "CL") -> str:
    """The file the package loads for ``api`` ("CL", "CUDA", "VK" or "GL": libGPUPerfAPI<api>.so):
    $OPENGPA_LIBRARY_DIR, then the library bundled with the package, then whatever the dynamic loader finds by
    name (an installed OpenGPA)."""
    return str(_load(api)._name)


_loaded: dict[str, ctypes.CDLL] = {}


def _bind(library: ctypes.CDLL) -> ctypes.CDLL:
    """Gives every GPA function of `library` its prototype (a library without one is not a GPA library)."""
    for function, (restype, argtypes) in PROTOTYPES.items():
        entry = getattr(library, function)
        entry.restype = restype
        entry.argtypes = argtypes
    return library


def _load(api: str) -> ctypes.CDLL:
    api = api.upper()
    if api not in APIS:
        raise ValueError(f"unknown GPA API {api!r}: use one of {', '.join(APIS)}")
    if api in _loaded:
        return _loaded[api]
    problems = []
    for candidate in _candidates(api):
        if "/" in candidate and not os.path.exists(candidate):
            problems.append(f"{candidate}: no such file")
            continue
        try:
            library = ctypes.CDLL(candidate)
        except OSError as error:
            problems.append(str(error))
            continue
        _loaded[api] = _bind(library)
        return library
    raise LibraryNotFoundError(
        f"libGPUPerfAPI{api}.so could not be loaded; tried: " + "; ".join(problems) +
        ". Install OpenGPA (docs/install.md) and put its library directory in LD_LIBRARY_PATH, set"
        " OPENGPA_LIBRARY_DIR to the directory that holds the library (a build tree's lib/), or install"
        " this package with `pip install ./python`, which bundles the libraries it builds.")


class Native:
    """One loaded GPA library: each call checks the status and raises GPAError with the library's reason."""

    def __init__(self, api: str, path: str | os.PathLike[str] | None = None) -> None:
        self.api = api.upper()
        if path is not None:
            try:
                self.library = _bind(ctypes.CDLL(os.fspath(path)))
            except OSError as error:
                raise LibraryNotFoundError(f"{os.fspath(path)} could not be loaded: {error}") from error
        else:
            self.library = _load(self.api)
        self.path = str(self.library._name)

    def function(self, name: str) -> Callable[..., object]:
        return getattr(self.library, name)  # type: ignore[no-any-return]

    def check(self, name: str, *args: object) -> None:
        status = getattr(self.library, name)(*args)
        if status != Status.OK:
            raise self.error(name, status)

    def error(self, name: str, status: int) -> GPAError:
        reason_bytes = self.library.OGPA_GetLastErrorMessage()
        reason = reason_bytes.decode(errors="replace") if reason_bytes else ""
        try:
            known: Status | int = Status(status)
        except ValueError:
            known = status
        return GPAError(name, known, reason)

    def string(self, name: str, *args: object) -> str:
        value = ctypes.c_char_p()
        self.check(name, *args, ctypes.byref(value))
        return value.value.decode(errors="replace") if value.value else ""

    def uint32(self, name: str, *args: object) -> int:
        value = ctypes.c_uint32()
        self.check(name, *args, ctypes.byref(value))
        return value.value
