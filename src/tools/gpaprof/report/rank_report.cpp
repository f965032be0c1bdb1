#include "tools/gpaprof/report/rank_report.h"

#include <algorithm>
#include <map>
#include <thread>

#include "tools/gpaprof/report/rank_files.h"

namespace gpaprof::report {
namespace {

// What one file gave, before the rows are put in rank order.
struct RankRead {
    bool read = false;
    RankRow row;
    std::vector<InputProblem> problems;
    std::string failure;
};

std::string RankSource(const SessionInfo& session) {
    return "ProcessRank " + session.processRank->name + "=" + session.processRank->value;
}

}  // namespace

size_t RankReadingWorkers(size_t requested) {
    return requested ? requested : std::max(1u, std::thread::hardware_concurrency());
}

CrossRankReport BuildCrossRankReport(const std::vector<std::string>& inputs, const CrossRankOptions& options) {
    CrossRankReport report;
    RankFileSet files = FindRankFiles(inputs);
    report.filesFound = files.traces.size();
    report.unreadable = std::move(files.failures);
    for (const std::string& left : files.leftOut) report.notes.push_back("left out " + left);

    const std::vector<std::optional<int64_t>> nameRanks = RanksFromFileNames(files.traces);
    std::vector<RankRead> reads(files.traces.size());
    ReadRankTraces(files.traces, RankReadingWorkers(options.workers), [&](size_t index, RankTraceRead& read) {
        RankRead& out = reads[index];
        const std::string& path = files.traces[index];
        for (const ParseProblem& problem : read.problems) out.problems.push_back({path, problem.line, problem.message});
        if (!read.atp) {
            out.failure = read.failure;
            return;
        }
        out.read = true;
        const AtpFile& atp = *read.atp;
        out.row = SummarizeRank(BuildTimeline(atp), atp.session);
        out.row.path = path;
        out.row.problems = read.problems.size();
        if (std::optional<int64_t> rank = RankFromHeader(atp.session)) {
            out.row.rank = rank;
            out.row.rankFrom = RankSource(atp.session);
        } else if (nameRanks[index]) {
            out.row.rank = nameRanks[index];
            out.row.rankFrom = "file name";
        } else {
            out.row.rankFrom = "none";
        }
    });

    std::vector<size_t> order;
    for (size_t i = 0; i < reads.size(); ++i) {
        for (InputProblem& problem : reads[i].problems) report.problems.push_back(std::move(problem));
        if (reads[i].read) {
            order.push_back(i);
        } else {
            report.unreadable.push_back({files.traces[i], 0, reads[i].failure});
        }
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const RankRow& x = reads[a].row;
        const RankRow& y = reads[b].row;
        if (x.rank.has_value() != y.rank.has_value()) return x.rank.has_value();
        if (x.rank && *x.rank != *y.rank) return *x.rank < *y.rank;
        return x.path < y.path;
    });
    std::map<int64_t, std::vector<std::string>> byRank;
    for (size_t i : order) {
        RankRow& row = reads[i].row;
        if (row.rank) byRank[*row.rank].push_back(row.path);
        else report.notes.push_back(row.path + ": no rank (no ProcessRank= line, no rank in the file name)");
        report.rows.push_back(std::move(row));
    }
    for (const auto& [rank, paths] : byRank) {
        if (paths.size() < 2) continue;
        std::string list;
        for (const std::string& path : paths) list += (list.empty() ? "" : ", ") + path;
        report.notes.push_back("rank " + std::to_string(rank) + " is given by " + std::to_string(paths.size()) +
                               " files: " + list);
    }
    report.stragglers = FindStragglers(report.rows, options.stragglerSharePercent);
    report.topKernels = SpreadKernels(report.rows, options.topKernels);
    report.clocks = AlignRankClocks(report.rows, options.alignment);
    return report;
}

}  // namespace gpaprof::report
