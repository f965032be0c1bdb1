#include "tools/gpaprof/cuda/device_memory_map.h"

#include <algorithm>

namespace gpaprof::cuda {

const char* MemoryKindName(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::Device: return "device memory";
        case MemoryKind::Managed: return "managed memory";
        case MemoryKind::HostPinned: return "pinned host memory the device can write";
        case MemoryKind::HostRegistered: return "registered host memory the device can write";
        case MemoryKind::VirtualMapped: return "virtual-memory mappings (cuMemMap)";
        case MemoryKind::Imported: return "memory imported from another process";
    }
    return "memory";
}

void DeviceMemoryMap::Allocated(CUcontext context, MemoryKind kind, uint64_t base, uint64_t size) {
    if (base == 0 || size == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    allocations_[base] = Allocation{context, kind, size};
}

void DeviceMemoryMap::Freed(uint64_t base) {
    std::lock_guard<std::mutex> lock(mutex_);
    allocations_.erase(base);
}

void DeviceMemoryMap::Unmapped(uint64_t base, uint64_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = allocations_.lower_bound(base); it != allocations_.end() && it->first < base + size;) {
        it = it->second.kind == MemoryKind::VirtualMapped ? allocations_.erase(it) : std::next(it);
    }
}

void DeviceMemoryMap::ArrayCreated(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++contexts_[context].arrays;
}

void DeviceMemoryMap::ArrayDestroyed(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    ContextFacts& facts = contexts_[context];
    if (facts.arrays > 0) --facts.arrays;
}

void DeviceMemoryMap::PeerAccessEnabled(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    contexts_[context].peerAccess = true;
}

void DeviceMemoryMap::PeerAccessDisabled(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    contexts_[context].peerAccess = false;
}

void DeviceMemoryMap::CaptureBegan() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++captures_;
}

void DeviceMemoryMap::CaptureEnded() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (captures_ > 0) --captures_;
}

void DeviceMemoryMap::CubinLoaded(CUcontext context, uint32_t moduleId, std::vector<CubinDataSection> sections) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cubin cubin;
    cubin.context = context;
    cubin.sections = std::move(sections);
    cubins_[moduleId] = std::move(cubin);
    PlaceBySeenNamesLocked(context);
}

void DeviceMemoryMap::CubinUnloaded(uint32_t moduleId) {
    std::lock_guard<std::mutex> lock(mutex_);
    cubins_.erase(moduleId);
}

void DeviceMemoryMap::ModuleKnown(CUcontext context, CUmodule module) {
    if (!module) return;
    std::lock_guard<std::mutex> lock(mutex_);
    contexts_[context].modules.insert(module);
}

void DeviceMemoryMap::ModuleUnloaded(CUmodule module) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [context, facts] : contexts_) facts.modules.erase(module);
    for (auto& [id, cubin] : cubins_) {
        for (size_t s = 0; s < cubin.sections.size(); ++s) {
            cubin.placed.erase({module, s});
            cubin.nextGlobal.erase({module, s});
        }
    }
}

void DeviceMemoryMap::LibraryKnown(CUlibrary library) {
    if (!library) return;
    std::lock_guard<std::mutex> lock(mutex_);
    libraries_.insert(library);
}

void DeviceMemoryMap::LibraryUnloaded(CUlibrary library) {
    std::lock_guard<std::mutex> lock(mutex_);
    libraries_.erase(library);
    for (auto& [id, cubin] : cubins_) {
        for (size_t s = 0; s < cubin.sections.size(); ++s) {
            cubin.placed.erase({library, s});
            cubin.nextGlobal.erase({library, s});
        }
    }
}

void DeviceMemoryMap::GlobalSeen(CUcontext context, const std::string& name, uint64_t base, uint64_t size) {
    if (base == 0 || size == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<SeenGlobal>& seen = contexts_[context].seenGlobals;
    for (const SeenGlobal& known : seen) {
        if (known.name == name && known.region == MemoryRegion{base, size}) return;
    }
    seen.push_back({name, {base, size}});
    PlaceBySeenNamesLocked(context);
}

void DeviceMemoryMap::PlaceBySeenNamesLocked(CUcontext context) {
    auto facts = contexts_.find(context);
    if (facts == contexts_.end()) return;
    for (const SeenGlobal& seen : facts->second.seenGlobals) {
        if (seen.name.empty()) continue;
        // The cubins of the context with a variable of this name and size: only an unambiguous one is placed.
        Cubin* match = nullptr;
        size_t matchSection = 0;
        const CubinGlobal* matchGlobal = nullptr;
        int matches = 0;
        for (auto& [id, cubin] : cubins_) {
            if (cubin.context != context) continue;
            for (size_t s = 0; s < cubin.sections.size(); ++s) {
                for (const CubinGlobal& global : cubin.sections[s].globals) {
                    if (global.name != seen.name || global.size != seen.region.size) continue;
                    ++matches;
                    match = &cubin;
                    matchSection = s;
                    matchGlobal = &global;
                }
            }
        }
        if (matches != 1 || seen.region.base < matchGlobal->offset) continue;
        match->placed[{nullptr, matchSection}] = seen.region.base - matchGlobal->offset;
    }
}

std::vector<DeviceMemoryMap::Lookup> DeviceMemoryMap::PendingLookups(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Lookup> lookups;
    auto facts = contexts_.find(context);
    const std::set<CUmodule> none;
    const std::set<CUmodule>& modules = facts == contexts_.end() ? none : facts->second.modules;
    for (auto& [id, cubin] : cubins_) {
        if (cubin.context != context) continue;
        for (size_t s = 0; s < cubin.sections.size(); ++s) {
            auto consider = [&](const void* handle, CUmodule module, CUlibrary library) {
                if (cubin.placed.count({handle, s})) return;
                auto next = cubin.nextGlobal.find({handle, s});
                const size_t global = next == cubin.nextGlobal.end() ? 0 : next->second;
                if (global >= cubin.sections[s].globals.size()) return;
                lookups.push_back(Lookup{module, library, id, s, global, cubin.sections[s].globals[global].name});
            };
            for (CUmodule module : modules) consider(module, module, nullptr);
            for (CUlibrary library : libraries_) consider(library, nullptr, library);
        }
    }
    return lookups;
}

void DeviceMemoryMap::LookupResult(CUcontext context, const Lookup& lookup, std::optional<Found> found) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cubins_.find(lookup.moduleId);
    if (it == cubins_.end() || it->second.context != context || lookup.section >= it->second.sections.size()) return;
    Cubin& cubin = it->second;
    const CubinDataSection& section = cubin.sections[lookup.section];
    if (lookup.global >= section.globals.size()) return;
    const void* handle = lookup.module ? static_cast<const void*>(lookup.module) : static_cast<const void*>(lookup.library);
    size_t& next = cubin.nextGlobal[{handle, lookup.section}];
    next = std::max(next, lookup.global + 1);
    ++cubin.lookups;
    if (!found) return;
    ++cubin.found;
    const CubinGlobal& global = section.globals[lookup.global];
    // Where the driver could not say which allocation holds the variable (allocationSize 0), the size check
    // alone decides.
    const uint64_t base = found->address >= global.offset ? found->address - global.offset : 0;
    if (found->size != global.size || found->address < global.offset ||
        (found->allocationSize != 0 &&
         (base < found->allocationBase || base + section.size > found->allocationBase + found->allocationSize))) {
        ++cubin.rejected;
        return;
    }
    cubin.placed[{handle, lookup.section}] = base;
}

DeviceMemoryMap::SavePlan DeviceMemoryMap::Plan(CUcontext context) const {
    std::lock_guard<std::mutex> lock(mutex_);
    SavePlan plan;
    if (captures_ > 0) {
        plan.unsafe = "a CUDA graph capture is in progress (synchronising the context to save memory would end it)";
        return plan;
    }
    auto facts = contexts_.find(context);
    if (facts != contexts_.end() && facts->second.peerAccess) {
        plan.unsafe = "peer access is enabled (kernels may write another device's memory)";
        return plan;
    }
    if (facts != contexts_.end() && facts->second.arrays > 0) {
        plan.unsafe = "the context has CUDA arrays (kernels may write them through surfaces)";
        return plan;
    }
    for (const auto& [base, allocation] : allocations_) {
        if (allocation.kind == MemoryKind::Device) {
            if (allocation.context == context) plan.regions.push_back({base, allocation.size});
            continue;
        }
        plan.unsafe = std::string("the process has ") + MemoryKindName(allocation.kind);
        plan.regions.clear();
        return plan;
    }
    for (const auto& [id, cubin] : cubins_) {
        if (cubin.context != context) continue;
        for (size_t s = 0; s < cubin.sections.size(); ++s) {
            bool placed = false;
            for (const auto& [key, base] : cubin.placed) {
                if (key.second != s) continue;
                plan.regions.push_back({base, cubin.sections[s].size});
                placed = true;
            }
            if (!placed) {
                plan.unsafe = "the " + cubin.sections[s].name + " variables of a loaded module (CUPTI module " +
                              std::to_string(id) + ", " + std::to_string(cubin.sections[s].size) +
                              " bytes) could not be located (" +
                              std::to_string(facts == contexts_.end() ? 0 : facts->second.modules.size()) +
                              " module(s) and " + std::to_string(libraries_.size()) + " librar(ies) known; " +
                              std::to_string(cubin.lookups) + " lookup(s), " + std::to_string(cubin.found) +
                              " found, " + std::to_string(cubin.rejected) + " rejected)";
                plan.regions.clear();
                return plan;
            }
        }
    }
    if (facts != contexts_.end()) {
        for (const SeenGlobal& global : facts->second.seenGlobals) plan.regions.push_back(global.region);
    }
    // Sorted and without overlaps (a variable the application looked up lies inside its module's section).
    // Regions that merely touch stay apart: one copy must not span two allocations.
    std::sort(plan.regions.begin(), plan.regions.end(),
              [](const MemoryRegion& a, const MemoryRegion& b) { return a.base < b.base || (a.base == b.base && a.size > b.size); });
    std::vector<MemoryRegion> merged;
    for (const MemoryRegion& region : plan.regions) {
        if (!merged.empty() && region.base < merged.back().base + merged.back().size) {
            const uint64_t end = std::max(merged.back().base + merged.back().size, region.base + region.size);
            merged.back().size = end - merged.back().base;
            continue;
        }
        merged.push_back(region);
    }
    plan.regions = std::move(merged);
    for (const MemoryRegion& region : plan.regions) plan.bytes += region.size;
    return plan;
}

size_t DeviceMemoryMap::AllocationCount() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocations_.size();
}

}  // namespace gpaprof::cuda
