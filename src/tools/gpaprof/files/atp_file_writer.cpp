// Writing the .atp file: the API trace, timestamp, kernel timestamp, stack trace and marker sections.
#include "tools/gpaprof/files/atp_file.h"

#include <algorithm>
#include <thread>

#include "tools/gpaprof/files/atp_file_internal.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {

using atp::kBeginMarker;
using atp::kEndMarker;
using atp::kEndMarkerEx;

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
    AppendProcessPlaceLines(&lines, session, "");
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

bool WriteAtpFile(const std::string& path, const AtpFile& file, std::string* error) {
    return WriteAtpFile(path, file, ModelTraceLines(file), error);
}

}  // namespace gpaprof
