// A per-thread block for the CUDA part's callbacks, in libgpaprof_exit.so because gpaprof preloads that library.
//
// A thread_local of a library loaded with dlopen (the CUDA driver loads gpaprof's injection library so) is reached
// through __tls_get_addr: a call that reads the thread's vector of TLS blocks, the loader's generation count and the
// block's slot, about three cache lines where the driver's own work between two callbacks has pushed them out of the
// core's first-level cache (docs/benchmarks.md, 2026-11-30). A launch makes six callbacks. A library loaded at
// start-up has its thread_locals in the static TLS area, at one distance from the thread pointer in every thread:
// the injection library asks for that distance once (gpaprofThreadBlockOffset) and then reaches the calling
// thread's block with one load of the thread pointer.
//
// The block is zeroed in every thread, those made before the injection library was loaded among them, and lives as
// long as the thread does. Plain C, like the exit hooks: this library is loaded into every process gpaprof starts.
#include <stddef.h>

#include "tools/gpaprof/agent/thread_pointer.h"

#define GPAPROF_EXPORT __attribute__((visibility("default")))

enum { kBlockBytes = 64, kBlockAlignment = 64 };

// initial-exec: the static TLS area's offset, fixed when the process starts (this library is never loaded later:
// gpaprof preloads it; loaded with dlopen, as the tests do, it takes room the loader keeps for such libraries).
static __thread __attribute__((tls_model("initial-exec"), aligned(kBlockAlignment))) unsigned char g_block[kBlockBytes];

// The distance from the thread pointer to the calling thread's block, the same in every thread; 0 (never a
// block's distance: the thread pointer's own control block is there) where the block cannot hold `size` bytes at
// `alignment`, or where this compiler offers no thread pointer.
GPAPROF_EXPORT ptrdiff_t gpaprofThreadBlockOffset(size_t size, size_t alignment) {
#if GPAPROF_HAVE_THREAD_POINTER
    if (size == 0 || size > kBlockBytes || alignment == 0 || kBlockAlignment % alignment != 0) return 0;
    return (char*)g_block - GpaprofThreadPointer();
#else
    (void)size;
    (void)alignment;
    return 0;
#endif
}
