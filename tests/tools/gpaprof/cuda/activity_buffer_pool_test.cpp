// CUPTI's activity buffers handed over zeroed (src/tools/gpaprof/cuda/activity_buffer_pool.h): fresh or kept,
// a buffer is all zero bytes when taken, and no more than kKept are kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "tools/gpaprof/cuda/activity_buffer_pool.h"

namespace gpaprof::cuda {
namespace {

constexpr size_t kBytes = size_t{1} << 20;

bool AllZero(const uint8_t* buffer) {
    return std::all_of(buffer, buffer + kBytes, [](uint8_t b) { return b == 0; });
}

TEST(ActivityBufferPool, AGivenBufferComesBackZeroed) {
    ActivityBufferPool pool(kBytes);
    uint8_t* buffer = pool.Take();
    ASSERT_NE(buffer, nullptr);
    EXPECT_TRUE(AllZero(buffer));
    std::memset(buffer, 0xab, kBytes);  // CUPTI's records
    pool.Give(buffer);
    EXPECT_EQ(pool.kept(), 1u);
    uint8_t* again = pool.Take();
    EXPECT_EQ(again, buffer);  // kept, not mapped anew
    EXPECT_TRUE(AllZero(again));
    EXPECT_EQ(pool.kept(), 0u);
    EXPECT_EQ(pool.mapped(), 1u);
    pool.Give(again);
}

TEST(ActivityBufferPool, KeepsAtMostKKeptAndUnmapsTheRest) {
    ActivityBufferPool pool(kBytes);
    std::vector<uint8_t*> buffers;
    for (size_t i = 0; i < ActivityBufferPool::kKept + 3; ++i) buffers.push_back(pool.Take());
    EXPECT_EQ(pool.mapped(), ActivityBufferPool::kKept + 3);
    for (uint8_t* buffer : buffers) pool.Give(buffer);
    EXPECT_EQ(pool.kept(), ActivityBufferPool::kKept);
    EXPECT_EQ(pool.mapped(), ActivityBufferPool::kKept);
    pool.Give(nullptr);  // nothing to give: nothing changes
    EXPECT_EQ(pool.kept(), ActivityBufferPool::kKept);
}

TEST(ActivityBufferPool, ThreadsTakingAndGivingAlwaysGetZeroedBuffersOfTheirOwn) {
    ActivityBufferPool pool(kBytes);
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 50; ++i) {
                uint8_t* buffer = pool.Take();
                if (!buffer || !AllZero(buffer)) ++bad;
                if (buffer) {
                    std::memset(buffer, t + 1, kBytes);
                    std::this_thread::yield();
                    // No other thread wrote into it meanwhile: it was this thread's alone.
                    if (buffer[0] != t + 1 || buffer[kBytes - 1] != t + 1) ++bad;
                    pool.Give(buffer);
                }
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_LE(pool.kept(), ActivityBufferPool::kKept);
    EXPECT_EQ(pool.mapped(), pool.kept());  // nothing taken now: every mapped buffer is a kept one
}

}  // namespace
}  // namespace gpaprof::cuda
