// The CUDA half of bench/range_flush_cost and bench/range_pass_cost: the measured kernel (bench_saxpy) and
// L2 flushes that are not a plain kernel launch, to see which of them CUPTI's auto ranges leave out.
#pragma once

#include <cuda.h>

void ProbeSetUp(int elements);    // primary context current, buffers ready
void ProbeLaunch(CUstream stream);
void ProbeFree();                  // the probe's buffers freed (--free-before-stop 2)  // bench_saxpy over the elements

// Flushes over a buffer of twice the L2's size, queued on `stream` (AltFlushSetUp first, once):
void AltFlushSetUp();
void AltFlushMemset(CUstream stream);  // cudaMemsetAsync over the buffer (the driver's memset)
void AltFlushCopy(CUstream stream);    // cudaMemcpyAsync device to device, one half onto the other
void AltFlushGraph(CUstream stream);   // a CUDA graph holding a read kernel over the buffer
