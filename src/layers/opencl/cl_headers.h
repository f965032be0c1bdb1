// The OpenCL headers as the layer sees them: every API version's declarations, the ICD dispatch table and
// the layer API (cl_layer.h), and the extension the layer implements.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS

#pragma GCC system_header
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_layer.h>

#include "CL/cl_codeplay_performance_counters.h"
