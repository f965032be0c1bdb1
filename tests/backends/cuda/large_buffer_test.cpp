// The large-buffer fills of counter data images: right contents whatever the size, memory kept where it suffices.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "backends/cuda/large_buffer.h"

namespace gpa::cuda {
namespace {

TEST(LargeBuffer, AZeroedBufferHasTheSizeAskedForAndOnlyZeros) {
    for (size_t size : {size_t{0}, size_t{100}, size_t{3} << 20, (size_t{9} << 20) + 5}) {
        std::vector<uint8_t> buffer(17, 0xAB);
        AssignZeroed(&buffer, size);
        ASSERT_EQ(buffer.size(), size);
        EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](uint8_t b) { return b == 0; })) << size;
    }
}

TEST(LargeBuffer, ACopyEqualsItsSourceAtEverySize) {
    for (size_t size : {size_t{1}, size_t{4096}, (size_t{10} << 20) + 3}) {
        std::vector<uint8_t> from(size);
        std::iota(from.begin(), from.end(), uint8_t{7});
        std::vector<uint8_t> to(5, 1);
        AssignCopy(&to, from);
        EXPECT_EQ(to, from) << size;
    }
}

TEST(LargeBuffer, ABufferWithRoomEnoughKeepsItsMemory) {
    std::vector<uint8_t> buffer;
    AssignZeroed(&buffer, size_t{12} << 20);
    const uint8_t* memory = buffer.data();
    std::vector<uint8_t> smaller(size_t{8} << 20, 0x5A);
    AssignCopy(&buffer, smaller);
    EXPECT_EQ(buffer.data(), memory);  // a session holds the address of its image
    EXPECT_EQ(buffer, smaller);
    AssignZeroed(&buffer, size_t{12} << 20);
    EXPECT_EQ(buffer.data(), memory);
    EXPECT_EQ(std::count(buffer.begin(), buffer.end(), 0), static_cast<long>(size_t{12} << 20));
}

TEST(LargeBuffer, ACopyOfItselfChangesNothing) {
    std::vector<uint8_t> buffer(size_t{9} << 20, 3);
    AssignCopy(&buffer, buffer);
    EXPECT_EQ(buffer.size(), size_t{9} << 20);
    EXPECT_EQ(std::count(buffer.begin(), buffer.end(), 3), static_cast<long>(size_t{9} << 20));
}

}  // namespace
}  // namespace gpa::cuda
