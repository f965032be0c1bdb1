// The GL device of libGPUPerfAPIGL.so's tests: an EGL display (Mesa's surfaceless platform where it exists, as in
// CI on llvmpipe; else the default display) and an OpenGL 4.5 core context (4.3, 3.3 where not) current on the
// test's thread, rendering into a 64 x 48 framebuffer object; and the draws the tests count.
#pragma once

#include <EGL/egl.h>
#include <GL/glcorearb.h>

#include <memory>
#include <string>

namespace ogpa::gltest {

class GlEnv {
public:
    static constexpr int kWidth = 64, kHeight = 48;

    // Null with the reason in `skip` where there is no EGL/GL device; `failure` when one misbehaves.
    static std::unique_ptr<GlEnv> Create(std::string* skip, std::string* failure, EGLenum api = EGL_OPENGL_API);
    ~GlEnv();

    EGLContext context() const { return context_; }
    std::string Renderer() const;
    bool IsLlvmpipe() const { return Renderer().find("llvmpipe") != std::string::npos; }
    bool MakeCurrent();
    static bool ReleaseCurrent();

    // Full-screen: two triangles covering the framebuffer (6 vertices).
    void DrawFullScreen();
    // `count` small triangles (3 vertices each) well inside the framebuffer.
    void DrawSmallTriangles(int count);
    // `count` points through transform feedback into a buffer with room for `room` points.
    void CapturePoints(int count, int room);
    void Finish();

private:
    GlEnv() = default;
    bool Setup(std::string* failure);
    GLuint Program(const char* vertex, const char* fragment, const char* captured, std::string* failure);

    EGLDisplay display_ = EGL_NO_DISPLAY;
    EGLContext context_ = EGL_NO_CONTEXT;
    GLuint framebuffer_ = 0, color_ = 0, depth_ = 0, vertexArray_ = 0, buffer_ = 0, captureBuffer_ = 0;
    GLuint drawProgram_ = 0, captureProgram_ = 0;
};

}  // namespace ogpa::gltest
