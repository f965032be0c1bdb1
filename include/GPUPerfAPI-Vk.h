/*
 * The Vulkan GPA library (libGPUPerfAPIVK.so): what GPA_OpenContext takes on Vulkan, and what the
 * application enables so that the library can sample counters.
 *
 *   1. Instance: the layer VK_LAYER_OPENGPA_gpa_interface (unless the driver has VK_AMD_gpa_interface
 *      itself; the layer then passes everything through) and VK_KHR_get_physical_device_properties2 (or
 *      API version 1.1). Or, for an application that cannot be changed: OPENGPA_VK_GPA_INTERFACE=1 in its
 *      environment with the layer's implicit manifest installed.
 *   2. Device: the extension VK_AMD_gpa_interface.
 *   3. GPA_OpenContext(&openInfo, flags) with the instance, physical device and device.
 *   4. OGPA_SetCommandList(commandBuffer): the command buffer that the next GPA_BeginSample/GPA_EndSample
 *      record into, and in which GPA_EndPass ends the pass (call GPA_EndPass before vkEndCommandBuffer).
 * OGPA_vkGetRequirements gives the names of step 1 and 2.
 */
#ifndef GPUPERFAPI_VK_H_
#define GPUPERFAPI_VK_H_

#include <vulkan/vulkan.h>

#include "vulkan/vk_amd_gpa_interface.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Passed to GPA_OpenContext (cast to void*) by Vulkan applications. */
typedef struct GPA_vkContextOpenInfo {
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
} GPA_vkContextOpenInfo;

/* The names of AMD's GPA header, for programs written against it. */
#define AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST { VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME }
#define AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST { VK_AMD_GPA_INTERFACE_EXTENSION_NAME }
#define AMD_GPA_OPTIONAL_DEVICE_EXTENSION_NAME_LIST { VK_AMD_GPA_INTERFACE_EXTENSION_NAME }

/* What an application enables for the Vulkan GPA library (each list ends with NULL). */
typedef struct OGPA_vkRequirements {
    const char* const* instanceLayers;      /* VK_LAYER_OPENGPA_gpa_interface */
    const char* const* instanceExtensions;  /* VK_KHR_get_physical_device_properties2 */
    const char* const* deviceExtensions;    /* VK_AMD_gpa_interface */
} OGPA_vkRequirements;

/*
 * Fills *requirements with static lists. The layer is listed only when the loader finds it
 * (vkEnumerateInstanceLayerProperties), so that an instance can always be created with the lists: on a
 * system without the layer, GPA_OpenContext then says how to install it.
 */
static inline void OGPA_vkGetRequirements(OGPA_vkRequirements* requirements) {
    static const char* const withLayer[] = {VK_OPENGPA_GPA_INTERFACE_LAYER_NAME, NULL};
    static const char* const noLayer[] = {NULL};
    static const char* const instanceExtensions[] = {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME, NULL};
    static const char* const deviceExtensions[] = {VK_AMD_GPA_INTERFACE_EXTENSION_NAME, NULL};
    uint32_t count = 0, i;
    int found = 0;
    if (vkEnumerateInstanceLayerProperties(&count, NULL) == VK_SUCCESS && count > 0) {
        VkLayerProperties layers[64];
        if (count > 64) count = 64;
        vkEnumerateInstanceLayerProperties(&count, layers);
        for (i = 0; i < count; ++i) {
            const char* a = layers[i].layerName;
            const char* b = VK_OPENGPA_GPA_INTERFACE_LAYER_NAME;
            while (*a != '\0' && *a == *b) ++a, ++b;
            if (*a == *b) found = 1;
        }
    }
    requirements->instanceLayers = found ? withLayer : noLayer;
    requirements->instanceExtensions = instanceExtensions;
    requirements->deviceExtensions = deviceExtensions;
}

#ifdef __cplusplus
}
#endif

#endif /* GPUPERFAPI_VK_H_ */
