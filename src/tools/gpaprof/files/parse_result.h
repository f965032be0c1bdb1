// What a reader gives back: the file as far as it could be read, and every problem with its line.
// Readers never throw and never crash on bad input; a problem in one line is reported and reading goes
// on with the next line where the layout allows it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpaprof {

struct ParseProblem {
    size_t line = 0;  // 1-based; 0 when the problem concerns the whole file
    std::string message;
};

struct ReadOptions {
    // Also check what only gpaprof's writers guarantee: field widths, number formats, the one space
    // after each separator. Used by the tests to check files field by field against the layouts.
    bool strictLayout = false;
};

template <typename File>
struct Parsed {
    File file;
    std::vector<ParseProblem> problems;

    bool ok() const { return problems.empty(); }
    // All problems, one per line, "line N: message".
    std::string Describe() const {
        std::string text;
        for (const ParseProblem& problem : problems) {
            text += problem.line ? "line " + std::to_string(problem.line) + ": " : std::string("file: ");
            text += problem.message;
            text += '\n';
        }
        return text;
    }
};

}  // namespace gpaprof
