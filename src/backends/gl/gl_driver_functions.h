// The entry points of the drivers' own performance counters: GL_AMD_performance_monitor (Mesa's Gallium drivers:
// radeonsi, nouveau, freedreno, ...) and GL_INTEL_performance_query (Mesa's Intel drivers). A table is resolved only
// where its extension is in the context's extension list: calling one of these where the extension is not listed can
// crash (Mesa's llvmpipe hands out a dispatch stub for glGetPerfMonitorGroupsAMD that does), so a table whose
// extension is absent stays empty. The counter code (gl_driver_counters.h) takes the tables, so that tests can hand
// it a scripted stand-in driver.
#pragma once

#include <GL/glcorearb.h>

#include <functional>
#include <set>
#include <string>
#include <type_traits>

namespace gpa::gl {

// GL_AMD_performance_monitor's tokens and functions (glext.h's; glcorearb.h has no vendor extensions).
inline constexpr GLenum kAmdCounterType = 0x8BC0;          // GL_COUNTER_TYPE_AMD
inline constexpr GLenum kAmdUnsignedInt64 = 0x8BC2;        // GL_UNSIGNED_INT64_AMD
inline constexpr GLenum kAmdPercentage = 0x8BC3;           // GL_PERCENTAGE_AMD
inline constexpr GLenum kAmdResultAvailable = 0x8BC4;      // GL_PERFMON_RESULT_AVAILABLE_AMD
inline constexpr GLenum kAmdResultSize = 0x8BC5;           // GL_PERFMON_RESULT_SIZE_AMD
inline constexpr GLenum kAmdResult = 0x8BC6;               // GL_PERFMON_RESULT_AMD

#define OPENGPA_AMD_PERFMON_FUNCTIONS(X)                                                                              \
    X(void(APIENTRYP)(GLint*, GLsizei, GLuint*), GetPerfMonitorGroupsAMD, "glGetPerfMonitorGroupsAMD")               \
    X(void(APIENTRYP)(GLuint, GLint*, GLint*, GLsizei, GLuint*), GetPerfMonitorCountersAMD,                          \
      "glGetPerfMonitorCountersAMD")                                                                                 \
    X(void(APIENTRYP)(GLuint, GLsizei, GLsizei*, GLchar*), GetPerfMonitorGroupStringAMD,                             \
      "glGetPerfMonitorGroupStringAMD")                                                                              \
    X(void(APIENTRYP)(GLuint, GLuint, GLsizei, GLsizei*, GLchar*), GetPerfMonitorCounterStringAMD,                   \
      "glGetPerfMonitorCounterStringAMD")                                                                            \
    X(void(APIENTRYP)(GLuint, GLuint, GLenum, void*), GetPerfMonitorCounterInfoAMD, "glGetPerfMonitorCounterInfoAMD") \
    X(void(APIENTRYP)(GLsizei, GLuint*), GenPerfMonitorsAMD, "glGenPerfMonitorsAMD")                                 \
    X(void(APIENTRYP)(GLsizei, GLuint*), DeletePerfMonitorsAMD, "glDeletePerfMonitorsAMD")                           \
    X(void(APIENTRYP)(GLuint, GLboolean, GLuint, GLint, GLuint*), SelectPerfMonitorCountersAMD,                      \
      "glSelectPerfMonitorCountersAMD")                                                                              \
    X(void(APIENTRYP)(GLuint), BeginPerfMonitorAMD, "glBeginPerfMonitorAMD")                                         \
    X(void(APIENTRYP)(GLuint), EndPerfMonitorAMD, "glEndPerfMonitorAMD")                                             \
    X(void(APIENTRYP)(GLuint, GLenum, GLsizei, GLuint*, GLint*), GetPerfMonitorCounterDataAMD,                       \
      "glGetPerfMonitorCounterDataAMD")

// GL_INTEL_performance_query's tokens and functions.
inline constexpr GLuint kIntelGlobalContext = 0x1;         // GL_PERFQUERY_GLOBAL_CONTEXT_INTEL (caps mask bit)
inline constexpr GLuint kIntelDoNotFlush = 0x83F9;         // GL_PERFQUERY_DONOT_FLUSH_INTEL
inline constexpr GLuint kIntelWait = 0x83FB;               // GL_PERFQUERY_WAIT_INTEL
inline constexpr GLuint kIntelCounterEvent = 0x94F0;       // GL_PERFQUERY_COUNTER_EVENT_INTEL
inline constexpr GLuint kIntelCounterDurationNorm = 0x94F1;
inline constexpr GLuint kIntelCounterDurationRaw = 0x94F2;
inline constexpr GLuint kIntelCounterThroughput = 0x94F3;
inline constexpr GLuint kIntelCounterRaw = 0x94F4;
inline constexpr GLuint kIntelCounterTimestamp = 0x94F5;
inline constexpr GLuint kIntelDataUint32 = 0x94F8;         // GL_PERFQUERY_COUNTER_DATA_UINT32_INTEL
inline constexpr GLuint kIntelDataUint64 = 0x94F9;
inline constexpr GLuint kIntelDataFloat = 0x94FA;
inline constexpr GLuint kIntelDataDouble = 0x94FB;
inline constexpr GLuint kIntelDataBool32 = 0x94FC;
inline constexpr GLenum kIntelQueryNameLengthMax = 0x94FD;   // GL_PERFQUERY_QUERY_NAME_LENGTH_MAX_INTEL
inline constexpr GLenum kIntelCounterNameLengthMax = 0x94FE; // GL_PERFQUERY_COUNTER_NAME_LENGTH_MAX_INTEL
inline constexpr GLenum kIntelCounterDescLengthMax = 0x94FF; // GL_PERFQUERY_COUNTER_DESC_LENGTH_MAX_INTEL

#define OPENGPA_INTEL_PERFQUERY_FUNCTIONS(X)                                                                      \
    X(void(APIENTRYP)(GLuint*), GetFirstPerfQueryIdINTEL, "glGetFirstPerfQueryIdINTEL")                          \
    X(void(APIENTRYP)(GLuint, GLuint*), GetNextPerfQueryIdINTEL, "glGetNextPerfQueryIdINTEL")                    \
    X(void(APIENTRYP)(GLuint, GLuint, GLchar*, GLuint*, GLuint*, GLuint*, GLuint*), GetPerfQueryInfoINTEL,       \
      "glGetPerfQueryInfoINTEL")                                                                                 \
    X(void(APIENTRYP)(GLuint, GLuint, GLuint, GLchar*, GLuint, GLchar*, GLuint*, GLuint*, GLuint*, GLuint*,      \
                      GLuint64*),                                                                                \
      GetPerfCounterInfoINTEL, "glGetPerfCounterInfoINTEL")                                                      \
    X(void(APIENTRYP)(GLuint, GLuint*), CreatePerfQueryINTEL, "glCreatePerfQueryINTEL")                          \
    X(void(APIENTRYP)(GLuint), DeletePerfQueryINTEL, "glDeletePerfQueryINTEL")                                   \
    X(void(APIENTRYP)(GLuint), BeginPerfQueryINTEL, "glBeginPerfQueryINTEL")                                     \
    X(void(APIENTRYP)(GLuint), EndPerfQueryINTEL, "glEndPerfQueryINTEL")                                         \
    X(void(APIENTRYP)(GLuint, GLuint, GLsizei, void*, GLuint*), GetPerfQueryDataINTEL, "glGetPerfQueryDataINTEL")

#define OPENGPA_DRIVER_MEMBER(type, member, name) std::type_identity_t<type> member = nullptr;

struct AmdPerfMonitorFunctions {
    OPENGPA_AMD_PERFMON_FUNCTIONS(OPENGPA_DRIVER_MEMBER)
    bool loaded = false;  // every function resolved, the extension listed
};

struct IntelPerfQueryFunctions {
    OPENGPA_INTEL_PERFQUERY_FUNCTIONS(OPENGPA_DRIVER_MEMBER)
    bool loaded = false;
};

#undef OPENGPA_DRIVER_MEMBER

struct DriverCounterFunctions {
    AmdPerfMonitorFunctions amd;
    IntelPerfQueryFunctions intel;
    std::string why;  // why a table is empty (the extension not listed, a function missing)
};

// The tables of the extensions `extensions` lists, resolved through eglGetProcAddress; an unlisted extension's table
// is left empty without asking for its functions. Tests put a stand-in driver in its place (null restores this).
DriverCounterFunctions LoadDriverCounterFunctions(const std::set<std::string>& extensions);
using DriverCounterFunctionsLoader = std::function<DriverCounterFunctions(const std::set<std::string>& extensions)>;
void SetDriverCounterFunctionsLoaderForTesting(DriverCounterFunctionsLoader loader);

}  // namespace gpa::gl
