// The summary pages as plain text for a terminal: API summary, top kernels, top transfers and the
// best-practice checks that fired (what `gpaprof-report` prints when no output file is asked for).
#pragma once

#include <string>
#include <vector>

#include "tools/gpaprof/report/report.h"

namespace gpaprof::report {

std::string WriteTextSummary(const Report& report);

// Rows as text columns padded to the widest cell, each line indented by two spaces; the first column
// left-aligned, the others right-aligned.
std::string FormatColumns(const std::vector<std::vector<std::string>>& rows);

}  // namespace gpaprof::report
