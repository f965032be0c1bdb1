// gpaprof -p --counters: which names stop gpaprof before the application starts, and the names it suggests
// (src/tools/gpaprof/cli/counter_names.h).
#include "tools/gpaprof/cli/counter_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace gpaprof::cli {
namespace {

bool Has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(CounterNames, KnownNamesHoldEveryPartsCounters) {
    const std::vector<std::string> known = KnownCounterNames();
    EXPECT_TRUE(Has(known, "GPUTime")) << "the OpenCL part's GPA counter";
#if GPAPROF_KNOWS_LAYER_COUNTERS
    EXPECT_TRUE(Has(known, "KernelDuration")) << "the OpenCL layer's cl_codeplay_performance_counters counter";
#endif
#if GPAPROF_KNOWS_CUDA_COUNTERS
    EXPECT_TRUE(Has(known, "L2CacheHit")) << "the CUDA part's GPA counter";
    EXPECT_TRUE(Has(known, "Wavefronts")) << "the CUDA part's GPA counter";
#else
    EXPECT_FALSE(Has(known, "Wavefronts")) << "only the CUDA part has it, and this gpaprof has no CUDA part";
#endif
    EXPECT_TRUE(std::is_sorted(known.begin(), known.end()));
}

TEST(CounterNames, NearestNamesBySlipAndByCase) {
    const std::vector<std::string> known = {"GPUTime", "GPUBusy", "Wavefronts", "FetchSize", "WriteSize"};
    EXPECT_EQ(NearestCounterNames("GPUTim", known), (std::vector<std::string>{"GPUTime"}));
    EXPECT_EQ(NearestCounterNames("wavefronts", known).front(), "Wavefronts");
    EXPECT_EQ(NearestCounterNames("WirteSize", known).front(), "WriteSize");
    EXPECT_TRUE(NearestCounterNames("CompletelyDifferent", known).empty());
    EXPECT_LE(NearestCounterNames("Size", {"FetchSize", "WriteSize", "Sizes", "Siz", "Sze"}, 2).size(), 2u);
}

TEST(CounterNames, KnownNamesInAnyCaseAndNvidiaMetricsPass) {
    const std::vector<std::string> known = {"GPUTime", "Wavefronts"};
    bool asked = false;
    auto device = [&] {
        asked = true;
        return std::vector<std::string>{};
    };
    EXPECT_EQ(UnknownCounterNames({"GPUTime", "gputime", "dram__bytes_read.sum"}, known, device), "");
    EXPECT_FALSE(asked) << "the devices are asked only when a name is otherwise unknown";
    EXPECT_TRUE(LooksLikeNvidiaMetric("sm__throughput.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_FALSE(LooksLikeNvidiaMetric("GPUTime"));
}

TEST(CounterNames, UnknownNamesAreNamedWithSuggestionsAndWhereTheListsAre) {
    const std::vector<std::string> known = {"GPUTime", "Wavefronts"};
    const std::string error = UnknownCounterNames({"GPUTim", "Wavefronts", "Nonsense"}, known, nullptr);
    EXPECT_NE(error.find("'GPUTim' (did you mean GPUTime?)"), std::string::npos) << error;
    EXPECT_NE(error.find("'Nonsense'"), std::string::npos) << error;
    EXPECT_EQ(error.find("'Wavefronts'"), std::string::npos) << error;
    EXPECT_NE(error.find("gpaprof -l"), std::string::npos) << error;
    EXPECT_NE(error.find("gpa-counters"), std::string::npos) << error;
    EXPECT_NE(error.find("not started"), std::string::npos) << error;
}

TEST(CounterNames, ADevicesExtensionCounterIsKnown) {
    auto device = [] { return std::vector<std::string>{"VendorCycles"}; };
    EXPECT_EQ(UnknownCounterNames({"vendorcycles"}, {"GPUTime"}, device), "");
    const std::string error = UnknownCounterNames({"VendorCycle"}, {"GPUTime"}, device);
    EXPECT_NE(error.find("did you mean VendorCycles?"), std::string::npos) << error;
}

}  // namespace
}  // namespace gpaprof::cli
