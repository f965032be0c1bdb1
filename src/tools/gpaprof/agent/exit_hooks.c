// libgpaprof_exit.so: preloaded by gpaprof into every process it starts, so that the agent writes what is
// pending (a batch of dispatches whose counters are not decoded yet, device times not handed over yet) at the
// moment a process begins to end, while everything it needs still works.
//
// atexit is too late for that: glibc's exit() first destroys the main thread's thread_local objects, then runs
// atexit handlers and static destructors newest first, so libraries loaded after the agent (CUPTI, loaded at
// cuInit) are torn down before an atexit handler of the agent runs, and CUDA calls made by static destructors
// and the CUDA runtime's own teardown come after. These hooks run before all of that:
//   return from main   main is wrapped through __libc_start_main (glibc calls exit() from inside libc, where
//                      no preload can interpose it)
//   exit, _exit, _Exit, quick_exit   called by the application or a library
// The hook does nothing until the agent registers itself (gpaprofExitSetHook), which it does only in processes
// that load it (those that use CUDA or OpenCL): other processes are not touched. Plain C, no dependencies but
// libc and libdl: it is loaded into every process, shells included.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GPAPROF_EXPORT __attribute__((visibility("default")))

typedef void (*ExitHook)(void);
static ExitHook g_hook;

GPAPROF_EXPORT void gpaprofExitSetHook(ExitHook hook) { __atomic_store_n(&g_hook, hook, __ATOMIC_RELEASE); }

static void RunHook(void) {
    const ExitHook hook = __atomic_load_n(&g_hook, __ATOMIC_ACQUIRE);
    if (hook) hook();
}

// The next definition of a libc function (a function pointer from dlsym, without ISO C's cast warning).
static void NextFunction(const char* name, void* out, size_t size) {
    void* symbol = dlsym(RTLD_NEXT, name);
    memcpy(out, &symbol, size);
}

typedef int (*MainFunction)(int, char**, char**);
typedef int (*StartMainFunction)(MainFunction, int, char**, void (*)(void), void (*)(void), void (*)(void), void*);
static MainFunction g_main;

static int ProfiledMain(int argc, char** argv, char** envp) {
    const int status = g_main(argc, argv, envp);
    RunHook();
    return status;
}

GPAPROF_EXPORT int __libc_start_main(MainFunction main, int argc, char** argv, void (*init)(void), void (*fini)(void),
                                     void (*rtldFini)(void), void* stackEnd) {
    StartMainFunction next = NULL;
    NextFunction("__libc_start_main", &next, sizeof next);
    g_main = main;
    return next(ProfiledMain, argc, argv, init, fini, rtldFini, stackEnd);
}

typedef void (*ExitFunction)(int);

// exit, _exit, _Exit and quick_exit: the hook, then the next definition (libc's, or a sanitizer's).
#define GPAPROF_HOOKED_EXIT(name)                      \
    GPAPROF_EXPORT void name(int status) {             \
        RunHook();                                     \
        ExitFunction next = NULL;                      \
        NextFunction(#name, &next, sizeof next);       \
        next(status);                                  \
        __builtin_unreachable();                       \
    }

GPAPROF_HOOKED_EXIT(exit)
GPAPROF_HOOKED_EXIT(_exit)
GPAPROF_HOOKED_EXIT(_Exit)
GPAPROF_HOOKED_EXIT(quick_exit)
