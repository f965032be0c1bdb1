#include "tools/gpaprof/files/opencl_api_types.h"

#include <algorithm>

namespace gpaprof::ocl {
namespace {

struct Entry {
    Api api;
    const char* name;
};

constexpr Entry kEntries[] = {
#define GPAPROF_OPENCL_API_ENTRY(name, number) {Api::name, #name},
    GPAPROF_OPENCL_APIS(GPAPROF_OPENCL_API_ENTRY)
#undef GPAPROF_OPENCL_API_ENTRY
};

constexpr Api kAllApis[] = {
#define GPAPROF_OPENCL_API_VALUE(name, number) Api::name,
    GPAPROF_OPENCL_APIS(GPAPROF_OPENCL_API_VALUE)
#undef GPAPROF_OPENCL_API_VALUE
};

struct CommandName {
    uint32_t type;
    const char* name;
};

// Values from the OpenCL specification (cl_command_type), written out so that this file needs no CL headers.
constexpr CommandName kCommands[] = {
    {0x11F0, "CL_COMMAND_NDRANGE_KERNEL"},     {0x11F1, "CL_COMMAND_TASK"},
    {0x11F2, "CL_COMMAND_NATIVE_KERNEL"},      {0x11F3, "CL_COMMAND_READ_BUFFER"},
    {0x11F4, "CL_COMMAND_WRITE_BUFFER"},       {0x11F5, "CL_COMMAND_COPY_BUFFER"},
    {0x11F6, "CL_COMMAND_READ_IMAGE"},         {0x11F7, "CL_COMMAND_WRITE_IMAGE"},
    {0x11F8, "CL_COMMAND_COPY_IMAGE"},         {0x11F9, "CL_COMMAND_COPY_IMAGE_TO_BUFFER"},
    {0x11FA, "CL_COMMAND_COPY_BUFFER_TO_IMAGE"}, {0x11FB, "CL_COMMAND_MAP_BUFFER"},
    {0x11FC, "CL_COMMAND_MAP_IMAGE"},          {0x11FD, "CL_COMMAND_UNMAP_MEM_OBJECT"},
    {0x11FE, "CL_COMMAND_MARKER"},             {0x11FF, "CL_COMMAND_ACQUIRE_GL_OBJECTS"},
    {0x1200, "CL_COMMAND_RELEASE_GL_OBJECTS"}, {0x1201, "CL_COMMAND_READ_BUFFER_RECT"},
    {0x1202, "CL_COMMAND_WRITE_BUFFER_RECT"},  {0x1203, "CL_COMMAND_COPY_BUFFER_RECT"},
    {0x1204, "CL_COMMAND_USER"},               {0x1205, "CL_COMMAND_BARRIER"},
    {0x1206, "CL_COMMAND_MIGRATE_MEM_OBJECTS"}, {0x1207, "CL_COMMAND_FILL_BUFFER"},
    {0x1208, "CL_COMMAND_FILL_IMAGE"},         {0x1209, "CL_COMMAND_SVM_FREE"},
    {0x120A, "CL_COMMAND_SVM_MEMCPY"},         {0x120B, "CL_COMMAND_SVM_MEMFILL"},
    {0x120C, "CL_COMMAND_SVM_MAP"},            {0x120D, "CL_COMMAND_SVM_UNMAP"},
    {0x120E, "CL_COMMAND_SVM_MIGRATE_MEM"},
};

}  // namespace

bool IsKernelDispatchApi(uint32_t type) {
    return type == static_cast<uint32_t>(Api::clEnqueueNDRangeKernel) || type == static_cast<uint32_t>(Api::clEnqueueTask);
}

bool IsDataTransferApi(uint32_t type) {
    switch (static_cast<Api>(type)) {
        case Api::clEnqueueReadBuffer: case Api::clEnqueueReadBufferRect: case Api::clEnqueueWriteBuffer:
        case Api::clEnqueueWriteBufferRect: case Api::clEnqueueCopyBuffer: case Api::clEnqueueCopyBufferRect:
        case Api::clEnqueueFillBuffer: case Api::clEnqueueReadImage: case Api::clEnqueueWriteImage:
        case Api::clEnqueueCopyImage: case Api::clEnqueueFillImage: case Api::clEnqueueCopyImageToBuffer:
        case Api::clEnqueueCopyBufferToImage: case Api::clEnqueueMapBuffer: case Api::clEnqueueMapImage:
        case Api::clEnqueueUnmapMemObject: case Api::clEnqueueMigrateMemObjects: case Api::clEnqueueSVMMemcpy:
        case Api::clEnqueueSVMMemFill: case Api::clEnqueueSVMMap: case Api::clEnqueueSVMUnmap:
        case Api::clEnqueueSVMMigrateMem:
            return true;
        default:
            return false;
    }
}

const char* ApiName(Api api) {
    for (const Entry& entry : kEntries) {
        if (entry.api == api) return entry.name;
    }
    return "clUnknown";
}

std::optional<Api> ApiFromName(std::string_view name) {
    for (const Entry& entry : kEntries) {
        if (name == entry.name) return entry.api;
    }
    return std::nullopt;
}

std::optional<Api> ApiFromNumber(uint32_t number) {
    for (const Entry& entry : kEntries) {
        if (static_cast<uint32_t>(entry.api) == number) return entry.api;
    }
    return std::nullopt;
}

const Api* AllApis(size_t* count) {
    *count = sizeof(kAllApis) / sizeof(kAllApis[0]);
    return kAllApis;
}

const char* CommandTypeName(uint32_t commandType) {
    for (const CommandName& command : kCommands) {
        if (command.type == commandType) return command.name;
    }
    return "CL_COMMAND_UNKNOWN";
}

}  // namespace gpaprof::ocl
