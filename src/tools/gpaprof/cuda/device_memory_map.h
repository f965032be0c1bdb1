// What a kernel of a context could write, as gpaprof's own replay must save and restore it: the
// application's live device allocations (seen through CUPTI's callbacks on the allocation and free calls of
// the driver API; the runtime's arrive as driver calls too) and the writable data sections of its loaded
// modules (__device__ variables: the cubin from CUPTI's module-loaded callback names them, the driver places
// them, cuModuleGetGlobal says where).
//
// Memory gpaprof cannot save and restore reliably makes the context's multi-pass dispatches fall back to
// CUPTI's kernel replay, with the reason: managed memory (migrates between host and device, also while the
// kernel runs), host memory mapped for the device (pinned or registered: host threads can write it at any
// time, without a CUDA call), virtual-memory mappings (cuMemMap: several addresses may alias one allocation),
// memory imported from other processes (they write it whenever they like), CUDA arrays (kernels write them
// through surfaces, which a linear copy does not restore), peer access (kernels may write another device's
// memory) and graph capture in progress (a synchronisation would invalidate it).
//
// Plain bookkeeping without CUDA calls, so that it is testable without a GPU; thread-safe.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/cubin_globals.h"

namespace gpaprof::cuda {

enum class MemoryKind : uint8_t {
    Device,          // cuMemAlloc, cuMemAllocPitch, cuMemAllocAsync, cuMemAllocFromPoolAsync
    Managed,         // cuMemAllocManaged, __managed__ variables
    HostPinned,      // cuMemAllocHost, cuMemHostAlloc
    HostRegistered,  // cuMemHostRegister
    VirtualMapped,   // cuMemMap
    Imported,        // cuIpcOpenMemHandle, cuMemPoolImportPointer
};
const char* MemoryKindName(MemoryKind kind);

// Who made an allocation. A communication library's (NCCL's, NVSHMEM's: the call came from inside it) is used by
// that library's kernels alone, which gpaprof never replays (waiting_kernels.h), and its peers on other devices
// and in other processes write it at any time: a replay that put it back as it was would erase what they wrote
// meanwhile, and the collective waiting for it would never end. Own replay leaves it alone.
enum class MemoryOwner : uint8_t { Application, CommunicationLibrary };

struct MemoryRegion {
    uint64_t base = 0;
    uint64_t size = 0;
    bool operator==(const MemoryRegion& other) const { return base == other.base && size == other.size; }
};

// A launch's arguments read as 64-bit words, parameter by parameter (the values a pointer argument can have), from
// LaunchCopy's packed `arguments` and the `offsets` where each parameter starts (none: one parameter buffer).
std::vector<uint64_t> ArgumentWords(const std::vector<uint8_t>& arguments, const std::vector<size_t>& offsets);

class DeviceMemoryMap {
public:
    // Allocations and frees (after the call succeeded). A free names the base address; freeing memory the map
    // does not know is ignored (it may predate gpaprof or be a library's pool).
    void Allocated(CUcontext context, MemoryKind kind, uint64_t base, uint64_t size,
                   MemoryOwner owner = MemoryOwner::Application);
    void Freed(uint64_t base);
    // cuMemUnmap: every mapping inside [base, base + size).
    void Unmapped(uint64_t base, uint64_t size);
    void ArrayCreated(CUcontext context);
    void ArrayDestroyed(CUcontext context);
    void PeerAccessEnabled(CUcontext context);
    void PeerAccessDisabled(CUcontext context);
    void CaptureBegan();
    void CaptureEnded();
    // The context is being destroyed (cuCtxDestroy, cudaDeviceReset): its allocations, cubins and facts go
    // with it. A context made later may get the same handle; nothing of this one may be saved for it.
    void ContextDestroyed(CUcontext context);

    // Modules: a cubin loaded into a context (CUPTI's moduleId) with its writable data sections and the functions it
    // defines (nullopt: not known, as for a cubin that could not be read), and unloaded. CUPTI numbers modules per
    // context: another context may load a module of the same id.
    void CubinLoaded(CUcontext context, uint32_t moduleId, std::vector<CubinDataSection> sections,
                     std::optional<std::vector<std::string>> functions = std::nullopt);
    void CubinUnloaded(CUcontext context, uint32_t moduleId);
    // A module handle of the context (the module of a launched kernel, a cuModuleLoad* result) or a library
    // (cuLibraryLoad*, the library of a launched CUkernel; libraries serve every context): variables are
    // looked up in them by name. Unloading drops what was found through them.
    void ModuleKnown(CUcontext context, CUmodule module);
    void ModuleUnloaded(CUmodule module);
    void LibraryKnown(CUlibrary library);
    void LibraryUnloaded(CUlibrary library);
    // A variable whose address the application asked for itself (cuModuleGetGlobal, cuLibraryGetGlobal): it
    // is saved, and it places the section of the loaded cubin that has a variable of that name and size (when
    // only one cubin of the context has one).
    void GlobalSeen(CUcontext context, const std::string& name, uint64_t base, uint64_t size);

    // The lookups the caller should make (cuModuleGetGlobal(module, name) or cuLibraryGetGlobal, then
    // cuMemGetAddressRange on the address) before the next Plan, each answered with LookupResult (nullopt: not
    // found); repeat until none is left. Every variable of every section is looked up in every module and
    // library of the context once.
    struct Lookup {
        CUmodule module = nullptr;    // cuModuleGetGlobal in this module, or
        CUlibrary library = nullptr;  // cuLibraryGetGlobal in this library (in the context current)
        uint32_t moduleId = 0;
        size_t section = 0;
        size_t global = 0;
        std::string name;
    };
    struct Found {
        uint64_t address = 0, size = 0;                 // cuModuleGetGlobal
        uint64_t allocationBase = 0, allocationSize = 0;  // cuMemGetAddressRange of the address (0: unknown)
    };
    std::vector<Lookup> PendingLookups(CUcontext context);
    // What one module (or library) says about a section, once every variable of it was looked up there: where
    // the variables of the cubin's size are. At least two found at the cubin's offsets from one base: the
    // driver kept the section's layout and the whole section is saved from that base, variables the driver
    // cannot name (file-scope statics) included. Otherwise, when every variable was found: each variable.
    // Otherwise that module does not place the section. (cuMemGetAddressRange is no help: for a module
    // variable it answers the variable's own extent.) A section placed by several modules
    // (the same cubin loaded twice) is saved at every place: restoring memory the kernel did not write changes
    // nothing.
    void LookupResult(CUcontext context, const Lookup& lookup, std::optional<Found> found);

    // What to save for a dispatch on `context`: merged regions, or why saving is not reliable.
    struct SavePlan {
        std::vector<MemoryRegion> regions;  // sorted, disjoint
        uint64_t bytes = 0;
        std::string unsafe;  // empty: the regions are everything the kernel can write
        size_t communicationAllocations = 0;  // a communication library's allocations, left out (MemoryOwner)
    };
    // `pinnedByArguments` (CUDA graph replays, graph_launch_collector.cpp): host memory mapped for the device (pinned,
    // registered) does not make the plan unsafe. An allocation one of these words points into (the graph's kernel
    // arguments read as 64-bit values) is saved and restored with the device memory; the others are left alone. (A
    // pointer to host memory kept in device memory is not seen, and a host thread writing such memory while the
    // graph is replayed may see its write undone: docs/gpaprof.md says so.)
    //
    // `kernels` (the launched kernels' symbol names; nullptr: not given): the variables of a module that defines
    // none of them need not be located (they are saved where they are). A kernel writes its own module's variables
    // by name and another module's only through an address; the application gets such an address from
    // cuModuleGetGlobal or cuLibraryGetGlobal (GlobalSeen: saved). (An address that device code stored in device
    // memory is not seen.) Where a kernel is defined by no module known, every module's variables must be located.
    SavePlan Plan(CUcontext context, const std::vector<uint64_t>* pinnedByArguments = nullptr,
                  const std::vector<std::string>* kernels = nullptr) const;
    // What to save for an eager launch of `kernels`. In a process with a communication library's memory CUPTI's
    // kernel replay is ruled out (CounterCollector::KernelReplayHazard), so what would send the dispatch there is
    // narrowed instead of making it NA: pinned host memory is treated as for CUDA graphs (saved where one of the
    // launch's arguments, `argumentWords`, nullopt where they cannot be read, points into it; left alone otherwise),
    // and only the kernel's own module's variables must be located (Plan's `kernels`: NCCL's module, whose kernels
    // gpaprof never replays, is not located in such a process). Elsewhere the dispatch still goes to CUPTI's replay,
    // which gave right results for kernels writing host memory. `kernels` and `argumentWords` are called only where
    // narrowing (naming a copied launch's kernel takes driver calls). A batch of deferred launches is always
    // narrowed (LaunchReplayer::BeginBatchReplay).
    SavePlan PlanForLaunches(CUcontext context, const std::function<std::vector<std::string>()>& kernels,
                             const std::function<std::optional<std::vector<uint64_t>>()>& argumentWords) const;
    SavePlan PlanForLaunches(CUcontext context, const std::vector<std::string>& kernels,
                             const std::function<std::optional<std::vector<uint64_t>>()>& argumentWords) const {
        return PlanForLaunches(context, [&] { return kernels; }, argumentWords);
    }

    size_t AllocationCount() const;
    // Whether the process has live allocations of a communication library (MemoryOwner).
    bool HasCommunicationMemory() const;

private:
    struct Allocation {
        CUcontext context = nullptr;
        MemoryKind kind = MemoryKind::Device;
        uint64_t size = 0;
        MemoryOwner owner = MemoryOwner::Application;
    };
    struct Cubin {
        CUcontext context = nullptr;
        std::vector<CubinDataSection> sections;
        std::optional<std::set<std::string, std::less<>>> functions;  // nullopt: not known
        // Per (module or library handle, section): the addresses found so far (by variable), and the regions that
        // handle placed the section at (handle nullptr: the variables the application looked up itself).
        std::map<std::pair<const void*, size_t>, std::vector<std::optional<uint64_t>>> found;
        std::map<std::pair<const void*, size_t>, size_t> tried;
        std::map<std::pair<const void*, size_t>, std::vector<MemoryRegion>> placed;
        uint32_t lookups = 0, hits = 0, misplaced = 0, bestAgreement = 0;  // for the reason when a section is not placed
    };
    struct SeenGlobal {
        std::string name;
        MemoryRegion region;
    };
    struct ContextFacts {
        uint32_t arrays = 0;
        bool peerAccess = false;
        std::set<CUmodule> modules;
        std::vector<SeenGlobal> seenGlobals;
    };
    void PlaceBySeenNamesLocked(CUcontext context);
    // After the last variable of a section was tried in `handle`: places the section from what was found.
    static void DecideLocked(Cubin* cubin, const void* handle, size_t section);

    mutable std::mutex mutex_;
    std::map<uint64_t, Allocation> allocations_;  // by base address
    std::map<std::pair<CUcontext, uint32_t>, Cubin> cubins_;  // by context and CUPTI module id
    std::map<CUcontext, ContextFacts> contexts_;
    std::set<CUlibrary> libraries_;
    uint32_t captures_ = 0;
};

}  // namespace gpaprof::cuda
