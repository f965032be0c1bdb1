#include "layers/opencl/layer_messages.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace gpa::cl_layer {

namespace {

struct Notify {
    ContextNotify function = nullptr;
    void* userData = nullptr;
};

std::mutex g_contextsMutex;
std::map<cl_context, Notify> g_contexts;

}  // namespace

bool LogEnabled() {
    static const bool enabled = [] {
        const char* value = std::getenv("OPENGPA_CL_LAYER_LOG");
        return value && *value && std::strcmp(value, "0") != 0;
    }();
    return enabled;
}

void Log(const std::string& message) {
    if (LogEnabled()) std::fprintf(stderr, "opengpa-cl-layer: %s\n", message.c_str());
}

void RememberContext(cl_context context, ContextNotify notify, void* userData) {
    if (!context) return;
    std::lock_guard<std::mutex> lock(g_contextsMutex);
    if (notify) {
        g_contexts[context] = Notify{notify, userData};
    } else {
        g_contexts.erase(context);
    }
}

void ForgetContext(cl_context context) {
    std::lock_guard<std::mutex> lock(g_contextsMutex);
    g_contexts.erase(context);
}

void Report(cl_context context, const std::string& message) {
    Log(message);
    Notify notify;
    {
        std::lock_guard<std::mutex> lock(g_contextsMutex);
        if (auto it = g_contexts.find(context); it != g_contexts.end()) notify = it->second;
    }
    // Called without the lock: the callback may call OpenCL again.
    if (notify.function) notify.function(message.c_str(), nullptr, 0, notify.userData);
}

}  // namespace gpa::cl_layer
