"""The ctypes prototypes against the C API's one list of functions, and finding the library."""

from __future__ import annotations

import re

import pytest

import opengpa
from opengpa import _native

from conftest import REPOSITORY

FUNCTION_LIST = REPOSITORY / "include" / "GPUPerfAPIFunctionList.h"


def test_prototypes_are_the_function_list() -> None:
    if not FUNCTION_LIST.exists():
        pytest.skip(f"{FUNCTION_LIST} is not here (the tests run outside the repository)")
    entries = re.findall(r"^(?:GPA|OGPA_EXTENSION)_FUNCTION\((.+?), (\w+), \((.*?)\), \(",
                         FUNCTION_LIST.read_text(), re.MULTILINE)
    assert [name for _, name, _ in entries] == list(_native.PROTOTYPES), "same functions, same order"
    for return_type, name, parameters in entries:
        restype, argtypes = _native.PROTOTYPES[name]
        count = 0 if parameters.strip() in ("", "void") else parameters.count(",") + 1
        assert len(argtypes) == count, f"{name} takes {count} parameters"
        assert (restype is _native.ctypes.c_char_p) == (return_type == "const char*"), name


def test_library_path_finds_the_opencl_library() -> None:
    path = opengpa.library_path("CL")
    assert path.endswith("libGPUPerfAPICL.so")


def test_unknown_api_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown GPA API 'METAL'"):
        opengpa.library_path("Metal")


def test_missing_library_file_says_what_was_tried(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(opengpa.LibraryNotFoundError, match="could not be loaded"):
        opengpa.Library("CL", path=tmp_path / "libGPUPerfAPICL.so")


def test_version_is_opengpas() -> None:
    cmake = REPOSITORY / "CMakeLists.txt"
    if not cmake.exists() or opengpa.__version__ == "0+unknown":
        pytest.skip("not an installed package of this repository")
    declared = re.search(r"project\(OpenGPA VERSION ([0-9.]+)", cmake.read_text())
    assert declared and opengpa.__version__ == declared.group(1)
