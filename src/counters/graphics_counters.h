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

}  // namespace gpa::graphics
