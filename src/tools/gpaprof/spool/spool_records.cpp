// Past 600 lines on purpose: the encoder and the decoder of every spool record kind sit together, field for
// field, so that a change to a record's layout is made in both at once (the round-trip tests check them).
#include "tools/gpaprof/spool/spool_records.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::spool {
namespace {

// Reads the tab-separated fields of one line in place: a field is copied (and unescaped) only when a
// record keeps it as text. Most lines have no escape at all, which is checked once per line.
class Reader {
public:
    // `fields`: the line after its record letter and tab; `any`: whether the line has fields at all.
    Reader(std::string_view fields, bool any, std::string* error)
        : all_(fields),
          next_(fields.data()),
          end_(fields.data() + fields.size()),
          more_(any),
          any_(any),
          escapes_(fields.find('\\') != std::string_view::npos),
          error_(error) {}
    bool ok() const { return ok_; }
    // Whether fields are left: optional trailing fields a record gained later.
    bool HasMore() const { return more_; }
    bool Finished() {
        if (ok_ && more_) Fail("more fields than the record has");
        return ok_;
    }
    std::string Text() {
        std::string_view raw;
        if (!Next(&raw)) return {};
        return escapes_ ? UnescapeField(raw) : std::string(raw);
    }
    uint64_t Number() {
        if (ok_ && more_ && !escapes_) {
            // The common case: digits up to the next tab or the end.
            const char* p = next_;
            uint64_t value = 0;
            int digits = 0;
            while (p < end_ && *p >= '0' && *p <= '9' && digits < 19) {
                value = value * 10 + static_cast<uint64_t>(*p - '0');
                ++p;
                ++digits;
            }
            if (digits > 0 && (p == end_ || *p == '\t')) {
                Advance(p);
                return value;
            }
        }
        std::string_view raw;
        if (!Next(&raw)) return 0;
        std::string unescaped;
        const std::string_view text = Plain(raw, &unescaped);
        std::optional<uint64_t> value = ParseUnsigned(text);
        if (!value) Fail("'" + std::string(text) + "' is not a number");
        return value.value_or(0);
    }
    long Signed() {
        std::string_view raw;
        if (!Next(&raw)) return 0;
        std::string unescaped;
        const std::string_view text = Plain(raw, &unescaped);
        std::optional<int64_t> value = ParseSigned(text);
        if (!value) Fail("'" + std::string(text) + "' is not a number");
        return static_cast<long>(value.value_or(0));
    }
    bool Flag() {
        if (ok_ && more_ && !escapes_ && next_ < end_ && (*next_ == '0' || *next_ == '1') &&
            (next_ + 1 == end_ || next_[1] == '\t')) {
            const bool value = *next_ == '1';
            Advance(next_ + 1);
            return value;
        }
        std::string_view raw;
        if (!Next(&raw)) return false;
        std::string unescaped;
        const std::string_view text = Plain(raw, &unescaped);
        if (text != "0" && text != "1") Fail("'" + std::string(text) + "' is not 0 or 1");
        return text == "1";
    }
    double Real() {
        std::string_view raw;
        if (!Next(&raw)) return 0.0;
        std::string unescaped;
        const std::string_view text = Plain(raw, &unescaped);
        std::optional<double> value = ParseDouble(text);
        if (!value) Fail("'" + std::string(text) + "' is not a number");
        return value.value_or(0.0);
    }
    std::optional<uint64_t> OptionalNumber() {
        if (NextIsDash()) return std::nullopt;
        return Number();
    }
    std::optional<double> OptionalReal() {
        if (NextIsDash()) return std::nullopt;
        return Real();
    }
    std::optional<std::string> OptionalText() {
        const bool present = Flag();
        std::string text = Text();
        if (!present) return std::nullopt;
        return text;
    }
    WorkSize Size() {
        WorkSize size;
        const uint64_t dims = Number();
        if (ok_ && dims > 3) Fail("a work size has at most 3 dimensions");
        size.dims = static_cast<uint32_t>(dims);
        for (uint64_t& value : size.size) value = Number();
        return size;
    }
    std::vector<std::string> List() {
        const uint64_t count = Number();
        std::vector<std::string> values;
        if (ok_ && count > FieldCount()) Fail("list longer than the record");
        if (ok_) values.reserve(static_cast<size_t>(count));
        for (uint64_t i = 0; ok_ && i < count; ++i) values.push_back(Text());
        return values;
    }
    // The next field as it is in the line (escaped where the line has escapes).
    std::string_view View() {
        std::string_view raw;
        if (!Next(&raw)) return {};
        return raw;
    }
    // A list: its count, then that many fields (each read as a number with `numbers`), as a view.
    FieldList ViewList(bool numbers) {
        const uint64_t count = Number();
        // The record has at least the fields read so far and, while there are more, one more: only a longer
        // list needs them counted.
        const uint64_t known = fieldsRead_ + (more_ ? 1 : 0);
        if (ok_ && count > known && count > FieldCount()) Fail("list longer than the record");
        const char* first = next_;
        uint64_t read = 0;
        for (; ok_ && read < count; ++read) {
            if (numbers) {
                Number();
            } else {
                View();
            }
        }
        if (!ok_ || read == 0) return {};
        return FieldList(std::string_view(first, static_cast<size_t>(lastFieldEnd_ - first)), static_cast<size_t>(read));
    }
    bool escaped() const { return escapes_; }
    // A field of this line as text of its own.
    std::string Own(std::string_view raw) const { return escapes_ ? UnescapeField(raw) : std::string(raw); }
    // A CUDA device index.
    uint32_t Device() {
        const uint64_t device = Number();
        if (ok_ && device > UINT32_MAX) Fail("device index out of range");
        return static_cast<uint32_t>(device);
    }
    std::vector<std::optional<double>> OptionalReals() {
        const uint64_t count = Number();
        std::vector<std::optional<double>> values;
        if (ok_ && count > FieldCount()) Fail("list longer than the record");
        if (ok_) values.reserve(static_cast<size_t>(count));
        for (uint64_t i = 0; ok_ && i < count; ++i) values.push_back(OptionalReal());
        return values;
    }
    std::vector<uint64_t> Numbers() {
        const uint64_t count = Number();
        std::vector<uint64_t> values;
        if (ok_ && count > FieldCount()) Fail("list longer than the record");
        if (ok_) values.reserve(static_cast<size_t>(count));
        for (uint64_t i = 0; ok_ && i < count; ++i) values.push_back(Number());
        return values;
    }
    void Fail(const std::string& message) {
        if (ok_) *error_ = message;
        ok_ = false;
    }

private:
    // Where the field starting at next_ ends (a tab or the end of the line).
    const char* FieldEnd() const {
        const char* p = next_;
        while (p < end_ && *p != '\t') ++p;
        return p;
    }
    // Moves past the field that ends at `fieldEnd`.
    void Advance(const char* fieldEnd) {
        lastFieldEnd_ = fieldEnd;
        ++fieldsRead_;
        if (fieldEnd == end_) {
            more_ = false;
            next_ = end_;
        } else {
            next_ = fieldEnd + 1;
        }
    }
    // The next field, raw; false (and the record failed) when there is none.
    bool Next(std::string_view* field) {
        if (!ok_) return false;
        if (!more_) {
            Fail("record ends early");
            return false;
        }
        const char* fieldEnd = FieldEnd();
        *field = std::string_view(next_, static_cast<size_t>(fieldEnd - next_));
        Advance(fieldEnd);
        return true;
    }
    // Takes the next field when it is "-" (an absent optional number).
    bool NextIsDash() {
        if (!ok_ || !more_) return false;
        if (!escapes_) {
            if (next_ == end_ || *next_ != '-' || (next_ + 1 != end_ && next_[1] != '\t')) return false;
            Advance(next_ + 1);
            return true;
        }
        const char* fieldEnd = FieldEnd();
        const std::string_view raw(next_, static_cast<size_t>(fieldEnd - next_));
        std::string unescaped;
        if (Plain(raw, &unescaped) != "-") return false;
        Advance(fieldEnd);
        return true;
    }
    // A field as text: the raw characters unless it has escapes.
    std::string_view Plain(std::string_view raw, std::string* storage) const {
        if (!escapes_ || raw.find('\\') == std::string_view::npos) return raw;
        *storage = UnescapeField(raw);
        return *storage;
    }
    // How many fields the whole record has.
    size_t FieldCount() {
        if (!any_) return 0;
        if (!fieldCount_) fieldCount_ = 1 + static_cast<size_t>(std::count(all_.begin(), all_.end(), '\t'));
        return fieldCount_;
    }

    std::string_view all_;
    const char* next_;
    const char* end_;
    bool more_;
    bool any_;
    bool escapes_;
    size_t fieldCount_ = 0;
    const char* lastFieldEnd_ = nullptr;
    uint64_t fieldsRead_ = 0;
    std::string* error_;
    bool ok_ = true;
};

template <typename T>
std::optional<Record> Finish(Reader& reader, T&& record) {
    if (!reader.Finished()) return std::nullopt;
    return Record(std::forward<T>(record));
}

// The views of 'A', 'E' and 'Q' records, in their fields' order; Decode converts them into records.
bool ReadLine(Reader& r, CallLine* v) {
    v->part = r.View();
    v->threadId = r.Number();
    v->index = r.Number();
    const uint64_t type = r.Number();
    if (type > UINT32_MAX) r.Fail("API type out of range");
    v->apiType = static_cast<uint32_t>(type);
    v->name = r.View();
    v->hasReturnValue = r.Flag();
    v->returnValue = r.View();
    v->args = r.ViewList(false);
    v->start = r.Number();
    v->end = r.Number();
    v->escaped = r.escaped();
    return r.Finished();
}

bool ReadLine(Reader& r, CommandLine* v) {
    v->part = r.View();
    v->threadId = r.Number();
    v->index = r.Number();
    v->deviceKey = r.View();
    v->commandType = static_cast<uint32_t>(r.Number());
    v->commandName = r.View();
    v->queueId = r.Number();
    v->queueHandle = r.View();
    v->contextId = r.Number();
    v->contextHandle = r.View();
    v->deviceName = r.View();
    v->hasKernel = r.Flag();
    if (v->hasKernel) {
        v->kernelHandle = r.View();
        v->kernelName = r.View();
        v->globalSize = r.ViewList(true);
        v->localSize = r.ViewList(true);
    }
    v->transferSize = r.OptionalNumber();
    v->escaped = r.escaped();
    return r.Finished();
}

bool ReadLine(Reader& r, TimesLine* v) {
    v->part = r.View();
    v->threadId = r.Number();
    v->index = r.Number();
    v->deviceKey = r.View();
    v->queued = r.Number();
    v->submit = r.Number();
    v->start = r.Number();
    v->end = r.Number();
    v->escaped = r.escaped();
    return r.Finished();
}

bool ReadLine(Reader& r, KernelTimestampLine* v) {
    v->part = r.View();
    v->deviceKey = r.View();
    v->kernelName = r.View();
    v->kernelObject = r.View();
    v->start = r.Number();
    v->end = r.Number();
    v->agentName = r.View();
    v->agentHandle = r.View();
    v->queueIndex = r.Number();
    v->deviceIndex = r.Number();
    v->packetType = r.View();
    v->packetId = r.Number();
    v->packetFields = r.View();
    v->escaped = r.escaped();
    return r.Finished();
}

std::vector<std::string> OwnList(const Reader& r, const FieldList& list) {
    std::vector<std::string> values;
    values.reserve(list.size());
    for (std::string_view field : list) values.push_back(r.Own(field));
    return values;
}

std::vector<uint64_t> OwnNumbers(const Reader& r, const FieldList& list) {
    std::vector<uint64_t> values;
    values.reserve(list.size());
    for (std::string_view field : list) values.push_back(ParseUnsigned(r.Own(field)).value_or(0));
    return values;
}

void EncodeCall(LineWriter& w, const ApiCall& call) {
    w.Number(call.apiType).Text(call.name).OptionalText(call.returnValue).List(call.args).Number(call.start).Number(call.end);
}

struct Encoder {
    std::string* out;

    void operator()(const ProcessRecord& p) const {
        LineWriter line('P', out);
        line.Signed(p.pid).Signed(p.parentPid).Text(p.application).Text(p.applicationArgs).Text(p.workingDirectory)
            .Text(p.outputBase).Number(p.startNs);
        // Only when known, so that a line without them reads and writes as before.
        if (p.place != ProcessPlace{}) {
            line.Text(p.place.hostName).Text(p.place.clockId).Text(p.place.rankVariable).Text(p.place.rankValue);
        }
        line.Done();
    }
    void operator()(const DeviceRecord& d) const {
        const DeviceHeader& h = d.header;
        LineWriter('D', out).Text(d.key).Text(h.name).Text(h.platformVendor).Text(h.platformName).Text(h.platformVersion)
            .Text(h.driverVersion).Text(h.runtimeVersion).Number(h.appAddressBits).OptionalText(h.boardName)
            .OptionalText(h.pcieDeviceId).Done();
    }
    void operator()(const CounterListRecord& l) const { LineWriter('L', out).Text(l.api).List(l.names).Done(); }
    void operator()(const CallRecord& a) const {
        LineWriter w('A', out);
        w.Text(a.part).Number(a.threadId).Number(a.index);
        EncodeCall(w, a.call);
        w.Done();
    }
    void operator()(const CommandRecord& e) const {
        LineWriter w('E', out);
        w.Text(e.part).Number(e.threadId).Number(e.index).Text(e.deviceKey).Number(e.command.commandType)
            .Text(e.command.commandName).Number(e.command.queueId).Text(e.command.queueHandle).Number(e.command.contextId)
            .Text(e.command.contextHandle).Text(e.command.deviceName).Flag(e.kernel.has_value());
        if (e.kernel) {
            w.Text(e.kernel->kernelHandle).Text(e.kernel->kernelName).Numbers(e.kernel->globalSize).Numbers(e.kernel->localSize);
        }
        w.Optional(e.transferSize);
        w.Done();
    }
    void operator()(const TimesRecord& t) const {
        LineWriter('T', out).Text(t.part).Number(t.threadId).Number(t.index).Text(t.deviceKey).Number(t.queued)
            .Number(t.submit).Number(t.start).Number(t.end).Done();
    }
    void operator()(const CalibrationRecord& c) const {
        LineWriter('C', out).Text(c.deviceKey).Number(c.cpuBefore).Number(c.cpuAfter).Number(c.deviceTime).Done();
    }
    void operator()(const DispatchRecord& k) const {
        const DispatchRow& row = k.row;
        LineWriter w('K', out);
        w.Text(k.api).Text(row.method).Number(row.executionOrder).Number(row.threadId).Optional(row.callIndex)
            .Size(row.globalWorkSize).Size(row.workGroupSize).Optional(row.timeMs).Number(row.localMemSize)
            .Optional(row.vgprs).Optional(row.sgprs).Optional(row.scratchRegs).Optional(row.kernelOccupancy)
            .Number(row.counters.size());
        for (const CounterValue& counter : row.counters) {
            // Kinds as numbered; a time counter (written with more decimals) is kind 3.
            const bool time = counter.kind == CounterValue::Kind::Float && counter.decimals == CounterValue::kTimeDecimals;
            w.Text(counter.name).Number(time ? 3 : static_cast<uint64_t>(counter.kind)).Number(counter.integer).Real(counter.number);
        }
        // CUDA graphs: two more fields after the counters, only on rows of a graph launch (other rows keep their
        // line; a line without them decodes with both empty).
        if (row.graphLaunch || row.graphNode) w.Optional(row.graphLaunch).Optional(row.graphNode);
        w.Done();
    }
    void operator()(const OccupancyRecord& o) const {
        const OccupancyRow& r = o.row;
        LineWriter w('O', out);
        w.Number(o.executionOrder).Number(r.threadId).Text(r.kernelName).Text(r.deviceName);
        for (const std::optional<uint64_t>* value :
             {&r.computeUnits, &r.maxWavesPerComputeUnit, &r.maxWorkGroupsPerComputeUnit, &r.maxVgprs, &r.maxSgprs,
              &r.maxLds, &r.usedVgprs, &r.usedSgprs, &r.usedLds, &r.waveSize, &r.workGroupSize, &r.wavesPerWorkGroup,
              &r.maxWorkGroupSize, &r.maxWavesPerWorkGroup, &r.globalWorkSize, &r.maxGlobalWorkSize, &r.vgprLimitedWaves,
              &r.sgprLimitedWaves, &r.ldsLimitedWaves, &r.workGroupLimitedWaves}) {
            w.Optional(*value);
        }
        w.Optional(r.occupancyPercent).OptionalText(r.graphicsIpVersion).Optional(r.simdsPerComputeUnit);
        w.Done();
    }
    void operator()(const MarkerRecord& m) const {
        LineWriter('M', out).Number(m.threadId).Number(static_cast<uint64_t>(m.marker.kind)).Number(m.marker.timestamp)
            .Text(m.marker.name).Text(m.marker.group).Done();
    }
    void operator()(const SourceRecord& s) const {
        LineWriter('S', out).Text(s.part).Number(s.threadId).Number(s.index).Text(s.apiName).Text(s.module)
            .Number(s.address).Number(s.moduleBase).Text(s.symbol).Number(s.symbolAddress).Done();
    }
    void operator()(const KernelTimestampRecord& q) const {
        const KernelTimestamp& k = q.entry;
        LineWriter('Q', out).Text(q.part).Text(q.deviceKey).Text(k.kernelName).Text(k.kernelObject).Number(k.start)
            .Number(k.end).Text(k.agentName).Text(k.agentHandle).Number(k.queueIndex).Number(k.deviceIndex)
            .Text(k.packetType).Number(k.packetId).Text(k.packetFields).Done();
    }
    void operator()(const EventRecord& x) const { LineWriter('X', out).Text(x.kind).List(x.values).Done(); }
    void operator()(const NoteRecord& n) const { LineWriter('N', out).Text(n.message).Done(); }
    void operator()(const PmDeviceRecord& g) const {
        LineWriter('G', out).Number(g.device).Text(g.name).Text(g.chip).Number(g.intervalNs).List(g.metrics)
            .List(g.leftOut).Done();
    }
    void operator()(const PmSampleRecord& h) const {
        // EncodePmSampleLine writes the same fields from plain doubles.
        LineWriter('H', out).Number(h.device).Number(h.startNs).Number(h.endNs).Flag(h.droppedBefore).Flag(h.replay)
            .Reals(h.values).Done();
    }
};

std::optional<Record> DecodeFields(char type, Reader& r) {
    switch (type) {
        case 'P': {
            ProcessRecord p;
            p.pid = r.Signed();
            p.parentPid = r.Signed();
            p.application = r.Text();
            p.applicationArgs = r.Text();
            p.workingDirectory = r.Text();
            p.outputBase = r.Text();
            p.startNs = r.Number();
            if (r.HasMore()) {
                p.place.hostName = r.Text();
                p.place.clockId = r.Text();
                p.place.rankVariable = r.Text();
                p.place.rankValue = r.Text();
            }
            return Finish(r, std::move(p));
        }
        case 'D': {
            DeviceRecord d;
            d.key = r.Text();
            DeviceHeader& h = d.header;
            h.name = r.Text();
            h.platformVendor = r.Text();
            h.platformName = r.Text();
            h.platformVersion = r.Text();
            h.driverVersion = r.Text();
            h.runtimeVersion = r.Text();
            h.appAddressBits = static_cast<uint32_t>(r.Number());
            h.boardName = r.OptionalText();
            h.pcieDeviceId = r.OptionalText();
            return Finish(r, std::move(d));
        }
        case 'L': {
            CounterListRecord l;
            l.api = r.Text();
            l.names = r.List();
            return Finish(r, std::move(l));
        }
        case 'A': {
            CallLine v;
            if (!ReadLine(r, &v)) return std::nullopt;
            CallRecord a;
            a.part = r.Own(v.part);
            a.threadId = v.threadId;
            a.index = v.index;
            a.call.apiType = v.apiType;
            a.call.name = r.Own(v.name);
            if (v.hasReturnValue) a.call.returnValue = r.Own(v.returnValue);
            a.call.args = OwnList(r, v.args);
            a.call.start = v.start;
            a.call.end = v.end;
            return Record(std::move(a));
        }
        case 'E': {
            CommandLine v;
            if (!ReadLine(r, &v)) return std::nullopt;
            CommandRecord e;
            e.part = r.Own(v.part);
            e.threadId = v.threadId;
            e.index = v.index;
            e.deviceKey = r.Own(v.deviceKey);
            e.command.commandType = v.commandType;
            e.command.commandName = r.Own(v.commandName);
            e.command.queueId = v.queueId;
            e.command.queueHandle = r.Own(v.queueHandle);
            e.command.contextId = v.contextId;
            e.command.contextHandle = r.Own(v.contextHandle);
            e.command.deviceName = r.Own(v.deviceName);
            if (v.hasKernel) {
                KernelLaunch kernel;
                kernel.kernelHandle = r.Own(v.kernelHandle);
                kernel.kernelName = r.Own(v.kernelName);
                kernel.globalSize = OwnNumbers(r, v.globalSize);
                kernel.localSize = OwnNumbers(r, v.localSize);
                e.kernel = std::move(kernel);
            }
            e.transferSize = v.transferSize;
            return Record(std::move(e));
        }
        case 'T': {
            TimesLine v;
            if (!ReadLine(r, &v)) return std::nullopt;
            return Record(TimesRecord{r.Own(v.part), v.threadId, v.index, r.Own(v.deviceKey), v.queued, v.submit, v.start,
                                      v.end});
        }
        case 'C': {
            CalibrationRecord c;
            c.deviceKey = r.Text();
            c.cpuBefore = r.Number();
            c.cpuAfter = r.Number();
            c.deviceTime = r.Number();
            return Finish(r, std::move(c));
        }
        case 'K': {
            DispatchRecord k;
            DispatchRow& row = k.row;
            k.api = r.Text();
            row.method = r.Text();
            row.executionOrder = r.Number();
            row.threadId = r.Number();
            row.callIndex = r.OptionalNumber();
            row.globalWorkSize = r.Size();
            row.workGroupSize = r.Size();
            row.timeMs = r.OptionalReal();
            row.localMemSize = r.Number();
            row.vgprs = r.OptionalNumber();
            row.sgprs = r.OptionalNumber();
            row.scratchRegs = r.OptionalNumber();
            row.kernelOccupancy = r.OptionalReal();
            const uint64_t count = r.Number();
            for (uint64_t i = 0; r.ok() && i < count && i < 4096; ++i) {
                CounterValue counter;
                counter.name = r.Text();
                const uint64_t kind = r.Number();
                if (kind > 3) r.Fail("unknown counter kind");
                counter.kind = kind == 3 ? CounterValue::Kind::Float : static_cast<CounterValue::Kind>(kind);
                if (kind == 3) counter.decimals = CounterValue::kTimeDecimals;
                counter.integer = r.Number();
                counter.number = r.Real();
                row.counters.push_back(std::move(counter));
            }
            if (r.ok() && r.HasMore()) {
                row.graphLaunch = r.OptionalNumber();
                row.graphNode = r.OptionalNumber();
            }
            return Finish(r, std::move(k));
        }
        case 'O': {
            OccupancyRecord o;
            OccupancyRow& row = o.row;
            o.executionOrder = r.Number();
            row.threadId = r.Number();
            row.kernelName = r.Text();
            row.deviceName = r.Text();
            for (std::optional<uint64_t>* value :
                 {&row.computeUnits, &row.maxWavesPerComputeUnit, &row.maxWorkGroupsPerComputeUnit, &row.maxVgprs,
                  &row.maxSgprs, &row.maxLds, &row.usedVgprs, &row.usedSgprs, &row.usedLds, &row.waveSize,
                  &row.workGroupSize, &row.wavesPerWorkGroup, &row.maxWorkGroupSize, &row.maxWavesPerWorkGroup,
                  &row.globalWorkSize, &row.maxGlobalWorkSize, &row.vgprLimitedWaves, &row.sgprLimitedWaves,
                  &row.ldsLimitedWaves, &row.workGroupLimitedWaves}) {
                *value = r.OptionalNumber();
            }
            row.occupancyPercent = r.OptionalReal();
            row.graphicsIpVersion = r.OptionalText();
            row.simdsPerComputeUnit = r.OptionalNumber();
            return Finish(r, std::move(o));
        }
        case 'M': {
            MarkerRecord m;
            m.threadId = r.Number();
            const uint64_t kind = r.Number();
            if (kind > 2) r.Fail("unknown marker kind");
            m.marker.kind = static_cast<PerfMarker::Kind>(kind);
            m.marker.timestamp = r.Number();
            m.marker.name = r.Text();
            m.marker.group = r.Text();
            return Finish(r, std::move(m));
        }
        case 'S': {
            SourceRecord s;
            s.part = r.Text();
            s.threadId = r.Number();
            s.index = r.Number();
            s.apiName = r.Text();
            s.module = r.Text();
            s.address = r.Number();
            s.moduleBase = r.Number();
            s.symbol = r.Text();
            s.symbolAddress = r.Number();
            return Finish(r, std::move(s));
        }
        case 'Q': {
            KernelTimestampLine v;
            if (!ReadLine(r, &v)) return std::nullopt;
            KernelTimestampRecord q;
            q.part = r.Own(v.part);
            q.deviceKey = r.Own(v.deviceKey);
            KernelTimestamp& k = q.entry;
            k.kernelName = r.Own(v.kernelName);
            k.kernelObject = r.Own(v.kernelObject);
            k.start = v.start;
            k.end = v.end;
            k.agentName = r.Own(v.agentName);
            k.agentHandle = r.Own(v.agentHandle);
            k.queueIndex = v.queueIndex;
            k.deviceIndex = v.deviceIndex;
            k.packetType = r.Own(v.packetType);
            k.packetId = v.packetId;
            k.packetFields = r.Own(v.packetFields);
            return Record(std::move(q));
        }
        case 'X': {
            EventRecord x;
            x.kind = r.Text();
            x.values = r.List();
            return Finish(r, std::move(x));
        }
        case 'N': {
            NoteRecord n;
            n.message = r.Text();
            return Finish(r, std::move(n));
        }
        case 'G': {
            PmDeviceRecord g;
            g.device = r.Device();
            g.name = r.Text();
            g.chip = r.Text();
            g.intervalNs = r.Number();
            g.metrics = r.List();
            g.leftOut = r.List();
            return Finish(r, std::move(g));
        }
        case 'H': {
            PmSampleRecord h;
            h.device = r.Device();
            h.startNs = r.Number();
            h.endNs = r.Number();
            h.droppedBefore = r.Flag();
            h.replay = r.Flag();
            h.values = r.OptionalReals();
            return Finish(r, std::move(h));
        }
        default:
            r.Fail(std::string("unknown record type '") + type + "'");
            return std::nullopt;
    }
}

}  // namespace

std::string UnescapeField(std::string_view text) {
    std::string plain;
    plain.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 >= text.size()) {
            plain += text[i];
            continue;
        }
        switch (text[++i]) {
            case 't': plain += '\t'; break;
            case 'n': plain += '\n'; break;
            case 'r': plain += '\r'; break;
            default: plain += text[i];
        }
    }
    return plain;
}

std::string Encode(const Record& record) {
    std::string line;
    EncodeTo(record, &line);
    return line;
}

void EncodeTo(const Record& record, std::string* out) { std::visit(Encoder{out}, record); }

namespace {

template <typename View>
bool DecodeView(std::string_view line, char type, View* out, std::string* error) {
    if (line.size() < 1) {
        *error = "empty record";
        return false;
    }
    if (line[0] != type) {
        *error = std::string("not a '") + type + "' record";
        return false;
    }
    if (line.size() > 1 && line[1] != '\t') {
        *error = "record letter not followed by a tab";
        return false;
    }
    Reader reader(line.size() > 1 ? line.substr(2) : std::string_view(), line.size() > 1, error);
    return ReadLine(reader, out);
}

}  // namespace

bool DecodeLine(std::string_view line, CallLine* out, std::string* error) { return DecodeView(line, 'A', out, error); }
bool DecodeLine(std::string_view line, CommandLine* out, std::string* error) { return DecodeView(line, 'E', out, error); }
bool DecodeLine(std::string_view line, TimesLine* out, std::string* error) { return DecodeView(line, 'T', out, error); }
bool DecodeLine(std::string_view line, KernelTimestampLine* out, std::string* error) {
    return DecodeView(line, 'Q', out, error);
}

std::optional<Record> Decode(std::string_view line, std::string* error) {
    if (line.size() < 1) {
        *error = "empty record";
        return std::nullopt;
    }
    const char type = line[0];
    if (line.size() > 1 && line[1] != '\t') {
        *error = "record letter not followed by a tab";
        return std::nullopt;
    }
    Reader reader(line.size() > 1 ? line.substr(2) : std::string_view(), line.size() > 1, error);
    return DecodeFields(type, reader);
}

}  // namespace gpaprof::spool
