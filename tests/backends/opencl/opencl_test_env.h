// The OpenCL device the OpenCL tests (and the C++ API tests) run on, with a kernel of tunable duration.
//
// Device choice: the first device of the first platform, or of the first platform whose name contains
// $OPENGPA_CL_PLATFORM (case-insensitive), e.g. OPENGPA_CL_PLATFORM=NVIDIA or =Portable. Tests skip with the
// reason when there is none.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <memory>
#include <string>
#include <vector>

namespace gpa::cltest {

class ClEnvironment {
public:
    static constexpr size_t kSpinItems = 4096;  // work-items of one spin kernel (no local size given)

    // Null (and the reason) when there is no usable OpenCL device.
    static std::unique_ptr<ClEnvironment> Create(std::string* whyNot);
    ~ClEnvironment();
    ClEnvironment(const ClEnvironment&) = delete;
    ClEnvironment& operator=(const ClEnvironment&) = delete;

    cl_context context() const { return context_; }
    cl_device_id device() const { return device_; }
    const std::string& platformName() const { return platformName_; }
    const std::string& deviceName() const { return deviceName_; }
    bool SupportsOutOfOrder() const;

    // A queue the environment releases; null (and a test failure) on error.
    cl_command_queue CreateQueue(cl_command_queue_properties properties);

    // Enqueues the spin kernel: every work item runs `iterations` dependent multiply-adds.
    // Returns its event when `event` is not null.
    cl_int EnqueueSpin(cl_command_queue queue, cl_uint iterations, cl_event* event = nullptr);
    // Iterations for which one spin kernel runs about `milliseconds` on this device (measured).
    cl_uint CalibrateSpin(cl_command_queue profilingQueue, double milliseconds);

    // CL_PROFILING_COMMAND_END - CL_PROFILING_COMMAND_START of a finished command, in milliseconds.
    static double EventMilliseconds(cl_event event);

private:
    ClEnvironment() = default;

    cl_device_id device_ = nullptr;
    cl_context context_ = nullptr;
    cl_program program_ = nullptr;
    cl_kernel kernel_ = nullptr;
    cl_mem output_ = nullptr;
    std::string platformName_;
    std::string deviceName_;
    std::vector<cl_command_queue> queues_;
};

// "CL_INVALID_VALUE (-30)" style text for test messages.
std::string ClErrorText(cl_int error);

}  // namespace gpa::cltest

// In a test body or SetUp: skips the test when no OpenCL device is available.
#define OPENGPA_REQUIRE_OPENCL(envPointer)                                              \
    do {                                                                                 \
        std::string whyNot_;                                                             \
        envPointer = ::gpa::cltest::ClEnvironment::Create(&whyNot_);                     \
        if (!envPointer) {                                                               \
            GTEST_SKIP() << "no OpenCL device: " << whyNot_;                             \
        }                                                                                \
    } while (0)
