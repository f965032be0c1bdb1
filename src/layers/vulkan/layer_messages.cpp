#include "layers/vulkan/layer_messages.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace ogpa::vklayer {

namespace {

struct Pending {
    Severity severity;
    std::string text;
    std::vector<Messenger> messengers;
};

thread_local std::vector<Pending> tPending;
thread_local std::string tLastMessage;

bool LogToStderr() {
    static const bool enabled = [] {
        const char* value = std::getenv("OPENGPA_VK_LAYER_LOG");
        return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
    }();
    return enabled;
}

VkDebugUtilsMessageSeverityFlagBitsEXT SeverityBit(Severity severity) {
    switch (severity) {
        case Severity::kError: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        case Severity::kWarning: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
        case Severity::kInfo: break;
    }
    return VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
}

const char* SeverityName(Severity severity) {
    switch (severity) {
        case Severity::kError: return "error";
        case Severity::kWarning: return "warning";
        case Severity::kInfo: break;
    }
    return "info";
}

}  // namespace

void Report(const InstanceData* instance, Severity severity, std::string message) {
    if (severity != Severity::kInfo) tLastMessage = message;
    Pending pending{severity, std::move(message), {}};
    if (instance != nullptr) pending.messengers = instance->messengers;
    tPending.push_back(std::move(pending));
}

VkResult Refuse(const InstanceData* instance, VkResult result, std::string message) {
    Report(instance, Severity::kError, std::move(message));
    return result;
}

void FlushMessages() {
    if (tPending.empty()) return;
    std::vector<Pending> pending;
    pending.swap(tPending);
    for (const Pending& entry : pending) {
        if (LogToStderr()) std::fprintf(stderr, "VK_LAYER_OPENGPA_gpa_interface %s: %s\n", SeverityName(entry.severity), entry.text.c_str());
        const VkDebugUtilsMessageSeverityFlagBitsEXT severity = SeverityBit(entry.severity);
        // Refusals are the application's usage errors; the rest is general information.
        const VkDebugUtilsMessageTypeFlagsEXT type = entry.severity == Severity::kError
                                                         ? VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                                                         : VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
        VkDebugUtilsMessengerCallbackDataEXT data{};
        data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
        data.pMessageIdName = kMessageIdName;
        data.pMessage = entry.text.c_str();
        for (const Messenger& messenger : entry.messengers) {
            if ((messenger.severities & severity) != 0 && (messenger.types & type) != 0 && messenger.callback != nullptr) {
                messenger.callback(severity, type, &data, messenger.userData);
            }
        }
    }
}

const char* LastMessage() { return tLastMessage.c_str(); }

}  // namespace ogpa::vklayer
