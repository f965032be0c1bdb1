// VK_KHR_performance_query's profiling lock. Vulkan requires it to be held before a command buffer that
// begins a performance query is begun, and throughout that command buffer's recording and execution. The
// layer cannot know which command buffers will hold samples of the VK_KHR_performance_query block, so on a
// device where the block is offered it holds the lock from vkCreateDevice to vkDestroyDevice. When another
// holder keeps it from the layer, the layer tries again at every vkCreateGpaSessionAMD (never waiting), and
// samples of the block are refused in command buffers begun without it (command_tracking.cpp records that).
#pragma once

#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

// Acquires the lock unless it is held or the block is not offered; otherwise reports a warning and keeps the
// reason in device.profilingLockProblem. `when`: the function that tries.
void AcquireProfilingLock(DeviceData& device, const char* when);
void ReleaseProfilingLock(DeviceData& device);

}  // namespace ogpa::vklayer
