// Editing an application's pNext chain for the duration of one call down the chain: the structures of
// VK_AMD_gpa_interface are taken out (the driver and the layers below do not know them), and feature
// booleans the layer needs are switched on. Everything is put back as it was when the editor goes away.
#pragma once

#include <vulkan/vulkan.h>

#include <utility>
#include <vector>

namespace ogpa::vklayer {

class ChainEditor {
public:
    ChainEditor() = default;
    ChainEditor(const ChainEditor&) = delete;
    ChainEditor& operator=(const ChainEditor&) = delete;
    ~ChainEditor() {
        for (auto it = unlinked_.rbegin(); it != unlinked_.rend(); ++it) it->first->pNext = it->second;
        for (auto it = patched_.rbegin(); it != patched_.rend(); ++it) *it->first = it->second;
    }

    // Removes every structure of type `type` from the chain that starts at head->pNext; returns the last one
    // removed (NULL if none).
    template <typename T>
    T* Unlink(const void* head, VkStructureType type) {
        auto* previous = static_cast<VkBaseOutStructure*>(const_cast<void*>(head));
        VkBaseOutStructure* found = nullptr;
        while (previous->pNext != nullptr) {
            VkBaseOutStructure* current = previous->pNext;
            if (current->sType == type) {
                unlinked_.emplace_back(previous, current);
                previous->pNext = current->pNext;
                found = current;
            } else {
                previous = current;
            }
        }
        return reinterpret_cast<T*>(found);
    }

    // Sets *flag to VK_TRUE (in a structure the application owns) until the editor goes away.
    void Enable(const VkBool32* flag) {
        auto* writable = const_cast<VkBool32*>(flag);
        patched_.emplace_back(writable, *writable);
        *writable = VK_TRUE;
    }

private:
    std::vector<std::pair<VkBaseOutStructure*, VkBaseOutStructure*>> unlinked_;  // (previous, removed)
    std::vector<std::pair<VkBool32*, VkBool32>> patched_;
};

// The first structure of type `type` in the chain after `head`, or NULL.
template <typename T>
T* FindInChain(const void* head, VkStructureType type) {
    for (auto* s = static_cast<const VkBaseInStructure*>(head)->pNext; s != nullptr; s = s->pNext) {
        if (s->sType == type) return reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
    }
    return nullptr;
}

}  // namespace ogpa::vklayer
