// The spool between a profiled process and gpaprof: records round-trip, and a spool becomes the files'
// contents (device times mapped onto the CPU clock, rows in dispatch order, unfinished commands, a spool
// cut short by a crash). Also the agent configuration and the output name placeholders.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "tools/gpaprof/spool/agent_config.h"
#include "tools/gpaprof/spool/clock_calibration.h"
#include "tools/gpaprof/spool/output_template.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"
#include "spool_round_trip.h"

namespace gpaprof {
namespace {

// A process line of a spool written before the process's place was recorded reads with the place unknown.
TEST(SpoolRecords, ProcessLineWithoutItsPlace) {
    std::string error;
    const std::optional<spool::Record> decoded = spool::Decode("P\t12\t1\t/bin/app\ta b\t/tmp\t/tmp/out\t123", &error);
    ASSERT_TRUE(decoded) << error;
    const auto& process = std::get<spool::ProcessRecord>(*decoded);
    EXPECT_EQ(process.startNs, 123u);
    EXPECT_EQ(process.place, spool::ProcessPlace{});
}

TEST(SpoolRecords, EveryRecordRoundTrips) {
    DeviceHeader device{"dev\tname", "vendor", "platform", "3.0", "drv", "rt", 64, std::string("board"), std::nullopt};
    ApiCall call{117, "clEnqueueNDRangeKernel", std::string("CL_SUCCESS"), {"0x1", "a\\b", "new\nline", ""}, 10, 20,
                 std::nullopt, std::nullopt, std::nullopt};
    DispatchRow row;
    row.method = "k__k1_CPU";
    row.executionOrder = 7;
    row.threadId = 99;
    row.callIndex = 3;
    row.globalWorkSize = WorkSize::Of({1, 2, 3});
    row.timeMs = 0.1;
    row.localMemSize = 5;
    row.vgprs = 1;
    row.kernelOccupancy = 33.3;
    row.counters = {CounterValue::Real("GPUTime", 0.1), CounterValue::Int("X", 5), CounterValue::NA("Y"),
                    CounterValue::Time("T", 0.00812)};
    OccupancyRow occupancy;
    occupancy.threadId = 4;
    occupancy.kernelName = "k";
    occupancy.waveSize = 8;
    occupancy.occupancyPercent = 12.5;
    occupancy.graphicsIpVersion = "9.0";
    const std::vector<spool::Record> records = {
        spool::ProcessRecord{12, 1, "/bin/app", "a b", "/tmp", "/tmp/out", 123, {"node\t7", "boot-id", "RANK", "3"}},
        spool::DeviceRecord{"0x1", device},
        spool::CounterListRecord{"OpenCL", {"GPUTime", "X"}},
        spool::CallRecord{"ocl", 5, 6, call},
        spool::CommandRecord{"ocl", 5, 6, "0x1", CommandTimes{4592, "CL_COMMAND_NDRANGE_KERNEL", 0, 0, 0, 0, 1, "0x2", 1, "0x3", "dev"},
                             KernelLaunch{"0x4", "k", {64}, {}}, std::nullopt},
        spool::CommandRecord{"ocl", 5, 7, "0x1", CommandTimes{}, std::nullopt, 4096},
        spool::TimesRecord{"ocl", 5, 6, "0x1", 1, 2, 3, 4},
        spool::CalibrationRecord{"0x1", 10, 20, 5},
        spool::DispatchRecord{"OpenCL", row},
        spool::OccupancyRecord{7, occupancy},
        spool::MarkerRecord{5, PerfMarker{PerfMarker::Kind::EndEx, "n", "g", 9}},
        spool::SourceRecord{"ocl", 5, 6, "clFinish", "/bin/app", 0x401234, 0x400000, "main", 0x401200},
        spool::KernelTimestampRecord{"cuda", "", KernelTimestamp{"k", "0x1", 1, 2, "a", "0x2", 3, 4, "T", 5, "{x y}"}},
        spool::EventRecord{"signal", {"11", "5", "0"}},
        spool::NoteRecord{"something\tto say"},
    };
    for (const spool::Record& record : records) EXPECT_EQ(RoundTrip(record), record) << spool::Encode(record);
}

// CUDA graphs: a row's graph launch and node travel as two optional fields after the counters, written only on
// rows of a graph launch, so that an eager row's line is what it was before and decodes with both empty.
TEST(SpoolRecords, GraphFieldsOfADispatchRow) {
    DispatchRow eager;
    eager.method = "_Z1kv__k1_NVIDIA H2001";
    eager.executionOrder = 1;
    eager.globalWorkSize = WorkSize::Of({256, 1, 1});
    eager.workGroupSize = WorkSize::Of({256, 1, 1});
    eager.counters = {CounterValue::Time("GPUTime", 0.5)};
    const std::string eagerLine = spool::Encode(spool::DispatchRecord{"CUDA", eager});
    const std::string lastCounter = "\tGPUTime\t3\t0\t0.5\n";
    ASSERT_GT(eagerLine.size(), lastCounter.size());
    EXPECT_EQ(eagerLine.substr(eagerLine.size() - lastCounter.size()), lastCounter) << eagerLine;

    DispatchRow node = eager;
    node.graphLaunch = 3;
    node.graphNode = UINT64_MAX;
    const std::string nodeLine = spool::Encode(spool::DispatchRecord{"CUDA", node});
    EXPECT_EQ(nodeLine, eagerLine.substr(0, eagerLine.size() - 1) + "\t3\t18446744073709551615\n");
    DispatchRow whole = eager;  // --graph-profiling graph: no node, no work sizes, no counters
    whole.graphLaunch = 4;
    whole.globalWorkSize = WorkSize::Unspecified();
    whole.workGroupSize = WorkSize::Unspecified();
    whole.counters.clear();
    DispatchRow nodeOnly = eager;
    nodeOnly.graphNode = 9;
    for (const DispatchRow& row : {eager, node, whole, nodeOnly}) {
        const spool::Record record = spool::DispatchRecord{"CUDA", row};
        EXPECT_EQ(RoundTrip(record), record) << spool::Encode(record);
    }
    std::string error;
    std::optional<spool::Record> decoded = spool::Decode(nodeLine.substr(0, nodeLine.size() - 1), &error);
    ASSERT_TRUE(decoded.has_value()) << error;
    EXPECT_EQ(std::get<spool::DispatchRecord>(*decoded).row.graphNode, UINT64_MAX);
    // One trailing field alone, three, or a non-number: not a record.
    for (const std::string& tail : {std::string("\t3"), std::string("\t3\t4\t5"), std::string("\tx\t4")}) {
        EXPECT_FALSE(spool::Decode(eagerLine.substr(0, eagerLine.size() - 1) + tail, &error).has_value()) << tail;
    }
}

// The CUDA part writes each call's line field by field: the same line as the CallRecord it stands for.
TEST(SpoolRecords, CallLinesEncodedDirectlyAreCallRecords) {
    for (const bool withReturn : {true, false}) {
        ApiCall call;
        call.apiType = 211;
        call.name = "cudaLaunchKernel";
        if (withReturn) call.returnValue = "cudaSuccess";
        call.args = {"0x0000000000401000", "{4096,1,1}", "a\ttab\\and\nnewline", "", "\r\r\r\r\r\r\r\r\r\\",
                     "\"a quoted string of more than eight characters\"\n"};
        // The largest numbers, on the second pass: every digit of every number field.
        call.start = withReturn ? 1000 : UINT64_MAX - 1;
        call.end = withReturn ? 2500 : UINT64_MAX;
        const uint64_t threadId = withReturn ? 77 : UINT64_MAX, index = withReturn ? 12 : UINT64_MAX - 2;
        const spool::CallRecord record{"cuda", threadId, index, call};
        std::vector<std::string_view> args(call.args.begin(), call.args.end());
        spool::CallLineFields fields;
        fields.part = "cuda";
        fields.threadId = threadId;
        fields.index = index;
        fields.apiType = 211;
        fields.name = call.name;
        if (withReturn) fields.returnValue = *call.returnValue;
        fields.args = args.data();
        fields.argCount = args.size();
        fields.start = call.start;
        fields.end = call.end;
        std::string line = "previous line\n";
        spool::EncodeCallLine(fields, &line);
        EXPECT_EQ(line, "previous line\n" + spool::Encode(record));
        EXPECT_EQ(RoundTrip(record), spool::Record(record));
    }
}

TEST(SpoolRecords, BadLinesAreRejectedWithAReason) {
    std::string error;
    EXPECT_FALSE(spool::Decode("", &error).has_value());
    EXPECT_FALSE(spool::Decode("Z\t1", &error).has_value());
    EXPECT_NE(error.find("unknown record type"), std::string::npos);
    EXPECT_FALSE(spool::Decode("T\tocl\t1", &error).has_value());
    EXPECT_NE(error.find("ends early"), std::string::npos);
    EXPECT_FALSE(spool::Decode("C\t0x1\t1\t2\t3\t4", &error).has_value());
    EXPECT_NE(error.find("more fields"), std::string::npos);
    EXPECT_FALSE(spool::Decode("C\t0x1\tx\t2\t3", &error).has_value());
}

TEST(ClockCalibration, OffsetLiesInEverySample) {
    ClockCalibration clock;
    EXPECT_EQ(clock.Map(1000), 1000u);  // no sample: same clock
    // Device clock = CPU clock - 500; each sample brackets the device reading by its call.
    clock.AddSample(1000, 1100, 550);
    clock.AddSample(2000, 2020, 1505);
    clock.AddSample(3000, 3300, 2700);
    const int64_t offset = clock.Offset();
    EXPECT_GE(offset, 495);
    EXPECT_LE(offset, 515);
    EXPECT_EQ(clock.Map(0), 0u);
    // Disagreeing samples (drift) give the median of their middles, not something outside them.
    ClockCalibration drift;
    drift.AddSample(100, 110, 0 + 1);
    drift.AddSample(200, 210, 50);
    drift.AddSample(300, 310, 100);
    EXPECT_EQ(drift.Offset(), 155);
}

std::string Spool(const std::vector<spool::Record>& records, bool cutLast = false) {
    std::string text;
    for (const spool::Record& record : records) text += spool::Encode(record);
    if (cutLast) text += "A\tocl\t1\t99\t14\tclCreateBuf";  // a record the crash cut short
    return text;
}

ApiCall Call(uint32_t type, const char* name, uint64_t start, uint64_t end) {
    return ApiCall{type, name, std::string("CL_SUCCESS"), {"0x1"}, start, end, std::nullopt, std::nullopt, std::nullopt};
}

TEST(SpoolAssembler, JoinsCallsCommandsAndDeviceTimes) {
    const CommandTimes command{4592, "CL_COMMAND_NDRANGE_KERNEL", 0, 0, 0, 0, 1, "0xQ", 1, "0xC", "dev one"};
    DispatchRow second;
    second.method = "b__k2_CPU";
    second.executionOrder = 2;
    second.threadId = 8;
    second.counters = {CounterValue::Real("GPUTime", 2.0)};
    DispatchRow first = second;
    first.method = "a__k1_CPU";
    first.executionOrder = 1;
    first.threadId = 7;
    first.counters = {CounterValue::Int("Other", 1)};
    OccupancyRow occupancyLate;
    occupancyLate.kernelName = "late";
    OccupancyRow occupancyEarly;
    occupancyEarly.kernelName = "early";
    const std::string text = Spool(
        {spool::ProcessRecord{42, 1, "/bin/app", "-x", "/work", "/out/base", 1, {}},
         spool::DeviceRecord{"0xD", DeviceHeader{"dev one", "v", "p", "OpenCL 3.0", "d", "OpenCL 3.0", 64, std::nullopt, std::nullopt}},
         spool::CounterListRecord{"OpenCL", {"GPUTime", "Other"}},
         spool::CallRecord{"ocl", 8, 0, Call(14, "clCreateBuffer", 5000, 5100)},
         spool::CallRecord{"ocl", 7, 0, Call(117, "clEnqueueNDRangeKernel", 1000, 1100)},
         spool::CommandRecord{"ocl", 7, 0, "0xD", command, KernelLaunch{"0xK", "a", {64}, {}}, std::nullopt},
         spool::CallRecord{"ocl", 7, 1, Call(117, "clEnqueueNDRangeKernel", 2000, 2100)},
         spool::CommandRecord{"ocl", 7, 1, "0xD", command, KernelLaunch{"0xK", "a", {64}, {8}}, std::nullopt},
         spool::TimesRecord{"ocl", 7, 0, "0xD", 550, 560, 700, 900},  // device = cpu - 500
         spool::DispatchRecord{"OpenCL", second},
         spool::DispatchRecord{"OpenCL", first},
         spool::OccupancyRecord{2, occupancyLate},
         spool::OccupancyRecord{1, occupancyEarly},
         spool::MarkerRecord{7, PerfMarker{PerfMarker::Kind::Begin, "m", "g", 900}},
         spool::NoteRecord{"a note"},
         spool::EventRecord{"signal", {"11", "7", "0"}}},
        true);
    AssemblyOptions options;
    options.trace = options.counters = options.occupancy = true;
    options.profilerVersion = "1.2.3";
    options.displayName = "base";
    options.excludedApis = {"clGetEventInfo"};
    AssembledProcess assembled = AssembleSpool(text, options, nullptr);
    EXPECT_EQ(assembled.badRecords, 0u);
    EXPECT_EQ(assembled.process.outputBase, "/out/base");
    ASSERT_TRUE(assembled.signal.has_value());
    EXPECT_EQ(assembled.notes, std::vector<std::string>{"a note"});
    EXPECT_EQ(assembled.apiCalls, 3u);
    EXPECT_EQ(assembled.unfinishedCommands, 1u);

    ASSERT_TRUE(assembled.atp.has_value());
    const AtpFile& atp = *assembled.atp;
    EXPECT_EQ(atp.session.application, "/bin/app");
    EXPECT_EQ(atp.session.profilerVersion, "1.2.3");
    ASSERT_EQ(atp.session.devices.size(), 1u);
    ASSERT_EQ(atp.parts.size(), 1u);
    EXPECT_EQ(atp.parts[0].excludedApis, options.excludedApis);
    ASSERT_EQ(atp.parts[0].threads.size(), 2u);
    EXPECT_EQ(atp.parts[0].threads[0].threadId, 7u);  // threads in the order of their first call
    const ApiCall& dispatched = atp.parts[0].threads[0].entries[0];
    ASSERT_TRUE(dispatched.command.has_value());
    EXPECT_GE(dispatched.command->queued, 1000u);
    EXPECT_LE(dispatched.command->queued, 1100u);
    EXPECT_EQ(dispatched.command->end - dispatched.command->start, 200u);
    EXPECT_EQ(dispatched.kernel->kernelName, "a");
    const ApiCall& unfinished = atp.parts[0].threads[0].entries[1];
    ASSERT_TRUE(unfinished.command.has_value());
    EXPECT_EQ(unfinished.command->end, 0u);
    EXPECT_EQ(unfinished.kernel->localSize, std::vector<uint64_t>{8});
    ASSERT_EQ(atp.markerThreads.size(), 1u);

    ASSERT_TRUE(assembled.csv.has_value());
    const CsvFile& csv = *assembled.csv;
    EXPECT_EQ(csv.counterNames, (std::vector<std::string>{"GPUTime", "Other"}));
    ASSERT_EQ(csv.rows.size(), 2u);
    EXPECT_EQ(csv.rows[0].method, "a__k1_CPU");
    EXPECT_EQ(csv.rows[0].counters[0].kind, CounterValue::Kind::NotAvailable);
    EXPECT_EQ(csv.rows[0].counters[1].integer, 1u);
    EXPECT_EQ(csv.rows[1].counters[1].kind, CounterValue::Kind::NotAvailable);

    ASSERT_TRUE(assembled.occupancy.has_value());
    ASSERT_EQ(assembled.occupancy->rows.size(), 2u);
    EXPECT_EQ(assembled.occupancy->rows[0].kernelName, "early");

    options.trace = options.counters = options.occupancy = false;
    AssembledProcess nothing = AssembleSpool(text, options, nullptr);
    EXPECT_FALSE(nothing.atp || nothing.csv || nothing.occupancy);
}

class FakeResolver : public SymbolResolver {
public:
    std::map<std::pair<std::string, uint64_t>, ResolvedAddress> Resolve(
        const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& wanted) override {
        std::map<std::pair<std::string, uint64_t>, ResolvedAddress> out;
        for (const auto& [module, address, base] : wanted) {
            if (module == "/bin/app") out[{module, address}] = ResolvedAddress{"main", "/src/app.c", 42};
        }
        return out;
    }
};

// The .csv gets the GraphLaunch/GraphNode columns exactly when a row came from a CUDA graph launch.
TEST(SpoolAssembler, GraphColumnsWhenAnyRowIsOfAGraph) {
    DispatchRow eager;
    eager.method = "_Z1kv__k1_NVIDIA H2001";
    eager.executionOrder = 1;
    eager.threadId = 7;
    eager.globalWorkSize = WorkSize::Of({256});
    eager.counters = {CounterValue::Time("GPUTime", 0.5)};
    DispatchRow node = eager;
    node.executionOrder = 2;
    node.graphLaunch = 1;
    node.graphNode = 12;
    AssemblyOptions options;
    options.counters = true;
    auto assemble = [&](const std::vector<DispatchRow>& rows) {
        std::vector<spool::Record> records = {spool::ProcessRecord{42, 1, "/bin/app", "", "/work", "/out/base", 1, {}},
                                              spool::CounterListRecord{"CUDA", {"GPUTime"}}};
        for (const DispatchRow& row : rows) records.push_back(spool::DispatchRecord{"CUDA", row});
        return AssembleSpool(Spool(records), options, nullptr);
    };
    AssembledProcess eagerOnly = assemble({eager});
    ASSERT_TRUE(eagerOnly.csv.has_value());
    EXPECT_FALSE(eagerOnly.csv->hasGraphColumns);
    AssembledProcess mixed = assemble({node, eager});
    ASSERT_TRUE(mixed.csv.has_value());
    EXPECT_TRUE(mixed.csv->hasGraphColumns);
    ASSERT_EQ(mixed.csv->rows.size(), 2u);
    EXPECT_FALSE(mixed.csv->rows[0].graphLaunch.has_value());
    EXPECT_EQ(mixed.csv->rows[1].graphLaunch, 1u);
    EXPECT_EQ(mixed.csv->rows[1].graphNode, 12u);
}

TEST(SpoolAssembler, SourceLocationsFromResolverSymbolOrModule) {
    const std::string text = Spool({
        spool::ProcessRecord{1, 0, "/bin/app", "", "/", "/o", 0, {}},
        spool::CallRecord{"ocl", 1, 0, Call(47, "clFinish", 1, 2)},
        spool::CallRecord{"ocl", 1, 1, Call(47, "clFinish", 3, 4)},
        spool::CallRecord{"ocl", 1, 2, Call(47, "clFinish", 5, 6)},
        spool::SourceRecord{"ocl", 1, 2, "clFinish", "/lib/libx.so", 0x7000, 0x5000, "", 0},
        spool::SourceRecord{"ocl", 1, 0, "clFinish", "/bin/app", 0x401234, 0x400000, "", 0},
        spool::SourceRecord{"ocl", 1, 1, "clFinish", "/lib/liby.so", 0x9010, 0x8000, "helper", 0x9000},
    });
    AssemblyOptions options;
    options.trace = true;
    FakeResolver resolver;
    AssembledProcess assembled = AssembleSpool(text, options, &resolver);
    ASSERT_EQ(assembled.atp->parts[0].sourceThreads.size(), 1u);
    const auto& entries = assembled.atp->parts[0].sourceThreads[0].entries;
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0], (SourceLocation{"clFinish", "main", 42, "/src/app.c", 0}));
    EXPECT_EQ(entries[1], (SourceLocation{"clFinish", "helper", std::nullopt, "", 0x10}));
    EXPECT_EQ(entries[2], (SourceLocation{"clFinish", "libx.so", std::nullopt, "", 0x2000}));
}

TEST(SpoolAssembler, UnreadableLinesAreCountedNotFatal) {
    std::string text = Spool({spool::ProcessRecord{1, 0, "/bin/app", "", "/", "/o", 0, {}}});
    text += "garbage line\nA\tocl\tbad\n";
    text += spool::Encode(spool::CallRecord{"ocl", 1, 0, Call(47, "clFinish", 1, 2)});
    AssemblyOptions options;
    options.trace = true;
    AssembledProcess assembled = AssembleSpool(text, options, nullptr);
    EXPECT_EQ(assembled.badRecords, 2u);
    EXPECT_EQ(assembled.apiCalls, 1u);
}

TEST(AgentConfig, SerializesAndParses) {
    AgentConfig config;
    config.trace = config.counters = config.occupancy = config.sourceSymbols = true;
    config.counterNames = {"GPUTime"};
    config.kernels = {"a", "b"};
    config.kernelRegex = "^k.*$";
    config.launchSkip = 3;
    config.launchCount = 4;
    config.maxApiCalls = 10;
    config.excludedApis = {"clGetEventInfo"};
    config.startDisabled = true;
    config.startDelayMs = 5;
    config.durationMs = 6;
    config.forceSinglePass = true;
    config.forcePasses = 3;
    config.graphProfiling = "graph";
    config.cudaTraceAllApis = true;
    config.progress = false;
    config.spoolDirectory = "/tmp/s";
    config.outputTemplate = "/tmp/out_%p";
    config.launchTimeNs = 77;
    config.listSeparator = ';';
    config.ranks = "0,8-9";
    std::string error;
    std::optional<AgentConfig> parsed = AgentConfig::Parse(config.Serialize(), &error);
    ASSERT_TRUE(parsed.has_value()) << error;
    EXPECT_EQ(parsed->Serialize(), config.Serialize());
    EXPECT_EQ(parsed->kernels, config.kernels);
    EXPECT_EQ(parsed->launchCount, 4u);
    EXPECT_EQ(parsed->graphProfiling, "graph");
    EXPECT_TRUE(parsed->cudaTraceAllApis);
    EXPECT_NE(config.Serialize().find("\ngraphProfiling=graph\n"), std::string::npos);
    EXPECT_FALSE(AgentConfig::Parse("spoolDir=/x\n", &error)->cudaTraceAllApis) << "absent: the default, not every call";
    EXPECT_FALSE(AgentConfig::Parse("spoolDir=/x\ncudaTraceAllApis=yes\n", &error).has_value());
    // Absent (a config of an older gpaprof): node; anything but node or graph is refused.
    ASSERT_TRUE(AgentConfig::Parse("spoolDir=/x\n", &error).has_value());
    EXPECT_EQ(AgentConfig::Parse("spoolDir=/x\n", &error)->graphProfiling, "node");
    EXPECT_EQ(AgentConfig::Parse("spoolDir=/x\ngraphProfiling=node\n", &error)->graphProfiling, "node");
    EXPECT_FALSE(AgentConfig::Parse("spoolDir=/x\ngraphProfiling=nodes\n", &error).has_value());
    EXPECT_NE(error.find("graphProfiling"), std::string::npos) << error;
    EXPECT_NE(error.find("node or graph"), std::string::npos) << error;
    EXPECT_FALSE(AgentConfig::Parse("spoolDir=/x\ngraphProfiling=\n", &error).has_value());
    EXPECT_FALSE(AgentConfig::Parse("trace=2\nspoolDir=/x\n", &error).has_value());
    EXPECT_NE(error.find("trace"), std::string::npos);
    EXPECT_FALSE(AgentConfig::Parse("trace=1\n", &error).has_value());
    EXPECT_TRUE(AgentConfig::Parse("spoolDir=/x\nfromTheFuture=1\n", &error).has_value());
    EXPECT_EQ(parsed->ranks, "0,8-9");
    EXPECT_EQ(AgentConfig::Parse("spoolDir=/x\n", &error)->ranks, "") << "absent: every process";
    EXPECT_FALSE(AgentConfig::Parse("spoolDir=/x\nranks=2-1\n", &error).has_value());
}

// --pm-sampling and --pm-metrics: the interval (0: off) and the metrics in the order given (none: the default set).
TEST(AgentConfig, PmSamplingIntervalAndMetrics) {
    std::string error;
    std::optional<AgentConfig> absent = AgentConfig::Parse("spoolDir=/x\n", &error);
    ASSERT_TRUE(absent.has_value()) << error;
    EXPECT_EQ(absent->pmSamplingIntervalNs, 0u) << "a config of an older gpaprof: no PM sampling";
    EXPECT_TRUE(absent->pmMetrics.empty());

    AgentConfig config;
    config.spoolDirectory = "/tmp/s";
    config.pmSamplingIntervalNs = 100000;
    config.pmMetrics = {"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"};
    const std::string text = config.Serialize();
    EXPECT_NE(text.find("\npmSamplingIntervalNs=100000\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\npmMetric=dram__bytes_read.sum\npmMetric=sm__cycles_active"), std::string::npos) << text;
    std::optional<AgentConfig> parsed = AgentConfig::Parse(text, &error);
    ASSERT_TRUE(parsed.has_value()) << error;
    EXPECT_EQ(parsed->pmSamplingIntervalNs, 100000u);
    EXPECT_EQ(parsed->pmMetrics, config.pmMetrics);
    EXPECT_EQ(parsed->Serialize(), text);

    config.pmMetrics.clear();  // the default set: no pmMetric line
    EXPECT_EQ(config.Serialize().find("pmMetric="), std::string::npos);
    config.pmSamplingIntervalNs = UINT64_MAX;
    ASSERT_TRUE(AgentConfig::Parse(config.Serialize(), &error).has_value()) << error;
    EXPECT_EQ(AgentConfig::Parse(config.Serialize(), &error)->pmSamplingIntervalNs, UINT64_MAX);

    for (const char* bad : {"pmSamplingIntervalNs=100us", "pmSamplingIntervalNs=-1", "pmSamplingIntervalNs=",
                            "pmSamplingIntervalNs=1e5", "pmMetric="}) {
        EXPECT_FALSE(AgentConfig::Parse(std::string("spoolDir=/x\n") + bad + "\n", &error).has_value()) << bad;
        EXPECT_NE(error.find(std::string(bad).substr(0, std::string(bad).find('='))), std::string::npos) << error;
    }
}

TEST(OutputTemplate, PlaceholdersAndExtensions) {
    auto lookup = [](const std::string& name) -> std::optional<std::string> {
        if (name == "RANK") return std::string("3");
        return std::nullopt;
    };
    std::string warning;
    EXPECT_EQ(ResolveOutputTemplate("/o/run_%p_r%q{RANK}_100%%", 1234, lookup, &warning), "/o/run_1234_r3_100%");
    EXPECT_TRUE(warning.empty());
    EXPECT_EQ(ResolveOutputTemplate("x_%q{MISSING}", 1, lookup, &warning), "x_unset-MISSING");
    EXPECT_NE(warning.find("MISSING"), std::string::npos);
    std::string error;
    EXPECT_TRUE(ValidateOutputTemplate("a_%p_%q{B_1}", &error));
    EXPECT_FALSE(ValidateOutputTemplate("a_%x", &error));
    EXPECT_FALSE(ValidateOutputTemplate("a_%q{", &error));
    EXPECT_FALSE(ValidateOutputTemplate("a_%q{B-1}", &error));
    EXPECT_FALSE(ValidateOutputTemplate("a_%", &error));
    EXPECT_EQ(StripProfilerExtension("/o/run.atp"), "/o/run");
    EXPECT_EQ(StripProfilerExtension("/o/run.csv"), "/o/run");
    EXPECT_EQ(StripProfilerExtension("/o/run.occupancy"), "/o/run");
    EXPECT_EQ(StripProfilerExtension("/o/run.pmsampling.csv"), "/o/run");
    EXPECT_EQ(StripProfilerExtension("/o/run.v2"), "/o/run.v2");
}

}  // namespace
}  // namespace gpaprof
