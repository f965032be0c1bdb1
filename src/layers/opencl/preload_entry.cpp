// The preload route, for ICD loaders without layers (the CUDA toolkit's libOpenCL.so.1 is one): with
// LD_PRELOAD naming this library, it exports each entry point the layer implements (layer_entries.h) as a
// jump through a slot. At the first call every slot is filled: the table below is looked up among the next
// definitions of the entry points (RTLD_NEXT: the application's ICD loader, or a library preloaded after
// this one), and each slot points at the layer's entry, or straight below when the loader route started
// the layer first. The jump leaves the arguments untouched, so no parameter list is written out here.
#include <cstddef>
#include <mutex>
#include <type_traits>

#include <dlfcn.h>

#include "layers/opencl/dispatch.h"
#include "layers/opencl/layer_entries.h"

namespace {

void FillSlots();

// The first call through a slot fills every slot, then continues through this one.
template <auto* Slot, typename F = std::remove_pointer_t<decltype(Slot)>>
struct FirstCall;
template <auto* Slot, typename R, typename... A>
struct FirstCall<Slot, R (*)(A...)> {
    static R Call(A... args) {
        static std::once_flag once;
        std::call_once(once, FillSlots);
        return __atomic_load_n(Slot, __ATOMIC_ACQUIRE)(args...);
    }
};

// An entry point the OpenCL library below lacks (older than the application): the answer an absent
// extension function would give.
template <typename F>
struct Absent;
template <typename R, typename... A>
struct Absent<R (*)(A...)> {
    static R Call(A...) {
        if constexpr (std::is_same_v<R, cl_int>) {
            return CL_INVALID_OPERATION;
        } else {
            static_assert(std::is_pointer_v<R>, "an OpenCL entry point returns cl_int or a pointer");
            return nullptr;
        }
    }
};

}  // namespace

// One slot per exported entry point, named in C for the jumps below; each starts at its FirstCall.
extern "C" {
#define OPENGPA_SLOT(name)                                                                                     \
    __attribute__((visibility("hidden"))) decltype(cl_icd_dispatch::name) opengpa_cl_slot_##name =            \
        &FirstCall<&opengpa_cl_slot_##name>::Call;
OPENGPA_CL_LAYER_ENTRIES(OPENGPA_SLOT)
#undef OPENGPA_SLOT
}

#if defined(__x86_64__)
#define OPENGPA_TRAMPOLINE(name)                   \
    asm(".pushsection .text\n"                     \
        ".globl " #name "\n"                       \
        ".type " #name ", @function\n"             \
        ".p2align 4\n" #name ":\n"                 \
        "\tendbr64\n"                              \
        "\tjmp *opengpa_cl_slot_" #name "(%rip)\n" \
        ".size " #name ", .-" #name "\n"           \
        ".popsection\n");
#elif defined(__aarch64__)
#define OPENGPA_TRAMPOLINE(name)                            \
    asm(".pushsection .text\n"                              \
        ".globl " #name "\n"                                \
        ".type " #name ", %function\n"                      \
        ".p2align 4\n" #name ":\n"                          \
        "\tadrp x16, opengpa_cl_slot_" #name "\n"           \
        "\tldr x16, [x16, #:lo12:opengpa_cl_slot_" #name "]\n" \
        "\tbr x16\n"                                        \
        ".size " #name ", .-" #name "\n"                    \
        ".popsection\n");
#else
#error "the preload route has jumps for x86-64 and AArch64 only (CMake builds the layer without it elsewhere)"
#endif
OPENGPA_CL_LAYER_ENTRIES(OPENGPA_TRAMPOLINE)
#undef OPENGPA_TRAMPOLINE

namespace {

// The next definition of an OpenCL entry point after this library; else libOpenCL.so.1's (an application
// that loads OpenCL itself, after this library's first call).
void* LookUp(const char* name) {
    if (void* next = dlsym(RTLD_NEXT, name)) return next;
    static void* library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
    return library ? dlsym(library, name) : nullptr;
}

void FillSlots() {
    using namespace gpa::cl_layer;
    cl_icd_dispatch below{};
#define OPENGPA_LOOK_UP(name) below.name = reinterpret_cast<decltype(below.name)>(LookUp(#name));
    OPENGPA_CL_LAYER_ENTRIES(OPENGPA_LOOK_UP)
    OPENGPA_CL_LAYER_CALLS(OPENGPA_LOOK_UP)
#undef OPENGPA_LOOK_UP
    const bool ours = ClaimRoute(Route::kPreload, below, sizeof(cl_icd_dispatch) / sizeof(void*));
    cl_icd_dispatch layer{};
    FillLayerEntries(&layer);
    // The layer creates queues on an OpenCL 1.x library too (through clCreateCommandQueue).
#define OPENGPA_FILL(name)                                                                                   \
    {                                                                                                        \
        using Entry = decltype(cl_icd_dispatch::name);                                                      \
        Entry target = below.name;                                                                           \
        if (ours && (below.name || offsetof(cl_icd_dispatch, name) ==                                        \
                                       offsetof(cl_icd_dispatch, clCreateCommandQueueWithProperties))) {     \
            target = layer.name;                                                                             \
        }                                                                                                    \
        if (!target) target = &Absent<Entry>::Call;                                                          \
        __atomic_store_n(&opengpa_cl_slot_##name, target, __ATOMIC_RELEASE);                                 \
    }
    OPENGPA_CL_LAYER_ENTRIES(OPENGPA_FILL)
#undef OPENGPA_FILL
}

}  // namespace
