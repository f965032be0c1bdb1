#include "tools/gpaprof/report/report.h"

namespace gpaprof::report {

Report BuildReport(const ReportInputs& inputs) {
    Report report;
    report.inputs = &inputs;
    if (inputs.atp) report.session = inputs.atp->session;
    else if (inputs.csv) report.session = inputs.csv->session;
    else if (inputs.occupancy) report.session = inputs.occupancy->session;
    else if (inputs.pmSampling) report.session = inputs.pmSampling->session;
    report.title = report.session.displayName;
    if (report.title.empty()) {
        const std::string& application = report.session.application;
        const size_t slash = application.find_last_of('/');
        report.title = slash == std::string::npos ? application : application.substr(slash + 1);
    }
    if (report.title.empty()) report.title = "gpaprof session";

    if (inputs.atp) {
        report.timeline = BuildTimeline(*inputs.atp);
        report.apis = SummarizeApis(report.timeline);
        report.contexts = SummarizeContexts(report.timeline);
        report.transfers = SummarizeTransfers(report.timeline);
        report.checks = RunBestPracticeChecks(
            CheckInput{*inputs.atp, report.timeline, inputs.occupancy ? &*inputs.occupancy : nullptr});
        report.notes = report.timeline.notes;
    } else {
        report.notes.push_back("no trace (.atp) given: the timeline, API summary, data transfers and best-practice "
                               "checks need one (gpaprof -t)");
    }
    report.kernels = SummarizeKernels(inputs.atp ? &report.timeline : nullptr, inputs.csv ? &*inputs.csv : nullptr,
                                      inputs.occupancy ? &*inputs.occupancy : nullptr);
    if (report.kernels.source == KernelSummary::Source::CounterFile) {
        report.notes.push_back("kernel times come from the .csv Time column (the trace has no kernel times)");
    }
    if (inputs.pmSampling) report.pmSampling = SummarizePmSampling(*inputs.pmSampling);
    if (inputs.atp && inputs.pmSampling) report.pmKernels = IntegrateKernelWindows(*inputs.atp, *inputs.pmSampling);
    return report;
}

}  // namespace gpaprof::report
