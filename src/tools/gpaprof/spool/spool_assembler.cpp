#include "tools/gpaprof/spool/spool_assembler.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/clock_calibration.h"
#include "tools/gpaprof/spool/spool_assembler_internal.h"
#include "tools/gpaprof/spool/spool_trace_entries.h"

namespace gpaprof {

// The spool's records as collected, and the keys they are joined by (spool_assembler_internal.h).
using assembly::CallEntry;
using assembly::CommandEntry;
using assembly::TimesEntry;
using assembly::KernelEntry;
using assembly::Collected;
using assembly::CollectSpool;
using assembly::Key;
using assembly::PartNumbers;
using assembly::SortedKeys;
using assembly::KeyCursor;
using assembly::Clocks;
using assembly::kNone;

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

}  // namespace

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
    trace.expandRawKernel = options.expandRawKernel;
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
            out.spoolProblems.push_back("spool line " + std::to_string(note.line) + " unreadable: " + note.text);
        }
    }
    if (out.badRecords > 3) out.spoolProblems.push_back(std::to_string(out.badRecords) + " spool lines were unreadable");
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
    const spool::ProcessPlace& place = out.process.place;
    if (!place.hostName.empty()) session.hostName = place.hostName;
    if (!place.clockId.empty()) session.clockId = place.clockId;
    if (!place.rankVariable.empty()) session.processRank = EnvironmentVariable{place.rankVariable, place.rankValue};

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
                out.spoolProblems.push_back("a " + dispatch.api + " dispatch is not in the " + csv.api + " .csv file");
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
        // The GraphLaunch/GraphNode columns only in files that have rows of CUDA graph launches.
        csv.hasGraphColumns = AnyGraphRow(csv.rows);
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

    out.pmSampling = assembly::AssemblePmSampling(std::move(records.pmDevices), std::move(records.pmSamples), session,
                                                  &out.pmSamplingProblems);
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
