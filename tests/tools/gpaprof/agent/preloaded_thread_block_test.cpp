// libgpaprof_exit.so's per-thread block (src/tools/gpaprof/agent/preloaded_thread_block.c): one distance from the
// thread pointer in every thread, each thread's own zeroed block there (threads that existed before the library was
// loaded among them), and no block where the asked size or alignment does not fit.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>

#include "tools/gpaprof/agent/thread_pointer.h"

namespace gpaprof {
namespace {

using OffsetFunction = std::ptrdiff_t (*)(std::size_t, std::size_t);

OffsetFunction LoadOffsetFunction() {
    // Local: the test process keeps its own exit and __libc_start_main.
    void* library = dlopen(GPAPROF_EXIT_HOOKS, RTLD_NOW | RTLD_LOCAL);
    if (!library) return nullptr;
    void* symbol = dlsym(library, "gpaprofThreadBlockOffset");
    OffsetFunction function = nullptr;
    std::memcpy(&function, &symbol, sizeof function);
    return function;
}

bool AllZero(const unsigned char* bytes, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
        if (bytes[i] != 0) return false;
    }
    return true;
}

TEST(PreloadedThreadBlock, IsEachThreadsOwnAtOneDistanceFromItsThreadPointer) {
#if !GPAPROF_HAVE_THREAD_POINTER
    GTEST_SKIP() << "this compiler offers no thread pointer: the CUDA part uses a thread_local of its own";
#else
    // A thread that exists before the library is loaded.
    std::mutex mutex;
    std::condition_variable changed;
    bool loaded = false, checked = false;
    unsigned char* earlyBlock = nullptr;
    bool earlyZero = false;
    std::ptrdiff_t offset = 0;
    std::thread early([&] {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return loaded; });
        earlyBlock = reinterpret_cast<unsigned char*>(GpaprofThreadPointer() + offset);
        earlyZero = AllZero(earlyBlock, 64);
        earlyBlock[0] = 2;
        checked = true;
        changed.notify_all();
    });

    const OffsetFunction offsetOf = LoadOffsetFunction();
    ASSERT_NE(offsetOf, nullptr) << dlerror();
    offset = offsetOf(64, 64);
    ASSERT_NE(offset, 0) << "a 64-byte block at 64 bytes' alignment fits";
    EXPECT_EQ(offsetOf(16, 8), offset) << "one block, whatever fits in it";
    auto* mainBlock = reinterpret_cast<unsigned char*>(GpaprofThreadPointer() + offset);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(mainBlock) % 64, 0u);
    EXPECT_TRUE(AllZero(mainBlock, 64));
    mainBlock[0] = 1;

    {
        std::unique_lock<std::mutex> lock(mutex);
        loaded = true;
        changed.notify_all();
        changed.wait(lock, [&] { return checked; });
    }
    early.join();
    EXPECT_NE(earlyBlock, mainBlock);
    EXPECT_TRUE(earlyZero) << "a thread made before the library was loaded has its block zeroed";

    unsigned char* laterBlock = nullptr;
    bool laterZero = false;
    std::ptrdiff_t laterOffset = 0;
    std::thread later([&] {
        laterOffset = offsetOf(64, 64);
        laterBlock = reinterpret_cast<unsigned char*>(GpaprofThreadPointer() + offset);
        laterZero = AllZero(laterBlock, 64);
    });
    later.join();
    EXPECT_EQ(laterOffset, offset) << "the same distance in every thread";
    EXPECT_NE(laterBlock, mainBlock);
    EXPECT_TRUE(laterZero) << "a new thread's block is zeroed, whatever other threads wrote in theirs";
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(laterBlock) % 64, 0u);
    EXPECT_EQ(mainBlock[0], 1) << "this thread's block is its own";
    mainBlock[0] = 0;
#endif
}

TEST(PreloadedThreadBlock, OffersNoBlockWhereTheSizeOrAlignmentDoesNotFit) {
    const OffsetFunction offsetOf = LoadOffsetFunction();
    ASSERT_NE(offsetOf, nullptr) << dlerror();
    EXPECT_EQ(offsetOf(65, 64), 0) << "larger than the block";
    EXPECT_EQ(offsetOf(64, 128), 0) << "more aligned than the block";
    EXPECT_EQ(offsetOf(32, 3), 0) << "an alignment that is no power of two";
    EXPECT_EQ(offsetOf(0, 64), 0) << "nothing asked for";
    EXPECT_EQ(offsetOf(32, 0), 0) << "no alignment";
}

}  // namespace
}  // namespace gpaprof
