// Raw call lines: the record of a traced CUDA call whose arguments are still the bytes of CUPTI's parameter
// struct. Formatting a call's arguments and encoding its 'A' line cost the application's thread about 0.4 us
// per call (docs/benchmarks.md); for the calls whose arguments are formatted from the struct's bytes alone
// (RawParamsSize >= 0: no strings, no out-pointers — cudaLaunchKernel, cudaGetLastError, cuLaunchKernel, ...)
// the CUDA part writes those bytes instead, and gpaprof formats them when it reads the spool, into the same 'A'
// line the call would have had. The line is in the spool like any other record: a crash loses nothing more.
//
// Line: 'B', then two lowercase hex digits per byte of: a fixed header of 40 bytes (thread id u64, call index
// u64, API type u32, return code i32, start u64, duration = end - start u64; each little-endian), then the
// parameter struct's bytes (none for a function without arguments). Hex of bytes rather than decimal numbers (issue
// 34: no decimal formatting on the hot path): a table copy per byte, no division, and a hex line keeps the spool's
// rule that no record holds a NUL byte or a newline. Measured on the CPU machine (2026-11-28, a launch's 48-byte
// struct): 40.3 ns a line against the decimal form's 44.6, for 178 bytes instead of 138 (docs/benchmarks.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpaprof::cuda {

// No parameter struct of CUDA 13 comes near this; a larger one is written as an 'A' line.
inline constexpr size_t kMaxRawParamsBytes = 1024;

struct RawCallFields {
    uint64_t threadId = 0;
    uint64_t index = 0;
    uint32_t apiType = 0;
    int32_t returnCode = 0;
    uint64_t start = 0, end = 0;
    const void* params = nullptr;
    size_t paramsSize = 0;  // RawParamsSize of the function, at most kMaxRawParamsBytes
};

inline constexpr size_t kRawCallHeaderBytes = 40;
// The longest 'B' line, its '\n' included.
inline constexpr size_t kMaxRawCallLineBytes = 1 + 2 * (kRawCallHeaderBytes + kMaxRawParamsBytes) + 1;

// Writes the 'B' line, its '\n' included, at `out` (room for kMaxRawCallLineBytes); returns its length.
size_t EncodeRawCallLine(const RawCallFields& call, char* out);
// Appends the 'B' line, its '\n' included.
void EncodeRawCallLine(const RawCallFields& call, std::string* out);

// The 'A' line (its '\n' included) that a 'B' line (without its '\n') stands for, appended to `callLine`; false
// with the reason when the line is not a raw call line of a function this build's table knows. For
// spool::SetRawCallExpander.
bool ExpandRawCallLine(std::string_view line, std::string* callLine, std::string* error);

}  // namespace gpaprof::cuda
