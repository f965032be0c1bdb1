// libgpaprof_opencl_layer.so: an OpenCL layer (cl_loader_layers) that the ICD loader loads when
// OPENCL_LAYERS names it. The loader calls clGetLayerInfo, then clInitLayer with the dispatch table of
// what lies below (the next layer or the loader's own dispatch to the drivers) and receives ours.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <mutex>

#include <dlfcn.h>

#include "tools/gpaprof/opencl/enqueue.h"
#include "tools/gpaprof/opencl/layer_state.h"
#include "tools/gpaprof/opencl/traced_entries.h"

namespace {

cl_icd_dispatch g_layerDispatch;
constexpr char kLayerName[] = "gpaprof";

}  // namespace

extern "C" {

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clGetLayerInfo(cl_layer_info param, size_t size, void* value, size_t* sizeRet) {
    switch (param) {
        case CL_LAYER_API_VERSION: {
            const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
            if (value) {
                if (size < sizeof version) return CL_INVALID_VALUE;
                std::memcpy(value, &version, sizeof version);
            }
            if (sizeRet) *sizeRet = sizeof version;
            return CL_SUCCESS;
        }
        case CL_LAYER_NAME:
            if (value) {
                if (size < sizeof kLayerName) return CL_INVALID_VALUE;
                std::memcpy(value, kLayerName, sizeof kLayerName);
            }
            if (sizeRet) *sizeRet = sizeof kLayerName;
            return CL_SUCCESS;
        default:
            return CL_INVALID_VALUE;
    }
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clInitLayer(cl_uint numEntries, const cl_icd_dispatch* targetDispatch, cl_uint* numEntriesRet,
            const cl_icd_dispatch** layerDispatchRet) {
    if (!targetDispatch || !numEntriesRet || !layerDispatchRet) return CL_INVALID_VALUE;
    using namespace gpaprof::ocl;
    const size_t count = std::min<size_t>(numEntries, sizeof(cl_icd_dispatch) / sizeof(void*));
    *numEntriesRet = static_cast<cl_uint>(count);
    // Two routes initialise the layer: the ICD loader (OPENCL_LAYERS) and gpaprof's preload shim (for
    // loaders without layers). The first traces; a later one gets a table that passes every call on to
    // what lies below it, so that no call is recorded twice. Not started by gpaprof: pass everything on.
    static std::mutex mutex;
    static bool tracing = false;
    std::lock_guard<std::mutex> lock(mutex);
    gpaprof::agent::Agent* agent = tracing ? nullptr : LayerState::Get().agent();
    if (!agent) {
        // One table per initialisation (a loader and the shim: two; more cannot be told apart and share the last).
        static cl_icd_dispatch passOn[4];
        static size_t used = 0;
        cl_icd_dispatch* table = &passOn[std::min<size_t>(used++, std::size(passOn) - 1)];
        std::memset(table, 0, sizeof *table);
        std::memcpy(table, targetDispatch, count * sizeof(void*));
        *layerDispatchRet = table;
        return CL_SUCCESS;
    }
    tracing = true;
    SetNext(targetDispatch, numEntries);
    std::memset(&g_layerDispatch, 0, sizeof g_layerDispatch);
    FillObjectEntries(&g_layerDispatch);
    FillEnqueueEntries(&g_layerDispatch);
    // Entry points the table below had none for stay empty, so that the application sees the same
    // "not supported" as without the layer.
    void** ours = reinterpret_cast<void**>(&g_layerDispatch);
    void* const* theirs = reinterpret_cast<void* const*>(targetDispatch);
    for (size_t i = 0; i < sizeof(cl_icd_dispatch) / sizeof(void*); ++i) {
        if (i >= count || !theirs[i]) ours[i] = nullptr;
    }
    // --sym looks for the application's frame above these modules: this layer, whoever initialised it (the
    // ICD loader or the preload shim) and the ICD loader.
    agent->AddSkippedModule(reinterpret_cast<const void*>(&clInitLayer));
    agent->AddSkippedModule(__builtin_return_address(0));
    agent->AddSkippedModule(reinterpret_cast<const void*>(targetDispatch->clGetPlatformIDs));
    if (void* loader = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
        agent->AddSkippedModule(dlsym(loader, "clGetPlatformIDs"));
        dlclose(loader);
    }
    agent->AddFinalizer([] { FinishPendingCommands(); });
    *layerDispatchRet = &g_layerDispatch;
    return CL_SUCCESS;
}

}  // extern "C"
