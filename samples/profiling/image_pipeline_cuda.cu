// A small CUDA application for gpaprof to profile (the README's main job on a GPU machine): the same
// image pipeline as image_pipeline_opencl.c, on two streams, with NVTX-free perf markers of gpaprof's
// own. It knows nothing of gpaprof or GPA.
//
// Usage: image_pipeline_cuda [frames] [width] [height]   (defaults 8 2048 2048); exits 1 on wrong results.
#include <gpa/gpaprof_markers.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                 \
    do {                                                                                            \
        cudaError_t check_err_ = (call);                                                            \
        if (check_err_ != cudaSuccess) {                                                            \
            std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(check_err_), __LINE__); \
            std::exit(2);                                                                           \
        }                                                                                           \
    } while (0)

__global__ void generate(float* image, int width, int height, int frame) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) image[y * width + x] = static_cast<float>((x * 7 + y * 13 + frame) % 256);
}

__global__ void blur_rows(const float* in, float* out, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int l = x > 0 ? x - 1 : x, r = x < width - 1 ? x + 1 : x;
    out[y * width + x] = (in[y * width + l] + in[y * width + x] + in[y * width + r]) / 3.0f;
}

__global__ void blur_columns(const float* in, float* out, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int u = y > 0 ? y - 1 : y, d = y < height - 1 ? y + 1 : y;
    out[y * width + x] = (in[u * width + x] + in[y * width + x] + in[d * width + x]) / 3.0f;
}

__global__ void histogram(const float* in, unsigned* bins, int count) {
    __shared__ unsigned local[16];
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[min(15, static_cast<int>(in[i] / 16.0f))], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main(int argc, char** argv) {
    const int frames = argc > 1 ? std::atoi(argv[1]) : 8;
    const int width = argc > 2 ? std::atoi(argv[2]) : 2048;
    const int height = argc > 3 ? std::atoi(argv[3]) : 2048;
    const int count = width * height;
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("image_pipeline_cuda: %d frames of %dx%d on %s\n", frames, width, height, prop.name);

    constexpr int kStreams = 2;
    cudaStream_t streams[kStreams];
    float *a[kStreams], *b[kStreams];
    unsigned* bins[kStreams];
    for (int s = 0; s < kStreams; ++s) {
        CHECK(cudaStreamCreate(&streams[s]));
        CHECK(cudaMalloc(&a[s], sizeof(float) * count));
        CHECK(cudaMalloc(&b[s], sizeof(float) * count));
        CHECK(cudaMalloc(&bins[s], 16 * sizeof(unsigned)));
    }
    std::vector<unsigned> result(16 * kStreams);
    const dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
    int failures = 0;
    for (int frame = 0; frame < frames; ++frame) {
        gpaprofBeginMarker("frame", "pipeline");
        for (int s = 0; s < kStreams; ++s) {
            CHECK(cudaMemsetAsync(bins[s], 0, 16 * sizeof(unsigned), streams[s]));
            generate<<<grid, block, 0, streams[s]>>>(a[s], width, height, frame + s);
            blur_rows<<<grid, block, 0, streams[s]>>>(a[s], b[s], width, height);
            blur_columns<<<grid, block, 0, streams[s]>>>(b[s], a[s], width, height);
            histogram<<<prop.multiProcessorCount * 4, 256, 0, streams[s]>>>(a[s], bins[s], count);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpyAsync(&result[16 * s], bins[s], 16 * sizeof(unsigned), cudaMemcpyDeviceToHost, streams[s]));
        }
        CHECK(cudaDeviceSynchronize());
        gpaprofEndMarker();
        for (int s = 0; s < kStreams; ++s) {
            unsigned long long total = 0;
            for (int i = 0; i < 16; ++i) total += result[16 * s + i];
            if (total != static_cast<unsigned long long>(count)) {
                std::fprintf(stderr, "frame %d stream %d: histogram counts %llu pixels, expected %d\n", frame, s, total, count);
                ++failures;
            }
        }
    }
    for (int s = 0; s < kStreams; ++s) {
        CHECK(cudaFree(a[s]));
        CHECK(cudaFree(b[s]));
        CHECK(cudaFree(bins[s]));
        CHECK(cudaStreamDestroy(streams[s]));
    }
    std::printf("image_pipeline_cuda: %s\n", failures == 0 ? "results correct" : "RESULTS WRONG");
    return failures == 0 ? 0 : 1;
}
