// The fixture of the PM-sampling block's GPU tests: the layer's device (validated), the block's events by name,
// skipping with the layer's reason where the block is absent (lavapipe, a GPU that is not NVIDIA, no CUPTI), and
// device-local buffers of known size for workloads that write a known number of bytes.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

#include "../layer_test_fixture.h"

namespace ogpa::vktest {

inline constexpr uint64_t kMiB = 1ull << 20;

class PmGpuTest : public LayerTest {
protected:
    void SetUp() override {
        LayerTest::SetUp();
        if (env_ == nullptr || HasFailure()) return;
        uint32_t count = 0;
        if (gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, &count, nullptr) != VK_SUCCESS) {
            GTEST_SKIP() << "no PM-sampling block on " << env().properties.deviceName << ": " << LastMessage();
        }
        events_.resize(count);
        ASSERT_EQ(gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, &count, events_.data()), VK_SUCCESS);
    }

    void TearDown() override {
        if (env_ != nullptr) {
            for (auto& [buffer, memory] : buffers_) {
                vkDestroyBuffer(env().device, buffer, nullptr);
                vkFreeMemory(env().device, memory, nullptr);
            }
        }
        buffers_.clear();
        LayerTest::TearDown();
    }

    // The PM block's counter for `metric` (a test failure when the block lacks it).
    VkGpaPerfCounterAMD Counter(const char* metric) {
        for (const VkGpaPerfEventPropertiesOPENGPA& event : events_) {
            if (std::strcmp(event.name, metric) == 0) return {VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, event.eventID};
        }
        ADD_FAILURE() << "the PM-sampling block has no event " << metric;
        return {VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, 0};
    }

    // A device-local buffer of `bytes`, destroyed at the end of the test.
    VkBuffer DeviceBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage) {
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = bytes;
        info.usage = usage;
        VkBuffer buffer = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateBuffer(env().device, &info, nullptr, &buffer), VK_SUCCESS);
        VkMemoryRequirements requirements{};
        vkGetBufferMemoryRequirements(env().device, buffer, &requirements);
        VkPhysicalDeviceMemoryProperties memory{};
        vkGetPhysicalDeviceMemoryProperties(env().physicalDevice, &memory);
        VkMemoryAllocateInfo allocate{};
        allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        allocate.allocationSize = requirements.size;
        for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
            if ((requirements.memoryTypeBits & (1u << i)) &&
                (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
                allocate.memoryTypeIndex = i;
                break;
            }
        }
        VkDeviceMemory deviceMemory = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateMemory(env().device, &allocate, nullptr, &deviceMemory), VK_SUCCESS);
        EXPECT_EQ(vkBindBufferMemory(env().device, buffer, deviceMemory, 0), VK_SUCCESS);
        buffers_.emplace_back(buffer, deviceMemory);
        return buffer;
    }

    // A sample's results, asking again while the layer answers VK_NOT_READY (PM samples not decoded yet).
    VkResult ResultsWhenReady(VkGpaSessionAMD session, uint32_t sampleId, std::vector<uint8_t>* bytes) {
        vkQueueWaitIdle(env().queue);
        VkResult result = VK_NOT_READY;
        for (int attempt = 0; attempt < 20 && result == VK_NOT_READY; ++attempt) {
            if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            size_t size = 0;
            result = gpa().GetGpaSessionResults(env().device, session, sampleId, &size, nullptr);
            if (result != VK_SUCCESS) continue;
            bytes->assign(size, 0);
            result = gpa().GetGpaSessionResults(env().device, session, sampleId, &size, bytes->data());
        }
        return result;
    }

    static double Word(const std::vector<uint8_t>& bytes, size_t index) {
        double value = 0;
        std::memcpy(&value, bytes.data() + index * sizeof(uint64_t), sizeof value);
        return value;
    }

    // A line the runner records (tools/device/gpu_vulkan_tests.sh greps "FIGURE").
    static void Figure(const std::string& name, double measured, double expected, const std::string& more = "") {
        std::printf("[figure] FIGURE %s measured=%.0f expected=%.0f ratio=%.4f %s\n", name.c_str(), measured, expected,
                    expected > 0 ? measured / expected : 0.0, more.c_str());
        std::fflush(stdout);
    }

    std::vector<VkGpaPerfEventPropertiesOPENGPA> events_;
    std::vector<std::pair<VkBuffer, VkDeviceMemory>> buffers_;
};

}  // namespace ogpa::vktest
