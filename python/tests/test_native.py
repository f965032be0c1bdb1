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


def test_every_api_has_its_library_file() -> None:
    assert opengpa.APIS == ("CL", "CUDA", "VK", "GL")
    for api in opengpa.APIS:
        # The loader's own search by name comes last, after $OPENGPA_LIBRARY_DIR and the bundled file.
        assert _native._candidates(api)[-1] == f"libGPUPerfAPI{api}.so"
        assert _native._candidates(api)[-2].endswith(f"/lib/libGPUPerfAPI{api}.so")


def test_api_names_are_taken_in_any_case(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A directory without the library: the error names the file of the API asked for, whatever its case.
    monkeypatch.setattr(_native, "_loaded", {})
    monkeypatch.setattr(_native, "_candidates", lambda api: [str(tmp_path / f"libGPUPerfAPI{api}.so")])
    with pytest.raises(opengpa.LibraryNotFoundError, match="libGPUPerfAPIGL.so could not be loaded"):
        opengpa.library_path("gl")


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
