/* The calling thread's thread pointer (x86-64: %fs:0; AArch64: TPIDR_EL0), from C and C++. A thread_local of a
 * library loaded at process start-up (a preloaded one) lies at the same distance from it in every thread, so that
 * distance, learnt once, reaches the calling thread's copy with one load: preloaded_thread_block.c says why that
 * matters. GPAPROF_HAVE_THREAD_POINTER is 0 where the compiler does not offer it. */
#pragma once

#if defined(__has_builtin)
#if __has_builtin(__builtin_thread_pointer) && (defined(__x86_64__) || defined(__aarch64__))
#define GPAPROF_HAVE_THREAD_POINTER 1
#endif
#endif
#ifndef GPAPROF_HAVE_THREAD_POINTER
#define GPAPROF_HAVE_THREAD_POINTER 0
#endif

#if GPAPROF_HAVE_THREAD_POINTER
static inline char* GpaprofThreadPointer(void) { return (char*)__builtin_thread_pointer(); }
#endif
