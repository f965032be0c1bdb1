// The C++ API (include/gpa/gpa.hpp) over the core with the scripted backend: RAII, errors that carry the
// status and the reason, typed and variant results, several contexts.
#include "gpa/gpa.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "scripted_backend.h"

namespace {

using gpa::testing::ScriptedValue;

int gQueueA = 0;  // distinct addresses serve as the scripted backend's API objects
int gQueueB = 0;

class CppApiTest : public ::testing::Test {
protected:
    void SetUp() override { gpa::testing::ResetConfig(); }
    void TearDown() override { gpa::testing::ResetConfig(); }
};

// Records one session with samples 0 and 1 over every required pass.
gpa::Results RecordTwoSamples(gpa::Context& context) {
    gpa::Session session = context.BeginSession();
    session.ForEachPass([](gpa::Pass& pass) {
        pass.Measure(0, [] {});
        pass.Measure(1, [] {});
    });
    return session.End();
}

TEST_F(CppApiTest, ErrorsCarryTheStatusAndTheReason) {
    gpa::Library library;
    gpa::testing::Config().failOpen = true;
    try {
        gpa::Context context(&gQueueA);
        FAIL() << "opening should have failed";
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        const std::string message = error.what();
        EXPECT_NE(message.find("GPA_OpenContext"), std::string::npos) << message;
        EXPECT_NE(message.find("scripted device is not supported"), std::string::npos) << message;
    }
}

TEST_F(CppApiTest, ErrorIsARuntimeError) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    EXPECT_THROW(context.Enable("NoSuchCounter"), std::runtime_error);
    try {
        context.Enable(9999u);
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    }
}

TEST_F(CppApiTest, LibraryInitializesOnceAndDestroys) {
    {
        gpa::Library library;
        try {
            gpa::Library again;
            FAIL() << "a second GPA_Initialize should fail";
        } catch (const gpa::Error& error) {
            EXPECT_EQ(error.status(), GPA_STATUS_ERROR_FAILED);
        }
    }
    gpa::Library afterwards;  // destroyed cleanly, so GPA can start again
}

TEST_F(CppApiTest, CatalogIsDescribed) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    const std::vector<gpa::CounterInfo> counters = context.Counters();
    ASSERT_EQ(counters.size(), context.CounterCount());
    ASSERT_FALSE(counters.empty());
    const gpa::CounterInfo& gpuTime = counters.at(context.CounterIndex("gputime"));
    EXPECT_EQ(gpuTime.name, "GPUTime");
    EXPECT_EQ(gpuTime.group, "Timing");
    EXPECT_EQ(gpuTime.type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(gpuTime.usage, GPA_USAGE_TYPE_MILLISECONDS);
    EXPECT_FALSE(context.FindCounter("Missing").has_value()) << "omitted counters are not found";
    EXPECT_EQ(context.DeviceDescription(), std::optional<std::string>("Scripted Test Device"));
    EXPECT_EQ(context.DeviceId(), std::optional<gpa_uint32>(0x2335u));
    try {
        context.CounterIndex("Missing");
        FAIL();
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_NOT_FOUND);
    }
}

TEST_F(CppApiTest, MissingDeviceIdentityIsEmpty) {
    gpa::testing::Config().device = {std::nullopt, ""};
    gpa::Library library;
    gpa::Context context(&gQueueA);
    EXPECT_FALSE(context.DeviceId().has_value());
    EXPECT_FALSE(context.DeviceDescription().has_value());
}

TEST_F(CppApiTest, EnablingByNameAndIndex) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.Enable("GPUTime");
    const gpa_uint32 waves = context.CounterIndex("Waves");
    context.Enable(waves);
    EXPECT_EQ(context.EnabledCounters(), (std::vector<gpa_uint32>{context.CounterIndex("GPUTime"), waves}));
    EXPECT_TRUE(context.IsEnabled(waves));
    context.Disable("GPUTime");
    EXPECT_FALSE(context.IsEnabled(context.CounterIndex("GPUTime")));
    EXPECT_EQ(context.PassCount(), 1u);
    context.Enable("Busy");  // its two inputs share a block that counts one at a time
    EXPECT_EQ(context.PassCount(), 2u);
    context.DisableAll();
    EXPECT_TRUE(context.EnabledCounters().empty());
    context.EnableAll();
    EXPECT_EQ(context.EnabledCounters().size(), context.CounterCount());
}

TEST_F(CppApiTest, TypedResultsMatchTheCounterType) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.EnableAll();
    const gpa::Results results = RecordTwoSamples(context);
    EXPECT_EQ(results.id(), 1u);
    EXPECT_TRUE(results.IsReady());
    EXPECT_TRUE(results.IsSampleReady(1));
    EXPECT_EQ(results.SampleCount(), 2u);
    EXPECT_DOUBLE_EQ(results.Get<double>(1, "GPUTime"), ScriptedValue(4, 1) / 1e6);
    EXPECT_FLOAT_EQ(results.Get<float>(0, "FetchSize"), static_cast<float>(ScriptedValue(2, 0) / 1024));
    EXPECT_EQ(results.Get<gpa_uint64>(1, "Waves"), static_cast<gpa_uint64>(ScriptedValue(3, 1)));
    EXPECT_EQ(results.Get<gpa_uint32>(0, "Waves32"), static_cast<gpa_uint32>(ScriptedValue(3, 0)));
    EXPECT_DOUBLE_EQ(results.Get<double>(0, "Busy"), 100.0 * ScriptedValue(1, 0) / ScriptedValue(0, 0));
    try {
        results.Get<gpa_uint64>(0, "GPUTime");
        FAIL() << "GPUTime is a float64";
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
        EXPECT_NE(std::string(error.what()).find("gpa_float64"), std::string::npos) << error.what();
    }
}

TEST_F(CppApiTest, VariantResultsHoldTheCounterType) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.EnableAll();
    const gpa::Results results = RecordTwoSamples(context);
    const gpa::Value gpuTime = results.GetValue(0, "GPUTime");
    ASSERT_TRUE(std::holds_alternative<gpa_float64>(gpuTime));
    EXPECT_DOUBLE_EQ(std::get<gpa_float64>(gpuTime), ScriptedValue(4, 0) / 1e6);
    EXPECT_TRUE(std::holds_alternative<gpa_float32>(results.GetValue(0, "FetchSize")));
    EXPECT_TRUE(std::holds_alternative<gpa_uint64>(results.GetValue(0, "Waves")));
    const gpa::Value waves32 = results.GetValue(1, context.CounterIndex("Waves32"));
    ASSERT_TRUE(std::holds_alternative<gpa_uint32>(waves32));
    EXPECT_EQ(gpa::AsDouble(waves32), ScriptedValue(3, 1));
}

TEST_F(CppApiTest, SampleAndPassEndOnUnwinding) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.Enable("GPUTime");
    gpa::Session session = context.BeginSession();
    EXPECT_THROW(session.ForEachPass([](gpa::Pass& pass) {
        pass.Measure(0, [] { throw std::logic_error("work failed"); });
    }),
                 std::logic_error);
    // The sample and the pass were ended by their destructors, so the session can end normally.
    const gpa::Results results = session.End();
    EXPECT_EQ(results.SampleCount(), 1u);
}

TEST_F(CppApiTest, DroppedSessionIsEndedSoTheNextCanBegin) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.Enable("GPUTime");
    {
        gpa::Session unfinished = context.BeginSession();
        gpa::Pass pass = unfinished.BeginPass();
        gpa::Sample sample = pass.BeginSample(3);
    }
    gpa::Session next = context.BeginSession();
    EXPECT_EQ(next.id(), 2u);
    EXPECT_THROW(context.BeginSession(), gpa::Error) << "one session at a time";
}

TEST_F(CppApiTest, EndedSessionCannotEndAgain) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.Enable("GPUTime");
    gpa::Session session = context.BeginSession();
    session.ForEachPass([](gpa::Pass& pass) { pass.Measure(0, [] {}); });
    session.End();
    try {
        session.End();
        FAIL();
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
    }
}

TEST_F(CppApiTest, ContextsSelectThemselves) {
    gpa::Library library;
    gpa::Context a(&gQueueA);
    gpa::Context b(&gQueueB);
    a.Enable("GPUTime");
    b.Enable("Waves");
    EXPECT_EQ(a.EnabledCounters(), (std::vector<gpa_uint32>{a.CounterIndex("GPUTime")}));
    EXPECT_EQ(b.EnabledCounters(), (std::vector<gpa_uint32>{b.CounterIndex("Waves")}));
    const gpa::Results ra = RecordTwoSamples(a);
    const gpa::Results rb = RecordTwoSamples(b);
    EXPECT_EQ(ra.id(), 1u);
    EXPECT_EQ(rb.id(), 1u);
    EXPECT_EQ(rb.Get<gpa_uint64>(0, "Waves"), static_cast<gpa_uint64>(ScriptedValue(3, 0)));
    EXPECT_DOUBLE_EQ(ra.Get<double>(0, "GPUTime"), ScriptedValue(4, 0) / 1e6);
    EXPECT_THROW(ra.Get<gpa_uint64>(0, "Waves"), gpa::Error) << "Waves is not enabled in context a";
}

TEST_F(CppApiTest, ClosingAContextFreesItsHandle) {
    gpa::Library library;
    { gpa::Context first(&gQueueA); }
    gpa::Context again(&gQueueA);  // GPA_CloseContext ran, so the same object opens again
    gpa::Context moved = std::move(again);
    EXPECT_EQ(moved.handle(), &gQueueA);
    EXPECT_EQ(again.handle(), nullptr);
}

TEST_F(CppApiTest, OverwrittenResultsReportSessionNotFound) {
    gpa::Library library;
    gpa::Context context(&gQueueA);
    context.Enable("GPUTime");
    const gpa::Results first = RecordTwoSamples(context);
    for (int i = 0; i < 4; ++i) RecordTwoSamples(context);
    try {
        first.IsReady();
        FAIL();
    } catch (const gpa::Error& error) {
        EXPECT_EQ(error.status(), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
    }
}

}  // namespace
