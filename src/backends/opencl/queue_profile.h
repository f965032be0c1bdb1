// What the sessions of one context need to know about its command queue: how to bracket a sample on it
// and which codeplay counters its events carry. Set when the context opens, read-only afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/opencl/cl_headers.h"
#include "backends/opencl/codeplay_counters.h"

namespace gpa::cl {

// The device command whose timestamps bracket a sample (see docs/opencl_backend.md).
enum class TimestampCommand {
    kFill,    // clEnqueueFillBuffer of 4 bytes of an internal buffer: real device work, timestamped by the
              // device on every driver (the default)
    kMarker,  // clEnqueueMarkerWithWaitList: no device work, but some drivers timestamp it on submission
};

// Hardware counter 0 of every OpenCL context; codeplay counters follow it.
inline constexpr uint32_t kSampleDurationCounter = 0;
inline constexpr uint32_t kFirstCodeplayCounter = 1;

struct QueueProfile {
    cl_command_queue queue = nullptr;
    bool outOfOrder = false;  // barriers keep the sampled commands between the bracket commands
    TimestampCommand timestampCommand = TimestampCommand::kFill;
    cl_mem fillTarget = nullptr;  // kFill: 4 bytes that the bracket commands overwrite
    // Counter i is hardware counter kFirstCodeplayCounter + i.
    std::vector<CodeplayCounter> codeplayCounters;
    size_t codeplayResultCount = 0;  // results per event on this queue
};

}  // namespace gpa::cl
