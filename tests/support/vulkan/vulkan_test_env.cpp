#include "vulkan_test_env.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace ogpa::vktest {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool ContainsIgnoringCase(const std::string& text, const std::string& part) {
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    return lower(text).find(lower(part)) != std::string::npos;
}

bool ValidationWanted() {
    const char* value = std::getenv("OPENGPA_VK_VALIDATION");
    return value == nullptr || std::strcmp(value, "0") != 0;
}

// OPENGPA_VK_VALIDATION=1 (CI): a missing validation layer fails the test instead of skipping it.
bool ValidationRequired() {
    const char* value = std::getenv("OPENGPA_VK_VALIDATION");
    return value != nullptr && std::strcmp(value, "1") == 0;
}

bool LayerAvailable(const char* name) {
    uint32_t count = 0;
    if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& layer : layers) {
        if (std::strcmp(layer.layerName, name) == 0) return true;
    }
    return false;
}

// An instance without layers, created once and never destroyed: it keeps the driver loaded for the life of
// the test process. The loader unloads a driver with its last instance, and Mesa's lavapipe keeps
// process-wide allocations that LeakSanitizer then reports (from an unloaded library, so they cannot be
// suppressed by name).
void KeepDriverLoaded() {
    static const bool kept = [] {
        VkApplicationInfo app{};
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
        app.apiVersion = VK_API_VERSION_1_1;
        VkInstanceCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
        info.pApplicationInfo = &app;
        VkInstance instance = VK_NULL_HANDLE;
        return vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS;
    }();
    (void)kept;
}

}  // namespace

struct VulkanEnv::MessageStore {
    mutable std::mutex mutex;
    std::vector<std::string> validation;
    std::vector<std::string> layer;

    static VKAPI_ATTR VkBool32 VKAPI_CALL Callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* user) {
        auto* store = static_cast<MessageStore*>(user);
        const std::string id = data->pMessageIdName != nullptr ? data->pMessageIdName : "";
        const std::string text = data->pMessage != nullptr ? data->pMessage : "";
        std::lock_guard<std::mutex> lock(store->mutex);
        if (id == kMessageIdName()) {
            store->layer.push_back(text);
        } else if (id != "Loader Message" && severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
            store->validation.push_back("[" + id + "] " + text);
        }
        return VK_FALSE;
    }
    static const char* kMessageIdName() { return "OpenGPA-VK_AMD_gpa_interface"; }
};

VulkanEnv::VulkanEnv() : messages_(std::make_unique<MessageStore>()) {}

bool ValidationLayerInstalled() { return LayerAvailable(kValidationLayer); }

void FindBuildTreeLayers() {
    // Mesa's implicit device-select layer would sit above every layer under test on machines with Mesa (CI)
    // and not on GPU machines; it hid a fixture bug that only showed as the top layer. Test as GPU machines run.
    setenv("NODEVICE_SELECT", "1", 0);
#ifdef OPENGPA_VK_LAYER_MANIFEST_DIR
    setenv("VK_ADD_LAYER_PATH", OPENGPA_VK_LAYER_MANIFEST_DIR, 0);  // the build tree's layer, unless told otherwise
#endif
#ifdef OPENGPA_VK_TEST_FIXTURE_LAYER_DIR
    std::string paths = std::getenv("VK_ADD_LAYER_PATH") != nullptr ? std::getenv("VK_ADD_LAYER_PATH") : "";
    if (paths.find(OPENGPA_VK_TEST_FIXTURE_LAYER_DIR) == std::string::npos) {
        paths += (paths.empty() ? "" : ":") + std::string(OPENGPA_VK_TEST_FIXTURE_LAYER_DIR);
        setenv("VK_ADD_LAYER_PATH", paths.c_str(), 1);
    }
#endif
}

std::unique_ptr<VulkanEnv> VulkanEnv::Create(const EnvOptions& options, std::string* skipReason, std::string* failure) {
    FindBuildTreeLayers();
    KeepDriverLoaded();
    std::unique_ptr<VulkanEnv> env(new VulkanEnv());
    std::vector<const char*> layers;
    if (options.gpaLayer) {
        if (!LayerAvailable(VK_OPENGPA_GPA_INTERFACE_LAYER_NAME)) {
            const char* path = std::getenv("VK_ADD_LAYER_PATH");
            *failure = std::string("the Vulkan loader does not find VK_LAYER_OPENGPA_gpa_interface (VK_ADD_LAYER_PATH=") +
                       (path ? path : "") + ")";
            return nullptr;
        }
        layers.push_back(VK_OPENGPA_GPA_INTERFACE_LAYER_NAME);  // first: above validation
    }
    if (ValidationWanted()) {
        if (!LayerAvailable(kValidationLayer)) {
            const std::string why = "the Khronos validation layer is not installed (apt-get install vulkan-validationlayers); "
                                    "set OPENGPA_VK_VALIDATION=0 to run without it";
            if (ValidationRequired()) {
                *failure = why + " (OPENGPA_VK_VALIDATION=1 requires it)";
            } else {
                *skipReason = why;
            }
            return nullptr;
        }
        layers.push_back(kValidationLayer);
        env->validation = true;
    }
    if (options.performanceQueryFixture) {
        if (!LayerAvailable(kPerformanceQueryFixtureLayer)) {
            *failure = std::string("the Vulkan loader does not find the test fixture layer ") + kPerformanceQueryFixtureLayer +
                       " (built with the tests; VK_ADD_LAYER_PATH names its folder)";
            return nullptr;
        }
        layers.push_back(kPerformanceQueryFixtureLayer);  // last: below validation, which then checks its use
    }
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkDebugUtilsMessengerCreateInfoEXT messenger{};
    messenger.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = &MessageStore::Callback;
    messenger.pUserData = env->messages_.get();
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "opengpa-vulkan-tests";
    app.apiVersion = options.apiVersion;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pNext = &messenger;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = extensions;
    VkResult result = vkCreateInstance(&info, nullptr, &env->instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
        *skipReason = "no Vulkan device: vkCreateInstance found no driver (VK_ERROR_INCOMPATIBLE_DRIVER)";
        return nullptr;
    }
    if (result != VK_SUCCESS) {
        *failure = "vkCreateInstance failed with VkResult " + std::to_string(result);
        return nullptr;
    }
    auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(env->instance, "vkCreateDebugUtilsMessengerEXT"));
    createMessenger(env->instance, &messenger, nullptr, &env->messenger_);

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(env->instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(env->instance, &count, devices.data());
    const char* wanted = std::getenv("OPENGPA_VK_DEVICE");
    for (VkPhysicalDevice candidate : devices) {
        VkPhysicalDeviceProperties properties{};
        vkGetPhysicalDeviceProperties(candidate, &properties);
        if (wanted == nullptr || ContainsIgnoringCase(properties.deviceName, wanted)) {
            env->physicalDevice = candidate;
            env->properties = properties;
            break;
        }
    }
    if (env->physicalDevice == VK_NULL_HANDLE) {
        *skipReason = devices.empty() ? "no Vulkan device: the driver lists no physical device"
                                      : std::string("no Vulkan device whose name contains OPENGPA_VK_DEVICE='") + wanted + "'";
        return nullptr;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(env->physicalDevice, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(env->physicalDevice, &count, families.data());
    const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    env->queueFamily = UINT32_MAX;
    for (uint32_t i = 0; i < count && env->queueFamily == UINT32_MAX; ++i) {
        if ((families[i].queueFlags & needed) == needed) env->queueFamily = i;
    }
    if (env->queueFamily == UINT32_MAX) {
        *skipReason = std::string("no Vulkan device with a graphics and compute queue: ") + env->properties.deviceName;
        return nullptr;
    }
    if (options.gpaExtension && !env->HasDeviceExtension(VK_AMD_GPA_INTERFACE_EXTENSION_NAME)) {
        *failure = std::string("the device ") + env->properties.deviceName + " does not list VK_AMD_gpa_interface";
        return nullptr;
    }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = env->queueFamily;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    const char* deviceExtensions[] = {VK_AMD_GPA_INTERFACE_EXTENSION_NAME};
    VkDeviceCreateInfo deviceInfo{};
    deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    deviceInfo.pNext = options.deviceCreatePNext;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queue;
    deviceInfo.enabledExtensionCount = options.gpaExtension ? 1 : 0;
    deviceInfo.ppEnabledExtensionNames = deviceExtensions;
    result = vkCreateDevice(env->physicalDevice, &deviceInfo, nullptr, &env->device);
    if (result != VK_SUCCESS) {
        *failure = "vkCreateDevice failed with VkResult " + std::to_string(result);
        return nullptr;
    }
    vkGetDeviceQueue(env->device, env->queueFamily, 0, &env->queue);
    VkCommandPoolCreateInfo poolInfo{};
    poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = env->queueFamily;
    vkCreateCommandPool(env->device, &poolInfo, nullptr, &env->pool);

    auto load = [&](const char* name) { return vkGetDeviceProcAddr(env->device, name); };
    GpaFunctions& f = env->gpa;
    f.CreateGpaSession = reinterpret_cast<PFN_vkCreateGpaSessionAMD>(load("vkCreateGpaSessionAMD"));
    f.DestroyGpaSession = reinterpret_cast<PFN_vkDestroyGpaSessionAMD>(load("vkDestroyGpaSessionAMD"));
    f.SetGpaDeviceClockMode = reinterpret_cast<PFN_vkSetGpaDeviceClockModeAMD>(load("vkSetGpaDeviceClockModeAMD"));
    f.GetGpaDeviceClockInfo = reinterpret_cast<PFN_vkGetGpaDeviceClockInfoAMD>(load("vkGetGpaDeviceClockInfoAMD"));
    f.CmdBeginGpaSession = reinterpret_cast<PFN_vkCmdBeginGpaSessionAMD>(load("vkCmdBeginGpaSessionAMD"));
    f.CmdEndGpaSession = reinterpret_cast<PFN_vkCmdEndGpaSessionAMD>(load("vkCmdEndGpaSessionAMD"));
    f.CmdBeginGpaSample = reinterpret_cast<PFN_vkCmdBeginGpaSampleAMD>(load("vkCmdBeginGpaSampleAMD"));
    f.CmdEndGpaSample = reinterpret_cast<PFN_vkCmdEndGpaSampleAMD>(load("vkCmdEndGpaSampleAMD"));
    f.GetGpaSessionStatus = reinterpret_cast<PFN_vkGetGpaSessionStatusAMD>(load("vkGetGpaSessionStatusAMD"));
    f.GetGpaSessionResults = reinterpret_cast<PFN_vkGetGpaSessionResultsAMD>(load("vkGetGpaSessionResultsAMD"));
    f.ResetGpaSession = reinterpret_cast<PFN_vkResetGpaSessionAMD>(load("vkResetGpaSessionAMD"));
    f.CmdCopyGpaSessionResults = reinterpret_cast<PFN_vkCmdCopyGpaSessionResultsAMD>(load("vkCmdCopyGpaSessionResultsAMD"));
    f.GetLastMessage = reinterpret_cast<PFN_vkGetGpaInterfaceLastMessageOPENGPA>(load("vkGetGpaInterfaceLastMessageOPENGPA"));
    f.EnumerateEvents = reinterpret_cast<PFN_vkEnumerateGpaPerfEventsOPENGPA>(load("vkEnumerateGpaPerfEventsOPENGPA"));
    f.GetPassCount = reinterpret_cast<PFN_vkGetGpaPerfEventPassCountOPENGPA>(load("vkGetGpaPerfEventPassCountOPENGPA"));
    return env;
}

VulkanEnv::~VulkanEnv() { Close(); }

void VulkanEnv::Close() {
    if (device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device);
        if (!pending_.empty()) vkFreeCommandBuffers(device, pool, static_cast<uint32_t>(pending_.size()), pending_.data());
        vkDestroyCommandPool(device, pool, nullptr);
        vkDestroyDevice(device, nullptr);
        device = VK_NULL_HANDLE;
        pending_.clear();
    }
    if (instance != VK_NULL_HANDLE) {
        if (messenger_ != VK_NULL_HANDLE) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroy(instance, messenger_, nullptr);
        }
        vkDestroyInstance(instance, nullptr);
        instance = VK_NULL_HANDLE;
    }
}

std::vector<std::string> VulkanEnv::ValidationMessages() const {
    std::lock_guard<std::mutex> lock(messages_->mutex);
    return messages_->validation;
}

std::vector<std::string> VulkanEnv::LayerMessages() const {
    std::lock_guard<std::mutex> lock(messages_->mutex);
    return messages_->layer;
}

void VulkanEnv::ClearMessages() {
    std::lock_guard<std::mutex> lock(messages_->mutex);
    messages_->validation.clear();
    messages_->layer.clear();
}

VkCommandBuffer VulkanEnv::Allocate(VkCommandBufferLevel level) {
    VkCommandBufferAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    info.commandPool = pool;
    info.level = level;
    info.commandBufferCount = 1;
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
    vkAllocateCommandBuffers(device, &info, &commandBuffer);
    return commandBuffer;
}

VkCommandBuffer VulkanEnv::Begin() {
    VkCommandBuffer commandBuffer = Allocate();
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(commandBuffer, &begin);
    return commandBuffer;
}

void VulkanEnv::Submit(VkCommandBuffer commandBuffer) {
    vkEndCommandBuffer(commandBuffer);
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer;
    vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
    pending_.push_back(commandBuffer);
}

void VulkanEnv::WaitIdle() {
    vkQueueWaitIdle(queue);
    if (!pending_.empty()) vkFreeCommandBuffers(device, pool, static_cast<uint32_t>(pending_.size()), pending_.data());
    pending_.clear();
}

void VulkanEnv::SubmitAndWait(VkCommandBuffer commandBuffer) {
    Submit(commandBuffer);
    WaitIdle();
}

bool VulkanEnv::HasDeviceExtension(const char* name) const {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& extension : extensions) {
        if (std::strcmp(extension.extensionName, name) == 0) return true;
    }
    return false;
}

VkResult ReadResults(const VulkanEnv& env, VkGpaSessionAMD session, uint32_t sampleId, std::vector<uint64_t>* values) {
    size_t size = 0;
    VkResult result = env.gpa.GetGpaSessionResults(env.device, session, sampleId, &size, nullptr);
    if (result != VK_SUCCESS) return result;
    values->assign(size / sizeof(uint64_t), 0);
    return env.gpa.GetGpaSessionResults(env.device, session, sampleId, &size, values->data());
}

}  // namespace ogpa::vktest
