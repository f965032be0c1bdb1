"""The binding on OpenGL: a 4.5 core context on EGL without a window (Mesa's llvmpipe in CI), made with ctypes.

GPA's GL library takes the EGLContext current on the calling thread; pytest runs every test on one thread.
"""

from __future__ import annotations

import ctypes
from typing import Any, Iterator

import pytest

import opengpa

from conftest import unavailable

# EGL and GL enumerants (EGL/egl.h, EGL/eglext.h, GL/glcorearb.h).
EGL_EXTENSIONS, EGL_NONE, EGL_OPENGL_API = 0x3055, 0x3038, 0x30A2
EGL_CONTEXT_MAJOR_VERSION, EGL_CONTEXT_MINOR_VERSION, EGL_CONTEXT_OPENGL_PROFILE_MASK = 0x3098, 0x30FB, 0x30FD
EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_COMPILE_STATUS, GL_LINK_STATUS = 0x8B31, 0x8B30, 0x8B81, 0x8B82
GL_RENDERBUFFER, GL_FRAMEBUFFER, GL_RGBA8, GL_COLOR_ATTACHMENT0 = 0x8D41, 0x8D40, 0x8058, 0x8CE0
GL_FRAMEBUFFER_COMPLETE, GL_TRIANGLES, GL_COLOR_BUFFER_BIT, GL_RENDERER = 0x8CD5, 0x0004, 0x4000, 0x1F01
WIDTH, HEIGHT = 64, 48

# A full-screen quad from gl_VertexID alone: no vertex buffer.
VERTEX = b"""#version 330 core
const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
void main() { gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0); }
"""
FRAGMENT = b"""#version 330 core
out vec4 color;
void main() { color = vec4(0.2, 0.6, 1.0, 1.0); }
"""


def _egl_context(egl: Any) -> tuple[int, int]:
    """A display on EGL's surfaceless platform and a current OpenGL 4.5 core context on it."""
    egl.eglQueryString.restype = ctypes.c_char_p
    egl.eglQueryString.argtypes = [ctypes.c_void_p, ctypes.c_int]
    egl.eglGetProcAddress.restype = ctypes.c_void_p
    egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
    egl.eglInitialize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    egl.eglCreateContext.restype = ctypes.c_void_p
    egl.eglCreateContext.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    egl.eglMakeCurrent.argtypes = [ctypes.c_void_p] * 4
    client = (egl.eglQueryString(None, EGL_EXTENSIONS) or b"").split()
    address = egl.eglGetProcAddress(b"eglGetPlatformDisplayEXT")
    if b"EGL_MESA_platform_surfaceless" not in client or not address:
        unavailable("opengl", "no OpenGL device: EGL has no surfaceless platform (EGL_MESA_platform_surfaceless)")
    get_display = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p)(address)
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, None, None)
    if not display or not egl.eglInitialize(display, None, None):
        unavailable("opengl", "no OpenGL device: EGL opens no surfaceless display")
    egl.eglBindAPI(EGL_OPENGL_API)
    attributes = (ctypes.c_int * 7)(EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK, 1, EGL_NONE)
    context = egl.eglCreateContext(display, None, None, attributes)  # EGL_NO_CONFIG_KHR
    if not context or not egl.eglMakeCurrent(display, None, None, context):
        egl.eglTerminate(display)
        unavailable("opengl", "no OpenGL device: no current OpenGL 4.5 core context without a surface")
    return int(display), int(context)


class Quad:
    """A 64 x 48 framebuffer object and a program that covers it with two triangles."""

    def __init__(self, gl: Any) -> None:
        self.gl = gl
        gl.glGetString.restype = ctypes.c_char_p
        gl.glCreateShader.restype = ctypes.c_uint
        gl.glCreateProgram.restype = ctypes.c_uint
        gl.glCheckFramebufferStatus.restype = ctypes.c_uint
        self.renderer = gl.glGetString(GL_RENDERER).decode()
        color, framebuffer, vertex_array = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        gl.glGenRenderbuffers(1, ctypes.byref(color))
        gl.glBindRenderbuffer(GL_RENDERBUFFER, color)
        gl.glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, WIDTH, HEIGHT)
        gl.glGenFramebuffers(1, ctypes.byref(framebuffer))
        gl.glBindFramebuffer(GL_FRAMEBUFFER, framebuffer)
        gl.glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color)
        assert gl.glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE
        gl.glViewport(0, 0, WIDTH, HEIGHT)
        gl.glGenVertexArrays(1, ctypes.byref(vertex_array))  # core profiles draw only with a vertex array bound
        gl.glBindVertexArray(vertex_array)
        program = gl.glCreateProgram()
        for stage, source in ((GL_VERTEX_SHADER, VERTEX), (GL_FRAGMENT_SHADER, FRAGMENT)):
            shader = gl.glCreateShader(stage)
            gl.glShaderSource(shader, 1, ctypes.byref(ctypes.c_char_p(source)), None)
            gl.glCompileShader(shader)
            ok = ctypes.c_int()
            gl.glGetShaderiv(shader, GL_COMPILE_STATUS, ctypes.byref(ok))
            assert ok.value, f"shader {stage:#x} does not compile"
            gl.glAttachShader(program, shader)
            gl.glDeleteShader(shader)
        gl.glLinkProgram(program)
        ok = ctypes.c_int()
        gl.glGetProgramiv(program, GL_LINK_STATUS, ctypes.byref(ok))
        assert ok.value, "the program does not link"
        gl.glUseProgram(program)
        self.draw()  # the driver compiles the shaders at the first draw: not inside a sample
        gl.glFinish()

    def draw(self) -> None:
        self.gl.glClear(GL_COLOR_BUFFER_BIT)
        self.gl.glDrawArrays(GL_TRIANGLES, 0, 6)


@pytest.fixture(scope="module")
def gl_context() -> Iterator[tuple[int, Quad]]:
    """The EGLContext current on this thread, and the work drawn on it."""
    try:
        egl = ctypes.CDLL("libEGL.so.1")
        gl = ctypes.CDLL("libOpenGL.so.0")
    except OSError as error:
        unavailable("opengl", f"no OpenGL device: glvnd's libEGL/libOpenGL cannot be loaded ({error})")
    try:
        opengpa.library_path("GL")
    except opengpa.LibraryNotFoundError as error:
        unavailable("opengl", str(error))
    display, context = _egl_context(egl)
    yield context, Quad(gl)
    egl.eglMakeCurrent(display, None, None, None)
    egl.eglDestroyContext.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    egl.eglDestroyContext(display, context)
    egl.eglTerminate.argtypes = [ctypes.c_void_p]
    egl.eglTerminate(display)


def test_counters_of_a_full_screen_quad(gl_context: tuple[int, Quad]) -> None:
    context_handle, quad = gl_context
    with opengpa.Library("GL") as gpa, gpa.context(context_handle) as context:
        assert gpa.api == "GL"
        assert gpa.path and gpa.path.endswith("libGPUPerfAPIGL.so")
        assert context.device_description
        names = [counter.name for counter in context.counters()]
        assert "GPUTime" in names
        context.enable_all()
        with context.session() as session:
            passes = 0
            for gpa_pass in session.passes():  # the occlusion counters take a pass each: the quad is redrawn
                passes += 1
                gpa_pass.measure(0, quad.draw)
        assert passes == context.pass_count >= 1
        [row] = session.results().rows()
        assert isinstance(row["GPUTime"], float) and row["GPUTime"] > 0
        # Known answers of two triangles covering 64 x 48 pixels, where the driver has the counter.
        expected = {"IAVertices": 6, "IAPrimitives": 2, "VSInvocations": 6, "Occlusion": WIDTH * HEIGHT,
                    "OcclusionPredicate": 1}
        for name, value in expected.items():
            if name in row:
                assert row[name] == value, f"{name} on {quad.renderer}"


def test_current_context_is_the_default(gl_context: tuple[int, Quad]) -> None:
    context_handle, _ = gl_context
    assert opengpa.gl_current_context() == context_handle
    with opengpa.Library("GL") as gpa, gpa.context() as context:
        assert context.handle == context_handle
        context.enable("GPUTime")
        assert context.enabled() == ["GPUTime"]
