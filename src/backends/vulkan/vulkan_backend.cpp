// The Vulkan backend of libGPUPerfAPIVK.so: GPA_OpenContext takes a GPA_vkContextOpenInfo* (GPUPerfAPI-Vk.h)
// and samples through VK_AMD_gpa_interface alone, whether the driver or OpenGPA's layer implements it.
#include <memory>

#include "backends/vulkan/vulkan_context.h"
#include "core/backend.h"

namespace gpa {

namespace {

class VulkanBackend : public Backend {
public:
    const char* ApiName() const override { return "Vulkan"; }
    Outcome OpenContext(void* apiContext, GPA_OpenContextFlags, std::unique_ptr<BackendContext>* context) override {
        return vk::VulkanContext::Open(apiContext, context);
    }
};

}  // namespace

std::unique_ptr<Backend> CreateBackend() { return std::make_unique<VulkanBackend>(); }

}  // namespace gpa
