// libGPUPerfAPICL.so with OpenGPA's OpenCL layer in the process (CTest sets OPENCL_LAYERS): the counters of
// cl_codeplay_performance_counters that a queue enables become GPA hardware counters (group = the counter's
// category), with GPA counters derived from them, and a sample's values are the totals of its commands.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "GPUPerfAPI.h"
#include "backends/opencl/cl_headers.h"
#include "opencl_test_env.h"

namespace {

using gpa::cltest::ClEnvironment;
using CreateQueueKhr = cl_command_queue(CL_API_CALL*)(cl_context, cl_device_id, const cl_ulong*, cl_int*);

class CodeplayLayerBackendTest : public ::testing::Test {
protected:
    void SetUp() override {
        OPENGPA_REQUIRE_OPENCL(env_);
        size_t bytes = 0;
        if (clGetDeviceInfo(env_->device(), CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &bytes) != CL_SUCCESS ||
            bytes == 0) {
            GTEST_FAIL() << "the device has no cl_codeplay_performance_counters: run with "
                            "OPENCL_LAYERS=<build>/lib/libopengpa_opencl_layer.so (CTest does)";
        }
        device_.resize(bytes / sizeof(cl_performance_counter_codeplay));
        clGetDeviceInfo(env_->device(), CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, bytes, device_.data(), nullptr);
        cl_platform_id platform = nullptr;
        clGetDeviceInfo(env_->device(), CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
        createQueue_ = reinterpret_cast<CreateQueueKhr>(
            clGetExtensionFunctionAddressForPlatform(platform, "clCreateCommandQueueWithPropertiesKHR"));
        ASSERT_NE(createQueue_, nullptr);
        ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
        initialized_ = true;
    }
    void TearDown() override {
        if (initialized_) {
            EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
        }
        for (cl_command_queue queue : queues_) clReleaseCommandQueue(queue);
        for (cl_mem buffer : buffers_) clReleaseMemObject(buffer);
    }

    cl_uint Uuid(const char* name) const {
        for (const auto& counter : device_) {
            if (std::strcmp(counter.name, name) == 0) return counter.uuid;
        }
        ADD_FAILURE() << name << " is not a counter of the device";
        return 0;
    }
    // A profiling queue that collects `uuids` (every counter of the device when empty).
    cl_command_queue CountingQueue(std::vector<cl_uint> uuids = {}) {
        if (uuids.empty()) {
            for (const auto& counter : device_) uuids.push_back(counter.uuid);
        }
        std::vector<cl_performance_counter_desc_codeplay> descs;
        for (cl_uint uuid : uuids) descs.push_back({uuid, nullptr});
        cl_performance_counter_config_codeplay config{static_cast<cl_uint>(descs.size()), descs.data()};
        const cl_ulong properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                       CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, reinterpret_cast<cl_ulong>(&config), 0};
        cl_int error = CL_SUCCESS;
        cl_command_queue queue = createQueue_(env_->context(), env_->device(), properties, &error);
        EXPECT_EQ(error, CL_SUCCESS);
        if (queue) queues_.push_back(queue);
        return queue;
    }
    cl_mem Buffer(size_t bytes) {
        cl_int error = CL_SUCCESS;
        cl_mem buffer = clCreateBuffer(env_->context(), CL_MEM_READ_WRITE, bytes, nullptr, &error);
        EXPECT_EQ(error, CL_SUCCESS);
        buffers_.push_back(buffer);
        return buffer;
    }
    static gpa_uint32 Index(const char* name) {
        gpa_uint32 index = 0;
        EXPECT_EQ(GPA_GetCounterIndex(name, &index), GPA_STATUS_OK) << name << ": " << OGPA_GetLastErrorMessage();
        return index;
    }
    static bool Exposed(const char* name) {
        gpa_uint32 index = 0;
        return GPA_GetCounterIndex(name, &index) == GPA_STATUS_OK;
    }
    static double Value(gpa_uint32 session, gpa_uint32 sample, const char* name) {
        const gpa_uint32 index = Index(name);
        GPA_Type type = GPA_TYPE__LAST;
        EXPECT_EQ(GPA_GetCounterDataType(index, &type), GPA_STATUS_OK);
        if (type == GPA_TYPE_UINT64) {
            gpa_uint64 value = 0;
            EXPECT_EQ(GPA_GetSampleUInt64(session, sample, index, &value), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
            return static_cast<double>(value);
        }
        gpa_float64 value = 0;
        EXPECT_EQ(GPA_GetSampleFloat64(session, sample, index, &value), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
        return value;
    }
    static cl_ulong Duration(cl_event event) {
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
        return end - start;
    }

    std::unique_ptr<ClEnvironment> env_;
    std::vector<cl_performance_counter_codeplay> device_;
    CreateQueueKhr createQueue_ = nullptr;
    std::vector<cl_command_queue> queues_;
    std::vector<cl_mem> buffers_;
    bool initialized_ = false;
};

TEST_F(CodeplayLayerBackendTest, QueuesCountersAreHardwareCountersGroupedByCategory) {
    ASSERT_EQ(GPA_OpenContext(CountingQueue(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT), GPA_STATUS_OK)
        << OGPA_GetLastErrorMessage();
    for (const auto& counter : device_) {
        SCOPED_TRACE(counter.name);
        const gpa_uint32 index = Index(counter.name);
        const char* category = nullptr;
        ASSERT_EQ(GPA_GetCounterCategory(index, &category), GPA_STATUS_OK);
        EXPECT_STREQ(category, counter.category);
        const char* description = nullptr;
        ASSERT_EQ(GPA_GetCounterDescription(index, &description), GPA_STATUS_OK);
        EXPECT_EQ(std::string(description).rfind(counter.description, 0), 0u) << description;
        GPA_Type type = GPA_TYPE__LAST;
        ASSERT_EQ(GPA_GetCounterDataType(index, &type), GPA_STATUS_OK);
        EXPECT_EQ(type, counter.storage == CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY ? GPA_TYPE_UINT64
                                                                                           : GPA_TYPE_FLOAT64);
    }
    for (const char* derived : {"GPUTime", "TransferBandwidth", "KernelBusy", "TransferBusy"}) {
        EXPECT_TRUE(Exposed(derived)) << derived;
    }
    ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
}

// Two samples: a write and a kernel, then a read alone. Each sample's counters are the totals of its own
// commands, exactly where the commands' own events say so.
TEST_F(CodeplayLayerBackendTest, SampleValuesAreTheTotalsOfItsCommands) {
    cl_command_queue queue = CountingQueue();
    ASSERT_EQ(GPA_OpenContext(queue, GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT), GPA_STATUS_OK)
        << OGPA_GetLastErrorMessage();
    for (const char* name : {"GPUTime", "cl.sample_duration_ns", "CommandDuration", "KernelWorkItems",
                             "KernelWorkGroups", "KernelDuration", "TransferBytes", "TransferDuration",
                             "TransferBandwidth", "KernelBusy", "TransferBusy"}) {
        ASSERT_EQ(GPA_EnableCounterStr(name), GPA_STATUS_OK) << name << ": " << OGPA_GetLastErrorMessage();
    }
    gpa_uint32 passes = 0;
    ASSERT_EQ(GPA_GetPassCount(&passes), GPA_STATUS_OK);
    EXPECT_EQ(passes, 1u);
    constexpr size_t kWrite = 3 << 20, kRead = 12345;
    cl_mem buffer = Buffer(kWrite);
    std::vector<unsigned char> host(kWrite, 1);
    cl_event write = nullptr, kernel = nullptr, read = nullptr;
    gpa_uint32 session = 0;
    ASSERT_EQ(GPA_BeginSession(&session), GPA_STATUS_OK);
    ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_BeginSample(0), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
    ASSERT_EQ(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, kWrite, host.data(), 0, nullptr, &write), CL_SUCCESS);
    ASSERT_EQ(env_->EnqueueSpin(queue, 1000, &kernel), CL_SUCCESS);
    ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
    ASSERT_EQ(GPA_BeginSample(1), GPA_STATUS_OK);
    ASSERT_EQ(clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, kRead, host.data(), 0, nullptr, &read), CL_SUCCESS);
    ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_EndPass(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_EndSession(), GPA_STATUS_OK);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);

    const double writeNs = static_cast<double>(Duration(write));
    const double kernelNs = static_cast<double>(Duration(kernel));
    EXPECT_EQ(Value(session, 0, "TransferBytes"), kWrite);
    EXPECT_EQ(Value(session, 0, "KernelWorkItems"), ClEnvironment::kSpinItems);
    EXPECT_EQ(Value(session, 0, "KernelWorkGroups"), -1.0);  // the spin kernel leaves the local size to the driver
    EXPECT_EQ(Value(session, 0, "TransferDuration"), writeNs);
    EXPECT_EQ(Value(session, 0, "KernelDuration"), kernelNs);
    EXPECT_EQ(Value(session, 0, "CommandDuration"), writeNs + kernelNs);
    EXPECT_NEAR(Value(session, 0, "TransferBandwidth"), kWrite / writeNs, 1e-9 * kWrite / writeNs);
    const double sampleNs = Value(session, 0, "cl.sample_duration_ns");
    EXPECT_GE(sampleNs, (writeNs + kernelNs) * 0.999);  // the sample brackets its commands
    EXPECT_NEAR(Value(session, 0, "KernelBusy"), 100 * kernelNs / sampleNs, 1e-9);
    EXPECT_NEAR(Value(session, 0, "TransferBusy"), 100 * writeNs / sampleNs, 1e-9);

    EXPECT_EQ(Value(session, 1, "TransferBytes"), kRead);
    EXPECT_EQ(Value(session, 1, "KernelWorkItems"), 0.0);
    EXPECT_EQ(Value(session, 1, "KernelBusy"), 0.0);
    EXPECT_EQ(Value(session, 1, "CommandDuration"), static_cast<double>(Duration(read)));
    for (cl_event event : {write, kernel, read}) clReleaseEvent(event);
    ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
}

// Only what the queue collects: a queue without the extension's property has the timing counters alone; one
// with two counters exposes those two and what derives from them.
TEST_F(CodeplayLayerBackendTest, OnlyTheCountersTheQueueCollectsAreExposed) {
    ASSERT_EQ(GPA_OpenContext(env_->CreateQueue(CL_QUEUE_PROFILING_ENABLE), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT),
              GPA_STATUS_OK);
    gpa_uint32 count = 0;
    ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
    EXPECT_EQ(count, 2u);  // cl.sample_duration_ns and GPUTime
    EXPECT_FALSE(Exposed("TransferBytes"));
    ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);

    ASSERT_EQ(GPA_OpenContext(CountingQueue({Uuid("TransferDuration"), Uuid("TransferBytes")}),
                              GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT),
              GPA_STATUS_OK);
    EXPECT_TRUE(Exposed("TransferBytes"));
    EXPECT_TRUE(Exposed("TransferDuration"));
    EXPECT_TRUE(Exposed("TransferBandwidth"));
    EXPECT_TRUE(Exposed("TransferBusy"));
    EXPECT_FALSE(Exposed("CommandDuration"));
    EXPECT_FALSE(Exposed("KernelBusy"));
    ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
}

}  // namespace
