/* cl_codeplay_performance_counters: the OpenCL extension through which a device lists per-command
 * performance counters, a command queue enables some of them, and each command's event reports their values
 * (extension proposal by Codeplay Software, revision 2, 2021-06-30; shared/seeds/004 in the OpenGPA sources).
 *
 * The Khronos headers do not ship it. Values and layouts are the extension's. OpenGPA implements it on any
 * OpenCL driver as a layer (docs/opencl_layer.md); its GPA library reads it where a device offers it.
 * Include after <CL/cl.h>. C11 or C++ (the result structure holds an anonymous union, as the text has it). */
#ifndef OPENGPA_CL_CODEPLAY_PERFORMANCE_COUNTERS_H
#define OPENGPA_CL_CODEPLAY_PERFORMANCE_COUNTERS_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME "cl_codeplay_performance_counters"

/* Each value is guarded: a later cl_ext.h may define it too. */

/* clGetDeviceInfo: cl_performance_counter_codeplay[] (size 0 when the device has none). */
#ifndef CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY
#define CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY 0x4260
#endif
/* Key in the properties of clCreateCommandQueueWithPropertiesKHR; value: cl_performance_counter_config_codeplay*. */
#ifndef CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY
#define CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY 0x4261
#endif
/* clGetEventProfilingInfo: cl_performance_counter_result_codeplay[], in the order the queue enabled them. */
#ifndef CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY
#define CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY 0x4262
#endif

/* cl_performance_counter_codeplay.unit */
#ifndef CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY 0x0
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY 0x1
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY 0x2
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY 0x3
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_CODEPLAY 0x4
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY 0x5
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY 0x6
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_VOLTS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_VOLTS_CODEPLAY 0x7
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_AMPS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_AMPS_CODEPLAY 0x8
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY 0x9
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY 0xA
#endif

/* cl_performance_counter_codeplay.storage: which member of the result union holds the value. */
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY 0x0
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY 0x1
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY 0x2
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY 0x3
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY 0x4
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY 0x5
#endif

#ifndef CL_CODEPLAY_PERFORMANCE_COUNTERS_TYPES_DEFINED
#define CL_CODEPLAY_PERFORMANCE_COUNTERS_TYPES_DEFINED

typedef cl_uint cl_performance_counter_unit_codeplay;
typedef cl_uint cl_performance_counter_storage_codeplay;

/* One counter a device offers (clGetDeviceInfo). The strings need not be terminated when they fill all 256. */
typedef struct cl_performance_counter_codeplay {
    cl_performance_counter_unit_codeplay unit;
    cl_performance_counter_storage_codeplay storage;
    cl_uint uuid;
    char name[256];
    char category[256];
    char description[256];
} cl_performance_counter_codeplay;

/* One counter to enable: its uuid, and `data`, an extension point for per-counter configuration. */
typedef struct cl_performance_counter_desc_codeplay {
    cl_uint uuid;
    void* data;
} cl_performance_counter_desc_codeplay;

/* The value of CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY: `count` counters to enable, described by `descs`. */
typedef struct cl_performance_counter_config_codeplay {
    cl_uint count;
    cl_performance_counter_desc_codeplay* descs;
} cl_performance_counter_config_codeplay;

/* One result (clGetEventProfilingInfo): the member named by the counter's storage holds the value. */
typedef struct cl_performance_counter_result_codeplay {
    union {
        cl_int int32;
        cl_long int64;
        cl_uint uint32;
        cl_ulong uint64;
        cl_float float32;
        cl_double float64;
    };
} cl_performance_counter_result_codeplay;

#endif /* CL_CODEPLAY_PERFORMANCE_COUNTERS_TYPES_DEFINED */

#ifdef __cplusplus
}
#endif

#endif /* OPENGPA_CL_CODEPLAY_PERFORMANCE_COUNTERS_H */
