// TEST FIXTURE, NOT A BACKEND: the counters of VK_LAYER_OPENGPA_test_fixture_performance_query (see
// fixture_state.h). Each value is computed on the host from the commands a command buffer recorded between
// a performance query's begin and end, so that tests know the answer exactly; nothing is measured.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace ogpa::vkfixture {

// What the commands between a query's begin and end did, as recorded.
struct Tally {
    uint64_t drawCommands = 0;      // vkCmdDraw* (each call one, indirect ones too)
    uint64_t dispatchCommands = 0;  // vkCmdDispatch* (each call one)
    uint64_t vertices = 0;          // direct draws: vertexCount (indexCount) x instanceCount
    uint64_t instances = 0;         // direct draws: instanceCount
    uint64_t workgroups = 0;        // direct dispatches: x * y * z

    Tally& operator+=(const Tally& other) {
        drawCommands += other.drawCommands;
        dispatchCommands += other.dispatchCommands;
        vertices += other.vertices;
        instances += other.instances;
        workgroups += other.workgroups;
        return *this;
    }
};

// The fixture's counters, the same in every queue family; one of each storage type, so that tests see the
// layer convert all six.
uint32_t CounterCount();
void DescribeCounter(uint32_t index, VkPerformanceCounterKHR* counter, VkPerformanceCounterDescriptionKHR* description);
VkPerformanceCounterResultKHR CounterValue(uint32_t index, const Tally& tally);

// The passes a query of `counterCount` counters needs: 1, or with OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS=K
// ceil(counterCount / K), to reach the layer's refusal of multi-pass sets.
uint32_t PassesFor(uint32_t counterCount);

// Whether vkAcquireProfilingLockKHR fails (OPENGPA_TEST_FIXTURE_PERF_QUERY_LOCK=fail), to reach the layer's
// lock error path.
bool ProfilingLockRefused();

}  // namespace ogpa::vkfixture
