#include "tools/gpaprof/cuda/raw_call_line.h"

#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
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

// 16 bytes at a time where SSE2 is there (every x86-64): a launch's line is 88 bytes, and the per-byte table copy
// took about 40 ns of it on the launching thread (docs/benchmarks.md). The rest, and other machines, by the table.
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

int HexDigitValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// `hex` (2 digits a byte) into `bytes`; false when a character is not a lowercase hex digit.
bool FromHex(std::string_view hex, unsigned char* bytes) {
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        const int high = HexDigitValue(hex[i]), low = HexDigitValue(hex[i + 1]);
        if (high < 0 || low < 0) return false;
        bytes[i / 2] = static_cast<unsigned char>(high << 4 | low);
    }
    return true;
}

// The header's fields in their order and sizes (little-endian on the machines gpaprof runs on: x86-64, aarch64).
struct RawHeader {
    uint64_t threadId;
    uint64_t index;
    uint32_t apiType;
    int32_t returnCode;
    uint64_t start;
    uint64_t duration;
};
static_assert(sizeof(RawHeader) == kRawCallHeaderBytes, "no padding in the raw call header");

}  // namespace

size_t EncodeRawCallLine(const RawCallFields& call, char* out) {
    const RawHeader header{call.threadId, call.index, call.apiType, call.returnCode, call.start,
                           call.end >= call.start ? call.end - call.start : 0};
    // Header and parameters as one run of bytes: whole 16-byte blocks for PutHex.
    unsigned char bytes[kRawCallHeaderBytes + kMaxRawParamsBytes];
    std::memcpy(bytes, &header, sizeof header);
    size_t size = sizeof header;
    if (call.params && call.paramsSize <= kMaxRawParamsBytes) {
        std::memcpy(bytes + size, call.params, call.paramsSize);
        size += call.paramsSize;
    }
    char* p = out;
    *p++ = 'B';
    p = PutHex(p, bytes, size);
    *p++ = '\n';
    return static_cast<size_t>(p - out);
}

void EncodeRawCallLine(const RawCallFields& call, std::string* out) {
    char line[kMaxRawCallLineBytes];
    out->append(line, EncodeRawCallLine(call, line));
}

bool ExpandRawCallLine(std::string_view line, std::string* callLine, std::string* error) {
    if (line.empty() || line[0] != 'B') {
        *error = "not a raw CUDA call line";
        return false;
    }
    const std::string_view hex = line.substr(1);
    if (hex.size() < 2 * kRawCallHeaderBytes || hex.size() % 2 != 0) {
        *error = "a raw CUDA call line of " + std::to_string(hex.size()) + " hex digits, shorter than its header (" +
                 std::to_string(2 * kRawCallHeaderBytes) + ") or odd";
        return false;
    }
    RawHeader header{};
    if (!FromHex(hex.substr(0, 2 * kRawCallHeaderBytes), reinterpret_cast<unsigned char*>(&header))) {
        *error = "a raw CUDA call line whose header is not hex digits";
        return false;
    }
    spool::CallLineFields fields;
    fields.threadId = header.threadId;
    fields.index = header.index;
    fields.start = header.start;
    fields.end = header.start + header.duration;
    const uint32_t apiType = header.apiType;
    const int32_t returnCode = header.returnCode;
    const std::string_view paramsHex = hex.substr(2 * kRawCallHeaderBytes);
    const CudaApiInfo* info = FindApiByType(apiType);
    if (!info) {
        *error = "a raw CUDA call line of API type " + std::to_string(apiType) +
                 ", which this gpaprof's table of CUDA functions does not have (was it built with an older CUDA?)";
        return false;
    }
    if (!ReturnsStatusCode(info->domain, info->name)) {
        *error = "a raw CUDA call line of " + std::string(info->name) + ", which returns no status code";
        return false;
    }
    const int size = RawParamsSize(info->domain, info->cbid);
    if (size < 0 || paramsHex.size() != 2 * static_cast<size_t>(size) || static_cast<size_t>(size) > kMaxRawParamsBytes) {
        *error = "a raw CUDA call line of " + std::string(info->name) + " with " + std::to_string(paramsHex.size() / 2) +
                 " bytes of arguments, where this gpaprof's table expects " + std::to_string(size);
        return false;
    }
    alignas(16) unsigned char params[kMaxRawParamsBytes];
    if (!FromHex(paramsHex, params)) {
        *error = "a raw CUDA call line whose arguments are not hex digits";
        return false;
    }
    ArgContext context;
    context.succeeded = returnCode == 0;
    ArgList args;
    if (size > 0) FormatArguments(info->domain, info->cbid, params, context, &args);
    std::string_view views[64];
    if (args.size() > 64) {
        *error = "a raw CUDA call line of " + std::string(info->name) + " with more than 64 arguments";
        return false;
    }
    for (size_t i = 0; i < args.size(); ++i) views[i] = args[i];
    const std::string returnValue = StatusText(info->domain, returnCode);
    fields.part = "cuda";
    fields.apiType = apiType;
    fields.name = info->name;
    fields.returnValue = returnValue;
    fields.args = views;
    fields.argCount = args.size();
    spool::EncodeCallLine(fields, callLine);
    return true;
}

}  // namespace gpaprof::cuda
