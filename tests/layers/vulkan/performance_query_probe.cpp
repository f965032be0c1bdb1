// A probe for the GPU machine: does the Vulkan driver have VK_KHR_performance_query, and with which counters?
// It creates an instance with no layer (what the driver itself offers) and prints, for every device, lines
// starting with "[probe]": the extension and its features, each queue family's counters (name, category,
// unit, storage, scope) and the passes all of a family's counters need together. Without the extension on
// any device it skips with that reason. OPENGPA_VK_PROBE_REQUIRE=1 makes the absence a failure (the ctest
// run with the test fixture layer uses it, so that the printing is exercised in CI too).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace {

const char* UnitName(VkPerformanceCounterUnitKHR unit) {
    switch (unit) {
        case VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR: return "generic";
        case VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR: return "percentage";
        case VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR: return "nanoseconds";
        case VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR: return "bytes";
        case VK_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_KHR: return "bytes/s";
        case VK_PERFORMANCE_COUNTER_UNIT_KELVIN_KHR: return "kelvin";
        case VK_PERFORMANCE_COUNTER_UNIT_WATTS_KHR: return "watts";
        case VK_PERFORMANCE_COUNTER_UNIT_VOLTS_KHR: return "volts";
        case VK_PERFORMANCE_COUNTER_UNIT_AMPS_KHR: return "amps";
        case VK_PERFORMANCE_COUNTER_UNIT_HERTZ_KHR: return "hertz";
        case VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR: return "cycles";
        default: return "unknown unit";
    }
}

const char* StorageName(VkPerformanceCounterStorageKHR storage) {
    switch (storage) {
        case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return "int32";
        case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return "int64";
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return "uint32";
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return "uint64";
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: return "float32";
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR: return "float64";
        default: return "unknown storage";
    }
}

const char* ScopeName(VkPerformanceCounterScopeKHR scope) {
    switch (scope) {
        case VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_BUFFER_KHR: return "command buffer";
        case VK_PERFORMANCE_COUNTER_SCOPE_RENDER_PASS_KHR: return "render pass";
        case VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR: return "command";
        default: return "unknown scope";
    }
}

bool Lists(VkPhysicalDevice device, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& extension : extensions) {
        if (std::strcmp(extension.extensionName, name) == 0) return true;
    }
    return false;
}

// Prints what `device` offers; true when it has the extension.
bool ProbeDevice(VkInstance instance, VkPhysicalDevice device) {
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDevicePerformanceQueryPropertiesKHR queryProperties{};
    queryProperties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_PROPERTIES_KHR;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    const bool hasDriverProperties = Lists(device, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
    properties.pNext = hasDriverProperties ? static_cast<void*>(&driver) : nullptr;
    vkGetPhysicalDeviceProperties2(device, &properties);
    std::printf("[probe] device: %s (vendor 0x%04x, device 0x%04x, driver %s %s, Vulkan %u.%u.%u)\n",
                properties.properties.deviceName, properties.properties.vendorID, properties.properties.deviceID,
                hasDriverProperties ? driver.driverName : "?", hasDriverProperties ? driver.driverInfo : "",
                VK_API_VERSION_MAJOR(properties.properties.apiVersion), VK_API_VERSION_MINOR(properties.properties.apiVersion),
                VK_API_VERSION_PATCH(properties.properties.apiVersion));
    if (!Lists(device, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)) {
        std::printf("[probe]   VK_KHR_performance_query: not listed by the driver\n");
        return false;
    }
    VkPhysicalDevicePerformanceQueryFeaturesKHR features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
    VkPhysicalDeviceFeatures2 features2{};
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features2.pNext = &features;
    vkGetPhysicalDeviceFeatures2(device, &features2);
    properties.pNext = &queryProperties;
    vkGetPhysicalDeviceProperties2(device, &properties);
    std::printf("[probe]   VK_KHR_performance_query: listed; performanceCounterQueryPools=%u "
                "performanceCounterMultipleQueryPools=%u allowCommandBufferQueryCopies=%u\n",
                features.performanceCounterQueryPools, features.performanceCounterMultipleQueryPools,
                queryProperties.allowCommandBufferQueryCopies);

    auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR>(
        vkGetInstanceProcAddr(instance, "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR"));
    auto passes = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR>(
        vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR"));
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, families.data());
    for (uint32_t family = 0; family < familyCount; ++family) {
        uint32_t count = 0;
        const VkResult result = enumerate(device, family, &count, nullptr, nullptr);
        VkPerformanceCounterKHR blankCounter{};
        blankCounter.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
        VkPerformanceCounterDescriptionKHR blankDescription{};
        blankDescription.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
        std::vector<VkPerformanceCounterKHR> counters(count, blankCounter);
        std::vector<VkPerformanceCounterDescriptionKHR> descriptions(count, blankDescription);
        if (count > 0) enumerate(device, family, &count, counters.data(), descriptions.data());
        std::printf("[probe]   queue family %u (flags 0x%x): %u counters (VkResult %d)\n", family, families[family].queueFlags, count, result);
        std::vector<uint32_t> indices;
        for (uint32_t i = 0; i < count; ++i) {
            std::printf("[probe]     [%u] %s | %s | %s | %s | scope %s\n", i, descriptions[i].name, descriptions[i].category,
                        UnitName(counters[i].unit), StorageName(counters[i].storage), ScopeName(counters[i].scope));
            indices.push_back(i);
        }
        if (count == 0) continue;
        VkQueryPoolPerformanceCreateInfoKHR info{};
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
        info.queueFamilyIndex = family;
        info.counterIndexCount = count;
        info.pCounterIndices = indices.data();
        uint32_t allPasses = 0;
        passes(device, &info, &allPasses);
        std::printf("[probe]   queue family %u: all %u counters together need %u passes\n", family, count, allPasses);
    }
    return true;
}

// Keeps the drivers the loader loaded (Mesa's libvulkan_*.so) mapped until the process ends. The loader unloads
// them with the instance, and lavapipe keeps a buffer in a global for its life: unloaded, that buffer is reported
// as a leak of an "<unknown module>" (seen under ASan on the CI machine's kind, Mesa 22.3.6), which no
// suppression can name. Mapped, LeakSanitizer sees it held, and still reports any leak of this program's own.
void KeepDriversLoaded() {
    dl_iterate_phdr(
        [](dl_phdr_info* object, size_t, void*) {
            if (object->dlpi_name && std::strstr(object->dlpi_name, "/libvulkan_")) {
                dlopen(object->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);  // a reference never dropped
            }
            return 0;
        },
        nullptr);
}

TEST(PerformanceQueryProbe, DriverCountersPerQueueFamily) {
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "opengpa-performance-query-probe";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult created = vkCreateInstance(&info, nullptr, &instance);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER) GTEST_SKIP() << "no Vulkan driver (VK_ERROR_INCOMPATIBLE_DRIVER)";
    ASSERT_EQ(created, VK_SUCCESS);
    KeepDriversLoaded();
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    std::vector<std::string> without;
    bool any = false;
    for (VkPhysicalDevice device : devices) {
        const bool has = ProbeDevice(instance, device);
        any |= has;
        if (!has) {
            VkPhysicalDeviceProperties properties{};
            vkGetPhysicalDeviceProperties(device, &properties);
            without.push_back(properties.deviceName);
        }
    }
    std::fflush(stdout);
    vkDestroyInstance(instance, nullptr);
    std::string names;
    for (const std::string& name : without) names += (names.empty() ? "" : ", ") + name;
    const char* require = std::getenv("OPENGPA_VK_PROBE_REQUIRE");
    if (!any && require != nullptr && std::strcmp(require, "1") == 0) {
        FAIL() << "no device lists VK_KHR_performance_query (" << names << ")";
    }
    if (!any) GTEST_SKIP() << "no Vulkan driver here has VK_KHR_performance_query (" << (devices.empty() ? "no device" : names) << ")";
}

}  // namespace
