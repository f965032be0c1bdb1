// Compiled with nvcc -cubin for the host tests of cubin_globals.h: writable module variables of every kind
// (zero-initialised, initialised, file-scope static, in a namespace) and a constant that is not writable.
__device__ int counter;
__device__ float table[64] = {1.0f};
static __device__ double hidden[3];
__constant__ float coefficients[16];
namespace ns {
__device__ unsigned long long total;
}

__global__ void touch(int* out) {
    atomicAdd(&counter, 1);
    table[threadIdx.x % 64] += 1.0f;
    hidden[0] += 1.0;
    ns::total++;
    out[0] = static_cast<int>(coefficients[0]);
}
