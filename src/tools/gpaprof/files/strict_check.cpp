#include "tools/gpaprof/files/strict_check.h"

#include <string>

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {

void CompareWithLayout(std::string_view actual, std::string_view expected, std::vector<ParseProblem>* problems) {
    const std::vector<std::string_view> actualLines = SplitLines(actual);
    const std::vector<std::string_view> expectedLines = SplitLines(expected);
    constexpr size_t kMaxReported = 20;
    size_t reported = 0;
    const size_t common = std::min(actualLines.size(), expectedLines.size());
    for (size_t i = 0; i < common && reported < kMaxReported; ++i) {
        if (actualLines[i] == expectedLines[i]) continue;
        // Point at the first differing column, which is what a reader of the message needs.
        size_t column = 0;
        while (column < actualLines[i].size() && column < expectedLines[i].size() &&
               actualLines[i][column] == expectedLines[i][column]) {
            ++column;
        }
        problems->push_back({i + 1, "differs from the layout at column " + std::to_string(column + 1) + ": found '" +
                                        std::string(actualLines[i]) + "', the layout writes '" +
                                        std::string(expectedLines[i]) + "'"});
        ++reported;
    }
    if (actualLines.size() != expectedLines.size()) {
        problems->push_back({common + 1, "the file has " + std::to_string(actualLines.size()) +
                                             " lines, its content written in the layout has " +
                                             std::to_string(expectedLines.size())});
    }
    if (!actual.empty() && actual.back() != '\n') {
        problems->push_back({actualLines.size(), "the last line does not end with a line break"});
    }
}

}  // namespace gpaprof
