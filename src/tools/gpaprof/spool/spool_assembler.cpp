#include "tools/gpaprof/spool/spool_assembler.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/clock_calibration.h"

namespace gpaprof {
namespace {

std::string BaseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

const std::vector<std::string> kPartOrder = {"ocl", "hsa", "cuda"};

size_t PartRank(const std::string& part) {
    auto it = std::find(kPartOrder.begin(), kPartOrder.end(), part);
    return static_cast<size_t>(it - kPartOrder.begin());
}

constexpr uint32_t kNone = UINT32_MAX;

// The records there are most of stay in the spool: each is its line, with what the assembly orders and joins
// them by. Text fields of lines with escapes are kept unescaped in Collected::owned.
struct CallEntry {
    std::string_view part;
    uint64_t thread, index;
    uint64_t start, end;
    std::string_view line;  // an 'A' line, or a raw CUDA call line ('B'), expanded when it is written
};

using RawCallExpander = bool (*)(std::string_view line, std::string* callLine, std::string* error);

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

struct CommandEntry {
    std::string_view part;
    uint64_t thread, index;
    std::string_view line;
};

struct TimesEntry {
    std::string_view part;
    uint64_t thread, index;
    std::string_view deviceKey;
    uint64_t queued, submit, start, end;
};

struct KernelEntry {
    std::string_view part;
    std::string_view deviceKey;
    uint64_t start;
    std::string_view line;
};

// The records of (a stretch of) a spool, sorted by type, each kind in spool order. What depends on the order
// of the whole spool (first process record, first signal, notes) is kept in order for the merge.
struct Collected {
    size_t lines = 0;                        // lines of the stretch (numbers in the spool: offset + 1-based)
    std::vector<spool::ProcessRecord> processes;
    std::vector<spool::DeviceRecord> devices;
    std::vector<spool::CounterListRecord> counterLists;
    std::vector<CallEntry> calls;
    std::vector<CommandEntry> commands;
    std::vector<TimesEntry> times;
    std::vector<spool::CalibrationRecord> calibrations;
    std::vector<spool::DispatchRecord> dispatches;
    std::vector<spool::OccupancyRecord> occupancy;
    std::vector<spool::MarkerRecord> markers;
    std::vector<spool::SourceRecord> sources;
    std::vector<KernelEntry> kernelTimestamps;
    std::vector<spool::EventRecord> signals;
    bool exitRecorded = false;
    struct Note {
        size_t line = 0;                     // 0: a NoteRecord; else the line (in the stretch) that was unreadable
        std::string text;                    // the note, or why the line is unreadable
    };
    std::vector<Note> notes;
    std::deque<std::string> owned;           // stable: views point into it

    // A text field of a line: the line's characters, or (escaped line) its unescaped text kept here.
    std::string_view Keep(std::string_view raw, bool escaped) {
        if (!escaped) return raw;
        owned.push_back(spool::UnescapeField(raw));
        return owned.back();
    }
};

// Room for the records of `text`, counted by their letters: no vector grows while the stretch is read.
void Reserve(std::string_view text, Collected* out) {
    size_t counts[256] = {};
    for (size_t begin = 0; begin < text.size();) {
        ++counts[static_cast<unsigned char>(text[begin])];
        const void* newline = std::memchr(text.data() + begin, '\n', text.size() - begin);
        if (!newline) break;
        begin = static_cast<size_t>(static_cast<const char*>(newline) - text.data()) + 1;
    }
    out->calls.reserve(counts[static_cast<unsigned char>('A')] + counts[static_cast<unsigned char>('B')]);
    out->commands.reserve(counts[static_cast<unsigned char>('E')]);
    out->times.reserve(counts[static_cast<unsigned char>('T')]);
    out->dispatches.reserve(counts[static_cast<unsigned char>('K')]);
    out->occupancy.reserve(counts[static_cast<unsigned char>('O')]);
    out->markers.reserve(counts[static_cast<unsigned char>('M')]);
    out->sources.reserve(counts[static_cast<unsigned char>('S')]);
    out->kernelTimestamps.reserve(counts[static_cast<unsigned char>('Q')]);
}

// Reads the complete lines of `text` (each ends with '\n').
void Collect(std::string_view text, const AssemblyOptions* options, Collected* out) {
    static constexpr std::string_view kCudaPart = "cuda";
    std::string expanded;  // a raw call line's 'A' line, while its fields are read
    Reserve(text, out);
    const bool nuls = std::memchr(text.data(), '\0', text.size()) != nullptr;
    size_t begin = 0;
    std::string error;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        const size_t lineNumber = ++out->lines;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        // No record has a NUL byte: NULs are room the agent reserved and nothing wrote (a record cut short by the
        // death of its writer, or the unused end of the file). The line goes on after them.
        if (const size_t nul = nuls ? line.rfind('\0') : std::string_view::npos; nul != std::string_view::npos) {
            line.remove_prefix(nul + 1);
        }
        if (line.empty()) continue;
        switch (line[0]) {
            case 'A': {
                spool::CallLine v;
                if (!spool::DecodeLine(line, &v, &error)) break;
                out->calls.push_back({out->Keep(v.part, v.escaped), v.threadId, v.index, v.start, v.end, line});
                continue;
            }
            case 'B': {
                if (!options->expandRawCall) {
                    error = "a raw CUDA call line, and this gpaprof was built without the CUDA part";
                    break;
                }
                expanded.clear();
                if (!options->expandRawCall(line, &expanded, &error)) break;
                if (!expanded.empty() && expanded.back() == '\n') expanded.pop_back();
                spool::CallLine v;
                if (!spool::DecodeLine(expanded, &v, &error)) break;
                // The part is the CUDA part's name (a literal) or, from an unexpected expansion, kept apart.
                const std::string_view part = v.part == kCudaPart ? kCudaPart : std::string_view(out->owned.emplace_back(v.part));
                out->calls.push_back({part, v.threadId, v.index, v.start, v.end, line});
                continue;
            }
            case 'E': {
                spool::CommandLine v;
                if (!spool::DecodeLine(line, &v, &error)) break;
                out->commands.push_back({out->Keep(v.part, v.escaped), v.threadId, v.index, line});
                continue;
            }
            case 'T': {
                spool::TimesLine v;
                if (!spool::DecodeLine(line, &v, &error)) break;
                out->times.push_back({out->Keep(v.part, v.escaped), v.threadId, v.index, out->Keep(v.deviceKey, v.escaped),
                                      v.queued, v.submit, v.start, v.end});
                continue;
            }
            case 'Q': {
                spool::KernelTimestampLine v;
                if (!spool::DecodeLine(line, &v, &error)) break;
                out->kernelTimestamps.push_back(
                    {out->Keep(v.part, v.escaped), out->Keep(v.deviceKey, v.escaped), v.start, line});
                continue;
            }
            default: {
                std::optional<spool::Record> record = spool::Decode(line, &error);
                if (!record) break;
                std::visit(
                    [&](auto&& r) {
                        using T = std::decay_t<decltype(r)>;
                        if constexpr (std::is_same_v<T, spool::ProcessRecord>) {
                            out->processes.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::DeviceRecord>) {
                            out->devices.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::CounterListRecord>) {
                            out->counterLists.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::CalibrationRecord>) {
                            out->calibrations.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::DispatchRecord>) {
                            out->dispatches.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::OccupancyRecord>) {
                            out->occupancy.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::MarkerRecord>) {
                            out->markers.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::SourceRecord>) {
                            out->sources.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::EventRecord>) {
                            if (r.kind == "exit") out->exitRecorded = true;
                            if (r.kind == "signal" && out->signals.empty()) out->signals.push_back(std::move(r));
                        } else if constexpr (std::is_same_v<T, spool::NoteRecord>) {
                            out->notes.push_back({0, std::move(r.message)});
                        }
                        // 'A', 'E', 'T' and 'Q' records were read above.
                    },
                    *record);
                continue;
            }
        }
        out->notes.push_back({lineNumber, error});  // the line is not a record
    }
}

template <typename T>
void Append(std::vector<T>* to, std::vector<T>* from) {
    if (to->empty()) {
        to->swap(*from);
        return;
    }
    to->insert(to->end(), std::make_move_iterator(from->begin()), std::make_move_iterator(from->end()));
    from->clear();
}

// Reads the spool's complete lines: a line without its final '\n' was cut short by the end of the process. A
// large spool is read in stretches on several threads, put back together in spool order.
Collected CollectSpool(std::string_view spoolText, const AssemblyOptions& options, std::vector<std::deque<std::string>>* owned) {
    const size_t threadsWanted = options.threads;
    const size_t lastNewline = spoolText.rfind('\n');
    const std::string_view complete = lastNewline == std::string_view::npos ? std::string_view()
                                                                             : spoolText.substr(0, lastNewline + 1);
    // As many threads as asked for; by default one per 4 MiB, at most one per processor (and 8).
    constexpr size_t kBytesPerThread = size_t{4} << 20;
    const size_t threads =
        threadsWanted ? threadsWanted
                      : std::min({size_t{8}, size_t{std::max(1u, std::thread::hardware_concurrency())},
                                  complete.size() / kBytesPerThread + 1});
    std::vector<std::string_view> stretches;
    size_t begin = 0;
    for (size_t i = 1; i <= threads && begin < complete.size(); ++i) {
        size_t end = i == threads ? complete.size() : std::max(begin, complete.size() * i / threads);
        if (end < complete.size()) end = complete.find('\n', end) + 1;  // whole lines: `complete` ends with '\n'
        stretches.push_back(complete.substr(begin, end - begin));
        begin = end;
    }
    std::vector<Collected> parts(std::max<size_t>(1, stretches.size()));
    std::vector<std::thread> workers;
    for (size_t i = 1; i < stretches.size(); ++i) workers.emplace_back(Collect, stretches[i], &options, &parts[i]);
    if (!stretches.empty()) Collect(stretches[0], &options, &parts[0]);
    for (std::thread& worker : workers) worker.join();

    Collected all = std::move(parts[0]);
    auto reserve = [&parts](auto member, auto* into) {
        size_t total = 0;
        for (Collected& part : parts) total += (part.*member).size();
        into->reserve(total);
    };
    reserve(&Collected::calls, &all.calls);
    reserve(&Collected::commands, &all.commands);
    reserve(&Collected::times, &all.times);
    reserve(&Collected::dispatches, &all.dispatches);
    reserve(&Collected::occupancy, &all.occupancy);
    reserve(&Collected::sources, &all.sources);
    reserve(&Collected::kernelTimestamps, &all.kernelTimestamps);
    for (size_t i = 1; i < parts.size(); ++i) {
        Collected& part = parts[i];
        for (Collected::Note& note : part.notes) {
            if (note.line) note.line += all.lines;
            all.notes.push_back(std::move(note));
        }
        all.lines += part.lines;
        Append(&all.processes, &part.processes);
        Append(&all.devices, &part.devices);
        Append(&all.counterLists, &part.counterLists);
        Append(&all.calls, &part.calls);
        Append(&all.commands, &part.commands);
        Append(&all.times, &part.times);
        Append(&all.calibrations, &part.calibrations);
        Append(&all.dispatches, &part.dispatches);
        Append(&all.occupancy, &part.occupancy);
        Append(&all.markers, &part.markers);
        Append(&all.sources, &part.sources);
        Append(&all.kernelTimestamps, &part.kernelTimestamps);
        Append(&all.signals, &part.signals);
        all.exitRecorded = all.exitRecorded || part.exitRecorded;
        owned->push_back(std::move(part.owned));  // the views of the merged records point into it
    }
    owned->push_back(std::move(all.owned));
    return all;
}

// Calls, commands and device times are joined on (part, thread, call index); a key recorded twice keeps its
// last record. Parts are numbered in the order of their names.
struct Key {
    uint32_t part;
    uint32_t position;  // in the spool, among the records of its kind
    uint64_t thread;
    uint64_t index;
    bool SameCall(const Key& other) const { return part == other.part && thread == other.thread && index == other.index; }
    bool operator<(const Key& other) const {
        return std::tie(part, thread, index, position) < std::tie(other.part, other.thread, other.index, other.position);
    }
};

class PartNumbers {
public:
    void Add(std::string_view name) {
        if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.emplace_back(name);
    }
    void Seal() { std::sort(names_.begin(), names_.end()); }
    uint32_t Of(std::string_view name) const {
        return static_cast<uint32_t>(std::lower_bound(names_.begin(), names_.end(), name,
                                                      [](const std::string& a, std::string_view b) { return a < b; }) -
                                     names_.begin());
    }
    const std::string& Name(uint32_t number) const { return names_[number]; }

private:
    std::vector<std::string> names_;
};

// The keys of `records` in key order, each call once (its last record).
template <typename Entry>
std::vector<Key> SortedKeys(const std::vector<Entry>& records, const PartNumbers& parts) {
    std::vector<Key> keys;
    keys.reserve(records.size());
    uint32_t lastPart = 0;
    std::string_view lastName;
    bool any = false;
    for (size_t i = 0; i < records.size(); ++i) {
        const Entry& record = records[i];
        if (!any || lastName != record.part) {
            lastPart = parts.Of(record.part);
            lastName = record.part;
            any = true;
        }
        keys.push_back({lastPart, static_cast<uint32_t>(i), record.thread, record.index});
    }
    if (!std::is_sorted(keys.begin(), keys.end())) std::sort(keys.begin(), keys.end());
    size_t kept = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (i + 1 < keys.size() && keys[i].SameCall(keys[i + 1])) continue;  // a later record of the same call follows
        keys[kept++] = keys[i];
    }
    keys.resize(kept);
    return keys;
}

// Finds keys in ascending order: each lookup continues where the last one stopped.
class KeyCursor {
public:
    explicit KeyCursor(const std::vector<Key>& keys) : keys_(keys) {}
    const Key* Find(const Key& wanted) {
        while (next_ < keys_.size() && std::tie(keys_[next_].part, keys_[next_].thread, keys_[next_].index) <
                                           std::tie(wanted.part, wanted.thread, wanted.index)) {
            ++next_;
        }
        return next_ < keys_.size() && keys_[next_].SameCall(wanted) ? &keys_[next_] : nullptr;
    }

private:
    const std::vector<Key>& keys_;
    size_t next_ = 0;
};

using Clocks = std::map<std::string, ClockCalibration, std::less<>>;

// The clock of a device key, remembering the last one asked for (records come in runs of one device).
class ClockLookup {
public:
    explicit ClockLookup(Clocks* clocks) : clocks_(clocks) {}
    ClockCalibration& operator[](std::string_view key) {
        if (!last_ || lastKey_ != key) {
            auto it = clocks_->find(key);
            if (it == clocks_->end()) it = clocks_->emplace(std::string(key), ClockCalibration()).first;
            lastKey_ = it->first;
            last_ = &it->second;
        }
        return *last_;
    }

private:
    Clocks* clocks_;
    std::string_view lastKey_;
    ClockCalibration* last_ = nullptr;
};

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

// The API trace sections and kernel timestamps of an assembled spool, as entries of the spool, in file order.
class AssembledSpool::Trace : public AtpTraceLines {
public:
    struct Slot {
        uint32_t call;
        uint32_t command = kNone;
        uint32_t times = kNone;
        const ClockCalibration* clock = nullptr;  // of the device times
    };
    struct Thread {
        uint64_t id;
        uint64_t firstStart;
        std::vector<Slot> slots;
    };
    struct Stamp {
        uint32_t entry;
        const ClockCalibration* clock;  // null: the times are CPU-clock times already
    };
    struct Part {
        std::vector<Thread> threads;
        std::vector<Stamp> stamps;
    };

    std::vector<Part> parts;  // in the order of AtpFile::parts
    std::vector<CallEntry> calls;
    RawCallExpander expandRawCall = nullptr;
    std::vector<CommandEntry> commands;
    std::vector<TimesEntry> times;
    std::vector<KernelEntry> kernels;
    std::vector<std::deque<std::string>> owned;
    Clocks clocks;

    size_t ThreadCount(size_t part) const override { return parts[part].threads.size(); }
    uint64_t ThreadId(size_t part, size_t thread) const override { return parts[part].threads[thread].id; }
    size_t CallCount(size_t part, size_t thread) const override { return parts[part].threads[thread].slots.size(); }

    void AppendApiLine(size_t part, size_t thread, size_t call, std::string* out) const override {
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

    void AppendTimestampLine(size_t part, size_t thread, size_t call, std::string* out) const override {
        const Slot& slot = parts[part].threads[thread].slots[call];
        spool::CallLine v;
        spool::CommandLine c;
        std::string error, expanded;
        spool::DecodeLine(CallLineText(calls[slot.call], expandRawCall, &expanded), &v, &error);
        if (slot.command != kNone) spool::DecodeLine(commands[slot.command].line, &c, &error);
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

    size_t KernelTimestampCount(size_t part) const override { return parts[part].stamps.size(); }

    void AppendKernelTimestampLine(size_t part, size_t entry, std::string* out) const override {
        const Stamp& stamp = parts[part].stamps[entry];
        spool::KernelTimestampLine v;
        std::string error;
        spool::DecodeLine(kernels[stamp.entry].line, &v, &error);
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

    // The ApiCall of a slot, as AssembleSpool has it.
    ApiCall Call(const Slot& slot) const {
        std::string error, expanded;
        std::optional<spool::Record> record = spool::Decode(CallLineText(calls[slot.call], expandRawCall, &expanded), &error);
        ApiCall call = std::move(std::get<spool::CallRecord>(*record).call);
        if (slot.command != kNone) {
            std::optional<spool::Record> command = spool::Decode(commands[slot.command].line, &error);
            spool::CommandRecord& e = std::get<spool::CommandRecord>(*command);
            CommandTimes commandTimes = std::move(e.command);
            MapTimes(slot, &commandTimes.queued, &commandTimes.submit, &commandTimes.start, &commandTimes.end);
            call.command = std::move(commandTimes);
            call.kernel = std::move(e.kernel);
            call.transferSize = e.transferSize;
        }
        return call;
    }

    KernelTimestamp KernelTimestampOf(const Stamp& stamp) const {
        std::string error;
        std::optional<spool::Record> record = spool::Decode(kernels[stamp.entry].line, &error);
        KernelTimestamp entry = std::move(std::get<spool::KernelTimestampRecord>(*record).entry);
        if (stamp.clock) {
            entry.start = stamp.clock->Map(entry.start);
            entry.end = stamp.clock->Map(entry.end);
        }
        return entry;
    }

private:
    // A command's device times on the CPU clock; all 0 when it never completed.
    void MapTimes(const Slot& slot, uint64_t* queued, uint64_t* submit, uint64_t* start, uint64_t* end) const {
        if (slot.times == kNone) return;
        const TimesEntry& t = times[slot.times];
        *queued = slot.clock->Map(t.queued);
        *submit = slot.clock->Map(t.submit);
        *start = slot.clock->Map(t.start);
        *end = slot.clock->Map(t.end);
    }
};

AssembledSpool::~AssembledSpool() = default;

const AtpTraceLines& AssembledSpool::traceLines() const { return *trace_; }

size_t AssembledSpool::traceThreads() const {
    size_t threads = 0;
    for (const Trace::Part& part : trace_->parts) threads += part.threads.size();
    return threads;
}

AssembledSpool::AssembledSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver)
    : trace_(std::make_unique<Trace>()) {
    AssembledProcess& out = process_;
    Trace& trace = *trace_;
    trace.expandRawCall = options.expandRawCall;
    Collected records = CollectSpool(spoolText, options, &trace.owned);

    if (!records.processes.empty()) {
        out.process = std::move(records.processes.front());
        out.hasProcessRecord = true;
    }
    std::vector<spool::DeviceRecord> devices;
    for (spool::DeviceRecord& device : records.devices) {
        bool known = false;
        for (const auto& earlier : devices) known = known || earlier.key == device.key;
        if (!known) devices.push_back(std::move(device));
    }
    std::map<std::string, std::vector<std::string>> counterLists;
    for (spool::CounterListRecord& list : records.counterLists) counterLists[list.api] = std::move(list.names);
    for (Collected::Note& note : records.notes) {
        if (note.line == 0) {
            out.notes.push_back(std::move(note.text));
        } else if (++out.badRecords <= 3) {
            out.notes.push_back("spool line " + std::to_string(note.line) + " unreadable: " + note.text);
        }
    }
    if (out.badRecords > 3) out.notes.push_back(std::to_string(out.badRecords) + " spool lines were unreadable");
    if (!records.signals.empty()) out.signal = std::move(records.signals.front());
    out.exitRecorded = records.exitRecorded;

    trace.calls = std::move(records.calls);
    trace.commands = std::move(records.commands);
    trace.times = std::move(records.times);
    trace.kernels = std::move(records.kernelTimestamps);
    ClockLookup clock(&trace.clocks);
    for (const spool::CalibrationRecord& c : records.calibrations) clock[c.deviceKey].AddSample(c.cpuBefore, c.cpuAfter, c.deviceTime);

    PartNumbers partNumbers;
    for (const auto& call : trace.calls) partNumbers.Add(call.part);
    for (const auto& command : trace.commands) partNumbers.Add(command.part);
    for (const auto& stamp : trace.times) partNumbers.Add(stamp.part);
    partNumbers.Seal();
    const std::vector<Key> callKeys = SortedKeys(trace.calls, partNumbers);
    const std::vector<Key> commandKeys = SortedKeys(trace.commands, partNumbers);
    const std::vector<Key> timeKeys = SortedKeys(trace.times, partNumbers);

    // Clocks: every completed command is a sample (its QUEUED stamp lies inside its enqueue call).
    {
        KeyCursor calls(callKeys);
        for (const Key& key : timeKeys) {
            const TimesEntry& stamp = trace.times[key.position];
            const Key* call = calls.Find(key);
            if (call && stamp.queued != 0) {
                const CallEntry& c = trace.calls[call->position];
                clock[stamp.deviceKey].AddSample(c.start, c.end, stamp.queued);
            }
        }
    }

    SessionInfo session;
    session.profilerVersion = options.profilerVersion;
    session.application = out.process.application;
    session.applicationArgs = out.process.applicationArgs;
    session.workingDirectory = out.process.workingDirectory;
    session.fullEnvironment = options.fullEnvironment;
    session.environment = options.environment;
    for (const auto& device : devices) session.devices.push_back(device.header);
    session.osVersion = options.osVersion;
    session.displayName = options.displayName;
    session.listSeparator = options.listSeparator;

    if (options.trace) {
        AtpFile atp;
        atp.session = session;
        // Each part: its header and stack traces in the AtpFile, its calls and kernel timestamps in the trace.
        struct PartBuild {
            ApiTracePart file;
            Trace::Part trace;
        };
        std::map<std::string, PartBuild> parts;
        KeyCursor commands(commandKeys);
        KeyCursor times(timeKeys);
        // The calls of one part and thread are consecutive in key order, by call index.
        for (size_t first = 0; first < callKeys.size();) {
            const uint32_t part = callKeys[first].part;
            std::vector<Trace::Thread> threads;
            while (first < callKeys.size() && callKeys[first].part == part) {
                const uint64_t tid = callKeys[first].thread;
                size_t last = first;
                while (last < callKeys.size() && callKeys[last].part == part && callKeys[last].thread == tid) ++last;
                Trace::Thread thread{tid, trace.calls[callKeys[first].position].start, {}};
                thread.slots.reserve(last - first);
                for (size_t i = first; i < last; ++i) {
                    const Key& key = callKeys[i];
                    Trace::Slot slot{key.position};
                    if (const Key* commandKey = commands.Find(key)) {
                        slot.command = commandKey->position;
                        if (const Key* timeKey = times.Find(key)) {
                            slot.times = timeKey->position;
                            slot.clock = &clock[trace.times[timeKey->position].deviceKey];
                        } else {
                            ++out.unfinishedCommands;
                        }
                    }
                    thread.slots.push_back(slot);
                }
                out.apiCalls += last - first;
                threads.push_back(std::move(thread));
                first = last;
            }
            std::sort(threads.begin(), threads.end(), [](const Trace::Thread& a, const Trace::Thread& b) {
                return std::tie(a.firstStart, a.id) < std::tie(b.firstStart, b.id);
            });
            PartBuild& build = parts[partNumbers.Name(part)];
            build.file.api = partNumbers.Name(part);
            build.trace.threads = std::move(threads);
        }

        // Kernel timestamps by start time; those of equal start in spool order.
        std::vector<std::pair<uint64_t, uint32_t>> stampOrder;
        stampOrder.reserve(trace.kernels.size());
        for (size_t i = 0; i < trace.kernels.size(); ++i) stampOrder.emplace_back(trace.kernels[i].start, static_cast<uint32_t>(i));
        if (!std::is_sorted(stampOrder.begin(), stampOrder.end())) std::sort(stampOrder.begin(), stampOrder.end());
        PartBuild* lastPart = nullptr;
        for (const auto& [start, position] : stampOrder) {
            const KernelEntry& stamp = trace.kernels[position];
            if (!lastPart || lastPart->file.api != stamp.part) {
                lastPart = &parts[std::string(stamp.part)];
                lastPart->file.api = stamp.part;
            }
            lastPart->trace.stamps.push_back({position, stamp.deviceKey.empty() ? nullptr : &clock[stamp.deviceKey]});
        }

        std::vector<spool::SourceRecord>& sources = records.sources;
        if (!sources.empty()) {
            // Each caller (module, address, load base) is resolved once, however often it called.
            struct CallerHash {
                size_t operator()(const std::tuple<std::string_view, uint64_t, uint64_t>& c) const {
                    return std::hash<std::string_view>()(std::get<0>(c)) ^ (std::get<1>(c) * 0x9E3779B97F4A7C15ull) ^
                           (std::get<2>(c) * 0xC2B2AE3D27D4EB4Full);
                }
            };
            std::unordered_set<std::tuple<std::string_view, uint64_t, uint64_t>, CallerHash> callers;
            std::vector<std::tuple<std::string, uint64_t, uint64_t>> wanted;
            for (const auto& source : sources) {
                if (callers.insert({source.module, source.address, source.moduleBase}).second) {
                    wanted.emplace_back(source.module, source.address, source.moduleBase);
                }
            }
            std::map<std::pair<std::string, uint64_t>, ResolvedAddress> resolved;
            if (resolver) resolved = resolver->Resolve(wanted);
            struct AddressHash {
                size_t operator()(const std::pair<std::string_view, uint64_t>& a) const {
                    return std::hash<std::string_view>()(a.first) ^ (a.second * 0x9E3779B97F4A7C15ull);
                }
            };
            std::unordered_map<std::pair<std::string_view, uint64_t>, const ResolvedAddress*, AddressHash> resolvedAt;
            resolvedAt.reserve(resolved.size());
            for (const auto& [key, result] : resolved) resolvedAt.emplace(std::pair<std::string_view, uint64_t>(key.first, key.second), &result);
            std::map<std::string, std::map<uint64_t, std::vector<std::pair<uint64_t, SourceLocation>>>> byThread;
            std::vector<std::pair<uint64_t, SourceLocation>>* lastThread = nullptr;
            const spool::SourceRecord* lastSource = nullptr;
            for (auto& source : sources) {
                SourceLocation location;
                location.apiName = std::move(source.apiName);
                auto it = resolvedAt.find({source.module, source.address});
                const ResolvedAddress* where = it == resolvedAt.end() ? nullptr : it->second;
                if (where && where->line) {
                    location.symbol = !where->function.empty() ? where->function
                                      : !source.symbol.empty() ? source.symbol
                                                               : BaseName(source.module);
                    location.line = where->line;
                    location.file = where->file;
                } else if (!source.symbol.empty()) {
                    location.symbol = source.symbol;
                    location.displacement = source.address - source.symbolAddress;
                } else if (where && !where->function.empty()) {
                    location.symbol = where->function;
                } else if (!source.module.empty()) {
                    location.symbol = BaseName(source.module);
                    location.displacement = source.address - source.moduleBase;
                } else {
                    location.symbol = HexHandle(source.address);
                }
                if (!lastSource || lastSource->part != source.part || lastSource->threadId != source.threadId) {
                    lastThread = &byThread[source.part][source.threadId];
                    lastSource = &source;
                }
                lastThread->push_back({source.index, std::move(location)});
            }
            for (auto& [part, perThread] : byThread) {
                // Same thread order as the API trace blocks.
                PartBuild& build = parts[part];
                std::vector<uint64_t> order;
                for (const auto& thread : build.trace.threads) order.push_back(thread.id);
                for (const auto& [tid, entries] : perThread) {
                    if (std::find(order.begin(), order.end(), tid) == order.end()) order.push_back(tid);
                }
                for (uint64_t tid : order) {
                    auto found = perThread.find(tid);
                    if (found == perThread.end()) continue;
                    std::sort(found->second.begin(), found->second.end(),
                              [](const auto& a, const auto& b) { return a.first < b.first; });
                    ThreadBlock<SourceLocation> block;
                    block.threadId = tid;
                    block.entries.reserve(found->second.size());
                    for (auto& [index, location] : found->second) block.entries.push_back(std::move(location));
                    build.file.api = part;
                    build.file.sourceThreads.push_back(std::move(block));
                }
            }
        }

        if (parts.empty()) parts["ocl"].file.api = "ocl";  // a trace without calls still says what it excluded
        // -F names APIs of every part; each part's header line lists its own (cl*, cu*/cuda*, hsa*).
        for (auto& [partName, build] : parts) {
            const std::string prefix = partName == "ocl" ? "cl" : partName == "cuda" ? "cu" : partName;
            for (const std::string& api : options.excludedApis) {
                if (api.rfind(prefix, 0) == 0) build.file.excludedApis.push_back(api);
            }
        }

        std::vector<std::string> names;
        for (const auto& [name, part] : parts) names.push_back(name);
        std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
            return std::make_pair(PartRank(a), a) < std::make_pair(PartRank(b), b);
        });
        for (const std::string& name : names) {
            atp.parts.push_back(std::move(parts[name].file));
            trace.parts.push_back(std::move(parts[name].trace));
        }

        std::map<uint64_t, ThreadBlock<PerfMarker>> markerBlocks;
        std::vector<uint64_t> markerOrder;
        for (auto& marker : records.markers) {
            auto [block, added] = markerBlocks.try_emplace(marker.threadId);
            if (added) markerOrder.push_back(marker.threadId);
            block->second.threadId = marker.threadId;
            block->second.entries.push_back(std::move(marker.marker));
        }
        for (uint64_t tid : markerOrder) atp.markerThreads.push_back(std::move(markerBlocks[tid]));
        out.atp = std::move(atp);
        // Every offset now, so that the lines can be written from several threads (Offset() caches it).
        for (const auto& [key, calibration] : trace.clocks) calibration.Offset();
    }

    if (options.counters) {
        std::vector<spool::DispatchRecord>& dispatches = records.dispatches;
        CsvFile csv;
        csv.session = session;
        csv.api = options.defaultApi;
        csv.forceSinglePass = options.forceSinglePass;
        csv.kernelsProfiled = options.kernelsProfiled;
        csv.maxKernelsToProfile = options.maxKernelsToProfile;
        std::sort(dispatches.begin(), dispatches.end(),
                  [](const auto& a, const auto& b) { return a.row.executionOrder < b.row.executionOrder; });
        if (!dispatches.empty()) {
            csv.api = dispatches.front().api;
        } else if (counterLists.size() == 1) {
            csv.api = counterLists.begin()->first;
        }
        auto list = counterLists.find(csv.api);
        if (list != counterLists.end()) {
            csv.counterNames = list->second;
        } else if (!dispatches.empty()) {
            for (const auto& counter : dispatches.front().row.counters) csv.counterNames.push_back(counter.name);
        }
        std::vector<std::string> sortedNames = csv.counterNames;
        std::sort(sortedNames.begin(), sortedNames.end());
        const bool uniqueNames = std::adjacent_find(sortedNames.begin(), sortedNames.end()) == sortedNames.end();
        csv.rows.reserve(dispatches.size());
        for (auto& dispatch : dispatches) {
            if (dispatch.api != csv.api) {
                out.notes.push_back("a " + dispatch.api + " dispatch is not in the " + csv.api + " .csv file");
                continue;
            }
            // Columns follow the counter list; a counter a row lacks is NA.
            DispatchRow row = std::move(dispatch.row);
            const bool inOrder = uniqueNames && row.counters.size() == csv.counterNames.size() &&
                                 std::equal(csv.counterNames.begin(), csv.counterNames.end(), row.counters.begin(),
                                            [](const std::string& name, const CounterValue& value) {
                                                return value.name == name;
                                            });
            if (!inOrder) {
                // The first counter of each name (a name may be listed twice).
                std::vector<CounterValue> ordered;
                for (const std::string& name : csv.counterNames) {
                    auto found = std::find_if(row.counters.begin(), row.counters.end(),
                                              [&](const CounterValue& value) { return value.name == name; });
                    ordered.push_back(found == row.counters.end() ? CounterValue::NA(name) : *found);
                }
                row.counters = std::move(ordered);
            }
            csv.rows.push_back(std::move(row));
        }
        out.dispatches = csv.rows.size();
        out.csv = std::move(csv);
    }

    if (options.occupancy) {
        std::vector<spool::OccupancyRecord>& occupancy = records.occupancy;
        OccupancyFile file;
        file.session = session;
        auto byOrder = [](const auto& a, const auto& b) { return a.executionOrder < b.executionOrder; };
        if (!std::is_sorted(occupancy.begin(), occupancy.end(), byOrder)) {
            std::stable_sort(occupancy.begin(), occupancy.end(), byOrder);
        }
        file.rows.reserve(occupancy.size());
        for (auto& record : occupancy) file.rows.push_back(std::move(record.row));
        out.occupancy = std::move(file);
    }
}

void AssembledSpool::MaterializeTrace() {
    if (!process_.atp) return;
    AtpFile& atp = *process_.atp;
    for (size_t p = 0; p < trace_->parts.size(); ++p) {
        const Trace::Part& part = trace_->parts[p];
        ApiTracePart& file = atp.parts[p];
        file.threads.clear();
        file.threads.reserve(part.threads.size());
        for (const Trace::Thread& thread : part.threads) {
            ThreadBlock<ApiCall> block;
            block.threadId = thread.id;
            block.entries.reserve(thread.slots.size());
            for (const Trace::Slot& slot : thread.slots) block.entries.push_back(trace_->Call(slot));
            file.threads.push_back(std::move(block));
        }
        file.kernelTimestamps.clear();
        file.kernelTimestamps.reserve(part.stamps.size());
        for (const Trace::Stamp& stamp : part.stamps) file.kernelTimestamps.push_back(trace_->KernelTimestampOf(stamp));
    }
}

AssembledProcess AssembleSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver) {
    AssembledSpool assembled(spoolText, options, resolver);
    assembled.MaterializeTrace();
    return std::move(assembled.process());
}

}  // namespace gpaprof
