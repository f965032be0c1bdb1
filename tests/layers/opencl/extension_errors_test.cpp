// cl_codeplay_performance_counters as an application sees it: what the extension refuses and every error
// status (queue creation, results of user events, of queues without counters, of unfinished, failed and
// unfollowed commands, invalid handles), and a queue without profiling. The fixture:
// performance_counters_fixture.h.
#include "performance_counters_fixture.h"

namespace {

using namespace codeplay_test;

TEST_F(PerformanceCounters, QueueCreationRefusesWhatTheExtensionCannotAccept) {
    const cl_uint uuid = counters_.at(0).info.uuid;
    auto create = [&](const cl_queue_properties* properties) {
        cl_int error = CL_SUCCESS;
        cl_command_queue queue = createQueue_(context_, device_, properties, &error);
        if (queue) clReleaseCommandQueue(queue);
        EXPECT_EQ(queue, nullptr);
        return error;
    };
    auto configProperties = [](cl_performance_counter_config_codeplay* config) {
        return std::vector<cl_queue_properties>{CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                                reinterpret_cast<cl_queue_properties>(config), 0};
    };
    const cl_uint unknown = 0xDEADBEEF;
    cl_performance_counter_desc_codeplay unknownDesc{unknown, nullptr};
    cl_performance_counter_config_codeplay unknownConfig{1, &unknownDesc};
    cl_performance_counter_desc_codeplay goodDesc{uuid, nullptr};
    cl_performance_counter_config_codeplay zeroCount{0, &goodDesc};
    cl_performance_counter_config_codeplay nullDescs{1, nullptr};
    int extra = 0;
    cl_performance_counter_desc_codeplay dataDesc{uuid, &extra};
    cl_performance_counter_config_codeplay withData{1, &dataDesc};
    cl_performance_counter_config_codeplay good{1, &goodDesc};
    const struct {
        const char* what;
        std::vector<cl_queue_properties> properties;
        const char* explained;  // a word the context's error callback says
    } refused[] = {
        {"unknown uuid", configProperties(&unknownConfig), "uuid"},
        {"count 0", configProperties(&zeroCount), "count"},
        {"null descs", configProperties(&nullDescs), "descs"},
        {"null config", configProperties(nullptr), "null"},
        {"data given", configProperties(&withData), "data"},
        {"key twice",
         {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, reinterpret_cast<cl_queue_properties>(&good),
          CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, reinterpret_cast<cl_queue_properties>(&good), 0},
         "twice"},
    };
    for (const auto& test : refused) {
        SCOPED_TRACE(test.what);
        {
            std::lock_guard<std::mutex> lock(g_messagesMutex);
            g_messages.clear();
        }
        EXPECT_EQ(create(test.properties.data()), CL_INVALID_VALUE);
        // Said once per refusal (a layer above may try again with other properties: gpaprof's does).
        std::lock_guard<std::mutex> lock(g_messagesMutex);
        ASSERT_FALSE(g_messages.empty());
        for (const std::string& message : g_messages) {
            EXPECT_NE(message.find(test.explained), std::string::npos) << message;
        }
    }
    // The core entry point takes the extension's key too.
    const std::vector<cl_queue_properties> accepted = configProperties(&good);
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context_, device_, accepted.data(), &error);
    EXPECT_EQ(error, CL_SUCCESS);
    ASSERT_NE(queue, nullptr);
    clReleaseCommandQueue(queue);
    EXPECT_EQ(create(configProperties(&unknownConfig).data()), CL_INVALID_VALUE);
}

TEST_F(PerformanceCounters, ResultsAreRefusedForUserEventsAndQueuesWithoutCounters) {
    cl_int error = CL_SUCCESS;
    cl_event user = clCreateUserEvent(context_, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    Result result;
    EXPECT_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_INVALID_VALUE);
    clSetUserEventStatus(user, CL_COMPLETE);
    EXPECT_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_INVALID_VALUE);
    clReleaseEvent(user);

    cl_command_queue plain = ProfilingQueue();
    ASSERT_NE(plain, nullptr);
    cl_mem buffer = Buffer(64);
    const int zero = 0;
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(plain, buffer, &zero, sizeof zero, 0, 64, 0, nullptr, &event), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    size_t size = 0;
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &size),
              CL_INVALID_VALUE);
    clReleaseEvent(event);
}

TEST_F(PerformanceCounters, ResultsAreNotAvailableUntilTheCommandCompleted) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(256 * sizeof(float));
    cl_kernel scale = Kernel("scale", buffer);
    const float factor = 3;
    clSetKernelArg(scale, 1, sizeof factor, &factor);
    cl_int error = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(context_, &error);
    const size_t global = 256;
    cl_event kernel = nullptr, marker = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &global, nullptr, 1, &gate, &kernel), CL_SUCCESS);
    ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), CL_SUCCESS);
    clFlush(queue);
    std::vector<Result> results(uuids.size());
    for (cl_event event : {kernel, marker}) {
        EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                          results.size() * sizeof(Result), results.data(), nullptr),
                  CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    clSetUserEventStatus(gate, CL_COMPLETE);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(Results(kernel, uuids)["KernelWorkItems"].uint64, 256u);
    EXPECT_EQ(Results(marker, uuids)["KernelWorkItems"].uint64, 256u);
    for (cl_event event : {gate, kernel, marker}) clReleaseEvent(event);
}

TEST_F(PerformanceCounters, InvalidHandlesGetTheDriversErrors) {
    size_t size = 0;
    EXPECT_EQ(clGetDeviceInfo(nullptr, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &size), CL_INVALID_DEVICE);
    Result result;
    EXPECT_EQ(clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_INVALID_EVENT);
    cl_performance_counter_desc_codeplay desc{counters_.at(0).info.uuid, nullptr};
    cl_performance_counter_config_codeplay config{1, &desc};
    const cl_queue_properties properties[] = {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                              reinterpret_cast<cl_queue_properties>(&config), 0};
    cl_int error = CL_SUCCESS;
    EXPECT_EQ(createQueue_(context_, nullptr, properties, &error), nullptr);
    EXPECT_EQ(error, CL_INVALID_DEVICE);
}

// A command that terminated abnormally (its wait list failed) has no results.
TEST_F(PerformanceCounters, FailedCommandsHaveNoResults) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(64);
    cl_int error = CL_SUCCESS;
    cl_event failing = clCreateUserEvent(context_, &error);
    const int zero = 0;
    cl_event fill = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, 64, 1, &failing, &fill), CL_SUCCESS);
    clFlush(queue);
    clSetUserEventStatus(failing, -1);
    clWaitForEvents(1, &fill);  // fails: the command terminated
    cl_int status = CL_COMPLETE;
    ASSERT_EQ(clGetEventInfo(fill, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
    Result results[32];
    const cl_int answer = clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                                  uuids.size() * sizeof(Result), results, nullptr);
    if (status < 0) {
        EXPECT_EQ(answer, CL_PROFILING_INFO_NOT_AVAILABLE);
    } else {
        std::printf("the driver ran the command although its wait list failed (status %d)\n", status);
        EXPECT_EQ(answer, CL_SUCCESS);
    }
    clReleaseEvent(fill);
    clReleaseEvent(failing);
}

// A command enqueued through another extension's function (here a command buffer of cl_khr_command_buffer)
// on a queue with counters: the layer does not follow it, so it has no results.
TEST_F(PerformanceCounters, CommandsOfOtherExtensionsHaveNoResults) {
    char extensions[16384] = "";
    clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, nullptr);
    if (!Extension(extensions, "cl_khr_command_buffer")) GTEST_SKIP() << "the device has no cl_khr_command_buffer";
    using Create = void* (*)(cl_uint, const cl_command_queue*, const cl_ulong*, cl_int*);
    using Barrier = cl_int (*)(void*, cl_command_queue, cl_uint, const cl_uint*, cl_uint*, void*);
    using Finalize = cl_int (*)(void*);
    using Enqueue = cl_int (*)(cl_uint, cl_command_queue*, void*, cl_uint, const cl_event*, cl_event*);
    auto create = reinterpret_cast<Create>(clGetExtensionFunctionAddressForPlatform(platform_, "clCreateCommandBufferKHR"));
    auto barrier = reinterpret_cast<Barrier>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clCommandBarrierWithWaitListKHR"));
    auto finalize = reinterpret_cast<Finalize>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clFinalizeCommandBufferKHR"));
    auto enqueue = reinterpret_cast<Enqueue>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clEnqueueCommandBufferKHR"));
    auto release = reinterpret_cast<Finalize>(clGetExtensionFunctionAddressForPlatform(platform_, "clReleaseCommandBufferKHR"));
    if (!create || !barrier || !finalize || !enqueue || !release) GTEST_SKIP() << "cl_khr_command_buffer entry points missing";
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_int error = CL_SUCCESS;
    void* buffer = create(1, &queue, nullptr, &error);
    if (!buffer) GTEST_SKIP() << "clCreateCommandBufferKHR refuses this queue: " << error;
    cl_event event = nullptr;
    if (barrier(buffer, nullptr, 0, nullptr, nullptr, nullptr) != CL_SUCCESS || finalize(buffer) != CL_SUCCESS ||
        enqueue(0, nullptr, buffer, 0, nullptr, &event) != CL_SUCCESS) {
        release(buffer);
        GTEST_SKIP() << "the driver's command buffers do not run here";
    }
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    Result result;
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(event);
    release(buffer);
}

// Counters need the device's timestamps, so the queue gets profiling from the layer; an application that
// did not ask for it still sees a queue without it.
TEST_F(PerformanceCounters, QueueWithoutProfilingKeepsAnsweringAsOne) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, 0);
    ASSERT_NE(queue, nullptr);
    cl_command_queue_properties properties = 0;
    ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr), CL_SUCCESS);
    EXPECT_EQ(properties & CL_QUEUE_PROFILING_ENABLE, 0u);
    cl_mem buffer = Buffer(4096);
    const int zero = 0;
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, 4096, 0, nullptr, &event), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    cl_ulong start = 0;
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    EXPECT_EQ(Results(event, uuids)["TransferBytes"].uint64, 4096u);
    clReleaseEvent(event);

    // The properties array is the application's, the counter configuration still readable.
    size_t size = 0;
    if (clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size) == CL_SUCCESS) {
        std::vector<cl_queue_properties> array(size / sizeof(cl_queue_properties));
        ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, array.data(), nullptr), CL_SUCCESS);
        ASSERT_EQ(array.size(), 5u);
        EXPECT_EQ(array[0], static_cast<cl_queue_properties>(CL_QUEUE_PROPERTIES));
        EXPECT_EQ(array[1], 0u);
        EXPECT_EQ(array[2], static_cast<cl_queue_properties>(CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY));
        const auto* config = reinterpret_cast<const cl_performance_counter_config_codeplay*>(array[3]);
        ASSERT_NE(config, nullptr);
        ASSERT_EQ(config->count, uuids.size());
        for (size_t i = 0; i < uuids.size(); ++i) EXPECT_EQ(config->descs[i].uuid, uuids[i]);
        EXPECT_EQ(array[4], 0u);
    }
}

}  // namespace
