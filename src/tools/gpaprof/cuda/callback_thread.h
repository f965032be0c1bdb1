// What the CUDA part's callbacks keep per thread, and where it lives.
//
// One block for all the injection library's files, read through one reference a callback: in a library the driver
// loads with dlopen each thread_local read is a call of __tls_get_addr, and a launch made 26 of them, later 13
// (docs/benchmarks.md, 2026-11-29 and 2026-11-30). The other libraries' per-thread state a traced call needs is
// reached through it too (the agent's call numbering, this thread's call ring and launch stage), each looked up once
// a thread. Trivially destructible: still there in the callbacks a thread's teardown makes.
//
// Where gpaprof preloaded libgpaprof_exit.so (it always does), the block is that library's, in the static TLS area,
// reached from the thread pointer with no call at all (agent/preloaded_thread_block.c); otherwise, and with
// GPAPROF_CUDA_PRELOADED_THREAD_BLOCK=0 (for benchmarks), a thread_local of this library.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/agent/thread_pointer.h"
#include "tools/gpaprof/cuda/raw_call_rings.h"
#include "tools/gpaprof/cuda/staged_launches.h"

namespace gpaprof::cuda::injection {

struct OpenCall;

struct alignas(64) CallbackThread {
    int internal = 0;              // > 0 while gpaprof itself calls CUDA: its calls are not the application's
    bool profilingLaunch = false;  // between a profiled launch's entry and exit on this thread
    std::vector<OpenCall>* openCalls = nullptr;  // this thread's calls in progress (api_callbacks.cpp), once made
    agent::ThreadCalls* calls = nullptr;         // Agent::CallsOfThisThread(), once asked for
    RawCallRings::ThreadCache ring;              // this thread's call ring (rawRings_)
    StagedLaunches::ThreadCache stage;           // this thread's launch stage (staged_)
};
static_assert(sizeof(CallbackThread) == 64, "one cache line");
// The preloaded block starts as zero bytes in every thread: that must be a CallbackThread's initial state
// (tests/tools/gpaprof/cuda/callback_thread_test.cpp checks the bytes).
static_assert(std::is_trivially_copyable_v<CallbackThread> && std::is_trivially_destructible_v<CallbackThread>);

// The block's distance from the thread pointer, or 0: the thread_local below. Chosen once, before CUDA calls back
// (ChooseCallbackThreadBlock), and never changed: a thread's state must stay in one place.
[[gnu::visibility("hidden")]] extern std::ptrdiff_t g_callbackThreadOffset;
// Where the block will be: libgpaprof_exit.so's where that library is loaded and `usePreloaded`.
void ChooseCallbackThreadBlock(bool usePreloaded);

// The fallback (its address taken in a function of its own: GCC recomputes a thread_local's address, a call each
// time, rather than keep it in a register across calls; the address a function returns it keeps).
[[gnu::noinline]] CallbackThread& ThreadLocalCallbackThread();

// This thread's block, at `offset` (g_callbackThreadOffset, or a copy of it the caller holds on a line it reads
// anyway).
inline CallbackThread& CallbackThreadAt(std::ptrdiff_t offset) {
#if GPAPROF_HAVE_THREAD_POINTER
    if (offset != 0) [[likely]] {
        return *std::launder(reinterpret_cast<CallbackThread*>(GpaprofThreadPointer() + offset));
    }
#endif
    return ThreadLocalCallbackThread();
}
inline CallbackThread& ThisCallbackThread() { return CallbackThreadAt(g_callbackThreadOffset); }

// Marks gpaprof's own CUDA calls on this thread: their callbacks return at once.
class Internal {
public:
    Internal() : thread_(ThisCallbackThread()) { ++thread_.internal; }
    ~Internal() { --thread_.internal; }
    Internal(const Internal&) = delete;
    Internal& operator=(const Internal&) = delete;

private:
    CallbackThread& thread_;
};

}  // namespace gpaprof::cuda::injection
