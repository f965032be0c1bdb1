#define __CUDA_API_VERSION_INTERNAL 1  // CUPTI's driver parameter structs name functions the headers rename
#include "tools/gpaprof/cuda/launch_settings.h"

#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

namespace gpaprof::cuda {
namespace {

// The attributes cuFuncSetAttribute and cuKernelSetAttribute may set (the others are read-only).
bool Settable(CUfunction_attribute attribute) {
    switch (attribute) {
        case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
        case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
        case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
            return true;
        default:
            return false;
    }
}

}  // namespace

std::optional<LaunchSetting> LaunchSettingChange(uint32_t driverCbid, const void* params) {
    if (!params) return std::nullopt;
    LaunchSetting setting;
    switch (driverCbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute: {
            const auto* p = static_cast<const cuFuncSetAttribute_params*>(params);
            if (!Settable(p->attrib)) return std::nullopt;
            setting.function = p->hfunc;
            setting.what = p->attrib;
            setting.value = p->value;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute: {
            const auto* p = static_cast<const cuKernelSetAttribute_params*>(params);
            if (!Settable(p->attrib)) return std::nullopt;
            setting.kernel = p->kernel;
            setting.what = p->attrib;
            setting.value = p->val;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig: {
            const auto* p = static_cast<const cuFuncSetCacheConfig_params*>(params);
            setting.function = p->hfunc;
            setting.what = kSettingCacheConfig;
            setting.value = p->config;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig: {
            const auto* p = static_cast<const cuKernelSetCacheConfig_params*>(params);
            setting.kernel = p->kernel;
            setting.what = kSettingCacheConfig;
            setting.value = p->config;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedMemConfig: {
            const auto* p = static_cast<const cuFuncSetSharedMemConfig_params*>(params);
            setting.function = p->hfunc;
            setting.what = kSettingSharedMemConfig;
            setting.value = p->config;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig: {
            setting.contextWide = true;
            setting.what = kSettingCacheConfig;
            setting.value = static_cast<const cuCtxSetCacheConfig_params*>(params)->config;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuCtxSetSharedMemConfig: {
            setting.contextWide = true;
            setting.what = kSettingSharedMemConfig;
            setting.value = static_cast<const cuCtxSetSharedMemConfig_params*>(params)->config;
            return setting;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit: {
            const auto* p = static_cast<const cuCtxSetLimit_params*>(params);
            setting.contextWide = true;
            setting.what = kSettingLimit + p->limit;
            setting.value = static_cast<int64_t>(p->value);
            return setting;
        }
        default:
            return std::nullopt;
    }
}

bool SettingsSeen::Changes(const LaunchSetting& setting, CUcontext context) {
    const void* owner = setting.contextWide ? static_cast<const void*>(context)
                        : setting.function  ? static_cast<const void*>(setting.function)
                                            : static_cast<const void*>(setting.kernel);
    auto [it, inserted] = last_.try_emplace({owner, setting.what}, setting.value);
    if (inserted) return true;
    if (it->second == setting.value) return false;
    it->second = setting.value;
    return true;
}

}  // namespace gpaprof::cuda
