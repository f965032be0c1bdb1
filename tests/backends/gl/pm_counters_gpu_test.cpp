// GPU check of the GL library's sampled counters (NVIDIA's device-level PM sampler): one GPA sample around repeated
// full-screen draws into an 8192 x 8192 RGBA8 framebuffer, each pixel written once per draw with a colour that does
// not compress, lasting at least 20 ms. WriteSize (and PM.dram__bytes_write.sum) must be within 5% of the bytes the
// draws wrote, GPUBusy high. Skips, saying why, where the context offers no sampled counters (every CPU renderer;
// CI). Run on GPUs by tools/device/gpu_gl_tests.sh, which keeps its FIGURE lines.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

constexpr GLsizei kSize = 8192;

const char* kVertex = R"(#version 330 core
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
})";
// A hash of the pixel and the draw: every pixel's bytes differ from its neighbours' and from the last draw's, so
// neither colour compression nor the L2 cache keeps the writes from device memory.
const char* kFragment = R"(#version 330 core
uniform uint frame;
out vec4 color;
uint hash(uint x) {
    x ^= x >> 16u; x *= 0x7feb352du; x ^= x >> 15u; x *= 0x846ca68bu; x ^= x >> 16u;
    return x;
}
void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint h = hash(p.x + 8192u * p.y + frame * 0x9E3779B9u);
    color = vec4(float(h & 255u), float((h >> 8u) & 255u), float((h >> 16u) & 255u), float(h >> 24u)) / 255.0;
})";

std::mutex logMutex;
std::string pmReason;
void KeepPmReason(GPA_Logging_Type, const char* message) {
    std::lock_guard<std::mutex> lock(logMutex);
    if (std::string(message).find("PM sampler") != std::string::npos) pmReason = message;
}

class GpuPmCounters : public GlBackendTest {
protected:
    void SetUp() override {
        Open(false);
        if (HasFatalFailure() || IsSkipped()) return;
        ASSERT_GPA_OK(GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, KeepPmReason));
        ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
        if (!Offers("WriteSize")) {
            std::lock_guard<std::mutex> lock(logMutex);
            GTEST_SKIP() << "no sampled counters on " << env().Renderer() << ": " << pmReason;
        }
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFramebuffer_);
        glGenRenderbuffers(1, &color_);
        glBindRenderbuffer(GL_RENDERBUFFER, color_);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
        glGenFramebuffers(1, &framebuffer_);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
        ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
        glViewport(0, 0, kSize, kSize);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_BLEND);
        program_ = Program();
        ASSERT_NE(program_, 0u);
        glUseProgram(program_);
        frame_ = glGetUniformLocation(program_, "frame");
        glDisableVertexAttribArray(0);
    }
    void TearDown() override {
        if (env_ && framebuffer_) {
            env().MakeCurrent();
            glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previousFramebuffer_));
            glDeleteFramebuffers(1, &framebuffer_);
            glDeleteRenderbuffers(1, &color_);
            glDeleteProgram(program_);
        }
        GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, KeepPmReason);
        GlBackendTest::TearDown();
    }

    GLuint Program() {
        auto compile = [](GLenum type, const char* source) {
            GLuint shader = glCreateShader(type);
            glShaderSource(shader, 1, &source, nullptr);
            glCompileShader(shader);
            GLint ok = 0;
            glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
            if (!ok) {
                char log[512] = {};
                glGetShaderInfoLog(shader, sizeof log, nullptr, log);
                ADD_FAILURE() << log;
            }
            return shader;
        };
        const GLuint program = glCreateProgram(), vs = compile(GL_VERTEX_SHADER, kVertex),
                     fs = compile(GL_FRAGMENT_SHADER, kFragment);
        glAttachShader(program, vs);
        glAttachShader(program, fs);
        glLinkProgram(program);
        glDeleteShader(vs);
        glDeleteShader(fs);
        GLint ok = 0;
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        return ok ? program : 0;
    }

    void Draw(GLuint frame) {
        glUniform1ui(frame_, frame);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }

    GLint previousFramebuffer_ = 0;
    GLuint color_ = 0, framebuffer_ = 0, program_ = 0;
    GLint frame_ = -1;
};

TEST_F(GpuPmCounters, FullScreenWritesOfALargeFramebufferAreInWriteSize) {
    // How many draws last 25 ms: timed after a warm-up.
    Draw(0);
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    for (GLuint i = 1; i <= 8; ++i) Draw(i);
    glFinish();
    const double perDraw = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 8;
    const int repeats = std::max(16, static_cast<int>(0.025 / perDraw) + 1);

    for (const char* name : {"GPUTime", "GPUBusy", "WriteSize", "FetchSize", "PM.dram__bytes_write.sum"}) {
        if (Offers(name)) {
            EXPECT_GPA_OK(GPA_EnableCounterStr(name)) << name;
        }
    }
    GLuint frame = 100;
    const gpa_uint32 session = RecordSession({0}, [&](gpa_uint32) {
        for (int i = 0; i < repeats; ++i) Draw(frame++);
    });
    glFinish();

    const double expectedBytes = static_cast<double>(kSize) * kSize * 4 * repeats;
    const double writeBytes = Float64(session, 0, "WriteSize") * 1024;
    const double busy = Float64(session, 0, "GPUBusy");
    const double gpuTimeMs = Float64(session, 0, "GPUTime");
    const double ratio = writeBytes / expectedBytes;
    std::printf("FIGURE gl_pm_write_ratio %.4f (WriteSize %.0f KiB of %.0f KiB written by %d draws of %dx%d RGBA8)\n", ratio,
                writeBytes / 1024, expectedBytes / 1024, repeats, kSize, kSize);
    std::printf("FIGURE gl_pm_gpu_busy %.1f %%\n", busy);
    std::printf("FIGURE gl_pm_gpu_time %.3f ms (%.1f us per draw untimed)\n", gpuTimeMs, perDraw * 1e6);
    std::printf("FIGURE gl_pm_fetch_size %.0f KiB\n", Float64(session, 0, "FetchSize"));
    if (Offers("PM.dram__bytes_write.sum")) {
        const double raw = Float64(session, 0, "PM.dram__bytes_write.sum");
        std::printf("FIGURE gl_pm_dram_bytes_write_ratio %.4f\n", raw / expectedBytes);
        EXPECT_NEAR(raw / expectedBytes, 1.0, 0.05);
    }
    EXPECT_GE(gpuTimeMs, 20.0) << "the draws were to last at least 20 ms";
    EXPECT_NEAR(ratio, 1.0, 0.05);
    EXPECT_GE(busy, 80.0);
    EXPECT_LE(busy, 100.5);
}

}  // namespace
}  // namespace ogpa::gltest
