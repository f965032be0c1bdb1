// Device and platform queries: every device lists cl_codeplay_performance_counters (and
// cl_khr_create_command_queue, which it depends on, where the driver lacks it: the layer provides
// clCreateCommandQueueWithPropertiesKHR) and answers CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY.
#include <cstring>
#include <string>
#include <vector>

#include "layers/opencl/device_facts.h"
#include "layers/opencl/dispatch.h"
#include "layers/opencl/info_answer.h"
#include "layers/opencl/layer_entries.h"

namespace gpa::cl_layer {

namespace {

constexpr const char* kCreateQueueExtension = "cl_khr_create_command_queue";
constexpr const char* kCreateQueueKhr = "clCreateCommandQueueWithPropertiesKHR";

bool Lists(const std::string& extensions, const char* name) {
    const std::string padded = " " + extensions + " ";
    return padded.find(" " + std::string(name) + " ") != std::string::npos;
}

// The extensions the layer adds to a list that has `extensions`.
std::vector<const char*> Added(const std::string& extensions) {
    std::vector<const char*> added;
    if (!Lists(extensions, kCreateQueueExtension)) added.push_back(kCreateQueueExtension);
    if (!Lists(extensions, CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME)) {
        added.push_back(CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME);
    }
    return added;
}

// A string query of the driver, with the layer's extensions appended.
template <typename Query>
cl_int AnswerExtensions(Query query, size_t size, void* value, size_t* sizeRet) {
    size_t driverSize = 0;
    cl_int error = query(0, nullptr, &driverSize);
    if (error != CL_SUCCESS) return error;
    std::string text(driverSize, '\0');
    if (driverSize && (error = query(driverSize, text.data(), nullptr)) != CL_SUCCESS) return error;
    text.resize(std::strlen(text.c_str()));
    for (const char* name : Added(text)) {
        if (!text.empty() && text.back() != ' ') text += ' ';
        text += name;
    }
    return AnswerInfo(text.c_str(), text.size() + 1, size, value, sizeRet);
}

// The OpenCL 3.0 list of cl_name_version, with the layer's extensions appended (a driver without the
// query keeps answering its error).
template <typename Query>
cl_int AnswerExtensionsWithVersion(Query query, size_t size, void* value, size_t* sizeRet) {
    size_t driverSize = 0;
    cl_int error = query(0, nullptr, &driverSize);
    if (error != CL_SUCCESS) return error;
    std::vector<cl_name_version> list(driverSize / sizeof(cl_name_version));
    if (!list.empty() && (error = query(list.size() * sizeof(cl_name_version), list.data(), nullptr)) != CL_SUCCESS) {
        return error;
    }
    std::string names;
    for (const cl_name_version& entry : list) names += std::string(entry.name) + " ";
    for (const char* name : Added(names)) {
        cl_name_version entry{};
        entry.version = CL_MAKE_VERSION(1, 0, 0);
        std::strncpy(entry.name, name, sizeof entry.name - 1);
        list.push_back(entry);
    }
    return AnswerInfo(list.data(), list.size() * sizeof(cl_name_version), size, value, sizeRet);
}

cl_int CL_API_CALL GetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void* value,
                                   size_t* sizeRet) {
    auto query = [&](size_t querySize, void* queryValue, size_t* querySizeRet) {
        return Next().clGetPlatformInfo(platform, param, querySize, queryValue, querySizeRet);
    };
    // Every device of every platform gets the extension, so the platform lists it too.
    if (param == CL_PLATFORM_EXTENSIONS) return AnswerExtensions(query, size, value, sizeRet);
    if (param == CL_PLATFORM_EXTENSIONS_WITH_VERSION) return AnswerExtensionsWithVersion(query, size, value, sizeRet);
    return query(size, value, sizeRet);
}

cl_int CL_API_CALL GetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void* value, size_t* sizeRet) {
    auto query = [&](size_t querySize, void* queryValue, size_t* querySizeRet) {
        return Next().clGetDeviceInfo(device, param, querySize, queryValue, querySizeRet);
    };
    switch (param) {
        case CL_DEVICE_EXTENSIONS: return AnswerExtensions(query, size, value, sizeRet);
        case CL_DEVICE_EXTENSIONS_WITH_VERSION: return AnswerExtensionsWithVersion(query, size, value, sizeRet);
        case CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY: {
            const std::shared_ptr<const DeviceCounters> counters = CountersOf(device);
            if (!counters) return CL_INVALID_DEVICE;
            const std::vector<cl_performance_counter_codeplay> list = counters->Descriptions();
            return AnswerInfo(list.data(), list.size() * sizeof list[0], size, value, sizeRet);
        }
        default: return query(size, value, sizeRet);
    }
}

void* CL_API_CALL GetExtensionFunctionAddress(const char* name) {
    if (name && std::strcmp(name, kCreateQueueKhr) == 0) return KhrCreateQueueEntry();
    return Next().clGetExtensionFunctionAddress(name);
}

void* CL_API_CALL GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
    if (name && std::strcmp(name, kCreateQueueKhr) == 0) return KhrCreateQueueEntry();
    return Next().clGetExtensionFunctionAddressForPlatform(platform, name);
}

}  // namespace

void FillDeviceEntries(cl_icd_dispatch* table) {
    table->clGetPlatformInfo = GetPlatformInfo;
    table->clGetDeviceInfo = GetDeviceInfo;
    table->clGetExtensionFunctionAddress = GetExtensionFunctionAddress;
    table->clGetExtensionFunctionAddressForPlatform = GetExtensionFunctionAddressForPlatform;
}

}  // namespace gpa::cl_layer
