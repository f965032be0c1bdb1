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

void DeviceMemoryMap::GlobalSeen(CUcontext context, uint64_t base, uint64_t size) {
    if (base == 0 || size == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<MemoryRegion>& seen = contexts_[context].seenGlobals;
    const MemoryRegion region{base, size};
    if (std::find(seen.begin(), seen.end(), region) == seen.end()) seen.push_back(region);
}

std::vector<DeviceMemoryMap::Lookup> DeviceMemoryMap::PendingLookups(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Lookup> lookups;
    auto facts = contexts_.find(context);
    if (facts == contexts_.end()) return lookups;
    for (auto& [id, cubin] : cubins_) {
        if (cubin.context != context) continue;
        for (size_t s = 0; s < cubin.sections.size(); ++s) {
            for (CUmodule module : facts->second.modules) {
                if (cubin.placed.count({module, s})) continue;
                auto next = cubin.nextGlobal.find({module, s});
                const size_t global = next == cubin.nextGlobal.end() ? 0 : next->second;
                if (global >= cubin.sections[s].globals.size()) continue;
                lookups.push_back(Lookup{module, id, s, global, cubin.sections[s].globals[global].name});
            }
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
    size_t& next = cubin.nextGlobal[{lookup.module, lookup.section}];
    next = std::max(next, lookup.global + 1);
    if (!found) return;
    const CubinGlobal& global = section.globals[lookup.global];
    if (found->size != global.size || found->address < global.offset) return;
    const uint64_t base = found->address - global.offset;
    if (base < found->allocationBase || base + section.size > found->allocationBase + found->allocationSize) return;
    cubin.placed[{lookup.module, lookup.section}] = base;
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
                              " bytes) could not be located";
                plan.regions.clear();
                return plan;
            }
        }
    }
    if (facts != contexts_.end()) {
        for (const MemoryRegion& global : facts->second.seenGlobals) plan.regions.push_back(global);
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
