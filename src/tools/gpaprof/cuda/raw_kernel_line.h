// Raw kernel lines: a kernel's activity record, joined to its launch, as bytes that gpaprof formats when it reads the
// spool. Formatting a kernel's three lines ('Q', 'E', 'T': AppendKernelLines) took the activity thread about 8,000
// instructions a kernel (callgrind, the stand-in CUDA), and in a launch-bound loop on an H200 that thread's work
// showed in the launching thread's time: gpaprof measured 1.59 times the loop alone, 1.50 with the records read but
// left unformatted (docs/benchmarks.md, 2026-11-29). Issue 34 asks that formatting happen off the hot path or at
// the end; the activity thread now writes one 'R' line a kernel instead, and gpaprof expands it into the same
// three lines when it reads the spool. The line is in the spool like any other record: a crash loses nothing more.
//
// Line: 'R', then tab-separated: the fixed header below as two lowercase hex digits a byte (little-endian on the
// machines gpaprof runs on: x86-64, aarch64), the kernel's name, the device's name, the clock key (escaped text).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tools/gpaprof/cuda/cuda_records.h"

namespace gpaprof::cuda {

// Appends the 'R' line, its '\n' included. `kernel.name` is not read: `name` is written instead (the record's own
// string, not copied into the activity).
void AppendRawKernelLine(const KernelActivity& kernel, std::string_view name, std::optional<uint64_t> kernelHandle,
                         const EnqueueInfo* launch, std::string_view deviceName, std::string_view clockKey,
                         std::string* out);

// The lines (each with its '\n') that an 'R' line (without its '\n') stands for, AppendKernelLines's, appended to
// `lines`; false with the reason when the line is not a raw kernel line. For AssemblyOptions::expandRawKernel.
bool ExpandRawKernelLine(std::string_view line, std::string* lines, std::string* error);

}  // namespace gpaprof::cuda
