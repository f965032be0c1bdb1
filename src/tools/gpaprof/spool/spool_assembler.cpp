#include "tools/gpaprof/spool/spool_assembler.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <thread>
#include <tuple>

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

// The records of (a stretch of) a spool, decoded and sorted by type, each kind in spool order. What depends on
// the order of the whole spool (first process record, first signal, notes) is kept in order for the merge.
struct Collected {
    size_t lines = 0;                        // lines of the stretch (1-based numbers in the spool: offset + i)
    std::vector<spool::ProcessRecord> processes;
    std::vector<spool::DeviceRecord> devices;
    std::vector<spool::CounterListRecord> counterLists;
    std::vector<spool::CallRecord> calls;
    std::vector<spool::CommandRecord> commands;
    std::vector<spool::TimesRecord> times;
    std::vector<spool::CalibrationRecord> calibrations;
    std::vector<spool::DispatchRecord> dispatches;
    std::vector<spool::OccupancyRecord> occupancy;
    std::vector<spool::MarkerRecord> markers;
    std::vector<spool::SourceRecord> sources;
    std::vector<spool::KernelTimestampRecord> kernelTimestamps;
    std::vector<spool::EventRecord> signals;
    bool exitRecorded = false;
    struct Note {
        size_t line = 0;                     // 0: a NoteRecord; else the line (in the stretch) that was unreadable
        std::string text;                    // the note, or why the line is unreadable
    };
    std::vector<Note> notes;
};

// Room for the records of `text`, counted by their letters: no vector grows (and moves its records) while
// the stretch is decoded.
void Reserve(std::string_view text, Collected* out) {
    size_t counts[256] = {};
    for (size_t begin = 0; begin < text.size();) {
        ++counts[static_cast<unsigned char>(text[begin])];
        const void* newline = std::memchr(text.data() + begin, '\n', text.size() - begin);
        if (!newline) break;
        begin = static_cast<size_t>(static_cast<const char*>(newline) - text.data()) + 1;
    }
    out->calls.reserve(counts[static_cast<unsigned char>('A')]);
    out->commands.reserve(counts[static_cast<unsigned char>('E')]);
    out->times.reserve(counts[static_cast<unsigned char>('T')]);
    out->dispatches.reserve(counts[static_cast<unsigned char>('K')]);
    out->occupancy.reserve(counts[static_cast<unsigned char>('O')]);
    out->markers.reserve(counts[static_cast<unsigned char>('M')]);
    out->sources.reserve(counts[static_cast<unsigned char>('S')]);
    out->kernelTimestamps.reserve(counts[static_cast<unsigned char>('Q')]);
}

// Decodes the complete lines of `text` (each ends with '\n').
void Collect(std::string_view text, Collected* out) {
    Reserve(text, out);
    size_t begin = 0;
    std::string error;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        const size_t lineNumber = ++out->lines;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        std::optional<spool::Record> record = spool::Decode(line, &error);
        if (!record) {
            out->notes.push_back({lineNumber, error});
            continue;
        }
        std::visit(
            [&](auto&& r) {
                using T = std::decay_t<decltype(r)>;
                if constexpr (std::is_same_v<T, spool::ProcessRecord>) {
                    out->processes.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::DeviceRecord>) {
                    out->devices.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::CounterListRecord>) {
                    out->counterLists.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::CallRecord>) {
                    out->calls.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::CommandRecord>) {
                    out->commands.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::TimesRecord>) {
                    out->times.push_back(std::move(r));
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
                } else if constexpr (std::is_same_v<T, spool::KernelTimestampRecord>) {
                    out->kernelTimestamps.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::EventRecord>) {
                    if (r.kind == "exit") out->exitRecorded = true;
                    if (r.kind == "signal" && out->signals.empty()) out->signals.push_back(std::move(r));
                } else if constexpr (std::is_same_v<T, spool::NoteRecord>) {
                    out->notes.push_back({0, std::move(r.message)});
                }
            },
            *record);
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

// Decodes the spool's complete lines: a line without its final '\n' was cut short by the end of the process.
// A large spool is decoded in stretches on several threads, then put back together in spool order.
Collected CollectSpool(std::string_view spoolText) {
    const size_t lastNewline = spoolText.rfind('\n');
    const std::string_view complete = lastNewline == std::string_view::npos ? std::string_view()
                                                                             : spoolText.substr(0, lastNewline + 1);
    constexpr size_t kBytesPerThread = 2 << 20;
    const size_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const size_t threads = std::min({hardware, size_t{8}, complete.size() / kBytesPerThread + 1});
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
    for (size_t i = 1; i < stretches.size(); ++i) workers.emplace_back(Collect, stretches[i], &parts[i]);
    if (!stretches.empty()) Collect(stretches[0], &parts[0]);
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
    }
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
    void Add(const std::string& name) {
        if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.push_back(name);
    }
    void Seal() { std::sort(names_.begin(), names_.end()); }
    uint32_t Of(const std::string& name) const {
        return static_cast<uint32_t>(std::lower_bound(names_.begin(), names_.end(), name) - names_.begin());
    }
    const std::string& Name(uint32_t number) const { return names_[number]; }

private:
    std::vector<std::string> names_;
};

// The keys of `records` in key order, each call once (its last record).
template <typename Record>
std::vector<Key> SortedKeys(const std::vector<Record>& records, const PartNumbers& parts) {
    std::vector<Key> keys;
    keys.reserve(records.size());
    uint32_t lastPart = 0;
    const std::string* lastName = nullptr;
    for (size_t i = 0; i < records.size(); ++i) {
        const Record& record = records[i];
        if (!lastName || *lastName != record.part) {
            lastPart = parts.Of(record.part);
            lastName = &record.part;
        }
        keys.push_back({lastPart, static_cast<uint32_t>(i), record.threadId, record.index});
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

// The clock of a device key, remembering the last one asked for (records come in runs of one device).
class ClockLookup {
public:
    explicit ClockLookup(std::map<std::string, ClockCalibration>* clocks) : clocks_(clocks) {}
    ClockCalibration& operator[](const std::string& key) {
        if (!last_ || *lastKey_ != key) {
            auto it = clocks_->try_emplace(key).first;
            lastKey_ = &it->first;
            last_ = &it->second;
        }
        return *last_;
    }

private:
    std::map<std::string, ClockCalibration>* clocks_;
    const std::string* lastKey_ = nullptr;
    ClockCalibration* last_ = nullptr;
};

}  // namespace

AssembledProcess AssembleSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver) {
    AssembledProcess out;
    Collected records = CollectSpool(spoolText);

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

    std::map<std::string, ClockCalibration> clocks;
    ClockLookup clock(&clocks);
    for (const spool::CalibrationRecord& c : records.calibrations) clock[c.deviceKey].AddSample(c.cpuBefore, c.cpuAfter, c.deviceTime);

    PartNumbers partNumbers;
    for (const auto& call : records.calls) partNumbers.Add(call.part);
    for (const auto& command : records.commands) partNumbers.Add(command.part);
    for (const auto& stamp : records.times) partNumbers.Add(stamp.part);
    partNumbers.Seal();
    const std::vector<Key> callKeys = SortedKeys(records.calls, partNumbers);
    const std::vector<Key> commandKeys = SortedKeys(records.commands, partNumbers);
    const std::vector<Key> timeKeys = SortedKeys(records.times, partNumbers);

    // Clocks: every completed command is a sample (its QUEUED stamp lies inside its enqueue call).
    {
        KeyCursor calls(callKeys);
        for (const Key& key : timeKeys) {
            const spool::TimesRecord& stamp = records.times[key.position];
            const Key* call = calls.Find(key);
            if (call && stamp.queued != 0) {
                const ApiCall& c = records.calls[call->position].call;
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
        std::map<std::string, ApiTracePart> parts;
        // The calls of one part and thread are consecutive in key order, by call index.
        KeyCursor commands(commandKeys);
        KeyCursor times(timeKeys);
        struct Thread {
            uint64_t firstStart;
            uint64_t tid;
            ThreadBlock<ApiCall> block;
        };
        for (size_t first = 0; first < callKeys.size();) {
            const uint32_t part = callKeys[first].part;
            std::vector<Thread> threads;
            while (first < callKeys.size() && callKeys[first].part == part) {
                const uint64_t tid = callKeys[first].thread;
                size_t last = first;
                while (last < callKeys.size() && callKeys[last].part == part && callKeys[last].thread == tid) ++last;
                Thread thread{records.calls[callKeys[first].position].call.start, tid, {}};
                thread.block.threadId = tid;
                thread.block.entries.reserve(last - first);
                for (size_t i = first; i < last; ++i) {
                    const Key& key = callKeys[i];
                    ApiCall call = std::move(records.calls[key.position].call);
                    if (const Key* commandKey = commands.Find(key)) {
                        spool::CommandRecord& command = records.commands[commandKey->position];
                        CommandTimes commandTimes = std::move(command.command);
                        if (const Key* timeKey = times.Find(key)) {
                            const spool::TimesRecord& stamp = records.times[timeKey->position];
                            const ClockCalibration& c = clock[stamp.deviceKey];
                            commandTimes.queued = c.Map(stamp.queued);
                            commandTimes.submit = c.Map(stamp.submit);
                            commandTimes.start = c.Map(stamp.start);
                            commandTimes.end = c.Map(stamp.end);
                        } else {
                            ++out.unfinishedCommands;
                        }
                        call.command = std::move(commandTimes);
                        call.kernel = std::move(command.kernel);
                        call.transferSize = command.transferSize;
                    }
                    thread.block.entries.push_back(std::move(call));
                }
                out.apiCalls += last - first;
                threads.push_back(std::move(thread));
                first = last;
            }
            std::sort(threads.begin(), threads.end(), [](const Thread& a, const Thread& b) {
                return std::tie(a.firstStart, a.tid) < std::tie(b.firstStart, b.tid);
            });
            ApiTracePart& tracePart = parts[partNumbers.Name(part)];
            tracePart.api = partNumbers.Name(part);
            for (Thread& thread : threads) tracePart.threads.push_back(std::move(thread.block));
        }

        // Kernel timestamps by start time; those of equal start in spool order.
        std::vector<std::pair<uint64_t, size_t>> stampOrder;
        stampOrder.reserve(records.kernelTimestamps.size());
        for (size_t i = 0; i < records.kernelTimestamps.size(); ++i) {
            stampOrder.emplace_back(records.kernelTimestamps[i].entry.start, i);
        }
        if (!std::is_sorted(stampOrder.begin(), stampOrder.end())) std::sort(stampOrder.begin(), stampOrder.end());
        ApiTracePart* lastPart = nullptr;
        for (const auto& [start, position] : stampOrder) {
            spool::KernelTimestampRecord& stamp = records.kernelTimestamps[position];
            KernelTimestamp entry = std::move(stamp.entry);
            if (!stamp.deviceKey.empty()) {
                const ClockCalibration& c = clock[stamp.deviceKey];
                entry.start = c.Map(entry.start);
                entry.end = c.Map(entry.end);
            }
            if (!lastPart || lastPart->api != stamp.part) {
                lastPart = &parts[stamp.part];
                lastPart->api = stamp.part;
            }
            lastPart->kernelTimestamps.push_back(std::move(entry));
        }

        const std::vector<spool::SourceRecord>& sources = records.sources;
        if (!sources.empty()) {
            std::vector<std::tuple<std::string, uint64_t, uint64_t>> wanted;
            wanted.reserve(sources.size());
            for (const auto& source : sources) wanted.emplace_back(source.module, source.address, source.moduleBase);
            std::map<std::pair<std::string, uint64_t>, ResolvedAddress> resolved;
            if (resolver) resolved = resolver->Resolve(wanted);
            std::map<std::string, std::map<uint64_t, std::vector<std::pair<uint64_t, SourceLocation>>>> byThread;
            std::vector<std::pair<uint64_t, SourceLocation>>* lastThread = nullptr;
            const spool::SourceRecord* lastSource = nullptr;
            for (const auto& source : sources) {
                SourceLocation location;
                location.apiName = source.apiName;
                auto it = resolved.find({source.module, source.address});
                const ResolvedAddress* where = it == resolved.end() ? nullptr : &it->second;
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
                std::vector<uint64_t> order;
                for (const auto& block : parts[part].threads) order.push_back(block.threadId);
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
                    parts[part].api = part;
                    parts[part].sourceThreads.push_back(std::move(block));
                }
            }
        }

        if (parts.empty()) parts["ocl"].api = "ocl";  // a trace without calls still says what it excluded
        // -F names APIs of every part; each part's header line lists its own (cl*, cu*/cuda*, hsa*).
        for (auto& [partName, tracePart] : parts) {
            const std::string prefix = partName == "ocl" ? "cl" : partName == "cuda" ? "cu" : partName;
            for (const std::string& api : options.excludedApis) {
                if (api.rfind(prefix, 0) == 0) tracePart.excludedApis.push_back(api);
            }
        }

        std::vector<std::string> names;
        for (const auto& [name, part] : parts) names.push_back(name);
        std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
            return std::make_pair(PartRank(a), a) < std::make_pair(PartRank(b), b);
        });
        for (const std::string& name : names) atp.parts.push_back(std::move(parts[name]));

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
    return out;
}

}  // namespace gpaprof
