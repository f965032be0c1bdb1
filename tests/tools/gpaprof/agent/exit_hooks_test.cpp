// libgpaprof_exit.so (src/tools/gpaprof/agent/exit_hooks.c): the hook the agent registers runs when the process
// begins to end, whichever way it ends, before thread_local objects, atexit handlers and static objects go; and
// nothing runs where nobody registered one. On the CPU, with a program of its own (exit_order_app.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <dlfcn.h>

#include "../profiled_run.h"

#if defined(__SANITIZE_ADDRESS__)
extern "C" void __asan_init();
#endif

namespace gpaprof {
namespace {

// The sanitizer runtime must be the first library of a process (sanitizer builds; empty otherwise).
std::string SanitizerRuntime() {
#if defined(__SANITIZE_ADDRESS__)
    Dl_info info;
    if (dladdr(reinterpret_cast<const void*>(&__asan_init), &info) && info.dli_fname) return std::string(info.dli_fname) + ":";
#endif
    return {};
}

class ExitHooks : public testing::ProfiledRunTest {
protected:
    void SetUp() override { MakeDirectory("gpaprof-exit-hooks"); }

    testing::Outcome Run(const std::vector<std::string>& arguments, bool preload) {
        std::vector<std::string> command = {GPAPROF_EXIT_ORDER_APP};
        command.insert(command.end(), arguments.begin(), arguments.end());
        std::map<std::string, std::string> environment;
        if (preload) environment["LD_PRELOAD"] = SanitizerRuntime() + GPAPROF_EXIT_HOOKS;
        return testing::Execute(command, directory_, environment);
    }
};

TEST_F(ExitHooks, HookRunsFirstWhenMainReturnsOrExitIsCalled) {
    for (const std::string way : {"return", "exit"}) {
        SCOPED_TRACE(way);
        const testing::Outcome run = Run({way, "--register"}, true);
        EXPECT_EQ(run.exitCode, 5) << run.err;
        EXPECT_EQ(run.out, "main\nhook\nthread_local destroyed\natexit\nstatic destroyed\n");
    }
}

TEST_F(ExitHooks, HookRunsWhereNothingElseDoes) {
    for (const std::string way : {"_exit", "_Exit"}) {
        SCOPED_TRACE(way);
        const testing::Outcome run = Run({way, "--register"}, true);
        EXPECT_EQ(run.exitCode, 5) << run.err;
        EXPECT_EQ(run.out, "main\nhook\n");
    }
    const testing::Outcome quick = Run({"quick_exit", "--register"}, true);
    EXPECT_EQ(quick.exitCode, 5) << quick.err;
    EXPECT_EQ(quick.out, "main\nhook\nat_quick_exit\n");
}

// The order glibc gives without a hook: an atexit handler runs only after the thread_local objects are gone.
TEST_F(ExitHooks, NothingChangesUntilAHookIsRegistered) {
    const testing::Outcome run = Run({"return"}, true);
    EXPECT_EQ(run.exitCode, 5) << run.err;
    EXPECT_EQ(run.out, "main\nthread_local destroyed\natexit\nstatic destroyed\n");
    const testing::Outcome quick = Run({"quick_exit"}, true);
    EXPECT_EQ(quick.out, "main\nat_quick_exit\n");
}

// Every exec function runs the exec hook before the new program starts (and not the exit hook: the process goes
// on); where the exec fails, the process goes on and ends as usual.
TEST_F(ExitHooks, ExecHookRunsBeforeEveryExecFunction) {
    for (const std::string way : {"execv", "execvp", "execve", "execvpe", "execl", "execlp", "execle"}) {
        SCOPED_TRACE(way);
        const testing::Outcome run = Run({way, "--register"}, true);
        EXPECT_EQ(run.exitCode, 6) << run.err;
        EXPECT_EQ(run.out, "main\nexec hook\nmain\nthread_local destroyed\natexit\nstatic destroyed\n");
    }
    const testing::Outcome failed = Run({"exec-fails", "--register"}, true);
    EXPECT_EQ(failed.exitCode, 7) << failed.err;
    EXPECT_EQ(failed.out, "main\nexec hook\nexec returned\nhook\nthread_local destroyed\natexit\nstatic destroyed\n");
    // Without a hook registered, exec is exec.
    const testing::Outcome plain = Run({"execl"}, true);
    EXPECT_EQ(plain.exitCode, 6) << plain.err;
    EXPECT_EQ(plain.out, "main\nmain\nthread_local destroyed\natexit\nstatic destroyed\n");
}

TEST_F(ExitHooks, RegisteringNeedsThePreload) {
    const testing::Outcome run = Run({"return", "--register"}, false);
    EXPECT_EQ(run.exitCode, 3);
    EXPECT_EQ(run.out, "no exit hooks preloaded\nstatic destroyed\n");
}

}  // namespace
}  // namespace gpaprof
