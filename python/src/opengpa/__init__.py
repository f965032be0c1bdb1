"""OpenGPA for Python: the GPU Performance API (GPA 2.x) over OpenGPA's libraries, and gpaprof's files.

    import opengpa
    with opengpa.Library() as gpa, gpa.context(queue) as context:   # a pyopencl queue, or a CUDA context
        ...
    with opengpa.Library("GL") as gpa, gpa.context() as context:    # the thread's current EGL/GLX context
        ...
    profile = opengpa.read_profile("out/run")                       # gpaprof's .csv/.atp/.occupancy/.pmsampling.csv
    profiles = opengpa.read_profiles("out/run_*")                   # several ranks': a `rank` column each

docs/python.md has the whole story.
"""

from __future__ import annotations

from ._native import APIS, library_path
from .enums import DataType, OpenContextFlags, Status, Usage
from .errors import GPAError, LibraryNotFoundError
from .handles import cuda_current_context, gl_current_context
from .library import Context, Counter, Library, Pass, Results, Sample, Session
from .profile import Profile, read_profile
from .profiles import Profiles, read_profiles

try:  # the installed distribution's version (OpenGPA's); from a source tree, 0+unknown
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("opengpa")
except PackageNotFoundError:
    __version__ = "0+unknown"

__all__ = [
    "APIS", "Context", "Counter", "DataType", "GPAError", "Library", "LibraryNotFoundError", "OpenContextFlags",
    "Pass", "Profile", "Profiles", "Results", "Sample", "Session", "Status", "Usage", "cuda_current_context",
    "gl_current_context", "library_path", "read_profile", "read_profiles",
]
