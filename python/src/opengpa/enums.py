"""The GPA enumerations (GPUPerfAPITypes.h), with the names of the C header less their prefix."""

from __future__ import annotations

import enum


class Status(enum.IntEnum):
    """GPA_Status: what every GPA function returns."""

    OK = 0
    ERROR_NULL_POINTER = 1
    ERROR_COUNTERS_NOT_OPEN = 2
    ERROR_COUNTERS_ALREADY_OPEN = 3
    ERROR_INDEX_OUT_OF_RANGE = 4
    ERROR_NOT_FOUND = 5
    ERROR_ALREADY_ENABLED = 6
    ERROR_NO_COUNTERS_ENABLED = 7
    ERROR_NOT_ENABLED = 8
    ERROR_SAMPLING_NOT_STARTED = 9
    ERROR_SAMPLING_ALREADY_STARTED = 10
    ERROR_SAMPLING_NOT_ENDED = 11
    ERROR_NOT_ENOUGH_PASSES = 12
    ERROR_PASS_NOT_ENDED = 13
    ERROR_PASS_NOT_STARTED = 14
    ERROR_PASS_ALREADY_STARTED = 15
    ERROR_SAMPLE_NOT_STARTED = 16
    ERROR_SAMPLE_ALREADY_STARTED = 17
    ERROR_SAMPLE_NOT_ENDED = 18
    ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING = 19
    ERROR_SESSION_NOT_FOUND = 20
    ERROR_SAMPLE_NOT_FOUND = 21
    ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES = 22
    ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE = 23
    ERROR_READING_COUNTER_RESULT = 24
    ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES = 25
    ERROR_FAILED = 26
    ERROR_HARDWARE_NOT_SUPPORTED = 27
    ERROR_DRIVER_NOT_SUPPORTED = 28
    INTERNAL = 256


class DataType(enum.IntEnum):
    """GPA_Type: the type of a counter's result."""

    FLOAT32 = 0
    FLOAT64 = 1
    UINT32 = 2
    UINT64 = 3
    INT32 = 4
    INT64 = 5


class Usage(enum.IntEnum):
    """GPA_Usage_Type: what a counter's result measures."""

    RATIO = 0
    PERCENTAGE = 1
    CYCLES = 2
    MILLISECONDS = 3
    BYTES = 4
    ITEMS = 5
    KILOBYTES = 6
    NANOSECONDS = 7


class OpenContextFlags(enum.IntFlag):
    """GPA_OpenContext_Bits: combined into the flags of Library.context()."""

    DEFAULT = 0x0000
    HIDE_PUBLIC_COUNTERS = 0x0001  # no derived (GPA) counters
    ENABLE_HARDWARE_COUNTERS = 0x0080  # every raw hardware counter of the device
