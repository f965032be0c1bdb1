// Settings that decide how a launch runs (src/tools/gpaprof/cuda/launch_settings.h): which driver calls change
// them, and whether a call changes what earlier launches ran under. Own replay issues a deferred launch again when
// its batch ends, so the collector ends a batch before such a change (CounterCollector::BeforeLaunchSetting; on the
// GPU: GpaprofCuda.OwnReplayKeepsTheSharedMemoryLimitOfEachLaunch, ...KeepsTheClusterSettingOfEachLaunch).
#define __CUDA_API_VERSION_INTERNAL 1  // CUPTI's driver parameter structs need the driver's own types

#include <gtest/gtest.h>

#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

#include <optional>

#include "tools/gpaprof/cuda/launch_settings.h"

namespace gpaprof::cuda {
namespace {

const CUfunction kFunction = reinterpret_cast<CUfunction>(0x10);
const CUkernel kKernel = reinterpret_cast<CUkernel>(0x20);
const CUcontext kContext = reinterpret_cast<CUcontext>(0x30);

TEST(LaunchSettings, FunctionAndKernelAttributesThatCanBeSet) {
    cuFuncSetAttribute_params onFunction{kFunction, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536};
    std::optional<LaunchSetting> setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute, &onFunction);
    ASSERT_TRUE(setting);
    EXPECT_EQ(setting->function, kFunction);
    EXPECT_EQ(setting->kernel, nullptr);
    EXPECT_FALSE(setting->contextWide);
    EXPECT_EQ(setting->what, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    EXPECT_EQ(setting->value, 65536);
    cuKernelSetAttribute_params onKernel{CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1, kKernel, 0};
    setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute, &onKernel);
    ASSERT_TRUE(setting);
    EXPECT_EQ(setting->function, nullptr);
    EXPECT_EQ(setting->kernel, kKernel);
    EXPECT_EQ(setting->what, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
    EXPECT_EQ(setting->value, 1);
    for (CUfunction_attribute settable : {CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
                                          CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH,
                                          CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE}) {
        onFunction.attrib = settable;
        EXPECT_TRUE(LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute, &onFunction)) << settable;
    }
    onFunction.attrib = CU_FUNC_ATTRIBUTE_NUM_REGS;
    EXPECT_FALSE(LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute, &onFunction)) << "read-only";
    EXPECT_FALSE(LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute, &onFunction)) << "a query";
    EXPECT_FALSE(LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute, nullptr));
}

TEST(LaunchSettings, CachePreferencesAndContextLimits) {
    cuFuncSetCacheConfig_params function{kFunction, CU_FUNC_CACHE_PREFER_L1};
    std::optional<LaunchSetting> setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig, &function);
    ASSERT_TRUE(setting);
    EXPECT_EQ(setting->function, kFunction);
    EXPECT_EQ(setting->what, kSettingCacheConfig);
    EXPECT_EQ(setting->value, CU_FUNC_CACHE_PREFER_L1);
    cuKernelSetCacheConfig_params kernel{kKernel, CU_FUNC_CACHE_PREFER_SHARED, 0};
    setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig, &kernel);
    ASSERT_TRUE(setting);
    EXPECT_EQ(setting->kernel, kKernel);
    EXPECT_EQ(setting->what, kSettingCacheConfig);
    cuFuncSetSharedMemConfig_params shared{kFunction, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE};
    setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedMemConfig, &shared);
    ASSERT_TRUE(setting);
    EXPECT_EQ(setting->what, kSettingSharedMemConfig);
    cuCtxSetCacheConfig_params context{CU_FUNC_CACHE_PREFER_EQUAL};
    setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig, &context);
    ASSERT_TRUE(setting);
    EXPECT_TRUE(setting->contextWide);
    EXPECT_EQ(setting->function, nullptr);
    EXPECT_EQ(setting->what, kSettingCacheConfig);
    cuCtxSetLimit_params limit{CU_LIMIT_STACK_SIZE, 4096};
    setting = LaunchSettingChange(CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit, &limit);
    ASSERT_TRUE(setting);
    EXPECT_TRUE(setting->contextWide);
    EXPECT_EQ(setting->what, kSettingLimit + CU_LIMIT_STACK_SIZE);
    EXPECT_EQ(setting->value, 4096);
}

// cuDNN sets a kernel's limit before each of its launches, mostly to the value it had: only a different value, or
// the first one seen, changes what earlier launches ran under.
TEST(LaunchSettings, OnlyADifferentValueIsAChange) {
    SettingsSeen seen;
    LaunchSetting carveout{kFunction, nullptr, false, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50};
    EXPECT_TRUE(seen.Changes(carveout, kContext)) << "the first value seen: the earlier one is not known";
    EXPECT_FALSE(seen.Changes(carveout, kContext)) << "the same again";
    carveout.value = 100;
    EXPECT_TRUE(seen.Changes(carveout, kContext));
    EXPECT_FALSE(seen.Changes(carveout, kContext));
    LaunchSetting other = carveout;
    other.function = reinterpret_cast<CUfunction>(0x11);
    EXPECT_TRUE(seen.Changes(other, kContext)) << "another function's own";
    LaunchSetting cluster = carveout;
    cluster.what = CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED;
    EXPECT_TRUE(seen.Changes(cluster, kContext)) << "another attribute of the same function";
    LaunchSetting onKernel{nullptr, kKernel, false, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100};
    EXPECT_TRUE(seen.Changes(onKernel, kContext)) << "a kernel handle is its own owner";
    EXPECT_FALSE(seen.Changes(onKernel, kContext));
    // A context's setting belongs to the calling thread's context, whatever the function fields hold.
    LaunchSetting stack{nullptr, nullptr, true, kSettingLimit + CU_LIMIT_STACK_SIZE, 4096};
    EXPECT_TRUE(seen.Changes(stack, kContext));
    EXPECT_FALSE(seen.Changes(stack, kContext));
    EXPECT_TRUE(seen.Changes(stack, reinterpret_cast<CUcontext>(0x31))) << "another context's";
}

}  // namespace
}  // namespace gpaprof::cuda
