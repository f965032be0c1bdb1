// CounterCatalog: derived counters compiled against the hardware counters, omitted with a reason when
// they cannot be, hardware counters exposed on request, case-insensitive look-up, duplicate names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counters/counter_catalog.h"

namespace gpa {
namespace {

std::vector<HardwareCounter> Hardware() {
    return {
        {"hw.cycles", "cycles", "blockA", GPA_TYPE_UINT64, GPA_USAGE_TYPE_CYCLES},
        {"hw.busy", "busy cycles", "blockA", GPA_TYPE_UINT64, GPA_USAGE_TYPE_CYCLES},
        {"hw.bytes", "bytes", "blockB", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_BYTES},
    };
}

std::vector<DerivedCounterDefinition> Derived() {
    return {
        {"Busy", "Timing", "Percentage busy.", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE, "100 * hw.busy / hw.cycles"},
        {"FetchSize", "GlobalMemory", "Kilobytes.", GPA_TYPE_FLOAT32, GPA_USAGE_TYPE_KILOBYTES, "hw.bytes / 1024"},
        {"Absent", "General", "Needs what is missing.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.cycles + hw.absent"},
        {"Broken", "General", "A definition with a syntax error.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.cycles +"},
        {"Cycles", "Timing", "Cycles.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_CYCLES, "hw.cycles"},
    };
}

CounterCatalog Build(bool derived, bool hardware) {
    CounterCatalog::Options options;
    options.exposeDerived = derived;
    options.exposeHardware = hardware;
    return CounterCatalog::Build(Hardware(), Derived(), options);
}

std::vector<std::string> Names(const CounterCatalog& catalog) {
    std::vector<std::string> names;
    for (const ExposedCounter& c : catalog.counters()) names.push_back(c.name);
    return names;
}

TEST(CounterCatalog, DerivedCountersByDefaultInDefinitionOrder) {
    const CounterCatalog catalog = CounterCatalog::Build(Hardware(), Derived(), {});
    EXPECT_EQ(Names(catalog), (std::vector<std::string>{"Busy", "FetchSize", "Cycles"}));
    ASSERT_EQ(catalog.size(), 3u);
    const ExposedCounter& busy = catalog.at(0);
    EXPECT_EQ(busy.group, "Timing");
    EXPECT_EQ(busy.description, "Percentage busy.");
    EXPECT_EQ(busy.type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(busy.usage, GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(busy.hardware, (std::vector<uint32_t>{1, 0}));  // inputs in order of first use
    EXPECT_EQ(busy.definition, "100 * hw.busy / hw.cycles");
    EXPECT_TRUE(busy.expression.has_value());
}

TEST(CounterCatalog, CounterWithMissingInputsIsOmittedWithTheReason) {
    const CounterCatalog catalog = Build(true, false);
    EXPECT_FALSE(catalog.Find("Absent").has_value());
    ASSERT_EQ(catalog.omitted().size(), 2u);
    EXPECT_EQ(catalog.omitted()[0].name, "Absent");
    EXPECT_EQ(catalog.omitted()[0].reason, "not measurable on this device, which lacks hw.absent");
}

TEST(CounterCatalog, CounterWithABrokenDefinitionIsOmittedWithTheSyntaxError) {
    const CounterCatalog catalog = Build(true, false);
    EXPECT_FALSE(catalog.Find("Broken").has_value());
    ASSERT_EQ(catalog.omitted().size(), 2u);
    EXPECT_EQ(catalog.omitted()[1].name, "Broken");
    EXPECT_EQ(catalog.omitted()[1].reason.rfind("its definition is invalid: ", 0), 0u) << catalog.omitted()[1].reason;
    EXPECT_NE(catalog.omitted()[1].reason.find("expression ends too early at position 11"), std::string::npos)
        << catalog.omitted()[1].reason;
}

TEST(CounterCatalog, LookUpIsCaseInsensitive) {
    const CounterCatalog catalog = Build(true, true);
    for (const char* name : {"FetchSize", "fetchsize", "FETCHSIZE", "fEtChSiZe"}) {
        ASSERT_TRUE(catalog.Find(name).has_value()) << name;
        EXPECT_EQ(*catalog.Find(name), 1u) << name;
    }
    EXPECT_EQ(catalog.Find("HW.BYTES"), catalog.Find("hw.bytes"));
    EXPECT_FALSE(catalog.Find("FetchSiz").has_value());
    EXPECT_FALSE(catalog.Find("FetchSize ").has_value());
    EXPECT_FALSE(catalog.Find("").has_value());
    EXPECT_EQ(ToLower("MiXeD.Case_1"), "mixed.case_1");
}

TEST(CounterCatalog, HardwareCountersAreExposedOnRequestAfterTheDerivedOnes) {
    const CounterCatalog catalog = Build(true, true);
    EXPECT_EQ(Names(catalog), (std::vector<std::string>{"Busy", "FetchSize", "Cycles", "hw.cycles", "hw.busy", "hw.bytes"}));
    const ExposedCounter& bytes = catalog.at(5);
    EXPECT_EQ(bytes.group, "blockB");
    EXPECT_EQ(bytes.description, "bytes");
    EXPECT_EQ(bytes.type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(bytes.usage, GPA_USAGE_TYPE_BYTES);
    EXPECT_EQ(bytes.hardware, (std::vector<uint32_t>{2}));
    EXPECT_EQ(bytes.definition, "hw.bytes");
    EXPECT_FALSE(bytes.expression.has_value());
}

TEST(CounterCatalog, HardwareCountersAlone) {
    const CounterCatalog catalog = Build(false, true);
    EXPECT_EQ(Names(catalog), (std::vector<std::string>{"hw.cycles", "hw.busy", "hw.bytes"}));
    EXPECT_TRUE(catalog.omitted().empty());  // derived counters were not asked for, so none is "omitted"
}

TEST(CounterCatalog, NothingWhenNeitherIsExposed) {
    const CounterCatalog catalog = Build(false, false);
    EXPECT_EQ(catalog.size(), 0u);
    EXPECT_FALSE(catalog.Find("Busy").has_value());
}

TEST(CounterCatalog, EvaluatesDerivedAndHardwareCounters) {
    const CounterCatalog catalog = Build(true, true);
    const std::vector<double> values = {200, 50, 4096};
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("Busy"), values), 25);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("FetchSize"), values), 4);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("Cycles"), values), 200);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("hw.busy"), values), 50);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("hw.bytes"), values), 4096);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("Busy"), std::vector<double>{0, 50, 0}), 0);  // x/0 = 0
}

TEST(CounterCatalog, DuplicateDerivedNamesKeepTheFirstAndSayWhy) {
    std::vector<DerivedCounterDefinition> derived = Derived();
    derived.push_back({"BUSY", "Other", "Same name, other case.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.busy"});
    derived.push_back({"Busy", "Other", "Same name.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.busy"});
    const CounterCatalog catalog = CounterCatalog::Build(Hardware(), derived, {});
    EXPECT_EQ(catalog.size(), 3u);
    EXPECT_EQ(catalog.at(*catalog.Find("busy")).group, "Timing");
    ASSERT_EQ(catalog.omitted().size(), 4u);
    EXPECT_EQ(catalog.omitted()[2].name, "BUSY");
    EXPECT_EQ(catalog.omitted()[2].reason, "duplicate counter name (names are case-insensitive)");
    EXPECT_EQ(catalog.omitted()[3].name, "Busy");
}

TEST(CounterCatalog, HardwareCounterNamedLikeADerivedCounterIsNotExposedTwice) {
    std::vector<DerivedCounterDefinition> derived = {
        {"HW.Busy", "Timing", "A derived counter with a hardware counter's name.", GPA_TYPE_FLOAT64,
         GPA_USAGE_TYPE_PERCENTAGE, "hw.busy * 2"},
    };
    const CounterCatalog catalog = CounterCatalog::Build(Hardware(), derived, {true, true});
    EXPECT_EQ(Names(catalog), (std::vector<std::string>{"HW.Busy", "hw.cycles", "hw.bytes"}));
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*catalog.Find("hw.busy"), std::vector<double>{1, 21, 0}), 42);
}

TEST(CounterCatalog, DerivedCounterWithoutHardwareInputs) {
    std::vector<DerivedCounterDefinition> derived = {
        {"Constant", "General", "Always 7.", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS, "3 + 4"},
    };
    const CounterCatalog catalog = CounterCatalog::Build(Hardware(), derived, {});
    ASSERT_EQ(catalog.size(), 1u);
    EXPECT_TRUE(catalog.at(0).hardware.empty());
    EXPECT_DOUBLE_EQ(catalog.Evaluate(0, std::vector<double>{}), 7);
}

TEST(CounterCatalog, AddHardwareExposesOneMoreInACopyThatSharesTheOthers) {
    const CounterCatalog original = Build(true, true);
    EXPECT_TRUE(original.options().exposeHardware);
    CounterCatalog grown = original;
    const std::optional<uint32_t> added =
        grown.AddHardware({"hw.extra", "an extra counter", "blockC", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_RATIO}, 3);
    ASSERT_TRUE(added);
    EXPECT_EQ(*added, original.size());
    EXPECT_EQ(grown.size(), original.size() + 1);
    EXPECT_FALSE(original.Find("hw.extra"));
    EXPECT_EQ(grown.Find("HW.EXTRA"), added);
    const ExposedCounter& extra = grown.at(*added);
    EXPECT_EQ(extra.group, "blockC");
    EXPECT_EQ(extra.usage, GPA_USAGE_TYPE_RATIO);
    EXPECT_EQ(extra.hardware, std::vector<uint32_t>{3});
    EXPECT_EQ(extra.definition, "hw.extra");
    const double values[] = {1, 2, 3, 42};
    EXPECT_EQ(grown.Evaluate(*added, values), 42.0);
    // The copy shares the counters: names handed out from one stay valid while the other lives.
    EXPECT_EQ(grown.at(0).name.c_str(), original.at(0).name.c_str());
    EXPECT_FALSE(grown.AddHardware({"HW.Extra", "again", "blockC", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_RATIO}, 4));
    EXPECT_FALSE(grown.AddHardware({"busy", "a derived counter's name", "blockC", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_RATIO}, 4));
    EXPECT_EQ(grown.size(), original.size() + 1);
}

TEST(CounterCatalog, AtOutOfRangeThrows) {
    const CounterCatalog catalog = Build(true, false);
    EXPECT_THROW(catalog.at(catalog.size()), std::out_of_range);
}

}  // namespace
}  // namespace gpa
