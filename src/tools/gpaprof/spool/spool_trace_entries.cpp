#include "tools/gpaprof/spool/spool_trace_entries.h"

#include <optional>
#include <span>

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {

using assembly::CallEntry;
using assembly::kNone;
using assembly::RawCallExpander;
using assembly::RawKernelExpander;
using assembly::TimesEntry;

namespace {

// The 'A' line of a call: its spool line, or (a raw call line) the line it expands to, made in `scratch`. Raw lines
// are expanded again where they are written rather than kept expanded: a large trace's calls stay views into
// the spool.
std::string_view CallLineText(const CallEntry& call, RawCallExpander expand, std::string* scratch) {
    if (call.line.empty() || call.line[0] != 'B') return call.line;
    scratch->clear();
    std::string error;
    if (!expand || !expand(call.line, scratch, &error)) return {};  // Collect kept only lines that expand
    if (!scratch->empty() && scratch->back() == '\n') scratch->pop_back();
    return *scratch;
}

// The 'E' or 'Q' line (`letter`) of an entry: its spool line, or (a raw kernel line) that line of its expansion,
// made in `scratch`. Made again where it is written, as raw call lines are.
std::string_view RecordLineText(std::string_view line, char letter, RawKernelExpander expand, std::string* scratch) {
    if (line.empty() || line[0] != 'R') return line;
    scratch->clear();
    std::string error;
    if (!expand || !expand(line, scratch, &error)) return {};  // Collect kept only lines that expand
    const std::string_view lines = *scratch;
    for (size_t begin = 0; begin < lines.size();) {
        size_t end = lines.find('\n', begin);
        if (end == std::string_view::npos) end = lines.size();
        if (lines[begin] == letter) return lines.substr(begin, end - begin);
        begin = end + 1;
    }
    return {};
}

// A list field's numbers, into `storage` (small lists) or `spill`.
std::span<const uint64_t> Numbers(const spool::FieldList& list, uint64_t* storage, size_t capacity,
                                  std::vector<uint64_t>* spill) {
    uint64_t* values = storage;
    if (list.size() > capacity) {
        spill->resize(list.size());
        values = spill->data();
    }
    size_t count = 0;
    for (std::string_view field : list) values[count++] = ParseUnsigned(field).value_or(0);
    return {values, count};
}

}  // namespace

void AssembledSpool::Trace::AppendApiLine(size_t part, size_t thread, size_t call, std::string* out) const {
    const Slot& slot = parts[part].threads[thread].slots[call];
    spool::CallLine v;
    std::string error, expanded;
    spool::DecodeLine(CallLineText(calls[slot.call], expandRawCall, &expanded), &v, &error);
    if (v.escaped) {
        out->append(FormatApiLine(Call(slot)));
        return;
    }
    std::string_view storage[32];
    std::vector<std::string_view> spill;
    std::string_view* args = storage;
    if (v.args.size() > 32) {
        spill.resize(v.args.size());
        args = spill.data();
    }
    size_t count = 0;
    for (std::string_view arg : v.args) args[count++] = arg;
    gpaprof::AppendApiLine(out, v.hasReturnValue ? &v.returnValue : nullptr, v.name,
                           std::span<const std::string_view>(args, count));
}

void AssembledSpool::Trace::AppendTimestampLine(size_t part, size_t thread, size_t call, std::string* out) const {
    const Slot& slot = parts[part].threads[thread].slots[call];
    spool::CallLine v;
    spool::CommandLine c;
    std::string error, expanded, expandedCommand;
    spool::DecodeLine(CallLineText(calls[slot.call], expandRawCall, &expanded), &v, &error);
    if (slot.command != kNone) {
        const std::string_view commandLine =
            RecordLineText(commands[slot.command].line, 'E', expandRawKernel, &expandedCommand);
        spool::DecodeLine(commandLine, &c, &error);
    }
    if (v.escaped || c.escaped) {
        out->append(FormatTimestampLine(Call(slot)));
        return;
    }
    if (slot.command == kNone) {
        gpaprof::AppendTimestampLine(out, v.apiType, v.name, v.start, v.end, nullptr, nullptr, std::nullopt);
        return;
    }
    CommandFields command{c.commandType, c.commandName, 0, 0, 0, 0, c.queueId, c.queueHandle, c.contextId,
                          c.contextHandle, c.deviceName};
    MapTimes(slot, &command.queued, &command.submit, &command.start, &command.end);
    KernelFields kernel;
    uint64_t globalStorage[8], localStorage[8];
    std::vector<uint64_t> globalSpill, localSpill;
    if (c.hasKernel) {
        kernel.kernelHandle = c.kernelHandle;
        kernel.kernelName = c.kernelName;
        kernel.globalSize = Numbers(c.globalSize, globalStorage, 8, &globalSpill);
        kernel.localSize = Numbers(c.localSize, localStorage, 8, &localSpill);
    }
    gpaprof::AppendTimestampLine(out, v.apiType, v.name, v.start, v.end, &command, c.hasKernel ? &kernel : nullptr,
                                 c.transferSize);
}

void AssembledSpool::Trace::AppendKernelTimestampLine(size_t part, size_t entry, std::string* out) const {
    const Stamp& stamp = parts[part].stamps[entry];
    spool::KernelTimestampLine v;
    std::string error, expanded;
    spool::DecodeLine(RecordLineText(kernels[stamp.entry].line, 'Q', expandRawKernel, &expanded), &v, &error);
    if (v.escaped) {
        out->append(FormatKernelTimestampLine(KernelTimestampOf(stamp)));
        return;
    }
    KernelTimestampFields fields{v.kernelName, v.kernelObject, v.start,      v.end,        v.agentName,
                                 v.agentHandle, v.queueIndex,  v.deviceIndex, v.packetType, v.packetId,
                                 v.packetFields};
    if (stamp.clock) {
        fields.start = stamp.clock->Map(fields.start);
        fields.end = stamp.clock->Map(fields.end);
    }
    gpaprof::AppendKernelTimestampLine(out, fields);
}

ApiCall AssembledSpool::Trace::Call(const Slot& slot) const {
    std::string error, expanded;
    std::optional<spool::Record> record =
        spool::Decode(CallLineText(calls[slot.call], expandRawCall, &expanded), &error);
    ApiCall call = std::move(std::get<spool::CallRecord>(*record).call);
    if (slot.command != kNone) {
        std::optional<spool::Record> command =
            spool::Decode(RecordLineText(commands[slot.command].line, 'E', expandRawKernel, &expanded), &error);
        spool::CommandRecord& e = std::get<spool::CommandRecord>(*command);
        CommandTimes commandTimes = std::move(e.command);
        MapTimes(slot, &commandTimes.queued, &commandTimes.submit, &commandTimes.start, &commandTimes.end);
        call.command = std::move(commandTimes);
        call.kernel = std::move(e.kernel);
        call.transferSize = e.transferSize;
    }
    return call;
}

KernelTimestamp AssembledSpool::Trace::KernelTimestampOf(const Stamp& stamp) const {
    std::string error, expanded;
    std::optional<spool::Record> record =
        spool::Decode(RecordLineText(kernels[stamp.entry].line, 'Q', expandRawKernel, &expanded), &error);
    KernelTimestamp entry = std::move(std::get<spool::KernelTimestampRecord>(*record).entry);
    if (stamp.clock) {
        entry.start = stamp.clock->Map(entry.start);
        entry.end = stamp.clock->Map(entry.end);
    }
    return entry;
}

void AssembledSpool::Trace::MapTimes(const Slot& slot, uint64_t* queued, uint64_t* submit, uint64_t* start,
                                     uint64_t* end) const {
    if (slot.times == kNone) return;
    const TimesEntry& t = times[slot.times];
    *queued = slot.clock->Map(t.queued);
    *submit = slot.clock->Map(t.submit);
    *start = slot.clock->Map(t.start);
    *end = slot.clock->Map(t.end);
}

}  // namespace gpaprof
