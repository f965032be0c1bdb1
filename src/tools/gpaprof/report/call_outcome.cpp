#include "tools/gpaprof/report/call_outcome.h"

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

bool IsInteger(std::string_view text) {
    return ParseSigned(text).has_value();
}

// An OpenCL error name or code; nullopt when the text is not a status at all (a handle, NULL, a pointer).
std::optional<bool> OpenClStatusFailed(std::string_view text) {
    if (text == "CL_SUCCESS") return false;
    if (StartsWith(text, "CL_")) return true;
    if (IsInteger(text)) return *ParseSigned(text) < 0;
    return std::nullopt;
}

bool OpenClCreatesObject(std::string_view name) {
    return StartsWith(name, "clCreate") || name == "clLinkProgram" || name == "clCloneKernel" || name == "clSVMAlloc" ||
           StartsWith(name, "clEnqueueMap");
}

CallOutcome ClassifyOpenCl(const ApiCall& call) {
    if (call.returnValue) {
        if (std::optional<bool> failed = OpenClStatusFailed(*call.returnValue)) {
            return {*failed, *failed ? *call.returnValue : std::string()};
        }
    }
    // Calls that return an object report their status through an error out-parameter.
    for (const std::string& arg : call.args) {
        if (arg.size() < 3 || arg.front() != '[' || arg.back() != ']') continue;
        std::string_view inner = StripBrackets(arg);
        if (!StartsWith(inner, "CL_")) continue;
        if (inner != "CL_SUCCESS") return {true, std::string(inner)};
        return {};
    }
    if (call.returnValue && *call.returnValue == "NULL" && OpenClCreatesObject(call.name)) {
        return {true, "NULL"};
    }
    return {};
}

CallOutcome ClassifyCuda(const ApiCall& call) {
    if (!call.returnValue) return {};
    const std::string& value = *call.returnValue;
    if (value == "cudaSuccess" || value == "CUDA_SUCCESS" || value == "0") return {};
    // "Not ready" answers a query (cudaStreamQuery, cudaEventQuery); it is not a failure.
    if (value == "cudaErrorNotReady" || value == "CUDA_ERROR_NOT_READY") return {};
    if (StartsWith(value, "cudaError") || StartsWith(value, "CUDA_ERROR_")) return {true, value};
    if (IsInteger(value)) return {true, value};
    return {};
}

CallOutcome ClassifyHsa(const ApiCall& call) {
    if (!call.returnValue) return {};
    const std::string& value = *call.returnValue;
    if (StartsWith(value, "HSA_STATUS_ERROR")) return {true, value};
    return {};
}

}  // namespace

std::string_view StripBrackets(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') return text.substr(1, text.size() - 2);
    return text;
}

CallOutcome ClassifyCall(std::string_view api, const ApiCall& call) {
    if (api == "ocl") return ClassifyOpenCl(call);
    if (api == "cuda") return ClassifyCuda(call);
    if (api == "hsa") return ClassifyHsa(call);
    // An API part this reader does not know: only return values that name an error count.
    if (call.returnValue && (call.returnValue->find("ERROR") != std::string::npos ||
                             call.returnValue->find("Error") != std::string::npos)) {
        return {true, *call.returnValue};
    }
    return {};
}

}  // namespace gpaprof::report
