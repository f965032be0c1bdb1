// Settings a program changes between launches that decide how a launch runs: a function's attributes and cache
// preference, and a context's cache preference and limits. gpaprof's own replay issues a batch's launches again
// when the batch ends (launch_replayer.h), under the settings of that moment: a setting changed after a deferred
// launch and before its batch ends could make the launch fail again (a dynamic shared memory limit lowered below
// what it used: cuDNN does this; a non-portable cluster size no longer allowed) or run otherwise than it ran (a
// shared memory carve-out). The collector ends such a batch before the change (CounterCollector::BeforeLaunchSetting).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

namespace gpaprof::cuda {

// What a setting call changes. `what` is a CUfunction_attribute for cuFuncSetAttribute and cuKernelSetAttribute,
// or one of the kSetting values below.
struct LaunchSetting {
    CUfunction function = nullptr;  // cuFunc...'s function
    CUkernel kernel = nullptr;      // cuKernel...'s kernel
    bool contextWide = false;       // cuCtx...: every later launch in the calling thread's current context
    int what = 0;
    int64_t value = 0;
};
inline constexpr int kSettingCacheConfig = 0x10000;      // cuFuncSetCacheConfig, cuKernelSetCacheConfig, cuCtxSetCacheConfig
inline constexpr int kSettingSharedMemConfig = 0x10001;  // cuFuncSetSharedMemConfig, cuCtxSetSharedMemConfig
inline constexpr int kSettingLimit = 0x20000;            // cuCtxSetLimit: kSettingLimit + the CUlimit

// The setting a driver call changes; nullopt for any other call (and for cuFuncSetAttribute's read-only attributes).
std::optional<LaunchSetting> LaunchSettingChange(uint32_t driverCbid, const void* params);

// The last value of each setting this process set, as far as gpaprof has seen: whether a setting call changes what
// launches made before it ran under. A setting never seen before counts as a change (its earlier value is the
// default or the function's own, which gpaprof does not ask for).
class SettingsSeen {
public:
    // `context`: the calling thread's current context (the owner of a context-wide setting).
    bool Changes(const LaunchSetting& setting, CUcontext context);

private:
    std::map<std::tuple<const void*, int>, int64_t> last_;
};

}  // namespace gpaprof::cuda
