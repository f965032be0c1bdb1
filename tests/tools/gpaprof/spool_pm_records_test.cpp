// --pm-sampling's spool records: 'G' (a sampled device) and 'H' (one sample) round-trip, doubles exactly; the CUDA
// part's direct encoder writes the record's line; bad lines are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "tools/gpaprof/spool/spool_records.h"
#include "spool_round_trip.h"

namespace gpaprof {
namespace {

uint64_t Bits(double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

TEST(SpoolPmRecords, DeviceAndSampleRoundTrip) {
    const spool::PmDeviceRecord device{1, "NVIDIA H200\tNVL", "GH100", 100000,
                                       {"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"},
                                       {"nvlrx__bytes.sum: GH100 has no nvlrx__bytes that PM sampling can read"}};
    const spool::PmDeviceRecord bare{0, "", "", 0, {}, {}};
    const spool::PmSampleRecord sample{1, 1000, 101000, true, false, {1048576.0, std::nullopt}};
    const spool::PmSampleRecord replay{UINT32_MAX, UINT64_MAX - 1, UINT64_MAX, false, true, {0.0, -0.5, 12.5}};
    const spool::PmSampleRecord empty{0, 5, 5, false, false, {}};
    for (const spool::Record& record : std::vector<spool::Record>{device, bare, sample, replay, empty}) {
        EXPECT_EQ(RoundTrip(record), record) << spool::Encode(record);
    }
    // The layout: letter, then the fields in the structs' order; lists are a count and their items; NA is "-".
    EXPECT_EQ(spool::Encode(device),
              "G\t1\tNVIDIA H200\\tNVL\tGH100\t100000\t2\tdram__bytes_read.sum\t"
              "sm__cycles_active.avg.pct_of_peak_sustained_elapsed\t1\t"
              "nvlrx__bytes.sum: GH100 has no nvlrx__bytes that PM sampling can read\n");
    EXPECT_EQ(spool::Encode(sample), "H\t1\t1000\t101000\t1\t0\t2\t1048576\t-\n");
}

// Values travel as the shortest text that reads back as the same double: every bit survives.
TEST(SpoolPmRecords, ValuesReadBackBitForBit) {
    std::mt19937_64 random(35);
    std::vector<std::optional<double>> values = {0.1,
                                                 1.0 / 3.0,
                                                 99.99999999999999,
                                                 std::numeric_limits<double>::max(),
                                                 std::numeric_limits<double>::lowest(),
                                                 std::numeric_limits<double>::min(),
                                                 std::numeric_limits<double>::denorm_min(),
                                                 -std::numeric_limits<double>::denorm_min(),
                                                 3.5e12,
                                                 1e100};
    while (values.size() < 2000) {
        double value = 0;
        const uint64_t bits = random();
        std::memcpy(&value, &bits, sizeof value);
        if (std::isfinite(value)) values.push_back(value);
    }
    const spool::PmSampleRecord record{0, 1, 2, false, false, values};
    const spool::Record decoded = RoundTrip(record);
    const auto& back = std::get<spool::PmSampleRecord>(decoded).values;
    ASSERT_EQ(back.size(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        ASSERT_TRUE(back[i].has_value()) << i;
        EXPECT_EQ(Bits(*back[i]), Bits(*values[i])) << i << ": " << *values[i];
    }
}

// The CUDA part's encoder, from the sampler's doubles: the record's line, a value that is not finite being NA.
TEST(SpoolPmRecords, SampleLinesEncodedDirectlyAreSampleRecords) {
    const std::vector<double> values = {12.5, NAN, std::numeric_limits<double>::infinity(), -0.0, 3.5e12,
                                        -std::numeric_limits<double>::infinity(), 1.0 / 3.0};
    const spool::PmSampleRecord record{3, 1000, 2000, false, true,
                                       {12.5, std::nullopt, std::nullopt, -0.0, 3.5e12, std::nullopt, 1.0 / 3.0}};
    std::string direct = "earlier\n";
    spool::EncodePmSampleLine(3, 1000, 2000, false, true, values, &direct);
    EXPECT_EQ(direct, "earlier\n" + spool::Encode(record));
    EXPECT_EQ(RoundTrip(record), spool::Record(record));
    // A NaN inside an optional is NA too: the file never holds a NaN.
    const spool::PmSampleRecord withNan{3, 1000, 2000, false, true, {NAN}};
    EXPECT_EQ(std::get<spool::PmSampleRecord>(RoundTrip(withNan)).values,
              (std::vector<std::optional<double>>{std::nullopt}));
    // Many samples into one buffer, none left short.
    std::string many;
    for (uint64_t i = 0; i < 1000; ++i) spool::EncodePmSampleLine(0, i * 100, i * 100 + 100, false, false, values, &many);
    EXPECT_EQ(std::count(many.begin(), many.end(), '\n'), 1000);
}

TEST(SpoolPmRecords, BadLinesAreRefused) {
    std::string error;
    for (const char* bad : {
             "H\t0\t1\t2\t0\t0\t2\t1",          // fewer values than counted
             "H\t0\t1\t2\t0\t0\t1\t1\t2",       // more
             "H\t0\t1\t2\t0\t0\t1\tnan",        // not a number
             "H\t0\t1\t2\t0\t0\t1\tinf",
             "H\t0\t1\t2\t2\t0\t0",             // a flag that is not 0 or 1
             "H\t4294967296\t1\t2\t0\t0\t0",    // no such device index
             "H\t0\t1\t2\t0\t0",                // no value count
             "G\t0\tname\tGH100\t100000\t1\tm",  // no left-out list
             "G\t0\tname\tGH100\tx\t0\t0",
         }) {
        EXPECT_FALSE(spool::Decode(bad, &error).has_value()) << bad;
        EXPECT_FALSE(error.empty());
    }
    EXPECT_TRUE(spool::Decode("H\t0\t1\t2\t0\t0\t2\t-\t-1.5e-07", &error).has_value()) << error;
}

}  // namespace
}  // namespace gpaprof
