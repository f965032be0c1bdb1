// The fixture of libGPUPerfAPIGL.so's tests: GPA initialized, a GL context current on the test's thread
// (gl_test_env.h), GPA_OpenContext on it, and a helper that records GPA sessions the way an application does:
// per pass, the same draws inside the same samples.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "GPUPerfAPI.h"
#include "gl_test_env.h"

namespace ogpa::gltest {

#define EXPECT_GPA_OK(call) EXPECT_EQ((call), GPA_STATUS_OK) << #call << ": " << OGPA_GetLastErrorMessage()
#define ASSERT_GPA_OK(call) ASSERT_EQ((call), GPA_STATUS_OK) << #call << ": " << OGPA_GetLastErrorMessage()

class GlBackendTest : public ::testing::Test {
protected:
    void SetUp() override { Open(true); }

    void Open(bool openContext) {
        std::string skip, failure;
        env_ = GlEnv::Create(&skip, &failure);
        if (!failure.empty()) FAIL() << failure;
        if (env_ == nullptr) GTEST_SKIP() << skip;
        ASSERT_GPA_OK(GPA_Initialize());
        initialized_ = true;
        if (openContext) {
            ASSERT_GPA_OK(GPA_OpenContext(env_->context(), GPA_OPENCONTEXT_DEFAULT_BIT));
        }
    }

    void TearDown() override {
        if (env_) env_->MakeCurrent();  // sessions delete their queries in the context
        if (initialized_) {
            EXPECT_GPA_OK(GPA_Destroy());
        }
        initialized_ = false;
        env_.reset();
    }

    GlEnv& env() { return *env_; }

    // Whether the context offers the counter (a driver may lack its query).
    static bool Offers(const char* name) {
        gpa_uint32 index = 0;
        return GPA_GetCounterIndex(name, &index) == GPA_STATUS_OK;
    }
    static gpa_uint32 Index(const char* name) {
        gpa_uint32 index = UINT32_MAX;
        EXPECT_GPA_OK(GPA_GetCounterIndex(name, &index)) << name;
        return index;
    }

    // One GPA session: in each pass, `draw(sampleId)` inside GPA_BeginSample/GPA_EndSample for each sample id.
    gpa_uint32 RecordSession(const std::vector<gpa_uint32>& samples, const std::function<void(gpa_uint32)>& draw) {
        gpa_uint32 session = 0, passes = 0;
        EXPECT_GPA_OK(GPA_BeginSession(&session));
        EXPECT_GPA_OK(GPA_GetPassCount(&passes));
        for (gpa_uint32 pass = 0; pass < passes; ++pass) {
            EXPECT_GPA_OK(GPA_BeginPass());
            for (gpa_uint32 sample : samples) {
                EXPECT_GPA_OK(GPA_BeginSample(sample));
                draw(sample);
                EXPECT_GPA_OK(GPA_EndSample());
            }
            EXPECT_GPA_OK(GPA_EndPass());
        }
        EXPECT_GPA_OK(GPA_EndSession());
        return session;
    }

    uint64_t UInt64(gpa_uint32 session, gpa_uint32 sample, const char* counter) {
        uint64_t value = 0;
        EXPECT_GPA_OK(GPA_GetSampleUInt64(session, sample, Index(counter), &value)) << counter;
        return value;
    }
    double Float64(gpa_uint32 session, gpa_uint32 sample, const char* counter) {
        double value = -1;
        EXPECT_GPA_OK(GPA_GetSampleFloat64(session, sample, Index(counter), &value)) << counter;
        return value;
    }

    std::unique_ptr<GlEnv> env_;
    bool initialized_ = false;
};

}  // namespace ogpa::gltest
