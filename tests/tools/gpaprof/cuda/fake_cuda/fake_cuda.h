// A stand-in for CUPTI's tracing functions and the CUDA driver, so that gpaprof's real CUDA part (its callbacks,
// launch staging, call rings, activity joins and exits) runs end to end on a machine without a GPU. gpaprof's
// injection library takes both from this library when GPAPROF_CUDA_TRACING_LIBRARY names it
// (cupti_tracing_api.cpp). A program (fake_cuda_app.cpp) plays the CUDA driver and runtime: it loads the
// injection library as the driver does, then makes calls through the functions below, which deliver the callbacks
// CUPTI would (each call's entry and exit; a runtime launch's driver launch nested inside it) to the subscriber,
// honouring what it enabled, and keep a kernel record for each launch, handed over in activity buffers when the
// subscriber flushes and, as CUPTI's own thread does, every flush period (FAKE_CUDA_FLUSH_MS shortens it).
//
// Made up, and said so: one device ("Fake CUDA device"), one context, kernels of 2 µs starting 1 µs after their
// launch, on the CUPTI timestamp callback's clock when one is registered. A runtime launch's kernel record carries
// the runtime call's correlation id; a driver launch's, the driver call's.
#pragma once

#include <cstdint>

extern "C" {

// The context's creation (CUPTI's resource callback), before any call.
__attribute__((visibility("default"))) void FakeCudaCreateContext();
// cudaLaunchKernel, with cuLaunchKernel inside it; returns 0.
__attribute__((visibility("default"))) int FakeCudaRuntimeLaunch(uint64_t stream);
// cuLaunchKernel made by the application itself.
__attribute__((visibility("default"))) int FakeCudaDriverLaunch(uint64_t stream);
// cudaGetLastError.
__attribute__((visibility("default"))) int FakeCudaGetLastError();
// Callbacks delivered so far (entries and exits), and how many of them were cudaGetLastError's.
__attribute__((visibility("default"))) uint64_t FakeCudaCallbacksDelivered(uint64_t* getLastErrorCallbacks);

}
