// The CUDA half of bench/range_flush_cost: the measured kernel (bench_saxpy).
#pragma once

#include <cuda.h>

void ProbeSetUp(int elements);    // primary context current, buffers ready
void ProbeLaunch(CUstream stream);  // bench_saxpy over the elements
