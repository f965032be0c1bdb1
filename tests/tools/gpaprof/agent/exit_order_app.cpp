// Registers an exit hook as gpaprof's agent does (gpaprofExitSetHook of libgpaprof_exit.so, when preloaded),
// then ends the way argv[1] says, with a thread_local object, an atexit handler, an at_quick_exit handler and a
// static object that say when they run: exit_hooks_test.cpp checks that the hook comes before all of them.
//   exit_order_app return|exit|_exit|_Exit|quick_exit [--register]      exits with status 5
//   exit_order_app execv|execvp|execve|execvpe|execl|execlp|execle|exec-fails [--register]: registers an exec hook
//   too ("exec hook"), then runs itself again with "exec'd" (which exits with status 6); 7 when the exec failed
#include <cstdlib>
#include <cstring>
#include <string>

#include <dlfcn.h>
#include <unistd.h>

namespace {

void Say(const char* text) {
    if (write(STDOUT_FILENO, text, std::strlen(text)) < 0 || write(STDOUT_FILENO, "\n", 1) < 0) std::abort();
}

struct SaysWhenDestroyed {
    const char* what;
    ~SaysWhenDestroyed() { Say(what); }
};

thread_local SaysWhenDestroyed t_local{"thread_local destroyed"};
SaysWhenDestroyed g_static{"static destroyed"};

void Hook() { Say("hook"); }
void ExecHook() { Say("exec hook"); }

}  // namespace

int main(int argc, char** argv) {
    const std::string way = argc > 1 ? argv[1] : "return";
    if (argc > 2 && std::string(argv[2]) == "--register") {
        void* symbol = dlsym(RTLD_DEFAULT, "gpaprofExitSetHook");
        if (!symbol) {
            Say("no exit hooks preloaded");
            return 3;
        }
        void (*setHook)(void (*)()) = nullptr;
        std::memcpy(&setHook, &symbol, sizeof setHook);
        setHook(&Hook);
        void* execSymbol = dlsym(RTLD_DEFAULT, "gpaprofExecSetHook");
        if (!execSymbol) {
            Say("no exec hook preloaded");
            return 3;
        }
        std::memcpy(&setHook, &execSymbol, sizeof setHook);
        setHook(&ExecHook);
    }
    Say(t_local.what == nullptr ? "" : "main");  // uses the thread_local, so that it is constructed
    std::atexit([] { Say("atexit"); });
    std::at_quick_exit([] { Say("at_quick_exit"); });
    if (way == "exit") std::exit(5);
    if (way == "_exit") _exit(5);
    if (way == "_Exit") std::_Exit(5);
    if (way == "quick_exit") std::quick_exit(5);
    // The exec functions: the exec hook first, then the program (this one again, saying "exec'd").
    if (way == "exec'd") return 6;
    if (way.rfind("exec", 0) == 0 || way == "fexecve") {
        char self[] = "/proc/self/exe";
        char again[] = "exec'd";
        char* const arguments[] = {self, again, nullptr};
        char* const envp[] = {nullptr};
        if (way == "execv") execv(self, arguments);
        if (way == "execvp") execvp(self, arguments);
        if (way == "execve") execve(self, arguments, envp);
        if (way == "execvpe") execvpe(self, arguments, envp);
        if (way == "execl") execl(self, self, again, static_cast<char*>(nullptr));
        if (way == "execlp") execlp(self, self, again, static_cast<char*>(nullptr));
        if (way == "execle") execle(self, self, again, static_cast<char*>(nullptr), envp);
        if (way == "exec-fails") execv("/nonexistent/program", arguments);
        Say("exec returned");
        return 7;
    }
    return 5;
}
