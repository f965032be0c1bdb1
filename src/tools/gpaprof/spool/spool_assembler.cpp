#include "tools/gpaprof/spool/spool_assembler.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/clock_calibration.h"

namespace gpaprof {
namespace {

using Key = std::tuple<std::string, uint64_t, uint64_t>;  // part, thread, index

std::string BaseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

const std::vector<std::string> kPartOrder = {"ocl", "hsa", "cuda"};

size_t PartRank(const std::string& part) {
    auto it = std::find(kPartOrder.begin(), kPartOrder.end(), part);
    return static_cast<size_t>(it - kPartOrder.begin());
}

}  // namespace

AssembledProcess AssembleSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver) {
    AssembledProcess out;
    std::vector<spool::DeviceRecord> devices;
    std::map<std::string, std::vector<std::string>> counterLists;
    std::map<Key, spool::CallRecord> calls;
    std::map<Key, spool::CommandRecord> commands;
    std::map<Key, spool::TimesRecord> times;
    std::vector<spool::DispatchRecord> dispatches;
    std::vector<spool::OccupancyRecord> occupancy;
    std::vector<spool::MarkerRecord> markers;
    std::vector<spool::SourceRecord> sources;
    std::vector<spool::KernelTimestampRecord> kernelTimestamps;
    std::map<std::string, ClockCalibration> clocks;

    const std::vector<std::string_view> lines = SplitLines(spoolText);
    const bool lastLineComplete = !spoolText.empty() && spoolText.back() == '\n';
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i + 1 == lines.size() && !lastLineComplete) break;  // cut short by the end of the process
        if (lines[i].empty()) continue;
        std::string error;
        std::optional<spool::Record> record = spool::Decode(lines[i], &error);
        if (!record) {
            if (++out.badRecords <= 3) out.notes.push_back("spool line " + std::to_string(i + 1) + " unreadable: " + error);
            continue;
        }
        std::visit(
            [&](auto&& r) {
                using T = std::decay_t<decltype(r)>;
                if constexpr (std::is_same_v<T, spool::ProcessRecord>) {
                    if (!out.hasProcessRecord) out.process = r;
                    out.hasProcessRecord = true;
                } else if constexpr (std::is_same_v<T, spool::DeviceRecord>) {
                    for (const auto& known : devices) {
                        if (known.key == r.key) return;
                    }
                    devices.push_back(r);
                } else if constexpr (std::is_same_v<T, spool::CounterListRecord>) {
                    counterLists[r.api] = r.names;
                } else if constexpr (std::is_same_v<T, spool::CallRecord>) {
                    calls[{r.part, r.threadId, r.index}] = r;
                } else if constexpr (std::is_same_v<T, spool::CommandRecord>) {
                    commands[{r.part, r.threadId, r.index}] = r;
                } else if constexpr (std::is_same_v<T, spool::TimesRecord>) {
                    times[{r.part, r.threadId, r.index}] = r;
                } else if constexpr (std::is_same_v<T, spool::CalibrationRecord>) {
                    clocks[r.deviceKey].AddSample(r.cpuBefore, r.cpuAfter, r.deviceTime);
                } else if constexpr (std::is_same_v<T, spool::DispatchRecord>) {
                    dispatches.push_back(r);
                } else if constexpr (std::is_same_v<T, spool::OccupancyRecord>) {
                    occupancy.push_back(r);
                } else if constexpr (std::is_same_v<T, spool::MarkerRecord>) {
                    markers.push_back(r);
                } else if constexpr (std::is_same_v<T, spool::SourceRecord>) {
                    sources.push_back(r);
                } else if constexpr (std::is_same_v<T, spool::KernelTimestampRecord>) {
                    kernelTimestamps.push_back(r);
                } else if constexpr (std::is_same_v<T, spool::EventRecord>) {
                    if (r.kind == "signal" && !out.signal) out.signal = r;
                    if (r.kind == "exit") out.exitRecorded = true;
                } else if constexpr (std::is_same_v<T, spool::NoteRecord>) {
                    out.notes.push_back(r.message);
                }
            },
            *record);
    }
    if (out.badRecords > 3) out.notes.push_back(std::to_string(out.badRecords) + " spool lines were unreadable");

    // Clocks: every completed command is a sample (its QUEUED stamp lies inside its enqueue call).
    for (const auto& [key, stamp] : times) {
        auto call = calls.find(key);
        if (call != calls.end() && stamp.queued != 0) {
            clocks[stamp.deviceKey].AddSample(call->second.call.start, call->second.call.end, stamp.queued);
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
        std::map<std::string, std::map<uint64_t, ThreadBlock<ApiCall>>> threads;
        std::map<std::string, std::map<uint64_t, uint64_t>> firstStart;
        for (auto& [key, record] : calls) {
            const auto& [part, tid, index] = key;
            ApiCall call = record.call;
            auto command = commands.find(key);
            if (command != commands.end()) {
                CommandTimes commandTimes = command->second.command;
                auto stamp = times.find(key);
                if (stamp != times.end()) {
                    const ClockCalibration& clock = clocks[stamp->second.deviceKey];
                    commandTimes.queued = clock.Map(stamp->second.queued);
                    commandTimes.submit = clock.Map(stamp->second.submit);
                    commandTimes.start = clock.Map(stamp->second.start);
                    commandTimes.end = clock.Map(stamp->second.end);
                } else {
                    ++out.unfinishedCommands;
                }
                call.command = commandTimes;
                call.kernel = command->second.kernel;
                call.transferSize = command->second.transferSize;
            }
            ThreadBlock<ApiCall>& block = threads[part][tid];
            block.threadId = tid;
            block.entries.push_back(std::move(call));
            auto& first = firstStart[part];
            if (!first.count(tid)) first[tid] = record.call.start;
            parts[part].api = part;
            ++out.apiCalls;
        }
        for (auto& [part, byThread] : threads) {
            std::vector<std::pair<uint64_t, uint64_t>> order;  // (first start, tid)
            for (auto& [tid, block] : byThread) order.push_back({firstStart[part][tid], tid});
            std::sort(order.begin(), order.end());
            for (const auto& [start, tid] : order) parts[part].threads.push_back(std::move(byThread[tid]));
        }

        std::stable_sort(kernelTimestamps.begin(), kernelTimestamps.end(),
                         [](const auto& a, const auto& b) { return a.entry.start < b.entry.start; });
        for (const auto& stamp : kernelTimestamps) {
            KernelTimestamp entry = stamp.entry;
            if (!stamp.deviceKey.empty()) {
                const ClockCalibration& clock = clocks[stamp.deviceKey];
                entry.start = clock.Map(entry.start);
                entry.end = clock.Map(entry.end);
            }
            parts[stamp.part].api = stamp.part;
            parts[stamp.part].kernelTimestamps.push_back(entry);
        }

        if (!sources.empty()) {
            std::vector<std::tuple<std::string, uint64_t, uint64_t>> wanted;
            for (const auto& source : sources) wanted.emplace_back(source.module, source.address, source.moduleBase);
            std::map<std::pair<std::string, uint64_t>, ResolvedAddress> resolved;
            if (resolver) resolved = resolver->Resolve(wanted);
            std::map<std::string, std::map<uint64_t, std::vector<std::pair<uint64_t, SourceLocation>>>> byThread;
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
                byThread[source.part][source.threadId].push_back({source.index, location});
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
        for (const auto& marker : markers) {
            if (!markerBlocks.count(marker.threadId)) markerOrder.push_back(marker.threadId);
            markerBlocks[marker.threadId].threadId = marker.threadId;
            markerBlocks[marker.threadId].entries.push_back(marker.marker);
        }
        for (uint64_t tid : markerOrder) atp.markerThreads.push_back(std::move(markerBlocks[tid]));
        out.atp = std::move(atp);
    }

    if (options.counters) {
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
        for (auto& dispatch : dispatches) {
            if (dispatch.api != csv.api) {
                out.notes.push_back("a " + dispatch.api + " dispatch is not in the " + csv.api + " .csv file");
                continue;
            }
            // Columns follow the counter list; a counter a row lacks is NA.
            DispatchRow row = dispatch.row;
            std::vector<CounterValue> ordered;
            for (const std::string& name : csv.counterNames) {
                auto found = std::find_if(row.counters.begin(), row.counters.end(),
                                          [&](const CounterValue& value) { return value.name == name; });
                ordered.push_back(found == row.counters.end() ? CounterValue::NA(name) : *found);
            }
            row.counters = std::move(ordered);
            csv.rows.push_back(std::move(row));
        }
        out.dispatches = csv.rows.size();
        out.csv = std::move(csv);
    }

    if (options.occupancy) {
        OccupancyFile file;
        file.session = session;
        std::stable_sort(occupancy.begin(), occupancy.end(),
                         [](const auto& a, const auto& b) { return a.executionOrder < b.executionOrder; });
        for (auto& record : occupancy) file.rows.push_back(std::move(record.row));
        out.occupancy = std::move(file);
    }
    return out;
}

}  // namespace gpaprof
