// gpaprof -p's counter set-up of a chip, made offline for GH100 through CUPTI's host API as the set-up thread
// makes it ahead of the first launch: its columns and plan, a set-up on several planning threads against one,
// cancellation, binding to a device's counter availability, and the thread that makes it ahead.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/cuda/cupti_loader.h"
#include "tools/gpaprof/cuda/counter_setup.h"
#include "tools/gpaprof/cuda/counter_setup_ahead.h"

namespace gpaprof::cuda {
namespace {

#define REQUIRE_CUPTI(api)                                                                 \
    const gpa::cuda::CuptiApi* api = nullptr;                                              \
    if (gpa::Outcome loaded = gpa::cuda::LoadCupti(&api); !loaded.ok()) {                  \
        GTEST_SKIP() << "CUPTI is not usable here: " << loaded.reason();                   \
    }

// The GPA compute counters gpaprof offers on GH100 (bench/gpaprof_vs_ncu.sh's "GPA compute set").
const std::vector<std::string> kComputeSet = {
    "GPUTime",       "GPUBusy",      "Wavefronts",     "VALUInsts",      "SALUInsts",  "VFetchInsts",
    "SFetchInsts",   "VWriteInsts",  "FlatVMemInsts",  "VALUUtilization", "VALUBusy",  "SALUBusy",
    "FetchSize",     "WriteSize",    "CacheHit",       "L1CacheHit",     "L2CacheHit", "MemUnitBusy",
    "MemUnitStalled", "LDSInsts",    "FlatLDSInsts",   "LDSBankConflict", "CSThreadGroups", "CSThreads"};

std::unique_ptr<CounterSetup> Make(const gpa::cuda::CuptiApi& api, std::vector<std::string> counters, uint32_t threads) {
    CounterRequest request;
    request.counters = std::move(counters);
    request.planThreads = threads;
    return MakeCounterSetup(api, "GH100", {}, request);
}

TEST(CounterSetup, TheDefaultSetIsOnePassWithAchievedOccupancy) {
    REQUIRE_CUPTI(api);
    const std::unique_ptr<CounterSetup> setup = Make(*api, {}, 1);
    ASSERT_TRUE(setup->usable) << (setup->notes.empty() ? "" : setup->notes.back());
    EXPECT_EQ(setup->plan.passCount, 1u);
    ASSERT_FALSE(setup->columns.empty());
    EXPECT_EQ(setup->columns.front(), "GPUTime");
    EXPECT_EQ(setup->columns.back(), kAchievedOccupancyCounter);
    EXPECT_TRUE(setup->columnsChosen);
    for (const std::optional<uint32_t>& index : setup->columnIndex) EXPECT_TRUE(index.has_value());
    ASSERT_NE(setup->host, nullptr);
    // Only the metrics the counters read are described: not the chip's 3600.
    EXPECT_LT(setup->hardware.size(), 100u);
}

TEST(CounterSetup, TheComputeSetPlansAsThePlannerDoesAndNamesWhatItLeavesOut) {
    REQUIRE_CUPTI(api);
    std::vector<std::string> asked = kComputeSet;
    asked.push_back("NoSuchCounter");
    asked.push_back("smsp__inst_executed.sum");
    const std::unique_ptr<CounterSetup> setup = Make(*api, asked, 1);
    ASSERT_TRUE(setup->usable);
    bool noted = false;
    for (const std::string& note : setup->notes) noted = noted || note.find("NoSuchCounter") != std::string::npos;
    EXPECT_TRUE(noted);
    EXPECT_EQ(setup->columns.size(), kComputeSet.size() + 2);  // + the NVIDIA metric, + AchievedOccupancy
    EXPECT_EQ(setup->columns[kComputeSet.size()], "smsp__inst_executed.sum");
    // The passes are CUPTI's for the configuration the collector will set (and ten or more for this set).
    uint32_t passes = 0;
    ASSERT_TRUE(gpa::cuda::ConfigPassCount(*api, setup->plan.groups[0].configImage, &passes).ok());
    EXPECT_EQ(setup->plan.passCount, passes);
    EXPECT_GE(setup->plan.passCount, 10u);
}

// --singlepass (the seed's ForceSinglePass): nothing replayed; the columns that fit one pass are collected, the rest
// stay as columns and read NA (their metrics are not in the plan: CounterCollector::WriteRow), named in a note.
TEST(CounterSetup, SinglePassCollectsTheColumnsThatFitOnePassAndNamesTheRest) {
    REQUIRE_CUPTI(api);
    CounterRequest request;
    request.counters = kComputeSet;
    request.singlePass = true;
    const std::unique_ptr<CounterSetup> setup = MakeCounterSetup(*api, "GH100", {}, request);
    ASSERT_TRUE(setup->usable) << (setup->notes.empty() ? "" : setup->notes.back());
    EXPECT_EQ(setup->plan.passCount, 1u);
    ASSERT_EQ(setup->plan.groups.size(), 1u);
    EXPECT_EQ(setup->columns.size(), kComputeSet.size() + 1) << "every column asked for stays (+ AchievedOccupancy)";
    std::string note;
    for (const std::string& n : setup->notes) {
        if (n.find("--singlepass") != std::string::npos) note = n;
    }
    ASSERT_FALSE(note.empty()) << "the compute set needs ten passes or more: some counters are named NA";
    std::set<std::string> named;  // the note's list, after "are NA: "
    const size_t list = note.find("are NA: ");
    ASSERT_NE(list, std::string::npos) << note;
    for (size_t at = list + 8; at < note.size();) {
        const size_t comma = note.find(", ", at);
        named.insert(note.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        at = comma == std::string::npos ? note.size() : comma + 2;
    }
    // A column is collected when all its metrics are planned: exactly the columns the note does not name.
    const std::vector<std::string>& planned = setup->plan.groups[0].metrics;
    size_t collected = 0;
    for (size_t c = 0; c < setup->columns.size(); ++c) {
        ASSERT_TRUE(setup->columnIndex[c]) << setup->columns[c];
        bool all = true;
        for (uint32_t hardware : setup->catalog.at(*setup->columnIndex[c]).hardware) {
            all = all && std::find(planned.begin(), planned.end(), setup->hardware[hardware].name) != planned.end();
        }
        if (all) ++collected;
        EXPECT_NE(all, named.count(setup->columns[c]) == 1) << setup->columns[c] << "; " << note;
    }
    EXPECT_GT(collected, 1u);
    EXPECT_LT(collected, setup->columns.size());
    EXPECT_EQ(setup->columns.front(), "GPUTime");
}

TEST(CounterSetup, SeveralPlanningThreadsMakeTheSameSetUp) {
    REQUIRE_CUPTI(api);
    const std::unique_ptr<CounterSetup> one = Make(*api, kComputeSet, 1);
    const std::unique_ptr<CounterSetup> several = Make(*api, kComputeSet, 6);
    ASSERT_TRUE(one->usable);
    ASSERT_TRUE(several->usable);
    EXPECT_EQ(several->columns, one->columns);
    ASSERT_EQ(several->plan.groups.size(), one->plan.groups.size());
    EXPECT_EQ(several->plan.groups[0].metrics, one->plan.groups[0].metrics);
    EXPECT_EQ(several->plan.groups[0].configImage, one->plan.groups[0].configImage);
}

TEST(CounterSetup, ColumnsAnEarlierChipChoseAreKept) {
    REQUIRE_CUPTI(api);
    CounterRequest request;
    request.counters = {"GPUTime", "Wavefronts", "FetchSize"};
    request.columns = std::vector<std::string>{"Wavefronts", "GPUTime", "dram__bytes_read.sum"};
    const std::unique_ptr<CounterSetup> setup = MakeCounterSetup(*api, "GH100", {}, request);
    ASSERT_TRUE(setup->usable);
    EXPECT_EQ(setup->columns, *request.columns);
    ASSERT_EQ(setup->columnIndex.size(), 3u);
    EXPECT_TRUE(setup->columnIndex[2].has_value());  // the metric named by the other chip's column
}

TEST(CounterSetup, ACancelledSetUpIsNotUsableAndSaysWhy) {
    REQUIRE_CUPTI(api);
    std::atomic<bool> cancel{true};
    CounterRequest request;
    request.counters = kComputeSet;
    const std::unique_ptr<CounterSetup> setup = MakeCounterSetup(*api, "GH100", {}, request, &cancel);
    EXPECT_FALSE(setup->usable);
    ASSERT_FALSE(setup->notes.empty());
    EXPECT_NE(setup->notes.back().find("cancelled"), std::string::npos) << setup->notes.back();
}

// A device's availability image comes from the device only (the GPU test binds to a real one; CUPTI crashes on
// a made-up image): here, the same availability binds as it is, and a set-up that is not usable is refused.
TEST(CounterSetup, BindingToTheSameAvailabilityKeepsTheSetUpAndAnUnusableOneIsRefused) {
    REQUIRE_CUPTI(api);
    std::unique_ptr<CounterSetup> setup = Make(*api, {}, 1);
    ASSERT_TRUE(setup->usable);
    const std::vector<uint8_t> image = setup->plan.groups[0].configImage;
    std::string why;
    EXPECT_TRUE(BindToAvailability(*api, {}, setup.get(), &why)) << why;
    EXPECT_EQ(setup->plan.groups[0].configImage, image);
    CounterSetup unusable;
    EXPECT_FALSE(BindToAvailability(*api, {}, &unusable, &why));
    EXPECT_NE(why.find("not usable"), std::string::npos) << why;
}

TEST(CounterSetupAhead, TheThreadsSetUpIsTakenOnceForItsChip) {
    CounterSetupAhead ahead;
    uint64_t waited = 1;
    EXPECT_EQ(ahead.Take("GH100", &waited), nullptr);  // never started
    EXPECT_EQ(waited, 0u);
    ahead.Start("GH100", [](const std::atomic<bool>&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        auto setup = std::make_unique<CounterSetup>();
        setup->chip = "GH100";
        setup->usable = true;
        return setup;
    });
    EXPECT_TRUE(ahead.started());
    EXPECT_EQ(ahead.Take("GA100", &waited), nullptr);  // another chip: not waited for
    std::unique_ptr<CounterSetup> setup = ahead.Take("GH100", &waited);
    ASSERT_NE(setup, nullptr);
    EXPECT_EQ(setup->chip, "GH100");
    EXPECT_EQ(ahead.Take("GH100", &waited), nullptr);  // taken
    ahead.Stop();
    ahead.Stop();  // twice is fine
}

TEST(CounterSetupAhead, StopCancelsWhatIsBeingMadeAndNothingStartsAfterIt) {
    CounterSetupAhead ahead;
    std::atomic<bool> sawCancel{false};
    ahead.Start("GH100", [&](const std::atomic<bool>& cancel) {
        while (!cancel) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        sawCancel = true;
        return std::unique_ptr<CounterSetup>();
    });
    ahead.Stop();
    EXPECT_TRUE(sawCancel);
    uint64_t waited = 0;
    EXPECT_EQ(ahead.Take("GH100", &waited), nullptr);
    CounterSetupAhead stopped;
    stopped.Stop();
    stopped.Start("GH100", [](const std::atomic<bool>&) { return std::make_unique<CounterSetup>(); });
    EXPECT_FALSE(stopped.started());
}

// A child forked while the thread runs has no such thread: Take there gives nothing instead of waiting forever,
// Stop returns, and the parent still gets its set-up.
TEST(CounterSetupAhead, AForkedChildNeitherWaitsForNorJoinsTheParentsThread) {
    CounterSetupAhead ahead;
    std::atomic<bool> release{false};
    ahead.Start("GH100", [&](const std::atomic<bool>&) {
        while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        auto setup = std::make_unique<CounterSetup>();
        setup->usable = true;
        return setup;
    });
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        uint64_t waited = 0;
        const bool none = ahead.Take("GH100", &waited) == nullptr;
        ahead.Stop();  // must return
        ::_exit(none ? 0 : 1);
    }
    int status = -1;
    for (int i = 0; i < 500 && ::waitpid(child, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (status == -1) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        ADD_FAILURE() << "the child hung in Take or Stop";
    } else {
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
    release = true;
    uint64_t waited = 0;
    EXPECT_NE(ahead.Take("GH100", &waited), nullptr);
    ahead.Stop();
}

// The thread, its set-up made, waits for the availability of the application's context (to bind to it off the
// launch's path) until the set-up is asked for; asked for first, it gives the set-up as it is, without waiting.
TEST(CounterSetupAhead, TheMakerWaitsForTheAvailabilityUntilTheSetUpIsAskedFor) {
    for (bool offered : {true, false}) {
        CounterSetupAhead ahead;
        std::optional<std::vector<uint8_t>> seen;
        ahead.Start("GH100", [&](const std::atomic<bool>&) {
            seen = ahead.AwaitAvailability();
            auto setup = std::make_unique<CounterSetup>();
            setup->usable = true;
            return setup;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (offered) ahead.OfferAvailability({7, 8});
        uint64_t waited = 0;
        EXPECT_NE(ahead.Take("GH100", &waited), nullptr);
        ahead.Stop();
        EXPECT_EQ(seen.has_value(), offered);
        if (offered) {
            EXPECT_EQ(*seen, (std::vector<uint8_t>{7, 8}));
        }
    }
    // Nothing offered and nothing asked: Stop ends the wait.
    CounterSetupAhead ahead;
    ahead.Start("GH100", [&](const std::atomic<bool>&) {
        ahead.AwaitAvailability();
        return std::make_unique<CounterSetup>();
    });
    ahead.Stop();
}

TEST(CounterSetupAhead, TheFirstAvailabilityOfferedIsKeptAndAnEmptyOneIsNone) {
    CounterSetupAhead ahead;
    EXPECT_FALSE(ahead.OfferedAvailability().has_value());
    ahead.OfferAvailability({});  // CUPTI could not say
    EXPECT_FALSE(ahead.OfferedAvailability().has_value());
    ahead.OfferAvailability({1, 2, 3});
    ahead.OfferAvailability({4});
    ASSERT_TRUE(ahead.OfferedAvailability().has_value());
    EXPECT_EQ(*ahead.OfferedAvailability(), (std::vector<uint8_t>{1, 2, 3}));
}

}  // namespace
}  // namespace gpaprof::cuda
