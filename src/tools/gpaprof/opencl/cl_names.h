// Names of OpenCL values for the API trace: error codes, info queries, flags, enumerations.
#pragma once

#include <cstdint>
#include <string>

#include "tools/gpaprof/opencl/cl_headers.h"

namespace gpaprof::ocl {

std::string ErrorName(cl_int error);
std::string BoolName(cl_bool value);

// Enumerations: the CL_ name, or the number when unknown.
enum class EnumKind {
    PlatformInfo, DeviceInfo, ContextInfo, ContextProperty, QueueInfo, QueueProperty, MemInfo, ImageInfo,
    MemObjectType, ChannelOrder, ChannelType, AddressingMode, FilterMode, SamplerInfo, SamplerProperty,
    ProgramInfo, ProgramBuildInfo, KernelInfo, KernelWorkGroupInfo, KernelArgInfo, KernelSubGroupInfo,
    KernelExecInfo, EventInfo, ProfilingInfo, CommandType, BufferCreateType, PipeInfo, PartitionProperty,
};
std::string EnumName(EnumKind kind, uint64_t value);

// Bit fields: names joined with '|', "0" for none, unknown bits in hex.
enum class FlagKind { DeviceType, QueueProperties, MemFlags, MapFlags, MigrationFlags, SvmMemFlags };
std::string FlagNames(FlagKind kind, uint64_t value);

// Whether an info query returns a string (its value is then shown as text).
bool IsStringInfo(EnumKind kind, uint64_t param);

}  // namespace gpaprof::ocl
