#include "tools/gpaprof/cuda/device_memory_map.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

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

void DeviceMemoryMap::Allocated(CUcontext context, MemoryKind kind, uint64_t base, uint64_t size, MemoryOwner owner) {
    if (base == 0 || size == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    allocations_[base] = Allocation{context, kind, size, owner};
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

void DeviceMemoryMap::ContextDestroyed(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::erase_if(allocations_, [&](const auto& entry) { return entry.second.context == context; });
    std::erase_if(cubins_, [&](const auto& entry) { return entry.second.context == context; });
    contexts_.erase(context);
}

void DeviceMemoryMap::CubinLoaded(CUcontext context, uint32_t moduleId, std::vector<CubinDataSection> sections,
                                  std::optional<std::vector<std::string>> functions) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cubin cubin;
    cubin.context = context;
    cubin.sections = std::move(sections);
    if (functions) cubin.functions.emplace(std::make_move_iterator(functions->begin()), std::make_move_iterator(functions->end()));
    cubins_[{context, moduleId}] = std::move(cubin);
    PlaceBySeenNamesLocked(context);
}

void DeviceMemoryMap::CubinUnloaded(CUcontext context, uint32_t moduleId) {
    std::lock_guard<std::mutex> lock(mutex_);
    cubins_.erase({context, moduleId});
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
            cubin.found.erase({module, s});
            cubin.tried.erase({module, s});
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
            cubin.found.erase({library, s});
            cubin.tried.erase({library, s});
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
        // The cubins of the context with a variable of this name and size: only an unambiguous one counts.
        Cubin* match = nullptr;
        size_t matchSection = 0, matchGlobal = 0;
        int matches = 0;
        for (auto& [id, cubin] : cubins_) {
            if (cubin.context != context) continue;
            for (size_t s = 0; s < cubin.sections.size(); ++s) {
                for (size_t g = 0; g < cubin.sections[s].globals.size(); ++g) {
                    const CubinGlobal& global = cubin.sections[s].globals[g];
                    if (global.name != seen.name || global.size != seen.region.size) continue;
                    ++matches;
                    match = &cubin;
                    matchSection = s;
                    matchGlobal = g;
                }
            }
        }
        if (matches != 1) continue;
        std::vector<std::optional<uint64_t>>& found = match->found[{nullptr, matchSection}];
        found.resize(match->sections[matchSection].globals.size());
        found[matchGlobal] = seen.region.base;
        DecideLocked(match, nullptr, matchSection);
    }
}

void DeviceMemoryMap::DecideLocked(Cubin* cubin, const void* handle, size_t section) {
    const CubinDataSection& data = cubin->sections[section];
    const std::vector<std::optional<uint64_t>>& found = cubin->found[{handle, section}];
    // A name the section has twice (linked device code can keep two local symbols of one name) is found once, at
    // one of the two offsets: it says nothing about the layout.
    std::map<std::string_view, int> uses;
    bool ambiguous = false;
    for (const CubinGlobal& global : data.globals) ambiguous = ++uses[global.name] > 1 || ambiguous;
    size_t count = 0;
    std::map<uint64_t, size_t> bases;  // the section's base each unambiguous variable implies, and how many agree
    for (size_t g = 0; g < found.size() && g < data.globals.size(); ++g) {
        if (!found[g]) continue;
        ++count;
        if (uses[data.globals[g].name] > 1) continue;
        ++bases[*found[g] >= data.globals[g].offset ? *found[g] - data.globals[g].offset : ~uint64_t{0}];
    }
    size_t agreeing = 0;
    for (const auto& [base, n] : bases) agreeing = std::max(agreeing, n);
    std::vector<MemoryRegion> regions;
    if (bases.size() == 1 && bases.begin()->first != ~uint64_t{0} && agreeing >= 2) {
        regions.push_back({bases.begin()->first, data.size});  // two variables agree: the driver kept the layout
    } else if (count == data.globals.size() && count > 0 && !ambiguous) {
        // (Not with a name twice: both would be saved at the one address found.)
        for (size_t g = 0; g < data.globals.size(); ++g) regions.push_back({*found[g], data.globals[g].size});
    }
    if (regions.empty()) {
        if (count > 0) {
            ++cubin->misplaced;
            cubin->bestAgreement = std::max(cubin->bestAgreement, static_cast<uint32_t>(agreeing));
        }
        return;
    }
    cubin->placed[{handle, section}] = std::move(regions);
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
                auto tried = cubin.tried.find({handle, s});
                const size_t global = tried == cubin.tried.end() ? 0 : tried->second;
                if (global >= cubin.sections[s].globals.size()) return;
                lookups.push_back(Lookup{module, library, id.second, s, global, cubin.sections[s].globals[global].name});
            };
            for (CUmodule module : modules) consider(module, module, nullptr);
            for (CUlibrary library : libraries_) consider(library, nullptr, library);
        }
    }
    return lookups;
}

void DeviceMemoryMap::LookupResult(CUcontext context, const Lookup& lookup, std::optional<Found> found) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cubins_.find({context, lookup.moduleId});
    if (it == cubins_.end() || it->second.context != context || lookup.section >= it->second.sections.size()) return;
    Cubin& cubin = it->second;
    const CubinDataSection& section = cubin.sections[lookup.section];
    if (lookup.global >= section.globals.size()) return;
    const void* handle = lookup.module ? static_cast<const void*>(lookup.module) : static_cast<const void*>(lookup.library);
    size_t& tried = cubin.tried[{handle, lookup.section}];
    if (lookup.global != tried) return;  // answered already
    tried = lookup.global + 1;
    ++cubin.lookups;
    std::vector<std::optional<uint64_t>>& addresses = cubin.found[{handle, lookup.section}];
    addresses.resize(section.globals.size());
    // Only a variable of the size the cubin gives is this cubin's (another module may have one of that name).
    if (found && found->size == section.globals[lookup.global].size) {
        ++cubin.hits;
        addresses[lookup.global] = found->address;
    }
    if (tried == section.globals.size()) DecideLocked(&cubin, handle, lookup.section);
}

DeviceMemoryMap::SavePlan DeviceMemoryMap::Plan(CUcontext context, const std::vector<uint64_t>* pinnedByArguments,
                                                const std::vector<std::string>* kernels) const {
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
        if (allocation.owner == MemoryOwner::CommunicationLibrary) {
            ++plan.communicationAllocations;
            continue;
        }
        if (allocation.kind == MemoryKind::Device) {
            if (allocation.context == context) plan.regions.push_back({base, allocation.size});
            continue;
        }
        const bool host = allocation.kind == MemoryKind::HostPinned || allocation.kind == MemoryKind::HostRegistered;
        if (host && pinnedByArguments) {
            const uint64_t end = base + allocation.size;
            const auto named = std::find_if(pinnedByArguments->begin(), pinnedByArguments->end(),
                                            [&](uint64_t word) { return word >= base && word < end; });
            // Named: saved and restored like device memory (the device reaches it at the same address).
            if (named != pinnedByArguments->end()) plan.regions.push_back({base, allocation.size});
            continue;
        }
        plan.unsafe = std::string("the process has ") + MemoryKindName(allocation.kind);
        plan.regions.clear();
        return plan;
    }
    // Whether every kernel is known to be defined by a module of the context: only then may the others go unlocated.
    auto defines = [&](const Cubin& cubin) {
        return std::any_of(kernels->begin(), kernels->end(), [&](const std::string& k) { return cubin.functions->contains(k); });
    };
    bool kernelModulesKnown = kernels && !kernels->empty();
    std::string_view undefinedKernel;  // for the reason
    for (size_t k = 0; kernelModulesKnown && k < kernels->size(); ++k) {
        undefinedKernel = (*kernels)[k];
        kernelModulesKnown = std::any_of(cubins_.begin(), cubins_.end(), [&](const auto& entry) {
            return entry.second.context == context && entry.second.functions && entry.second.functions->contains((*kernels)[k]);
        });
    }
    auto whyNeeded = [&](const Cubin& cubin) -> std::string {
        if (!kernels || kernels->empty()) return {};
        if (!kernelModulesKnown) {
            return "; needed because no loaded module is known to define the kernel " +
                   (undefinedKernel.empty() ? std::string("(its name unknown)") : std::string(undefinedKernel.substr(0, 120)));
        }
        return cubin.functions ? "; it defines a kernel being replayed" : "; its functions are not known";
    };
    for (const auto& [id, cubin] : cubins_) {
        if (cubin.context != context) continue;
        const bool needed = !kernelModulesKnown || !cubin.functions || defines(cubin);
        for (size_t s = 0; s < cubin.sections.size(); ++s) {
            bool placed = false;
            for (const auto& [key, regions] : cubin.placed) {
                if (key.second != s) continue;
                plan.regions.insert(plan.regions.end(), regions.begin(), regions.end());
                placed = true;
            }
            if (!placed && needed) {
                plan.unsafe = "the " + cubin.sections[s].name + " variables of a loaded module (CUPTI module " +
                              std::to_string(id.second) + ", " + std::to_string(cubin.sections[s].size) +
                              " bytes) could not be located (" +
                              std::to_string(facts == contexts_.end() ? 0 : facts->second.modules.size()) +
                              " module(s) and " + std::to_string(libraries_.size()) + " librar(ies) known; " +
                              std::to_string(cubin.lookups) + " lookup(s), " + std::to_string(cubin.hits) +
                              " found, " + std::to_string(cubin.misplaced) + " inconsistent, at most " +
                              std::to_string(cubin.bestAgreement) + " at the cubin's offsets from one address; " +
                              std::to_string(cubin.sections[s].globals.size()) + " variable(s) named in the cubin" +
                              whyNeeded(cubin) +
                              ")";
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

DeviceMemoryMap::SavePlan DeviceMemoryMap::PlanForLaunches(
    CUcontext context, const std::function<std::vector<std::string>()>& kernels,
    const std::function<std::optional<std::vector<uint64_t>>()>& argumentWords) const {
    if (!HasCommunicationMemory()) return Plan(context);
    const std::optional<std::vector<uint64_t>> words = argumentWords();
    const std::vector<std::string> names = kernels();
    return Plan(context, words ? &*words : nullptr, &names);  // unread arguments: pinned memory still refuses
}

std::vector<uint64_t> ArgumentWords(const std::vector<uint8_t>& arguments, const std::vector<size_t>& offsets) {
    std::vector<uint64_t> words;
    std::vector<size_t> starts = offsets;
    if (starts.empty() && !arguments.empty()) starts.push_back(0);  // one parameter buffer
    for (size_t p = 0; p < starts.size(); ++p) {
        const size_t end = p + 1 < starts.size() ? starts[p + 1] : arguments.size();
        for (size_t at = starts[p]; at + sizeof(uint64_t) <= end; at += sizeof(uint64_t)) {
            uint64_t word = 0;
            std::memcpy(&word, arguments.data() + at, sizeof word);
            words.push_back(word);
        }
    }
    return words;
}

size_t DeviceMemoryMap::AllocationCount() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocations_.size();
}

bool DeviceMemoryMap::HasCommunicationMemory() const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [base, allocation] : allocations_) {
        if (allocation.owner == MemoryOwner::CommunicationLibrary) return true;
    }
    return false;
}

}  // namespace gpaprof::cuda
