#include "pm_sampling/trace_buffer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

namespace gpa::pm_sampling {
namespace {

constexpr size_t kSampleFixedBytes = 24;  // startNs, endNs, flags, reserved
constexpr uint64_t kQuietNaNBits = 0x7FF8000000000000ull;
constexpr uint32_t kKnownTraceFlags = kTraceTruncated | kTraceFollowsLost;
constexpr size_t kMaxNameBytes = std::numeric_limits<uint16_t>::max();

// Checked size arithmetic: a huge trace is refused, never wrapped into a small size.
bool Add(size_t a, size_t b, size_t* sum) { return !__builtin_add_overflow(a, b, sum); }
bool Multiply(size_t a, size_t b, size_t* product) { return !__builtin_mul_overflow(a, b, product); }
size_t Align8(size_t n) { return (n + 7) & ~size_t{7}; }  // callers keep n far from SIZE_MAX

size_t NameEntryBytes(size_t nameBytes) { return Align8(2 + nameBytes); }

// The bytes of one sample with `counters` values; 0 on overflow.
size_t SampleBytes(size_t counters) {
    size_t valueBytes = 0, bytes = 0;
    if (!Multiply(counters, 8, &valueBytes) || !Add(kSampleFixedBytes, valueBytes, &bytes)) return 0;
    return bytes;
}

// Strict UTF-8 (no overlong forms, surrogates or code points past U+10FFFF) and no NUL: names are C strings to
// some readers, and a NUL would cut them short.
bool IsUtf8WithoutNul(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == 0) return false;
        if (byte < 0x80) {
            ++i;
            continue;
        }
        size_t length = 0;
        uint32_t codePoint = 0, smallest = 0;
        if ((byte & 0xE0) == 0xC0) {
            length = 2, codePoint = byte & 0x1F, smallest = 0x80;
        } else if ((byte & 0xF0) == 0xE0) {
            length = 3, codePoint = byte & 0x0F, smallest = 0x800;
        } else if ((byte & 0xF8) == 0xF0) {
            length = 4, codePoint = byte & 0x07, smallest = 0x10000;
        } else {
            return false;  // a continuation byte without a lead, or 0xF8-0xFF
        }
        if (text.size() - i < length) return false;
        for (size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) return false;
            codePoint = (codePoint << 6) | (next & 0x3F);
        }
        if (codePoint < smallest || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF)) return false;
        i += length;
    }
    return true;
}

bool HasDuplicate(const std::vector<std::string>& strings) {
    std::vector<std::string_view> names(strings.begin(), strings.end());
    std::sort(names.begin(), names.end());
    return std::adjacent_find(names.begin(), names.end()) != names.end();
}

bool Refuse(std::string* error, std::string why) {
    if (error) *error = std::move(why);
    return false;
}

// Little-endian writes at a running offset; the caller has checked that everything fits.
class ByteWriter {
public:
    explicit ByteWriter(uint8_t* out) : out_(out) {}
    void Put(uint64_t value, size_t bytes) {
        for (size_t i = 0; i < bytes; ++i) out_[at_++] = static_cast<uint8_t>(value >> (8 * i));
    }
    void PutBytes(const void* bytes, size_t count) {
        if (count) std::memcpy(out_ + at_, bytes, count);
        at_ += count;
    }
    void PadTo8() {
        while (at_ % 8) out_[at_++] = 0;
    }
    size_t at() const { return at_; }

private:
    uint8_t* out_;
    size_t at_ = 0;
};

// Little-endian reads that fail, rather than read past the end.
class ByteReader {
public:
    ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    bool Get(size_t bytes, uint64_t* value) {
        if (left() < bytes) return false;
        uint64_t v = 0;
        for (size_t i = 0; i < bytes; ++i) v |= uint64_t{data_[at_ + i]} << (8 * i);
        at_ += bytes;
        *value = v;
        return true;
    }
    bool Get32(uint32_t* value) {
        uint64_t v = 0;
        if (!Get(4, &v)) return false;
        *value = static_cast<uint32_t>(v);
        return true;
    }
    bool GetBytes(size_t count, std::string_view* bytes) {
        if (left() < count) return false;
        *bytes = std::string_view(reinterpret_cast<const char*>(data_ + at_), count);
        at_ += count;
        return true;
    }
    bool ZeroPaddingTo8() {
        while (at_ % 8) {
            if (at_ >= size_ || data_[at_] != 0) return false;
            ++at_;
        }
        return true;
    }
    size_t at() const { return at_; }
    size_t left() const { return size_ - at_; }

private:
    const uint8_t* data_;
    size_t size_;
    size_t at_ = 0;
};

std::optional<TraceData> Fail(std::string* error, std::string why) {
    Refuse(error, std::move(why));
    return std::nullopt;
}

}  // namespace

bool CheckTraceData(const TraceData& data, std::string* error) {
    if (data.intervalNs == 0) return Refuse(error, "the interval is 0");
    if (data.counters.size() > std::numeric_limits<uint32_t>::max()) return Refuse(error, "too many counters");
    if (data.samples.size() > std::numeric_limits<uint32_t>::max()) return Refuse(error, "too many samples");
    for (size_t i = 0; i < data.counters.size(); ++i) {
        const std::string& name = data.counters[i];
        if (name.empty() || name.size() > kMaxNameBytes) {
            return Refuse(error, "counter " + std::to_string(i) + "'s name is empty or longer than 65,535 bytes");
        }
        if (!IsUtf8WithoutNul(name)) {
            return Refuse(error, "counter " + std::to_string(i) + "'s name is not UTF-8 without NUL");
        }
    }
    if (HasDuplicate(data.counters)) return Refuse(error, "a counter is named twice");
    if (TraceBufferBytes(data.counters, data.samples.size()) == 0) return Refuse(error, "the trace's size overflows");
    uint64_t previousEndNs = 0;
    for (size_t i = 0; i < data.samples.size(); ++i) {
        const TraceSample& sample = data.samples[i];
        const std::string which = "sample " + std::to_string(i);
        if (sample.values.size() != data.counters.size()) {
            return Refuse(error, which + " does not have one value per counter");
        }
        if (sample.endNs < sample.startNs) return Refuse(error, which + " ends before it starts");
        if (i > 0 && sample.startNs < previousEndNs) return Refuse(error, which + " starts before the one before ends");
        for (double value : sample.values) {
            if (std::isinf(value)) return Refuse(error, which + " has an infinite value (unknown values are NaN)");
        }
        previousEndNs = sample.endNs;
    }
    return true;
}

size_t TraceBufferBytes(const std::vector<std::string>& counters, size_t samples) {
    size_t bytes = kTraceHeaderBytes;
    for (const std::string& name : counters) {
        if (name.empty() || name.size() > kMaxNameBytes) return 0;
        if (!Add(bytes, NameEntryBytes(name.size()), &bytes)) return 0;
    }
    const size_t sampleBytes = SampleBytes(counters.size());
    size_t allSampleBytes = 0;
    if (sampleBytes == 0 || !Multiply(sampleBytes, samples, &allSampleBytes) || !Add(bytes, allSampleBytes, &bytes)) {
        return 0;
    }
    return bytes;
}

size_t WriteTraceBuffer(const TraceData& data, void* out, size_t capacity) {
    if (!CheckTraceData(data, nullptr)) return 0;
    if (out == nullptr) return TraceBufferBytes(data.counters, data.samples.size());
    const size_t prefixBytes = TraceBufferBytes(data.counters, 0);
    if (capacity < prefixBytes) return 0;
    const size_t sampleBytes = SampleBytes(data.counters.size());
    const size_t fit = std::min(data.samples.size(), (capacity - prefixBytes) / sampleBytes);

    uint32_t flags = fit < data.samples.size() ? kTraceTruncated : 0;
    for (size_t i = 0; i < fit; ++i) {
        if (data.samples[i].droppedBefore) flags |= kTraceFollowsLost;
    }
    ByteWriter w(static_cast<uint8_t*>(out));
    w.PutBytes(kTraceMagic, sizeof kTraceMagic);
    w.Put(kTraceVersion, 4);
    w.Put(kTraceHeaderBytes, 4);
    w.Put(data.intervalNs, 8);
    w.Put(data.counters.size(), 4);
    w.Put(fit, 4);
    w.Put(flags, 4);
    w.Put(0, 4);
    w.Put(fit ? data.samples.front().startNs : 0, 8);
    w.Put(fit ? data.samples[fit - 1].endNs : 0, 8);
    w.Put(data.samples.size(), 8);
    for (const std::string& name : data.counters) {
        w.Put(name.size(), 2);
        w.PutBytes(name.data(), name.size());
        w.PadTo8();
    }
    for (size_t i = 0; i < fit; ++i) {
        const TraceSample& sample = data.samples[i];
        w.Put(sample.startNs, 8);
        w.Put(sample.endNs, 8);
        w.Put(sample.droppedBefore ? kSampleDroppedBefore : 0, 4);
        w.Put(0, 4);
        for (double value : sample.values) w.Put(std::isnan(value) ? kQuietNaNBits : std::bit_cast<uint64_t>(value), 8);
    }
    return w.at();
}

std::optional<TraceData> ReadTraceBuffer(const void* data, size_t size, std::string* error, TraceBufferHeader* header) {
    if (data == nullptr && size != 0) return Fail(error, "no data");
    if (size < kTraceHeaderBytes) return Fail(error, "shorter than the header (" + std::to_string(size) + " bytes)");
    ByteReader r(static_cast<const uint8_t*>(data), size);
    std::string_view magic;
    uint32_t version = 0, headerBytes = 0, reserved = 0;
    TraceBufferHeader h;
    r.GetBytes(sizeof kTraceMagic, &magic);
    r.Get32(&version);
    r.Get32(&headerBytes);
    r.Get(8, &h.intervalNs);
    r.Get32(&h.counterCount);
    r.Get32(&h.sampleCount);
    r.Get32(&h.flags);
    r.Get32(&reserved);
    r.Get(8, &h.firstSampleNs);
    r.Get(8, &h.lastSampleNs);
    r.Get(8, &h.totalSamples);
    if (magic != std::string_view(kTraceMagic, sizeof kTraceMagic)) {
        return Fail(error, "not an OpenGPA SPM trace (magic)");
    }
    if (version != kTraceVersion) return Fail(error, "version " + std::to_string(version) + ", not 1");
    if (headerBytes != kTraceHeaderBytes) return Fail(error, "headerBytes " + std::to_string(headerBytes) + ", not 64");
    if (h.flags & ~kKnownTraceFlags) return Fail(error, "unknown header flags");
    if (reserved != 0) return Fail(error, "the header's reserved field is not 0");
    if (h.intervalNs == 0) return Fail(error, "the interval is 0");

    TraceData trace;
    trace.intervalNs = h.intervalNs;
    // Each name takes at least 8 bytes: a count past that is refused before anything is allocated for it.
    if (h.counterCount > r.left() / 8) {
        return Fail(error, "counterCount " + std::to_string(h.counterCount) + " runs past the end");
    }
    trace.counters.reserve(h.counterCount);
    for (uint32_t i = 0; i < h.counterCount; ++i) {
        const std::string which = "counter " + std::to_string(i);
        uint64_t length = 0;
        std::string_view name;
        if (!r.Get(2, &length) || !r.GetBytes(length, &name)) return Fail(error, which + "'s name runs past the end");
        if (length == 0) return Fail(error, which + "'s name is empty");
        if (!r.ZeroPaddingTo8()) return Fail(error, which + "'s padding is not zeros or runs past the end");
        if (!IsUtf8WithoutNul(name)) return Fail(error, which + "'s name is not UTF-8 without NUL");
        trace.counters.emplace_back(name);
    }
    if (HasDuplicate(trace.counters)) return Fail(error, "a counter is named twice");

    // counterCount is bounded by the size above, so a sample's bytes cannot overflow.
    const size_t sampleBytes = SampleBytes(h.counterCount);
    if (h.sampleCount > r.left() / sampleBytes) {
        return Fail(error, "sampleCount " + std::to_string(h.sampleCount) + " runs past the end");
    }
    if (r.left() != h.sampleCount * sampleBytes) {
        return Fail(error, "bytes after the last sample: the sizes do not add up");
    }
    if (h.totalSamples < h.sampleCount) return Fail(error, "totalSamples is below sampleCount");
    if (((h.flags & kTraceTruncated) != 0) != (h.totalSamples > h.sampleCount)) {
        return Fail(error, "the truncated flag does not match totalSamples and sampleCount");
    }

    bool followsLost = false;
    trace.samples.resize(h.sampleCount);
    for (uint32_t i = 0; i < h.sampleCount; ++i) {
        TraceSample& sample = trace.samples[i];
        const std::string which = "sample " + std::to_string(i);
        uint32_t flags = 0, sampleReserved = 0;
        r.Get(8, &sample.startNs);
        r.Get(8, &sample.endNs);
        r.Get32(&flags);
        r.Get32(&sampleReserved);
        if (flags & ~kSampleDroppedBefore) return Fail(error, which + " has unknown flags");
        if (sampleReserved != 0) return Fail(error, which + "'s reserved field is not 0");
        if (sample.endNs < sample.startNs) return Fail(error, which + " ends before it starts");
        if (i > 0 && sample.startNs < trace.samples[i - 1].endNs) {
            return Fail(error, which + " starts before the one before ends");
        }
        sample.droppedBefore = (flags & kSampleDroppedBefore) != 0;
        followsLost |= sample.droppedBefore;
        sample.values.resize(h.counterCount);
        for (double& value : sample.values) {
            uint64_t bits = 0;
            r.Get(8, &bits);
            value = std::bit_cast<double>(bits);
            if (std::isinf(value)) return Fail(error, which + " has an infinite value");
        }
    }
    if (((h.flags & kTraceFollowsLost) != 0) != followsLost) {
        return Fail(error, "the follows-lost flag does not match the samples");
    }
    const uint64_t firstNs = trace.samples.empty() ? 0 : trace.samples.front().startNs;
    const uint64_t lastNs = trace.samples.empty() ? 0 : trace.samples.back().endNs;
    if (h.firstSampleNs != firstNs || h.lastSampleNs != lastNs) {
        return Fail(error, "firstSampleNs or lastSampleNs is not the samples' first start and last end");
    }
    if (header) *header = h;
    return trace;
}

}  // namespace gpa::pm_sampling
