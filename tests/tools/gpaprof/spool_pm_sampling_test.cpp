// --pm-sampling from the spool to <out>.pmsampling.csv: the assembly of 'G' and 'H' records (two devices with
// different metrics, samples out of order, an overlap left out, NA values, the replay and dropped-before flags), and
// the file gpaprof writes for a process, read back strictly (src/tools/gpaprof/spool/spool_pm_sampling.cpp,
// process_files.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/spool/process_files.h"
#include "tools/gpaprof/spool/spool_assembler.h"

namespace gpaprof {
namespace {

constexpr std::optional<double> NA = std::nullopt;

// Written by hand, as the CUDA part writes them: a process, two devices (the second without one metric of the
// first and with one of its own, the same metric left out), their samples interleaved, device 0's out of order.
const char* const kSpool =
    "P\t42\t1\t/bin/app\t--size 4\t/work\t/out/base\t1\n"
    "G\t0\tNVIDIA H200\tGH100\t100000\t2\tdram__bytes_read.sum\tsm__cycles_active.avg.pct_of_peak_sustained_elapsed\t"
    "1\tnvlrx__bytes.sum: GH100 has no nvlrx__bytes that PM sampling can read\n"
    "H\t0\t1000\t101000\t0\t0\t2\t1048576\t12.5\n"
    "G\t1\tNVIDIA H100 80GB HBM3\tGH100\t100000\t2\tlts__t_bytes.sum\tdram__bytes_read.sum\t"
    "1\tnvlrx__bytes.sum: GH100 has no nvlrx__bytes that PM sampling can read\n"
    "H\t1\t1050\t101050\t0\t0\t2\t4096\t-\n"
    "H\t0\t201000\t301000\t1\t0\t2\t0\t0.5\n"          // dropped before; drained before the one that precedes it
    "H\t0\t101000\t201000\t0\t1\t2\t2048\t99.75\n"     // replay; starts where the first ended
    "H\t0\t150000\t250000\t0\t0\t2\t1\t1\n"             // overlaps 101000..201000: left out
    "H\t1\t101050\t201050\t0\t0\t2\t-\t-\n"
    "H\t2\t1000\t2000\t0\t0\t1\t5\n"                    // a device without a 'G' record: left out
    "H\t1\t201050\t301050\t0\t0\t1\t5\n"                // one value for two metrics: left out
    "H\t0\t400000\t399000\t0\t0\t2\t1\t1\n";           // ends before it starts: left out

AssemblyOptions Options() {
    AssemblyOptions options;
    options.profilerVersion = "1.2.3";
    options.displayName = "base";
    options.osVersion = "Linux Build 6.1.0";
    options.listSeparator = ';';
    return options;
}

PmSamplingFile Expected() {
    PmSamplingFile file;
    file.session.profilerVersion = "1.2.3";
    file.session.application = "/bin/app";
    file.session.applicationArgs = "--size 4";
    file.session.workingDirectory = "/work";
    file.session.osVersion = "Linux Build 6.1.0";
    file.session.displayName = "base";
    file.session.listSeparator = ';';
    file.intervalNs = 100000;
    file.devices = {{0, "NVIDIA H200", "GH100"}, {1, "NVIDIA H100 80GB HBM3", "GH100"}};
    file.metrics = {"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "lts__t_bytes.sum"};
    file.leftOut = {{"nvlrx__bytes.sum", "GH100 has no nvlrx__bytes that PM sampling can read"}};
    file.rows = {
        {0, 1000, 101000, false, false, {1048576, 12.5, NA}},
        {1, 1050, 101050, false, false, {NA, NA, 4096}},
        {0, 101000, 201000, false, true, {2048, 99.75, NA}},
        {0, 201000, 301000, true, false, {0, 0.5, NA}},
        {1, 101050, 201050, false, false, {NA, NA, NA}},
    };
    return file;
}

TEST(SpoolPmSampling, DevicesColumnsAndSamplesInTheirOrder) {
    for (const size_t threads : {1, 3}) {  // read in stretches on several threads: the same
        AssemblyOptions options = Options();
        options.threads = threads;
        const AssembledProcess assembled = AssembleSpool(kSpool, options, nullptr);
        ASSERT_TRUE(assembled.pmSampling.has_value());
        EXPECT_EQ(*assembled.pmSampling, Expected()) << WritePmSampling(*assembled.pmSampling);
        EXPECT_EQ(assembled.badRecords, 0u);
        EXPECT_EQ(assembled.pmSamplingProblems,
                  (std::vector<std::string>{
                      "PM sampling: 1 sample of device 2 left out: the spool has no 'G' record of that device",
                      "PM sampling: 1 sample of device 1 left out: each has another number of values than the device "
                      "has metrics",
                      "PM sampling: 1 sample of device 0 left out: each ends before it starts",
                      "PM sampling: 1 sample of device 0 left out: each starts before the end of the device's previous "
                      "sample"}));
    }
}

TEST(SpoolPmSampling, NoRecordsNoFile) {
    const AssembledProcess assembled = AssembleSpool("P\t42\t1\t/bin/app\t\t/work\t/out/base\t1\n", Options(), nullptr);
    EXPECT_FALSE(assembled.pmSampling.has_value());
    EXPECT_TRUE(assembled.pmSamplingProblems.empty());
}

// A device whose sampler was started again with other metrics: each sample reads through the 'G' record before it;
// a sample written before its device's first 'G' record reads through that record.
TEST(SpoolPmSampling, EachSampleReadsThroughItsDevicesLastRecordBeforeIt) {
    const std::string text =
        "H\t0\t0\t10\t0\t0\t1\t7\n"
        "G\t0\tNVIDIA H200\tGH100\t100000\t1\ta__x.sum\t0\n"
        "H\t0\t10\t20\t0\t0\t1\t1\n"
        "G\t0\tNVIDIA H200\tGH100\t100000\t2\tb__y.sum\ta__x.sum\t1\tc__z.sum: why\n"
        "H\t0\t20\t30\t0\t0\t2\t2\t3\n";
    const AssembledProcess assembled = AssembleSpool(text, AssemblyOptions(), nullptr);
    ASSERT_TRUE(assembled.pmSampling.has_value());
    const PmSamplingFile& file = *assembled.pmSampling;
    EXPECT_EQ(file.devices, (std::vector<PmSamplingDevice>{{0, "NVIDIA H200", "GH100"}}));
    EXPECT_EQ(file.metrics, (std::vector<std::string>{"a__x.sum", "b__y.sum"}));
    EXPECT_EQ(file.leftOut, (std::vector<PmSamplingLeftOut>{{"c__z.sum", "why"}}));
    ASSERT_EQ(file.rows.size(), 3u);
    EXPECT_EQ(file.rows[0].values, (std::vector<std::optional<double>>{7, NA}));
    EXPECT_EQ(file.rows[1].values, (std::vector<std::optional<double>>{1, NA}));
    EXPECT_EQ(file.rows[2].values, (std::vector<std::optional<double>>{3, 2}));
    EXPECT_TRUE(assembled.pmSamplingProblems.empty());
}

class PmSamplingProcessFiles : public testing::Test {
protected:
    void SetUp() override {
        directory_ = testing::TempDir() + "/gpaprof_pm_sampling_" + std::to_string(getpid());
        std::filesystem::create_directories(directory_);
    }
    void TearDown() override { std::filesystem::remove_all(directory_); }
    ProcessFiles Write(const std::string& spoolText, bool severalProcesses = false) {
        const std::string spool = directory_ + "/42.spool";
        std::ofstream(spool) << spoolText;
        AssemblyOptions options = Options();
        options.skipIfNothingRecorded = severalProcesses;
        return WriteProcessFiles(spool, base(), options, nullptr);
    }
    std::string base() const { return directory_ + "/out/base"; }
    std::string directory_;
};

TEST_F(PmSamplingProcessFiles, TheFileIsWrittenAndReadsBackStrictlyTheSame) {
    const ProcessFiles files = Write(kSpool);
    const std::string path = base() + ".pmsampling.csv";
    EXPECT_EQ(files.written, std::vector<std::string>{path});
    EXPECT_EQ(files.summaries, std::vector<std::string>{path + " (5 samples, 2 devices)"});
    EXPECT_FALSE(files.nothingRecorded);
    ASSERT_EQ(files.problems.size(), 4u) << "the samples left out, counted";
    EXPECT_EQ(files.problems[0].rfind("process 42 (app): PM sampling: 1 sample of device 2 left out", 0), 0u)
        << files.problems[0];
    const Parsed<PmSamplingFile> read = ReadPmSamplingFile(path, {true});
    EXPECT_EQ(read.Describe(), "");
    EXPECT_EQ(read.file, Expected());
    ASSERT_TRUE(files.assembled.pmSampling.has_value());
    EXPECT_EQ(read.file, *files.assembled.pmSampling);
}

// The files of the other modes are not asked for here: the process has its PM samples only, and they count as
// recorded among several processes.
TEST_F(PmSamplingProcessFiles, SamplesAloneAreARecordingAmongSeveralProcesses) {
    const ProcessFiles files = Write(kSpool, true);
    EXPECT_FALSE(files.nothingRecorded);
    EXPECT_EQ(files.written, std::vector<std::string>{base() + ".pmsampling.csv"});
}

TEST_F(PmSamplingProcessFiles, NoSampleNoFile) {
    const std::string deviceOnly = "P\t42\t1\t/bin/app\t\t/work\t/out/base\t1\n"
                                   "G\t0\tNVIDIA H200\tGH100\t100000\t1\tdram__bytes_read.sum\t0\n";
    for (const bool several : {false, true}) {
        const ProcessFiles files = Write(deviceOnly, several);
        EXPECT_TRUE(files.written.empty());
        EXPECT_TRUE(files.nothingRecorded);
        EXPECT_FALSE(std::filesystem::exists(base() + ".pmsampling.csv"));
        if (!several) {
            EXPECT_EQ(files.notes, std::vector<std::string>{"process 42 (app): PM sampling of device 0 (NVIDIA H200) "
                                                            "recorded no sample: no .pmsampling.csv written for it"});
        }
    }
    const ProcessFiles none = Write("P\t42\t1\t/bin/app\t\t/work\t/out/base\t1\n");
    EXPECT_TRUE(none.written.empty());
    EXPECT_TRUE(none.notes.empty());
    EXPECT_FALSE(std::filesystem::exists(base() + ".pmsampling.csv"));
}

// What assembly could not use is said (gpaprof warns with each problem), not only counted: an unreadable line.
TEST_F(PmSamplingProcessFiles, UnreadableSpoolLinesAreProblemsGpaprofSays) {
    const ProcessFiles files = Write(std::string(kSpool) + "H\tnot a number\n", false);
    bool said = false;
    for (const std::string& problem : files.problems) said = said || problem.find("unreadable") != std::string::npos;
    EXPECT_TRUE(said) << (files.problems.empty() ? "no problem" : files.problems[0]);
    EXPECT_EQ(files.written, std::vector<std::string>{base() + ".pmsampling.csv"}) << "the readable lines still make the file";
}

}  // namespace
}  // namespace gpaprof
