// The API trace of an assembled spool (AssembledSpool::Trace): its sections and kernel timestamps as entries of
// the spool, in file order, their lines made when they are written (spool_trace_entries.cpp). AssembledSpool's
// constructor (spool_assembler.cpp) fills it. Internal to the assembly.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/spool/clock_calibration.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_assembler_internal.h"

namespace gpaprof {
namespace assembly {

inline constexpr uint32_t kNone = UINT32_MAX;  // no command, no device times

using Clocks = std::map<std::string, ClockCalibration, std::less<>>;

// A raw CUDA call line's 'A' line, and a raw CUDA kernel line's 'Q', 'E' and 'T' lines (AssemblyOptions).
using RawCallExpander = bool (*)(std::string_view line, std::string* callLine, std::string* error);
using RawKernelExpander = bool (*)(std::string_view line, std::string* lines, std::string* error);

}  // namespace assembly

// The API trace sections and kernel timestamps of an assembled spool, as entries of the spool, in file order.
class AssembledSpool::Trace : public AtpTraceLines {
public:
    struct Slot {
        uint32_t call;
        uint32_t command = assembly::kNone;
        uint32_t times = assembly::kNone;
        const ClockCalibration* clock = nullptr;  // of the device times
    };
    struct Thread {
        uint64_t id;
        uint64_t firstStart;
        std::vector<Slot> slots;
    };
    struct Stamp {
        uint32_t entry;
        const ClockCalibration* clock;  // null: the times are CPU-clock times already
    };
    struct Part {
        std::vector<Thread> threads;
        std::vector<Stamp> stamps;
    };

    std::vector<Part> parts;  // in the order of AtpFile::parts
    std::vector<assembly::CallEntry> calls;
    assembly::RawCallExpander expandRawCall = nullptr;
    assembly::RawKernelExpander expandRawKernel = nullptr;
    std::vector<assembly::CommandEntry> commands;
    std::vector<assembly::TimesEntry> times;
    std::vector<assembly::KernelEntry> kernels;
    std::vector<std::deque<std::string>> owned;
    assembly::Clocks clocks;

    size_t ThreadCount(size_t part) const override { return parts[part].threads.size(); }
    uint64_t ThreadId(size_t part, size_t thread) const override { return parts[part].threads[thread].id; }
    size_t CallCount(size_t part, size_t thread) const override { return parts[part].threads[thread].slots.size(); }

    size_t KernelTimestampCount(size_t part) const override { return parts[part].stamps.size(); }
    void AppendApiLine(size_t part, size_t thread, size_t call, std::string* out) const override;
    void AppendTimestampLine(size_t part, size_t thread, size_t call, std::string* out) const override;
    void AppendKernelTimestampLine(size_t part, size_t entry, std::string* out) const override;

    // The ApiCall of a slot, as AssembleSpool has it.
    ApiCall Call(const Slot& slot) const;

    KernelTimestamp KernelTimestampOf(const Stamp& stamp) const;

private:
    // A command's device times on the CPU clock; all 0 when it never completed.
    void MapTimes(const Slot& slot, uint64_t* queued, uint64_t* submit, uint64_t* start, uint64_t* end) const;
};

}  // namespace gpaprof
