// TEST FIXTURE, NOT A BACKEND.
//
// VK_LAYER_OPENGPA_test_fixture_performance_query is a test double, built only with the tests and never
// installed. Enabled below VK_LAYER_OPENGPA_gpa_interface (and below the validation layer, which then checks
// how OpenGPA's layer uses the extension), it gives a driver without VK_KHR_performance_query (lavapipe) that
// extension: the performanceCounterQueryPools feature, the profiling lock, and performance query pools with
// the counters of fixture_counters.h, whose values it computes on the host from the commands recorded
// between each query's begin and end. It measures nothing. Results become available when a fence that the
// fixture submits after the application's submission signals, so they arrive when the work has completed.
//
// Environment, read at each call, to reach OpenGPA's error paths:
//   OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS=K  a query of n counters needs ceil(n / K) passes (the
//                                                        fixture then still counts every pass as one)
//   OPENGPA_TEST_FIXTURE_PERF_QUERY_LOCK=fail           vkAcquireProfilingLockKHR returns VK_TIMEOUT
// It reports performanceCounterMultipleQueryPools and allowCommandBufferQueryCopies as VK_FALSE (it would
// manage both; VK_FALSE exercises the layer's limits). Where the driver has VK_KHR_performance_query itself,
// the fixture passes every call through.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "fixture_counters.h"

namespace ogpa::vkfixture {

inline constexpr const char* kLayerName = "VK_LAYER_OPENGPA_test_fixture_performance_query";

inline void* DispatchKey(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

#define OGPA_FIXTURE_INSTANCE_FUNCTIONS(X)    \
    X(DestroyInstance)                        \
    X(CreateDevice)                           \
    X(EnumerateDeviceExtensionProperties)     \
    X(GetPhysicalDeviceFeatures2)             \
    X(GetPhysicalDeviceFeatures2KHR)          \
    X(GetPhysicalDeviceProperties2)           \
    X(GetPhysicalDeviceProperties2KHR)        \
    X(EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR) \
    X(GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR)

// Device functions the fixture calls or hooks. Names with a KHR twin are hooked under both names.
#define OGPA_FIXTURE_DEVICE_FUNCTIONS(X) \
    X(DestroyDevice)                     \
    X(CreateQueryPool)                   \
    X(DestroyQueryPool)                  \
    X(GetQueryPoolResults)               \
    X(ResetQueryPool)                    \
    X(ResetQueryPoolEXT)                 \
    X(CmdBeginQuery)                     \
    X(CmdEndQuery)                       \
    X(CmdResetQueryPool)                 \
    X(CmdCopyQueryPoolResults)           \
    X(CmdDraw)                           \
    X(CmdDrawIndexed)                    \
    X(CmdDrawIndirect)                   \
    X(CmdDrawIndexedIndirect)            \
    X(CmdDrawIndirectCount)              \
    X(CmdDrawIndirectCountKHR)           \
    X(CmdDrawIndexedIndirectCount)       \
    X(CmdDrawIndexedIndirectCountKHR)    \
    X(CmdDispatch)                       \
    X(CmdDispatchBase)                   \
    X(CmdDispatchBaseKHR)                \
    X(CmdDispatchIndirect)               \
    X(CmdExecuteCommands)                \
    X(AllocateCommandBuffers)            \
    X(FreeCommandBuffers)                \
    X(BeginCommandBuffer)                \
    X(ResetCommandBuffer)                \
    X(ResetCommandPool)                  \
    X(DestroyCommandPool)                \
    X(QueueSubmit)                       \
    X(QueueSubmit2)                      \
    X(QueueSubmit2KHR)                   \
    X(CreateFence)                       \
    X(DestroyFence)                      \
    X(GetFenceStatus)                    \
    X(WaitForFences)

struct InstanceData {
    VkInstance handle = VK_NULL_HANDLE;
    PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
#define OGPA_DECLARE(name) PFN_vk##name name = nullptr;
    OGPA_FIXTURE_INSTANCE_FUNCTIONS(OGPA_DECLARE)
#undef OGPA_DECLARE
};

// A command the fixture counts or a query command on one of its pools.
struct Command {
    enum class Kind { kBeginQuery, kEndQuery, kResetQueries, kWork, kExecuteCommands };
    Kind kind = Kind::kWork;
    VkQueryPool pool = VK_NULL_HANDLE;  // query commands
    uint32_t query = 0, count = 0;
    Tally work;                                // kWork: what one draw or dispatch adds
    std::vector<VkCommandBuffer> secondaries;  // kExecuteCommands
};

struct CommandBufferData {
    VkCommandPool pool = VK_NULL_HANDLE;
    std::vector<Command> commands;  // since vkBeginCommandBuffer
};

struct QueryState {
    bool available = false;
    std::vector<VkPerformanceCounterResultKHR> values;
};

struct QueryPoolData {
    uint32_t queueFamily = 0;
    std::vector<uint32_t> counters;  // the fixture's counter indices
    std::vector<QueryState> queries;
};

// Queries that ended in a submission, waiting for the fence the fixture submitted after it.
struct PendingResults {
    struct Finished {
        VkQueryPool pool;
        uint32_t query;
        Tally tally;
    };
    VkFence fence = VK_NULL_HANDLE;
    std::vector<Finished> finished;
};

struct DeviceData {
    VkDevice handle = VK_NULL_HANDLE;
    bool performanceQuery = false;  // the device enabled the fixture's VK_KHR_performance_query
    PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
#define OGPA_DECLARE(name) PFN_vk##name name = nullptr;
    OGPA_FIXTURE_DEVICE_FUNCTIONS(OGPA_DECLARE)
#undef OGPA_DECLARE
    bool profilingLockHeld = false;
    std::unordered_map<VkQueryPool, std::unique_ptr<QueryPoolData>> pools;  // handle = the data's address
    std::unordered_map<VkCommandBuffer, CommandBufferData> commandBuffers;
    std::vector<PendingResults> pending;
};

struct FixtureState {
    static FixtureState& Get();
    std::recursive_mutex mutex;
    std::unordered_map<void*, std::unique_ptr<InstanceData>> instances;  // by dispatch key
    std::unordered_map<void*, std::unique_ptr<DeviceData>> devices;

    InstanceData* FindInstance(const void* dispatchable);
    DeviceData* FindDevice(const void* dispatchable);
};

// The driver (or the layers below) already has VK_KHR_performance_query: the fixture stays out of the way.
bool DriverHasPerformanceQuery(InstanceData& instance, VkPhysicalDevice physicalDevice);

// fixture_queries.cpp: the device-level hooks of the fixture's VK_KHR_performance_query, by name; NULL for
// names it does not hook.
PFN_vkVoidFunction FindDeviceHook(const char* name);
// Frees what the device's query pools and pending results hold (before vkDestroyDevice).
void ReleaseDeviceResources(DeviceData& device);

}  // namespace ogpa::vkfixture
