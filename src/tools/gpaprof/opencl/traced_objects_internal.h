// What the entry points of the calls that enqueue nothing share. They are in three files, by object:
// traced_devices_and_queues.cpp (platforms, devices, contexts, command queues), traced_memory_objects.cpp
// (memory objects, samplers) and traced_programs_and_events.cpp (programs, kernels, events); traced_objects.cpp
// puts them all into the dispatch table.
#pragma once

#include "tools/gpaprof/opencl/cl_headers.h"
#include "tools/gpaprof/opencl/finish_macro.h"

namespace gpaprof::ocl::object_entries {

template <typename T>
const void* const* HandleArray(T* const* list) {
    return reinterpret_cast<const void* const*>(list);
}
template <typename T>
const void* const* HandleArray(const T* list) {
    return reinterpret_cast<const void* const*>(list);
}
template <typename T>
const void* const* OutHandle(T* handle) {
    return reinterpret_cast<const void* const*>(handle);
}

// Each file's entry points into the dispatch table, in the order FillObjectEntries sets them.
void FillDeviceAndQueueEntries(cl_icd_dispatch* table);
void FillMemoryObjectEntries(cl_icd_dispatch* table);
void FillProgramAndEventEntries(cl_icd_dispatch* table);

}  // namespace gpaprof::ocl::object_entries
