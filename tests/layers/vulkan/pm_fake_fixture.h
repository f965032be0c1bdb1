// The fixture of the tests that run the layer's PM-sampling block through its test hook
// (src/layers/vulkan/pm_test_source.h) on lavapipe: the block's events, results read until ready, words as doubles.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "layer_test_fixture.h"
#include "pm_sampling/device_sampling.h"

namespace ogpa::vktest {

class PmSamplingFake : public LayerTest {
protected:
    void SetUp() override {
        LayerTest::SetUp();
        if (env_ == nullptr || HasFailure()) return;
        uint32_t count = 0;
        if (gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, &count, nullptr) != VK_SUCCESS) {
            GTEST_SKIP() << "the layer's test source gives no block here: " << LastMessage();
        }
        events_.resize(count);
        ASSERT_EQ(gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, &count, events_.data()), VK_SUCCESS);
    }

    uint32_t Index(const char* metric) {
        const auto& metrics = gpa::pm_sampling::GraphicsMetrics();
        return uint32_t(std::find(metrics.begin(), metrics.end(), metric) - metrics.begin());
    }

    std::vector<uint64_t> ResultsWhenReady(VkGpaSessionAMD session, uint32_t sampleId, VkResult* result) {
        std::vector<uint64_t> values;
        vkQueueWaitIdle(env().queue);
        *result = VK_NOT_READY;
        for (int attempt = 0; attempt < 10 && *result == VK_NOT_READY; ++attempt) *result = ReadResults(env(), session, sampleId, &values);
        return values;
    }

    // The byte size of a trace sample's results once they are ready (VK_NOT_READY asked again); 0 with the reason
    // as a test failure where they never are.
    size_t TraceSizeWhenReady(VkGpaSessionAMD session, uint32_t sampleId) {
        vkQueueWaitIdle(env().queue);
        size_t size = 0;
        VkResult result = VK_NOT_READY;
        for (int attempt = 0; attempt < 10 && result == VK_NOT_READY; ++attempt) {
            result = gpa().GetGpaSessionResults(env().device, session, sampleId, &size, nullptr);
        }
        if (result != VK_SUCCESS) {
            ADD_FAILURE() << "the trace's results: VkResult " << result << ": " << LastMessage();
            return 0;
        }
        return size;
    }

    static double AsDouble(uint64_t word) {
        double value = 0;
        std::memcpy(&value, &word, sizeof value);
        return value;
    }

    std::vector<VkGpaPerfEventPropertiesOPENGPA> events_;
};

}  // namespace ogpa::vktest
