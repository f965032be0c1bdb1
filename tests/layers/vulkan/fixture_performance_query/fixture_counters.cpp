#include "fixture_counters.h"

#include <cstdlib>
#include <cstring>
#include <iterator>

namespace ogpa::vkfixture {

namespace {

struct Definition {
    const char* name;
    const char* description;
    VkPerformanceCounterStorageKHR storage;
};

constexpr const char* kCategory = "OpenGPA test fixture (not a measurement)";

constexpr Definition kCounters[] = {
    {"Draw commands", "Test double: vkCmdDraw* commands executed while the query was active (each call counts one)",
     VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR},
    {"Dispatch commands", "Test double: vkCmdDispatch* commands executed while the query was active (each call counts one)",
     VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR},
    {"Vertices drawn", "Test double: sum of vertexCount (indexCount) x instanceCount of the direct draws",
     VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR},
    {"Instances drawn", "Test double: sum of instanceCount of the direct draws", VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR},
    {"Workgroups dispatched", "Test double: sum of x * y * z of the direct dispatches", VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR},
    {"Vertices per draw command", "Test double: Vertices drawn / Draw commands (0 without draws)",
     VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR},
};

void Copy(char (&to)[VK_MAX_DESCRIPTION_SIZE], const char* from) {
    const size_t length = strnlen(from, VK_MAX_DESCRIPTION_SIZE - 1);
    std::memcpy(to, from, length);
    to[length] = '\0';
}

}  // namespace

uint32_t CounterCount() { return static_cast<uint32_t>(std::size(kCounters)); }

void DescribeCounter(uint32_t index, VkPerformanceCounterKHR* counter, VkPerformanceCounterDescriptionKHR* description) {
    const Definition& definition = kCounters[index];
    if (counter != nullptr) {
        counter->unit = VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;
        counter->scope = VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR;
        counter->storage = definition.storage;
        std::memset(counter->uuid, 0, VK_UUID_SIZE);
        std::memcpy(counter->uuid, "OGPA-fixture", 12);
        counter->uuid[VK_UUID_SIZE - 1] = static_cast<uint8_t>(index);
    }
    if (description != nullptr) {
        description->flags = 0;
        Copy(description->name, definition.name);
        Copy(description->category, kCategory);
        Copy(description->description, definition.description);
    }
}

VkPerformanceCounterResultKHR CounterValue(uint32_t index, const Tally& tally) {
    VkPerformanceCounterResultKHR value{};
    switch (index) {
        case 0: value.uint64 = tally.drawCommands; break;
        case 1: value.uint32 = static_cast<uint32_t>(tally.dispatchCommands); break;
        case 2: value.int64 = static_cast<int64_t>(tally.vertices); break;
        case 3: value.int32 = static_cast<int32_t>(tally.instances); break;
        case 4: value.float64 = static_cast<double>(tally.workgroups); break;
        case 5:
            value.float32 = tally.drawCommands == 0 ? 0.0f
                                                    : static_cast<float>(static_cast<double>(tally.vertices) /
                                                                         static_cast<double>(tally.drawCommands));
            break;
        default: break;
    }
    return value;
}

uint32_t PassesFor(uint32_t counterCount) {
    const char* text = std::getenv("OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS");
    const long perPass = text != nullptr ? std::strtol(text, nullptr, 10) : 0;
    if (perPass <= 0 || counterCount == 0) return 1;
    return static_cast<uint32_t>((counterCount + perPass - 1) / perPass);
}

bool ProfilingLockRefused() {
    const char* text = std::getenv("OPENGPA_TEST_FIXTURE_PERF_QUERY_LOCK");
    return text != nullptr && std::strcmp(text, "fail") == 0;
}

}  // namespace ogpa::vkfixture
