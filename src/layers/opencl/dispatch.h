// What lies below the layer, and which of its two routes into a process is active. The ICD loader hands
// the layer the table below it (clInitLayer); the preload route builds it from the next definitions of the
// OpenCL entry points (the application's ICD loader). The first route to start the layer gets it; the other
// passes every call on, so that nothing is counted twice.
#pragma once

#include "layers/opencl/cl_headers.h"

namespace gpa::cl_layer {

enum class Route { kNone, kLoader, kPreload };

// Claims the layer for `route` with `below` as the next table (entries beyond `entries` are null); false
// when the other route already has it.
bool ClaimRoute(Route route, const cl_icd_dispatch& below, size_t entries);
Route ActiveRoute();

// The table below the layer (valid once a route has claimed it).
const cl_icd_dispatch& Next();

// The layer's entry points (the members of cl_icd_dispatch it implements); the others stay null.
void FillLayerEntries(cl_icd_dispatch* table);

}  // namespace gpa::cl_layer
