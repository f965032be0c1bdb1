#include "backends/gl/gl_context.h"

#include <dlfcn.h>

#include <cstdio>
#include <set>
#include <string>

#include "backends/gl/device_identity.h"
#include "backends/gl/gl_pm_sampling.h"
#include "backends/gl/gl_session.h"
#include "core/logger.h"

namespace gpa::gl {

namespace {

Outcome NotSupported(const std::string& reason) { return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, reason); }

std::string Pointer(const void* pointer) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", pointer);
    return text;
}

std::set<std::string> Extensions(const GlFunctions& gl) {
    std::set<std::string> extensions;
    GLint count = 0;
    gl.GetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i) {
        if (const GLubyte* name = gl.GetStringi(GL_EXTENSIONS, static_cast<GLuint>(i))) {
            extensions.insert(reinterpret_cast<const char*>(name));
        }
    }
    return extensions;
}

}  // namespace

void* CurrentGlContext() {
    if (EGLContext egl = eglGetCurrentContext(); egl != EGL_NO_CONTEXT) return egl;
    // Only a GLX the application loaded: OpenGPA does not load one itself.
    static void* (*glxCurrent)() = [] {
        void* glx = dlopen("libGLX.so.0", RTLD_LAZY | RTLD_NOLOAD);
        if (!glx) glx = dlopen("libGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
        return glx ? reinterpret_cast<void* (*)()>(dlsym(glx, "glXGetCurrentContext")) : nullptr;
    }();
    return glxCurrent ? glxCurrent() : nullptr;
}

bool ContextProfile::IsCurrent() const { return handle != nullptr && CurrentGlContext() == handle; }

// GL lets every query target (and stream) have one active query, and one occlusion target at a time: counters go
// together in a pass as long as their queries can all be active in one sample.
GlContext::GlContext()
    : planner_([this](std::span<const uint32_t> counters) {
          std::vector<GlQuery> queries;
          for (uint32_t counter : counters) queries.push_back(profile_.queries.at(counter));
          return FitInOnePass(queries, profile_.driverCounters);
      }) {}

Outcome GlContext::Open(void* apiContext, std::unique_ptr<BackendContext>* context) {
    void* current = CurrentGlContext();
    if (current != apiContext) {
        return NotSupported("the GL context " + Pointer(apiContext) + " is not current on this thread (" +
                            (current ? "the current one is " + Pointer(current) : std::string("none is")) +
                            "): the OpenGL GPA library takes the EGLContext (or GLXContext) current on the calling "
                            "thread; call eglMakeCurrent (glXMakeCurrent) first, and make every GPA call of the "
                            "context on a thread where it is current");
    }
    std::unique_ptr<GlContext> opened(new GlContext());
    ContextProfile& profile = opened->profile_;
    profile.handle = apiContext;
    std::string missing;
    // GLES or not is known from GL_VERSION, which needs glGetString first.
    profile.gl.GetString = reinterpret_cast<PFNGLGETSTRINGPROC>(eglGetProcAddress("glGetString"));
    const GLubyte* versionText = profile.gl.GetString ? profile.gl.GetString(GL_VERSION) : nullptr;
    if (!versionText) return NotSupported("glGetString(GL_VERSION) gave nothing: the GL context cannot be queried");
    const std::string version = reinterpret_cast<const char*>(versionText);
    bool gles = false;
    int major = 0, minor = 0;
    if (!ParseVersion(version, &gles, &major, &minor)) return NotSupported("GL_VERSION '" + version + "' is no GL version");
    if (major < 3) {
        return NotSupported("GL_VERSION " + version + ": the OpenGL GPA library needs OpenGL 3.0 or OpenGL ES 3.0 (query "
                            "objects of every target it counts with, glGetStringi)");
    }
    if (!profile.gl.Load(gles, &missing)) return NotSupported("the GL function " + missing + " is missing");
    GLint streams = 1;
    if (!gles && (major >= 4)) profile.gl.GetIntegerv(GL_MAX_VERTEX_STREAMS, &streams);
    const std::set<std::string> extensions = Extensions(profile.gl);
    profile.capabilities = Capabilities(version, extensions, streams);
    CounterSet counters = BuildCounters(profile.capabilities);
    if (counters.hardware.empty()) return NotSupported("the GL context (" + version + ") has none of the queries GPA counts with");
    GlPmSampling sampling = OpenPmSampling(profile.gl, profile.capabilities, extensions);
    AddSampledCounters(&counters, sampling.device ? sampling.device->metrics() : std::vector<std::string>{}, sampling.why);
    if (sampling.device) {
        Logger::Instance().Message("GL counters: the GPU (" + sampling.device->chip() + ", CUDA device " +
                                   std::to_string(sampling.device->cudaOrdinal()) + ") is sampled every " +
                                   std::to_string(sampling.device->intervalNs()) + " ns by NVIDIA's PM sampler: " +
                                   std::to_string(sampling.device->metrics().size()) + " PM. counters, device-wide");
    }
    profile.sampling = std::move(sampling.device);
    // Only the tables of listed extensions are resolved: an unlisted one's entry points may crash (llvmpipe).
    profile.driver = LoadDriverCounterFunctions(extensions);
    AddDriverCounters(&counters, EnumerateDriverCounters(profile.driver), &profile.driverCounters, profile.driver.why);
    if (!profile.driverCounters.empty()) {
        Logger::Instance().Message("GL counters: " + std::to_string(profile.driverCounters.size()) +
                                   " of the driver's own counters (AMD_perfmon., INTEL_perfquery.), listed with "
                                   "GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT");
    }
    for (const std::string& absent : counters.absent) Logger::Instance().Message("GL counters absent on this context: " + absent);
    opened->device_ = DescribeDevice(profile.gl);
    opened->hardware_ = std::move(counters.hardware);
    opened->derived_ = std::move(counters.derived);
    profile.queries = std::move(counters.queries);
    *context = std::move(opened);
    return Outcome::Ok();
}

Outcome GlContext::CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) {
    if (!profile_.IsCurrent()) {
        return Fail(GPA_STATUS_ERROR_FAILED, "the GL context " + Pointer(profile_.handle) +
                                                 " is not current on this thread: make it current before GPA_BeginSession");
    }
    *session = std::make_unique<GlSession>(profile_, plan);
    return Outcome::Ok();
}

}  // namespace gpa::gl
