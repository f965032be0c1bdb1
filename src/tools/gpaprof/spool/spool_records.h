// The spool: what a profiled process records, as it happens, for gpaprof to turn into files once the
// process has ended (normally, by a signal, or killed). Each record is one line written with one write(2)
// to <spool>/<pid>.spool, so everything recorded before a crash is on disk; a record cut short by the
// crash (no final newline) is ignored.
//
// Line format: a record letter, then tab-separated fields; '\\', tab, newline and carriage return inside a
// field are escaped as \\ \t \n \r. Absent optional numbers are "-". The letters are those of the record
// structs below, 'B': a CUDA call with its arguments still in bytes (tools/gpaprof/cuda/raw_call_line.h), which
// gpaprof expands into the call's 'A' line when it reads the spool (AssemblyOptions::expandRawCall), and 'R': a
// CUDA kernel's activity record still in bytes (tools/gpaprof/cuda/raw_kernel_line.h), expanded into its 'Q', 'E'
// and 'T' lines (AssemblyOptions::expandRawKernel).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::spool {

// Where a process ran, for putting several processes' files side by side (the files' HostName=, ClockId= and
// ProcessRank= header lines); empty where unknown.
struct ProcessPlace {
    std::string hostName;
    std::string clockId;          // the boot id: names the CLOCK_MONOTONIC every time is on
    std::string rankVariable;     // the launcher's rank variable set in the process (RANK, ...), and its value
    std::string rankValue;
    bool operator==(const ProcessPlace&) const = default;
};

struct ProcessRecord {            // 'P', first record of every spool
    long pid = 0;
    long parentPid = 0;
    std::string application;      // full path of the executable
    std::string applicationArgs;
    std::string workingDirectory;
    std::string outputBase;       // the output template resolved in this process
    uint64_t startNs = 0;
    ProcessPlace place;           // trailing fields: a line without them reads as unknown
    bool operator==(const ProcessRecord&) const = default;
};

struct DeviceRecord {             // 'D', every device of every platform, once
    std::string key;              // the API's device handle, hex
    DeviceHeader header;
    bool operator==(const DeviceRecord&) const = default;
};

struct CounterListRecord {        // 'L', the counter columns of an API's .csv rows
    std::string api;              // "OpenCL", "CUDA"
    std::vector<std::string> names;
    bool operator==(const CounterListRecord&) const = default;
};

struct CallRecord {               // 'A', an API call, written when it returns
    std::string part;             // "ocl", "cuda"
    uint64_t threadId = 0;
    uint64_t index = 0;           // per thread and part, from 0
    ApiCall call;                 // without command, kernel and transfer size
    bool operator==(const CallRecord&) const = default;
};

struct CommandRecord {            // 'E', what an enqueue call enqueued
    std::string part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    std::string deviceKey;
    CommandTimes command;         // times left 0: they come in a TimesRecord
    std::optional<KernelLaunch> kernel;
    std::optional<uint64_t> transferSize;
    bool operator==(const CommandRecord&) const = default;
};

struct TimesRecord {              // 'T', device times of a command, in the device's clock
    std::string part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    std::string deviceKey;
    uint64_t queued = 0, submit = 0, start = 0, end = 0;
    bool operator==(const TimesRecord&) const = default;
};

struct CalibrationRecord {        // 'C', a device timestamp taken between two CPU timestamps
    std::string deviceKey;
    uint64_t cpuBefore = 0;
    uint64_t cpuAfter = 0;
    uint64_t deviceTime = 0;
    bool operator==(const CalibrationRecord&) const = default;
};

struct DispatchRecord {           // 'K', one .csv row
    std::string api;
    DispatchRow row;
    bool operator==(const DispatchRecord&) const = default;
};

struct OccupancyRecord {          // 'O', one .occupancy row
    uint64_t executionOrder = 0;
    OccupancyRow row;
    bool operator==(const OccupancyRecord&) const = default;
};

struct MarkerRecord {             // 'M'
    uint64_t threadId = 0;
    PerfMarker marker;
    bool operator==(const MarkerRecord&) const = default;
};

struct SourceRecord {             // 'S', the caller of an API call (--sym), resolved by gpaprof later
    std::string part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    std::string apiName;
    std::string module;           // path of the calling executable or library
    uint64_t address = 0;         // return address in the caller
    uint64_t moduleBase = 0;
    std::string symbol;           // from the dynamic symbol table, may be empty
    uint64_t symbolAddress = 0;
    bool operator==(const SourceRecord&) const = default;
};

struct KernelTimestampRecord {    // 'Q', a kernel timestamp line (CUDA, HSA)
    std::string part;
    std::string deviceKey;        // empty when start/end are already CPU-clock times
    KernelTimestamp entry;
    bool operator==(const KernelTimestampRecord&) const = default;
};

struct EventRecord {              // 'X', e.g. {"signal", "11", tid, address} or {"exit", code}
    std::string kind;
    std::vector<std::string> values;
    bool operator==(const EventRecord&) const = default;
};

struct NoteRecord {               // 'N', something the user should read, printed by gpaprof at the end
    std::string message;
    bool operator==(const NoteRecord&) const = default;
};

// --pm-sampling (<out>.pmsampling.csv): a device's sampler, then its samples.
struct PmDeviceRecord {           // 'G', once per sampled device, before its samples
    uint32_t device = 0;          // CUDA device index (ordinal) the sampler runs on
    std::string name;             // "NVIDIA H200"
    std::string chip;             // "GH100"
    uint64_t intervalNs = 0;
    std::vector<std::string> metrics;   // sampled, in column order
    std::vector<std::string> leftOut;   // "metric: why" for each metric asked for and not sampled
    bool operator==(const PmDeviceRecord&) const = default;
};

struct PmSampleRecord {           // 'H', one sample
    uint32_t device = 0;
    uint64_t startNs = 0, endNs = 0;    // CPU clock (CLOCK_MONOTONIC ns), the .atp's clock
    bool droppedBefore = false;
    bool replay = false;
    std::vector<std::optional<double>> values;  // one per metric of the device's 'G' record; nullopt = NA
    bool operator==(const PmSampleRecord&) const = default;
};

using Record = std::variant<ProcessRecord, DeviceRecord, CounterListRecord, CallRecord, CommandRecord, TimesRecord,
                            CalibrationRecord, DispatchRecord, OccupancyRecord, MarkerRecord, SourceRecord,
                            KernelTimestampRecord, EventRecord, NoteRecord, PmDeviceRecord, PmSampleRecord>;

// One line, with its final '\n'.
std::string Encode(const Record& record);
// Appends that line to `out` (several records in one buffer, no temporary).
void EncodeTo(const Record& record, std::string* out);
// The 'A' line of an API call appended to `out`, field by field: what EncodeTo(CallRecord) writes, without a
// CallRecord to build (the CUDA part writes one at every traced call). `args`: `argCount` views.
struct CallLineFields {
    std::string_view part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    uint32_t apiType = 0;
    std::string_view name;
    std::optional<std::string_view> returnValue;
    const std::string_view* args = nullptr;
    size_t argCount = 0;
    uint64_t start = 0, end = 0;
};
void EncodeCallLine(const CallLineFields& call, std::string* out);
// The 'H' line of a PM sample appended to `out`: what EncodeTo(PmSampleRecord) writes, without building one (the
// CUDA part writes one per sample, up to 10^4 a second per device). A value that is not finite (NaN, infinite) is
// NA, as in the file.
void EncodePmSampleLine(uint32_t device, uint64_t startNs, uint64_t endNs, bool droppedBefore, bool replay,
                        std::span<const double> values, std::string* out);
// One line without its '\n'; nullopt with the reason when it is not a record.
std::optional<Record> Decode(std::string_view line, std::string* error);

// Appends one record's fields to a line in the caller's buffer, as Encode writes them: the record letter,
// then each field after a tab (text escaped), then Done's '\n'. No temporary per field: for writers of
// many records of one kind (the CUDA part's activity records).
class LineWriter {
public:
    LineWriter(char type, std::string* line);
    ~LineWriter();  // a line left without Done keeps what was written, without the room
    LineWriter(const LineWriter&) = delete;
    LineWriter& operator=(const LineWriter&) = delete;
    LineWriter& Text(std::string_view text);
    LineWriter& Hex(const void* bytes, size_t size);  // two lowercase hex digits a byte (PutHex)
    LineWriter& Number(uint64_t value);
    LineWriter& Signed(long value);
    LineWriter& Flag(bool value);
    LineWriter& Real(double value);
    LineWriter& Optional(const std::optional<uint64_t>& value);  // "-" when absent
    LineWriter& Optional(const std::optional<double>& value);
    LineWriter& OptionalText(const std::optional<std::string>& value);
    LineWriter& Size(const WorkSize& size);
    LineWriter& List(const std::vector<std::string>& values);      // the count, then the values
    LineWriter& Numbers(const std::vector<uint64_t>& values);
    // The count, then each value in the shortest form that reads back as the same double ("-": NA; a value that
    // is not finite is NA too).
    LineWriter& Reals(std::span<const std::optional<double>> values);
    LineWriter& Reals(std::span<const double> values);
    void Done();

private:
    // The line is written through p_ into room made ahead in line_ (no zero-filling per field), trimmed at the end.
    void Room(size_t bytes) {
        if (static_cast<size_t>(end_ - p_) < bytes) Grow(bytes);
    }
    void Grow(size_t bytes);
    void Trim();
    void ShortestReal(double value);  // a tab, then the value or "-"

    std::string& line_;
    char* p_ = nullptr;
    char* end_ = nullptr;
    bool trimmed_ = false;
};

std::string EscapeField(std::string_view text);
std::string UnescapeField(std::string_view text);

// Bytes as two lowercase hex digits each (no NUL, tab or newline: safe in any field), written at `p` (room for
// 2 * size) and the end returned; and back, false when a character is not a lowercase hex digit.
char* PutHex(char* p, const void* data, size_t size);
bool FromHex(std::string_view hex, unsigned char* bytes);

// ---------------------------------------------------------------------------------------------
// The records a trace has most of ('A', 'E', 'T', 'Q'), read as views into their line: no string per field, for
// gpaprof's assembly of large spools. A line reads as a view exactly when Decode reads it (Decode reads
// these records through the views). Text fields are the line's own characters: where `escaped` is set the
// line has escapes and its text fields are still escaped (read such a line with Decode).

// `count` consecutive tab-separated fields of a line (a list field), in order.
class FieldList {
public:
    FieldList() = default;
    FieldList(std::string_view fields, size_t count) : fields_(fields), count_(count) {}
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    class iterator {
    public:
        iterator(std::string_view rest, size_t left) : rest_(rest), left_(left) {}
        std::string_view operator*() const { return rest_.substr(0, rest_.find('\t')); }
        iterator& operator++() {
            const size_t tab = rest_.find('\t');
            rest_ = tab == std::string_view::npos ? std::string_view() : rest_.substr(tab + 1);
            --left_;
            return *this;
        }
        bool operator!=(const iterator& other) const { return left_ != other.left_; }

    private:
        std::string_view rest_;
        size_t left_;
    };
    iterator begin() const { return {fields_, count_}; }
    iterator end() const { return {std::string_view(), 0}; }

private:
    std::string_view fields_;
    size_t count_ = 0;
};

struct CallLine {                 // 'A'
    std::string_view part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    uint32_t apiType = 0;
    std::string_view name;
    bool hasReturnValue = false;
    std::string_view returnValue;
    FieldList args;
    uint64_t start = 0, end = 0;
    bool escaped = false;
};

struct CommandLine {              // 'E'
    std::string_view part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    std::string_view deviceKey;
    uint32_t commandType = 0;
    std::string_view commandName;
    uint64_t queueId = 0;
    std::string_view queueHandle;
    uint64_t contextId = 0;
    std::string_view contextHandle;
    std::string_view deviceName;
    bool hasKernel = false;
    std::string_view kernelHandle;
    std::string_view kernelName;
    FieldList globalSize;         // decimal numbers
    FieldList localSize;
    std::optional<uint64_t> transferSize;
    bool escaped = false;
};

struct TimesLine {                // 'T'
    std::string_view part;
    uint64_t threadId = 0;
    uint64_t index = 0;
    std::string_view deviceKey;
    uint64_t queued = 0, submit = 0, start = 0, end = 0;
    bool escaped = false;
};

struct KernelTimestampLine {      // 'Q'
    std::string_view part;
    std::string_view deviceKey;
    std::string_view kernelName;
    std::string_view kernelObject;
    uint64_t start = 0, end = 0;
    std::string_view agentName;
    std::string_view agentHandle;
    uint64_t queueIndex = 0;
    uint64_t deviceIndex = 0;
    std::string_view packetType;
    uint64_t packetId = 0;
    std::string_view packetFields;
    bool escaped = false;
};

// One line without its '\n'; false with the reason (Decode's) when it is not such a record.
bool DecodeLine(std::string_view line, CallLine* out, std::string* error);
bool DecodeLine(std::string_view line, CommandLine* out, std::string* error);
bool DecodeLine(std::string_view line, TimesLine* out, std::string* error);
bool DecodeLine(std::string_view line, KernelTimestampLine* out, std::string* error);

}  // namespace gpaprof::spool
