// The implicit layer: an application that names no layer gets VK_AMD_gpa_interface when
// OPENGPA_VK_GPA_INTERFACE=1 is in its environment (and the implicit manifest is where the loader looks:
// here the build's share/vulkan/implicit_layer.d through XDG_DATA_HOME), and does not without it. CTest runs
// the two tests in separate processes with those environments (tests/layers/vulkan/CMakeLists.txt).
#include <cstdlib>

#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class ImplicitLayer : public LayerTest {
protected:
    void SetUp() override {}
};

TEST_F(ImplicitLayer, EnabledByTheEnvironment) {
    ASSERT_STREQ(std::getenv("OPENGPA_VK_GPA_INTERFACE"), "1") << "run through CTest";
    EnvOptions options;
    options.gpaLayer = false;  // not named by the application
    Open(options);
    if (env_ == nullptr) return;
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives};
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    work().BeginRenderPass(cb);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS);
    work().DrawTriangles(cb, 8);
    gpa().CmdEndGpaSample(cb, session, sample);
    work().EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(Results(session, sample), std::vector<uint64_t>{8});
}

TEST_F(ImplicitLayer, AbsentWithoutTheVariable) {
    ASSERT_EQ(std::getenv("OPENGPA_VK_GPA_INTERFACE"), nullptr) << "run through CTest";
    EnvOptions options;
    options.gpaLayer = false;
    options.gpaExtension = false;
    Open(options);
    if (env_ == nullptr) return;
    EXPECT_FALSE(env().HasDeviceExtension(VK_AMD_GPA_INTERFACE_EXTENSION_NAME));
}

}  // namespace
}  // namespace ogpa::vktest
