// How the layer says what went wrong and what to do: every refusal (a VkResult other than VK_SUCCESS, or a
// void command that could not be recorded) comes with a message. Messages go to
//  - the application's VK_EXT_debug_utils messengers (message id name "OpenGPA-VK_AMD_gpa_interface"),
//  - stderr when OPENGPA_VK_LAYER_LOG is set (to anything but "0"),
//  - the calling thread's last message, read with vkGetGpaInterfaceLastMessageOPENGPA.
// Messages are queued while the layer's lock is held and delivered by FlushMessages() after it is released,
// so a messenger callback may call Vulkan again.
#pragma once

#include <string>

#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

inline constexpr const char* kMessageIdName = "OpenGPA-VK_AMD_gpa_interface";

enum class Severity { kError, kWarning, kInfo };

// Queues `message` for the messengers of `instance` (may be NULL: stderr and last message only).
void Report(const InstanceData* instance, Severity severity, std::string message);
// Convenience: reports an error and returns `result`.
VkResult Refuse(const InstanceData* instance, VkResult result, std::string message);

// Delivers the queued messages of the calling thread. Call without holding the layer's lock.
void FlushMessages();

// The calling thread's last error or warning ("" if none), kept until the next one.
const char* LastMessage();

}  // namespace ogpa::vklayer
