#include "backends/cuda/metric_names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace gpa::cuda {

namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string Lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// Levenshtein distance (the callers lower-case both), or limit + 1 once it is sure to exceed `limit`.
size_t EditDistance(const std::string& a, const std::string& b, size_t limit) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        size_t best = row[0];
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
            best = std::min(best, row[j]);
        }
        if (best > limit) return limit + 1;  // no row gets smaller again
    }
    return row[b.size()];
}

// ".avg.pct_of_peak_sustained_active" -> {".avg", ".pct_of_peak_sustained_active"}; a submetric without a
// rollup (".ratio") has an empty rollup.
std::pair<std::string, std::string> SplitRollup(const std::string& submetric) {
    for (const char* rollup : {".sum", ".avg", ".min", ".max"}) {
        const std::string prefix = rollup;
        if (submetric.rfind(prefix, 0) == 0 && (submetric.size() == prefix.size() || submetric[prefix.size()] == '.')) {
            return {prefix, submetric.substr(prefix.size())};
        }
    }
    return {"", submetric};
}

}  // namespace

std::vector<std::string> CloseMatches(const std::string& word, const std::vector<std::string>& candidates, size_t limit) {
    // A likely misspelling: a few edits, more for longer names (metric names run to 60 characters).
    const size_t allowed = std::max<size_t>(2, word.size() / 4);
    std::vector<std::pair<size_t, const std::string*>> scored;
    const std::string lowerWord = Lower(word);
    for (const std::string& candidate : candidates) {
        const std::string lowerCandidate = Lower(candidate);
        // A name cut short (".avg.pct" for ".avg.pct_of_peak_sustained_active") is as good as a misspelling.
        if (word.size() >= 3 && candidate.size() > word.size() && lowerCandidate.rfind(lowerWord, 0) == 0) {
            scored.emplace_back(1, &candidate);
            continue;
        }
        const size_t lengthGap = candidate.size() > word.size() ? candidate.size() - word.size() : word.size() - candidate.size();
        if (lengthGap > allowed) continue;  // cannot be close: skips most of the work
        const size_t distance = EditDistance(lowerWord, lowerCandidate, allowed);
        if (distance <= allowed) scored.emplace_back(distance, &candidate);
    }
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : *a.second < *b.second;
    });
    std::vector<std::string> best;
    for (const auto& [distance, candidate] : scored) {
        if (best.size() == limit) break;
        best.push_back(*candidate);
    }
    return best;
}

std::string SummarizeSubmetrics(const std::vector<std::string>& submetrics) {
    std::map<std::string, std::set<std::string>> tailsByRollup;
    for (const std::string& submetric : submetrics) {
        auto [rollup, tail] = SplitRollup(submetric);
        tailsByRollup[rollup].insert(tail);
    }
    auto join = [](const auto& items) {
        std::string text;
        for (const std::string& item : items) {
            if (!item.empty()) text += (text.empty() ? "" : " ") + item;
        }
        return text;
    };
    // Every rollup takes the same tails: say it once.
    const bool uniform = tailsByRollup.count("") == 0 && tailsByRollup.size() > 1 &&
                         std::all_of(tailsByRollup.begin(), tailsByRollup.end(),
                                     [&](const auto& entry) { return entry.second == tailsByRollup.begin()->second; });
    if (!uniform) return join(submetrics);
    std::vector<std::string> rollups;
    for (const std::string rollup : {".sum", ".avg", ".min", ".max"}) {
        if (tailsByRollup.count(rollup) != 0) rollups.push_back(rollup);
    }
    const std::set<std::string>& tails = tailsByRollup.begin()->second;
    if (tails.size() == 1 && tails.count("") != 0) return join(rollups);
    return join(rollups) + (tails.count("") != 0 ? ", each alone or followed by one of " : ", each followed by one of ") +
           join(tails);
}

std::string ExplainSubmetric(const std::string& submetric, const std::string& hwUnit) {
    if (submetric == ".ratio") return "The ratio itself (1 is 100%).";
    if (submetric == ".pct") return "The ratio in percent.";
    if (submetric == ".max_rate") return "The largest value the ratio can take.";
    const auto [rollup, tail] = SplitRollup(submetric);
    const std::string unit = hwUnit.empty() ? "hardware" : hwUnit;
    std::string text = rollup == ".sum"   ? "Total over all " + unit + " units"
                       : rollup == ".avg" ? "Average over the " + unit + " units"
                       : rollup == ".min" ? "Least of any " + unit + " unit"
                       : rollup == ".max" ? "Most of any " + unit + " unit"
                                          : "Submetric " + submetric + " as CUPTI defines it";
    static const std::map<std::string, std::string> kTails = {
        {"", ""},
        {".per_second", ", per second"},
        {".per_cycle_active", ", per active cycle of the unit"},
        {".per_cycle_elapsed", ", per elapsed cycle of the unit"},
        {".peak_sustained", ": the peak sustained rate per cycle"},
        {".peak_sustained_active", ": the peak sustained rate over the unit's active cycles"},
        {".peak_sustained_active.per_second", ": the peak sustained rate over the unit's active cycles, per second"},
        {".peak_sustained_elapsed", ": the peak sustained rate over the unit's elapsed cycles"},
        {".peak_sustained_elapsed.per_second", ": the peak sustained rate over the unit's elapsed cycles, per second"},
        {".pct_of_peak_sustained_active", ", in percent of the peak sustained rate over the unit's active cycles"},
        {".pct_of_peak_sustained_elapsed", ", in percent of the peak sustained rate over the unit's elapsed cycles"},
    };
    if (rollup.empty()) return text + ".";
    auto it = kTails.find(tail);
    return text + (it != kTails.end() ? it->second : " (submetric " + tail + " as CUPTI defines it)") + ".";
}

GPA_Usage_Type CountUsage(const std::string& dimUnit) {
    if (dimUnit == "byte") return GPA_USAGE_TYPE_BYTES;
    if (dimUnit == "nanosecond") return GPA_USAGE_TYPE_NANOSECONDS;
    if (dimUnit == "cycle" || EndsWith(dimUnit, "_cycle")) return GPA_USAGE_TYPE_CYCLES;
    return GPA_USAGE_TYPE_ITEMS;
}

void SubmetricTypeAndUsage(bool counterMetric, bool ratioMetric, const std::string& submetric, const std::string& dimUnit,
                           GPA_Type* type, GPA_Usage_Type* usage) {
    *type = GPA_TYPE_FLOAT64;
    if (submetric.find("pct") != std::string::npos || dimUnit == "percent") {
        *usage = GPA_USAGE_TYPE_PERCENTAGE;
    } else if (ratioMetric || submetric.find("ratio") != std::string::npos) {
        *usage = GPA_USAGE_TYPE_RATIO;
    } else if (counterMetric && (submetric == ".sum" || submetric == ".max" || submetric == ".min")) {
        *type = GPA_TYPE_UINT64;  // whole counts
        *usage = CountUsage(dimUnit);
    } else {
        *usage = counterMetric && submetric == ".avg" ? CountUsage(dimUnit) : GPA_USAGE_TYPE_ITEMS;
    }
}

}  // namespace gpa::cuda
