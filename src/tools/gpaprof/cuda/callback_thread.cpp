// Where the callbacks' per-thread block lives (callback_thread.h).
#include "tools/gpaprof/cuda/callback_thread.h"

#include <dlfcn.h>

#include <cstring>

namespace gpaprof::cuda::injection {
namespace {

thread_local CallbackThread t_callbackThread;

using ThreadBlockOffsetFunction = std::ptrdiff_t (*)(std::size_t size, std::size_t alignment);

}  // namespace

std::ptrdiff_t g_callbackThreadOffset = 0;

CallbackThread& ThreadLocalCallbackThread() { return t_callbackThread; }

void ChooseCallbackThreadBlock(bool usePreloaded) {
    g_callbackThreadOffset = 0;
    if (!usePreloaded || !GPAPROF_HAVE_THREAD_POINTER) return;
    void* symbol = dlsym(RTLD_DEFAULT, "gpaprofThreadBlockOffset");
    if (!symbol) return;  // libgpaprof_exit.so not loaded (gpaprof warned when it started the application)
    ThreadBlockOffsetFunction offsetOf = nullptr;
    std::memcpy(&offsetOf, &symbol, sizeof offsetOf);
    g_callbackThreadOffset = offsetOf(sizeof(CallbackThread), alignof(CallbackThread));
}

}  // namespace gpaprof::cuda::injection
