// NVTX push/pop ranges as gpaprof perf markers. gpaprof names libgpaprof_cuda_injection.so in
// NVTX_INJECTION64_PATH; the application's NVTX (header-only, in the application) loads it at its first
// NVTX call and calls InitializeInjectionNvtx2, which fills NVTX's function table with the handlers below.
//
//   nvtxRangePushA/W/Ex, nvtxDomainRangePushEx  -> clBeginPerfMarker <message> <time> <domain name>
//   nvtxRangePop, nvtxDomainRangePop            -> clEndPerfMarker <time>
//
// Start/end ranges (which may end on another thread) and instantaneous marks have no place in the nested
// Perfmarker layout and are not recorded.
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <cwchar>
#include <mutex>
#include <string>
#include <vector>

#include "tools/gpaprof/agent/agent.h"

namespace {

// What nvtxDomainHandle_t and nvtxStringHandle_t point at while gpaprof is the NVTX tool.
struct Domain {
    std::string name;
};
struct RegisteredString {
    std::string text;
};

std::mutex g_registrationsMutex;
std::vector<Domain*> g_domains;            // kept for the life of the process: handles stay valid
std::vector<RegisteredString*> g_strings;

thread_local int t_depth = 0;

gpaprof::agent::Agent* TheAgent() { return gpaprof::agent::Agent::Get(); }

std::string Narrow(const wchar_t* text) {
    std::string narrow;
    for (; text && *text; ++text) narrow += (*text > 0 && *text < 128) ? static_cast<char>(*text) : '?';
    return narrow;
}

std::string Message(const nvtxEventAttributes_t* attributes) {
    if (!attributes) return {};
    switch (attributes->messageType) {
        case NVTX_MESSAGE_TYPE_ASCII: return attributes->message.ascii ? attributes->message.ascii : "";
        case NVTX_MESSAGE_TYPE_UNICODE: return Narrow(attributes->message.unicode);
        case NVTX_MESSAGE_TYPE_REGISTERED: {
            const auto* registered = reinterpret_cast<const RegisteredString*>(attributes->message.registered);
            return registered ? registered->text : "";
        }
        default: return {};
    }
}

std::string DomainName(nvtxDomainHandle_t domain) {
    const auto* known = reinterpret_cast<const Domain*>(domain);
    return known ? known->name : std::string();
}

int Push(const std::string& message, const std::string& group) {
    if (auto* agent = TheAgent()) agent->BeginMarker(message.c_str(), group.c_str());
    return t_depth++;
}

int Pop() {
    if (t_depth == 0) return -1;  // NVTX's answer for a pop without a push
    if (auto* agent = TheAgent()) agent->EndMarker();
    return --t_depth;
}

int NVTX_API RangePushA(const char* message) { return Push(message ? message : "", ""); }
int NVTX_API RangePushW(const wchar_t* message) { return Push(Narrow(message), ""); }
int NVTX_API RangePushEx(const nvtxEventAttributes_t* attributes) { return Push(Message(attributes), ""); }
int NVTX_API RangePop() { return Pop(); }

int NVTX_API DomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
    return Push(Message(attributes), DomainName(domain));
}
int NVTX_API DomainRangePop(nvtxDomainHandle_t) { return Pop(); }

nvtxDomainHandle_t NVTX_API DomainCreateA(const char* name) {
    auto* domain = new Domain{name ? name : ""};
    std::lock_guard<std::mutex> lock(g_registrationsMutex);
    g_domains.push_back(domain);
    return reinterpret_cast<nvtxDomainHandle_t>(domain);
}
nvtxDomainHandle_t NVTX_API DomainCreateW(const wchar_t* name) {
    auto* domain = new Domain{Narrow(name)};
    std::lock_guard<std::mutex> lock(g_registrationsMutex);
    g_domains.push_back(domain);
    return reinterpret_cast<nvtxDomainHandle_t>(domain);
}
void NVTX_API DomainDestroy(nvtxDomainHandle_t) {}  // handles may still be used by markers in flight

nvtxStringHandle_t NVTX_API DomainRegisterStringA(nvtxDomainHandle_t, const char* text) {
    auto* registered = new RegisteredString{text ? text : ""};
    std::lock_guard<std::mutex> lock(g_registrationsMutex);
    g_strings.push_back(registered);
    return reinterpret_cast<nvtxStringHandle_t>(registered);
}
nvtxStringHandle_t NVTX_API DomainRegisterStringW(nvtxDomainHandle_t, const wchar_t* text) {
    auto* registered = new RegisteredString{Narrow(text)};
    std::lock_guard<std::mutex> lock(g_registrationsMutex);
    g_strings.push_back(registered);
    return reinterpret_cast<nvtxStringHandle_t>(registered);
}

template <typename Function>
void Install(NvtxFunctionTable table, unsigned int size, unsigned int id, Function function) {
    if (!table || id >= size || !table[id]) return;
    NvtxFunctionPointer pointer;
    static_assert(sizeof pointer == sizeof function);
    __builtin_memcpy(&pointer, &function, sizeof pointer);
    *table[id] = pointer;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
    gpaprof::agent::Agent* agent = TheAgent();
    if (!agent || !agent->config().trace || !getExportTable) return 0;  // NVTX stays a no-op
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) || !callbacks->GetModuleFunctionTable) {
        return 0;
    }
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size)) {
        Install(table, size, NVTX_CBID_CORE_RangePushA, &RangePushA);
        Install(table, size, NVTX_CBID_CORE_RangePushW, &RangePushW);
        Install(table, size, NVTX_CBID_CORE_RangePushEx, &RangePushEx);
        Install(table, size, NVTX_CBID_CORE_RangePop, &RangePop);
    }
    if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size)) {
        Install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &DomainRangePushEx);
        Install(table, size, NVTX_CBID_CORE2_DomainRangePop, &DomainRangePop);
        Install(table, size, NVTX_CBID_CORE2_DomainCreateA, &DomainCreateA);
        Install(table, size, NVTX_CBID_CORE2_DomainCreateW, &DomainCreateW);
        Install(table, size, NVTX_CBID_CORE2_DomainDestroy, &DomainDestroy);
        Install(table, size, NVTX_CBID_CORE2_DomainRegisterStringA, &DomainRegisterStringA);
        Install(table, size, NVTX_CBID_CORE2_DomainRegisterStringW, &DomainRegisterStringW);
    }
    return 1;
}
