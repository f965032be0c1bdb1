#include "tools/gpaprof/cuda/raw_call_line.h"

#include <charconv>
#include <cstring>

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

char* PutNumber(char* p, uint64_t value) {
    *p++ = '\t';
    return std::to_chars(p, p + 20, value).ptr;
}

int HexDigitValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// The next tab-separated field of `rest`, removed from it.
std::string_view NextField(std::string_view* rest) {
    const size_t tab = rest->find('\t');
    const std::string_view field = rest->substr(0, tab);
    *rest = tab == std::string_view::npos ? std::string_view() : rest->substr(tab + 1);
    return field;
}

template <typename T>
bool ParseNumber(std::string_view field, T* value) {
    if (field.empty()) return false;
    const std::from_chars_result result = std::from_chars(field.data(), field.data() + field.size(), *value);
    return result.ec == std::errc() && result.ptr == field.data() + field.size();
}

}  // namespace

void EncodeRawCallLine(const RawCallFields& call, std::string* out) {
    const size_t size = call.params ? call.paramsSize : 0;
    const size_t old = out->size();
    out->resize(old + 1 + 6 * 21 + 1 + 2 * size + 1);  // room; trimmed below
    char* const begin = out->data() + old;
    char* p = begin;
    *p++ = 'B';
    p = PutNumber(p, call.threadId);
    p = PutNumber(p, call.index);
    p = PutNumber(p, call.apiType);
    *p++ = '\t';
    p = std::to_chars(p, p + 11, call.returnCode).ptr;
    p = PutNumber(p, call.start);
    p = PutNumber(p, call.end >= call.start ? call.end - call.start : 0);  // the duration: fewer digits
    *p++ = '\t';
    const auto* bytes = static_cast<const unsigned char*>(call.params);
    for (size_t i = 0; i < size; ++i, p += 2) std::memcpy(p, kHexPairs.pairs[bytes[i]], 2);
    *p++ = '\n';
    out->resize(old + static_cast<size_t>(p - begin));
}

bool ExpandRawCallLine(std::string_view line, std::string* callLine, std::string* error) {
    std::string_view rest = line;
    if (NextField(&rest) != "B") {
        *error = "not a raw CUDA call line";
        return false;
    }
    spool::CallLineFields fields;
    uint32_t apiType = 0;
    int32_t returnCode = 0;
    uint64_t duration = 0;
    if (!ParseNumber(NextField(&rest), &fields.threadId) || !ParseNumber(NextField(&rest), &fields.index) ||
        !ParseNumber(NextField(&rest), &apiType) || !ParseNumber(NextField(&rest), &returnCode) ||
        !ParseNumber(NextField(&rest), &fields.start) || !ParseNumber(NextField(&rest), &duration)) {
        *error = "a raw CUDA call line with a field that is not a number";
        return false;
    }
    fields.end = fields.start + duration;
    const std::string_view hex = NextField(&rest);
    if (!rest.empty()) {
        *error = "a raw CUDA call line with more than 8 fields";
        return false;
    }
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
    if (size < 0 || hex.size() != 2 * static_cast<size_t>(size) || static_cast<size_t>(size) > kMaxRawParamsBytes) {
        *error = "a raw CUDA call line of " + std::string(info->name) + " with " + std::to_string(hex.size() / 2) +
                 " bytes of arguments, where this gpaprof's table expects " + std::to_string(size);
        return false;
    }
    alignas(16) unsigned char params[kMaxRawParamsBytes];
    for (size_t i = 0; i < hex.size(); i += 2) {
        const int high = HexDigitValue(hex[i]), low = HexDigitValue(hex[i + 1]);
        if (high < 0 || low < 0) {
            *error = "a raw CUDA call line whose arguments are not hex digits";
            return false;
        }
        params[i / 2] = static_cast<unsigned char>(high << 4 | low);
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
