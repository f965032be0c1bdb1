// The .csv and .occupancy files, field by field against the layouts of docs/profiler_files.md: each writer's
// exact text for a known profile, the readers giving the same profile back, strict reading rejecting what the
// layout does not write, and problems reported with their line numbers. The .atp: atp_file_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "files_test_session.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

CsvFile Csv() {
    CsvFile file;
    file.session = Session();
    file.counterNames = {"GPUTime", "Wavefronts"};
    DispatchRow row;
    row.method = "vector_add__k1_CPU";
    row.executionOrder = 1;
    row.threadId = 4242;
    row.callIndex = 17;
    row.globalWorkSize = WorkSize::Of({1024});
    row.timeMs = 0.012346;
    row.localMemSize = 0;
    row.counters = {CounterValue::Real("GPUTime", 0.0123), CounterValue::Int("Wavefronts", 16)};
    file.rows.push_back(row);
    DispatchRow second = row;
    second.method = "fill_2d__k2_Tahiti1";
    second.executionOrder = 2;
    second.callIndex = 30;
    second.globalWorkSize = WorkSize::Of({32, 32});
    second.workGroupSize = WorkSize::Of({8, 8});
    second.timeMs = 1234.5;
    second.localMemSize = 256;
    second.vgprs = 24;
    second.sgprs = 16;
    second.scratchRegs = 0;
    second.kernelOccupancy = 62.5;
    second.counters = {CounterValue::Real("GPUTime", 1234.5), CounterValue::NA("Wavefronts")};
    file.rows.push_back(second);
    return file;
}

const char* kCsvText =
    "#ProfileFileVersion=3.0\n"
    "#ProfilerVersion=0.1.0\n"
    "#API=OpenCL\n"
    "#Application=/opt/app/bin/solver\n"
    "#ApplicationArgs=--size 64 \"two words\"\n"
    "#WorkingDirectory=/home/user/run\n"
    "#Device pthread-haswell-AMD EPYC Platform Vendor=The pocl project\n"
    "#Device pthread-haswell-AMD EPYC Platform Name=Portable Computing Language\n"
    "#Device pthread-haswell-AMD EPYC Platform Version=OpenCL 3.0 PoCL 3.1\n"
    "#Device pthread-haswell-AMD EPYC CLDriver Version=3.1+debian\n"
    "#Device pthread-haswell-AMD EPYC CLRuntime Version=OpenCL 3.0 PoCL HSTR\n"
    "#Device pthread-haswell-AMD EPYC NumberAppAddressBits=64\n"
    "#OS Version=Debian GNU/Linux 12 (bookworm) Build 6.1.0\n"
    "#DisplayName=session1\n"
    "#ListSeparator=,\n"
    "#ForceSinglePass=False\n"
    "Method, ExecutionOrder, ThreadID, CallIndex, GlobalWorkSize, WorkGroupSize, Time, LocalMemSize, VGPRs, SGPRs, "
    "ScratchRegs, KernelOccupancy, GPUTime, Wavefronts\n"
    "vector_add__k1_CPU, 1, 4242, 17, {   1024       1       1}, NULL,         0.01235, 0, NA, NA, NA, NA,         0.01, 16\n"
    "fill_2d__k2_Tahiti1, 2, 4242, 30, {     32      32       1}, {    8     8     1},      1234.50000, 256, 24, 16, 0,"
    "        62.50,      1234.50, NA\n";

TEST(CsvFile, WriterFollowsTheLayoutExactly) { EXPECT_EQ(WriteCsv(Csv()), kCsvText); }

TEST(CsvFile, ReaderGivesEveryFieldBack) {
    Parsed<CsvFile> parsed = ParseCsv(kCsvText, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    const CsvFile& file = parsed.file;
    EXPECT_EQ(file.profileFileVersion, "3.0");
    EXPECT_EQ(file.api, "OpenCL");
    EXPECT_EQ(file.session.application, "/opt/app/bin/solver");
    EXPECT_EQ(file.session.applicationArgs, "--size 64 \"two words\"");
    EXPECT_EQ(file.session.devices, Session().devices);
    EXPECT_EQ(file.session.osVersion, "Debian GNU/Linux 12 (bookworm) Build 6.1.0");
    EXPECT_EQ(file.flavor, CsvFlavor::OpenCL);
    EXPECT_TRUE(file.hasKernelOccupancyColumn);
    EXPECT_FALSE(file.hasGraphColumns);
    EXPECT_EQ(file.counterNames, (std::vector<std::string>{"GPUTime", "Wavefronts"}));
    ASSERT_EQ(file.rows.size(), 2u);
    const DispatchRow& first = file.rows[0];
    EXPECT_EQ(first.method, "vector_add__k1_CPU");
    EXPECT_EQ(first.executionOrder, 1u);
    EXPECT_EQ(first.threadId, 4242u);
    EXPECT_EQ(first.callIndex, 17u);
    EXPECT_EQ(first.globalWorkSize.product(), 1024u);
    EXPECT_FALSE(first.workGroupSize.specified());
    EXPECT_DOUBLE_EQ(*first.timeMs, 0.01235);
    EXPECT_FALSE(first.vgprs.has_value());
    EXPECT_FALSE(first.kernelOccupancy.has_value());
    EXPECT_EQ(first.counters[0].kind, CounterValue::Kind::Float);
    EXPECT_DOUBLE_EQ(first.counters[0].number, 0.01);
    EXPECT_EQ(first.counters[1].kind, CounterValue::Kind::Integer);
    EXPECT_EQ(first.counters[1].integer, 16u);
    const DispatchRow& second = file.rows[1];
    EXPECT_EQ(second.workGroupSize.size[0], 8u);
    EXPECT_EQ(second.workGroupSize.size[1], 8u);
    EXPECT_EQ(second.vgprs, 24u);
    EXPECT_EQ(second.sgprs, 16u);
    EXPECT_EQ(second.scratchRegs, 0u);
    EXPECT_DOUBLE_EQ(*second.kernelOccupancy, 62.5);
    EXPECT_EQ(second.counters[1].kind, CounterValue::Kind::NotAvailable);
    // Read again and written again: the same text.
    EXPECT_EQ(WriteCsv(file), kCsvText);
}

TEST(CsvFile, OptionalHeadersEnvironmentAndSeparator) {
    CsvFile file = Csv();
    file.session.listSeparator = ';';
    file.session.fullEnvironment = true;
    file.session.environment = {{"OMP_NUM_THREADS", "4"}, {"EMPTY", ""}};
    file.kernelsProfiled = std::vector<std::string>{"vector_add", "fill_2d"};
    file.maxKernelsToProfile = 100;
    file.forceSinglePass = true;
    const std::string text = WriteCsv(file);
    EXPECT_NE(text.find("#WorkingDirectory=/home/user/run\n#FullEnvironment=1\n#EnvVar=OMP_NUM_THREADS=4\n#EnvVar=EMPTY=\n#Device"),
              std::string::npos);
    EXPECT_NE(text.find("#ListSeparator=;\n#ForceSinglePass=True\n#KernelsProfiled=vector_add,fill_2d\n"
                        "#MaxNumberOfKernelsToProfile=100\nMethod; ExecutionOrder; ThreadID; CallIndex;"),
              std::string::npos);
    Parsed<CsvFile> parsed = ParseCsv(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file, [&] {
        CsvFile expected = file;
        for (DispatchRow& row : expected.rows) {
            row.globalWorkSize.dims = 3;
            if (row.workGroupSize.specified()) row.workGroupSize.dims = 3;
            row.timeMs = std::stod(Trim(FormatTimeMs(*row.timeMs)).data());
            for (CounterValue& counter : row.counters) {
                if (counter.kind == CounterValue::Kind::Float) counter.number = std::stod(Trim(FormatCounter(counter)).data());
            }
        }
        return expected;
    }());
}

TEST(CsvFile, ProcessPlaceLinesFollowDisplayName) {
    CsvFile file = Csv();
    file.session.hostName = "node07";
    file.session.clockId = "boot-1";
    file.session.processRank = EnvironmentVariable{"RANK", "3"};
    const std::string text = WriteCsv(file);
    EXPECT_NE(text.find("#DisplayName=" + file.session.displayName + "\n#HostName=node07\n#ClockId=boot-1\n"
                        "#ProcessRank=RANK=3\n#ListSeparator="),
              std::string::npos)
        << text;
    Parsed<CsvFile> parsed = ParseCsv(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.session, file.session);
}

// A time counter is written like the Time column (%15.5f), so that a 8 µs kernel does not read 0.01 ms; other
// floating counters keep the original's %12.2f, and a file read back keeps the decimals it had.
TEST(CsvFile, TimeCountersResolveMicroseconds) {
    CsvFile file = Csv();
    file.rows[0].counters[0] = CounterValue::Time("GPUTime", 0.008123);
    const std::string text = WriteCsv(file);
    EXPECT_NE(text.find(", NA,         0.00812, 16\n"), std::string::npos) << text;
    EXPECT_NE(text.find(",      1234.50, NA\n"), std::string::npos) << text;
    Parsed<CsvFile> parsed = ParseCsv(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    const CounterValue& time = parsed.file.rows[0].counters[0];
    EXPECT_DOUBLE_EQ(time.number, 0.00812);
    EXPECT_EQ(time.decimals, CounterValue::kTimeDecimals);
    EXPECT_EQ(parsed.file.rows[1].counters[0].decimals, CounterValue::kDecimals);
    EXPECT_EQ(WriteCsv(parsed.file), text) << "written again, byte for byte";
}

TEST(CsvFile, HsaFlavorHasItsColumns) {
    CsvFile file = Csv();
    file.flavor = CsvFlavor::HSA;
    file.api = "HSA";
    file.hasKernelOccupancyColumn = false;
    const std::string text = WriteCsv(file);
    EXPECT_NE(text.find("\nMethod, ExecutionOrder, ThreadID, GlobalWorkSize, WorkGroupSize, LocalMemSize, VGPRs, SGPRs, GPUTime, Wavefronts\n"
                        "vector_add__k1_CPU, 1, 4242, {   1024       1       1}, NULL, 0, NA, NA,         0.01, 16\n"),
              std::string::npos)
        << text;
    Parsed<CsvFile> parsed = ParseCsv(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.flavor, CsvFlavor::HSA);
    EXPECT_FALSE(parsed.file.rows[0].callIndex.has_value());
}

// CUDA graphs: GraphLaunch and GraphNode after KernelOccupancy in a file with rows of graph launches; an eager row
// has NA in both, a whole-graph row (--graph-profiling graph) NA as its node and NULL work sizes.
TEST(CsvFile, GraphColumnsFollowKernelOccupancy) {
    CsvFile file = Csv();
    file.api = "CUDA";
    file.rows[1].graphLaunch = 1;
    file.rows[1].graphNode = 18446744073709551615ull;
    DispatchRow whole = file.rows[1];
    whole.executionOrder = 3;
    whole.graphLaunch = 2;
    whole.graphNode.reset();
    whole.globalWorkSize = WorkSize::Unspecified();
    whole.workGroupSize = WorkSize::Unspecified();
    file.rows.push_back(whole);
    EXPECT_TRUE(AnyGraphRow(file.rows));
    EXPECT_FALSE(AnyGraphRow(Csv().rows));
    file.hasGraphColumns = AnyGraphRow(file.rows);
    const std::string text = WriteCsv(file);
    EXPECT_NE(text.find("\nMethod, ExecutionOrder, ThreadID, CallIndex, GlobalWorkSize, WorkGroupSize, Time, LocalMemSize, "
                        "VGPRs, SGPRs, ScratchRegs, KernelOccupancy, GraphLaunch, GraphNode, GPUTime, Wavefronts\n"
                        "vector_add__k1_CPU, 1, 4242, 17, {   1024       1       1}, NULL,         0.01235, 0, NA, NA, NA, "
                        "NA, NA, NA,         0.01, 16\n"
                        "fill_2d__k2_Tahiti1, 2, 4242, 30, {     32      32       1}, {    8     8     1},      1234.50000, "
                        "256, 24, 16, 0,        62.50, 1, 18446744073709551615,      1234.50, NA\n"
                        "fill_2d__k2_Tahiti1, 3, 4242, 30, NULL, NULL,      1234.50000, 256, 24, 16, 0,        62.50, 2, NA,"
                        "      1234.50, NA\n"),
              std::string::npos)
        << text;
    Parsed<CsvFile> parsed = ParseCsv(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_TRUE(parsed.file.hasGraphColumns);
    EXPECT_EQ(parsed.file.counterNames, (std::vector<std::string>{"GPUTime", "Wavefronts"})) << "never counters";
    ASSERT_EQ(parsed.file.rows.size(), 3u);
    EXPECT_FALSE(parsed.file.rows[0].graphLaunch.has_value());
    EXPECT_FALSE(parsed.file.rows[0].graphNode.has_value());
    EXPECT_EQ(parsed.file.rows[1].graphLaunch, 1u);
    EXPECT_EQ(parsed.file.rows[1].graphNode, 18446744073709551615ull);
    EXPECT_EQ(parsed.file.rows[2].graphLaunch, 2u);
    EXPECT_FALSE(parsed.file.rows[2].graphNode.has_value());
    EXPECT_FALSE(parsed.file.rows[2].globalWorkSize.specified());
    EXPECT_FALSE(parsed.file.rows[2].workGroupSize.specified());
    EXPECT_EQ(parsed.file.rows[2].counters.size(), 2u);
    EXPECT_EQ(WriteCsv(parsed.file), text) << "written again, byte for byte";

    // The HSA layout takes them after its KernelOccupancy too.
    file.flavor = CsvFlavor::HSA;
    file.api = "HSA";
    EXPECT_EQ(CsvStatisticColumns(CsvFlavor::HSA, true, true).back(), "GraphNode");
    Parsed<CsvFile> hsa = ParseCsv(WriteCsv(file), {true});
    ASSERT_TRUE(hsa.ok()) << hsa.Describe();
    EXPECT_EQ(hsa.file.rows[1].graphNode, 18446744073709551615ull);
    EXPECT_EQ(WriteCsv(hsa.file), WriteCsv(file));
}

TEST(CsvFile, GraphColumnsAreStatisticsAndCheckedLikeThem) {
    for (const char* name : {"GraphLaunch", "GraphNode", "KernelOccupancy", "Method", "CallIndex"}) {
        EXPECT_TRUE(IsCsvStatisticColumn(name)) << name;
    }
    EXPECT_FALSE(IsCsvStatisticColumn("GPUTime"));
    EXPECT_EQ(CsvStatisticColumns(CsvFlavor::OpenCL, true), CsvStatisticColumns(CsvFlavor::OpenCL, true, false));
    const std::string columns =
        "#ProfileFileVersion=3.0\n#ListSeparator=,\nMethod, ExecutionOrder, ThreadID, GlobalWorkSize, WorkGroupSize, "
        "GraphLaunch, GraphNode, GPUTime\n";
    Parsed<CsvFile> parsed = ParseCsv(columns + "k__k1_X1, 1, 2, NULL, NULL, 3, NA, 0.5\n"
                                                "k__k1_X1, 2, 2, {1 1 1}, NULL, x, 4, 0.5\n"
                                                "k__k1_X1, 3, 2, {1 1 1}, NULL, NA, -1, 0.5\n");
    ASSERT_EQ(parsed.problems.size(), 2u) << parsed.Describe();
    EXPECT_EQ(parsed.problems[0].line, 5u);
    EXPECT_NE(parsed.problems[0].message.find("GraphLaunch is 'x', expected an unsigned integer or NA"), std::string::npos);
    EXPECT_EQ(parsed.problems[1].line, 6u);
    EXPECT_NE(parsed.problems[1].message.find("GraphNode is '-1'"), std::string::npos);
    ASSERT_EQ(parsed.file.rows.size(), 1u);
    EXPECT_EQ(parsed.file.rows[0].graphLaunch, 3u);
    EXPECT_EQ(parsed.file.counterNames, std::vector<std::string>{"GPUTime"});
    EXPECT_TRUE(parsed.file.hasGraphColumns);
    // A GlobalWorkSize that is neither a size nor NULL is still refused.
    EXPECT_FALSE(ParseCsv(columns + "k__k1_X1, 1, 2, {}, NULL, 3, NA, 0.5\n").ok());
}

TEST(CsvFile, StrictReadingFindsWhatTheLayoutDoesNotWrite) {
    auto problemsIn = [](const std::string& text) { return ParseCsv(text, {true}).problems; };
    const std::string good = kCsvText;
    std::string narrowTime = good;
    narrowTime.replace(narrowTime.find("        0.01235"), 15, "0.01235");
    std::vector<ParseProblem> problems = problemsIn(narrowTime);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].line, 18u);
    EXPECT_NE(problems[0].message.find("differs from the layout"), std::string::npos);
    // Lenient reading takes the same file.
    EXPECT_TRUE(ParseCsv(narrowTime).ok());

    std::string noSpace = good;
    noSpace.replace(noSpace.find("vector_add__k1_CPU, 1,"), 22, "vector_add__k1_CPU,1,");
    EXPECT_EQ(problemsIn(noSpace).at(0).line, 18u);

    std::string spaceAfterHash = good;
    spaceAfterHash.replace(0, 1, "# ");
    EXPECT_FALSE(problemsIn(spaceAfterHash).empty());
}

TEST(CsvFile, BadRowsAreReportedWithTheirLine) {
    std::string text = kCsvText;
    text += "broken__k3_CPU, x, 1, 2, {1 1 1}, NULL, 0.1, 0, NA, NA, NA, NA, 0.1, 1\n";
    text += "short__k4_CPU, 4\n";
    text += "badsize__k5_CPU, 5, 1, 2, {1 1 1 1}, NULL, 0.1, 0, NA, NA, NA, NA, 0.1, 1\n";
    Parsed<CsvFile> parsed = ParseCsv(text);
    ASSERT_EQ(parsed.problems.size(), 3u) << parsed.Describe();
    EXPECT_EQ(parsed.problems[0].line, 20u);
    EXPECT_NE(parsed.problems[0].message.find("ExecutionOrder is 'x'"), std::string::npos);
    EXPECT_EQ(parsed.problems[1].line, 21u);
    EXPECT_NE(parsed.problems[1].message.find("2 fields"), std::string::npos);
    EXPECT_EQ(parsed.problems[2].line, 22u);
    EXPECT_EQ(parsed.file.rows.size(), 2u);  // the good rows are kept
    EXPECT_EQ(ParseCsv("").problems.size(), 2u);
    EXPECT_NE(ReadCsvFile("/nonexistent/file.csv").Describe().find("cannot open"), std::string::npos);
}

TEST(MethodName, FormatsAndParses) {
    MethodName cpu{"vector_add", 3, "CPU", std::nullopt};
    EXPECT_EQ(cpu.ToString(), "vector_add__k3_CPU");
    MethodName gpu{"my__kernel", 12, "Tahiti", 2};
    EXPECT_EQ(gpu.ToString(), "my__kernel__k12_Tahiti2");
    EXPECT_EQ(MethodName::Parse("my__kernel__k12_Tahiti2"), gpu);
    EXPECT_EQ(MethodName::Parse("vector_add__k3_CPU"), cpu);
    // A device name that ends in a digit: the headers' names say where the index starts.
    const MethodName second{"_Z5scalePfif", 1, "NVIDIA H100 80GB HBM3", 2};
    EXPECT_EQ(MethodName::Parse("_Z5scalePfif__k1_NVIDIA H100 80GB HBM32", {"Tahiti", "NVIDIA H100 80GB HBM3"}), second);
    EXPECT_EQ(MethodName::Parse(second.ToString(), {"NVIDIA H100 80GB HBM3"})->deviceIndex, 2u);
    EXPECT_EQ(MethodName::Parse("_Z5scalePfif__k1_NVIDIA H100 80GB HBM312", {"NVIDIA H100 80GB HBM3"})->deviceIndex, 12u);
    EXPECT_EQ(MethodName::Parse("_Z5scalePfif__k1_NVIDIA H100 80GB HBM32")->deviceIndex, 32u);  // without them: ambiguous
    EXPECT_FALSE(MethodName::Parse("no_suffix").has_value());
    EXPECT_FALSE(MethodName::Parse("__k1_CPU").has_value());
}

// ---- .occupancy

OccupancyFile Occupancy() {
    OccupancyFile file;
    file.session = Session();
    OccupancyRow row;
    row.threadId = 4242;
    row.kernelName = "fill_2d";
    row.deviceName = "pthread-haswell-AMD EPYC";
    row.computeUnits = 2;
    row.maxWavesPerComputeUnit = 512;
    row.maxWorkGroupsPerComputeUnit = 1;
    row.maxLds = 524288;
    row.usedLds = 0;
    row.waveSize = 8;
    row.workGroupSize = 64;
    row.wavesPerWorkGroup = 8;
    row.maxWorkGroupSize = 4096;
    row.maxWavesPerWorkGroup = 512;
    row.globalWorkSize = 1024;
    row.maxGlobalWorkSize = 18446744073709551615ull;
    row.ldsLimitedWaves = 512;
    row.workGroupLimitedWaves = 8;
    row.occupancyPercent = 1.5625;
    file.rows.push_back(row);
    OccupancyRow gpu;
    gpu.threadId = 4243;
    gpu.kernelName = "reduce";
    gpu.deviceName = "NVIDIA H100";
    gpu.computeUnits = 132;
    gpu.graphicsIpVersion = "9.0";
    gpu.simdsPerComputeUnit = 4;
    file.rows.push_back(gpu);
    return file;
}

const char* kOccupancyText =
    "# ProfilerVersion=0.1.0\n"
    "# Application=/opt/app/bin/solver\n"
    "# ApplicationArgs=--size 64 \"two words\"\n"
    "# ListSeparator=,\n"
    "# KernelCount=2\n"
    "Thread ID,Kernel Name,Device Name,Number of compute units,Max. number of wavefronts per CU,"
    "Max. number of work-group per CU,Max. number of VGPR,Max. number of SGPR,Max. amount of LDS,Number of VGPR used,"
    "Number of SGPR used,Amount of LDS used,Size of wavefront,Work-group size,Wavefronts per work-group,"
    "Max work-group size,Max wavefronts per work-group,Global work size,Maximum global work size,"
    "Nbr VGPR-limited waves,Nbr SGPR-limited waves,Nbr LDS-limited waves,Nbr of WG-limited waves,Kernel occupancy,"
    "Graphics IP Version,Number of SIMDs per CU\n"
    "4242,fill_2d,pthread-haswell-AMD EPYC,2,512,1,NA,NA,524288,NA,NA,0,8,64,8,4096,512,1024,18446744073709551615,"
    "NA,NA,512,8,1.56,NA,NA\n"
    "4243,reduce,NVIDIA H100,132,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,9.0,4\n";

TEST(OccupancyFile, WriterFollowsTheLayoutExactly) {
    EXPECT_EQ(WriteOccupancy(Occupancy()), kOccupancyText);
    EXPECT_EQ(OccupancyColumns().size(), 26u);
}

TEST(OccupancyFile, OneSeparatorThroughout) {
    OccupancyFile file = Occupancy();
    file.session.listSeparator = ';';
    const std::string text = WriteOccupancy(file);
    for (std::string_view line : SplitLines(text)) {
        if (line.front() == '#') continue;
        EXPECT_EQ(line.find(','), std::string_view::npos) << line;
        EXPECT_EQ(SplitOn(line, ';').size(), 26u) << line;
    }
    Parsed<OccupancyFile> parsed = ParseOccupancy(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.session.listSeparator, ';');
}

TEST(OccupancyFile, ReaderGivesEveryFieldBack) {
    Parsed<OccupancyFile> parsed = ParseOccupancy(kOccupancyText, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    OccupancyFile expected = Occupancy();
    expected.rows[0].occupancyPercent = 1.56;  // written with two decimals
    EXPECT_EQ(parsed.file.rows, expected.rows);
    EXPECT_EQ(parsed.file.session.profilerVersion, "0.1.0");
    EXPECT_EQ(parsed.file.session.applicationArgs, "--size 64 \"two words\"");
    EXPECT_EQ(LimitingResource(parsed.file.rows[0]), OccupancyLimiter::WorkGroup);
    EXPECT_EQ(LimitingResource(parsed.file.rows[1]), OccupancyLimiter::None);
}

TEST(OccupancyFile, ProblemsCarryTheirLine) {
    std::string text = kOccupancyText;
    text.replace(text.find("# KernelCount=2"), 15, "# KernelCount=3");
    Parsed<OccupancyFile> parsed = ParseOccupancy(text);
    ASSERT_EQ(parsed.problems.size(), 1u);
    EXPECT_EQ(parsed.problems[0].line, 5u);

    std::string badPercent = kOccupancyText;
    badPercent.replace(badPercent.find(",1.56,"), 6, ",156.0,");
    parsed = ParseOccupancy(badPercent);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.problems[0].line, 7u);
    EXPECT_NE(parsed.problems[0].message.find("Kernel occupancy"), std::string::npos);

    std::string wrongColumns = kOccupancyText;
    wrongColumns.replace(wrongColumns.find("Kernel Name"), 11, "Kernel");
    EXPECT_EQ(ParseOccupancy(wrongColumns).problems.at(0).line, 6u);
}

TEST(TextFields, NumbersAndFields) {
    EXPECT_EQ(PadRight("ab", 4), "ab  ");
    EXPECT_EQ(PadRight("abcd", 4), "abcd ");
    EXPECT_EQ(FormatFixed(0.012345, 15, 5), "        0.01235");
    EXPECT_EQ(FormatUnsigned(7, 5), "    7");
    EXPECT_EQ(ParseUnsigned("18446744073709551615"), UINT64_MAX);
    EXPECT_FALSE(ParseUnsigned("18446744073709551616").has_value());
    EXPECT_FALSE(ParseUnsigned("-1").has_value());
    EXPECT_FALSE(ParseUnsigned(" 1").has_value());
    EXPECT_EQ(ParseSigned("-42"), -42);
    EXPECT_EQ(ParseDouble("1.5e3"), 1500.0);
    EXPECT_FALSE(ParseDouble("nan").has_value());
    EXPECT_FALSE(ParseDouble("1.5x").has_value());
    EXPECT_EQ(ParseHexOrDecimal("0x1F"), 31u);
    EXPECT_EQ(HexHandle(0x0B69F8C0), "0x000000000B69F8C0");
    EXPECT_EQ(DecodeSpaces(EncodeSpaces("a b")), "a b");
    EXPECT_EQ(SplitLines("a\r\nb\nc").size(), 3u);
}

}  // namespace
}  // namespace gpaprof
