// The GL entry points the backend calls, resolved through eglGetProcAddress (glvnd's dispatch stubs: they call
// the context current on the calling thread, desktop GL or GLES, made through EGL or GLX).
#pragma once

#include <EGL/egl.h>
#include <GL/glcorearb.h>

#include <string>

namespace gpa::gl {

#define OPENGPA_GL_FUNCTIONS(X)                                     \
    X(PFNGLGETSTRINGPROC, GetString, "glGetString")                 \
    X(PFNGLGETSTRINGIPROC, GetStringi, "glGetStringi")              \
    X(PFNGLGETINTEGERVPROC, GetIntegerv, "glGetIntegerv")           \
    X(PFNGLGENQUERIESPROC, GenQueries, "glGenQueries")              \
    X(PFNGLDELETEQUERIESPROC, DeleteQueries, "glDeleteQueries")     \
    X(PFNGLBEGINQUERYPROC, BeginQuery, "glBeginQuery")              \
    X(PFNGLENDQUERYPROC, EndQuery, "glEndQuery")                    \
    X(PFNGLGETQUERYIVPROC, GetQueryiv, "glGetQueryiv")              \
    X(PFNGLGETQUERYOBJECTUIVPROC, GetQueryObjectuiv, "glGetQueryObjectuiv") \
    X(PFNGLFLUSHPROC, Flush, "glFlush")

// GL_EXT_memory_object's query of the device UUIDs (glext.h's type; glcorearb.h lacks it).
typedef void(APIENTRYP OpenGpaGetUnsignedBytei_vEXT)(GLenum target, GLuint index, GLubyte* data);

// Present from GL 3.3 / 4.0 (desktop) or by extension (GLES: EXT_disjoint_timer_query).
#define OPENGPA_GL_OPTIONAL_FUNCTIONS(X)                                         \
    X(PFNGLQUERYCOUNTERPROC, QueryCounter, "glQueryCounter")                     \
    X(PFNGLGETQUERYOBJECTUI64VPROC, GetQueryObjectui64v, "glGetQueryObjectui64v") \
    X(PFNGLBEGINQUERYINDEXEDPROC, BeginQueryIndexed, "glBeginQueryIndexed")      \
    X(PFNGLENDQUERYINDEXEDPROC, EndQueryIndexed, "glEndQueryIndexed")            \
    X(PFNGLGETQUERYINDEXEDIVPROC, GetQueryIndexediv, "glGetQueryIndexediv")      \
    X(PFNGLGETINTEGER64VPROC, GetInteger64v, "glGetInteger64v")                  \
    X(OpenGpaGetUnsignedBytei_vEXT, GetUnsignedBytei_vEXT, "glGetUnsignedBytei_vEXT")

struct GlFunctions {
#define OPENGPA_GL_MEMBER(type, member, name) type member = nullptr;
    OPENGPA_GL_FUNCTIONS(OPENGPA_GL_MEMBER)
    OPENGPA_GL_OPTIONAL_FUNCTIONS(OPENGPA_GL_MEMBER)
#undef OPENGPA_GL_MEMBER

    // Resolves every function; false with the first required one missing named in `missing`. On GLES the
    // timer functions are taken from EXT_disjoint_timer_query's names where the core ones are absent.
    bool Load(bool gles, std::string* missing);
};

}  // namespace gpa::gl
