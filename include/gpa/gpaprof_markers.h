/*
 * gpaprof perf markers and profiling control, for C and C++ applications.
 *
 *   #include <gpa/gpaprof_markers.h>
 *
 *   gpaprofBeginMarker("solve", "physics");   // appears in the .atp Perfmarker section
 *   ...                                       // markers nest; each End closes the latest Begin
 *   gpaprofEndMarker();
 *
 *   gpaprofPause();   gpaprofResume();        // with `gpaprof --startdisabled`: profile only a region
 *   if (gpaprofIsProfiling()) { ... }
 *
 * Header only: nothing to link (on glibc older than 2.34 add -ldl). The functions look up gpaprof's agent
 * at run time through the GPAPROF_AGENT_LIB environment variable that gpaprof sets; an application that
 * runs without gpaprof calls them at the cost of one getenv() and they do nothing.
 */
#ifndef GPA_GPAPROF_MARKERS_H
#define GPA_GPAPROF_MARKERS_H

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Finds `name` in gpaprof's agent, or returns NULL when the application runs without gpaprof. */
static inline void* gpaprofMarkersLookup_(const char* name) {
    static void* handle = NULL;
    static int looked = 0;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        const char* library = getenv("GPAPROF_AGENT_LIB");
        void* opened = (library && *library) ? dlopen(library, RTLD_LAZY | RTLD_LOCAL) : NULL;
        __atomic_store_n(&handle, opened, __ATOMIC_RELEASE);
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    void* agent = __atomic_load_n(&handle, __ATOMIC_ACQUIRE);
    return agent ? dlsym(agent, name) : NULL;
}

#define GPAPROF_MARKERS_RESOLVE_(type, variable, symbol)                          \
    static type variable = NULL;                                                  \
    static int variable##Looked = 0;                                              \
    if (!__atomic_load_n(&variable##Looked, __ATOMIC_ACQUIRE)) {                  \
        void* found = gpaprofMarkersLookup_(symbol);                              \
        type function = NULL;                                                     \
        memcpy(&function, &found, sizeof function);                               \
        __atomic_store_n(&variable, function, __ATOMIC_RELEASE);                  \
        __atomic_store_n(&variable##Looked, 1, __ATOMIC_RELEASE);                 \
    }

typedef void (*GpaprofNameGroupFunction_)(const char*, const char*);
typedef void (*GpaprofVoidFunction_)(void);
typedef int (*GpaprofIntFunction_)(void);

/* Begins a perf marker on the calling thread. `group` may be NULL. */
static inline void gpaprofBeginMarker(const char* name, const char* group) {
    GPAPROF_MARKERS_RESOLVE_(GpaprofNameGroupFunction_, begin, "gpaprofAgentBeginMarker")
    GpaprofNameGroupFunction_ function = __atomic_load_n(&begin, __ATOMIC_ACQUIRE);
    if (function) function(name, group);
}

/* Ends the latest marker begun on the calling thread. */
static inline void gpaprofEndMarker(void) {
    GPAPROF_MARKERS_RESOLVE_(GpaprofVoidFunction_, end, "gpaprofAgentEndMarker")
    GpaprofVoidFunction_ function = __atomic_load_n(&end, __ATOMIC_ACQUIRE);
    if (function) function();
}

/* Ends the latest marker and names it again (written as clEndPerfMarkerEx). */
static inline void gpaprofEndMarkerEx(const char* name, const char* group) {
    GPAPROF_MARKERS_RESOLVE_(GpaprofNameGroupFunction_, endEx, "gpaprofAgentEndMarkerEx")
    GpaprofNameGroupFunction_ function = __atomic_load_n(&endEx, __ATOMIC_ACQUIRE);
    if (function) function(name, group);
}

/* Stops recording API calls, dispatches and markers until gpaprofResume(). */
static inline void gpaprofPause(void) {
    GPAPROF_MARKERS_RESOLVE_(GpaprofVoidFunction_, pauseFunction, "gpaprofAgentPause")
    GpaprofVoidFunction_ function = __atomic_load_n(&pauseFunction, __ATOMIC_ACQUIRE);
    if (function) function();
}

/* Starts (again) recording; the way to end `gpaprof --startdisabled`. */
static inline void gpaprofResume(void) {
    GPAPROF_MARKERS_RESOLVE_(GpaprofVoidFunction_, resumeFunction, "gpaprofAgentResume")
    GpaprofVoidFunction_ function = __atomic_load_n(&resumeFunction, __ATOMIC_ACQUIRE);
    if (function) function();
}

/* 1 while gpaprof records, 0 when paused or when not running under gpaprof. */
static inline int gpaprofIsProfiling(void) {
    GPAPROF_MARKERS_RESOLVE_(GpaprofIntFunction_, isProfiling, "gpaprofAgentIsProfiling")
    GpaprofIntFunction_ function = __atomic_load_n(&isProfiling, __ATOMIC_ACQUIRE);
    return function ? function() : 0;
}

#undef GPAPROF_MARKERS_RESOLVE_

#ifdef __cplusplus
}
#endif

#endif /* GPA_GPAPROF_MARKERS_H */
