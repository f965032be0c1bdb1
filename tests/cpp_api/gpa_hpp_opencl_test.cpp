// The C++ API against libGPUPerfAPICL.so on the OpenCL device (label opencl).
#include "gpa/gpa.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "opencl_test_env.h"

namespace {

using gpa::cltest::ClEnvironment;

class CppApiOpenClTest : public ::testing::Test {
protected:
    void SetUp() override { OPENGPA_REQUIRE_OPENCL(env_); }
    std::unique_ptr<ClEnvironment> env_;
};

TEST_F(CppApiOpenClTest, GpuTimeOfAKernel) {
    gpa::Library library;
    cl_command_queue queue = env_->CreateQueue(CL_QUEUE_PROFILING_ENABLE);
    const cl_uint iterations = env_->CalibrateSpin(queue, 10.0);
    gpa::Context context(queue);
    EXPECT_EQ(context.DeviceDescription(), std::optional<std::string>(env_->deviceName()));
    context.Enable("GPUTime");
    ASSERT_EQ(context.PassCount(), 1u);

    // Three samples of the same kernel; on a loaded CPU the OS may stall PoCL inside one of them.
    std::vector<cl_event> kernels(3);
    gpa::Session session = context.BeginSession();
    session.ForEachPass([&](gpa::Pass& pass) {
        for (gpa_uint32 sample = 0; sample < kernels.size(); ++sample) {
            pass.Measure(sample, [&] { ASSERT_EQ(env_->EnqueueSpin(queue, iterations, &kernels[sample]), CL_SUCCESS); });
        }
    });
    const gpa::Results results = session.End();
    double bestExcess = 1e300;
    for (gpa_uint32 sample = 0; sample < kernels.size(); ++sample) {
        const double gpuTime = results.Get<double>(sample, "GPUTime");
        ASSERT_EQ(clWaitForEvents(1, &kernels[sample]), CL_SUCCESS);
        const double kernelMs = ClEnvironment::EventMilliseconds(kernels[sample]);
        clReleaseEvent(kernels[sample]);
        EXPECT_GE(gpuTime, kernelMs * 0.999) << "the sample brackets the kernel";
        bestExcess = std::min(bestExcess, gpuTime - (kernelMs * 1.5 + 5.0));
        EXPECT_TRUE(std::holds_alternative<gpa_float64>(results.GetValue(sample, "GPUTime")));
    }
    EXPECT_LE(bestExcess, 0.0) << "GPUTime is close to the kernel's own time in at least one sample";
    EXPECT_TRUE(results.IsReady());
}

TEST_F(CppApiOpenClTest, QueueWithoutProfilingThrowsWithTheFix) {
    gpa::Library library;
    cl_command_queue queue = env_->CreateQueue(0);
    try {
        gpa::Context context(queue);
        FAIL() << "a queue without profiling cannot be opened";
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        EXPECT_NE(std::string(error.what()).find("CL_QUEUE_PROFILING_ENABLE"), std::string::npos) << error.what();
    }
}

}  // namespace
