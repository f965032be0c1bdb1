// Everything the summary pages show, computed once from the inputs: the timeline, the API, context,
// kernel and transfer summaries and the best-practice checks. The HTML page, the text summary and the
// Perfetto export are views of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/report/api_summary.h"
#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/context_summary.h"
#include "tools/gpaprof/report/kernel_summary.h"
#include "tools/gpaprof/report/pm_kernel_windows.h"
#include "tools/gpaprof/report/pm_sampling_summary.h"
#include "tools/gpaprof/report/report_inputs.h"
#include "tools/gpaprof/report/timeline.h"
#include "tools/gpaprof/report/transfer_summary.h"

namespace gpaprof::report {

struct Report {
    const ReportInputs* inputs = nullptr;  // the report points into it: keep it alive
    SessionInfo session;                   // from the .atp, else the .csv, the .occupancy, the .pmsampling.csv
    std::string title;                     // session name, else the application's file name
    Timeline timeline;                     // empty without a .atp
    std::vector<ApiSummary> apis;
    std::vector<ContextStats> contexts;
    KernelSummary kernels;
    TransferSummary transfers;
    std::vector<CheckResult> checks;       // empty without a .atp
    std::vector<PmDeviceSummary> pmSampling;  // per sampled device; empty without a .pmsampling.csv
    std::optional<PmKernelWindows> pmKernels;  // with a .atp holding kernel timestamps and a .pmsampling.csv
    std::vector<std::string> notes;        // what the report could not show, and why
};

// The report points into `inputs` (the trace's and the samples' records): keep them while the report is used (a
// temporary lives only to the end of its full expression).
Report BuildReport(const ReportInputs& inputs);

}  // namespace gpaprof::report
