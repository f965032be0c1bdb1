// What the spool's assembly keeps of the records (spool_collection.cpp reads them, spool_assembler.cpp joins
// them, spool_trace_entries.cpp writes the trace's lines from them) and the keys it joins calls, commands and
// device times by. Internal to the assembly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::assembly {

// The records there are most of stay in the spool: each is its line, with what the assembly orders and joins
// them by. Text fields of lines with escapes are kept unescaped in Collected::owned.
struct CallEntry {
    std::string_view part;
    uint64_t thread, index;
    uint64_t start, end;
    std::string_view line;  // an 'A' line, or a raw CUDA call line ('B'), expanded when it is written
};

struct CommandEntry {
    std::string_view part;
    uint64_t thread, index;
    std::string_view line;  // an 'E' line, or the raw CUDA kernel line ('R') it came from, expanded when it is written
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
    std::string_view line;  // a 'Q' line, or the raw CUDA kernel line ('R') it came from, expanded when it is written
};

// A sampled device's record, and how many samples the spool had before it: samples belong to the last record of
// their device before them (a device whose sampler was started again may sample other metrics).
struct PmDeviceEntry {
    spool::PmDeviceRecord record;
    size_t firstSample = 0;
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
    std::vector<PmDeviceEntry> pmDevices;
    std::vector<spool::PmSampleRecord> pmSamples;
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
    // A text field of a line that does not stay (a raw kernel line's expansion): kept here, once for every entry that
    // has the same text (a part's or a clock's name).
    std::string_view Intern(std::string_view raw, bool escaped) {
        if (escaped) return Keep(raw, true);
        for (std::string_view known : interned) {
            if (known == raw) return known;
        }
        owned.emplace_back(raw);
        interned.push_back(owned.back());
        return interned.back();
    }
    std::vector<std::string_view> interned;  // Intern's texts, in `owned`
};

// Reads the spool's complete lines: a line without its final '\n' was cut short by the end of the process. A
// large spool is read in stretches on several threads, put back together in spool order.
Collected CollectSpool(std::string_view spoolText, const AssemblyOptions& options, std::vector<std::deque<std::string>>* owned);

// <out>.pmsampling.csv from the 'G' and 'H' records (spool_pm_sampling.cpp): nullopt when there are none. `session`
// is the other files'; samples left out are counted in *problems.
std::optional<PmSamplingFile> AssemblePmSampling(std::vector<PmDeviceEntry> devices,
                                                 std::vector<spool::PmSampleRecord> samples, const SessionInfo& session,
                                                 std::vector<std::string>* problems);

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

}  // namespace gpaprof::assembly
