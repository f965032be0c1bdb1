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
//
// A second hook runs before the process image is replaced (execve, execv, execvp, execvpe, fexecve, execl,
// execlp, execle; gpaprofExecSetHook): what the agent keeps in memory for a while (the CUDA part's call rings)
// is written then. The process goes on (and writes on in its spool) when the exec fails. glibc's exec functions
// call each other inside libc, where no preload can interpose: each is wrapped here and goes on to the next
// definition of the same function.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
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

static ExitHook g_execHook;

GPAPROF_EXPORT void gpaprofExecSetHook(ExitHook hook) { __atomic_store_n(&g_execHook, hook, __ATOMIC_RELEASE); }

static void RunExecHook(void) {
    const ExitHook hook = __atomic_load_n(&g_execHook, __ATOMIC_ACQUIRE);
    if (hook) hook();
}

typedef int (*ExecPathFunction)(const char*, char* const[]);
typedef int (*ExecPathEnvFunction)(const char*, char* const[], char* const[]);
typedef int (*ExecFdFunction)(int, char* const[], char* const[]);

static int NextExec(const char* name, const char* path, char* const argv[]) {
    ExecPathFunction next = NULL;
    NextFunction(name, &next, sizeof next);
    return next(path, argv);
}

static int NextExecEnv(const char* name, const char* path, char* const argv[], char* const envp[]) {
    ExecPathEnvFunction next = NULL;
    NextFunction(name, &next, sizeof next);
    return next(path, argv, envp);
}

GPAPROF_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) {
    RunExecHook();
    return NextExecEnv("execve", path, argv, envp);
}

GPAPROF_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) {
    RunExecHook();
    return NextExecEnv("execvpe", file, argv, envp);
}

GPAPROF_EXPORT int execv(const char* path, char* const argv[]) {
    RunExecHook();
    return NextExec("execv", path, argv);
}

GPAPROF_EXPORT int execvp(const char* file, char* const argv[]) {
    RunExecHook();
    return NextExec("execvp", file, argv);
}

GPAPROF_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) {
    RunExecHook();
    ExecFdFunction next = NULL;
    NextFunction("fexecve", &next, sizeof next);
    return next(fd, argv, envp);
}

// The list forms: their arguments (up to the NULL) as an array, then the array form.
static size_t CountArguments(const char* first, va_list arguments) {
    size_t count = 1;
    if (!first) return 0;
    while (va_arg(arguments, const char*)) ++count;
    return count;
}

static void CollectArguments(const char* first, va_list arguments, char** argv, size_t count) {
    argv[0] = (char*)first;
    for (size_t i = 1; i < count; ++i) argv[i] = va_arg(arguments, char*);
    argv[count] = NULL;
}

#define GPAPROF_LIST_EXEC(name, next_name, with_environment)                             \
    GPAPROF_EXPORT int name(const char* path, const char* first, ...) {                  \
        va_list arguments;                                                               \
        va_start(arguments, first);                                                      \
        va_list counting;                                                                \
        va_copy(counting, arguments);                                                    \
        const size_t count = CountArguments(first, counting);                            \
        va_end(counting);                                                                \
        char* argv[count + 1];                                                           \
        CollectArguments(first, arguments, argv, count);                                 \
        char* const* envp = NULL;                                                        \
        if (with_environment) {                                                          \
            if (count > 0) (void)va_arg(arguments, char*); /* the NULL after the list */ \
            envp = va_arg(arguments, char* const*);                                      \
        }                                                                                \
        va_end(arguments);                                                               \
        RunExecHook();                                                                   \
        if (with_environment) return NextExecEnv(next_name, path, argv, envp);           \
        return NextExec(next_name, path, argv);                                          \
    }

GPAPROF_LIST_EXEC(execl, "execv", 0)
GPAPROF_LIST_EXEC(execlp, "execvp", 0)
GPAPROF_LIST_EXEC(execle, "execve", 1)
