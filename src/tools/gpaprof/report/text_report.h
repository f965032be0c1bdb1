// The summary pages as plain text for a terminal: API summary, top kernels, top transfers and the
// best-practice checks that fired (what `gpaprof-report` prints when no output file is asked for).
#pragma once

#include <string>

#include "tools/gpaprof/report/report.h"

namespace gpaprof::report {

std::string WriteTextSummary(const Report& report);

}  // namespace gpaprof::report
