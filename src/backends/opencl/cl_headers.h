// The OpenCL headers as every part of the OpenCL backend sees them: the 1.2 API, which both PoCL and
// NVIDIA's driver implement; the few 2.x/3.0 queries the backend uses are probed at run time.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
