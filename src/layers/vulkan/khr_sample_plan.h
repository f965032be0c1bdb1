// What a cumulative sample needs of VK_KHR_performance_query: the events of the KHR block it asks for, as
// one performance query of the command buffer's queue family, and the checks that query must pass before it
// is recorded (Vulkan's rules for performance queries, and the layer's one-pass limit).
#pragma once

#include <string>
#include <vector>

#include "layers/vulkan/layer_state.h"
#include "layers/vulkan/query_arena.h"

namespace ogpa::vklayer {

struct KhrSamplePlan {
    QueryKind kind;  // VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR of one queue family; counters distinct, in order of request
    std::vector<VkPerformanceCounterStorageKHR> storages;  // of each counter of `kind`
    std::vector<std::string> names;
    bool outsideRenderPassOnly = false;  // a counter's scope is the render pass or the command buffer

    KhrSamplePlan(uint32_t queueFamily);
    bool empty() const { return kind.counterIndices.empty(); }
};

// Adds pPerfCounters[i] = `counter` (an event of the KHR block; `which` names it in messages) to the plan;
// *position is where its value is among the query's results.
VkResult AddKhrEvent(const DeviceData& device, const VkGpaPerfCounterAMD& counter, const std::string& which,
                     KhrSamplePlan* plan, uint32_t* position, std::string* problem);

// The passes the plan's query needs on its queue family.
uint32_t PassCount(const DeviceData& device, const KhrSamplePlan& plan);

// Whether the plan's query can begin now in `buffer`, whose next performance query would come from
// `nextPool` (VK_NULL_HANDLE: a new pool): the profiling lock, the counters' scopes, one pass, one pool per
// command buffer without performanceCounterMultipleQueryPools.
VkResult CheckKhrSample(const DeviceData& device, const CommandBufferInfo& buffer, const KhrSamplePlan& plan,
                        VkQueryPool nextPool, std::string* problem);

}  // namespace ogpa::vklayer
