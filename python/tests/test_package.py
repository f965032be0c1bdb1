"""The package's declared metadata: `pip install "./python[pandas]"` pulls pandas."""

from __future__ import annotations

import importlib.metadata
import re
import sys

import pytest

from conftest import REPOSITORY

PYPROJECT = REPOSITORY / "python" / "pyproject.toml"


def test_pyproject_declares_the_pandas_extra() -> None:
    if not PYPROJECT.exists():
        pytest.skip(f"{PYPROJECT} is not here (the tests run outside the repository)")
    if sys.version_info < (3, 11):
        pytest.skip("tomllib needs Python 3.11")
    import tomllib

    project = tomllib.loads(PYPROJECT.read_text())["project"]
    extras = project.get("optional-dependencies", {})
    assert "pandas" in extras, "pyproject.toml has no [project.optional-dependencies] pandas"
    assert any(re.match(r"pandas\b", requirement) for requirement in extras["pandas"]), extras["pandas"]
    # pandas stays optional: the plain install does not pull it.
    assert not any(re.match(r"pandas\b", requirement) for requirement in project.get("dependencies", []))


def test_installed_package_declares_the_pandas_extra() -> None:
    try:
        metadata = importlib.metadata.metadata("opengpa")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("opengpa is not installed (the tests run on the sources, PYTHONPATH=python/src)")
    assert "pandas" in (metadata.get_all("Provides-Extra") or []), metadata.get_all("Provides-Extra")
    requires = metadata.get_all("Requires-Dist") or []
    # Written by the build backend as: pandas; extra == "pandas"
    pulled = [r for r in requires if re.match(r"pandas\b", r) and re.search(r"extra\s*==\s*['\"]pandas['\"]", r)]
    assert pulled, requires
    unconditional = [r for r in requires if re.match(r"pandas\b", r) and "extra" not in r]
    assert not unconditional, f"pandas is required without the extra: {unconditional}"
