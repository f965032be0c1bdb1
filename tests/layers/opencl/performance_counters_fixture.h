// What the extension's test program shares (performance_counters_test.cpp: the values;
// extension_errors_test.cpp: the refusals and error statuses). The program is written against the extension
// alone (include/CL/cl_codeplay_performance_counters.h and the Khronos headers; no OpenGPA header) and runs
// with the OpenGPA layer in the process (CTest gives it the layer; layer_routes_test runs it through each
// route).
//
// Device: the first of the first platform, or of the first platform whose name contains $OPENGPA_CL_PLATFORM.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS  // clGetExtensionFunctionAddress
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue, clEnqueueTask
#include <CL/cl.h>

#include "CL/cl_codeplay_performance_counters.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace codeplay_test {

using Result = cl_performance_counter_result_codeplay;
using CreateQueueKhr = cl_command_queue(CL_API_CALL*)(cl_context, cl_device_id, const cl_queue_properties*, cl_int*);

inline const char* const kKernels = R"CLC(
kernel void scale(global float* data, float factor) { data[get_global_id(0)] *= factor; }
kernel void index2d(global int* out) {
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_global_id(0);
}
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global int* out) { out[get_global_id(0)] = 1; }
kernel void one(global int* out) { out[0] = 7; }
kernel void spin(global float* out, int iterations) {
    float x = (float)get_global_id(0);
    for (int i = 0; i < iterations; ++i) x = x * 0.999f + 0.5f;
    out[get_global_id(0)] = x;
}
)CLC";

inline std::string Lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

struct Counter {
    cl_performance_counter_codeplay info;
    std::string name;
};

// Messages the context's error callback received (the layer explains refused queues there).
inline std::mutex g_messagesMutex;
inline std::vector<std::string> g_messages;
inline void CL_CALLBACK OnContextError(const char* message, const void*, size_t, void*) {
    std::lock_guard<std::mutex> lock(g_messagesMutex);
    g_messages.emplace_back(message);
}

class PerformanceCounters : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        cl_uint platformCount = 0;
        if (clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS || platformCount == 0) {
            whyNot_ = "no OpenCL platform";
            return;
        }
        std::vector<cl_platform_id> platforms(platformCount);
        clGetPlatformIDs(platformCount, platforms.data(), nullptr);
        const char* wanted = std::getenv("OPENGPA_CL_PLATFORM");
        for (cl_platform_id candidate : platforms) {
            char name[256] = "";
            clGetPlatformInfo(candidate, CL_PLATFORM_NAME, sizeof name, name, nullptr);
            if (wanted && *wanted && Lower(name).find(Lower(wanted)) == std::string::npos) continue;
            cl_device_id device = nullptr;
            if (clGetDeviceIDs(candidate, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) continue;
            platform_ = candidate;
            device_ = device;
            break;
        }
        if (!device_) {
            whyNot_ = std::string("no device on a platform named like OPENGPA_CL_PLATFORM=") + (wanted ? wanted : "");
            return;
        }
        cl_int error = CL_SUCCESS;
        context_ = clCreateContext(nullptr, 1, &device_, &OnContextError, nullptr, &error);
        const char* source = kKernels;
        program_ = clCreateProgramWithSource(context_, 1, &source, nullptr, &error);
        if (clBuildProgram(program_, 1, &device_, "", nullptr, nullptr) != CL_SUCCESS) {
            whyNot_ = "the test kernels do not build";
            return;
        }
        createQueue_ = reinterpret_cast<CreateQueueKhr>(
            clGetExtensionFunctionAddressForPlatform(platform_, "clCreateCommandQueueWithPropertiesKHR"));
        size_t bytes = 0;
        if (clGetDeviceInfo(device_, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &bytes) == CL_SUCCESS) {
            std::vector<cl_performance_counter_codeplay> list(bytes / sizeof(cl_performance_counter_codeplay));
            clGetDeviceInfo(device_, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, bytes, list.data(), nullptr);
            for (const auto& info : list) counters_.push_back({info, std::string(info.name, strnlen(info.name, 256))});
        }
        cl_device_type type = 0;
        clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
        cpuDevice_ = (type & CL_DEVICE_TYPE_CPU) != 0;
        cl_device_svm_capabilities svm = 0;
        svm_ = clGetDeviceInfo(device_, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr) == CL_SUCCESS &&
               (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
        cl_bool images = CL_FALSE;
        clGetDeviceInfo(device_, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr);
        images_ = images == CL_TRUE;
    }
    static void TearDownTestSuite() {
        if (program_) clReleaseProgram(program_);
        if (context_) clReleaseContext(context_);
    }
    void SetUp() override {
        if (!device_) GTEST_SKIP() << "no OpenCL device: " << whyNot_;
        ASSERT_TRUE(whyNot_.empty()) << whyNot_;
    }
    void TearDown() override {
        for (cl_mem memory : memories_) clReleaseMemObject(memory);
        for (cl_kernel kernel : kernels_) clReleaseKernel(kernel);
        for (cl_command_queue queue : queues_) clReleaseCommandQueue(queue);
    }

    static bool Extension(const std::string& list, const char* name) {
        return (" " + list + " ").find(" " + std::string(name) + " ") != std::string::npos;
    }
    const Counter* Find(const char* name) const {
        for (const Counter& counter : counters_) {
            if (counter.name == name) return &counter;
        }
        return nullptr;
    }
    std::vector<cl_uint> AllUuids() const {
        std::vector<cl_uint> uuids;
        for (const Counter& counter : counters_) uuids.push_back(counter.info.uuid);
        return uuids;
    }

    // A queue with `uuids` enabled (through clCreateCommandQueueWithPropertiesKHR).
    cl_command_queue CountingQueue(const std::vector<cl_uint>& uuids, cl_command_queue_properties flags,
                                   cl_int* error = nullptr) {
        std::vector<cl_performance_counter_desc_codeplay> descs;
        for (cl_uint uuid : uuids) descs.push_back({uuid, nullptr});
        cl_performance_counter_config_codeplay config{static_cast<cl_uint>(descs.size()), descs.data()};
        const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, flags, CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                                  reinterpret_cast<cl_queue_properties>(&config), 0};
        cl_int status = CL_SUCCESS;
        cl_command_queue queue = createQueue_(context_, device_, properties, &status);
        if (error) *error = status;
        if (queue) queues_.push_back(queue);
        return queue;
    }
    cl_command_queue ProfilingQueue() {
        cl_int error = CL_SUCCESS;
        cl_command_queue queue = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &error);
        if (queue) queues_.push_back(queue);
        return queue;
    }
    cl_mem Buffer(size_t bytes) {
        cl_int error = CL_SUCCESS;
        cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &error);
        EXPECT_EQ(error, CL_SUCCESS);
        memories_.push_back(buffer);
        return buffer;
    }
    cl_kernel Kernel(const char* name, cl_mem argument) {
        cl_int error = CL_SUCCESS;
        cl_kernel kernel = clCreateKernel(program_, name, &error);
        EXPECT_EQ(error, CL_SUCCESS) << name;
        clSetKernelArg(kernel, 0, sizeof argument, &argument);
        kernels_.push_back(kernel);
        return kernel;
    }

    // The results of a finished command, by counter name (enable order: `uuids`).
    std::map<std::string, Result> Results(cl_event event, const std::vector<cl_uint>& uuids) {
        std::vector<Result> results(uuids.size());
        size_t returned = 0;
        const cl_int status = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                                      results.size() * sizeof(Result), results.data(), &returned);
        EXPECT_EQ(status, CL_SUCCESS);
        EXPECT_EQ(returned, uuids.size() * sizeof(Result));
        std::map<std::string, Result> byName;
        for (size_t i = 0; i < uuids.size(); ++i) {
            for (const Counter& counter : counters_) {
                if (counter.info.uuid == uuids[i]) byName[counter.name] = results[i];
            }
        }
        return byName;
    }
    static cl_ulong Time(cl_event event, cl_profiling_info which) {
        cl_ulong value = 0;
        EXPECT_EQ(clGetEventProfilingInfo(event, which, sizeof value, &value, nullptr), CL_SUCCESS);
        return value;
    }
    // Checks the timing counters of a command against its own event.
    static void ExpectTimesOf(cl_event event, std::map<std::string, Result>& results, const char* kindDuration) {
        const cl_ulong queued = Time(event, CL_PROFILING_COMMAND_QUEUED);
        const cl_ulong submit = Time(event, CL_PROFILING_COMMAND_SUBMIT);
        const cl_ulong start = Time(event, CL_PROFILING_COMMAND_START);
        const cl_ulong end = Time(event, CL_PROFILING_COMMAND_END);
        EXPECT_EQ(results["CommandDuration"].uint64, end - start);
        EXPECT_EQ(results["QueuedToStart"].uint64, start - queued);
        EXPECT_EQ(results["SubmitToStart"].uint64, start - submit);
        if (kindDuration) {
            EXPECT_EQ(results[kindDuration].uint64, end - start) << kindDuration;
        }
    }

    static inline cl_platform_id platform_ = nullptr;
    static inline cl_device_id device_ = nullptr;
    static inline cl_context context_ = nullptr;
    static inline cl_program program_ = nullptr;
    static inline CreateQueueKhr createQueue_ = nullptr;
    static inline std::vector<Counter> counters_;
    static inline bool cpuDevice_ = false;
    static inline bool svm_ = false;
    static inline bool images_ = false;
    static inline std::string whyNot_;
    std::vector<cl_command_queue> queues_;
    std::vector<cl_mem> memories_;
    std::vector<cl_kernel> kernels_;
};

}  // namespace codeplay_test
