// The OpenCL headers as every part of the OpenCL backend sees them: the 1.2 API, which both PoCL and
// NVIDIA's driver implement; the few 2.x/3.0 queries the backend uses are probed at run time. Also the
// public header of cl_codeplay_performance_counters (include/CL/), which the Khronos headers do not ship.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "CL/cl_codeplay_performance_counters.h"

// OpenCL 3.0 clGetCommandQueueInfo query: the properties array the queue was created with.
#ifndef CL_QUEUE_PROPERTIES_ARRAY
#define CL_QUEUE_PROPERTIES_ARRAY 0x1098
#endif
