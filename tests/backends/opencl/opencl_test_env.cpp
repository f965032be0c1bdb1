#include "opencl_test_env.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "backends/opencl/cl_errors.h"

namespace gpa::cltest {

namespace {

const char* const kSpinSource = R"CLC(
__kernel void spin(__global float* out, uint iterations) {
    float x = (float)get_global_id(0);
    for (uint i = 0; i < iterations; ++i) x = x * 0.9999f + 0.5f;
    out[get_global_id(0)] = x;
}
)CLC";

std::string Lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string PlatformName(cl_platform_id platform) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    return name;
}

}  // namespace

std::string ClErrorText(cl_int error) { return std::string(cl::ClErrorName(error)) + " (" + std::to_string(error) + ")"; }

std::unique_ptr<ClEnvironment> ClEnvironment::Create(std::string* whyNot) {
    cl_uint count = 0;
    cl_int error = clGetPlatformIDs(0, nullptr, &count);
    if (error != CL_SUCCESS || count == 0) {
        *whyNot = "clGetPlatformIDs found no platform (" + ClErrorText(error) + "); install an ICD such as pocl-opencl-icd";
        return nullptr;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    const char* wanted = std::getenv("OPENGPA_CL_PLATFORM");
    cl_platform_id platform = nullptr;
    std::string seen;
    for (cl_platform_id candidate : platforms) {
        const std::string name = PlatformName(candidate);
        seen += (seen.empty() ? "" : ", ") + name;
        if (wanted == nullptr || Lower(name).find(Lower(wanted)) != std::string::npos) {
            platform = candidate;
            break;
        }
    }
    if (platform == nullptr) {
        *whyNot = std::string("no platform name contains OPENGPA_CL_PLATFORM='") + wanted + "' (platforms: " + seen + ")";
        return nullptr;
    }
    std::unique_ptr<ClEnvironment> env(new ClEnvironment());
    env->platformName_ = PlatformName(platform);
    error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &env->device_, nullptr);
    if (error != CL_SUCCESS) {
        *whyNot = "platform '" + env->platformName_ + "' has no device (" + ClErrorText(error) + ")";
        return nullptr;
    }
    char name[256] = {};
    clGetDeviceInfo(env->device_, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    env->deviceName_ = name;
    while (!env->deviceName_.empty() && env->deviceName_.back() == ' ') env->deviceName_.pop_back();
    env->context_ = clCreateContext(nullptr, 1, &env->device_, nullptr, nullptr, &error);
    if (error != CL_SUCCESS) {
        *whyNot = "clCreateContext failed: " + ClErrorText(error);
        return nullptr;
    }
    const char* source = kSpinSource;
    env->program_ = clCreateProgramWithSource(env->context_, 1, &source, nullptr, &error);
    if (error == CL_SUCCESS) error = clBuildProgram(env->program_, 1, &env->device_, nullptr, nullptr, nullptr);
    if (error == CL_SUCCESS) env->kernel_ = clCreateKernel(env->program_, "spin", &error);
    if (error == CL_SUCCESS) {
        env->output_ = clCreateBuffer(env->context_, CL_MEM_READ_WRITE, kSpinItems * sizeof(float), nullptr, &error);
    }
    if (error == CL_SUCCESS) error = clSetKernelArg(env->kernel_, 0, sizeof env->output_, &env->output_);
    if (error != CL_SUCCESS) {
        *whyNot = "the test kernel could not be built on '" + env->deviceName_ + "': " + ClErrorText(error);
        return nullptr;
    }
    return env;
}

ClEnvironment::~ClEnvironment() {
    for (cl_command_queue queue : queues_) {
        clFinish(queue);
        clReleaseCommandQueue(queue);
    }
    if (output_ != nullptr) clReleaseMemObject(output_);
    if (kernel_ != nullptr) clReleaseKernel(kernel_);
    if (program_ != nullptr) clReleaseProgram(program_);
    if (context_ != nullptr) clReleaseContext(context_);
}

bool ClEnvironment::SupportsOutOfOrder() const {
    cl_command_queue_properties properties = 0;
    clGetDeviceInfo(device_, CL_DEVICE_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr);
    return (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

cl_command_queue ClEnvironment::CreateQueue(cl_command_queue_properties properties) {
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueue(context_, device_, properties, &error);
    EXPECT_EQ(error, CL_SUCCESS) << "clCreateCommandQueue: " << ClErrorText(error);
    if (error != CL_SUCCESS) return nullptr;
    queues_.push_back(queue);
    return queue;
}

cl_int ClEnvironment::EnqueueSpin(cl_command_queue queue, cl_uint iterations, cl_event* event) {
    // The kernel object is shared, so its argument is set and the kernel enqueued without interleaving
    // (tests enqueue from one thread).
    cl_int error = clSetKernelArg(kernel_, 1, sizeof iterations, &iterations);
    if (error != CL_SUCCESS) return error;
    const size_t global = kSpinItems;
    return clEnqueueNDRangeKernel(queue, kernel_, 1, nullptr, &global, nullptr, 0, nullptr, event);
}

double ClEnvironment::EventMilliseconds(cl_event event) {
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
    return static_cast<double>(end - start) / 1e6;
}

cl_uint ClEnvironment::CalibrateSpin(cl_command_queue profilingQueue, double milliseconds) {
    cl_uint iterations = 256;
    for (int attempt = 0; attempt < 24; ++attempt) {
        cl_event event = nullptr;
        if (EnqueueSpin(profilingQueue, iterations, &event) != CL_SUCCESS) return iterations;
        clWaitForEvents(1, &event);
        const double measured = EventMilliseconds(event);
        clReleaseEvent(event);
        if (measured >= milliseconds / 4) {
            const double scaled = iterations * (milliseconds / measured);
            return static_cast<cl_uint>(std::clamp(scaled, 1.0, 2.0e9));
        }
        if (iterations >= 1u << 29) break;  // 4x more would overflow
        iterations *= 4;
    }
    return iterations;
}

}  // namespace gpa::cltest
