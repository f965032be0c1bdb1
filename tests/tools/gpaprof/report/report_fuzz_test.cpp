// Damaged inputs all the way through: the fixtures' files with lines deleted, repeated and swapped and
// characters and numbers changed, read, summarised, checked and written as a page and a Perfetto file.
// Nothing may crash (the sanitizer build runs this too), and what is written must stay valid.
#include <gtest/gtest.h>

#include <random>

#include "html_check.h"
#include "json_value.h"
#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/text_report.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {
namespace {

using namespace testing;

std::string Mutate(const std::string& text, std::mt19937_64* random) {
    std::vector<std::string> lines;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    const char* replacements[] = {"0", "18446744073709551615", "99999999999999999999", "-1", "NA", "NULL", "{}", "[",
                                  "=====ocl Timestamp Output=====", "clEndPerfMarker 5", "1e308", "nan", "\xff", " "};
    const int edits = 1 + static_cast<int>((*random)() % 6);
    for (int e = 0; e < edits && !lines.empty(); ++e) {
        const size_t line = (*random)() % lines.size();
        switch ((*random)() % 6) {
            case 0: lines.erase(lines.begin() + static_cast<long>(line)); break;
            case 1: lines.insert(lines.begin() + static_cast<long>(line), lines[line]); break;
            case 2: std::swap(lines[line], lines[(*random)() % lines.size()]); break;
            case 3:
                if (!lines[line].empty()) lines[line][(*random)() % lines[line].size()] = static_cast<char>((*random)() % 256);
                break;
            default: {
                // Replace one whitespace-separated field.
                std::string& target = lines[line];
                const size_t at = target.empty() ? 0 : (*random)() % target.size();
                const size_t from = target.rfind(' ', at) == std::string::npos ? 0 : target.rfind(' ', at) + 1;
                size_t to = target.find(' ', at);
                if (to == std::string::npos) to = target.size();
                target.replace(from, to - from, replacements[(*random)() % (sizeof replacements / sizeof *replacements)]);
            }
        }
    }
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

TEST(ReportFuzz, DamagedFilesNeverCrashAndOutputsStayValid) {
    const std::string atp = WriteAtp(OpenClFixture());
    const std::string cuda = WriteAtp(CudaFixture());
    const std::string csv = WriteCsv(CsvFixture());
    const std::string occupancy = WriteOccupancy(OccupancyFixture());
    std::mt19937_64 random(20240601);
    for (int round = 0; round < 400; ++round) {
        const ReportInputs inputs = ParseReportInputs({{"f.atp", Mutate(round % 2 ? atp : cuda, &random)},
                                                       {"f.csv", Mutate(csv, &random)},
                                                       {"f.occupancy", Mutate(occupancy, &random)}});
        const Report report = BuildReport(inputs);
        const std::string html = WriteHtmlReport(report);
        ASSERT_EQ(HtmlProblem(html), "") << "round " << round;
        std::string error;
        ASSERT_TRUE(ParseJson(ScriptContent(html, "id=\"gpaprof-data\""), &error)) << "round " << round << ": " << error;
        ASSERT_TRUE(ParseJson(WriteTraceEvents(report), &error)) << "round " << round << ": " << error;
        EXPECT_FALSE(WriteTextSummary(report).empty());
    }
}

}  // namespace
}  // namespace gpaprof::report
