// Reading a spool: its complete lines, sorted by record kind, on several threads for a large spool.
#include <algorithm>
#include <cstring>
#include <deque>
#include <thread>

#include "tools/gpaprof/spool/spool_assembler_internal.h"

namespace gpaprof::assembly {
namespace {

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
    const size_t rawKernels = counts[static_cast<unsigned char>('R')];  // a 'Q', an 'E' and a 'T' line each
    out->commands.reserve(counts[static_cast<unsigned char>('E')] + rawKernels);
    out->times.reserve(counts[static_cast<unsigned char>('T')] + rawKernels);
    out->dispatches.reserve(counts[static_cast<unsigned char>('K')]);
    out->occupancy.reserve(counts[static_cast<unsigned char>('O')]);
    out->markers.reserve(counts[static_cast<unsigned char>('M')]);
    out->sources.reserve(counts[static_cast<unsigned char>('S')]);
    out->kernelTimestamps.reserve(counts[static_cast<unsigned char>('Q')] + rawKernels);
    out->pmSamples.reserve(counts[static_cast<unsigned char>('H')]);
}

// Reads one line (not empty) into `out`; false with the reason when it is not a record. `expanded`: room for a raw
// call line's 'A' line while its fields are read.
bool CollectLine(std::string_view line, const AssemblyOptions* options, Collected* out, std::string* expanded,
                 std::string* error) {
    static constexpr std::string_view kCudaPart = "cuda";
    switch (line[0]) {
        case 'A': {
            spool::CallLine v;
            if (!spool::DecodeLine(line, &v, error)) break;
            out->calls.push_back({out->Keep(v.part, v.escaped), v.threadId, v.index, v.start, v.end, line});
            return true;
        }
        case 'B': {
            if (!options->expandRawCall) {
                *error = "a raw CUDA call line, and this gpaprof was built without the CUDA part";
                break;
            }
            expanded->clear();
            if (!options->expandRawCall(line, expanded, error)) break;
            if (!expanded->empty() && expanded->back() == '\n') expanded->pop_back();
            spool::CallLine v;
            if (!spool::DecodeLine(*expanded, &v, error)) break;
            // The part is the CUDA part's name (a literal) or, from an unexpected expansion, kept apart.
            const std::string_view part = v.part == kCudaPart ? kCudaPart : std::string_view(out->owned.emplace_back(v.part));
            out->calls.push_back({part, v.threadId, v.index, v.start, v.end, line});
            return true;
        }
        case 'R': {
            // A raw kernel line: its 'Q', 'E' and 'T' lines, made here for their fields. The entries keep the 'R'
            // line itself, a view into the spool, and its lines are made again where they are written (kept, they
            // were about 600 bytes of memory a kernel).
            if (!options->expandRawKernel) {
                *error = "a raw CUDA kernel line, and this gpaprof was built without the CUDA part";
                return false;
            }
            expanded->clear();
            if (!options->expandRawKernel(line, expanded, error)) return false;
            const std::string_view lines = *expanded;
            for (size_t begin = 0; begin < lines.size();) {
                size_t end = lines.find('\n', begin);
                if (end == std::string_view::npos) end = lines.size();
                const std::string_view made = lines.substr(begin, end - begin);
                begin = end + 1;
                if (made.empty()) continue;
                bool read = false;
                if (made[0] == 'Q') {
                    spool::KernelTimestampLine v;
                    read = spool::DecodeLine(made, &v, error);
                    if (read) out->kernelTimestamps.push_back({out->Intern(v.part, v.escaped), out->Intern(v.deviceKey, v.escaped), v.start, line});
                } else if (made[0] == 'E') {
                    spool::CommandLine v;
                    read = spool::DecodeLine(made, &v, error);
                    if (read) out->commands.push_back({out->Intern(v.part, v.escaped), v.threadId, v.index, line});
                } else if (made[0] == 'T') {
                    spool::TimesLine v;
                    read = spool::DecodeLine(made, &v, error);
                    if (read) {
                        out->times.push_back({out->Intern(v.part, v.escaped), v.threadId, v.index,
                                              out->Intern(v.deviceKey, v.escaped), v.queued, v.submit, v.start, v.end});
                    }
                } else {
                    *error = "a raw CUDA kernel line that expanded into a line that is not a kernel's";
                }
                if (!read) return false;
            }
            return true;
        }
        case 'E': {
            spool::CommandLine v;
            if (!spool::DecodeLine(line, &v, error)) break;
            out->commands.push_back({out->Keep(v.part, v.escaped), v.threadId, v.index, line});
            return true;
        }
        case 'T': {
            spool::TimesLine v;
            if (!spool::DecodeLine(line, &v, error)) break;
            out->times.push_back({out->Keep(v.part, v.escaped), v.threadId, v.index, out->Keep(v.deviceKey, v.escaped),
                                  v.queued, v.submit, v.start, v.end});
            return true;
        }
        case 'Q': {
            spool::KernelTimestampLine v;
            if (!spool::DecodeLine(line, &v, error)) break;
            out->kernelTimestamps.push_back(
                {out->Keep(v.part, v.escaped), out->Keep(v.deviceKey, v.escaped), v.start, line});
            return true;
        }
        default: {
            std::optional<spool::Record> record = spool::Decode(line, error);
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
                    } else if constexpr (std::is_same_v<T, spool::PmDeviceRecord>) {
                        out->pmDevices.push_back({std::move(r), out->pmSamples.size()});
                    } else if constexpr (std::is_same_v<T, spool::PmSampleRecord>) {
                        out->pmSamples.push_back(std::move(r));
                    }
                    // 'A', 'E', 'T' and 'Q' records were read above.
                },
                *record);
            return true;
        }
    }
    return false;
}

// Reads the complete lines of `text` (each ends with '\n').
void Collect(std::string_view text, const AssemblyOptions* options, Collected* out) {
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
        error.clear();
        if (CollectLine(line, options, out, &expanded, &error)) continue;
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

}  // namespace

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
    reserve(&Collected::pmSamples, &all.pmSamples);
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
        for (PmDeviceEntry& device : part.pmDevices) device.firstSample += all.pmSamples.size();
        Append(&all.pmDevices, &part.pmDevices);
        Append(&all.pmSamples, &part.pmSamples);
        all.exitRecorded = all.exitRecorded || part.exitRecorded;
        owned->push_back(std::move(part.owned));  // the views of the merged records point into it
    }
    owned->push_back(std::move(all.owned));
    return all;
}

}  // namespace gpaprof::assembly
