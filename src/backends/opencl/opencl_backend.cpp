// The OpenCL backend of libGPUPerfAPICL.so: GPA_OpenContext takes a cl_command_queue (cast to void*).
#include <memory>

#include "backends/opencl/opencl_context.h"
#include "core/backend.h"

namespace gpa {

namespace {

class OpenClBackend : public Backend {
public:
    const char* ApiName() const override { return "OpenCL"; }
    Outcome OpenContext(void* apiContext, GPA_OpenContextFlags, std::unique_ptr<BackendContext>* context) override {
        return cl::OpenClContext::Open(apiContext, context);
    }
};

}  // namespace

std::unique_ptr<Backend> CreateBackend() { return std::make_unique<OpenClBackend>(); }

}  // namespace gpa
