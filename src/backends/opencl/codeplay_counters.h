// How counters of cl_codeplay_performance_counters become GPA hardware counters, and how their results are
// read. The mapping is pure data handling (unit-tested without a device); the queries are thin.
//
// Which counters: a queue collects the counters its creator enabled (CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY),
// and only those; the backend learns them from the queue's CL_QUEUE_PROPERTIES_ARRAY (OpenCL 3.0). Counters
// the device lists but the queue does not collect are not exposed (the reason is logged).
// Which results: see docs/opencl_backend.md ("cl_codeplay_performance_counters").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "GPUPerfAPITypes.h"
#include "backends/opencl/cl_headers.h"
#include "counters/counter_definition.h"

namespace gpa::cl {

// "nanoseconds", "watts", ...; null for a value the extension does not define.
const char* CodeplayUnitName(cl_uint unit);
// The GPA usage type of a unit. Units GPA has no usage type for (rates, temperature, power, voltage,
// current, frequency) and GENERIC map to GPA_USAGE_TYPE_ITEMS; their description names the real unit.
GPA_Usage_Type CodeplayUsage(cl_uint unit);
// The GPA type a result is read as. GPA has no signed reader (GPA_GetSample* are uint32/uint64/float32/
// float64), so signed results are read as float64, which keeps their sign. Null for unknown storage.
std::optional<GPA_Type> CodeplayType(cl_uint storage);
// A result as a double according to its storage; null for unknown storage.
std::optional<double> CodeplayValue(const cl_performance_counter_result_codeplay& result, cl_uint storage);

// A device counter the queue collects, as a GPA hardware counter.
struct CodeplayCounter {
    HardwareCounter hardware;
    cl_uint uuid = 0;
    cl_uint storage = 0;
    uint32_t resultIndex = 0;  // its position in an event's result array (the queue's enable order)
};

struct CodeplayCounterSet {
    std::vector<CodeplayCounter> counters;
    size_t resultCount = 0;            // results per event: how many counters the queue enabled
    std::vector<std::string> skipped;  // "name: why" for device counters that are not exposed
};

// Joins the device's counter list with the uuids the queue enabled, in enable order. A counter the queue
// enabled but the device does not list cannot be described, so it is skipped too; so is one whose storage
// is unknown.
CodeplayCounterSet BuildCodeplayCounters(std::span<const cl_performance_counter_codeplay> device,
                                         std::span<const cl_uint> queueUuids);

// GPA counters derived from the codeplay counters of OpenGPA's OpenCL layer (docs/opencl_layer.md), where
// the queue collects their inputs: TransferBandwidth, KernelBusy and TransferBusy. `hardwareNames` are the
// context's hardware counters; `sampleDuration` names the sample's device time among them.
std::vector<DerivedCounterDefinition> CodeplayDerivedCounters(std::span<const std::string> hardwareNames,
                                                              const std::string& sampleDuration);

// The uuids of the counters a queue enabled, read from its properties array (key/value pairs ending in 0).
// Empty when the array has no CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY entry. The entry's value points to the
// application's cl_performance_counter_config_codeplay, which must still be valid.
std::vector<cl_uint> EnabledCounterUuids(std::span<const cl_ulong> queueProperties);

// The device's counters (empty when it does not have the extension or lists none).
std::vector<cl_performance_counter_codeplay> QueryDeviceCounters(cl_device_id device);
// The uuids the queue enabled (empty when the queue reports no properties array or none enabled).
std::vector<cl_uint> QueryQueueCounterUuids(cl_command_queue queue);

}  // namespace gpa::cl
