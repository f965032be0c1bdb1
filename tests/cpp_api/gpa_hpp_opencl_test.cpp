// The C++ API against libGPUPerfAPICL.so on the OpenCL device (label opencl).
#include "gpa/gpa.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

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

    cl_event kernel = nullptr;
    gpa::Session session = context.BeginSession();
    session.ForEachPass([&](gpa::Pass& pass) {
        pass.Measure(7, [&] { ASSERT_EQ(env_->EnqueueSpin(queue, iterations, &kernel), CL_SUCCESS); });
    });
    const gpa::Results results = session.End();
    const double gpuTime = results.Get<double>(7, "GPUTime");
    ASSERT_EQ(clWaitForEvents(1, &kernel), CL_SUCCESS);
    const double kernelMs = ClEnvironment::EventMilliseconds(kernel);
    clReleaseEvent(kernel);
    EXPECT_TRUE(results.IsReady());
    EXPECT_GE(gpuTime, kernelMs * 0.999);
    EXPECT_LE(gpuTime, kernelMs * 1.5 + 5.0);
    EXPECT_TRUE(std::holds_alternative<gpa_float64>(results.GetValue(7, "GPUTime")));
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
