#include "tools/gpaprof/spool/rank_selection.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {

std::optional<RankSelection> RankSelection::Parse(std::string_view text, std::string* error) {
    RankSelection selection;
    const std::string quoted = "'" + std::string(text) + "'";
    for (std::string_view item : SplitOn(text, ',')) {
        item = Trim(item);
        const size_t dash = item.find('-');
        const std::optional<uint64_t> first = ParseUnsigned(item.substr(0, dash));
        const std::optional<uint64_t> last = dash == std::string_view::npos ? first : ParseUnsigned(item.substr(dash + 1));
        if (!first || !last) {
            *error = "--ranks takes ranks and ranges such as 0 or 0,8,16 or 0-3, not " + quoted;
            return std::nullopt;
        }
        if (*last < *first) {
            *error = "--ranks: the range '" + std::string(item) + "' ends before it starts";
            return std::nullopt;
        }
        selection.ranges_.emplace_back(*first, *last);
    }
    return selection;
}

bool RankSelection::Contains(uint64_t rank) const {
    return std::any_of(ranges_.begin(), ranges_.end(), [rank](const auto& range) { return range.first <= rank && rank <= range.second; });
}

std::optional<ProcessRank> FindProcessRank(const EnvironmentLookup& lookup) {
    for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "MV2_COMM_WORLD_RANK"}) {
        const std::optional<std::string> value = lookup(name);
        if (value && !value->empty()) return ProcessRank{name, *value};
    }
    return std::nullopt;
}

bool RankSelected(const RankSelection& selection, const std::optional<ProcessRank>& rank) {
    if (!rank) return false;
    const std::optional<uint64_t> number = ParseUnsigned(rank->value);
    return number && selection.Contains(*number);
}

std::string LeftOutFileName(long pid) { return std::to_string(pid) + ".left-out"; }

std::string DescribeLeftOutProcesses(const std::string& spoolDirectory, const std::string& ranksOption) {
    std::map<uint64_t, int> ranks;  // rank -> processes
    int withoutRank = 0, total = 0;
    if (DIR* dir = opendir(spoolDirectory.c_str())) {
        while (dirent* entry = readdir(dir)) {
            const std::string name = entry->d_name;
            const std::string suffix = ".left-out";
            if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
            ++total;
            std::ifstream in(spoolDirectory + "/" + name);
            std::string line;
            std::getline(in, line);
            const size_t equals = line.find('=');
            const std::optional<uint64_t> rank = equals == std::string::npos ? std::nullopt : ParseUnsigned(line.substr(equals + 1));
            if (rank) {
                ++ranks[*rank];
            } else {
                ++withoutRank;
            }
        }
        closedir(dir);
    }
    if (total == 0) return {};
    std::string text = "--ranks " + ranksOption + ": " + std::to_string(total) + (total == 1 ? " process" : " processes") +
                       " ran unprofiled (";
    std::string parts;
    if (!ranks.empty()) {
        parts += ranks.size() == 1 ? "rank" : "ranks";
        bool first = true;
        size_t listed = 0;
        for (const auto& [rank, count] : ranks) {
            if (++listed > 16) {
                parts += " and " + std::to_string(ranks.size() - 16) + " more";
                break;
            }
            parts += (first ? " " : ", ") + std::to_string(rank);
            first = false;
        }
    }
    if (withoutRank > 0) {
        if (!parts.empty()) parts += "; ";
        parts += std::to_string(withoutRank) + " without a rank, such as the launcher";
    }
    return text + parts + ")";
}

}  // namespace gpaprof
