#include "tools/gpaprof/cuda/raw_call_line.h"

#include <charconv>
#include <cstring>

#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

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
    p = spool::PutHex(p, bytes, size);
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
    if (!spool::FromHex(hex.substr(0, 2 * kRawCallHeaderBytes), reinterpret_cast<unsigned char*>(&header))) {
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
    if (!spool::FromHex(paramsHex, params)) {
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
