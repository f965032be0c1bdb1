// OpenGPA's SPM trace format (trace_buffer.h, docs/pm_sampling_trace_format.md): exact round trips, the size
// query, truncation to whole samples at every capacity, the documented offsets, and a strict reader that refuses
// every malformed buffer (and survives random ones).
#include "pm_sampling/trace_buffer.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace gpa::pm_sampling {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr uint64_t kQuietNaNBits = 0x7FF8000000000000ull;

uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

// Five contiguous 100 us samples of four counters (ASCII names: one 1 byte, one exactly 8 with its length, others
// padded), the second sample's second value unknown, the third following lost samples.
TraceData SomeTrace(size_t samples = 5) {
    TraceData trace;
    trace.intervalNs = 100000;
    trace.counters = {"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "abcdef", "x"};
    for (size_t i = 0; i < samples; ++i) {
        TraceSample sample;
        sample.startNs = 5000000 + i * 100000;
        sample.endNs = sample.startNs + 100000;
        sample.droppedBefore = i == 2;
        sample.values = {1e6 * static_cast<double>(i), i == 1 ? kNaN : 12.5, -0.0, 1e-310};
        trace.samples.push_back(sample);
    }
    return trace;
}

std::vector<uint8_t> WriteWhole(const TraceData& trace) {
    std::vector<uint8_t> buffer(WriteTraceBuffer(trace, nullptr, 0));
    buffer.resize(WriteTraceBuffer(trace, buffer.data(), buffer.size()));
    return buffer;
}

uint64_t Get(const std::vector<uint8_t>& buffer, size_t offset, size_t bytes) {
    uint64_t value = 0;
    for (size_t i = 0; i < bytes; ++i) value |= uint64_t{buffer.at(offset + i)} << (8 * i);
    return value;
}

void Put(std::vector<uint8_t>* buffer, size_t offset, uint64_t value, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) buffer->at(offset + i) = static_cast<uint8_t>(value >> (8 * i));
}

std::optional<TraceData> Read(const std::vector<uint8_t>& buffer, std::string* error = nullptr,
                              TraceBufferHeader* header = nullptr) {
    return ReadTraceBuffer(buffer.data(), buffer.size(), error, header);
}

void ExpectSameSamples(const std::vector<TraceSample>& got, const std::vector<TraceSample>& wanted) {
    ASSERT_EQ(got.size(), wanted.size());
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].startNs, wanted[i].startNs) << i;
        EXPECT_EQ(got[i].endNs, wanted[i].endNs) << i;
        EXPECT_EQ(got[i].droppedBefore, wanted[i].droppedBefore) << i;
        ASSERT_EQ(got[i].values.size(), wanted[i].values.size()) << i;
        for (size_t k = 0; k < got[i].values.size(); ++k) {
            // Bit for bit: -0.0 stays negative, a denormal stays itself, NaN stays NaN.
            EXPECT_EQ(Bits(got[i].values[k]), Bits(wanted[i].values[k])) << "sample " << i << " value " << k;
        }
    }
}

TEST(TraceBuffer, RoundTripIsExact) {
    TraceData trace = SomeTrace();
    trace.counters.push_back("\xc2\xb5s_\xe2\x82\xac_\xf0\x9f\x93\x88");  // two-, three- and four-byte UTF-8
    for (TraceSample& sample : trace.samples) sample.values.push_back(std::numeric_limits<double>::max());
    const std::vector<uint8_t> buffer = WriteWhole(trace);
    std::string error;
    TraceBufferHeader header;
    const std::optional<TraceData> read = Read(buffer, &error, &header);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(read->intervalNs, trace.intervalNs);
    EXPECT_EQ(read->counters, trace.counters);
    ExpectSameSamples(read->samples, trace.samples);
    EXPECT_TRUE(std::isnan(read->samples[1].values[1]));
    EXPECT_EQ(header.counterCount, 5u);
    EXPECT_EQ(header.sampleCount, 5u);
    EXPECT_EQ(header.totalSamples, 5u);
    EXPECT_EQ(header.flags, kTraceFollowsLost);  // sample 2 follows lost ones; nothing truncated
    EXPECT_EQ(header.firstSampleNs, 5000000u);
    EXPECT_EQ(header.lastSampleNs, 5500000u);
}

TEST(TraceBuffer, AnEmptyTraceIsTheHeaderAlone) {
    TraceData trace;
    trace.intervalNs = 20000;
    const std::vector<uint8_t> buffer = WriteWhole(trace);
    EXPECT_EQ(buffer.size(), 64u);
    TraceBufferHeader header;
    const std::optional<TraceData> read = Read(buffer, nullptr, &header);
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->counters.empty());
    EXPECT_TRUE(read->samples.empty());
    EXPECT_EQ(header.flags, 0u);
    EXPECT_EQ(header.firstSampleNs, 0u);
    EXPECT_EQ(header.lastSampleNs, 0u);
}

TEST(TraceBuffer, UnknownValuesAreWrittenAsQuietNaNNeverZero) {
    TraceData trace = SomeTrace(1);
    trace.samples[0].values = {-kNaN, std::numeric_limits<double>::signaling_NaN(),
                               std::bit_cast<double>(0x7FF0000000000123ull), 0.0};
    const std::vector<uint8_t> buffer = WriteWhole(trace);
    const size_t values = TraceBufferBytes(trace.counters, 0) + 24;
    for (size_t k = 0; k < 3; ++k) EXPECT_EQ(Get(buffer, values + 8 * k, 8), kQuietNaNBits) << k;
    EXPECT_EQ(Get(buffer, values + 24, 8), 0u);  // a known 0 stays 0
}

TEST(TraceBuffer, SizeQueryEqualsBytesWritten) {
    for (size_t samples : {0u, 1u, 5u, 64u}) {
        const TraceData trace = SomeTrace(samples);
        const size_t queried = WriteTraceBuffer(trace, nullptr, 0);
        EXPECT_EQ(queried, TraceBufferBytes(trace.counters, samples));
        EXPECT_EQ(WriteWhole(trace).size(), queried) << samples;
        // The capacity does not matter to the query: it is the whole trace's size.
        EXPECT_EQ(WriteTraceBuffer(trace, nullptr, 8), queried);
    }
    // 64-byte header, "ab" in 8 bytes, 3 samples of 24 + 8 bytes.
    EXPECT_EQ(TraceBufferBytes({"ab"}, 3), 64u + 8u + 3u * 32u);
    EXPECT_EQ(TraceBufferBytes({"abcdef"}, 0), 64u + 8u);
    EXPECT_EQ(TraceBufferBytes({"abcdefg"}, 0), 64u + 16u);
}

TEST(TraceBuffer, TruncatesToWholeSamplesAtEveryCapacity) {
    const TraceData trace = SomeTrace();
    const size_t whole = WriteTraceBuffer(trace, nullptr, 0);
    const size_t prefix = TraceBufferBytes(trace.counters, 0);
    const size_t sampleBytes = TraceBufferBytes(trace.counters, 1) - prefix;
    for (size_t capacity = 0; capacity <= whole; ++capacity) {
        SCOPED_TRACE(capacity);
        std::vector<uint8_t> buffer(whole + 16, 0xAB);
        const size_t written = WriteTraceBuffer(trace, buffer.data(), capacity);
        for (size_t i = written; i < buffer.size(); ++i) ASSERT_EQ(buffer[i], 0xAB) << "written past the end at " << i;
        if (capacity < prefix) {
            EXPECT_EQ(written, 0u);
            continue;
        }
        const size_t fit = std::min(trace.samples.size(), (capacity - prefix) / sampleBytes);
        ASSERT_EQ(written, prefix + fit * sampleBytes);
        buffer.resize(written);
        std::string error;
        TraceBufferHeader header;
        const std::optional<TraceData> read = Read(buffer, &error, &header);
        ASSERT_TRUE(read) << error;
        ExpectSameSamples(read->samples, {trace.samples.begin(), trace.samples.begin() + static_cast<ptrdiff_t>(fit)});
        EXPECT_EQ(header.sampleCount, fit);
        EXPECT_EQ(header.totalSamples, trace.samples.size());
        EXPECT_EQ((header.flags & kTraceTruncated) != 0, fit < trace.samples.size());
        EXPECT_EQ((header.flags & kTraceFollowsLost) != 0, fit > 2);  // only the third sample follows lost ones
        EXPECT_EQ(header.firstSampleNs, fit ? trace.samples.front().startNs : 0);
        EXPECT_EQ(header.lastSampleNs, fit ? trace.samples[fit - 1].endNs : 0);
    }
}

// The table in docs/pm_sampling_trace_format.md, byte for byte.
TEST(TraceBuffer, FieldsAreAtTheDocumentedOffsetsAllAlignedTo8) {
    const TraceData trace = SomeTrace();
    const std::vector<uint8_t> buffer = WriteWhole(trace);
    EXPECT_EQ(std::string(buffer.begin(), buffer.begin() + 8), "OGPASPM1");
    EXPECT_EQ(Get(buffer, 8, 4), 1u);
    EXPECT_EQ(Get(buffer, 12, 4), 64u);
    EXPECT_EQ(Get(buffer, 16, 8), 100000u);
    EXPECT_EQ(Get(buffer, 24, 4), 4u);
    EXPECT_EQ(Get(buffer, 28, 4), 5u);
    EXPECT_EQ(Get(buffer, 32, 4), kTraceFollowsLost);
    EXPECT_EQ(Get(buffer, 36, 4), 0u);
    EXPECT_EQ(Get(buffer, 40, 8), 5000000u);
    EXPECT_EQ(Get(buffer, 48, 8), 5500000u);
    EXPECT_EQ(Get(buffer, 56, 8), 5u);
    size_t at = 64;
    for (const std::string& name : trace.counters) {
        EXPECT_EQ(at % 8, 0u) << name;
        EXPECT_EQ(Get(buffer, at, 2), name.size());
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(buffer.data() + at + 2), name.size()), name);
        for (at += 2 + name.size(); at % 8; ++at) EXPECT_EQ(buffer[at], 0) << "padding after " << name;
    }
    for (const TraceSample& sample : trace.samples) {
        EXPECT_EQ(at % 8, 0u);
        EXPECT_EQ(Get(buffer, at, 8), sample.startNs);
        EXPECT_EQ(Get(buffer, at + 8, 8), sample.endNs);
        EXPECT_EQ(Get(buffer, at + 16, 4), sample.droppedBefore ? kSampleDroppedBefore : 0u);
        EXPECT_EQ(Get(buffer, at + 20, 4), 0u);
        at += 24;
        for (double value : sample.values) {
            EXPECT_EQ(Get(buffer, at, 8), std::isnan(value) ? kQuietNaNBits : Bits(value));
            at += 8;
        }
    }
    EXPECT_EQ(at, buffer.size());
    for (size_t length = 1; length <= 24; ++length) {
        EXPECT_EQ(TraceBufferBytes({std::string(length, 'm'), "n"}, 3) % 8, 0u) << length;
    }
}

TEST(TraceBuffer, WriterRefusesWhatTheReaderWouldRefuse) {
    const auto refused = [](const char* what, auto change) {
        TraceData trace = SomeTrace();
        change(trace);
        std::string error;
        EXPECT_FALSE(CheckTraceData(trace, &error)) << what;
        EXPECT_FALSE(error.empty()) << what;
        std::vector<uint8_t> buffer(4096, 0xAB);
        EXPECT_EQ(WriteTraceBuffer(trace, nullptr, 0), 0u) << what;
        EXPECT_EQ(WriteTraceBuffer(trace, buffer.data(), buffer.size()), 0u) << what;
        EXPECT_EQ(buffer[0], 0xAB) << what << ": written anyway";
    };
    refused("interval 0", [](TraceData& t) { t.intervalNs = 0; });
    refused("empty name", [](TraceData& t) { t.counters[1].clear(); });
    refused("name of 65,536 bytes", [](TraceData& t) { t.counters[1] = std::string(65536, 'a'); });
    refused("NUL in a name", [](TraceData& t) { t.counters[1] = std::string("a\0b", 3); });
    refused("not UTF-8", [](TraceData& t) { t.counters[1] = "a\xff"; });
    refused("a name twice", [](TraceData& t) { t.counters[3] = t.counters[0]; });
    refused("a value missing", [](TraceData& t) { t.samples[1].values.pop_back(); });
    refused("infinite value", [](TraceData& t) { t.samples[1].values[0] = std::numeric_limits<double>::infinity(); });
    refused("ends before it starts", [](TraceData& t) { t.samples[1].endNs = t.samples[1].startNs - 1; });
    refused("overlaps the one before", [](TraceData& t) { t.samples[2].startNs = t.samples[1].endNs - 1; });
    EXPECT_TRUE(CheckTraceData(SomeTrace(), nullptr));
    EXPECT_EQ(TraceBufferBytes({std::string(65536, 'a')}, 0), 0u);
    EXPECT_EQ(TraceBufferBytes({"a"}, std::numeric_limits<size_t>::max() / 8), 0u) << "overflow";
}

TEST(TraceBuffer, ReaderRefusesEachMalformedBuffer) {
    const TraceData trace = SomeTrace();
    const std::vector<uint8_t> good = WriteWhole(trace);
    ASSERT_TRUE(Read(good));
    const size_t samples = TraceBufferBytes(trace.counters, 0);
    const size_t sampleBytes = 24 + 8 * trace.counters.size();
    const auto refused = [&](const char* what, const char* reason, auto change) {
        std::vector<uint8_t> buffer = good;
        change(buffer);
        std::string error;
        EXPECT_FALSE(Read(buffer, &error)) << what;
        EXPECT_NE(error.find(reason), std::string::npos) << what << ": " << error;
    };
    refused("magic", "magic", [](auto& b) { b[3] ^= 1; });
    refused("version 2", "version", [](auto& b) { Put(&b, 8, 2, 4); });
    refused("headerBytes 72", "headerBytes", [](auto& b) { Put(&b, 12, 72, 4); });
    refused("interval 0", "interval", [](auto& b) { Put(&b, 16, 0, 8); });
    refused("counterCount past the end", "counterCount", [](auto& b) { Put(&b, 24, 1000, 4); });
    refused("counterCount one more", "", [](auto& b) { Put(&b, 24, 5, 4); });
    refused("sampleCount past the end", "sampleCount", [](auto& b) { Put(&b, 28, 6, 4); });
    refused("sampleCount one less", "do not add up", [](auto& b) { Put(&b, 28, 4, 4); });
    refused("unknown header flag", "flags", [](auto& b) { Put(&b, 32, kTraceFollowsLost | 4, 4); });
    refused("truncated without missing samples", "truncated",
            [](auto& b) { Put(&b, 32, kTraceFollowsLost | kTraceTruncated, 4); });
    refused("missing samples without truncated", "truncated", [](auto& b) { Put(&b, 56, 6, 8); });
    refused("totalSamples below sampleCount", "totalSamples", [](auto& b) { Put(&b, 56, 4, 8); });
    refused("follows-lost flag clear", "follows-lost", [](auto& b) { Put(&b, 32, 0, 4); });
    refused("header reserved", "reserved", [](auto& b) { Put(&b, 36, 1, 4); });
    refused("firstSampleNs", "firstSampleNs", [](auto& b) { Put(&b, 40, 1, 8); });
    refused("lastSampleNs", "lastSampleNs", [](auto& b) { Put(&b, 48, 1, 8); });
    refused("name length 0", "empty", [](auto& b) { Put(&b, 64, 0, 2); });
    refused("name past the end", "past the end", [](auto& b) { Put(&b, 64, 0xFFFF, 2); });
    refused("NUL in a name", "UTF-8", [](auto& b) { b[66] = 0; });
    refused("lone continuation byte", "UTF-8", [](auto& b) { b[66] = 0x80; });
    refused("overlong NUL", "UTF-8", [](auto& b) { b[66] = 0xC0, b[67] = 0x80; });
    refused("surrogate", "UTF-8", [](auto& b) { b[66] = 0xED, b[67] = 0xA0, b[68] = 0x80; });
    refused("past U+10FFFF", "UTF-8", [](auto& b) { b[66] = 0xF4, b[67] = 0x90, b[68] = 0x80, b[69] = 0x80; });
    refused("padding not zero", "padding", [](auto& b) { b[64 + 2 + 20] = 1; });
    refused("ends before it starts", "ends before", [&](auto& b) { Put(&b, samples + sampleBytes + 8, 5000000, 8); });
    refused("starts before the one before ends", "starts before",
            [&](auto& b) { Put(&b, samples + sampleBytes, 5000000, 8); });
    refused("unknown sample flag", "unknown flags", [&](auto& b) { Put(&b, samples + 16, 2, 4); });
    refused("sample reserved", "reserved", [&](auto& b) { Put(&b, samples + 20, 1, 4); });
    refused("infinite value", "infinite",
            [&](auto& b) { Put(&b, samples + 24, Bits(std::numeric_limits<double>::infinity()), 8); });
    refused("a byte after the end", "do not add up", [](auto& b) { b.push_back(0); });
    {
        TraceData twoNames = SomeTrace(0);
        twoNames.counters = {"a", "b"};
        std::vector<uint8_t> buffer = WriteWhole(twoNames);
        buffer[64 + 8 + 2] = 'a';
        std::string error;
        EXPECT_FALSE(Read(buffer, &error));
        EXPECT_NE(error.find("twice"), std::string::npos) << error;
    }
    for (size_t size = 0; size < good.size(); ++size) {
        std::string error;
        EXPECT_FALSE(ReadTraceBuffer(good.data(), size, &error)) << "cut to " << size << " bytes";
    }
    EXPECT_FALSE(ReadTraceBuffer(nullptr, 64, nullptr));
    EXPECT_FALSE(ReadTraceBuffer(nullptr, 0, nullptr));
}

// Every field in the header and counter list is checked: any byte flipped there, bar the interval's (any value
// above 0 is one), is refused. In the samples, so is a flipped top byte of a start or an end.
TEST(TraceBuffer, ReaderRefusesAnyFlippedHeaderOrCounterListByte) {
    const TraceData trace = SomeTrace();
    const std::vector<uint8_t> good = WriteWhole(trace);
    const size_t samples = TraceBufferBytes(trace.counters, 0);
    const size_t sampleBytes = 24 + 8 * trace.counters.size();
    std::vector<size_t> flipped;
    for (size_t i = 0; i < samples; ++i) {
        if (i < 16 || i >= 24) flipped.push_back(i);
    }
    for (size_t s = 0; s < trace.samples.size(); ++s) {
        flipped.push_back(samples + s * sampleBytes + 7);
        flipped.push_back(samples + s * sampleBytes + 15);
    }
    for (size_t i : flipped) {
        std::vector<uint8_t> buffer = good;
        buffer[i] ^= 0xFF;
        EXPECT_FALSE(Read(buffer)) << "byte " << i << " flipped";
    }
}

// Random buffers, mutated good ones and cut ones: the reader refuses or reads, never crashes (the sanitizer job
// runs this too), and whatever it reads the writer would write.
TEST(TraceBuffer, ReaderSurvivesRandomBuffers) {
    std::mt19937_64 random(35);
    const std::vector<uint8_t> good = WriteWhole(SomeTrace());
    size_t read = 0;
    for (int round = 0; round < 30000; ++round) {
        std::vector<uint8_t> buffer;
        switch (round % 3) {
            case 0:  // random bytes behind a plausible start, so the reader gets past the magic
                buffer.resize(random() % 512);
                for (uint8_t& byte : buffer) byte = static_cast<uint8_t>(random());
                if (buffer.size() >= 16) std::copy(good.begin(), good.begin() + 16, buffer.begin());
                break;
            case 1:  // a good buffer with a few bytes changed
                buffer = good;
                for (uint64_t k = 1 + random() % 4; k > 0; --k) {
                    buffer[random() % buffer.size()] = static_cast<uint8_t>(random());
                }
                break;
            default:  // a good buffer cut short or run on
                buffer = good;
                buffer.resize(random() % (good.size() + 64), static_cast<uint8_t>(random()));
                break;
        }
        std::string error;
        const void* bytes = buffer.empty() ? nullptr : buffer.data();
        const std::optional<TraceData> trace = ReadTraceBuffer(bytes, buffer.size(), &error);
        if (!trace) {
            EXPECT_FALSE(error.empty());
            continue;
        }
        ++read;
        EXPECT_TRUE(CheckTraceData(*trace, &error)) << error;
    }
    EXPECT_GT(read, 0u) << "no mutation kept a readable buffer: the fuzzing only reached the first checks";
}

}  // namespace
}  // namespace gpa::pm_sampling
