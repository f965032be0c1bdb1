// libgpaprof_opencl_layer.so: an OpenCL layer (cl_loader_layers) that the ICD loader loads when
// OPENCL_LAYERS names it. The loader calls clGetLayerInfo, then clInitLayer with the dispatch table of
// what lies below (the next layer or the loader's own dispatch to the drivers) and receives ours.
#include <algorithm>
#include <cstring>

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
    SetNext(targetDispatch, numEntries);
    std::memset(&g_layerDispatch, 0, sizeof g_layerDispatch);
    // Not started by gpaprof: an empty table, the loader then calls straight through.
    if (gpaprof::agent::Agent* agent = LayerState::Get().agent()) {
        FillObjectEntries(&g_layerDispatch);
        FillEnqueueEntries(&g_layerDispatch);
        // Entry points the loader's table had none for stay empty, so that the application sees the same
        // "not supported" as without the layer.
        const size_t count = std::min<size_t>(numEntries, sizeof(cl_icd_dispatch) / sizeof(void*));
        void** ours = reinterpret_cast<void**>(&g_layerDispatch);
        void* const* theirs = reinterpret_cast<void* const*>(targetDispatch);
        for (size_t i = 0; i < sizeof(cl_icd_dispatch) / sizeof(void*); ++i) {
            if (i >= count || !theirs[i]) ours[i] = nullptr;
        }
        // --sym looks for the application's frame above these modules: this layer and the ICD loader.
        agent->AddSkippedModule(reinterpret_cast<const void*>(&clInitLayer));
        agent->AddSkippedModule(reinterpret_cast<const void*>(targetDispatch->clGetPlatformIDs));
        if (void* loader = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
            agent->AddSkippedModule(dlsym(loader, "clGetPlatformIDs"));
            dlclose(loader);
        }
        agent->AddFinalizer([] { FinishPendingCommands(); });
    }
    *numEntriesRet = static_cast<cl_uint>(std::min<size_t>(numEntries, sizeof(cl_icd_dispatch) / sizeof(void*)));
    *layerDispatchRet = &g_layerDispatch;
    return CL_SUCCESS;
}

}  // extern "C"
