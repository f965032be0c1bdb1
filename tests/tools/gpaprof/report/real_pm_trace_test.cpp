// A real PM-sampling run kept as test data: gpaprof -t --pm-sampling on tests/tools/gpaprof/cuda_apps/pm_phases
// (an NVIDIA H200, 2026-11-28, 100 us: 4 pairs of a memory-bound kernel writing 1 GiB 20 times over, about 5 ms, and
// a compute-bound kernel of FMAs in registers, about 5.3 ms). The files must read without a problem, and each
// kernel's window must look like its kind: the memory kernels' 20 GiB and DRAM-bound, the compute kernels' issue rate
// high and their DRAM traffic near nothing.
#include <gtest/gtest.h>

#include <string>

#include "html_check.h"
#include "json_value.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/pm_kernel_windows.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {
namespace {

using namespace testing;

ReportInputs PhasesInputs() {
    const std::string base = std::string(REPORT_TEST_DATA_DIR) + "/pm_phases";
    return LoadReportInputs({base + ".atp", base + ".pmsampling.csv"});
}

std::optional<double> Value(const PmKernelWindows& windows, const PmKernelWindow& kernel, const std::string& metric) {
    for (size_t m = 0; m < windows.metrics.size(); ++m) {
        if (windows.metrics[m].metric == metric) return kernel.values[m];
    }
    return std::nullopt;
}

TEST(RealPmTrace, ReadsWithoutProblems) {
    const ReportInputs inputs = PhasesInputs();
    EXPECT_TRUE(inputs.failures.empty());
    for (const InputProblem& problem : inputs.problems) ADD_FAILURE() << FormatProblem(problem);
    ASSERT_TRUE(inputs.atp && inputs.pmSampling);
    EXPECT_EQ(inputs.pmSampling->intervalNs, 100000u);
    ASSERT_EQ(inputs.pmSampling->devices.size(), 1u);
    EXPECT_EQ(inputs.pmSampling->rows.size(), 748u);
    for (const PmSample& sample : inputs.pmSampling->rows) EXPECT_FALSE(sample.droppedBefore || sample.replay);
}

TEST(RealPmTrace, EachKernelsWindowLooksLikeItsKind) {
    const ReportInputs inputs = PhasesInputs();
    ASSERT_TRUE(inputs.atp && inputs.pmSampling);
    const std::optional<PmKernelWindows> windows = IntegrateKernelWindows(*inputs.atp, *inputs.pmSampling);
    ASSERT_TRUE(windows);
    ASSERT_EQ(windows->kernels.size(), 8u);
    int memory = 0, compute = 0;
    for (const PmKernelWindow& kernel : windows->kernels) {
        EXPECT_EQ(kernel.quality, gpa::pm_sampling::WindowQuality::Measured) << kernel.name << ": " << kernel.why;
        const std::optional<double> writes = Value(*windows, kernel, "dram__bytes_write.sum");  // per second
        const std::optional<double> ipc = Value(*windows, kernel, "sm__inst_executed_realtime.avg.per_cycle_elapsed");
        ASSERT_TRUE(writes && ipc) << kernel.name;
        const double written = *writes * double(kernel.duration()) / 1e9;
        if (kernel.name.find("MemoryPhase") != std::string::npos) {
            ++memory;
            EXPECT_NEAR(written / (20.0 * double(1ull << 30)), 1.0, 0.05) << kernel.name << " at " << kernel.startNs;
            EXPECT_LT(*ipc, 1.0) << kernel.name;
        } else {
            ++compute;
            EXPECT_LT(written, 0.01 * 20.0 * double(1ull << 30)) << kernel.name;
            EXPECT_GT(*ipc, 3.0) << kernel.name;
        }
    }
    EXPECT_EQ(memory, 4);
    EXPECT_EQ(compute, 4);
}

TEST(RealPmTrace, PageAndExportHoldTheSamples) {
    const ReportInputs inputs = PhasesInputs();  // the report points into its inputs: kept alive
    const Report report = BuildReport(inputs);
    EXPECT_EQ(HtmlProblem(WriteHtmlReport(report)), "");
    std::string error;
    std::optional<JsonValue> json = ParseJson(WriteTraceEvents(report), &error);
    ASSERT_TRUE(json) << error;
    size_t counterEvents = 0;
    for (const JsonValue& event : json->Find("traceEvents")->array) {
        const JsonValue* phase = event.Find("ph");
        counterEvents += phase && phase->string == "C";
    }
    EXPECT_GE(counterEvents, 748u) << "a counter event per sample at least";
}

}  // namespace
}  // namespace gpaprof::report
