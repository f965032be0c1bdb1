// The loader route: the ICD loader loads the layer where OPENCL_LAYERS names it (cl_loader_layers), asks
// clGetLayerInfo, then calls clInitLayer with the table of what lies below and receives the layer's.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "layers/opencl/dispatch.h"

namespace {

constexpr char kLayerName[] = "opengpa_cl_performance_counters";

}  // namespace

extern "C" {

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clGetLayerInfo(cl_layer_info param, size_t size, void* value, size_t* sizeRet) {
    const void* data = nullptr;
    size_t bytes = 0;
    static const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
    switch (param) {
        case CL_LAYER_API_VERSION:
            data = &version;
            bytes = sizeof version;
            break;
        case CL_LAYER_NAME:
            data = kLayerName;
            bytes = sizeof kLayerName;
            break;
        default: return CL_INVALID_VALUE;
    }
    if (value) {
        if (size < bytes) return CL_INVALID_VALUE;
        std::memcpy(value, data, bytes);
    }
    if (sizeRet) *sizeRet = bytes;
    return CL_SUCCESS;
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clInitLayer(cl_uint numEntries, const cl_icd_dispatch* targetDispatch, cl_uint* numEntriesRet,
            const cl_icd_dispatch** layerDispatchRet) {
    using namespace gpa::cl_layer;
    if (!targetDispatch || !numEntriesRet || !layerDispatchRet) return CL_INVALID_VALUE;
    constexpr size_t kTableEntries = sizeof(cl_icd_dispatch) / sizeof(void*);
    const size_t count = std::min<size_t>(numEntries, kTableEntries);
    void* const* below = reinterpret_cast<void* const*>(targetDispatch);
    // The first route to start the layer counts; a later initialisation (the preload route was first, or
    // a second loader) gets a table that passes every call on. One table per initialisation.
    static cl_icd_dispatch tables[4];
    static size_t used = 0;
    cl_icd_dispatch* table = &tables[std::min<size_t>(used++, std::size(tables) - 1)];
    std::memset(table, 0, sizeof *table);
    void** ours = reinterpret_cast<void**>(table);
    if (ClaimRoute(Route::kLoader, *targetDispatch, count)) {
        FillLayerEntries(table);
        // The layer's entries where the table below has them (an entry missing below stays missing, so that
        // the application sees what it would without the layer); everything else passes on.
        for (size_t i = 0; i < kTableEntries; ++i) {
            if (i >= count || !below[i]) {
                ours[i] = nullptr;
            } else if (!ours[i]) {
                ours[i] = below[i];
            }
        }
    } else {
        std::memcpy(table, targetDispatch, count * sizeof(void*));
    }
    *numEntriesRet = static_cast<cl_uint>(count);
    *layerDispatchRet = table;
    return CL_SUCCESS;
}

}  // extern "C"
