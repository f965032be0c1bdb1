// Registers an exit hook as gpaprof's agent does (gpaprofExitSetHook of libgpaprof_exit.so, when preloaded),
// then ends the way argv[1] says, with a thread_local object, an atexit handler, an at_quick_exit handler and a
// static object that say when they run: exit_hooks_test.cpp checks that the hook comes before all of them.
//   exit_order_app return|exit|_exit|_Exit|quick_exit [--register]      exits with status 5
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
    }
    Say(t_local.what == nullptr ? "" : "main");  // uses the thread_local, so that it is constructed
    std::atexit([] { Say("atexit"); });
    std::at_quick_exit([] { Say("at_quick_exit"); });
    if (way == "exit") std::exit(5);
    if (way == "_exit") _exit(5);
    if (way == "_Exit") std::_Exit(5);
    if (way == "quick_exit") std::quick_exit(5);
    return 5;
}
