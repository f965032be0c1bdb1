// Leaks: objects a traced call created that no traced call released by the end of the trace. Reference
// counts follow the API: a retain adds one, a release takes one, the object is released at zero.
// The rules are data: which calls create which kind of object and where the handle is written, and which
// calls retain or release it.
#include <algorithm>
#include <map>

#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

enum class HandleAt { Return, Arg, LastOutHandle };

struct Creator {
    const char* api;
    const char* function;
    const char* kind;
    HandleAt at;
    size_t arg;  // for HandleAt::Arg: the argument holding "[handle]" or "[h1,h2,...]"
};

struct Releaser {
    const char* api;
    const char* function;
    const char* kind;
    size_t arg;   // the argument holding the handle (or "{h1,h2,...}")
    int delta;    // -1 release, +1 retain, 0 frees whatever the count (clSVMFree, cudaFree)
};

// Prefix rule: every call whose name starts with `prefix` may create an event through its last out-handle.
constexpr const char* kOpenClEnqueuePrefix = "clEnqueue";

constexpr Creator kCreators[] = {
    {"ocl", "clCreateContext", "context", HandleAt::Return, 0},
    {"ocl", "clCreateContextFromType", "context", HandleAt::Return, 0},
    {"ocl", "clCreateCommandQueue", "command queue", HandleAt::Return, 0},
    {"ocl", "clCreateCommandQueueWithProperties", "command queue", HandleAt::Return, 0},
    {"ocl", "clCreateBuffer", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateBufferWithProperties", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateSubBuffer", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateImage", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateImageWithProperties", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateImage2D", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateImage3D", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreatePipe", "memory object", HandleAt::Return, 0},
    {"ocl", "clCreateSampler", "sampler", HandleAt::Return, 0},
    {"ocl", "clCreateSamplerWithProperties", "sampler", HandleAt::Return, 0},
    {"ocl", "clCreateProgramWithSource", "program", HandleAt::Return, 0},
    {"ocl", "clCreateProgramWithBinary", "program", HandleAt::Return, 0},
    {"ocl", "clCreateProgramWithBuiltInKernels", "program", HandleAt::Return, 0},
    {"ocl", "clCreateProgramWithIL", "program", HandleAt::Return, 0},
    {"ocl", "clLinkProgram", "program", HandleAt::Return, 0},
    {"ocl", "clCreateKernel", "kernel", HandleAt::Return, 0},
    {"ocl", "clCloneKernel", "kernel", HandleAt::Return, 0},
    {"ocl", "clCreateKernelsInProgram", "kernel", HandleAt::Arg, 2},
    {"ocl", "clCreateUserEvent", "event", HandleAt::Return, 0},
    {"ocl", "clCreateSubDevices", "sub-device", HandleAt::Arg, 3},
    {"ocl", "clSVMAlloc", "SVM allocation", HandleAt::Return, 0},
    {"cuda", "cudaMalloc", "device allocation", HandleAt::Arg, 0},
    {"cuda", "cudaMallocManaged", "device allocation", HandleAt::Arg, 0},
    {"cuda", "cudaMallocPitch", "device allocation", HandleAt::Arg, 0},
    {"cuda", "cudaMallocAsync", "device allocation", HandleAt::Arg, 0},
    {"cuda", "cudaMallocHost", "pinned host allocation", HandleAt::Arg, 0},
    {"cuda", "cudaHostAlloc", "pinned host allocation", HandleAt::Arg, 0},
    {"cuda", "cudaMallocArray", "CUDA array", HandleAt::Arg, 0},
    {"cuda", "cudaMalloc3DArray", "CUDA array", HandleAt::Arg, 0},
    {"cuda", "cudaStreamCreate", "stream", HandleAt::Arg, 0},
    {"cuda", "cudaStreamCreateWithFlags", "stream", HandleAt::Arg, 0},
    {"cuda", "cudaStreamCreateWithPriority", "stream", HandleAt::Arg, 0},
    {"cuda", "cudaEventCreate", "event", HandleAt::Arg, 0},
    {"cuda", "cudaEventCreateWithFlags", "event", HandleAt::Arg, 0},
    {"cuda", "cudaGraphCreate", "graph", HandleAt::Arg, 0},
    {"cuda", "cudaGraphInstantiate", "executable graph", HandleAt::Arg, 0},
    {"cuda", "cuMemAlloc", "device allocation", HandleAt::Arg, 0},
    {"cuda", "cuMemAlloc_v2", "device allocation", HandleAt::Arg, 0},
    {"cuda", "cuStreamCreate", "stream", HandleAt::Arg, 0},
    {"cuda", "cuEventCreate", "event", HandleAt::Arg, 0},
    {"cuda", "cuModuleLoad", "module", HandleAt::Arg, 0},
    {"cuda", "cuModuleLoadData", "module", HandleAt::Arg, 0},
};

constexpr Releaser kReleasers[] = {
    {"ocl", "clRetainContext", "context", 0, +1},        {"ocl", "clReleaseContext", "context", 0, -1},
    {"ocl", "clRetainCommandQueue", "command queue", 0, +1}, {"ocl", "clReleaseCommandQueue", "command queue", 0, -1},
    {"ocl", "clRetainMemObject", "memory object", 0, +1}, {"ocl", "clReleaseMemObject", "memory object", 0, -1},
    {"ocl", "clRetainSampler", "sampler", 0, +1},        {"ocl", "clReleaseSampler", "sampler", 0, -1},
    {"ocl", "clRetainProgram", "program", 0, +1},        {"ocl", "clReleaseProgram", "program", 0, -1},
    {"ocl", "clRetainKernel", "kernel", 0, +1},          {"ocl", "clReleaseKernel", "kernel", 0, -1},
    {"ocl", "clRetainEvent", "event", 0, +1},            {"ocl", "clReleaseEvent", "event", 0, -1},
    {"ocl", "clRetainDevice", "sub-device", 0, +1},      {"ocl", "clReleaseDevice", "sub-device", 0, -1},
    {"ocl", "clSVMFree", "SVM allocation", 1, 0},        {"ocl", "clEnqueueSVMFree", "SVM allocation", 2, 0},
    {"cuda", "cudaFree", "device allocation", 0, 0},     {"cuda", "cudaFreeAsync", "device allocation", 0, 0},
    {"cuda", "cudaFreeHost", "pinned host allocation", 0, 0}, {"cuda", "cudaFreeArray", "CUDA array", 0, 0},
    {"cuda", "cudaStreamDestroy", "stream", 0, 0},       {"cuda", "cudaEventDestroy", "event", 0, 0},
    {"cuda", "cudaGraphDestroy", "graph", 0, 0},         {"cuda", "cudaGraphExecDestroy", "executable graph", 0, 0},
    {"cuda", "cuMemFree", "device allocation", 0, 0},    {"cuda", "cuMemFree_v2", "device allocation", 0, 0},
    {"cuda", "cuStreamDestroy", "stream", 0, 0},         {"cuda", "cuStreamDestroy_v2", "stream", 0, 0},
    {"cuda", "cuEventDestroy", "event", 0, 0},           {"cuda", "cuEventDestroy_v2", "event", 0, 0},
    {"cuda", "cuModuleUnload", "module", 0, 0},
};

bool IsNullHandle(std::string_view handle) {
    if (handle.empty() || handle == "NULL" || handle == "0" || handle == "(nil)") return true;
    if (StartsWith(handle, "0x")) {
        std::optional<uint64_t> value = ParseHexOrDecimal(handle);
        return value && *value == 0;
    }
    return false;
}

bool LooksLikeHandle(std::string_view text) { return StartsWith(text, "0x") && ParseHexOrDecimal(text).has_value(); }

// "[h]", "[h1,h2]", "{h1,h2}", "h" -> the handles, without NULLs and "..." (lists the tracer shortened),
// written one way (HexHandle) so that "0x7F00" and "0x0000000000007F00" are one object.
std::vector<std::string> HandlesIn(std::string_view text) {
    text = Trim(text);
    if (text.size() >= 2 && (text.front() == '[' || text.front() == '{')) text = text.substr(1, text.size() - 2);
    std::vector<std::string> handles;
    for (std::string_view item : SplitOn(text, ',')) {
        item = Trim(item);
        if (!IsNullHandle(item) && LooksLikeHandle(item)) handles.push_back(HexHandle(*ParseHexOrDecimal(item)));
    }
    return handles;
}

struct LiveObject {
    std::string handle;
    std::string kind;
    std::string creator;
    std::string api;
    uint64_t threadId = 0;
    size_t callIndex = 0;
    int references = 1;
    size_t order = 0;
};

}  // namespace

CheckResult CheckLeaks(const CheckInput& input) {
    CheckResult result;
    result.id = "leaks";
    result.title = "Objects created and never released";
    result.rule = "Every object a traced call creates (contexts, queues, memory objects, programs, kernels, events, "
                  "samplers, sub-devices, SVM and device allocations, streams) must reach a reference count of zero "
                  "through the API's release calls before the trace ends.";
    result.advice = "Release each object when it is no longer needed (clRelease*, cudaFree, cudaStreamDestroy, ...); "
                    "events returned by enqueue calls must be released too.";
    result.severity = Severity::Warning;

    // Kinds whose release calls were excluded from tracing cannot be decided.
    std::vector<std::pair<std::string, std::string>> undecidable;  // api, kind
    for (const ApiTracePart& part : input.atp.parts) {
        for (const Releaser& releaser : kReleasers) {
            if (part.api != releaser.api || releaser.delta > 0) continue;
            if (std::find(part.excludedApis.begin(), part.excludedApis.end(), releaser.function) !=
                part.excludedApis.end()) {
                undecidable.emplace_back(releaser.api, releaser.kind);
                result.notes.push_back(std::string(releaser.function) + " was excluded from the trace: " +
                                       releaser.kind + " leaks are not checked");
            }
        }
    }
    auto decidable = [&](const std::string& api, const char* kind) {
        return std::find(undecidable.begin(), undecidable.end(), std::make_pair(api, std::string(kind))) ==
               undecidable.end();
    };

    std::map<std::string, LiveObject> live;  // key: api + " " + handle
    bool anyKnownCall = false;
    size_t order = 0;
    for (size_t index : CallsInTimeOrder(input.timeline)) {
        const HostCall& host = input.timeline.calls[index];
        const ApiCall& call = *host.call;
        for (const Releaser& releaser : kReleasers) {
            if (host.api != releaser.api || call.name != releaser.function) continue;
            anyKnownCall = true;
            if (ClassifyCall(host.api, call).failed || releaser.arg >= call.args.size()) break;
            for (const std::string& handle : HandlesIn(call.args[releaser.arg])) {
                auto found = live.find(host.api + " " + handle);
                if (found == live.end() || std::string_view(found->second.kind) != releaser.kind) continue;
                found->second.references = releaser.delta == 0 ? 0 : found->second.references + releaser.delta;
                if (found->second.references <= 0) live.erase(found);
            }
            break;
        }
        std::vector<std::pair<std::string, const char*>> created;  // handle, kind
        for (const Creator& creator : kCreators) {
            if (host.api != creator.api || call.name != creator.function) continue;
            anyKnownCall = true;
            if (ClassifyCall(host.api, call).failed) break;
            if (creator.at == HandleAt::Return) {
                if (call.returnValue && !IsNullHandle(*call.returnValue) && LooksLikeHandle(*call.returnValue)) {
                    created.emplace_back(HexHandle(*ParseHexOrDecimal(*call.returnValue)), creator.kind);
                }
            } else if (creator.arg < call.args.size()) {
                for (const std::string& handle : HandlesIn(call.args[creator.arg])) created.emplace_back(handle, creator.kind);
            }
            break;
        }
        // Enqueue calls create an event when the application asked for one (the last "[handle]" argument).
        if (host.api == "ocl" && StartsWith(call.name, kOpenClEnqueuePrefix) && !ClassifyCall(host.api, call).failed) {
            anyKnownCall = true;
            for (auto arg = call.args.rbegin(); arg != call.args.rend(); ++arg) {
                if (arg->size() > 2 && arg->front() == '[' && arg->find(',') == std::string::npos) {
                    std::vector<std::string> handles = HandlesIn(*arg);
                    if (!handles.empty()) created.emplace_back(handles.front(), "event");
                    if (!handles.empty()) break;
                }
            }
        }
        for (const auto& [handle, kind] : created) {
            if (!decidable(host.api, kind)) continue;
            LiveObject object;
            object.handle = handle;
            object.kind = kind;
            object.creator = call.name;
            object.api = host.api;
            object.threadId = host.threadId;
            object.callIndex = host.index;
            object.order = order++;
            live[host.api + " " + handle] = object;
        }
    }
    if (!anyKnownCall) {
        result.status = CheckStatus::NotDecidable;
        result.notes.push_back("the trace has no call that creates or releases an object this check knows");
        return result;
    }

    // One finding per leaked object; the evidence groups them by kind, first created first.
    std::vector<LiveObject> leaked;
    for (auto& [key, object] : live) leaked.push_back(object);
    std::sort(leaked.begin(), leaked.end(), [](const LiveObject& a, const LiveObject& b) { return a.order < b.order; });
    std::vector<std::string> kinds;
    for (const LiveObject& object : leaked) {
        if (std::find(kinds.begin(), kinds.end(), object.api + " " + object.kind) == kinds.end()) {
            kinds.push_back(object.api + " " + object.kind);
        }
    }
    constexpr size_t kListed = 8;
    for (const std::string& kind : kinds) {
        std::vector<const LiveObject*> objects;
        for (const LiveObject& object : leaked) {
            if (object.api + " " + object.kind == kind) objects.push_back(&object);
        }
        const LiveObject& first = *objects.front();
        std::string text = std::to_string(objects.size()) + " " + first.kind + (objects.size() == 1 ? "" : "s") +
                           " never released:";
        for (size_t i = 0; i < objects.size() && i < kListed; ++i) {
            text += (i ? ", " : " ") + objects[i]->handle + " (" + objects[i]->creator + ", thread " +
                    std::to_string(objects[i]->threadId) + " call #" + std::to_string(objects[i]->callIndex) + ")";
        }
        if (objects.size() > kListed) text += ", and " + std::to_string(objects.size() - kListed) + " more";
        result.Add(Evidence{first.api, first.threadId, first.callIndex, text});
    }
    result.occurrences = leaked.size();
    return result;
}

}  // namespace gpaprof::report
