// What a backend declares about its counters. Hardware counters are what the device measures;
// derived counters are data: a GPA name and an expression over hardware counter names.
#pragma once

#include <string>

#include "GPUPerfAPITypes.h"

namespace gpa {

// A counter the device measures directly (for CUDA: an NVIDIA metric; for OpenCL: a timestamp difference).
struct HardwareCounter {
    std::string name;         // unique within the backend context, e.g. "dram__bytes_read.sum"
    std::string description;  // what it measures, in the vendor's words where available
    std::string group;        // hardware unit or block, e.g. "dram"
    GPA_Type type = GPA_TYPE_FLOAT64;
    GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
};

// A GPA counter computed from hardware counters, e.g. FetchSize = dram__bytes_read.sum / 1024.
struct DerivedCounterDefinition {
    std::string name;         // GPA vocabulary, e.g. "FetchSize"
    std::string group;        // GPA counter group, e.g. "GlobalMemory"
    std::string description;  // says so when the value is an approximation
    GPA_Type type = GPA_TYPE_FLOAT64;
    GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
    std::string expression;   // see expression.h for the grammar; identifiers name hardware counters
};

}  // namespace gpa
