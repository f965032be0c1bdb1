// Where the CUDA callbacks keep their per-thread state (src/tools/gpaprof/cuda/callback_thread.h): its initial state
// is zero bytes (what libgpaprof_exit.so's block starts as), a thread_local of its own where that library is not
// loaded or not wanted, and that library's block, one per thread, where it is.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <thread>

#include "tools/gpaprof/cuda/callback_thread.h"

namespace gpaprof::cuda::injection {
namespace {

// Each thread's block, and its count of gpaprof's own calls while an Internal is alive on it.
struct Seen {
    CallbackThread* block = nullptr;
    int internalInside = 0;
};
Seen SeenOnAnotherThread() {
    Seen seen;
    std::thread other([&] {
        Internal internal;
        seen.block = &ThisCallbackThread();
        seen.internalInside = seen.block->internal;
    });
    other.join();
    return seen;
}

TEST(CallbackThread, ItsInitialStateIsZeroBytes) {
    const CallbackThread initial{};
    unsigned char zero[sizeof(CallbackThread)] = {};
    EXPECT_EQ(std::memcmp(&initial, zero, sizeof zero), 0)
        << "libgpaprof_exit.so's block starts as zero bytes in every thread: that must be a CallbackThread's state";
}

// One test, in this order: the process has no libgpaprof_exit.so until the test loads it.
TEST(CallbackThread, IsAThreadLocalWithoutThePreloadedLibraryAndThatLibrarysBlockWithIt) {
    // (Loaded already where this test runs again in one process, --gtest_repeat: that half is then skipped.)
    const bool loadedBefore = dlsym(RTLD_DEFAULT, "gpaprofThreadBlockOffset") != nullptr;
    ChooseCallbackThreadBlock(!loadedBefore);
    EXPECT_EQ(g_callbackThreadOffset, 0) << "no library to ask: the thread_local";
    EXPECT_EQ(&ThisCallbackThread(), &ThreadLocalCallbackThread());
    {
        Internal internal;
        EXPECT_EQ(ThisCallbackThread().internal, 1);
        const Seen other = SeenOnAnotherThread();
        EXPECT_NE(other.block, &ThisCallbackThread());
        EXPECT_EQ(other.internalInside, 1) << "each thread counts its own";
    }
    EXPECT_EQ(ThisCallbackThread().internal, 0);

#if GPAPROF_HAVE_THREAD_POINTER && defined(GPAPROF_EXIT_HOOKS)
    // Global, as a preloaded library is: the injection library finds it with dlsym(RTLD_DEFAULT).
    ASSERT_NE(dlopen(GPAPROF_EXIT_HOOKS, RTLD_NOW | RTLD_GLOBAL), nullptr) << dlerror();
    ChooseCallbackThreadBlock(false);
    EXPECT_EQ(g_callbackThreadOffset, 0) << "GPAPROF_CUDA_PRELOADED_THREAD_BLOCK=0: the thread_local";
    ChooseCallbackThreadBlock(true);
    ASSERT_NE(g_callbackThreadOffset, 0);
    CallbackThread& mine = ThisCallbackThread();
    EXPECT_NE(&mine, &ThreadLocalCallbackThread());
    EXPECT_EQ(reinterpret_cast<char*>(&mine), GpaprofThreadPointer() + g_callbackThreadOffset);
    EXPECT_EQ(&CallbackThreadAt(g_callbackThreadOffset), &mine);
    {
        Internal internal;
        EXPECT_EQ(mine.internal, 1);
        EXPECT_EQ(ThreadLocalCallbackThread().internal, 0) << "the thread_local is no longer used";
        const Seen other = SeenOnAnotherThread();
        EXPECT_NE(other.block, &mine);
        EXPECT_EQ(other.internalInside, 1);
    }
    EXPECT_EQ(mine.internal, 0);
    ChooseCallbackThreadBlock(false);  // as the other tests of this process expect
#endif
}

}  // namespace
}  // namespace gpaprof::cuda::injection
