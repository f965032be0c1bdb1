// Counter data images recorded on a GPU (tools/device/gpu_cuda_tests.sh) and committed under fixtures/,
// evaluated here without a GPU exactly as the backend evaluates a sample. Each fixture's expected.txt holds,
// per GPA counter and sample, the value the GPU machine reported and, for kernels with a known answer, that
// answer and its tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/counter_data_fixture.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "cuda_test_support.h"

namespace gpa::cuda {
namespace {

struct Expectation {
    std::string counter;
    std::string sample;
    double measured = 0;
    bool hasKnown = false;
    double known = 0;
    double tolerance = 0;  // relative; absolute when known is 0
};

std::vector<Expectation> ReadExpectations(const std::filesystem::path& file) {
    std::vector<Expectation> expectations;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        Expectation e;
        std::string known, tolerance;
        words >> e.counter >> e.sample >> e.measured >> known >> tolerance;
        if (known != "-" && !known.empty()) {
            e.hasKnown = true;
            e.known = std::stod(known);
            e.tolerance = std::stod(tolerance);
        }
        expectations.push_back(e);
    }
    return expectations;
}

std::vector<std::filesystem::path> Fixtures() {
    std::vector<std::filesystem::path> found;
    // OPENGPA_CUDA_FIXTURES_DIR points at freshly recorded fixtures (the GPU script checks them at once).
    const char* override = std::getenv("OPENGPA_CUDA_FIXTURES_DIR");
    const std::filesystem::path root = override != nullptr && *override ? override : OPENGPA_CUDA_FIXTURES;
    if (!std::filesystem::exists(root)) return found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (entry.path().filename() == "manifest.txt") found.push_back(entry.path().parent_path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

TEST(CounterDataFixtures, EvaluateToTheValuesTheGpuReportedAndTheKnownAnswers) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::vector<std::filesystem::path> fixtures = Fixtures();
    if (fixtures.empty()) GTEST_SKIP() << "no counter data fixtures recorded yet (tests/backends/cuda/fixtures)";
    size_t checked = 0;
    for (const std::filesystem::path& directory : fixtures) {
        SCOPED_TRACE(directory.string());
        CounterDataFixture fixture;
        const Outcome read = ReadCounterDataFixture(directory.string(), &fixture);
        ASSERT_TRUE(read.ok()) << read.reason();
        ChipCounters chip;
        ASSERT_TRUE(BuildChipCounters(*api, fixture.chip, {}, &chip).ok());
        const CounterCatalog catalog = chip.Catalog(true, true);
        std::map<std::string, uint32_t> hardwareIndex;
        for (uint32_t i = 0; i < chip.hardware.size(); ++i) hardwareIndex[chip.hardware[i].name] = i;
        std::map<std::string, std::vector<double>> valuesOfSample;
        for (const Expectation& e : ReadExpectations(directory / "expected.txt")) {
            auto it = valuesOfSample.find(e.sample);
            if (it == valuesOfSample.end()) {
                std::map<std::string, double> metrics;
                const Outcome evaluated = EvaluateFixtureRange(*api, fixture, e.sample, &metrics);
                ASSERT_TRUE(evaluated.ok()) << evaluated.reason();
                std::vector<double> values(chip.hardware.size(), 0.0);
                for (const auto& [name, value] : metrics) values[hardwareIndex.at(name)] = value;
                it = valuesOfSample.emplace(e.sample, std::move(values)).first;
            }
            const auto index = catalog.Find(e.counter);
            ASSERT_TRUE(index) << e.counter;
            const double value = catalog.Evaluate(*index, it->second);
            EXPECT_NEAR(value, e.measured, 1e-6 * std::max(1.0, std::fabs(e.measured)))
                << e.counter << " sample " << e.sample << " evaluates differently offline";
            if (e.hasKnown) {
                const double allowed = e.known == 0 ? e.tolerance : e.tolerance * std::fabs(e.known);
                EXPECT_NEAR(value, e.known, allowed) << e.counter << " sample " << e.sample << " misses its known answer";
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 0u);
}

// A plan that keeps its host objects (PlannerOptions::keepHosts, gpaprof's evaluator) evaluates recorded counter
// data to exactly what a host object made afresh for the same metrics gives.
TEST(CounterDataFixtures, APlansKeptHostObjectEvaluatesAsAFreshOne) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::vector<std::filesystem::path> fixtures = Fixtures();
    if (fixtures.empty()) GTEST_SKIP() << "no counter data fixtures recorded yet (tests/backends/cuda/fixtures)";
    size_t compared = 0;
    for (const std::filesystem::path& directory : fixtures) {
        SCOPED_TRACE(directory.string());
        CounterDataFixture fixture;
        ASSERT_TRUE(ReadCounterDataFixture(directory.string(), &fixture).ok());
        const CounterDataFixture::Group& group = fixture.groups[0];
        PlannerOptions options;
        options.keepHosts = true;
        MetricPlan plan;
        ASSERT_TRUE(PlanMetrics(*api, fixture.chip, {}, group.metrics, &plan, options).ok());
        ASSERT_FALSE(plan.groups.empty());
        ASSERT_NE(plan.groups[0].host, nullptr);
        std::unique_ptr<HostObject> fresh;
        ASSERT_TRUE(HostObject::Create(*api, fixture.chip, {}, &fresh).ok());
        ASSERT_EQ(fresh->AddMetrics(plan.groups[0].metrics), CUPTI_SUCCESS);
        std::vector<std::string> ranges;
        ASSERT_TRUE(CounterDataRangeNames(*api, group.counterData, &ranges).ok());
        for (size_t r = 0; r < ranges.size(); ++r) {
            std::vector<double> kept, made;
            ASSERT_TRUE(plan.groups[0].host->Evaluate(group.counterData, r, plan.groups[0].metrics, &kept).ok());
            ASSERT_TRUE(fresh->Evaluate(group.counterData, r, plan.groups[0].metrics, &made).ok());
            EXPECT_EQ(kept, made) << "range " << ranges[r];
            ++compared;
        }
        PlannerOptions without;
        MetricPlan dropped;
        ASSERT_TRUE(PlanMetrics(*api, fixture.chip, {}, group.metrics, &dropped, without).ok());
        EXPECT_EQ(dropped.groups[0].host, nullptr);  // not kept unless asked for
    }
    EXPECT_GT(compared, 0u);
}

}  // namespace
}  // namespace gpa::cuda
