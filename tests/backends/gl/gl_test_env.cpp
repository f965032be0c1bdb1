#define GL_GLEXT_PROTOTYPES 1
#include "gl_test_env.h"

#include <EGL/eglext.h>

#include <vector>

namespace ogpa::gltest {

namespace {

const char* kVertex = R"(#version 330 core
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); })";
const char* kFragment = R"(#version 330 core
out vec4 color;
void main() { color = vec4(1.0, 0.5, 0.25, 1.0); })";
const char* kCaptureVertex = R"(#version 330 core
layout(location = 0) in vec2 position;
out float captured;
void main() { captured = position.x; gl_Position = vec4(position, 0.0, 1.0); })";

EGLDisplay OpenDisplay() {
    auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    const char* extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    EGLDisplay display = EGL_NO_DISPLAY;
    if (platformDisplay && extensions && std::string(extensions).find("EGL_MESA_platform_surfaceless") != std::string::npos) {
        display = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    }
    if (display == EGL_NO_DISPLAY) display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    return display;
}

}  // namespace

std::unique_ptr<GlEnv> GlEnv::Create(std::string* skip, std::string* failure, EGLenum api) {
    std::unique_ptr<GlEnv> env(new GlEnv());
    env->display_ = OpenDisplay();
    EGLint major = 0, minor = 0;
    if (env->display_ == EGL_NO_DISPLAY || !eglInitialize(env->display_, &major, &minor)) {
        *skip = "no EGL display (install Mesa's EGL: libegl-mesa0, libgl1-mesa-dri)";
        return nullptr;
    }
    if (!eglBindAPI(api)) {
        *skip = "EGL cannot bind the GL API";
        return nullptr;
    }
    const int versions[][2] = {{4, 5}, {4, 3}, {3, 3}};
    for (const auto& version : versions) {
        std::vector<EGLint> attributes = {EGL_CONTEXT_MAJOR_VERSION, api == EGL_OPENGL_ES_API ? 3 : version[0],
                                          EGL_CONTEXT_MINOR_VERSION, api == EGL_OPENGL_ES_API ? 0 : version[1]};
        if (api == EGL_OPENGL_API) {
            attributes.insert(attributes.end(), {EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT});
        }
        attributes.push_back(EGL_NONE);
        env->context_ = eglCreateContext(env->display_, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes.data());
        if (env->context_ != EGL_NO_CONTEXT) break;
    }
    if (env->context_ == EGL_NO_CONTEXT) {
        *skip = "EGL made no GL context without a config (EGL_KHR_no_config_context) of version 3.3 or later";
        return nullptr;
    }
    if (!env->MakeCurrent()) {
        *failure = "eglMakeCurrent without a surface failed";
        return nullptr;
    }
    if (api == EGL_OPENGL_API && !env->Setup(failure)) return nullptr;
    return env;
}

GlEnv::~GlEnv() {
    if (context_ != EGL_NO_CONTEXT) {
        if (MakeCurrent()) {
            glDeleteProgram(drawProgram_);
            glDeleteProgram(captureProgram_);
            const GLuint buffers[] = {buffer_, captureBuffer_};
            glDeleteBuffers(2, buffers);
            glDeleteVertexArrays(1, &vertexArray_);
            glDeleteFramebuffers(1, &framebuffer_);
            const GLuint renderbuffers[] = {color_, depth_};
            glDeleteRenderbuffers(2, renderbuffers);
        }
        ReleaseCurrent();
        eglDestroyContext(display_, context_);
    }
    // The display is not terminated: eglTerminate unloads Mesa's driver, whose allocations LeakSanitizer then
    // reports from an unnamed module; an application's display also lives as long as the process.
}

std::string GlEnv::Renderer() const {
    const GLubyte* renderer = glGetString(GL_RENDERER);
    return renderer ? reinterpret_cast<const char*>(renderer) : "";
}

bool GlEnv::MakeCurrent() { return eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) == EGL_TRUE; }

bool GlEnv::ReleaseCurrent() {
    EGLDisplay display = eglGetCurrentDisplay();
    return display == EGL_NO_DISPLAY || eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) == EGL_TRUE;
}

GLuint GlEnv::Program(const char* vertex, const char* fragment, const char* captured, std::string* failure) {
    auto compile = [&](GLenum type, const char* source) {
        GLuint shader = glCreateShader(type);
        glShaderSource(shader, 1, &source, nullptr);
        glCompileShader(shader);
        GLint ok = 0;
        glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char log[512] = {};
            glGetShaderInfoLog(shader, sizeof log, nullptr, log);
            *failure = std::string("shader did not compile: ") + log;
        }
        return shader;
    };
    GLuint program = glCreateProgram();
    GLuint vs = compile(GL_VERTEX_SHADER, vertex), fs = compile(GL_FRAGMENT_SHADER, fragment);
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    if (captured) glTransformFeedbackVaryings(program, 1, &captured, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) *failure = "program did not link";
    return program;
}

bool GlEnv::Setup(std::string* failure) {
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
    glGenRenderbuffers(1, &depth_);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kWidth, kHeight);
    glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        *failure = "the 64 x 48 framebuffer is incomplete";
        return false;
    }
    glViewport(0, 0, kWidth, kHeight);
    drawProgram_ = Program(kVertex, kFragment, nullptr, failure);
    captureProgram_ = Program(kCaptureVertex, kFragment, "captured", failure);
    if (!failure->empty()) return false;
    glGenVertexArrays(1, &vertexArray_);
    glBindVertexArray(vertexArray_);
    glGenBuffers(1, &buffer_);
    glGenBuffers(1, &captureBuffer_);
    return true;
}

void GlEnv::DrawFullScreen() {
    const float vertices[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    glBindBuffer(GL_ARRAY_BUFFER, buffer_);
    glBufferData(GL_ARRAY_BUFFER, sizeof vertices, vertices, GL_STREAM_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glUseProgram(drawProgram_);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

void GlEnv::DrawSmallTriangles(int count) {
    std::vector<float> vertices;
    for (int i = 0; i < count; ++i) {
        const float x = -0.9f + 0.05f * static_cast<float>(i), y = 0.0f;
        vertices.insert(vertices.end(), {x, y, x + 0.04f, y, x, y + 0.04f});
    }
    glBindBuffer(GL_ARRAY_BUFFER, buffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)), vertices.data(), GL_STREAM_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glUseProgram(drawProgram_);
    glDrawArrays(GL_TRIANGLES, 0, 3 * count);
}

void GlEnv::CapturePoints(int count, int room) {
    std::vector<float> vertices(static_cast<size_t>(2 * count), 0.0f);
    glBindBuffer(GL_ARRAY_BUFFER, buffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)), vertices.data(), GL_STREAM_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, captureBuffer_);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(room * sizeof(float)), nullptr, GL_STREAM_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, captureBuffer_);
    glUseProgram(captureProgram_);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, count);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
}

void GlEnv::Finish() { glFinish(); }

}  // namespace ogpa::gltest
