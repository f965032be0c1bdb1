// The OpenGL backend of libGPUPerfAPIGL.so: GPA_OpenContext takes the GL rendering context current on the calling
// thread (an EGLContext, or a GLXContext), desktop OpenGL or OpenGL ES alike, and samples with GL queries.
#include <memory>

#include "backends/gl/gl_context.h"
#include "core/backend.h"

namespace gpa {

namespace {

class GlBackend : public Backend {
public:
    const char* ApiName() const override { return "OpenGL"; }
    Outcome OpenContext(void* apiContext, GPA_OpenContextFlags, std::unique_ptr<BackendContext>* context) override {
        return gl::GlContext::Open(apiContext, context);
    }
};

}  // namespace

std::unique_ptr<Backend> CreateBackend() { return std::make_unique<GlBackend>(); }

}  // namespace gpa
