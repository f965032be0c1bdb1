// Entry points of the OpenCL calls that enqueue nothing: platforms, devices, contexts, queues, memory
// objects, samplers, programs, kernels, events. Each forwards to the next layer, keeps what the profiler
// needs to know about the objects, and writes its trace record.
// They are in three files, by object (traced_objects_internal.h); this one puts them all into the dispatch table.
#include "tools/gpaprof/opencl/traced_entries.h"

#include "tools/gpaprof/opencl/traced_objects_internal.h"

namespace gpaprof::ocl {

void FillObjectEntries(cl_icd_dispatch* table) {
    object_entries::FillDeviceAndQueueEntries(table);
    object_entries::FillMemoryObjectEntries(table);
    object_entries::FillProgramAndEventEntries(table);
}

}  // namespace gpaprof::ocl
