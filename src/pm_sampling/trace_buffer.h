// OpenGPA's SPM trace format (docs/pm_sampling_trace_format.md): the bytes a trace sample's results hold when PM
// samples serve VK_GPA_SAMPLE_TYPE_TRACE_AMD on NVIDIA GPUs (issue 35). AMD fills trace samples in an
// IHV-specific format; this one is OpenGPA's own: a header, the counter list, then timestamped samples.
// Little-endian, every offset 8-byte aligned, written and read byte by byte (any buffer alignment will do).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpa::pm_sampling {

struct TraceSample {
    uint64_t startNs = 0, endNs = 0;  // CLOCK_MONOTONIC
    bool droppedBefore = false;       // samples before this one were lost
    std::vector<double> values;       // one per counter; NaN = not known
};

struct TraceData {
    uint64_t intervalNs = 0;            // the sampling interval used
    std::vector<std::string> counters;  // NVIDIA metrics by ncu name
    std::vector<TraceSample> samples;   // in time order, none overlapping the one before
};

inline constexpr char kTraceMagic[8] = {'O', 'G', 'P', 'A', 'S', 'P', 'M', '1'};
inline constexpr uint32_t kTraceVersion = 1;
inline constexpr uint32_t kTraceHeaderBytes = 64;
inline constexpr uint32_t kTraceTruncated = 1u << 0;    // header flag: not every sample of the trace fit
inline constexpr uint32_t kTraceFollowsLost = 1u << 1;  // header flag: some sample in the buffer follows lost ones
inline constexpr uint32_t kSampleDroppedBefore = 1u << 0;  // sample flag

// The header's fields as read, for what TraceData does not carry (truncation, the trace's whole sample count).
struct TraceBufferHeader {
    uint64_t intervalNs = 0;
    uint32_t counterCount = 0, sampleCount = 0, flags = 0;
    uint64_t firstSampleNs = 0, lastSampleNs = 0, totalSamples = 0;
};

// True when `data` can be written; otherwise false with the reason in `error` (may be null). The rules are the
// reader's: an interval above 0; names of 1 to 65,535 bytes of UTF-8 without NUL, none twice; one value per counter
// in each sample, none infinite; samples ending at or after they start, each starting at or after the one before
// ends.
bool CheckTraceData(const TraceData& data, std::string* error);

// Bytes a buffer of `counters` and `samples` samples takes; 0 when a name is empty or longer than 65,535 bytes, or
// the size overflows.
size_t TraceBufferBytes(const std::vector<std::string>& counters, size_t samples);

// Writes the header, the counter list and as many whole samples as fit in `capacity`, the earliest first, setting
// kTraceTruncated when not all fit; returns the bytes written. 0, with nothing written, when the header and counter
// list do not fit or CheckTraceData refuses `data`. With out == nullptr, writes nothing and returns the bytes the
// whole trace needs (vkGetGpaSessionResultsAMD's size query).
size_t WriteTraceBuffer(const TraceData& data, void* out, size_t capacity);

// Reads a buffer WriteTraceBuffer wrote, refusing anything else with the reason in `error` (may be null): bad magic
// or version, sizes that do not add up, counts past the end, names that are not UTF-8 or hold NUL, samples out of
// order or ending before they start, flags that do not match the samples. `header`, when given, gets the header.
std::optional<TraceData> ReadTraceBuffer(const void* data, size_t size, std::string* error,
                                         TraceBufferHeader* header = nullptr);

}  // namespace gpa::pm_sampling
