/*
 * VK_AMD_gpa_interface: the device extension through which a GPA library samples GPU counters on Vulkan
 * (sessions; cumulative, timing and trace samples; clock modes; counter block properties).
 *
 * Names, values and layouts follow the extension's proposal and the Vulkan registry (extension number
 * 134, so enum values 1000133xxx), so that code compiled against the official headers and code compiled
 * against this header agree. Vulkan headers that already define the extension (they define the macro
 * VK_AMD_gpa_interface) are used as they are; this header then adds nothing but the older alias below.
 *
 * OpenGPA implements the extension on any Vulkan driver as the layer VK_LAYER_OPENGPA_gpa_interface
 * (docs/vulkan_layer.md); drivers with a native implementation work the same way.
 */
#ifndef OPENGPA_VK_AMD_GPA_INTERFACE_H_
#define OPENGPA_VK_AMD_GPA_INTERFACE_H_

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef VK_AMD_gpa_interface
#define VK_AMD_gpa_interface 1
#define VK_AMD_GPA_INTERFACE_SPEC_VERSION 1
#define VK_AMD_GPA_INTERFACE_EXTENSION_NAME "VK_AMD_gpa_interface"

VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkGpaSessionAMD)

/* Registry values: base 1000000000 + (134 - 1) * 1000. */
#define VK_OBJECT_TYPE_GPA_SESSION_AMD ((VkObjectType)1000133000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD ((VkStructureType)1000133000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD ((VkStructureType)1000133001)
#define VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD ((VkStructureType)1000133002)
#define VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD ((VkStructureType)1000133003)
#define VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD ((VkStructureType)1000133004)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD ((VkStructureType)1000133005)
#define VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD ((VkStructureType)1000133006)

typedef enum VkGpaPerfBlockAMD {
    VK_GPA_PERF_BLOCK_CPF_AMD = 0,
    VK_GPA_PERF_BLOCK_IA_AMD = 1,
    VK_GPA_PERF_BLOCK_VGT_AMD = 2,
    VK_GPA_PERF_BLOCK_PA_AMD = 3,
    VK_GPA_PERF_BLOCK_SC_AMD = 4,
    VK_GPA_PERF_BLOCK_SPI_AMD = 5,
    VK_GPA_PERF_BLOCK_SQ_AMD = 6,
    VK_GPA_PERF_BLOCK_SX_AMD = 7,
    VK_GPA_PERF_BLOCK_TA_AMD = 8,
    VK_GPA_PERF_BLOCK_TD_AMD = 9,
    VK_GPA_PERF_BLOCK_TCP_AMD = 10,
    VK_GPA_PERF_BLOCK_TCC_AMD = 11,
    VK_GPA_PERF_BLOCK_TCA_AMD = 12,
    VK_GPA_PERF_BLOCK_DB_AMD = 13,
    VK_GPA_PERF_BLOCK_CB_AMD = 14,
    VK_GPA_PERF_BLOCK_GDS_AMD = 15,
    VK_GPA_PERF_BLOCK_SRBM_AMD = 16,
    VK_GPA_PERF_BLOCK_GRBM_AMD = 17,
    VK_GPA_PERF_BLOCK_GRBM_SE_AMD = 18,
    VK_GPA_PERF_BLOCK_RLC_AMD = 19,
    VK_GPA_PERF_BLOCK_DMA_AMD = 20,
    VK_GPA_PERF_BLOCK_MC_AMD = 21,
    VK_GPA_PERF_BLOCK_CPG_AMD = 22,
    VK_GPA_PERF_BLOCK_CPC_AMD = 23,
    VK_GPA_PERF_BLOCK_WD_AMD = 24,
    VK_GPA_PERF_BLOCK_TCS_AMD = 25,
    VK_GPA_PERF_BLOCK_ATC_AMD = 26,
    VK_GPA_PERF_BLOCK_ATC_L2_AMD = 27,
    VK_GPA_PERF_BLOCK_MC_VM_L2_AMD = 28,
    VK_GPA_PERF_BLOCK_EA_AMD = 29,
    VK_GPA_PERF_BLOCK_RPB_AMD = 30,
    VK_GPA_PERF_BLOCK_RMI_AMD = 31,
    VK_GPA_PERF_BLOCK_UMCCH_AMD = 32,
    VK_GPA_PERF_BLOCK_GE_AMD = 33,
    VK_GPA_PERF_BLOCK_GL1A_AMD = 34,
    VK_GPA_PERF_BLOCK_GL1C_AMD = 35,
    VK_GPA_PERF_BLOCK_GL1CG_AMD = 36,
    VK_GPA_PERF_BLOCK_GL2A_AMD = 37,
    VK_GPA_PERF_BLOCK_GL2C_AMD = 38,
    VK_GPA_PERF_BLOCK_CHA_AMD = 39,
    VK_GPA_PERF_BLOCK_CHC_AMD = 40,
    VK_GPA_PERF_BLOCK_CHCG_AMD = 41,
    VK_GPA_PERF_BLOCK_GUS_AMD = 42,
    VK_GPA_PERF_BLOCK_GCR_AMD = 43,
    VK_GPA_PERF_BLOCK_PH_AMD = 44,
    VK_GPA_PERF_BLOCK_UTCL1_AMD = 45,
    VK_GPA_PERF_BLOCK_GE_DIST_AMD = 46,
    VK_GPA_PERF_BLOCK_GE_SE_AMD = 47,
    VK_GPA_PERF_BLOCK_DF_MALL_AMD = 48,
    VK_GPA_PERF_BLOCK_SQ_WGP_AMD = 49,
    VK_GPA_PERF_BLOCK_PC_AMD = 50,
    VK_GPA_PERF_BLOCK_GL1XA_AMD = 51,
    VK_GPA_PERF_BLOCK_GL1XC_AMD = 52,
    VK_GPA_PERF_BLOCK_WGS_AMD = 53,
    VK_GPA_PERF_BLOCK_EACPWD_AMD = 54,
    VK_GPA_PERF_BLOCK_EASE_AMD = 55,
    VK_GPA_PERF_BLOCK_RLCUSER_AMD = 56,
    VK_GPA_PERF_BLOCK_GE1_AMD = VK_GPA_PERF_BLOCK_GE_AMD,
    VK_GPA_PERF_BLOCK_RLCLOCAL_AMD = VK_GPA_PERF_BLOCK_RLCUSER_AMD,
    VK_GPA_PERF_BLOCK_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaPerfBlockAMD;

typedef enum VkGpaSampleTypeAMD {
    VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD = 0,
    VK_GPA_SAMPLE_TYPE_TRACE_AMD = 1,
    VK_GPA_SAMPLE_TYPE_TIMING_AMD = 2,
    VK_GPA_SAMPLE_TYPE_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaSampleTypeAMD;

typedef enum VkGpaSqShaderStageFlagBitsAMD {
    VK_GPA_SQ_SHADER_STAGE_PS_BIT_AMD = 0x00000001,
    VK_GPA_SQ_SHADER_STAGE_VS_BIT_AMD = 0x00000002,
    VK_GPA_SQ_SHADER_STAGE_GS_BIT_AMD = 0x00000004,
    VK_GPA_SQ_SHADER_STAGE_ES_BIT_AMD = 0x00000008,
    VK_GPA_SQ_SHADER_STAGE_HS_BIT_AMD = 0x00000010,
    VK_GPA_SQ_SHADER_STAGE_LS_BIT_AMD = 0x00000020,
    VK_GPA_SQ_SHADER_STAGE_CS_BIT_AMD = 0x00000040,
    VK_GPA_SQ_SHADER_STAGE_FLAG_BITS_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaSqShaderStageFlagBitsAMD;
typedef VkFlags VkGpaSqShaderStageFlagsAMD;

typedef enum VkGpaDeviceClockModeAMD {
    VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD = 0,
    VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD = 1,
    VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD = 2,
    VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD = 3,
    VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD = 4,
    VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD = 5,
    VK_GPA_DEVICE_CLOCK_MODE_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaDeviceClockModeAMD;

typedef VkFlags VkGpaPerfBlockPropertiesFlagsAMD;
typedef VkFlags VkPhysicalDeviceGpaPropertiesFlagsAMD;

typedef struct VkGpaPerfBlockPropertiesAMD {
    VkGpaPerfBlockAMD blockType;
    VkGpaPerfBlockPropertiesFlagsAMD flags;
    uint32_t instanceCount;
    uint32_t maxEventID;
    uint32_t maxGlobalOnlyCounters;
    uint32_t maxGlobalSharedCounters;
    uint32_t maxStreamingCounters;
} VkGpaPerfBlockPropertiesAMD;

/* Extends VkPhysicalDeviceProperties2. pPerfBlocks NULL: perfBlockCount receives the number of blocks. */
typedef struct VkPhysicalDeviceGpaPropertiesAMD {
    VkStructureType sType;
    void* pNext;
    VkPhysicalDeviceGpaPropertiesFlagsAMD flags;
    VkDeviceSize maxSqttSeBufferSize;
    uint32_t shaderEngineCount;
    uint32_t perfBlockCount;
    VkGpaPerfBlockPropertiesAMD* pPerfBlocks;
} VkPhysicalDeviceGpaPropertiesAMD;

/* Extends VkPhysicalDeviceProperties2. */
typedef struct VkPhysicalDeviceGpaProperties2AMD {
    VkStructureType sType;
    void* pNext;
    uint32_t revisionId;
} VkPhysicalDeviceGpaProperties2AMD;

/* Extends VkPhysicalDeviceFeatures2 and VkDeviceCreateInfo. */
typedef struct VkPhysicalDeviceGpaFeaturesAMD {
    VkStructureType sType;
    void* pNext;
    VkBool32 perfCounters;
    VkBool32 streamingPerfCounters;
    VkBool32 sqThreadTracing;
    VkBool32 clockModes;
} VkPhysicalDeviceGpaFeaturesAMD;

typedef struct VkGpaPerfCounterAMD {
    VkGpaPerfBlockAMD blockType;
    uint32_t blockInstance;
    uint32_t eventID;
} VkGpaPerfCounterAMD;

typedef struct VkGpaSampleBeginInfoAMD {
    VkStructureType sType;
    const void* pNext;
    VkGpaSampleTypeAMD sampleType;
    VkBool32 sampleInternalOperations;
    VkBool32 cacheFlushOnCounterCollection;
    VkBool32 sqShaderMaskEnable;
    VkGpaSqShaderStageFlagsAMD sqShaderMask;
    uint32_t perfCounterCount;
    const VkGpaPerfCounterAMD* pPerfCounters;
    uint32_t streamingPerfTraceSampleInterval;
    VkDeviceSize perfCounterDeviceMemoryLimit;
    VkBool32 sqThreadTraceEnable;
    VkBool32 sqThreadTraceSuppressInstructionTokens;
    VkDeviceSize sqThreadTraceDeviceMemoryLimit;
    VkPipelineStageFlags timingPreSample;
    VkPipelineStageFlags timingPostSample;
} VkGpaSampleBeginInfoAMD;

typedef struct VkGpaSessionCreateInfoAMD {
    VkStructureType sType;
    const void* pNext;
    VkGpaSessionAMD secondaryCopySource;
} VkGpaSessionCreateInfoAMD;

typedef struct VkGpaDeviceClockModeInfoAMD {
    VkStructureType sType;
    const void* pNext;
    VkGpaDeviceClockModeAMD clockMode;
    float memoryClockRatioToPeak;
    float engineClockRatioToPeak;
} VkGpaDeviceClockModeInfoAMD;

typedef struct VkGpaDeviceGetClockInfoAMD {
    VkStructureType sType;
    void* pNext;
    float memoryClockRatioToPeak;
    float engineClockRatioToPeak;
    uint32_t memoryClockFrequency;
    uint32_t engineClockFrequency;
} VkGpaDeviceGetClockInfoAMD;

typedef VkResult(VKAPI_PTR* PFN_vkCreateGpaSessionAMD)(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                        const VkAllocationCallbacks* pAllocator,
                                                        VkGpaSessionAMD* pGpaSession);
typedef void(VKAPI_PTR* PFN_vkDestroyGpaSessionAMD)(VkDevice device, VkGpaSessionAMD gpaSession,
                                                     const VkAllocationCallbacks* pAllocator);
typedef VkResult(VKAPI_PTR* PFN_vkSetGpaDeviceClockModeAMD)(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaDeviceClockInfoAMD)(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo);
typedef VkResult(VKAPI_PTR* PFN_vkCmdBeginGpaSessionAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkCmdEndGpaSessionAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkCmdBeginGpaSampleAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                         const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo,
                                                         uint32_t* pSampleID);
typedef void(VKAPI_PTR* PFN_vkCmdEndGpaSampleAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                   uint32_t sampleID);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaSessionStatusAMD)(VkDevice device, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaSessionResultsAMD)(VkDevice device, VkGpaSessionAMD gpaSession,
                                                            uint32_t sampleID, size_t* pSizeInBytes, void* pData);
typedef VkResult(VKAPI_PTR* PFN_vkResetGpaSessionAMD)(VkDevice device, VkGpaSessionAMD gpaSession);
typedef void(VKAPI_PTR* PFN_vkCmdCopyGpaSessionResultsAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);

/* No prototypes: the functions come from vkGetDeviceProcAddr (the loader does not export them). */
#endif /* VK_AMD_gpa_interface */

/* The name AMD's earlier header gave VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD. */
#ifndef VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES2_AMD
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES2_AMD VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD
#endif

/*
 * OpenGPA's layer, which implements the extension on drivers that lack it. Besides the extension's
 * functions it has three of its own, reached through vkGetDeviceProcAddr on a device that enabled the
 * extension. The first is the calling thread's last error or warning from the layer ("" if none), so that a
 * tool can say why a call was refused. Its presence also tells that the layer, not the driver, implements
 * the extension, so that the blocks and events are those of docs/vulkan_layer.md. The other two describe
 * the events (names, units) and the passes a set of them needs.
 */
#define VK_OPENGPA_GPA_INTERFACE_LAYER_NAME "VK_LAYER_OPENGPA_gpa_interface"
typedef const char*(VKAPI_PTR* PFN_vkGetGpaInterfaceLastMessageOPENGPA)(VkDevice device);

/*
 * OpenGPA's block of VK_KHR_performance_query counters. Where the driver below the layer has
 * VK_KHR_performance_query with its performanceCounterQueryPools feature, VkPhysicalDeviceGpaPropertiesAMD
 * lists this block after the others; its events are the driver's counters, numbered as
 * docs/vulkan_layer.md says (the union over queue families, in the driver's order). The value lies far
 * outside the range of AMD's blocks. A cumulative sample's 64-bit result for one of its events holds the
 * driver's value widened: int32 and int64 counters as a two's complement int64, uint32 and uint64 as a
 * uint64, float32 and float64 as the bits of an IEEE 754 double (copy them into a double).
 */
#define VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA ((VkGpaPerfBlockAMD)0x10000)
/*
 * OpenGPA's block of NVIDIA metrics from device-level PM sampling (CUPTI), offered on NVIDIA GPUs where the layer
 * was built with CUPTI and sampling starts. Its events are NVIDIA metrics named as ncu names them
 * (vkEnumerateGpaPerfEventsOPENGPA), in a fixed order (docs/vulkan_layer.md). A cumulative sample's 64-bit result
 * for one of its events holds the bits of an IEEE 754 double (copy them into a double; NaN: not known): the
 * metric integrated over the sample's GPU begin and end. A trace sample of its events gets OpenGPA's SPM trace
 * format (docs/pm_sampling_trace_format.md). Device-wide: other work on the GPU is in the values.
 */
#define VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA ((VkGpaPerfBlockAMD)0x10001)

/* What one event of a block counts: the names the extension's structures do not carry. */
typedef struct VkGpaPerfEventPropertiesOPENGPA {
    VkGpaPerfBlockAMD blockType;
    uint32_t eventID;
    char name[VK_MAX_DESCRIPTION_SIZE];        /* OpenGPA's name ("IA.vertices"), or the driver's counter name */
    char category[VK_MAX_DESCRIPTION_SIZE];    /* the driver's category; for the other blocks the Vulkan query */
    char description[VK_MAX_DESCRIPTION_SIZE];
    VkPerformanceCounterUnitKHR unit;          /* GENERIC for pipeline statistics and occlusion */
    VkPerformanceCounterStorageKHR storage;    /* how the driver stores it (see the block above); UINT64 otherwise */
    VkPerformanceCounterScopeKHR scope;        /* COMMAND for pipeline statistics and occlusion */
    uint32_t queueFamilyMask;                  /* bit i: counted in command buffers of queue family i */
    uint8_t uuid[VK_UUID_SIZE];                /* the driver's counter UUID; zeros for the other blocks */
} VkGpaPerfEventPropertiesOPENGPA;

/*
 * The events of `blockType` in event id order, with Vulkan's count-then-fill convention (VK_INCOMPLETE
 * when *pEventCount was too small). VK_ERROR_FEATURE_NOT_PRESENT for a block the device does not offer.
 */
typedef VkResult(VKAPI_PTR* PFN_vkEnumerateGpaPerfEventsOPENGPA)(VkDevice device, VkGpaPerfBlockAMD blockType,
                                                                  uint32_t* pEventCount,
                                                                  VkGpaPerfEventPropertiesOPENGPA* pEvents);

/*
 * How many passes a cumulative sample of these counters would need in a command buffer of queue family
 * `queueFamilyIndex` (vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR for the
 * VK_KHR_performance_query counters among them; 1 for the others). The layer records samples of one pass
 * only: vkCmdBeginGpaSampleAMD refuses a set that needs more. Errors as vkCmdBeginGpaSampleAMD's for
 * VK_KHR_performance_query events that are not counted there; the events of the other blocks need no pass of
 * their own and are not looked at.
 */
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaPerfEventPassCountOPENGPA)(VkDevice device, uint32_t queueFamilyIndex,
                                                                    uint32_t counterCount,
                                                                    const VkGpaPerfCounterAMD* pCounters,
                                                                    uint32_t* pPassCount);

#ifdef __cplusplus
}
#endif

#endif /* OPENGPA_VK_AMD_GPA_INTERFACE_H_ */
