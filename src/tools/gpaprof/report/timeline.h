// The trace as one timeline, whatever API part it came from: host calls per thread, device activities
// (kernels, data transfers, other commands) per queue or stream, and perf-marker spans per thread. The
// summaries, the best-practice checks, the HTML report and the Perfetto export all read this.
//
// Where device activities come from:
//  - an API call whose timestamp line carries command times (OpenCL enqueue calls, and any other API part
//    that writes its launches and copies the same way): a kernel when it has kernel launch fields, a
//    transfer when it has a transfer size, another command otherwise;
//  - the part's kernel timestamp section (hsa, cuda): each kernel there that no API call of the part
//    already carries (same name, start and end), e.g. kernels a CUDA graph launch started.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report {

struct HostCall {
    std::string api;               // API part: "ocl", "cuda", "hsa"
    uint64_t threadId = 0;
    size_t index = 0;              // 0-based position in its thread block: the .csv CallIndex
    const ApiCall* call = nullptr;  // points into the AtpFile the timeline was built from

    uint64_t duration() const { return call->end >= call->start ? call->end - call->start : 0; }
    // "thread 123 call #4"
    std::string Where() const;
};

enum class ActivityKind { Kernel, Transfer, Command };

struct DeviceActivity {
    ActivityKind kind = ActivityKind::Command;
    std::string api;
    std::string name;              // kernel name; the command name for other activities
    std::string command;           // CL_COMMAND_NDRANGE_KERNEL, ...; the packet type for kernel timestamps
    std::string device;
    std::string queue;             // the track: "queue 1 (0x...)", "stream 2", ...
    std::string context;           // "context 1 (0x...)"; empty when unknown
    uint64_t queued = 0, submit = 0;
    uint64_t start = 0, end = 0;   // device execution, CPU-clock ns
    bool completed = true;         // false when the command has no device times (never completed)
    std::optional<uint64_t> bytes;  // transfers
    std::vector<uint64_t> globalSize, localSize;  // kernels; localSize empty when not specified
    std::optional<size_t> hostCall;  // index in Timeline::calls of the call that enqueued it

    uint64_t duration() const { return completed && end >= start ? end - start : 0; }
};

struct MarkerSpan {
    uint64_t threadId = 0;
    std::string name;
    std::string group;
    uint64_t start = 0, end = 0;
    size_t depth = 0;              // 0 for outermost markers
    bool closed = true;            // false when the trace has no end marker for it (ends at the trace end)
};

struct Timeline {
    std::vector<HostCall> calls;              // in file order: part, thread block, call
    std::vector<DeviceActivity> activities;   // completed ones by device start, then the others
    std::vector<MarkerSpan> markers;          // by thread, then start
    std::vector<std::string> notes;           // what the timeline left out, and why
    uint64_t begin = 0, end = 0;              // earliest and latest time in the trace (0, 0 when empty)
};

Timeline BuildTimeline(const AtpFile& file);

// "OpenCL", "CUDA", "HSA"; the part name itself for others.
std::string ApiDisplayName(std::string_view api);
// What the API calls a command queue: "stream" for cuda, "queue" otherwise.
std::string QueueWord(std::string_view api);
const char* ActivityKindName(ActivityKind kind);

}  // namespace gpaprof::report
