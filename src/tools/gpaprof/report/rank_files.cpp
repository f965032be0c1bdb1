#include "tools/gpaprof/report/rank_files.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

namespace fs = std::filesystem;

bool IsFolder(const std::string& path) {
    std::error_code error;
    return fs::is_directory(path, error);
}

bool IsTrace(const std::string& path) {
    if (DetectInputKind(path, "") == InputKind::Atp) return true;  // by name, even when it cannot be read
    std::ifstream file(path);
    std::string first;
    if (!file || !std::getline(file, first)) return false;
    return DetectInputKind(path, first) == InputKind::Atp;
}

std::string FileStem(const std::string& path) {
    std::string name = fs::path(path).filename().string();
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".atp") == 0) name.resize(name.size() - 4);
    return name;
}

struct NumberInName {
    size_t position = 0;  // where it starts
    int64_t value = 0;
};

std::vector<NumberInName> NumbersIn(const std::string& name) {
    std::vector<NumberInName> numbers;
    for (size_t i = 0; i < name.size();) {
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
        // Numbers too long for a rank (a 19-digit hash) are not ranks.
        if (end - i <= 9) numbers.push_back({i, std::stoll(name.substr(i, end - i))});
        i = end;
    }
    return numbers;
}

// The number right after "rank" (any case), with an optional '_', '-' or '.' between.
std::optional<int64_t> NumberAfterRankWord(const std::string& name, const std::vector<NumberInName>& numbers) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const NumberInName& number : numbers) {
        size_t word = number.position;
        if (word > 0 && (lower[word - 1] == '_' || lower[word - 1] == '-' || lower[word - 1] == '.')) --word;
        if (word >= 4 && lower.compare(word - 4, 4, "rank") == 0) return number.value;
    }
    return std::nullopt;
}

}  // namespace

bool IsCrossRankInput(const std::vector<std::string>& inputs) {
    std::set<std::string> traces;  // one file named twice is one session's (and refused as such)
    for (const std::string& input : inputs) {
        if (IsFolder(input)) return true;
        if (IsTrace(input)) traces.insert(fs::path(input).lexically_normal().string());
    }
    return traces.size() > 1;
}

RankFileSet FindRankFiles(const std::vector<std::string>& inputs) {
    RankFileSet set;
    std::set<std::string> seen;
    auto add = [&](const std::string& path) {
        if (seen.insert(fs::path(path).lexically_normal().string()).second) set.traces.push_back(path);
    };
    for (const std::string& input : inputs) {
        if (IsFolder(input)) {
            std::vector<std::string> found;
            std::error_code error;
            for (fs::directory_iterator it(input, error), end; !error && it != end; it.increment(error)) {
                const std::string path = it->path().string();
                if (it->path().extension() == ".atp" && !IsFolder(path)) found.push_back(path);
            }
            if (error) {
                set.failures.push_back({input, 0, "cannot list the folder: " + error.message()});
                continue;
            }
            if (found.empty()) set.failures.push_back({input, 0, "the folder has no .atp file"});
            std::sort(found.begin(), found.end());
            for (const std::string& path : found) add(path);
            continue;
        }
        std::error_code error;
        if (!fs::exists(input, error)) {
            set.failures.push_back({input, 0, "no such file or folder"});
            continue;
        }
        std::ifstream file(input);
        std::string first;
        std::getline(file, first);
        const std::optional<InputKind> kind = DetectInputKind(input, first);
        if (kind == InputKind::Atp) {
            add(input);
        } else if (kind) {
            set.leftOut.push_back(input + ": the cross-rank report reads the traces (.atp) only");
        } else {
            set.failures.push_back({input, 0, "not a profiler file: expected a .atp file or a folder of them"});
        }
    }
    return set;
}

std::vector<std::optional<int64_t>> RanksFromFileNames(const std::vector<std::string>& paths) {
    std::vector<std::string> names;
    std::vector<std::vector<NumberInName>> numbers;
    for (const std::string& path : paths) {
        names.push_back(FileStem(path));
        numbers.push_back(NumbersIn(names.back()));
    }
    std::vector<std::optional<int64_t>> ranks(paths.size());
    if (paths.empty()) return ranks;

    // "rank<N>" in every name.
    bool everyName = true;
    for (size_t i = 0; i < paths.size() && everyName; ++i) {
        ranks[i] = NumberAfterRankWord(names[i], numbers[i]);
        everyName = ranks[i].has_value();
    }
    if (everyName) return ranks;

    // The first number position whose values tell every file apart (names with the same count of numbers).
    const size_t count = numbers[0].size();
    const bool sameShape = std::all_of(numbers.begin(), numbers.end(), [&](const auto& n) { return n.size() == count; });
    if (sameShape && paths.size() > 1) {
        for (size_t position = 0; position < count; ++position) {
            std::set<int64_t> values;
            for (const auto& n : numbers) values.insert(n[position].value);
            if (values.size() != paths.size()) continue;
            for (size_t i = 0; i < paths.size(); ++i) ranks[i] = numbers[i][position].value;
            return ranks;
        }
    }
    // Each name's last number (a name without one has no rank), when no two names share it: a number that
    // repeats is not a rank, and no file gets one from its name.
    std::set<int64_t> seen;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (numbers[i].empty()) {
            ranks[i].reset();
            continue;
        }
        ranks[i] = numbers[i].back().value;
        if (!seen.insert(*ranks[i]).second) return std::vector<std::optional<int64_t>>(paths.size());
    }
    return ranks;
}

std::optional<int64_t> RankFromHeader(const SessionInfo& session) {
    if (!session.processRank) return std::nullopt;
    return ParseSigned(Trim(session.processRank->value));
}

void ReadRankTraces(const std::vector<std::string>& paths, size_t workers,
                    const std::function<void(size_t, RankTraceRead&)>& use) {
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t index = next++; index < paths.size(); index = next++) {
            RankTraceRead read;
            MappedFile file;
            std::string error;
            if (IsFolder(paths[index])) {
                read.failure = "a folder, not a file";
            } else if (!file.Open(paths[index], &error)) {
                read.failure = error;
            } else if (!StartsWith(file.text(), "TraceFileVersion=")) {
                read.failure = file.text().empty() ? "the file is empty"
                                                   : "not a gpaprof trace: the first line is not TraceFileVersion=...";
            } else {
                Parsed<AtpFile> parsed = ParseAtp(file.text());
                read.atp = std::move(parsed.file);
                read.problems = std::move(parsed.problems);
            }
            use(index, read);
        }
    };
    workers = std::max<size_t>(1, std::min(workers, paths.size()));
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
    work();
    for (std::thread& thread : threads) thread.join();
}

}  // namespace gpaprof::report
