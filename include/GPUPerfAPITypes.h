/*
 * Types and enumerations of the GPU Performance API (GPA 2.x binary interface).
 * Names and numeric values match the original 2.x headers so that programs compiled
 * against them run unchanged against OpenGPA.
 */
#ifndef GPUPERFAPI_TYPES_H_
#define GPUPERFAPI_TYPES_H_

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h> /* GPA_IsSampleReady and GPA_IsSessionReady take bool* */
#endif

typedef int8_t gpa_int8;
typedef int16_t gpa_int16;
typedef int32_t gpa_int32;
typedef int64_t gpa_int64;
typedef uint8_t gpa_uint8;
typedef uint16_t gpa_uint16;
typedef uint32_t gpa_uint32;
typedef uint64_t gpa_uint64;
typedef float gpa_float32;
typedef double gpa_float64;

/* Status codes, sequential from 0 as in 2.x. */
typedef enum
{
    GPA_STATUS_OK = 0,
    GPA_STATUS_ERROR_NULL_POINTER,
    GPA_STATUS_ERROR_COUNTERS_NOT_OPEN,
    GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN,
    GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE,
    GPA_STATUS_ERROR_NOT_FOUND,
    GPA_STATUS_ERROR_ALREADY_ENABLED,
    GPA_STATUS_ERROR_NO_COUNTERS_ENABLED,
    GPA_STATUS_ERROR_NOT_ENABLED,
    GPA_STATUS_ERROR_SAMPLING_NOT_STARTED,
    GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED,
    GPA_STATUS_ERROR_SAMPLING_NOT_ENDED,
    GPA_STATUS_ERROR_NOT_ENOUGH_PASSES,
    GPA_STATUS_ERROR_PASS_NOT_ENDED,
    GPA_STATUS_ERROR_PASS_NOT_STARTED,
    GPA_STATUS_ERROR_PASS_ALREADY_STARTED,
    GPA_STATUS_ERROR_SAMPLE_NOT_STARTED,
    GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED,
    GPA_STATUS_ERROR_SAMPLE_NOT_ENDED,
    GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING,
    GPA_STATUS_ERROR_SESSION_NOT_FOUND,
    GPA_STATUS_ERROR_SAMPLE_NOT_FOUND,
    GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES,
    GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE,
    GPA_STATUS_ERROR_READING_COUNTER_RESULT,
    GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES,
    GPA_STATUS_ERROR_FAILED,
    GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
    GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED,

    /* status codes used internally */
    GPA_STATUS_INTERNAL = 256
} GPA_Status;

/* Set of flags combined into an integer. */
typedef unsigned int GPA_Flags;

/* Flags for GPA_OpenContext. */
typedef enum
{
    GPA_OPENCONTEXT_DEFAULT_BIT = 0x0000,                  /* the backend's GPA counters */
    GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT = 0x0001,     /* do not expose the derived (GPA) counters */
    GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT = 0x0080  /* expose every raw hardware counter of the device */
} GPA_OpenContext_Bits;

/* Combination of GPA_OpenContext_Bits. */
typedef GPA_Flags GPA_OpenContextFlags;

/* Data type of a counter's result. */
typedef enum
{
    GPA_TYPE_FLOAT32,
    GPA_TYPE_FLOAT64,
    GPA_TYPE_UINT32,
    GPA_TYPE_UINT64,
    GPA_TYPE_INT32,
    GPA_TYPE_INT64,
    GPA_TYPE__LAST
} GPA_Type;

/* What a counter's result measures. */
typedef enum
{
    GPA_USAGE_TYPE_RATIO,        /* the result is a ratio of two values */
    GPA_USAGE_TYPE_PERCENTAGE,   /* the result is a percentage, typically 0..100 */
    GPA_USAGE_TYPE_CYCLES,       /* the result is a number of clock cycles */
    GPA_USAGE_TYPE_MILLISECONDS, /* the result is a time in milliseconds */
    GPA_USAGE_TYPE_BYTES,        /* the result is a number of bytes */
    GPA_USAGE_TYPE_ITEMS,        /* the result is a count of items or objects */
    GPA_USAGE_TYPE_KILOBYTES,    /* the result is a number of kilobytes */
    GPA_USAGE_TYPE_NANOSECONDS,  /* the result is a time in nanoseconds (added after 2.x) */
    GPA_USAGE_TYPE__LAST
} GPA_Usage_Type;

/* Message kinds for the logging callback (bit flags). */
typedef enum
{
    GPA_LOGGING_NONE = 0x00,
    GPA_LOGGING_ERROR = 0x01,
    GPA_LOGGING_MESSAGE = 0x02,
    GPA_LOGGING_ERROR_AND_MESSAGE = 0x03,
    GPA_LOGGING_TRACE = 0x04,
    GPA_LOGGING_ERROR_AND_TRACE = 0x05,
    GPA_LOGGING_MESSAGE_AND_TRACE = 0x06,
    GPA_LOGGING_ERROR_MESSAGE_AND_TRACE = 0x07,
    GPA_LOGGING_ALL = 0xFF
} GPA_Logging_Type;

/* Signature of the logging callback. Messages carry no trailing newline. */
typedef void (*GPA_LoggingCallbackPtrType)(GPA_Logging_Type messageType, const char* pMessage);

#endif /* GPUPERFAPI_TYPES_H_ */
