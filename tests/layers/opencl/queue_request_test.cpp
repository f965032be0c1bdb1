// The properties of a queue with counters: what the driver gets, what is enabled, what is refused and why.
#include <gtest/gtest.h>

#include <cstdint>

#include "layers/opencl/queue_request.h"

namespace {

using namespace gpa::cl_layer;

bool Offers(cl_uint uuid) { return uuid >= 1 && uuid <= 8; }

cl_queue_properties Pointer(const void* p) { return static_cast<cl_queue_properties>(reinterpret_cast<uintptr_t>(p)); }

TEST(QueueRequest, PropertiesWithoutTheKeyPassUntouched) {
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    QueueRequest request;
    std::string problem;
    ASSERT_EQ(ReadQueueRequest(properties, Offers, &request, &problem), CL_SUCCESS);
    EXPECT_FALSE(request.countersRequested);
    ASSERT_EQ(ReadQueueRequest(nullptr, Offers, &request, &problem), CL_SUCCESS);
    EXPECT_FALSE(request.countersRequested);
    EXPECT_EQ(request.appProperties, std::vector<cl_queue_properties>{0});
}

TEST(QueueRequest, CountersAreEnabledInOrderAndTheDriverGetsProfiling) {
    cl_performance_counter_desc_codeplay descs[] = {{7, nullptr}, {1, nullptr}, {4, nullptr}};
    cl_performance_counter_config_codeplay config{3, descs};
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                              CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&config), 0};
    QueueRequest request;
    std::string problem;
    ASSERT_EQ(ReadQueueRequest(properties, Offers, &request, &problem), CL_SUCCESS) << problem;
    EXPECT_TRUE(request.countersRequested);
    EXPECT_EQ(request.enabled, (std::vector<CounterId>{CounterId::kTransferBytes, CounterId::kCommandDuration,
                                                       CounterId::kKernelWorkItems}));
    EXPECT_EQ(request.queueFlags, static_cast<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
    EXPECT_EQ(request.driverProperties,
              (std::vector<cl_queue_properties>{CL_QUEUE_PROPERTIES,
                                                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0}));
    EXPECT_EQ(request.appProperties, std::vector<cl_queue_properties>(properties, properties + 5));

    // Without CL_QUEUE_PROPERTIES the driver gets it, with profiling only.
    const cl_queue_properties onlyCounters[] = {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&config), 0};
    ASSERT_EQ(ReadQueueRequest(onlyCounters, Offers, &request, &problem), CL_SUCCESS);
    EXPECT_EQ(request.queueFlags, 0u);
    EXPECT_EQ(request.driverProperties,
              (std::vector<cl_queue_properties>{CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}));
}

TEST(QueueRequest, WhatTheExtensionCannotAcceptIsInvalidValueWithTheReason) {
    cl_performance_counter_desc_codeplay good[] = {{2, nullptr}};
    cl_performance_counter_desc_codeplay unknown[] = {{2, nullptr}, {99, nullptr}};
    cl_performance_counter_desc_codeplay notOffered[] = {{12, nullptr}};  // a counter of another device
    int extra = 0;
    cl_performance_counter_desc_codeplay withData[] = {{2, &extra}};
    cl_performance_counter_config_codeplay zero{0, good}, nullDescs{1, nullptr}, unknownUuid{2, unknown},
        otherDevice{1, notOffered}, data{1, withData}, fine{1, good};
    const struct {
        const char* what;
        std::vector<cl_queue_properties> properties;
        const char* reason;
    } cases[] = {
        {"null config", {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, 0, 0}, "null pointer"},
        {"count 0", {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&zero), 0}, "count is 0"},
        {"null descs", {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&nullDescs), 0}, "descs is null"},
        {"unknown uuid", {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&unknownUuid), 0}, "descs[1].uuid 99"},
        {"uuid of no counter here", {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&otherDevice), 0}, "uuid 12"},
        {"data", {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&data), 0}, "data is not null"},
        {"twice",
         {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&fine), CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&fine), 0},
         "twice"},
        {"on-device queue",
         {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
          CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, Pointer(&fine), 0},
         "on-device"},
    };
    for (const auto& test : cases) {
        SCOPED_TRACE(test.what);
        QueueRequest request;
        std::string problem;
        EXPECT_EQ(ReadQueueRequest(test.properties.data(), Offers, &request, &problem), CL_INVALID_VALUE);
        EXPECT_NE(problem.find(test.reason), std::string::npos) << problem;
    }
}

}  // namespace
