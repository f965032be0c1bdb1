// libgpaprof_opencl_preload.so: gpaprof's way into OpenCL applications whose ICD loader does not load
// layers (OPENCL_LAYERS). The CUDA toolkit's libOpenCL.so.1 is one, and ld.so.cache often lists it before
// the system's ocl-icd; then the layer is never loaded and nothing is recorded.
//
// gpaprof preloads this library (LD_PRELOAD). It exports every entry point the layer traces (the list in
// traced_entry_names.h). Each export is a jump through a slot. At the first call the slots are filled: the
// library looks up the same entry points in the OpenCL library below it (RTLD_NEXT: the application's ICD
// loader), hands that table to the layer's clInitLayer as the loader would, and points each slot at the
// layer's entry (or straight at the loader's where the layer has none). The jump keeps the arguments
// untouched, so no entry point needs its parameter list written out here.
//
// The first of the two routes to initialise the layer wins (layer_entry.cpp): when the loader also loads
// the layer through OPENCL_LAYERS, the later initialisation gets a table that only passes calls on, so no
// call is recorded twice.
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <type_traits>

#include <dlfcn.h>

#include "tools/gpaprof/opencl/cl_headers.h"
#include "tools/gpaprof/opencl/traced_entry_names.h"

namespace {

void InitializeSlots();

// What the first call through a slot runs: fill every slot, then continue through this one.
template <auto* Slot, typename F = std::remove_pointer_t<decltype(Slot)>>
struct FirstCall;
template <auto* Slot, typename R, typename... A>
struct FirstCall<Slot, R (*)(A...)> {
    static R Call(A... args) {
        InitializeSlots();
        return __atomic_load_n(Slot, __ATOMIC_ACQUIRE)(args...);
    }
};

// The entry point exists neither in the layer nor in the application's OpenCL library (an older library
// than the application was built for): the application gets the error an absent extension would give.
template <typename F>
struct Absent;
template <typename R, typename... A>
struct Absent<R (*)(A...)> {
    static R Call(A...) {
        if constexpr (std::is_same_v<R, cl_int>) {
            return CL_INVALID_OPERATION;
        } else if constexpr (std::is_pointer_v<R>) {
            return nullptr;
        } else {
            static_assert(std::is_void_v<R>, "an OpenCL entry point returns cl_int, a handle or nothing");
        }
    }
};

}  // namespace

// One slot per entry point; the trampolines below name them, so they have C names. Each starts at its
// FirstCall (a constant initialisation: a call before this library's constructors run finds it too).
extern "C" {
#define GPAPROF_SLOT(name)                                                                                  \
    __attribute__((visibility("hidden"))) decltype(cl_icd_dispatch::name) gpaprof_slot_##name = \
        &FirstCall<&gpaprof_slot_##name>::Call;
GPAPROF_OPENCL_TRACED_ENTRIES(GPAPROF_SLOT)
#undef GPAPROF_SLOT
}

// The exported entry points: a jump through the slot, arguments and return address left as they are.
#if defined(__x86_64__)
#define GPAPROF_TRAMPOLINE(name)                                     \
    asm(".pushsection .text\n"                                       \
        ".globl " #name "\n"                                         \
        ".type " #name ", @function\n"                               \
        ".p2align 4\n" #name ":\n"                                   \
        "\tendbr64\n"                                                \
        "\tjmp *gpaprof_slot_" #name "(%rip)\n"                      \
        ".size " #name ", .-" #name "\n"                             \
        ".popsection\n");
#elif defined(__aarch64__)
#define GPAPROF_TRAMPOLINE(name)                                     \
    asm(".pushsection .text\n"                                       \
        ".globl " #name "\n"                                         \
        ".type " #name ", %function\n"                               \
        ".p2align 4\n" #name ":\n"                                   \
        "\tadrp x16, gpaprof_slot_" #name "\n"                       \
        "\tldr x16, [x16, #:lo12:gpaprof_slot_" #name "]\n"          \
        "\tbr x16\n"                                                 \
        ".size " #name ", .-" #name "\n"                             \
        ".popsection\n");
#else
#error "the OpenCL preload shim has trampolines for x86-64 and AArch64 only (CMake skips it elsewhere)"
#endif
GPAPROF_OPENCL_TRACED_ENTRIES(GPAPROF_TRAMPOLINE)
#undef GPAPROF_TRAMPOLINE

namespace {

// The application's OpenCL library: the next definition after this library, else libOpenCL.so.1 loaded
// here (a plug-in that calls OpenCL may be loaded after this library's first call).
void* LookUp(const char* name) {
    if (void* next = dlsym(RTLD_NEXT, name)) return next;
    static void* library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
    return library ? dlsym(library, name) : nullptr;
}

// The layer's clInitLayer. The layer (and the agent it links) is loaded here, at the first OpenCL call,
// not with this library: the agent starts when it is loaded, and a process that never calls OpenCL (a CUDA
// application) must not get it earlier than its CUDA part would start it — its exit handlers would run
// after the CUDA driver's and find the driver gone.
using InitLayerFunction = cl_int (*)(cl_uint, const cl_icd_dispatch*, cl_uint*, const cl_icd_dispatch**);
InitLayerFunction LayerInit() {
    Dl_info self;
    if (!dladdr(reinterpret_cast<const void*>(&LayerInit), &self) || !self.dli_fname) return nullptr;
    std::string path = self.dli_fname;
    const size_t slash = path.rfind('/');
    path = (slash == std::string::npos ? std::string(".") : path.substr(0, slash)) + "/libgpaprof_opencl_layer.so";
    void* layer = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!layer) {
        std::fprintf(stderr, "gpaprof: cannot load the OpenCL layer (%s); OpenCL calls are not profiled\n", dlerror());
        return nullptr;
    }
    return reinterpret_cast<InitLayerFunction>(dlsym(layer, "clInitLayer"));
}

void FillSlots() {
    cl_icd_dispatch below{};
#define GPAPROF_LOOK_UP(name) below.name = reinterpret_cast<decltype(below.name)>(LookUp(#name));
    GPAPROF_OPENCL_TRACED_ENTRIES(GPAPROF_LOOK_UP)
#undef GPAPROF_LOOK_UP
    if (!below.clGetPlatformIDs) {
        std::fprintf(stderr, "gpaprof: no OpenCL library found below the preloaded OpenCL shim (%s); OpenCL calls "
                     "are not profiled\n", dlerror());
    }
    const cl_icd_dispatch* layer = nullptr;
    cl_uint layerEntries = 0;
    const cl_uint entries = sizeof(cl_icd_dispatch) / sizeof(void*);
    if (auto init = LayerInit(); !init || init(entries, &below, &layerEntries, &layer) != CL_SUCCESS) layer = nullptr;
    const size_t layerCount = layer ? layerEntries : 0;
    // An entry comes from the layer when the layer's table reaches that far and has it.
#define GPAPROF_FILL(name)                                                                          \
    {                                                                                                \
        using Entry = decltype(cl_icd_dispatch::name);                                             \
        constexpr size_t index = offsetof(cl_icd_dispatch, name) / sizeof(void*);                  \
        Entry target = layer && index < layerCount && layer->name ? layer->name : below.name;       \
        if (!target) target = &Absent<Entry>::Call;                                                  \
        __atomic_store_n(&gpaprof_slot_##name, target, __ATOMIC_RELEASE);                            \
    }
    GPAPROF_OPENCL_TRACED_ENTRIES(GPAPROF_FILL)
#undef GPAPROF_FILL
}

void InitializeSlots() {
    static std::once_flag once;
    std::call_once(once, FillSlots);
}

}  // namespace
