// Reading the .atp file: its sections back into an AtpFile.
#include "tools/gpaprof/files/atp_file.h"

#include <algorithm>
#include <map>

#include "tools/gpaprof/files/atp_file_internal.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/files/strict_check.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {

using atp::kBeginMarker;
using atp::kEndMarker;
using atp::kEndMarkerEx;

namespace {

std::optional<std::vector<uint64_t>> ParseSizeList(std::string_view text) {
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') return std::nullopt;
    std::string_view inner = text.substr(1, text.size() - 2);
    std::vector<uint64_t> values;
    if (inner == "NULL") return values;
    for (std::string_view item : SplitOn(inner, ',')) {
        std::optional<uint64_t> value = ParseUnsigned(Trim(item));
        if (!value) return std::nullopt;
        values.push_back(*value);
    }
    if (values.empty() || values.size() > 3) return std::nullopt;
    return values;
}

// Empty marker names and groups are written as "" so that the line keeps its fields (AppendMarkerText).
std::string MarkerTextBack(std::string_view text) { return text == "\"\"" ? std::string() : DecodeSpaces(text); }

enum class SectionKind { ApiTrace, Timestamp, KernelTimestamp, StackTrace, PerfMarker };

struct SectionHeading {
    std::string api;
    SectionKind kind;
};

// "=====ocl API Trace Output=====", also the older "=====CodeXL ocl API Trace Output=====" and
// "=====OpenCL Perfmarker Output=====".
std::optional<SectionHeading> ParseSectionMarker(std::string_view line) {
    if (line.size() < 10 || !StartsWith(line, "=====") || line.substr(line.size() - 5) != "=====") return std::nullopt;
    std::string_view title = line.substr(5, line.size() - 10);
    if (StartsWith(title, "CodeXL ")) title.remove_prefix(7);
    if (title == "Perfmarker Output" || title == "OpenCL Perfmarker Output") return SectionHeading{"", SectionKind::PerfMarker};
    const size_t space = title.find(' ');
    if (space == std::string_view::npos || space == 0) return std::nullopt;
    const std::string api(title.substr(0, space));
    const std::string_view rest = title.substr(space + 1);
    if (rest == kApiTraceSection) return SectionHeading{api, SectionKind::ApiTrace};
    if (rest == kTimestampSection) return SectionHeading{api, SectionKind::Timestamp};
    if (rest == kKernelTimestampSection) return SectionHeading{api, SectionKind::KernelTimestamp};
    if (rest == kStackTraceSection) return SectionHeading{api, SectionKind::StackTrace};
    return std::nullopt;
}

std::string ApiForExcludedKey(std::string_view prefix) {
    if (prefix == "CL") return "ocl";
    if (prefix == "HSA") return "hsa";
    if (prefix == "CUDA") return "cuda";
    std::string lower(prefix);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return lower;
}

// The line reader with its position, shared by the section parsers.
class LineCursor {
public:
    explicit LineCursor(std::vector<std::string_view> lines) : lines_(std::move(lines)) {}
    bool done() const { return index_ >= lines_.size(); }
    std::string_view peek() const { return lines_[index_]; }
    size_t lineNumber() const { return index_ + 1; }
    std::string_view next() { return lines_[index_++]; }
    bool atSection() const { return !done() && StartsWith(peek(), "====="); }

private:
    std::vector<std::string_view> lines_;
    size_t index_ = 0;
};

}  // namespace

std::vector<std::string> SplitApiArguments(std::string_view list) {
    std::vector<std::string> args;
    if (Trim(list).empty()) return args;
    std::string current;
    int depth = 0;
    bool quoted = false;
    for (size_t i = 0; i < list.size(); ++i) {
        const char c = list[i];
        if (quoted) {
            current += c;
            if (c == '\\' && i + 1 < list.size()) current += list[++i];
            else if (c == '"') quoted = false;
            continue;
        }
        if (c == '"') quoted = true;
        else if (c == '{' || c == '[' || c == '(') ++depth;
        else if ((c == '}' || c == ']' || c == ')') && depth > 0) --depth;
        else if (c == ';' && depth == 0) {
            args.push_back(current);
            current.clear();
            continue;
        }
        current += c;
    }
    args.push_back(current);
    return args;
}

namespace {

struct ApiLine {
    std::optional<std::string> returnValue;
    std::string name;
    std::vector<std::string> args;
};

std::optional<ApiLine> ParseApiLine(std::string_view line, std::string* problem) {
    const size_t open = line.find(" ( ");
    if (open == std::string_view::npos || line.size() < open + 4 || line.substr(line.size() - 2) != " )") {
        *problem = "API line is not 'Ret = Name ( args )': '" + std::string(line) + "'";
        return std::nullopt;
    }
    ApiLine parsed;
    std::string_view head = line.substr(0, open);
    const size_t equals = head.find(" = ");
    if (equals != std::string_view::npos) {
        parsed.returnValue = std::string(head.substr(0, equals));
        head = head.substr(equals + 3);
    }
    if (head.empty() || head.find(' ') != std::string_view::npos) {
        *problem = "API name missing or containing spaces: '" + std::string(line) + "'";
        return std::nullopt;
    }
    parsed.name = std::string(head);
    std::string_view list = line.substr(open + 3, line.size() - 2 - (open + 3));
    if (!list.empty() && list.back() == ' ') list.remove_suffix(1);  // "Name (  )" for no arguments
    parsed.args = SplitApiArguments(list);
    return parsed;
}

struct TimestampLine {
    uint32_t apiType = 0;
    std::string name;
    uint64_t start = 0, end = 0;
    std::optional<CommandTimes> command;
    std::optional<KernelLaunch> kernel;
    std::optional<uint64_t> transferSize;
};

std::optional<TimestampLine> ParseTimestampLine(std::string_view line, std::string* problem) {
    std::vector<std::string_view> fields = SplitWhitespace(line);
    if (fields.size() != 4 && fields.size() != 15 && fields.size() != 16 && fields.size() != 19) {
        *problem = "timestamp line has " + std::to_string(fields.size()) +
                   " fields; the layout has 4 (API), 15 (enqueue), 16 (data transfer) or 19 (kernel dispatch)";
        return std::nullopt;
    }
    TimestampLine parsed;
    auto number = [&](std::string_view text, const char* what, uint64_t* out) {
        std::optional<uint64_t> value = ParseUnsigned(text);
        if (!value) {
            *problem = std::string(what) + " is not an unsigned number: '" + std::string(text) + "'";
            return false;
        }
        *out = *value;
        return true;
    };
    uint64_t apiType = 0;
    if (!number(fields[0], "API type", &apiType) || apiType > UINT32_MAX) return std::nullopt;
    parsed.apiType = static_cast<uint32_t>(apiType);
    parsed.name = std::string(fields[1]);
    if (!number(fields[2], "start time", &parsed.start) || !number(fields[3], "end time", &parsed.end)) return std::nullopt;
    if (parsed.end < parsed.start) {
        *problem = "end time " + std::to_string(parsed.end) + " is before start time " + std::to_string(parsed.start);
        return std::nullopt;
    }
    if (fields.size() == 4) return parsed;

    CommandTimes command;
    uint64_t commandType = 0;
    if (!number(fields[4], "command type", &commandType) || commandType > UINT32_MAX) return std::nullopt;
    command.commandType = static_cast<uint32_t>(commandType);
    command.commandName = std::string(fields[5]);
    if (!number(fields[6], "queued time", &command.queued) || !number(fields[7], "submit time", &command.submit) ||
        !number(fields[8], "start time", &command.start) || !number(fields[9], "end time", &command.end) ||
        !number(fields[10], "queue id", &command.queueId)) {
        return std::nullopt;
    }
    command.queueHandle = std::string(fields[11]);
    if (!number(fields[12], "context id", &command.contextId)) return std::nullopt;
    command.contextHandle = std::string(fields[13]);
    command.deviceName = fields[14] == "NA" ? std::string() : std::string(fields[14]);
    parsed.command = command;
    if (fields.size() == 16) {
        uint64_t size = 0;
        if (!number(fields[15], "transfer size", &size)) return std::nullopt;
        parsed.transferSize = size;
    } else if (fields.size() == 19) {
        KernelLaunch kernel;
        kernel.kernelHandle = std::string(fields[15]);
        kernel.kernelName = std::string(fields[16]);
        std::optional<std::vector<uint64_t>> global = ParseSizeList(fields[17]);
        std::optional<std::vector<uint64_t>> local = ParseSizeList(fields[18]);
        if (!global || global->empty()) {
            *problem = "global work size is not {g0,g1,g2}: '" + std::string(fields[17]) + "'";
            return std::nullopt;
        }
        if (!local) {
            *problem = "work-group size is not {l0,l1,l2} or {NULL}: '" + std::string(fields[18]) + "'";
            return std::nullopt;
        }
        kernel.globalSize = *global;
        kernel.localSize = *local;
        parsed.kernel = kernel;
    }
    return parsed;
}

std::optional<KernelTimestamp> ParseKernelTimestampLine(std::string_view line, std::string* problem) {
    // Ten whitespace-separated fields, then the packet fields (which may contain spaces).
    KernelTimestamp entry;
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (fields.size() < 10) {
        while (i < line.size() && line[i] == ' ') ++i;
        const size_t begin = i;
        while (i < line.size() && line[i] != ' ') ++i;
        if (i == begin) break;
        fields.push_back(line.substr(begin, i - begin));
    }
    while (i < line.size() && line[i] == ' ') ++i;
    const std::string_view packet = line.substr(i);
    if (fields.size() < 10 || packet.empty()) {
        *problem = "kernel timestamp line needs 11 fields: name, object, start, end, agent, agent handle, queue index, "
                   "device index, packet type, packet id, {packet}";
        return std::nullopt;
    }
    auto number = [&](std::string_view text, const char* what, uint64_t* out) {
        std::optional<uint64_t> value = ParseUnsigned(text);
        if (!value) {
            *problem = std::string(what) + " is not an unsigned number: '" + std::string(text) + "'";
            return false;
        }
        *out = *value;
        return true;
    };
    entry.kernelName = std::string(fields[0]);
    entry.kernelObject = std::string(fields[1]);
    if (!number(fields[2], "start time", &entry.start) || !number(fields[3], "end time", &entry.end)) return std::nullopt;
    entry.agentName = std::string(fields[4]);
    entry.agentHandle = std::string(fields[5]);
    if (!number(fields[6], "queue index", &entry.queueIndex) || !number(fields[7], "device index", &entry.deviceIndex)) {
        return std::nullopt;
    }
    entry.packetType = std::string(fields[8]);
    if (!number(fields[9], "packet id", &entry.packetId)) return std::nullopt;
    entry.packetFields = std::string(packet);
    return entry;
}

std::optional<SourceLocation> ParseSourceLine(std::string_view line, std::string* problem) {
    std::vector<std::string_view> fields = SplitOn(line, '\t');
    SourceLocation location;
    if (fields.size() == 4) {
        location.apiName = DecodeSpaces(fields[0]);
        location.symbol = DecodeSpaces(fields[1]);
        std::optional<uint64_t> number = ParseUnsigned(fields[2]);
        if (!number) {
            *problem = "source line number is not a number: '" + std::string(fields[2]) + "'";
            return std::nullopt;
        }
        location.line = number;
        location.file = DecodeSpaces(fields[3]);
        return location;
    }
    if (fields.size() == 2) {
        location.apiName = DecodeSpaces(fields[0]);
        const size_t plus = fields[1].rfind("+0x");
        std::optional<uint64_t> displacement;
        if (plus != std::string_view::npos) displacement = ParseHexOrDecimal(fields[1].substr(plus + 1));
        if (!displacement) {
            *problem = "stack entry without line information must be 'API<TAB>symbol+0xoffset': '" + std::string(line) + "'";
            return std::nullopt;
        }
        location.symbol = DecodeSpaces(fields[1].substr(0, plus));
        location.displacement = *displacement;
        return location;
    }
    *problem = "stack entry has " + std::to_string(fields.size()) +
               " tab-separated fields; the layout has 4 (API, symbol, line, file) or 2 (API, symbol+offset)";
    return std::nullopt;
}

std::optional<PerfMarker> ParseMarkerLine(std::string_view line, std::string* problem) {
    std::vector<std::string_view> fields = SplitWhitespace(line);
    PerfMarker marker;
    auto timestamp = [&](std::string_view text) {
        std::optional<uint64_t> value = ParseUnsigned(text);
        if (!value) *problem = "marker timestamp is not a number: '" + std::string(text) + "'";
        if (value) marker.timestamp = *value;
        return value.has_value();
    };
    if (!fields.empty() && fields[0] == kBeginMarker && fields.size() == 4) {
        marker.kind = PerfMarker::Kind::Begin;
        marker.name = MarkerTextBack(fields[1]);
        marker.group = MarkerTextBack(fields[3]);
        if (!timestamp(fields[2])) return std::nullopt;
        return marker;
    }
    if (!fields.empty() && fields[0] == kEndMarker && fields.size() == 2) {
        marker.kind = PerfMarker::Kind::End;
        if (!timestamp(fields[1])) return std::nullopt;
        return marker;
    }
    if (!fields.empty() && fields[0] == kEndMarkerEx && fields.size() == 4) {
        marker.kind = PerfMarker::Kind::EndEx;
        marker.name = MarkerTextBack(fields[2]);
        marker.group = MarkerTextBack(fields[3]);
        if (!timestamp(fields[1])) return std::nullopt;
        return marker;
    }
    *problem = "marker line is not 'clBeginPerfMarker name ts group', 'clEndPerfMarker ts' or "
               "'clEndPerfMarkerEx ts name group': '" + std::string(line) + "'";
    return std::nullopt;
}

// Reads thread blocks ("tid", "count", entries) until the next section marker.
template <typename Entry, typename ParseEntry>
std::vector<ThreadBlock<Entry>> ReadThreadBlocks(LineCursor* cursor, const char* what, ParseEntry parse,
                                                 std::vector<ParseProblem>* problems,
                                                 std::vector<std::vector<size_t>>* entryLines = nullptr) {
    std::vector<ThreadBlock<Entry>> blocks;
    while (!cursor->done() && !cursor->atSection()) {
        const size_t tidLine = cursor->lineNumber();
        std::string_view tidText = Trim(cursor->next());
        if (tidText.empty()) continue;
        std::optional<uint64_t> tid = ParseUnsigned(tidText);
        if (!tid) {
            problems->push_back({tidLine, std::string(what) + ": expected a thread id, found '" + std::string(tidText) + "'"});
            continue;
        }
        if (cursor->done() || cursor->atSection()) {
            problems->push_back({tidLine, std::string(what) + ": thread " + std::to_string(*tid) + " has no entry count line"});
            break;
        }
        const size_t countLine = cursor->lineNumber();
        std::string_view countText = Trim(cursor->next());
        std::optional<uint64_t> count = ParseUnsigned(countText);
        if (!count) {
            problems->push_back({countLine, std::string(what) + ": expected the entry count of thread " +
                                                std::to_string(*tid) + ", found '" + std::string(countText) + "'"});
            continue;
        }
        ThreadBlock<Entry> block;
        block.threadId = *tid;
        std::vector<size_t> lineNumbers;
        uint64_t read = 0;
        for (; read < *count && !cursor->done() && !cursor->atSection(); ++read) {
            const size_t entryLine = cursor->lineNumber();
            std::string_view line = cursor->next();
            std::string problem;
            std::optional<Entry> entry = parse(line, &problem);
            if (!entry) {
                problems->push_back({entryLine, problem});
                continue;
            }
            block.entries.push_back(std::move(*entry));
            lineNumbers.push_back(entryLine);
        }
        if (read < *count) {
            problems->push_back({countLine, std::string(what) + ": thread " + std::to_string(*tid) + " declares " +
                                                std::to_string(*count) + " entries, the section has " +
                                                std::to_string(read)});
        }
        blocks.push_back(std::move(block));
        if (entryLines) entryLines->push_back(std::move(lineNumbers));
    }
    return blocks;
}

ApiTracePart& PartFor(AtpFile* file, const std::string& api) {
    for (ApiTracePart& part : file->parts) {
        if (part.api == api) return part;
    }
    file->parts.push_back(ApiTracePart{});
    file->parts.back().api = api;
    return file->parts.back();
}

}  // namespace

Parsed<AtpFile> ParseAtp(std::string_view text, ReadOptions options) {
    Parsed<AtpFile> result;
    AtpFile& file = result.file;
    auto problem = [&](size_t line, std::string message) { result.problems.push_back({line, std::move(message)}); };
    LineCursor cursor(SplitLines(text));
    DeviceHeaderParser devices;
    bool sawVersion = false;

    while (!cursor.done() && !cursor.atSection()) {
        const size_t lineNumber = cursor.lineNumber();
        std::string_view line = cursor.next();
        if (Trim(line).empty()) continue;
        if (StartsWith(line, "Device ")) {
            const size_t equals = line.find(" = ");
            std::string reason;
            if (equals == std::string_view::npos) {
                problem(lineNumber, "device header line without ' = ': '" + std::string(line) + "'");
            } else if (!devices.Accept(line.substr(0, equals), line.substr(equals + 3), &reason)) {
                problem(lineNumber, reason);
            }
            continue;
        }
        const size_t equals = line.find('=');
        if (equals == std::string_view::npos) {
            problem(lineNumber, "header line without '=': '" + std::string(line) + "'");
            continue;
        }
        const std::string_view key = line.substr(0, equals);
        const std::string_view value = line.substr(equals + 1);
        const std::string valueText(value);
        if (key == "TraceFileVersion") {
            file.traceFileVersion = valueText;
            sawVersion = true;
        } else if (std::string reason; AcceptSessionField(key, value, &file.session, &reason)) {
            if (!reason.empty()) problem(lineNumber, reason);
        } else if (key == "UserTimer") {
            if (!ParseBoolText(value, &file.session.userTimer)) problem(lineNumber, "UserTimer must be True or False");
        } else if (key.size() > 12 && key.substr(key.size() - 12) == "ExcludedAPIs") {
            ApiTracePart& part = PartFor(&file, ApiForExcludedKey(key.substr(0, key.size() - 12)));
            part.excludedApis.clear();
            if (!value.empty()) {
                for (std::string_view api : SplitOn(value, ',')) part.excludedApis.emplace_back(Trim(api));
            }
        } else if (options.strictLayout) {
            problem(lineNumber, "unknown header key '" + std::string(key) + "'");
        }
    }
    file.session.devices = devices.Take();
    if (!sawVersion) problem(0, "no TraceFileVersion header line: not a profiler .atp file");

    // Timestamp blocks wait for the API blocks of the same part to be merged with them.
    std::map<std::string, std::pair<size_t, std::vector<ThreadBlock<TimestampLine>>>> timestamps;

    while (!cursor.done()) {
        const size_t markerLine = cursor.lineNumber();
        std::string_view line = cursor.next();
        if (Trim(line).empty()) continue;
        std::optional<SectionHeading> heading = ParseSectionMarker(line);
        if (!heading) {
            problem(markerLine, "expected a section marker line (=====... Output=====), found '" + std::string(line) + "'");
            while (!cursor.done() && !cursor.atSection()) cursor.next();
            continue;
        }
        switch (heading->kind) {
            case SectionKind::ApiTrace: {
                ApiTracePart& part = PartFor(&file, heading->api);
                auto blocks = ReadThreadBlocks<ApiLine>(&cursor, "API trace", ParseApiLine, &result.problems);
                for (auto& block : blocks) {
                    ThreadBlock<ApiCall> calls;
                    calls.threadId = block.threadId;
                    for (ApiLine& entry : block.entries) {
                        ApiCall call;
                        call.name = std::move(entry.name);
                        call.returnValue = std::move(entry.returnValue);
                        call.args = std::move(entry.args);
                        calls.entries.push_back(std::move(call));
                    }
                    part.threads.push_back(std::move(calls));
                }
                break;
            }
            case SectionKind::Timestamp: {
                auto blocks = ReadThreadBlocks<TimestampLine>(&cursor, "timestamps", ParseTimestampLine, &result.problems);
                auto& pending = timestamps[heading->api];
                pending.first = markerLine;
                for (auto& block : blocks) pending.second.push_back(std::move(block));
                PartFor(&file, heading->api);
                break;
            }
            case SectionKind::KernelTimestamp: {
                ApiTracePart& part = PartFor(&file, heading->api);
                if (cursor.done() || cursor.atSection()) {
                    problem(markerLine, "kernel timestamp section without its count line");
                    break;
                }
                const size_t countLine = cursor.lineNumber();
                std::optional<uint64_t> count = ParseUnsigned(Trim(cursor.next()));
                if (!count) {
                    problem(countLine, "expected the number of kernel dispatches");
                    while (!cursor.done() && !cursor.atSection()) cursor.next();
                    break;
                }
                uint64_t read = 0;
                for (; read < *count && !cursor.done() && !cursor.atSection(); ++read) {
                    const size_t entryLine = cursor.lineNumber();
                    std::string reason;
                    std::optional<KernelTimestamp> entry = ParseKernelTimestampLine(cursor.next(), &reason);
                    if (entry) part.kernelTimestamps.push_back(std::move(*entry));
                    else problem(entryLine, reason);
                }
                if (read < *count) {
                    problem(countLine, "kernel timestamp section declares " + std::to_string(*count) + " entries, has " +
                                           std::to_string(read));
                }
                while (!cursor.done() && !cursor.atSection()) {
                    const size_t extraLine = cursor.lineNumber();
                    if (!Trim(cursor.next()).empty()) problem(extraLine, "more kernel timestamp lines than declared");
                }
                break;
            }
            case SectionKind::StackTrace: {
                ApiTracePart& part = PartFor(&file, heading->api);
                auto blocks = ReadThreadBlocks<SourceLocation>(&cursor, "stack trace", ParseSourceLine, &result.problems);
                for (auto& block : blocks) part.sourceThreads.push_back(std::move(block));
                break;
            }
            case SectionKind::PerfMarker: {
                auto blocks = ReadThreadBlocks<PerfMarker>(&cursor, "perf markers", ParseMarkerLine, &result.problems);
                for (auto& block : blocks) file.markerThreads.push_back(std::move(block));
                break;
            }
        }
    }

    // Merge each part's timestamp lines into its API calls, thread by thread and entry by entry.
    for (auto& [api, pending] : timestamps) {
        ApiTracePart& part = PartFor(&file, api);
        for (ThreadBlock<TimestampLine>& block : pending.second) {
            ThreadBlock<ApiCall>* calls = nullptr;
            for (auto& thread : part.threads) {
                if (thread.threadId == block.threadId) calls = &thread;
            }
            if (!calls) {
                part.threads.push_back(ThreadBlock<ApiCall>{block.threadId, {}});
                calls = &part.threads.back();
                calls->entries.resize(block.entries.size());
                for (size_t i = 0; i < block.entries.size(); ++i) calls->entries[i].name = block.entries[i].name;
                problem(pending.first, "thread " + std::to_string(block.threadId) +
                                           " has timestamps but no API trace block");
            }
            if (calls->entries.size() != block.entries.size()) {
                problem(pending.first, "thread " + std::to_string(block.threadId) + " has " +
                                           std::to_string(calls->entries.size()) + " API trace entries but " +
                                           std::to_string(block.entries.size()) + " timestamp entries");
            }
            const size_t common = std::min(calls->entries.size(), block.entries.size());
            for (size_t i = 0; i < common; ++i) {
                ApiCall& call = calls->entries[i];
                TimestampLine& stamp = block.entries[i];
                if (call.name != stamp.name) {
                    problem(pending.first, "thread " + std::to_string(block.threadId) + " entry " + std::to_string(i) +
                                               ": API trace names " + call.name + ", timestamps name " + stamp.name);
                }
                call.apiType = stamp.apiType;
                call.start = stamp.start;
                call.end = stamp.end;
                call.command = std::move(stamp.command);
                call.kernel = std::move(stamp.kernel);
                call.transferSize = stamp.transferSize;
            }
        }
    }

    if (options.strictLayout && result.ok()) CompareWithLayout(text, WriteAtp(file), &result.problems);
    return result;
}

Parsed<AtpFile> ReadAtpFile(const std::string& path, ReadOptions options) {
    return ReadFileThrough<AtpFile>(path, [&](std::string_view text) { return ParseAtp(text, options); });
}

}  // namespace gpaprof
