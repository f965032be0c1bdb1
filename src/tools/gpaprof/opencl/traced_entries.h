// The layer's dispatch table is filled from the two sets of entry points.
#pragma once

#include "tools/gpaprof/opencl/cl_headers.h"

namespace gpaprof::ocl {

void FillObjectEntries(cl_icd_dispatch* table);
void FillEnqueueEntries(cl_icd_dispatch* table);

}  // namespace gpaprof::ocl
