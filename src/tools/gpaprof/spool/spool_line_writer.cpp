// Writing spool lines (spool_records.h): LineWriter, the 'A' line written field by field (EncodeCallLine) and the
// escaping of text fields. The record layouts themselves are in spool_records.cpp, encoder beside decoder.
#include "tools/gpaprof/spool/spool_records.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpaprof::spool {
namespace {

// Two lowercase hex digits per byte value, for one 2-byte copy per byte.
struct HexPairs {
    char pairs[256][2];
    constexpr HexPairs() : pairs() {
        constexpr char kDigits[] = "0123456789abcdef";
        for (int i = 0; i < 256; ++i) pairs[i][0] = kDigits[i >> 4], pairs[i][1] = kDigits[i & 0xF];
    }
};
constexpr HexPairs kHexPairs;

int HexDigitValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// How many characters at the start of `text` need no escape (none of \\ \t \n \r): eight at a time, since
// every traced call's line goes through here (docs/benchmarks.md, launch-bound tracing).
size_t PlainPrefix(std::string_view text) {
    constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
    auto hasByte = [](uint64_t word, uint8_t byte) {
        const uint64_t v = word ^ (kOnes * byte);
        return ((v - kOnes) & ~v & kHighs) != 0;
    };
    size_t plain = 0;
    for (; plain + 8 <= text.size(); plain += 8) {
        uint64_t word;
        std::memcpy(&word, text.data() + plain, sizeof word);
        if (hasByte(word, '\\') || hasByte(word, '\t') || hasByte(word, '\n') || hasByte(word, '\r')) break;
    }
    for (; plain < text.size(); ++plain) {
        const char c = text[plain];
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r') break;
    }
    return plain;
}

// Writes `text` escaped at `p` (room for twice its length) and returns the end: the one escaping of every field.
char* WriteEscaped(char* p, std::string_view text) {
    size_t plain = PlainPrefix(text);
    if (plain > 0) std::memcpy(p, text.data(), plain);  // an empty view's data may be null
    p += plain;
    for (; plain < text.size(); ++plain) {
        const char c = text[plain];
        switch (c) {
            case '\\': *p++ = '\\', *p++ = '\\'; break;
            case '\t': *p++ = '\\', *p++ = 't'; break;
            case '\n': *p++ = '\\', *p++ = 'n'; break;
            case '\r': *p++ = '\\', *p++ = 'r'; break;
            default: *p++ = c;
        }
    }
    return p;
}

}  // namespace

// 16 bytes at a time where SSE2 is there (every x86-64): a launch's raw call line is 88 bytes, and the per-byte table
// copy took about 40 ns of it on the launching thread (docs/benchmarks.md). The rest, and other machines, by the table.
char* PutHex(char* p, const void* data, size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i nine = _mm_set1_epi8(9);
    const __m128i zero = _mm_set1_epi8('0');
    const __m128i toLetter = _mm_set1_epi8('a' - '0' - 10);
    // A nibble of 0-15 to its lowercase digit: '0' + n, and 'a' - '0' - 10 more where n > 9.
    auto digits = [&](__m128i n) { return _mm_add_epi8(_mm_add_epi8(n, zero), _mm_and_si128(_mm_cmpgt_epi8(n, nine), toLetter)); };
    for (; i + 16 <= size; i += 16, p += 32) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
        const __m128i high = _mm_and_si128(_mm_srli_epi16(v, 4), nibble);
        const __m128i low = _mm_and_si128(v, nibble);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), digits(_mm_unpacklo_epi8(high, low)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 16), digits(_mm_unpackhi_epi8(high, low)));
    }
#endif
    for (; i < size; ++i, p += 2) std::memcpy(p, kHexPairs.pairs[bytes[i]], 2);
    return p;
}

bool FromHex(std::string_view hex, unsigned char* bytes) {
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        const int high = HexDigitValue(hex[i]), low = HexDigitValue(hex[i + 1]);
        if (high < 0 || low < 0) return false;
        bytes[i / 2] = static_cast<unsigned char>(high << 4 | low);
    }
    return true;
}

std::string EscapeField(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '\\': escaped += "\\\\"; break;
            case '\t': escaped += "\\t"; break;
            case '\n': escaped += "\\n"; break;
            case '\r': escaped += "\\r"; break;
            default: escaped += c;
        }
    }
    return escaped;
}

void EncodeCallLine(const CallLineFields& call, std::string* out) {
    // The fields of Encoder's CallRecord and EncodeCall, in their order, written through a pointer into room made
    // once (at most two characters per character of text, 21 per number): this runs at every traced call, where
    // appending field by field cost about 0.3 us per line on an H100 machine (docs/benchmarks.md).
    const std::string_view returnValue = call.returnValue.value_or(std::string_view());
    // 'A', the return value's flag and '\n' (4), three text fields' tabs (3), six numbers with their tabs.
    size_t room = 4 + 3 + 6 * 21 + 2 * (call.part.size() + call.name.size() + returnValue.size());
    for (size_t i = 0; i < call.argCount; ++i) room += 1 + 2 * call.args[i].size();
    const size_t begin = out->size();
    out->resize(begin + room);
    char* p = out->data() + begin;
    auto text = [&p](std::string_view field) {
        *p++ = '\t';
        p = WriteEscaped(p, field);
    };
    auto number = [&p](uint64_t value) {
        *p++ = '\t';
        p = std::to_chars(p, p + 20, value).ptr;
    };
    *p++ = 'A';
    text(call.part);
    number(call.threadId);
    number(call.index);
    number(call.apiType);
    text(call.name);
    *p++ = '\t';
    *p++ = call.returnValue ? '1' : '0';
    text(returnValue);
    number(call.argCount);
    for (size_t i = 0; i < call.argCount; ++i) text(call.args[i]);
    number(call.start);
    number(call.end);
    *p++ = '\n';
    out->resize(static_cast<size_t>(p - out->data()));
}

LineWriter::LineWriter(char type, std::string* line) : line_(*line) {
    const size_t begin = line_.size();
    line_.resize(begin + 256);
    p_ = line_.data() + begin;
    end_ = line_.data() + line_.size();
    *p_++ = type;
}

LineWriter::~LineWriter() {
    if (!trimmed_) Trim();
}

void LineWriter::Grow(size_t bytes) {
    const size_t used = static_cast<size_t>(p_ - line_.data());
    line_.resize(used + bytes + 256);  // std::string grows its capacity geometrically
    p_ = line_.data() + used;
    end_ = line_.data() + line_.size();
}

void LineWriter::Trim() {
    line_.resize(static_cast<size_t>(p_ - line_.data()));
    trimmed_ = true;
}

void LineWriter::Done() {
    Room(1);
    *p_++ = '\n';
    Trim();
}

LineWriter& LineWriter::Text(std::string_view text) {
    Room(1 + 2 * text.size());
    *p_++ = '\t';
    p_ = WriteEscaped(p_, text);
    return *this;
}

LineWriter& LineWriter::Hex(const void* bytes, size_t size) {
    Room(1 + 2 * size);
    *p_++ = '\t';
    p_ = PutHex(p_, bytes, size);
    return *this;
}

LineWriter& LineWriter::Number(uint64_t value) {
    Room(21);
    *p_++ = '\t';
    p_ = std::to_chars(p_, p_ + 20, value).ptr;
    return *this;
}

LineWriter& LineWriter::Signed(long value) {
    Room(21);
    *p_++ = '\t';
    p_ = std::to_chars(p_, p_ + 20, value).ptr;
    return *this;
}

LineWriter& LineWriter::Flag(bool value) {
    Room(2);
    *p_++ = '\t';
    *p_++ = value ? '1' : '0';
    return *this;
}

LineWriter& LineWriter::Real(double value) {
    // printf's "%.17g" in the C locale, whatever locale the profiled application set.
    char buffer[40];
    const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
    return Text(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
}

LineWriter& LineWriter::Optional(const std::optional<uint64_t>& value) { return value ? Number(*value) : Text("-"); }
LineWriter& LineWriter::Optional(const std::optional<double>& value) { return value ? Real(*value) : Text("-"); }

LineWriter& LineWriter::OptionalText(const std::optional<std::string>& value) {
    Flag(value.has_value());
    return value ? Text(*value) : Text("");
}

LineWriter& LineWriter::Size(const WorkSize& size) {
    Number(size.dims);
    for (uint64_t value : size.size) Number(value);
    return *this;
}

LineWriter& LineWriter::List(const std::vector<std::string>& values) {
    Number(values.size());
    for (const std::string& value : values) Text(value);
    return *this;
}

LineWriter& LineWriter::Numbers(const std::vector<uint64_t>& values) {
    Number(values.size());
    for (uint64_t value : values) Number(value);
    return *this;
}

void LineWriter::ShortestReal(double value) {
    // std::to_chars without a precision: the shortest text that reads back exactly, at most 24 characters
    // ("-2.2250738585072014e-308"), in the C locale, written in place (one sample line per 100 us and device).
    Room(26);
    *p_++ = '\t';
    if (!std::isfinite(value)) {
        *p_++ = '-';
        return;
    }
    p_ = std::to_chars(p_, p_ + 25, value).ptr;
}

LineWriter& LineWriter::Reals(std::span<const std::optional<double>> values) {
    Number(values.size());
    for (const std::optional<double>& value : values) ShortestReal(value ? *value : NAN);
    return *this;
}

LineWriter& LineWriter::Reals(std::span<const double> values) {
    Number(values.size());
    for (double value : values) ShortestReal(value);
    return *this;
}

void EncodePmSampleLine(uint32_t device, uint64_t startNs, uint64_t endNs, bool droppedBefore, bool replay,
                        std::span<const double> values, std::string* out) {
    // The fields of Encoder's PmSampleRecord, in their order.
    LineWriter('H', out).Number(device).Number(startNs).Number(endNs).Flag(droppedBefore).Flag(replay).Reals(values).Done();
}

}  // namespace gpaprof::spool
