// GPA_OpenContext on Vulkan: a GPA_vkContextOpenInfo of a device with VK_AMD_gpa_interface opens; without
// the extension (no layer, or the extension not enabled) it is GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with
// a message that names the layer and how to enable it; OGPA_vkGetRequirements names what to enable.
#include <cstring>

#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

class OpenContext : public VulkanBackendTest {
protected:
    void SetUp() override {}
    std::string LastError() { return OGPA_GetLastErrorMessage(); }
};

TEST_F(OpenContext, OpensAndDescribesTheDevice) {
    Open(EnvOptions{});
    if (env_ == nullptr) return;
    const char* description = nullptr;
    ASSERT_GPA_OK(GPA_GetDeviceDesc(&description));
    EXPECT_STREQ(description, env().properties.deviceName);
    gpa_uint32 id = 0;
    const GPA_Status status = GPA_GetDeviceID(&id);
    if (env().properties.vendorID <= 0xFFFF) {
        EXPECT_EQ(status, GPA_STATUS_OK);
        EXPECT_EQ(id, env().properties.deviceID);
    } else {
        EXPECT_EQ(status, GPA_STATUS_ERROR_NOT_FOUND) << "lavapipe's vendor (Mesa, 0x10005) has no PCI device id";
    }
    EXPECT_EQ(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN);
    EXPECT_GPA_OK(GPA_CloseContext());
}

TEST_F(OpenContext, NullHandlesInTheOpenInfo) {
    Open(EnvOptions{}, false);
    if (env_ == nullptr) return;
    EXPECT_EQ(GPA_OpenContext(nullptr, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_NULL_POINTER);
    for (int which = 0; which < 3; ++which) {
        GPA_vkContextOpenInfo info = info_;
        if (which == 0) info.instance = VK_NULL_HANDLE;
        if (which == 1) info.physicalDevice = VK_NULL_HANDLE;
        if (which == 2) info.device = VK_NULL_HANDLE;
        EXPECT_EQ(GPA_OpenContext(&info, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        EXPECT_NE(LastError().find("is VK_NULL_HANDLE"), std::string::npos) << LastError();
        EXPECT_NE(LastError().find("GPA_vkContextOpenInfo"), std::string::npos) << LastError();
    }
}

TEST_F(OpenContext, DeviceWithoutTheExtension) {
    EnvOptions options;
    options.gpaExtension = false;
    Open(options, false);
    if (env_ == nullptr) return;
    EXPECT_EQ(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    EXPECT_NE(LastError().find("VK_AMD_gpa_interface"), std::string::npos) << LastError();
    EXPECT_NE(LastError().find("finds the layer VK_LAYER_OPENGPA_gpa_interface"), std::string::npos) << LastError();
    EXPECT_NE(LastError().find("ppEnabledExtensionNames"), std::string::npos) << LastError();
}

TEST_F(OpenContext, InstanceWithoutTheLayer) {
    EnvOptions options;
    options.gpaLayer = false;
    options.gpaExtension = false;
    Open(options, false);
    if (env_ == nullptr) return;
    EXPECT_EQ(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    EXPECT_NE(LastError().find("VK_LAYER_OPENGPA_gpa_interface"), std::string::npos) << LastError();
    EXPECT_NE(LastError().find("OGPA_vkGetRequirements"), std::string::npos) << LastError();
}

TEST_F(OpenContext, Vulkan10Instance) {
    // The application enables neither Vulkan 1.1 nor VK_KHR_get_physical_device_properties2: OpenGPA's layer
    // enables the extension below itself, so the counter blocks can still be read.
    EnvOptions options;
    options.apiVersion = VK_API_VERSION_1_0;
    Open(options);
    if (env_ == nullptr) return;
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));
    const gpa_uint32 session = RecordSession({0}, true, [&](VkCommandBuffer cb, gpa_uint32) { work().DrawTriangles(cb, 3); });
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 3u);
}

TEST_F(OpenContext, Vulkan13Instance) {
    EnvOptions options;
    options.apiVersion = VK_API_VERSION_1_3;
    Open(options);
    if (env_ == nullptr) return;
    ASSERT_GPA_OK(GPA_EnableCounterStr("CSInvocations"));
    const gpa_uint32 session = RecordSession({0}, false, [&](VkCommandBuffer cb, gpa_uint32) { work().Dispatch(cb, 2, 1, 1, 1); });
    EXPECT_EQ(UInt64(session, 0, "CSInvocations"), 2u * kInvocationsPerWorkgroup);
}

TEST_F(OpenContext, RequirementsHelperNamesWhatToEnable) {
    Open(EnvOptions{}, false);  // VK_ADD_LAYER_PATH is set: the loader finds the layer
    if (env_ == nullptr) return;
    OGPA_vkRequirements requirements{};
    OGPA_vkGetRequirements(&requirements);
    ASSERT_NE(requirements.instanceLayers[0], nullptr);
    EXPECT_STREQ(requirements.instanceLayers[0], "VK_LAYER_OPENGPA_gpa_interface");
    EXPECT_EQ(requirements.instanceLayers[1], nullptr);
    EXPECT_STREQ(requirements.instanceExtensions[0], VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
    EXPECT_EQ(requirements.instanceExtensions[1], nullptr);
    EXPECT_STREQ(requirements.deviceExtensions[0], "VK_AMD_gpa_interface");
    EXPECT_EQ(requirements.deviceExtensions[1], nullptr);
    const char* amd[] = AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST;
    EXPECT_STREQ(amd[0], "VK_AMD_gpa_interface");
}

}  // namespace
}  // namespace ogpa::vktest
