// A real profile kept as test data: gpaprof -t -p -O on tests/tools/gpaprof/apps/multi_kernel_threads
// (PoCL, 3 threads x 2 iterations of 5 kernels). The files must read without a problem, and the report's
// numbers must agree with what the program does. (real_trace_test.sh does the same with a fresh run.)
#include <gtest/gtest.h>

#include "html_check.h"
#include "json_value.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {
namespace {

using namespace testing;

ReportInputs RealInputs() {
    const std::string base = std::string(REPORT_TEST_DATA_DIR) + "/multi_kernel_threads";
    return LoadReportInputs({base + ".atp", base + ".csv", base + ".occupancy"});
}

TEST(RealTrace, ReadsWithoutProblems) {
    const ReportInputs inputs = RealInputs();
    EXPECT_TRUE(inputs.failures.empty());
    for (const InputProblem& problem : inputs.problems) ADD_FAILURE() << FormatProblem(problem);
    ASSERT_TRUE(inputs.atp && inputs.csv && inputs.occupancy);
}

TEST(RealTrace, SummariesMatchTheProgram) {
    const ReportInputs inputs = RealInputs();
    const Report report = BuildReport(inputs);
    ASSERT_EQ(report.apis.size(), 1u);
    EXPECT_EQ(report.apis[0].calls, 242u);
    EXPECT_EQ(report.apis[0].threads, 4u);
    EXPECT_EQ(report.apis[0].failures, 0u);
    // Five kernels, each dispatched by 3 threads x 2 iterations.
    ASSERT_EQ(report.kernels.kernels.size(), 5u);
    for (const KernelStats& kernel : report.kernels.kernels) {
        EXPECT_EQ(kernel.calls, 6u) << kernel.name;
        EXPECT_GT(kernel.totalNs, 0u) << kernel.name;
        // vector_add is enqueued without a work-group size: its occupancy cannot be computed (NA).
        EXPECT_EQ(kernel.occupancyPercent.has_value(), kernel.name != "vector_add") << kernel.name;
    }
    EXPECT_EQ(report.kernels.dispatches, 30u);
    EXPECT_EQ(report.kernels.dispatches, inputs.csv->rows.size());
    EXPECT_EQ(report.transfers.transfers, 48u);
    // One context, three queues (one per worker thread).
    ASSERT_EQ(report.contexts.size(), 1u);
    EXPECT_EQ(report.contexts[0].queues.size(), 3u);
    EXPECT_EQ(report.timeline.markers.size(), 7u);  // "setup" and 6 "iteration"
    for (const CheckResult& check : report.checks) {
        if (check.id == "leaks" || check.id == "failed-calls" || check.id == "deprecated-calls" ||
            check.id == "redundant-sync") {
            EXPECT_EQ(check.status, CheckStatus::Passed) << check.id;
        }
    }
}

TEST(RealTrace, PageAndExportAreValid) {
    const ReportInputs inputs = RealInputs();
    const Report report = BuildReport(inputs);
    EXPECT_EQ(HtmlProblem(WriteHtmlReport(report)), "");
    std::string error;
    std::optional<JsonValue> json = ParseJson(WriteTraceEvents(report), &error);
    ASSERT_TRUE(json) << error;
    EXPECT_GT(json->Find("traceEvents")->array.size(), 300u);
}

}  // namespace
}  // namespace gpaprof::report
