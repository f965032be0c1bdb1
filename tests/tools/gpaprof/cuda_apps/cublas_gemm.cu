// A cuBLAS program: SGEMM and SAXPY through cuBLAS, whose kernels gpaprof must trace and profile like the
// application's own. Results are checked against the host.
//
//   cublas_gemm [--size N] [--repeats R] [--probe]
#include <cublas_v2.h>

#include <cmath>
#include <vector>

#include "app_common.cuh"

#define CHECK_CUBLAS(call)                                                                   \
    do {                                                                                     \
        const cublasStatus_t status_ = (call);                                               \
        if (status_ != CUBLAS_STATUS_SUCCESS) {                                              \
            std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, status_); \
            std::exit(2);                                                                    \
        }                                                                                    \
    } while (0)

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int n = IntArgument(argc, argv, "--size", 256);
    const int repeats = IntArgument(argc, argv, "--repeats", 2);
    std::vector<float> a(n * n), b(n * n), c(n * n, 0.0f);
    for (int i = 0; i < n * n; ++i) {
        a[i] = static_cast<float>((i * 7) % 13) / 13.0f;
        b[i] = static_cast<float>((i * 5) % 11) / 11.0f;
    }
    float *da = nullptr, *db = nullptr, *dc = nullptr;
    CHECK(cudaMalloc(&da, n * n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * n * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
    cublasHandle_t handle;
    CHECK_CUBLAS(cublasCreate(&handle));
    // Plain FP32 arithmetic, so that the host check holds to FP32 rounding.
    CHECK_CUBLAS(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
    const float one = 1.0f, zero = 0.0f;
    for (int r = 0; r < repeats; ++r) {
        CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da, n, db, n, &zero, dc, n));
    }
    const float half = 0.5f;
    CHECK_CUBLAS(cublasSaxpy(handle, n * n, &half, da, 1, dc, 1));
    CHECK(cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUBLAS(cublasDestroy(handle));
    int wrong = 0;
    for (int row = 0; row < n; row += 17) {
        for (int col = 0; col < n; col += 13) {
            double expected = 0.5 * a[col * n + row];
            for (int k = 0; k < n; ++k) expected += static_cast<double>(a[k * n + row]) * b[col * n + k];
            if (std::fabs(c[col * n + row] - expected) > 1e-3 * std::fabs(expected) + 1e-3) ++wrong;
        }
    }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    if (wrong) {
        std::fprintf(stderr, "cublas_gemm: %d wrong results\n", wrong);
        return 1;
    }
    std::printf("cublas_gemm: %dx%d SGEMM x %d and SAXPY, results correct\n", n, n, repeats);
    return 0;
}
