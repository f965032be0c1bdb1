#include "tools/gpaprof/files/atp_file.h"

#include <algorithm>
#include <map>
#include <thread>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/files/strict_check.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

// Field widths of the timestamp and kernel timestamp lines (docs/profiler_files.md).
constexpr size_t kApiTypeWidth = 5;
constexpr size_t kApiNameWidth = 45;
constexpr size_t kTimeWidth = 21;
constexpr size_t kCommandTypeWidth = 8;
constexpr size_t kCommandNameWidth = 40;
constexpr size_t kIdWidth = 10;
constexpr size_t kHandleWidth = 25;
constexpr size_t kDeviceNameWidth = 30;
constexpr size_t kTransferSizeWidth = 20;
constexpr size_t kKernelNameMinWidth = 50;
constexpr size_t kAgentNameWidth = 64;
constexpr size_t kPacketTypeWidth = 35;

constexpr const char* kBeginMarker = "clBeginPerfMarker";
constexpr const char* kEndMarker = "clEndPerfMarker";
constexpr const char* kEndMarkerEx = "clEndPerfMarkerEx";

// The last column needs no padding: a line ends without spaces (those of the line begun at `begin`).
void TrimLine(std::string* out, size_t begin) {
    size_t end = out->size();
    while (end > begin && (*out)[end - 1] == ' ') --end;
    out->resize(end);
}

void AppendSizeList(std::string* out, std::span<const uint64_t> values) {
    if (values.empty()) {
        out->append("{NULL}");
        return;
    }
    out->push_back('{');
    for (size_t i = 0; i < values.size(); ++i) {
        if (i) out->push_back(',');
        AppendUnsigned(out, values[i]);
    }
    out->push_back('}');
}

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

std::string SectionMarker(const std::string& api, const char* section) {
    return "=====" + api + " " + section + "=====";
}

void AppendApiLine(std::string* out, const std::string_view* returnValue, std::string_view name,
                   std::span<const std::string_view> args) {
    if (returnValue) {
        AppendOneLine(out, *returnValue);
        out->append(" = ");
    }
    out->append(name);
    out->append(" ( ");
    for (size_t i = 0; i < args.size(); ++i) {
        if (i) out->push_back(';');
        AppendOneLine(out, args[i]);
    }
    out->append(" )");
}

void AppendTimestampLine(std::string* out, uint32_t apiType, std::string_view name, uint64_t start, uint64_t end,
                         const CommandFields* command, const KernelFields* kernel,
                         const std::optional<uint64_t>& transferSize) {
    const size_t begin = out->size();
    AppendUnsignedPadRight(out, apiType, kApiTypeWidth);
    AppendPadRight(out, name, kApiNameWidth);
    AppendUnsignedPadRight(out, start, kTimeWidth);
    AppendUnsignedPadRight(out, end, kTimeWidth);
    if (command) {
        AppendUnsignedPadRight(out, command->commandType, kCommandTypeWidth);
        AppendUnderscorePadRight(out, command->commandName, kCommandNameWidth);
        for (uint64_t time : {command->queued, command->submit, command->start, command->end}) {
            AppendUnsignedPadRight(out, time, kTimeWidth);
        }
        AppendUnsignedPadRight(out, command->queueId, kIdWidth);
        AppendUnderscorePadRight(out, command->queueHandle, kHandleWidth);
        AppendUnsignedPadRight(out, command->contextId, kIdWidth);
        AppendUnderscorePadRight(out, command->contextHandle, kHandleWidth);
        AppendUnderscorePadRight(out, command->deviceName.empty() ? std::string_view("NA") : command->deviceName,
                                 kDeviceNameWidth);
        if (kernel) {
            AppendUnderscorePadRight(out, kernel->kernelHandle, kHandleWidth);
            AppendUnderscoreSpaces(out, kernel->kernelName);
            out->push_back(' ');
            AppendSizeList(out, kernel->globalSize);
            out->push_back(' ');
            AppendSizeList(out, kernel->localSize);
        } else if (transferSize) {
            AppendUnsignedPadRight(out, *transferSize, kTransferSizeWidth);
        }
    }
    TrimLine(out, begin);
}

void AppendKernelTimestampLine(std::string* out, const KernelTimestampFields& entry) {
    const size_t begin = out->size();
    AppendUnderscorePadRight(out, entry.kernelName, kKernelNameMinWidth);
    AppendUnderscorePadRight(out, entry.kernelObject, kTimeWidth);
    AppendUnsignedPadRight(out, entry.start, kTimeWidth);
    AppendUnsignedPadRight(out, entry.end, kTimeWidth);
    AppendUnderscorePadRight(out, entry.agentName, kAgentNameWidth);
    AppendUnderscorePadRight(out, entry.agentHandle, kTimeWidth);
    AppendUnsignedPadRight(out, entry.queueIndex, kTimeWidth);
    AppendUnsignedPadRight(out, entry.deviceIndex, kIdWidth);
    AppendUnderscorePadRight(out, entry.packetType, kPacketTypeWidth);
    AppendUnsignedPadRight(out, entry.packetId, kTimeWidth);
    AppendOneLine(out, entry.packetFields.empty() ? std::string_view("{}") : entry.packetFields);
    TrimLine(out, begin);
}

namespace {

// An ApiCall's lines through the field form.
void AppendModelApiLine(std::string* out, const ApiCall& call) {
    std::string_view inline_[16];
    std::vector<std::string_view> many;
    std::string_view* args = inline_;
    if (call.args.size() > 16) {
        many.resize(call.args.size());
        args = many.data();
    }
    for (size_t i = 0; i < call.args.size(); ++i) args[i] = call.args[i];
    const std::string_view returnValue = call.returnValue ? std::string_view(*call.returnValue) : std::string_view();
    AppendApiLine(out, call.returnValue ? &returnValue : nullptr, call.name,
                  std::span<const std::string_view>(args, call.args.size()));
}

CommandFields FieldsOf(const CommandTimes& command) {
    return {command.commandType, command.commandName, command.queued,      command.submit,
            command.start,       command.end,         command.queueId,     command.queueHandle,
            command.contextId,   command.contextHandle, command.deviceName};
}

void AppendModelTimestampLine(std::string* out, const ApiCall& call) {
    std::optional<CommandFields> command;
    if (call.command) command = FieldsOf(*call.command);
    std::optional<KernelFields> kernel;
    if (call.kernel) {
        kernel = KernelFields{call.kernel->kernelHandle, call.kernel->kernelName, call.kernel->globalSize,
                              call.kernel->localSize};
    }
    AppendTimestampLine(out, call.apiType, call.name, call.start, call.end, command ? &*command : nullptr,
                        kernel ? &*kernel : nullptr, call.transferSize);
}

KernelTimestampFields FieldsOf(const KernelTimestamp& entry) {
    return {entry.kernelName, entry.kernelObject, entry.start,      entry.end,        entry.agentName,
            entry.agentHandle, entry.queueIndex,  entry.deviceIndex, entry.packetType, entry.packetId,
            entry.packetFields};
}

void AppendModelKernelTimestampLine(std::string* out, const KernelTimestamp& entry) {
    AppendKernelTimestampLine(out, FieldsOf(entry));
}

void AppendSourceLine(std::string* out, const SourceLocation& location) {
    AppendEncodeSpaces(out, location.apiName);
    out->push_back('\t');
    AppendEncodeSpaces(out, location.symbol);
    if (location.line) {
        out->push_back('\t');
        AppendUnsigned(out, *location.line);
        out->push_back('\t');
        AppendEncodeSpaces(out, location.file);
        return;
    }
    char displacement[32];
    std::snprintf(displacement, sizeof displacement, "+0x%llX", static_cast<unsigned long long>(location.displacement));
    out->append(displacement);
}

void AppendMarkerText(std::string* out, const std::string& text) {
    if (text.empty()) {
        out->append("\"\"");
    } else {
        AppendEncodeSpaces(out, text);
    }
}

void AppendMarkerLine(std::string* out, const PerfMarker& marker) {
    switch (marker.kind) {
        case PerfMarker::Kind::Begin:
            out->append(kBeginMarker);
            out->push_back(' ');
            AppendMarkerText(out, marker.name);
            out->push_back(' ');
            AppendUnsigned(out, marker.timestamp);
            out->push_back(' ');
            AppendMarkerText(out, marker.group);
            return;
        case PerfMarker::Kind::End:
            out->append(kEndMarker);
            out->push_back(' ');
            AppendUnsigned(out, marker.timestamp);
            return;
        case PerfMarker::Kind::EndEx:
            out->append(kEndMarkerEx);
            out->push_back(' ');
            AppendUnsigned(out, marker.timestamp);
            out->push_back(' ');
            AppendMarkerText(out, marker.name);
            out->push_back(' ');
            AppendMarkerText(out, marker.group);
            return;
    }
}

// Roughly the size of the file, so that it is written into one allocation (a little more is fine): the API
// and timestamp lines of a call take about 400 bytes, a kernel timestamp line about 400.
size_t EstimatedSize(const AtpFile& file, const AtpTraceLines& trace) {
    size_t size = 4096;
    for (size_t p = 0; p < file.parts.size(); ++p) {
        for (size_t t = 0; t < trace.ThreadCount(p); ++t) size += trace.CallCount(p, t) * 400;
        size += trace.KernelTimestampCount(p) * 400;
        for (const auto& thread : file.parts[p].sourceThreads) size += thread.entries.size() * 96;
    }
    for (const auto& thread : file.markerThreads) size += thread.entries.size() * 64;
    return size;
}

}  // namespace

std::string FormatApiLine(const ApiCall& call) {
    std::string line;
    AppendModelApiLine(&line, call);
    return line;
}

std::string FormatTimestampLine(const ApiCall& call) {
    std::string line;
    AppendModelTimestampLine(&line, call);
    return line;
}

std::string FormatKernelTimestampLine(const KernelTimestamp& entry) {
    std::string line;
    AppendModelKernelTimestampLine(&line, entry);
    return line;
}

std::string FormatSourceLine(const SourceLocation& location) {
    std::string line;
    AppendSourceLine(&line, location);
    return line;
}

std::string FormatMarkerLine(const PerfMarker& marker) {
    std::string line;
    AppendMarkerLine(&line, marker);
    return line;
}

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

// The calls and kernel timestamps of the AtpFile itself.
class ModelTraceLines : public AtpTraceLines {
public:
    explicit ModelTraceLines(const AtpFile& file) : file_(file) {}
    size_t ThreadCount(size_t part) const override { return file_.parts[part].threads.size(); }
    uint64_t ThreadId(size_t part, size_t thread) const override { return file_.parts[part].threads[thread].threadId; }
    size_t CallCount(size_t part, size_t thread) const override {
        return file_.parts[part].threads[thread].entries.size();
    }
    void AppendApiLine(size_t part, size_t thread, size_t call, std::string* out) const override {
        AppendModelApiLine(out, file_.parts[part].threads[thread].entries[call]);
    }
    void AppendTimestampLine(size_t part, size_t thread, size_t call, std::string* out) const override {
        AppendModelTimestampLine(out, file_.parts[part].threads[thread].entries[call]);
    }
    size_t KernelTimestampCount(size_t part) const override { return file_.parts[part].kernelTimestamps.size(); }
    void AppendKernelTimestampLine(size_t part, size_t entry, std::string* out) const override {
        AppendModelKernelTimestampLine(out, file_.parts[part].kernelTimestamps[entry]);
    }

private:
    const AtpFile& file_;
};

// Appends `count` lines, the lines [begin, end) by appendRange(begin, end, &text). With several threads and
// many lines, runs of lines are formatted on the threads at once, each into its own buffer, while the calling
// thread hands the buffers of the round before to the output, in order.
template <typename AppendRange>
void AppendLines(size_t count, const AppendRange& appendRange, TextOutput* out) {
    constexpr size_t kLinesPerRun = 4096;
    const size_t threads = std::max<size_t>(1, out->threads);
    if (threads == 1 || count < 2 * kLinesPerRun) {
        for (size_t begin = 0; begin < count; begin += kLinesPerRun) {
            appendRange(begin, std::min(count, begin + kLinesPerRun), &out->text);
            out->Flush();
        }
        return;
    }
    std::vector<std::string> formatting(threads), done(threads);
    size_t doneCount = 0;
    for (size_t round = 0; round < count || doneCount != 0; round += threads * kLinesPerRun) {
        std::vector<std::thread> workers;
        size_t used = 0;
        for (; used < threads && round + used * kLinesPerRun < count; ++used) {
            const size_t begin = round + used * kLinesPerRun;
            const size_t end = std::min(count, begin + kLinesPerRun);
            std::string* buffer = &formatting[used];
            buffer->clear();
            workers.emplace_back([&appendRange, begin, end, buffer] { appendRange(begin, end, buffer); });
        }
        for (size_t i = 0; i < doneCount; ++i) out->Append(done[i]);
        for (std::thread& worker : workers) worker.join();
        formatting.swap(done);
        doneCount = used;
    }
}

// The lines of a section of thread blocks (the API trace or timestamp lines), numbered through all
// threads: line i of the section, after the thread's id and count lines when it is a thread's first.
class ThreadBlockLines {
public:
    ThreadBlockLines(const AtpTraceLines& trace, size_t part) : trace_(trace), part_(part) {
        for (size_t t = 0; t < trace.ThreadCount(part); ++t) {
            const size_t calls = trace.CallCount(part, t);
            if (calls == 0) continue;
            threads_.push_back({t, trace.ThreadId(part, t), calls, count_});
            count_ += calls;
        }
    }
    size_t count() const { return count_; }
    template <typename AppendLine>
    void Append(size_t begin, size_t end, std::string* text, const AppendLine& appendLine) const {
        size_t t = static_cast<size_t>(std::upper_bound(threads_.begin(), threads_.end(), begin,
                                                        [](size_t line, const Block& block) { return line < block.first; }) -
                                       threads_.begin()) - 1;
        for (size_t line = begin; line < end; ++line) {
            if (line == threads_[t].first + threads_[t].calls) ++t;
            const Block& block = threads_[t];
            const size_t call = line - block.first;
            if (call == 0) {
                AppendUnsigned(text, block.id);
                text->push_back('\n');
                AppendUnsigned(text, block.calls);
                text->push_back('\n');
            }
            appendLine(trace_, part_, block.thread, call, text);
            text->push_back('\n');
        }
    }

private:
    struct Block {
        size_t thread;
        uint64_t id;
        size_t calls;
        size_t first;  // its first line in the section
    };
    const AtpTraceLines& trace_;
    size_t part_;
    std::vector<Block> threads_;
    size_t count_ = 0;
};

void WriteAtpTo(const AtpFile& file, const AtpTraceLines& trace, TextOutput* out) {
    const SessionInfo& session = file.session;
    std::vector<std::string> lines;
    lines.push_back("TraceFileVersion=" + OneLine(file.traceFileVersion));
    lines.push_back("ProfilerVersion=" + OneLine(session.profilerVersion));
    lines.push_back("Application=" + OneLine(session.application));
    lines.push_back("ApplicationArgs=" + OneLine(session.applicationArgs));
    lines.push_back("WorkingDirectory=" + OneLine(session.workingDirectory));
    if (session.fullEnvironment) {
        lines.push_back(std::string("FullEnvironment=") + (*session.fullEnvironment ? "1" : "0"));
        for (const EnvironmentVariable& variable : session.environment) {
            lines.push_back("EnvVar=" + OneLine(variable.name) + "=" + OneLine(variable.value));
        }
    }
    lines.push_back("UserTimer=" + BoolText(session.userTimer));
    lines.push_back("OS Version=" + OneLine(session.osVersion));
    lines.push_back("DisplayName=" + OneLine(session.displayName));
    for (const ApiTracePart& part : file.parts) {
        std::string list;
        for (const std::string& api : part.excludedApis) list += (list.empty() ? "" : ",") + api;
        lines.push_back(ExcludedApisKeyPrefix(part.api) + "ExcludedAPIs=" + OneLine(list));
    }
    std::vector<DeviceHeader> devices = session.devices;
    for (DeviceHeader& device : devices) device.name = OneLine(device.name);
    AppendDeviceLines(&lines, devices, "", " = ");

    std::string& text = out->text;
    if (!out->buffered()) text.reserve(EstimatedSize(file, trace));
    for (const std::string& line : lines) {
        text += line;
        text += '\n';
    }
    auto threadHeader = [&text](uint64_t threadId, size_t entries) {
        AppendUnsigned(&text, threadId);
        text.push_back('\n');
        AppendUnsigned(&text, entries);
        text.push_back('\n');
    };
    for (size_t p = 0; p < file.parts.size(); ++p) {
        const ApiTracePart& part = file.parts[p];
        const ThreadBlockLines calls(trace, p);
        if (calls.count() != 0) {
            text += SectionMarker(part.api, kApiTraceSection);
            text += '\n';
            AppendLines(calls.count(), [&calls](size_t begin, size_t end, std::string* buffer) {
                calls.Append(begin, end, buffer, [](const AtpTraceLines& t, size_t pt, size_t th, size_t c, std::string* o) {
                    t.AppendApiLine(pt, th, c, o);
                });
            }, out);
            text += SectionMarker(part.api, kTimestampSection);
            text += '\n';
            AppendLines(calls.count(), [&calls](size_t begin, size_t end, std::string* buffer) {
                calls.Append(begin, end, buffer, [](const AtpTraceLines& t, size_t pt, size_t th, size_t c, std::string* o) {
                    t.AppendTimestampLine(pt, th, c, o);
                });
            }, out);
        }
        const size_t kernelTimestamps = trace.KernelTimestampCount(p);
        if (kernelTimestamps != 0) {
            text += SectionMarker(part.api, kKernelTimestampSection);
            text += '\n';
            AppendUnsigned(&text, kernelTimestamps);
            text += '\n';
            AppendLines(kernelTimestamps, [&trace, p](size_t begin, size_t end, std::string* buffer) {
                for (size_t k = begin; k < end; ++k) {
                    trace.AppendKernelTimestampLine(p, k, buffer);
                    buffer->push_back('\n');
                }
            }, out);
        }
        bool anySource = false;
        for (const auto& thread : part.sourceThreads) anySource = anySource || !thread.entries.empty();
        if (anySource) {
            text += SectionMarker(part.api, kStackTraceSection);
            text += '\n';
            for (const auto& thread : part.sourceThreads) {
                if (thread.entries.empty()) continue;
                threadHeader(thread.threadId, thread.entries.size());
                for (const SourceLocation& location : thread.entries) {
                    AppendSourceLine(&text, location);
                    text += '\n';
                    out->Flush();
                }
            }
        }
    }
    bool anyMarkers = false;
    for (const auto& thread : file.markerThreads) anyMarkers = anyMarkers || !thread.entries.empty();
    if (anyMarkers) {
        text += kPerfMarkerSectionLine;
        text += '\n';
        for (const auto& thread : file.markerThreads) {
            if (thread.entries.empty()) continue;
            threadHeader(thread.threadId, thread.entries.size());
            for (const PerfMarker& marker : thread.entries) {
                AppendMarkerLine(&text, marker);
                text += '\n';
                out->Flush();
            }
        }
    }
}

}  // namespace

std::string WriteAtp(const AtpFile& file, const AtpTraceLines& lines, size_t threads) {
    TextOutput out;
    out.threads = threads;
    WriteAtpTo(file, lines, &out);
    return std::move(out.text);
}

bool WriteAtpFile(const std::string& path, const AtpFile& file, const AtpTraceLines& lines, std::string* error,
                  size_t threads) {
    return WriteFileThrough(path, [&](TextOutput* text) { WriteAtpTo(file, lines, text); }, error, threads);
}

std::string WriteAtp(const AtpFile& file) { return WriteAtp(file, ModelTraceLines(file)); }

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

bool WriteAtpFile(const std::string& path, const AtpFile& file, std::string* error) {
    return WriteAtpFile(path, file, ModelTraceLines(file), error);
}

Parsed<AtpFile> ReadAtpFile(const std::string& path, ReadOptions options) {
    return ReadFileThrough<AtpFile>(path, [&](std::string_view text) { return ParseAtp(text, options); });
}

}  // namespace gpaprof
