// GPA_OpenContext on OpenGL: the context current on the calling thread, and nothing else, with the statuses of
// docs/api_status.md; the device it describes; GL calls of a session made only where the context is current.
#define GL_GLEXT_PROTOTYPES 1
#include "backends/gl/device_identity.h"
#include "gl_backend_fixture.h"

#include <cstdio>

namespace ogpa::gltest {
namespace {

class OpenContext : public GlBackendTest {
protected:
    void SetUp() override { Open(false); }
};

TEST_F(OpenContext, TakesTheCurrentContextOnly) {
    EXPECT_EQ(GPA_OpenContext(nullptr, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_NULL_POINTER);
    int notAContext = 0;
    EXPECT_EQ(GPA_OpenContext(&notAContext, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("not current on this thread"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    ASSERT_TRUE(GlEnv::ReleaseCurrent());
    EXPECT_EQ(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED)
        << "made, but not current";
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("eglMakeCurrent"), std::string::npos) << OGPA_GetLastErrorMessage();
    ASSERT_TRUE(env().MakeCurrent());
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT));
    EXPECT_EQ(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN);
}

TEST_F(OpenContext, DescribesTheRenderer) {
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT));
    const char* description = nullptr;
    ASSERT_GPA_OK(GPA_GetDeviceDesc(&description));
    EXPECT_EQ(std::string(description), env().Renderer());
    gpa_uint32 id = 0;
    const GPA_Status idStatus = GPA_GetDeviceID(&id);
    if (env().IsLlvmpipe()) {
        EXPECT_EQ(idStatus, GPA_STATUS_ERROR_NOT_FOUND) << "a software renderer has no PCI device id";
    }
    // What the run was on (tools/device/gpu_gl_tests.sh keeps this line from NVIDIA's driver).
    std::printf("[ renderer ] %s; GPA_GetDeviceID: status %d, 0x%x\n", description, static_cast<int>(idStatus),
                static_cast<unsigned>(id));
}

TEST_F(OpenContext, SessionsNeedTheContextCurrent) {
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT));
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    ASSERT_TRUE(GlEnv::ReleaseCurrent());
    EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("not current on this thread"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    ASSERT_TRUE(env().MakeCurrent());
    ASSERT_GPA_OK(GPA_BeginSample(0));
    env().DrawFullScreen();
    ASSERT_GPA_OK(GPA_EndSample());
    ASSERT_GPA_OK(GPA_EndPass());
    ASSERT_GPA_OK(GPA_EndSession());
    // Results cannot be read where GL cannot be asked: not ready, and reading says what to do.
    ASSERT_TRUE(GlEnv::ReleaseCurrent());
    bool ready = true;
    ASSERT_GPA_OK(GPA_IsSessionReady(&ready, session));
    EXPECT_FALSE(ready);
    gpa_uint64 primitives = 0;
    EXPECT_NE(GPA_GetSampleUInt64(session, 0, Index("IAPrimitives"), &primitives), GPA_STATUS_OK);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("not current on this thread"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    ASSERT_TRUE(env().MakeCurrent());
    ASSERT_GPA_OK(GPA_GetSampleUInt64(session, 0, Index("IAPrimitives"), &primitives));
    EXPECT_EQ(primitives, 2u);
}

TEST_F(OpenContext, AnActiveQueryOfTheApplicationIsNamed) {
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT));
    ASSERT_GPA_OK(GPA_EnableCounterStr("Occlusion"));
    GLuint own = 0;
    glGenQueries(1, &own);
    glBeginQuery(GL_SAMPLES_PASSED, own);
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("GL_SAMPLES_PASSED query active"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    glEndQuery(GL_SAMPLES_PASSED);
    glDeleteQueries(1, &own);
    ASSERT_GPA_OK(GPA_BeginSample(0));
    env().DrawFullScreen();
    ASSERT_GPA_OK(GPA_EndSample());
    ASSERT_GPA_OK(GPA_EndPass());
    ASSERT_GPA_OK(GPA_EndSession());
    EXPECT_EQ(UInt64(session, 0, "Occlusion"), static_cast<uint64_t>(GlEnv::kWidth * GlEnv::kHeight));
}

}  // namespace
}  // namespace ogpa::gltest

namespace ogpa::gltest {
namespace {

// GPA_GetDeviceID of an NVIDIA context without a DRM node: the id every NVIDIA display controller shares, or none.
TEST(DeviceIdentity, TheIdAllOfTheVendorsDisplayControllersShare) {
    using gpa::gl::PciFunction;
    const PciFunction h200{0x10de, 0x030200, 0x2335}, bridge{0x10de, 0x068000, 0x22a3}, aspeed{0x1a03, 0x030000, 0x2000};
    EXPECT_EQ(gpa::gl::SoleDisplayDeviceId({aspeed, h200, bridge, h200}, 0x10de), 0x2335u);  // NVSwitch bridges are no display
    EXPECT_FALSE(gpa::gl::SoleDisplayDeviceId({h200, PciFunction{0x10de, 0x030000, 0x2684}}, 0x10de)) << "two kinds: which?";
    EXPECT_FALSE(gpa::gl::SoleDisplayDeviceId({aspeed, bridge}, 0x10de));
    EXPECT_FALSE(gpa::gl::SoleDisplayDeviceId({}, 0x10de));
}

}  // namespace
}  // namespace ogpa::gltest
