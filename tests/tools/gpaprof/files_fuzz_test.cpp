// The readers never crash and always say where: every prefix of a good file, random edits of it, and
// random bytes. Problems must name a line of the input (or 0 for the whole file).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof {
namespace {

// `graphs`: a CUDA file whose rows 3 and 4 came from graph launches (GraphLaunch/GraphNode columns, NULL sizes).
std::string GoodCsv(bool graphs = false) {
    CsvFile file;
    file.session.profilerVersion = "0.1.0";
    file.session.application = "/bin/app";
    file.session.devices.push_back(DeviceHeader{"dev", "vendor", "platform", "OpenCL 3.0", "1", "OpenCL 3.0", 64, "board", "0x1"});
    file.counterNames = {"GPUTime"};
    for (uint64_t i = 1; i <= 4; ++i) {
        DispatchRow row;
        row.method = "k__k1_CPU";
        row.executionOrder = i;
        row.threadId = 10 + i;
        row.callIndex = i;
        row.globalWorkSize = WorkSize::Of({64, 2});
        if (i % 2) row.workGroupSize = WorkSize::Of({8, 2});
        row.timeMs = 0.5 * static_cast<double>(i);
        row.kernelOccupancy = 12.5;
        row.counters = {CounterValue::Real("GPUTime", 0.5)};
        if (graphs && i >= 3) {
            row.graphLaunch = i;
            if (i == 3) row.graphNode = 77;
            else row.globalWorkSize = row.workGroupSize = WorkSize::Unspecified();
        }
        file.rows.push_back(row);
    }
    file.hasGraphColumns = AnyGraphRow(file.rows);
    return WriteCsv(file);
}

std::string GoodAtp() {
    AtpFile file;
    file.session.application = "/bin/app";
    ApiTracePart part;
    part.api = "ocl";
    for (uint64_t t = 1; t <= 2; ++t) {
        ThreadBlock<ApiCall> block;
        block.threadId = t;
        for (uint64_t i = 0; i < 3; ++i) {
            ApiCall call;
            call.apiType = i == 2 ? 117 : 14;
            call.name = i == 2 ? "clEnqueueNDRangeKernel" : "clCreateBuffer";
            call.returnValue = "CL_SUCCESS";
            call.args = {"0x1", "{1,2}", "\"text;with;separators\""};
            call.start = 100 * i;
            call.end = 100 * i + 50;
            if (i == 2) {
                call.command = CommandTimes{4592, "CL_COMMAND_NDRANGE_KERNEL", 110, 120, 130, 140, 1, "0x1", 1, "0x2", "dev one"};
                call.kernel = KernelLaunch{"0x3", "k", {64}, {}};
            }
            block.entries.push_back(call);
        }
        part.threads.push_back(block);
        part.sourceThreads.push_back(ThreadBlock<SourceLocation>{t, {SourceLocation{"a", "main", 3, "f.c", 0},
                                                                   SourceLocation{"b", "lib.so", std::nullopt, "", 16},
                                                                   SourceLocation{"c", "x", 1, "y", 0}}});
    }
    part.kernelTimestamps.push_back(KernelTimestamp{"k", "0x1", 1, 2, "agent", "0x2", 0, 0, "KERNEL_DISPATCH", 1, "{a, b}"});
    file.parts.push_back(part);
    file.markerThreads.push_back(ThreadBlock<PerfMarker>{1, {PerfMarker{PerfMarker::Kind::Begin, "m", "g", 5},
                                                             PerfMarker{PerfMarker::Kind::End, "", "", 6}}});
    return WriteAtp(file);
}

std::string GoodOccupancy() {
    OccupancyFile file;
    for (uint64_t i = 0; i < 3; ++i) {
        OccupancyRow row;
        row.threadId = i;
        row.kernelName = "k";
        row.deviceName = "dev";
        row.computeUnits = 2;
        row.occupancyPercent = 50.0;
        file.rows.push_back(row);
    }
    return WriteOccupancy(file);
}

template <typename Parse>
void ExpectSaneProblems(const std::string& input, Parse parse) {
    const size_t lines = SplitLines(input).size();
    for (bool strict : {false, true}) {
        auto parsed = parse(input, ReadOptions{strict});
        for (const ParseProblem& problem : parsed.problems) {
            EXPECT_LE(problem.line, lines + 1) << problem.message;
            EXPECT_FALSE(problem.message.empty());
        }
        (void)parsed.Describe();
    }
}

template <typename Parse>
void Fuzz(const std::string& good, Parse parse, uint32_t seed) {
    {
        auto parsed = parse(good, ReadOptions{true});
        ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    }
    // Every prefix (a file cut short by a crash or a full disk).
    for (size_t length = 0; length < good.size(); ++length) ExpectSaneProblems(good.substr(0, length), parse);
    std::mt19937 random(seed);
    auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(random() % n); };
    const std::string alphabet = "0123456789abcxyz ,;:=#{}[]()\"\\\t\r\n-_.+=====\x7f\xff";
    for (int round = 0; round < 1500; ++round) {
        std::string text = good;
        const int edits = 1 + static_cast<int>(pick(6));
        for (int e = 0; e < edits; ++e) {
            switch (pick(6)) {
                case 0: if (!text.empty()) text[pick(text.size())] = alphabet[pick(alphabet.size())]; break;
                case 1: text.insert(pick(text.size() + 1), 1, alphabet[pick(alphabet.size())]); break;
                case 2: if (!text.empty()) text.erase(pick(text.size()), 1 + pick(8)); break;
                case 3: {  // duplicate a line
                    std::vector<std::string_view> lines = SplitLines(text);
                    if (!lines.empty()) text.insert(pick(text.size() + 1), std::string(lines[pick(lines.size())]) + "\n");
                    break;
                }
                case 4: text.insert(pick(text.size() + 1), "\n"); break;
                case 5: text.insert(pick(text.size() + 1), std::string(1, '\0')); break;
            }
        }
        ExpectSaneProblems(text, parse);
    }
    for (int round = 0; round < 200; ++round) {
        std::string noise(pick(400), '\0');
        for (char& c : noise) c = static_cast<char>(random());
        ExpectSaneProblems(noise, parse);
    }
}

TEST(ReaderFuzz, CsvNeverCrashes) {
    Fuzz(GoodCsv(), [](const std::string& text, ReadOptions options) { return ParseCsv(text, options); }, 1);
}

TEST(ReaderFuzz, CsvWithGraphColumnsNeverCrashes) {
    ASSERT_NE(GoodCsv(true).find(", GraphLaunch, GraphNode, GPUTime\n"), std::string::npos);
    Fuzz(GoodCsv(true), [](const std::string& text, ReadOptions options) { return ParseCsv(text, options); }, 5);
}

TEST(ReaderFuzz, AtpNeverCrashes) {
    Fuzz(GoodAtp(), [](const std::string& text, ReadOptions options) { return ParseAtp(text, options); }, 2);
}

TEST(ReaderFuzz, OccupancyNeverCrashes) {
    Fuzz(GoodOccupancy(), [](const std::string& text, ReadOptions options) { return ParseOccupancy(text, options); }, 3);
}

TEST(ReaderFuzz, SpoolRecordsNeverCrash) {
    std::mt19937 random(4);
    const std::string samples[] = {
        spool::Encode(spool::CallRecord{"ocl", 1, 2, ApiCall{3, "clFinish", std::string("CL_SUCCESS"), {"0x1", "x\ty"}, 4, 5,
                                                          std::nullopt, std::nullopt, std::nullopt}}),
        spool::Encode(spool::DispatchRecord{"OpenCL", DispatchRow{}}),
        spool::Encode(spool::DispatchRecord{"CUDA", [] {
            DispatchRow row;
            row.graphLaunch = 2;
            row.graphNode = 5;
            return row;
        }()}),
        spool::Encode(spool::OccupancyRecord{1, OccupancyRow{}}),
        spool::Encode(spool::ProcessRecord{1, 2, "a", "b", "c", "d", 3, {}}),
        spool::Encode(spool::PmDeviceRecord{0, "NVIDIA H200", "GH100", 100000, {"dram__bytes_read.sum"}, {"x: why"}}),
        spool::Encode(spool::PmSampleRecord{0, 1000, 2000, true, true, {1.5, std::nullopt, -2e-300}}),
    };
    for (const std::string& sample : samples) {
        std::string error;
        ASSERT_TRUE(spool::Decode(std::string_view(sample).substr(0, sample.size() - 1), &error).has_value()) << error;
        for (size_t length = 0; length < sample.size(); ++length) (void)spool::Decode(sample.substr(0, length), &error);
        for (int round = 0; round < 500; ++round) {
            std::string text = sample.substr(0, sample.size() - 1);
            text[random() % text.size()] = static_cast<char>(random());
            (void)spool::Decode(text, &error);
        }
    }
}

}  // namespace
}  // namespace gpaprof
