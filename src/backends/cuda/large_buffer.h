// Counter data images are large (225 MB for the 46 metrics of GPA's compute set with room for 256 ranges on
// GH100, 2026-11-26): in 4 KiB pages, zeroing one took 0.11-0.13 s on an H100 host and copying it 0.13-0.16 s,
// in huge pages a third of that. These fill such buffers in transparent huge pages where the kernel allows them
// (madvise mode or always), falling back to ordinary pages silently.
// OPENGPA_CUDA_HUGE_PAGES=0 turns the advice off (to compare).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpa::cuda {

// `buffer` becomes `size` zero bytes; a buffer with room enough keeps its memory.
void AssignZeroed(std::vector<uint8_t>* buffer, size_t size);

// `buffer` becomes a copy of `from`; a buffer with room enough keeps its memory.
void AssignCopy(std::vector<uint8_t>* buffer, const std::vector<uint8_t>& from);

// Whether buffers from here are advised into huge pages (OPENGPA_CUDA_HUGE_PAGES, default on).
bool LargeBuffersUseHugePages();

}  // namespace gpa::cuda
