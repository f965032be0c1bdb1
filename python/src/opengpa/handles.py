"""The API objects GPA_OpenContext takes, from what Python programs hold.

OpenCL: a cl_command_queue created with profiling enabled, from pyopencl (``queue.int_ptr``) or as an int.
CUDA: a CUcontext, from cuda-python (``cuda.bindings.driver.CUcontext``), as an int, or the calling thread's
current context (``cuda_current_context()``: what PyTorch, CuPy and the CUDA runtime made current).
GL: the EGLContext (or GLXContext) current on the calling thread, as an int (``gl_current_context()``).
"""

from __future__ import annotations

import ctypes
from typing import Any


def cuda_current_context() -> int:
    """The CUcontext current on the calling thread (cuCtxGetCurrent), as an int.

    PyTorch and CuPy make their device's primary context current once they used the device in this thread
    (``torch.zeros(1, device="cuda")``, ``cupy.cuda.Device(0).use()``)."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError as error:
        raise RuntimeError(f"the NVIDIA driver library libcuda.so.1 could not be loaded: {error}") from error
    context = ctypes.c_void_p()
    result = driver.cuCtxGetCurrent(ctypes.byref(context))
    if result != 0:
        raise RuntimeError(f"cuCtxGetCurrent failed with CUresult {result}: initialise CUDA first (cuInit), "
                           "for example by using the device from PyTorch or CuPy")
    if not context.value:
        raise RuntimeError("no CUDA context is current on this thread: use the device first (for example "
                           "torch.zeros(1, device='cuda') or cupy.cuda.Device(0).use()), or pass a CUcontext")
    return int(context.value)


def gl_current_context() -> int:
    """The OpenGL context current on the calling thread, as an int: EGL's (eglGetCurrentContext), else GLX's
    (glXGetCurrentContext). GPA's GL library records and reads on the thread where its context is current."""
    problems = []
    for library, function in (("libEGL.so.1", "eglGetCurrentContext"), ("libGLX.so.0", "glXGetCurrentContext")):
        try:
            entry = getattr(ctypes.CDLL(library), function)
        except (OSError, AttributeError) as error:
            problems.append(f"{library}: {error}")
            continue
        entry.restype = ctypes.c_void_p
        entry.argtypes = []
        context = entry()
        if context:
            return int(context)
        problems.append(f"{function} returned none")
    raise RuntimeError("no OpenGL context is current on this thread (" + "; ".join(problems) + "): make one "
                       "current first (eglMakeCurrent, or glXMakeCurrent), or pass the EGLContext as an int")


def api_of(handle: Any) -> str | None:
    """The GPA library ("CL" or "CUDA") an API object belongs to, or None for a plain int."""
    kind = type(handle)
    module = kind.__module__ or ""
    if module.startswith("pyopencl") or hasattr(handle, "int_ptr"):
        return "CL"
    if kind.__name__ == "CUcontext" or module.startswith("cuda"):
        return "CUDA"
    return None


def pointer_of(handle: Any) -> int:
    """The address GPA_OpenContext takes for `handle`."""
    if isinstance(handle, bool):
        raise TypeError("an API object handle is not a bool")
    if isinstance(handle, int):
        if handle == 0:
            raise ValueError("the API object handle is 0 (NULL)")
        return handle
    if hasattr(handle, "int_ptr"):  # pyopencl objects
        return int(handle.int_ptr)
    if type(handle).__name__ == "CUcontext":  # cuda-python: int() is the handle (getPtr() its storage)
        return int(handle)
    raise TypeError(f"cannot take a GPA API object from {type(handle).__name__}: pass a pyopencl CommandQueue, "
                    "a cuda-python CUcontext, or the handle's address as an int")
