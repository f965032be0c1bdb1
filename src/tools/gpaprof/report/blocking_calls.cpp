#include "tools/gpaprof/report/blocking_calls.h"

namespace gpaprof::report {
namespace {

struct OpenClBlockingRule {
    const char* function;
    size_t blockingArg;  // index of the cl_bool blocking argument
    bool isWrite, isRead;
};

constexpr OpenClBlockingRule kOpenClRules[] = {
    {"clEnqueueReadBuffer", 2, false, true},    {"clEnqueueReadBufferRect", 2, false, true},
    {"clEnqueueReadImage", 2, false, true},     {"clEnqueueWriteBuffer", 2, true, false},
    {"clEnqueueWriteBufferRect", 2, true, false}, {"clEnqueueWriteImage", 2, true, false},
    {"clEnqueueMapBuffer", 2, false, false},    {"clEnqueueMapImage", 2, false, false},
    {"clEnqueueSVMMemcpy", 1, false, false},    {"clEnqueueSVMMap", 1, false, false},
};

// Synchronous CUDA copies: the host waits until the copy is done.
constexpr const char* kCudaSynchronousCopies[] = {
    "cudaMemcpy",          "cudaMemcpy2D",         "cudaMemcpy3D",       "cudaMemcpyToSymbol",
    "cudaMemcpyFromSymbol", "cudaMemcpy2DToArray", "cudaMemcpy2DFromArray", "cudaMemcpyPeer",
    "cuMemcpyHtoD",        "cuMemcpyDtoH",         "cuMemcpyHtoD_v2",    "cuMemcpyDtoH_v2",
    "cuMemcpy",
};

bool Contains(const ApiCall& call, const char* text) {
    for (const std::string& arg : call.args) {
        if (arg.find(text) != std::string::npos) return true;
    }
    return false;
}

}  // namespace

std::optional<BlockingCall> BlockingTransfer(std::string_view api, const ApiCall& call) {
    if (api == "ocl") {
        for (const OpenClBlockingRule& rule : kOpenClRules) {
            if (call.name != rule.function) continue;
            if (rule.blockingArg >= call.args.size() || call.args[rule.blockingArg] != "CL_TRUE") return std::nullopt;
            return BlockingCall{"blocking flag CL_TRUE (argument " + std::to_string(rule.blockingArg + 1) + ")",
                                rule.isWrite, rule.isRead};
        }
        return std::nullopt;
    }
    if (api == "cuda") {
        for (const char* name : kCudaSynchronousCopies) {
            if (call.name != name) continue;
            BlockingCall blocking;
            blocking.evidence = call.name + " is synchronous";
            blocking.isWrite = Contains(call, "HostToDevice") || call.name.find("HtoD") != std::string::npos ||
                               call.name == "cudaMemcpyToSymbol";
            blocking.isRead = Contains(call, "DeviceToHost") || call.name.find("DtoH") != std::string::npos ||
                              call.name == "cudaMemcpyFromSymbol";
            return blocking;
        }
    }
    return std::nullopt;
}

}  // namespace gpaprof::report
