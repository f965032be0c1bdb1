// The fixture of the GPU tests of libGPUPerfAPICUDA.so (known_answers_test.cu, gpa_sessions_test.cu,
// metric_names_test.cu): opens a GPA context on the primary CUDA context, closes it and frees the test's buffers
// after the test.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gpu_test_support.h"

namespace gpu_test {

class CudaGpa : public ::testing::Test {
protected:
    void Open(GPA_OpenContextFlags flags = GPA_OPENCONTEXT_DEFAULT_BIT) {
        context_ = PrimaryContext();
        ASSERT_NE(context_, nullptr);
        GPA_CHECK(GPA_OpenContext(context_, flags));
        opened_ = true;
    }
    void TearDown() override {
        if (opened_) {
            GPA_SelectContext(context_);
            // A test that failed half-way through a session leaves it open: end it so that the next test
            // starts clean (the calls fail harmlessly when nothing is open).
            GPA_EndSample();
            GPA_EndPass();
            GPA_EndSession();
            EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
        }
        for (void* buffer : buffers_) cudaFree(buffer);
    }
    template <typename T>
    T* Allocate(size_t count, int fill = 0x3c) {
        void* buffer = nullptr;
        EXPECT_EQ(cudaMalloc(&buffer, count * sizeof(T)), cudaSuccess);
        EXPECT_EQ(cudaMemset(buffer, fill, count * sizeof(T)), cudaSuccess);
        buffers_.push_back(buffer);
        return static_cast<T*>(buffer);
    }
    static double SpinCycles(double milliseconds) {
        int kiloHertz = 0;
        cudaDeviceGetAttribute(&kiloHertz, cudaDevAttrClockRate, 0);
        return milliseconds * kiloHertz;
    }

    CUcontext context_ = nullptr;
    bool opened_ = false;
    std::vector<void*> buffers_;
};

}  // namespace gpu_test
