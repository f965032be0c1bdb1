// GPA's graphics counters as data, shared by the graphics backends (Vulkan, OpenGL): one vocabulary of hardware
// counter names for what graphics APIs' queries measure, and GPA's public counters over them. Each backend
// declares the hardware counters its device offers under these names; a public counter whose inputs a device lacks
// is omitted by the catalog with the reason.
#pragma once

#include <string>
#include <vector>

#include "counters/counter_definition.h"

namespace gpa::graphics {

// Hardware counter names of the vocabulary.
inline constexpr const char* kDuration = "TIMING.duration_ns";  // nanoseconds between the sample's two timestamps
inline constexpr const char* kAnySamplesPassed = "DB.any_samples_passed";
// Stream-output (transform feedback) counts of stream `stream` (0-3).
std::string PrimitivesWritten(int stream);    // "SO.primitives_written_s<n>"
std::string PrimitivesGenerated(int stream);  // "SO.primitives_generated_s<n>"
// 1 when stream-output overflowed (primitives not written for lack of space), else 0: any stream, or one.
inline constexpr const char* kOverflowAnyStream = "SO.overflow";
std::string StreamOverflow(int stream);       // "SO.overflow_s<n>"

// One pipeline statistic or occlusion count: its hardware counter name and what it counts, in any API's words.
struct Event {
    const char* name;         // "IA.vertices"
    const char* description;  // "Vertices read by the input assembler"
};
// The pipeline statistics (IA, VGT, PA, SPI blocks) and the occlusion count (DB.samples_passed), in GPA's order.
const std::vector<Event>& PipelineEvents();

// GPUTime (from kDuration; `gpuTimeHow` says how the API takes the two timestamps) and the counters of the user
// guide's "OpenGL and DirectX" table that pipeline statistics and occlusion queries measure.
std::vector<DerivedCounterDefinition> PipelineCounters(const std::string& gpuTimeHow);
// OcclusionPredicate, and the stream-output counters (PrimsWritten, PrimsStorageNeed, OverflowPred, their _S0-_S3)
// of APIs with transform feedback queries.
std::vector<DerivedCounterDefinition> QueryOnlyCounters();

// ---- Counters sampled device-wide (NVIDIA's PM sampler, src/pm_sampling: issues 35, 36) ----
// A graphics API's sample on an NVIDIA GPU (GH100 and later) takes hardware counters from the device-level PM
// sampler: the NVIDIA metrics (ncu's names) integrated over the sample's GPU time window, device-wide (other work on
// the GPU in that window is in them). Their hardware counter names are "PM." + the metric.
inline constexpr const char* kSampledPrefix = "PM.";
std::string SampledCounterName(const std::string& metric);  // "PM.dram__bytes_read.sum"

// What the vocabulary knows of one sampled metric.
struct SampledMetric {
    const char* metric;       // ncu's name: "dram__bytes_read.sum"
    const char* description;  // what it counts, in NVIDIA's terms
    GPA_Usage_Type usage;     // bytes, percentage, items
};
const std::vector<SampledMetric>& SampledMetrics();

// The hardware counter of a sampled metric (float64: a window's share of an edge sample is fractional); a metric the
// table does not know is described by its name alone.
HardwareCounter SampledHardwareCounter(const std::string& metric);

// GPA's public counters that map honestly onto sampled metrics (GPUBusy, FetchSize, WriteSize), over "PM." names; the
// catalog leaves out those whose metric a device does not sample.
std::vector<DerivedCounterDefinition> SampledCounters();

// GPA counters of the user guide that the sampled metrics do not measure, each with why (docs list them).
struct AbsentCounter {
    const char* name;
    const char* why;
};
const std::vector<AbsentCounter>& SampledCountersAbsent();

}  // namespace gpa::graphics
