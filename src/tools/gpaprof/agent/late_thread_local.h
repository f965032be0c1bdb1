// A per-thread object that outlives the thread's C++ thread_local objects.
//
// CUDA and OpenCL call gpaprof back while threads and the process tear down: glibc's exit() destroys the
// main thread's thread_local objects first, before any atexit handler or static destructor runs, and those
// (the CUDA runtime's teardown, PyTorch's, the application's own) still make API calls; a thread that ends
// destroys its thread_locals before the pthread key destructors, which may call CUDA too. A thread_local with
// a destructor used from such a callback is used after it was freed: that corrupted the heap at the end of
// PyTorch programs. This object is made on first use and freed by a pthread key destructor when its thread
// ends, after every thread_local destructor; the main thread's is never freed (exit() runs no key
// destructors). A use after the key destructor ran (a later key destructor that calls CUDA) makes a new one,
// which the next round of key destructors frees.
#pragma once

#include <pthread.h>

namespace gpaprof::agent {

template <typename T>
class LateThreadLocal {
public:
    // Declare at namespace scope: the constructor creates the key; the destructor is trivial, so nothing is
    // torn down at exit.
    LateThreadLocal() { pthread_key_create(&key_, &Free); }
    LateThreadLocal(const LateThreadLocal&) = delete;
    LateThreadLocal& operator=(const LateThreadLocal&) = delete;

    T& Get() {
        T* object = static_cast<T*>(pthread_getspecific(key_));
        if (!object) {
            object = new T();
            pthread_setspecific(key_, object);
        }
        return *object;
    }

    // The same, for a caller that caches the object's address in a plain thread_local pointer (trivial, so it
    // outlives the thread's thread_local objects): `forget` runs on the thread when the object is freed, and
    // clears that pointer. One forget per object: the last one given is used.
    T& Get(void (*forget)()) {
        T& object = Get();
        t_forget = forget;
        return object;
    }

private:
    static void Free(void* object) {
        if (t_forget) t_forget();
        delete static_cast<T*>(object);
    }
    static inline thread_local void (*t_forget)() = nullptr;
    pthread_key_t key_{};
};

}  // namespace gpaprof::agent
