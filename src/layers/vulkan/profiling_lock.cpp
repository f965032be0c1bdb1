#include "layers/vulkan/profiling_lock.h"

#include <string>

#include "layers/vulkan/layer_messages.h"

namespace ogpa::vklayer {

void AcquireProfilingLock(DeviceData& device, const char* when) {
    if (device.profilingLockHeld || device.counters.khrEvents == 0) return;
    VkAcquireProfilingLockInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR;
    info.timeout = 0;  // the application's call must not wait for another process's profiling
    const VkResult result = device.next.AcquireProfilingLockKHR(device.handle, &info);
    if (result == VK_SUCCESS) {
        device.profilingLockHeld = true;
        device.profilingLockProblem.clear();
        return;
    }
    device.profilingLockProblem = std::string("vkAcquireProfilingLockKHR failed with VkResult ") + std::to_string(result) +
                                  (result == VK_TIMEOUT ? " (VK_TIMEOUT: another holder has the profiling lock)" : "") + " at " +
                                  when;
    Report(device.instance, Severity::kWarning,
           std::string(when) + ": " + device.profilingLockProblem +
               "; VK_KHR_performance_query counters (block KHR) cannot be sampled in command buffers begun without the "
               "lock. The layer tries again at each vkCreateGpaSessionAMD");
}

void ReleaseProfilingLock(DeviceData& device) {
    if (!device.profilingLockHeld) return;
    device.next.ReleaseProfilingLockKHR(device.handle);
    device.profilingLockHeld = false;
}

}  // namespace ogpa::vklayer
