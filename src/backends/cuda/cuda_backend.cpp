// libGPUPerfAPICUDA.so's backend: GPA_OpenContext takes a CUcontext (cast to void*).
#include <string>

#include "backends/cuda/cuda_context.h"
#include "core/backend.h"

namespace gpa {

namespace {

class CudaBackend : public Backend {
public:
    const char* ApiName() const override { return "CUDA"; }

    Outcome OpenContext(void* apiContext, GPA_OpenContextFlags /*flags*/, std::unique_ptr<BackendContext>* context) override {
        // The driver and CUPTI load on first use, so that GPA_Initialize works without either.
        const cuda::DriverApi* driver = nullptr;
        const cuda::CuptiApi* cupti = nullptr;
        const Outcome driverLoaded = cuda::LoadDriver(&driver);
        const Outcome cuptiLoaded = cuda::LoadCupti(&cupti);
        if (!driverLoaded.ok() || !cuptiLoaded.ok()) {
            std::string reason;
            if (!driverLoaded.ok()) reason = driverLoaded.reason();
            if (!cuptiLoaded.ok()) reason += (reason.empty() ? "" : "; and ") + cuptiLoaded.reason();
            return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, reason);
        }
        return cuda::CudaContext::Open(*cupti, *driver, static_cast<CUcontext>(apiContext), context);
    }
};

}  // namespace

std::unique_ptr<Backend> CreateBackend() { return std::make_unique<CudaBackend>(); }

}  // namespace gpa
