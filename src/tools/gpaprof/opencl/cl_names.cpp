#include "tools/gpaprof/opencl/cl_names.h"

#include <cinttypes>
#include <cstdio>
#include <span>

#include "tools/gpaprof/files/opencl_api_types.h"

namespace gpaprof::ocl {
namespace {

struct Named {
    uint64_t value;
    const char* name;
};

#define N(x) {static_cast<uint64_t>(x), #x}

constexpr Named kErrors[] = {
    N(CL_SUCCESS), N(CL_DEVICE_NOT_FOUND), N(CL_DEVICE_NOT_AVAILABLE), N(CL_COMPILER_NOT_AVAILABLE),
    N(CL_MEM_OBJECT_ALLOCATION_FAILURE), N(CL_OUT_OF_RESOURCES), N(CL_OUT_OF_HOST_MEMORY),
    N(CL_PROFILING_INFO_NOT_AVAILABLE), N(CL_MEM_COPY_OVERLAP), N(CL_IMAGE_FORMAT_MISMATCH),
    N(CL_IMAGE_FORMAT_NOT_SUPPORTED), N(CL_BUILD_PROGRAM_FAILURE), N(CL_MAP_FAILURE),
    N(CL_MISALIGNED_SUB_BUFFER_OFFSET), N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), N(CL_COMPILE_PROGRAM_FAILURE),
    N(CL_LINKER_NOT_AVAILABLE), N(CL_LINK_PROGRAM_FAILURE), N(CL_DEVICE_PARTITION_FAILED),
    N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE), N(CL_INVALID_VALUE), N(CL_INVALID_DEVICE_TYPE), N(CL_INVALID_PLATFORM),
    N(CL_INVALID_DEVICE), N(CL_INVALID_CONTEXT), N(CL_INVALID_QUEUE_PROPERTIES), N(CL_INVALID_COMMAND_QUEUE),
    N(CL_INVALID_HOST_PTR), N(CL_INVALID_MEM_OBJECT), N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), N(CL_INVALID_IMAGE_SIZE),
    N(CL_INVALID_SAMPLER), N(CL_INVALID_BINARY), N(CL_INVALID_BUILD_OPTIONS), N(CL_INVALID_PROGRAM),
    N(CL_INVALID_PROGRAM_EXECUTABLE), N(CL_INVALID_KERNEL_NAME), N(CL_INVALID_KERNEL_DEFINITION), N(CL_INVALID_KERNEL),
    N(CL_INVALID_ARG_INDEX), N(CL_INVALID_ARG_VALUE), N(CL_INVALID_ARG_SIZE), N(CL_INVALID_KERNEL_ARGS),
    N(CL_INVALID_WORK_DIMENSION), N(CL_INVALID_WORK_GROUP_SIZE), N(CL_INVALID_WORK_ITEM_SIZE),
    N(CL_INVALID_GLOBAL_OFFSET), N(CL_INVALID_EVENT_WAIT_LIST), N(CL_INVALID_EVENT), N(CL_INVALID_OPERATION),
    N(CL_INVALID_GL_OBJECT), N(CL_INVALID_BUFFER_SIZE), N(CL_INVALID_MIP_LEVEL), N(CL_INVALID_GLOBAL_WORK_SIZE),
    N(CL_INVALID_PROPERTY), N(CL_INVALID_IMAGE_DESCRIPTOR), N(CL_INVALID_COMPILER_OPTIONS),
    N(CL_INVALID_LINKER_OPTIONS), N(CL_INVALID_DEVICE_PARTITION_COUNT), N(CL_INVALID_PIPE_SIZE),
    N(CL_INVALID_DEVICE_QUEUE), N(CL_INVALID_SPEC_ID), N(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
    N(CL_PLATFORM_NOT_FOUND_KHR),
};

constexpr Named kPlatformInfo[] = {
    N(CL_PLATFORM_PROFILE), N(CL_PLATFORM_VERSION), N(CL_PLATFORM_NAME), N(CL_PLATFORM_VENDOR),
    N(CL_PLATFORM_EXTENSIONS), N(CL_PLATFORM_HOST_TIMER_RESOLUTION), N(CL_PLATFORM_NUMERIC_VERSION),
    N(CL_PLATFORM_EXTENSIONS_WITH_VERSION), N(CL_PLATFORM_ICD_SUFFIX_KHR),
};

constexpr Named kDeviceInfo[] = {
    N(CL_DEVICE_TYPE), N(CL_DEVICE_VENDOR_ID), N(CL_DEVICE_MAX_COMPUTE_UNITS), N(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS),
    N(CL_DEVICE_MAX_WORK_GROUP_SIZE), N(CL_DEVICE_MAX_WORK_ITEM_SIZES), N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR),
    N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT), N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT),
    N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG), N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT),
    N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), N(CL_DEVICE_MAX_CLOCK_FREQUENCY), N(CL_DEVICE_ADDRESS_BITS),
    N(CL_DEVICE_MAX_READ_IMAGE_ARGS), N(CL_DEVICE_MAX_WRITE_IMAGE_ARGS), N(CL_DEVICE_MAX_MEM_ALLOC_SIZE),
    N(CL_DEVICE_IMAGE2D_MAX_WIDTH), N(CL_DEVICE_IMAGE2D_MAX_HEIGHT), N(CL_DEVICE_IMAGE3D_MAX_WIDTH),
    N(CL_DEVICE_IMAGE3D_MAX_HEIGHT), N(CL_DEVICE_IMAGE3D_MAX_DEPTH), N(CL_DEVICE_IMAGE_SUPPORT),
    N(CL_DEVICE_MAX_PARAMETER_SIZE), N(CL_DEVICE_MAX_SAMPLERS), N(CL_DEVICE_MEM_BASE_ADDR_ALIGN),
    N(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE), N(CL_DEVICE_SINGLE_FP_CONFIG), N(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE),
    N(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE), N(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), N(CL_DEVICE_GLOBAL_MEM_SIZE),
    N(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), N(CL_DEVICE_MAX_CONSTANT_ARGS), N(CL_DEVICE_LOCAL_MEM_TYPE),
    N(CL_DEVICE_LOCAL_MEM_SIZE), N(CL_DEVICE_ERROR_CORRECTION_SUPPORT), N(CL_DEVICE_PROFILING_TIMER_RESOLUTION),
    N(CL_DEVICE_ENDIAN_LITTLE), N(CL_DEVICE_AVAILABLE), N(CL_DEVICE_COMPILER_AVAILABLE),
    N(CL_DEVICE_EXECUTION_CAPABILITIES), N(CL_DEVICE_QUEUE_PROPERTIES), N(CL_DEVICE_NAME), N(CL_DEVICE_VENDOR),
    N(CL_DRIVER_VERSION), N(CL_DEVICE_PROFILE), N(CL_DEVICE_VERSION), N(CL_DEVICE_EXTENSIONS), N(CL_DEVICE_PLATFORM),
    N(CL_DEVICE_DOUBLE_FP_CONFIG), N(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), N(CL_DEVICE_HOST_UNIFIED_MEMORY),
    N(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR), N(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT), N(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT),
    N(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG), N(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT),
    N(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE), N(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), N(CL_DEVICE_OPENCL_C_VERSION),
    N(CL_DEVICE_LINKER_AVAILABLE), N(CL_DEVICE_BUILT_IN_KERNELS), N(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE),
    N(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), N(CL_DEVICE_PARENT_DEVICE), N(CL_DEVICE_PARTITION_MAX_SUB_DEVICES),
    N(CL_DEVICE_PARTITION_PROPERTIES), N(CL_DEVICE_PARTITION_AFFINITY_DOMAIN), N(CL_DEVICE_PARTITION_TYPE),
    N(CL_DEVICE_REFERENCE_COUNT), N(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC), N(CL_DEVICE_PRINTF_BUFFER_SIZE),
    N(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), N(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE),
    N(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES), N(CL_DEVICE_SVM_CAPABILITIES), N(CL_DEVICE_MAX_PIPE_ARGS),
    N(CL_DEVICE_IL_VERSION), N(CL_DEVICE_MAX_NUM_SUB_GROUPS), N(CL_DEVICE_NUMERIC_VERSION),
    N(CL_DEVICE_EXTENSIONS_WITH_VERSION), N(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES),
    N(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT), N(CL_DEVICE_OPENCL_C_ALL_VERSIONS),
    N(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), N(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
};

constexpr Named kContextInfo[] = {
    N(CL_CONTEXT_REFERENCE_COUNT), N(CL_CONTEXT_DEVICES), N(CL_CONTEXT_PROPERTIES), N(CL_CONTEXT_NUM_DEVICES),
};

constexpr Named kContextProperty[] = {N(CL_CONTEXT_PLATFORM), N(CL_CONTEXT_INTEROP_USER_SYNC)};

constexpr Named kQueueInfo[] = {
    N(CL_QUEUE_CONTEXT), N(CL_QUEUE_DEVICE), N(CL_QUEUE_REFERENCE_COUNT), N(CL_QUEUE_PROPERTIES), N(CL_QUEUE_SIZE),
    N(CL_QUEUE_DEVICE_DEFAULT), N(CL_QUEUE_PROPERTIES_ARRAY),
};

constexpr Named kQueueProperty[] = {N(CL_QUEUE_PROPERTIES), N(CL_QUEUE_SIZE)};

constexpr Named kMemInfo[] = {
    N(CL_MEM_TYPE), N(CL_MEM_FLAGS), N(CL_MEM_SIZE), N(CL_MEM_HOST_PTR), N(CL_MEM_MAP_COUNT),
    N(CL_MEM_REFERENCE_COUNT), N(CL_MEM_CONTEXT), N(CL_MEM_ASSOCIATED_MEMOBJECT), N(CL_MEM_OFFSET),
    N(CL_MEM_USES_SVM_POINTER), N(CL_MEM_PROPERTIES),
};

constexpr Named kImageInfo[] = {
    N(CL_IMAGE_FORMAT), N(CL_IMAGE_ELEMENT_SIZE), N(CL_IMAGE_ROW_PITCH), N(CL_IMAGE_SLICE_PITCH), N(CL_IMAGE_WIDTH),
    N(CL_IMAGE_HEIGHT), N(CL_IMAGE_DEPTH), N(CL_IMAGE_ARRAY_SIZE), N(CL_IMAGE_BUFFER), N(CL_IMAGE_NUM_MIP_LEVELS),
    N(CL_IMAGE_NUM_SAMPLES),
};

constexpr Named kMemObjectType[] = {
    N(CL_MEM_OBJECT_BUFFER), N(CL_MEM_OBJECT_IMAGE2D), N(CL_MEM_OBJECT_IMAGE3D), N(CL_MEM_OBJECT_IMAGE2D_ARRAY),
    N(CL_MEM_OBJECT_IMAGE1D), N(CL_MEM_OBJECT_IMAGE1D_ARRAY), N(CL_MEM_OBJECT_IMAGE1D_BUFFER), N(CL_MEM_OBJECT_PIPE),
};

constexpr Named kChannelOrder[] = {
    N(CL_R), N(CL_A), N(CL_RG), N(CL_RA), N(CL_RGB), N(CL_RGBA), N(CL_BGRA), N(CL_ARGB), N(CL_INTENSITY),
    N(CL_LUMINANCE), N(CL_Rx), N(CL_RGx), N(CL_RGBx), N(CL_DEPTH), N(CL_sRGB), N(CL_sRGBx), N(CL_sRGBA),
    N(CL_sBGRA), N(CL_ABGR),
};

constexpr Named kChannelType[] = {
    N(CL_SNORM_INT8), N(CL_SNORM_INT16), N(CL_UNORM_INT8), N(CL_UNORM_INT16), N(CL_UNORM_SHORT_565),
    N(CL_UNORM_SHORT_555), N(CL_UNORM_INT_101010), N(CL_SIGNED_INT8), N(CL_SIGNED_INT16), N(CL_SIGNED_INT32),
    N(CL_UNSIGNED_INT8), N(CL_UNSIGNED_INT16), N(CL_UNSIGNED_INT32), N(CL_HALF_FLOAT), N(CL_FLOAT),
    N(CL_UNORM_INT_101010_2),
};

constexpr Named kAddressingMode[] = {
    N(CL_ADDRESS_NONE), N(CL_ADDRESS_CLAMP_TO_EDGE), N(CL_ADDRESS_CLAMP), N(CL_ADDRESS_REPEAT),
    N(CL_ADDRESS_MIRRORED_REPEAT),
};

constexpr Named kFilterMode[] = {N(CL_FILTER_NEAREST), N(CL_FILTER_LINEAR)};

constexpr Named kSamplerInfo[] = {
    N(CL_SAMPLER_REFERENCE_COUNT), N(CL_SAMPLER_CONTEXT), N(CL_SAMPLER_NORMALIZED_COORDS),
    N(CL_SAMPLER_ADDRESSING_MODE), N(CL_SAMPLER_FILTER_MODE), N(CL_SAMPLER_PROPERTIES),
};

constexpr Named kSamplerProperty[] = {
    N(CL_SAMPLER_NORMALIZED_COORDS), N(CL_SAMPLER_ADDRESSING_MODE), N(CL_SAMPLER_FILTER_MODE),
};

constexpr Named kProgramInfo[] = {
    N(CL_PROGRAM_REFERENCE_COUNT), N(CL_PROGRAM_CONTEXT), N(CL_PROGRAM_NUM_DEVICES), N(CL_PROGRAM_DEVICES),
    N(CL_PROGRAM_SOURCE), N(CL_PROGRAM_BINARY_SIZES), N(CL_PROGRAM_BINARIES), N(CL_PROGRAM_NUM_KERNELS),
    N(CL_PROGRAM_KERNEL_NAMES), N(CL_PROGRAM_IL), N(CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT),
    N(CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT),
};

constexpr Named kProgramBuildInfo[] = {
    N(CL_PROGRAM_BUILD_STATUS), N(CL_PROGRAM_BUILD_OPTIONS), N(CL_PROGRAM_BUILD_LOG), N(CL_PROGRAM_BINARY_TYPE),
    N(CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE),
};

constexpr Named kKernelInfo[] = {
    N(CL_KERNEL_FUNCTION_NAME), N(CL_KERNEL_NUM_ARGS), N(CL_KERNEL_REFERENCE_COUNT), N(CL_KERNEL_CONTEXT),
    N(CL_KERNEL_PROGRAM), N(CL_KERNEL_ATTRIBUTES),
};

constexpr Named kKernelWorkGroupInfo[] = {
    N(CL_KERNEL_WORK_GROUP_SIZE), N(CL_KERNEL_COMPILE_WORK_GROUP_SIZE), N(CL_KERNEL_LOCAL_MEM_SIZE),
    N(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), N(CL_KERNEL_PRIVATE_MEM_SIZE), N(CL_KERNEL_GLOBAL_WORK_SIZE),
};

constexpr Named kKernelArgInfo[] = {
    N(CL_KERNEL_ARG_ADDRESS_QUALIFIER), N(CL_KERNEL_ARG_ACCESS_QUALIFIER), N(CL_KERNEL_ARG_TYPE_NAME),
    N(CL_KERNEL_ARG_TYPE_QUALIFIER), N(CL_KERNEL_ARG_NAME),
};

constexpr Named kKernelSubGroupInfo[] = {
    N(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE), N(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE),
    N(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT), N(CL_KERNEL_MAX_NUM_SUB_GROUPS), N(CL_KERNEL_COMPILE_NUM_SUB_GROUPS),
};

constexpr Named kKernelExecInfo[] = {N(CL_KERNEL_EXEC_INFO_SVM_PTRS), N(CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)};

constexpr Named kEventInfo[] = {
    N(CL_EVENT_COMMAND_QUEUE), N(CL_EVENT_COMMAND_TYPE), N(CL_EVENT_REFERENCE_COUNT),
    N(CL_EVENT_COMMAND_EXECUTION_STATUS), N(CL_EVENT_CONTEXT),
};

constexpr Named kProfilingInfo[] = {
    N(CL_PROFILING_COMMAND_QUEUED), N(CL_PROFILING_COMMAND_SUBMIT), N(CL_PROFILING_COMMAND_START),
    N(CL_PROFILING_COMMAND_END), N(CL_PROFILING_COMMAND_COMPLETE),
};

constexpr Named kBufferCreateType[] = {N(CL_BUFFER_CREATE_TYPE_REGION)};
constexpr Named kPipeInfo[] = {N(CL_PIPE_PACKET_SIZE), N(CL_PIPE_MAX_PACKETS), N(CL_PIPE_PROPERTIES)};
constexpr Named kPartitionProperty[] = {
    N(CL_DEVICE_PARTITION_EQUALLY), N(CL_DEVICE_PARTITION_BY_COUNTS), N(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END),
    N(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN),
};

constexpr Named kDeviceTypeFlags[] = {
    N(CL_DEVICE_TYPE_DEFAULT), N(CL_DEVICE_TYPE_CPU), N(CL_DEVICE_TYPE_GPU), N(CL_DEVICE_TYPE_ACCELERATOR),
    N(CL_DEVICE_TYPE_CUSTOM),
};

constexpr Named kQueuePropertyFlags[] = {
    N(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), N(CL_QUEUE_PROFILING_ENABLE), N(CL_QUEUE_ON_DEVICE),
    N(CL_QUEUE_ON_DEVICE_DEFAULT),
};

constexpr Named kMemFlags[] = {
    N(CL_MEM_READ_WRITE), N(CL_MEM_WRITE_ONLY), N(CL_MEM_READ_ONLY), N(CL_MEM_USE_HOST_PTR), N(CL_MEM_ALLOC_HOST_PTR),
    N(CL_MEM_COPY_HOST_PTR), N(CL_MEM_HOST_WRITE_ONLY), N(CL_MEM_HOST_READ_ONLY), N(CL_MEM_HOST_NO_ACCESS),
    N(CL_MEM_KERNEL_READ_AND_WRITE),
};

constexpr Named kMapFlags[] = {N(CL_MAP_READ), N(CL_MAP_WRITE), N(CL_MAP_WRITE_INVALIDATE_REGION)};
constexpr Named kMigrationFlags[] = {N(CL_MIGRATE_MEM_OBJECT_HOST), N(CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)};
constexpr Named kSvmMemFlags[] = {
    N(CL_MEM_READ_WRITE), N(CL_MEM_WRITE_ONLY), N(CL_MEM_READ_ONLY), N(CL_MEM_SVM_FINE_GRAIN_BUFFER),
    N(CL_MEM_SVM_ATOMICS),
};

#undef N

std::span<const Named> TableFor(EnumKind kind) {
    switch (kind) {
        case EnumKind::PlatformInfo: return kPlatformInfo;
        case EnumKind::DeviceInfo: return kDeviceInfo;
        case EnumKind::ContextInfo: return kContextInfo;
        case EnumKind::ContextProperty: return kContextProperty;
        case EnumKind::QueueInfo: return kQueueInfo;
        case EnumKind::QueueProperty: return kQueueProperty;
        case EnumKind::MemInfo: return kMemInfo;
        case EnumKind::ImageInfo: return kImageInfo;
        case EnumKind::MemObjectType: return kMemObjectType;
        case EnumKind::ChannelOrder: return kChannelOrder;
        case EnumKind::ChannelType: return kChannelType;
        case EnumKind::AddressingMode: return kAddressingMode;
        case EnumKind::FilterMode: return kFilterMode;
        case EnumKind::SamplerInfo: return kSamplerInfo;
        case EnumKind::SamplerProperty: return kSamplerProperty;
        case EnumKind::ProgramInfo: return kProgramInfo;
        case EnumKind::ProgramBuildInfo: return kProgramBuildInfo;
        case EnumKind::KernelInfo: return kKernelInfo;
        case EnumKind::KernelWorkGroupInfo: return kKernelWorkGroupInfo;
        case EnumKind::KernelArgInfo: return kKernelArgInfo;
        case EnumKind::KernelSubGroupInfo: return kKernelSubGroupInfo;
        case EnumKind::KernelExecInfo: return kKernelExecInfo;
        case EnumKind::EventInfo: return kEventInfo;
        case EnumKind::ProfilingInfo: return kProfilingInfo;
        case EnumKind::CommandType: return {};
        case EnumKind::BufferCreateType: return kBufferCreateType;
        case EnumKind::PipeInfo: return kPipeInfo;
        case EnumKind::PartitionProperty: return kPartitionProperty;
    }
    return {};
}

std::span<const Named> TableFor(FlagKind kind) {
    switch (kind) {
        case FlagKind::DeviceType: return kDeviceTypeFlags;
        case FlagKind::QueueProperties: return kQueuePropertyFlags;
        case FlagKind::MemFlags: return kMemFlags;
        case FlagKind::MapFlags: return kMapFlags;
        case FlagKind::MigrationFlags: return kMigrationFlags;
        case FlagKind::SvmMemFlags: return kSvmMemFlags;
    }
    return {};
}

std::string Hex(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%" PRIX64, value);
    return buffer;
}

}  // namespace

std::string ErrorName(cl_int error) {
    for (const Named& named : kErrors) {
        if (static_cast<cl_int>(static_cast<int64_t>(named.value)) == error) return named.name;
    }
    return std::to_string(error);
}

std::string BoolName(cl_bool value) {
    if (value == CL_TRUE) return "CL_TRUE";
    if (value == CL_FALSE) return "CL_FALSE";
    return std::to_string(value);
}

std::string EnumName(EnumKind kind, uint64_t value) {
    if (kind == EnumKind::CommandType) return CommandTypeName(static_cast<uint32_t>(value));
    for (const Named& named : TableFor(kind)) {
        if (named.value == value) return named.name;
    }
    return Hex(value);
}

std::string FlagNames(FlagKind kind, uint64_t value) {
    if (value == 0) return "0";
    if (kind == FlagKind::DeviceType && value == CL_DEVICE_TYPE_ALL) return "CL_DEVICE_TYPE_ALL";
    std::string text;
    uint64_t rest = value;
    for (const Named& named : TableFor(kind)) {
        if (named.value != 0 && (value & named.value) == named.value) {
            text += (text.empty() ? "" : "|") + std::string(named.name);
            rest &= ~named.value;
        }
    }
    if (rest != 0) text += (text.empty() ? "" : "|") + Hex(rest);
    return text;
}

bool IsStringInfo(EnumKind kind, uint64_t param) {
    switch (kind) {
        case EnumKind::PlatformInfo:
            return param == CL_PLATFORM_PROFILE || param == CL_PLATFORM_VERSION || param == CL_PLATFORM_NAME ||
                   param == CL_PLATFORM_VENDOR || param == CL_PLATFORM_EXTENSIONS || param == CL_PLATFORM_ICD_SUFFIX_KHR;
        case EnumKind::DeviceInfo:
            return param == CL_DEVICE_NAME || param == CL_DEVICE_VENDOR || param == CL_DRIVER_VERSION ||
                   param == CL_DEVICE_PROFILE || param == CL_DEVICE_VERSION || param == CL_DEVICE_EXTENSIONS ||
                   param == CL_DEVICE_OPENCL_C_VERSION || param == CL_DEVICE_BUILT_IN_KERNELS ||
                   param == CL_DEVICE_IL_VERSION || param == CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED;
        case EnumKind::ProgramInfo: return param == CL_PROGRAM_SOURCE || param == CL_PROGRAM_KERNEL_NAMES;
        case EnumKind::ProgramBuildInfo: return param == CL_PROGRAM_BUILD_OPTIONS || param == CL_PROGRAM_BUILD_LOG;
        case EnumKind::KernelInfo: return param == CL_KERNEL_FUNCTION_NAME || param == CL_KERNEL_ATTRIBUTES;
        case EnumKind::KernelArgInfo: return param == CL_KERNEL_ARG_TYPE_NAME || param == CL_KERNEL_ARG_NAME;
        default: return false;
    }
}

}  // namespace gpaprof::ocl
