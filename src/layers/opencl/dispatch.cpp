#include "layers/opencl/dispatch.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "layers/opencl/layer_entries.h"

namespace gpa::cl_layer {

namespace {

cl_icd_dispatch g_next{};
std::atomic<Route> g_route{Route::kNone};

}  // namespace

bool ClaimRoute(Route route, const cl_icd_dispatch& below, size_t entries) {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (g_route.load() != Route::kNone) return false;
    std::memset(&g_next, 0, sizeof g_next);
    std::memcpy(&g_next, &below, std::min(entries, sizeof(cl_icd_dispatch) / sizeof(void*)) * sizeof(void*));
    g_route.store(route);
    return true;
}

Route ActiveRoute() { return g_route.load(); }

const cl_icd_dispatch& Next() { return g_next; }

void FillLayerEntries(cl_icd_dispatch* table) {
    FillDeviceEntries(table);
    FillQueueEntries(table);
    FillEnqueueEntries(table);
    FillEventEntries(table);
}

}  // namespace gpa::cl_layer
