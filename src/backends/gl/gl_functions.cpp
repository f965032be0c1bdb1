#include "backends/gl/gl_functions.h"

namespace gpa::gl {

namespace {

template <typename Function>
void Resolve(Function* function, const char* name) {
    *function = reinterpret_cast<Function>(eglGetProcAddress(name));
}

}  // namespace

bool GlFunctions::Load(bool gles, std::string* missing) {
#define OPENGPA_GL_RESOLVE(type, member, name) Resolve(&member, name);
    OPENGPA_GL_FUNCTIONS(OPENGPA_GL_RESOLVE)
    OPENGPA_GL_OPTIONAL_FUNCTIONS(OPENGPA_GL_RESOLVE)
#undef OPENGPA_GL_RESOLVE
    if (gles) {
        if (!QueryCounter) Resolve(&QueryCounter, "glQueryCounterEXT");
        if (!GetQueryObjectui64v) Resolve(&GetQueryObjectui64v, "glGetQueryObjectui64vEXT");
        if (!GetInteger64v) Resolve(&GetInteger64v, "glGetInteger64vEXT");
    }
#define OPENGPA_GL_CHECK(type, member, name) \
    if (!member) {                           \
        *missing = name;                     \
        return false;                        \
    }
    OPENGPA_GL_FUNCTIONS(OPENGPA_GL_CHECK)
#undef OPENGPA_GL_CHECK
    return true;
}

}  // namespace gpa::gl
