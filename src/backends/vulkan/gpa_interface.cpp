#include "backends/vulkan/gpa_interface.h"

#include <algorithm>
#include <cstring>

namespace gpa::vk {

namespace {

bool LayerInstalled() {
    uint32_t count = 0;
    if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& layer : layers) {
        if (std::strcmp(layer.layerName, VK_OPENGPA_GPA_INTERFACE_LAYER_NAME) == 0) return true;
    }
    return false;
}

template <typename F>
bool Load(VkDevice device, const char* name, F* slot) {
    *slot = reinterpret_cast<F>(vkGetDeviceProcAddr(device, name));
    return *slot != nullptr;
}

}  // namespace

const char* ResultName(VkResult result) {
    switch (result) {
        case VK_SUCCESS: return "VK_SUCCESS";
        case VK_NOT_READY: return "VK_NOT_READY";
        case VK_INCOMPLETE: return "VK_INCOMPLETE";
        case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
        case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
        case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
        case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
        case VK_ERROR_VALIDATION_FAILED_EXT: return "VK_ERROR_VALIDATION_FAILED";
        case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
        case VK_ERROR_NOT_PERMITTED_KHR: return "VK_ERROR_NOT_PERMITTED";
        default: return "a VkResult error";
    }
}

std::string GpaInterface::Failure(const char* call, VkResult result) const {
    std::string text = std::string(call) + " failed with " + ResultName(result) + " (" + std::to_string(result) + ")";
    if (GetLastMessage != nullptr) {
        const char* reason = GetLastMessage(device);
        if (reason != nullptr && reason[0] != '\0') text += ": " + std::string(reason);
    }
    return text;
}

Outcome LoadGpaInterface(VkDevice device, GpaInterface* gpa) {
    gpa->device = device;
    const bool ok = Load(device, "vkCreateGpaSessionAMD", &gpa->CreateGpaSession) &&
                    Load(device, "vkDestroyGpaSessionAMD", &gpa->DestroyGpaSession) &&
                    Load(device, "vkCmdBeginGpaSessionAMD", &gpa->CmdBeginGpaSession) &&
                    Load(device, "vkCmdEndGpaSessionAMD", &gpa->CmdEndGpaSession) &&
                    Load(device, "vkCmdBeginGpaSampleAMD", &gpa->CmdBeginGpaSample) &&
                    Load(device, "vkCmdEndGpaSampleAMD", &gpa->CmdEndGpaSample) &&
                    Load(device, "vkGetGpaSessionStatusAMD", &gpa->GetGpaSessionStatus) &&
                    Load(device, "vkGetGpaSessionResultsAMD", &gpa->GetGpaSessionResults) &&
                    Load(device, "vkResetGpaSessionAMD", &gpa->ResetGpaSession);
    if (!ok) {
        const std::string layer = LayerInstalled()
                                      ? "the Vulkan loader finds the layer VK_LAYER_OPENGPA_gpa_interface, which provides it: "
                                        "enable it in VkInstanceCreateInfo::ppEnabledLayerNames"
                                      : "the Vulkan loader does not find the layer VK_LAYER_OPENGPA_gpa_interface, which provides "
                                        "it: install OpenGPA's layer manifest, or point VK_ADD_LAYER_PATH at the folder "
                                        "holding VkLayer_opengpa_gpa_interface.json (build/share/vulkan/explicit_layer.d), "
                                        "then enable the layer in VkInstanceCreateInfo::ppEnabledLayerNames";
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                    "the VkDevice does not have VK_AMD_gpa_interface, the extension the Vulkan GPA library samples "
                    "counters through. Drivers other than AMD's lack it; " + layer +
                    ", and add VK_AMD_gpa_interface to VkDeviceCreateInfo::ppEnabledExtensionNames "
                    "(OGPA_vkGetRequirements in GPUPerfAPI-Vk.h lists both). An application that cannot be changed "
                    "gets them from the installed implicit layer with OPENGPA_VK_GPA_INTERFACE=1 in its environment");
    }
    Load(device, "vkGetGpaInterfaceLastMessageOPENGPA", &gpa->GetLastMessage);
    Load(device, "vkEnumerateGpaPerfEventsOPENGPA", &gpa->EnumerateEvents);
    Load(device, "vkGetGpaPerfEventPassCountOPENGPA", &gpa->GetPassCount);
    return Outcome::Ok();
}

std::vector<VkGpaPerfEventPropertiesOPENGPA> QueryBlockEvents(const GpaInterface& gpa,
                                                              const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks,
                                                              VkGpaPerfBlockAMD block) {
    std::vector<VkGpaPerfEventPropertiesOPENGPA> events;
    const bool offered = std::any_of(blocks.begin(), blocks.end(), [block](const VkGpaPerfBlockPropertiesAMD& properties) {
        return properties.blockType == block;
    });
    if (!offered || gpa.EnumerateEvents == nullptr) return events;
    uint32_t count = 0;
    if (gpa.EnumerateEvents(gpa.device, block, &count, nullptr) != VK_SUCCESS) return events;
    events.resize(count);
    if (gpa.EnumerateEvents(gpa.device, block, &count, events.data()) != VK_SUCCESS) count = 0;
    events.resize(count);
    return events;
}

std::vector<VkGpaPerfEventPropertiesOPENGPA> QueryKhrEvents(const GpaInterface& gpa,
                                                            const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks) {
    if (gpa.GetPassCount == nullptr) return {};
    return QueryBlockEvents(gpa, blocks, VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA);
}

Outcome QueryPerfBlocks(VkInstance instance, VkPhysicalDevice physicalDevice, std::vector<VkGpaPerfBlockPropertiesAMD>* blocks) {
    // A Vulkan 1.0 instance has only the KHR name (when the extension is enabled); 1.1 has the core one.
    auto properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(
        vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2KHR"));
    if (properties2 == nullptr) {
        properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2"));
    }
    if (properties2 == nullptr) {
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                    "the VkInstance has neither Vulkan 1.1 nor VK_KHR_get_physical_device_properties2, through which "
                    "the counter blocks of VK_AMD_gpa_interface are read; create it with apiVersion 1.1 or enable that "
                    "extension (OGPA_vkGetRequirements lists it)");
    }
    VkPhysicalDeviceGpaPropertiesAMD gpa{};
    gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
    VkPhysicalDeviceProperties2 query{};
    query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    query.pNext = &gpa;
    properties2(physicalDevice, &query);
    blocks->assign(gpa.perfBlockCount, VkGpaPerfBlockPropertiesAMD{});
    gpa.pPerfBlocks = blocks->data();
    properties2(physicalDevice, &query);
    blocks->resize(gpa.perfBlockCount);
    return Outcome::Ok();
}

}  // namespace gpa::vk
