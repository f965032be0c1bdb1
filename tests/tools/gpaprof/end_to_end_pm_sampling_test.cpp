// gpaprof --pm-sampling and --pm-metrics end to end, without a GPU: agent/pm_records_app.cpp writes the records the
// CUDA part's sampler writes, through the agent gpaprof configured; everything of gpaprof's own is real (options,
// configuration, spool, assembly, <out>.pmsampling.csv, the -T and --perfetto views, the metric names' check).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "profiled_run.h"
#include "tools/gpaprof/files/pm_sampling_file.h"

namespace gpaprof {
namespace {

using testing::Execute;
using testing::Outcome;
using testing::ReadAll;

class GpaprofPmSampling : public testing::ProfiledRunTest {
protected:
    void SetUp() override { MakeDirectory("gpaprof-pm-sampling"); }

    Outcome Profile(std::vector<std::string> options, const std::string& samples) {
        std::vector<std::string> command = {GPAPROF_EXECUTABLE, "-o", "run"};
        command.insert(command.end(), options.begin(), options.end());
        command.insert(command.end(), {"--", GPAPROF_PM_RECORDS_APP, samples});
        Outcome outcome = Execute(command, directory_);
        if (outcome.err.find("cannot profile") != std::string::npos) {
            skip_ = "gpaprof cannot profile here: " + outcome.err;
        }
        return outcome;
    }

    PmSamplingFile ReadPmSampling() {
        Parsed<PmSamplingFile> parsed = ReadPmSamplingFile(Path("run.pmsampling.csv"), {true});
        EXPECT_TRUE(parsed.ok()) << parsed.Describe();
        return parsed.file;
    }

    std::string skip_;
};

TEST_F(GpaprofPmSampling, TraceAndSamplesWithTheirViews) {
    const Outcome run = Profile({"-t", "--pm-sampling=50us", "-T", "--perfetto"}, "20");
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out.rfind("interval 50000 metrics default\n", 0), 0u) << run.out;
    EXPECT_NE(run.err.find("(API trace, PM sampling every 50us;"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("/run.pmsampling.csv (20 samples, 1 device)"), std::string::npos) << run.err;
    const PmSamplingFile file = ReadPmSampling();
    EXPECT_EQ(file.intervalNs, 50000u);
    EXPECT_EQ(file.devices, (std::vector<PmSamplingDevice>{{0, "NVIDIA H200", "GH100"}}));
    EXPECT_EQ(file.metrics,
              (std::vector<std::string>{"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"}));
    EXPECT_EQ(file.leftOut.size(), 1u);
    EXPECT_EQ(file.session.displayName, "run");
    ASSERT_EQ(file.rows.size(), 20u);
    for (size_t i = 0; i < file.rows.size(); ++i) {
        const PmSample& row = file.rows[i];
        EXPECT_EQ(row.endNs - row.startNs, 50000u);
        EXPECT_EQ(row.values[0], 1024.0 * static_cast<double>(i));
        EXPECT_EQ(row.values[1], i % 3 == 2 ? std::nullopt : std::optional<double>(static_cast<double>(i) + 0.5));
        EXPECT_EQ(row.droppedBefore, i == 5);
        EXPECT_EQ(row.replay, i >= 18);
    }
    EXPECT_TRUE(std::filesystem::exists(Path("run.atp")));
    // The samples as counter tracks beside the trace, and in the page.
    const std::string json = ReadAll(Path("run.json"));
    EXPECT_NE(json.find("\"ph\":\"C\""), std::string::npos);
    EXPECT_NE(json.find("NVIDIA H200 (GH100) device 0: PM sampling"), std::string::npos);
    EXPECT_NE(ReadAll(Path("run.html")).find("PM sampling"), std::string::npos);
}

// PM sampling is a mode of its own: no trace, no other file. The metrics asked for reach the agent in order.
TEST_F(GpaprofPmSampling, MetricsAloneSampleWithoutATrace) {
    const Outcome run = Profile({"--pm-metrics", "lts__t_bytes.sum,dram__bytes_read.sum"}, "3");
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, "interval 100000 metrics lts__t_bytes.sum,dram__bytes_read.sum\n");
    EXPECT_EQ(run.err.find("no mode given"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(Path("run.atp")));
    EXPECT_EQ(ReadPmSampling().metrics, (std::vector<std::string>{"lts__t_bytes.sum", "dram__bytes_read.sum"}));
}

TEST_F(GpaprofPmSampling, NoSampleNoFile) {
    const Outcome run = Profile({"--pm-sampling"}, "0");
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, "interval 100000 metrics default\n");
    EXPECT_FALSE(std::filesystem::exists(Path("run.pmsampling.csv")));
    EXPECT_NE(run.err.find("PM sampling of device 0 (NVIDIA H200) recorded no sample: no .pmsampling.csv written"),
              std::string::npos)
        << run.err;
}

// A process that used no NVIDIA device through CUDA (an OpenCL program on PoCL): no file, and gpaprof says why.
TEST_F(GpaprofPmSampling, NothingSampledIsSaid) {
    const Outcome run = Profile({"--pm-sampling"}, "-1");
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_FALSE(std::filesystem::exists(Path("run.pmsampling.csv")));
    EXPECT_NE(run.err.find("--pm-sampling: no process made a CUDA context on an NVIDIA GPU"), std::string::npos) << run.err;
    const Outcome sampled = Profile({"--pm-sampling"}, "3");
    EXPECT_EQ(sampled.err.find("no process made a CUDA context"), std::string::npos) << sampled.err;
}

// Refused before the application starts: exit 2, nothing run.
TEST_F(GpaprofPmSampling, BadIntervalsAndMetricNamesStopGpaprof) {
    for (const std::vector<std::string>& options : {std::vector<std::string>{"--pm-sampling=10ns"},
                                                    std::vector<std::string>{"--pm-sampling=fast"},
                                                    std::vector<std::string>{"--pm-sampling", "5us"},
                                                    std::vector<std::string>{"--pm-sampling=10us"},
                                                    std::vector<std::string>{"-p", "--pm-sampling"},
                                                    std::vector<std::string>{"--pm-metrics", "dram__bytes_read.sum", "-p"}}) {
        const Outcome run = Profile(options, "3");
        EXPECT_EQ(run.exitCode, 2) << options[0] << ": " << run.err;
        EXPECT_EQ(run.out, "") << "the application did not run";
    }
    const Outcome typo = Profile({"--pm-metrics", "dram__bytes_red.sum"}, "3");
    if (typo.err.find("not checked") != std::string::npos) GTEST_SKIP() << "no CUPTI here: " << typo.err;
    EXPECT_EQ(typo.exitCode, 2) << typo.err;
    EXPECT_EQ(typo.out, "");
    EXPECT_NE(typo.err.find("did you mean dram__bytes_read.sum"), std::string::npos) << typo.err;
}

}  // namespace
}  // namespace gpaprof
