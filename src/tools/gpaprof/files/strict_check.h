// Strict layout checking: a file read back and written again by gpaprof's writer must give the same
// lines. Every line that differs is a layout problem, reported with its line number.
#pragma once

#include <string_view>
#include <vector>

#include "tools/gpaprof/files/parse_result.h"

namespace gpaprof {

void CompareWithLayout(std::string_view actual, std::string_view expected, std::vector<ParseProblem>* problems);

}  // namespace gpaprof
