// TEST FIXTURE, NOT A BACKEND (fixture_state.h says what it is): the device side of the fixture's
// VK_KHR_performance_query. Its query pools live on the host; every command buffer's draws, dispatches and
// query commands on those pools are recorded; a submission runs through what was recorded to total each
// query's work, then submits a fence of the fixture's own, and the totals become the queries' results once
// that fence has signalled. Other query pools and every command go on to the driver as they are.
#include <cstring>
#include <map>
#include <string>

#include "fixture_state.h"

namespace ogpa::vkfixture {

namespace {

FixtureState& State() { return FixtureState::Get(); }

// The device of a dispatchable handle; the caller holds the lock.
DeviceData& Device(const void* dispatchable) { return *State().FindDevice(dispatchable); }

QueryPoolData* Pool(DeviceData& device, VkQueryPool pool) {
    auto it = device.pools.find(pool);
    return it == device.pools.end() ? nullptr : it->second.get();
}

void Record(VkCommandBuffer commandBuffer, Command command) {
    DeviceData& device = Device(commandBuffer);
    device.commandBuffers[commandBuffer].commands.push_back(std::move(command));
}

Command Work(uint64_t draws, uint64_t dispatches, uint64_t vertices, uint64_t instances, uint64_t workgroups) {
    Command command;
    command.work = Tally{draws, dispatches, vertices, instances, workgroups};
    return command;
}

// Runs through a command buffer as the device executes it: `active` holds the queries begun and not yet
// ended, with what they counted so far.
using QueryKey = std::pair<VkQueryPool, uint32_t>;
void Execute(DeviceData& device, VkCommandBuffer commandBuffer, std::map<QueryKey, Tally>& active,
             std::vector<PendingResults::Finished>& finished) {
    auto it = device.commandBuffers.find(commandBuffer);
    if (it == device.commandBuffers.end()) return;
    for (const Command& command : it->second.commands) {
        switch (command.kind) {
            case Command::Kind::kBeginQuery: active[{command.pool, command.query}] = Tally{}; break;
            case Command::Kind::kEndQuery: {
                auto found = active.find({command.pool, command.query});
                if (found == active.end()) break;
                finished.push_back({command.pool, command.query, found->second});
                active.erase(found);
                break;
            }
            case Command::Kind::kResetQueries:
                if (QueryPoolData* pool = Pool(device, command.pool)) {
                    for (uint32_t q = command.query; q < command.query + command.count && q < pool->queries.size(); ++q) pool->queries[q] = {};
                }
                break;
            case Command::Kind::kWork:
                for (auto& [key, tally] : active) tally += command.work;
                break;
            case Command::Kind::kExecuteCommands:
                for (VkCommandBuffer secondary : command.secondaries) Execute(device, secondary, active, finished);
                break;
        }
    }
}

// After the driver accepted a submission of `commandBuffers`: totals of the queries they end, available once
// a fence submitted behind them signals.
void AfterSubmit(DeviceData& device, VkQueue queue, const std::vector<VkCommandBuffer>& commandBuffers) {
    std::map<QueryKey, Tally> active;
    PendingResults pending;
    for (VkCommandBuffer commandBuffer : commandBuffers) Execute(device, commandBuffer, active, pending.finished);
    if (pending.finished.empty()) return;
    VkFenceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    if (device.CreateFence(device.handle, &info, nullptr, &pending.fence) != VK_SUCCESS) return;
    // A submission of no batches signals its fence when all work submitted to the queue before it is done.
    device.QueueSubmit(queue, 0, nullptr, pending.fence);
    device.pending.push_back(std::move(pending));
}

// Hands out the totals of submissions that have completed (waiting for them all when `wait`).
void Retire(DeviceData& device, bool wait) {
    for (auto it = device.pending.begin(); it != device.pending.end();) {
        const VkResult status = wait ? device.WaitForFences(device.handle, 1, &it->fence, VK_TRUE, UINT64_MAX)
                                     : device.GetFenceStatus(device.handle, it->fence);
        if (status != VK_SUCCESS) {
            ++it;
            continue;
        }
        for (const PendingResults::Finished& finished : it->finished) {
            QueryPoolData* pool = Pool(device, finished.pool);
            if (pool == nullptr || finished.query >= pool->queries.size()) continue;
            QueryState& query = pool->queries[finished.query];
            query.values.clear();
            for (uint32_t counter : pool->counters) query.values.push_back(CounterValue(counter, finished.tally));
            query.available = true;
        }
        device.DestroyFence(device.handle, it->fence, nullptr);
        it = device.pending.erase(it);
    }
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireProfilingLockKHR(VkDevice device, const VkAcquireProfilingLockInfoKHR*) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    if (ProfilingLockRefused()) return VK_TIMEOUT;
    Device(device).profilingLockHeld = true;
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL ReleaseProfilingLockKHR(VkDevice device) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Device(device).profilingLockHeld = false;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkQueryPool* pQueryPool) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    if (pCreateInfo->queryType != VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
        return data.CreateQueryPool(device, pCreateInfo, pAllocator, pQueryPool);
    }
    const VkQueryPoolPerformanceCreateInfoKHR* performance = nullptr;
    for (auto* s = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); s != nullptr; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR) {
            performance = reinterpret_cast<const VkQueryPoolPerformanceCreateInfoKHR*>(s);
        }
    }
    if (performance == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    auto pool = std::make_unique<QueryPoolData>();
    pool->queueFamily = performance->queueFamilyIndex;
    pool->counters.assign(performance->pCounterIndices, performance->pCounterIndices + performance->counterIndexCount);
    pool->queries.resize(pCreateInfo->queryCount);
    *pQueryPool = reinterpret_cast<VkQueryPool>(pool.get());
    data.pools[*pQueryPool] = std::move(pool);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyQueryPool(VkDevice device, VkQueryPool queryPool, const VkAllocationCallbacks* pAllocator) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    if (data.pools.erase(queryPool) == 0) data.DestroyQueryPool(device, queryPool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice device, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount,
                                                   size_t dataSize, void* pData, VkDeviceSize stride, VkQueryResultFlags flags) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    QueryPoolData* pool = Pool(data, queryPool);
    if (pool == nullptr) return data.GetQueryPoolResults(device, queryPool, firstQuery, queryCount, dataSize, pData, stride, flags);
    Retire(data, (flags & VK_QUERY_RESULT_WAIT_BIT) != 0);
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < queryCount; ++i) {
        const QueryState& query = pool->queries.at(firstQuery + i);
        if (!query.available) {
            result = VK_NOT_READY;  // never submitted, or not completed yet
            continue;
        }
        std::memcpy(static_cast<char*>(pData) + i * stride, query.values.data(),
                    query.values.size() * sizeof(VkPerformanceCounterResultKHR));
    }
    return result;
}

void ResetOnHost(DeviceData& data, QueryPoolData& pool, uint32_t firstQuery, uint32_t queryCount) {
    (void)data;
    for (uint32_t q = firstQuery; q < firstQuery + queryCount && q < pool.queries.size(); ++q) pool.queries[q] = {};
}

VKAPI_ATTR void VKAPI_CALL ResetQueryPool(VkDevice device, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    if (QueryPoolData* pool = Pool(data, queryPool)) return ResetOnHost(data, *pool, firstQuery, queryCount);
    data.ResetQueryPool(device, queryPool, firstQuery, queryCount);
}

VKAPI_ATTR void VKAPI_CALL ResetQueryPoolEXT(VkDevice device, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    if (QueryPoolData* pool = Pool(data, queryPool)) return ResetOnHost(data, *pool, firstQuery, queryCount);
    data.ResetQueryPoolEXT(device, queryPool, firstQuery, queryCount);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query, VkQueryControlFlags flags) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(commandBuffer);
    if (Pool(data, queryPool) == nullptr) return data.CmdBeginQuery(commandBuffer, queryPool, query, flags);
    Command command;
    command.kind = Command::Kind::kBeginQuery;
    command.pool = queryPool;
    command.query = query;
    Record(commandBuffer, command);
}

VKAPI_ATTR void VKAPI_CALL CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(commandBuffer);
    if (Pool(data, queryPool) == nullptr) return data.CmdEndQuery(commandBuffer, queryPool, query);
    Command command;
    command.kind = Command::Kind::kEndQuery;
    command.pool = queryPool;
    command.query = query;
    Record(commandBuffer, command);
}

VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(commandBuffer);
    if (Pool(data, queryPool) == nullptr) return data.CmdResetQueryPool(commandBuffer, queryPool, firstQuery, queryCount);
    Command command;
    command.kind = Command::Kind::kResetQueries;
    command.pool = queryPool;
    command.query = firstQuery;
    command.count = queryCount;
    Record(commandBuffer, command);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
                                                   uint32_t queryCount, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                                   VkDeviceSize stride, VkQueryResultFlags flags) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(commandBuffer);
    // The fixture reports allowCommandBufferQueryCopies VK_FALSE: a copy from its pools is invalid usage
    // (the validation layer reports it) and copies nothing.
    if (Pool(data, queryPool) != nullptr) return;
    data.CmdCopyQueryPoolResults(commandBuffer, queryPool, firstQuery, queryCount, dstBuffer, dstOffset, stride, flags);
}

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer cb, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex,
                                   uint32_t firstInstance) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Record(cb, Work(1, 0, uint64_t{vertexCount} * instanceCount, instanceCount, 0));
    Device(cb).CmdDraw(cb, vertexCount, instanceCount, firstVertex, firstInstance);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer cb, uint32_t indexCount, uint32_t instanceCount, uint32_t firstIndex,
                                          int32_t vertexOffset, uint32_t firstInstance) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Record(cb, Work(1, 0, uint64_t{indexCount} * instanceCount, instanceCount, 0));
    Device(cb).CmdDrawIndexed(cb, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance);
}

// Indirect draws count as commands; their parameters are in device memory, which the fixture does not read.
#define OGPA_INDIRECT_DRAW(name, params, args)                 \
    VKAPI_ATTR void VKAPI_CALL name(VkCommandBuffer cb params) { \
        std::lock_guard<std::recursive_mutex> lock(State().mutex); \
        Record(cb, Work(1, 0, 0, 0, 0));                         \
        Device(cb).name(cb args);                                \
    }
#define OGPA_INDIRECT_PARAMS , VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount, uint32_t stride
#define OGPA_INDIRECT_ARGS , buffer, offset, drawCount, stride
#define OGPA_COUNT_PARAMS \
    , VkBuffer buffer, VkDeviceSize offset, VkBuffer countBuffer, VkDeviceSize countOffset, uint32_t maxDrawCount, uint32_t stride
#define OGPA_COUNT_ARGS , buffer, offset, countBuffer, countOffset, maxDrawCount, stride
OGPA_INDIRECT_DRAW(CmdDrawIndirect, OGPA_INDIRECT_PARAMS, OGPA_INDIRECT_ARGS)
OGPA_INDIRECT_DRAW(CmdDrawIndexedIndirect, OGPA_INDIRECT_PARAMS, OGPA_INDIRECT_ARGS)
OGPA_INDIRECT_DRAW(CmdDrawIndirectCount, OGPA_COUNT_PARAMS, OGPA_COUNT_ARGS)
OGPA_INDIRECT_DRAW(CmdDrawIndirectCountKHR, OGPA_COUNT_PARAMS, OGPA_COUNT_ARGS)
OGPA_INDIRECT_DRAW(CmdDrawIndexedIndirectCount, OGPA_COUNT_PARAMS, OGPA_COUNT_ARGS)
OGPA_INDIRECT_DRAW(CmdDrawIndexedIndirectCountKHR, OGPA_COUNT_PARAMS, OGPA_COUNT_ARGS)
#undef OGPA_INDIRECT_DRAW

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Record(cb, Work(0, 1, 0, 0, uint64_t{x} * y * z));
    Device(cb).CmdDispatch(cb, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz, uint32_t x, uint32_t y, uint32_t z) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Record(cb, Work(0, 1, 0, 0, uint64_t{x} * y * z));
    Device(cb).CmdDispatchBase(cb, bx, by, bz, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBaseKHR(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz, uint32_t x, uint32_t y,
                                              uint32_t z) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Record(cb, Work(0, 1, 0, 0, uint64_t{x} * y * z));
    Device(cb).CmdDispatchBaseKHR(cb, bx, by, bz, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Record(cb, Work(0, 1, 0, 0, 0));
    Device(cb).CmdDispatchIndirect(cb, buffer, offset);
}

VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer cb, uint32_t count, const VkCommandBuffer* pCommandBuffers) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    Command command;
    command.kind = Command::Kind::kExecuteCommands;
    command.secondaries.assign(pCommandBuffers, pCommandBuffers + count);
    Record(cb, command);
    Device(cb).CmdExecuteCommands(cb, count, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    const VkResult result = data.AllocateCommandBuffers(device, pAllocateInfo, pCommandBuffers);
    if (result != VK_SUCCESS) return result;
    for (uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) {
        data.commandBuffers[pCommandBuffers[i]] = CommandBufferData{pAllocateInfo->commandPool, {}};
    }
    return result;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t count, const VkCommandBuffer* pCommandBuffers) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    for (uint32_t i = 0; i < count; ++i) data.commandBuffers.erase(pCommandBuffers[i]);
    data.FreeCommandBuffers(device, pool, count, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo* pBeginInfo) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(cb);
    data.commandBuffers[cb].commands.clear();
    return data.BeginCommandBuffer(cb, pBeginInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer cb, VkCommandBufferResetFlags flags) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(cb);
    data.commandBuffers[cb].commands.clear();
    return data.ResetCommandBuffer(cb, flags);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice device, VkCommandPool pool, VkCommandPoolResetFlags flags) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    for (auto& [handle, buffer] : data.commandBuffers) {
        if (buffer.pool == pool) buffer.commands.clear();
    }
    return data.ResetCommandPool(device, pool, flags);
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool pool, const VkAllocationCallbacks* pAllocator) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(device);
    std::erase_if(data.commandBuffers, [&](const auto& entry) { return entry.second.pool == pool; });
    data.DestroyCommandPool(device, pool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo* pSubmits, VkFence fence) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(queue);
    const VkResult result = data.QueueSubmit(queue, submitCount, pSubmits, fence);
    if (result != VK_SUCCESS) return result;
    std::vector<VkCommandBuffer> commandBuffers;
    for (uint32_t i = 0; i < submitCount; ++i) {
        commandBuffers.insert(commandBuffers.end(), pSubmits[i].pCommandBuffers, pSubmits[i].pCommandBuffers + pSubmits[i].commandBufferCount);
    }
    AfterSubmit(data, queue, commandBuffers);
    return result;
}

std::vector<VkCommandBuffer> CommandBuffersOf(uint32_t submitCount, const VkSubmitInfo2* pSubmits) {
    std::vector<VkCommandBuffer> commandBuffers;
    for (uint32_t i = 0; i < submitCount; ++i) {
        for (uint32_t j = 0; j < pSubmits[i].commandBufferInfoCount; ++j) {
            commandBuffers.push_back(pSubmits[i].pCommandBufferInfos[j].commandBuffer);
        }
    }
    return commandBuffers;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2* pSubmits, VkFence fence) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(queue);
    const VkResult result = data.QueueSubmit2(queue, submitCount, pSubmits, fence);
    if (result == VK_SUCCESS) AfterSubmit(data, queue, CommandBuffersOf(submitCount, pSubmits));
    return result;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2KHR(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2* pSubmits, VkFence fence) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData& data = Device(queue);
    const VkResult result = data.QueueSubmit2KHR(queue, submitCount, pSubmits, fence);
    if (result == VK_SUCCESS) AfterSubmit(data, queue, CommandBuffersOf(submitCount, pSubmits));
    return result;
}

struct Hook {
    const char* name;
    PFN_vkVoidFunction function;
};
#define OGPA_HOOK(name) Hook{"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name)}
const Hook kDeviceHooks[] = {
    OGPA_HOOK(AcquireProfilingLockKHR),
    OGPA_HOOK(ReleaseProfilingLockKHR),
    OGPA_HOOK(CreateQueryPool),
    OGPA_HOOK(DestroyQueryPool),
    OGPA_HOOK(GetQueryPoolResults),
    OGPA_HOOK(ResetQueryPool),
    OGPA_HOOK(ResetQueryPoolEXT),
    OGPA_HOOK(CmdBeginQuery),
    OGPA_HOOK(CmdEndQuery),
    OGPA_HOOK(CmdResetQueryPool),
    OGPA_HOOK(CmdCopyQueryPoolResults),
    OGPA_HOOK(CmdDraw),
    OGPA_HOOK(CmdDrawIndexed),
    OGPA_HOOK(CmdDrawIndirect),
    OGPA_HOOK(CmdDrawIndexedIndirect),
    OGPA_HOOK(CmdDrawIndirectCount),
    OGPA_HOOK(CmdDrawIndirectCountKHR),
    OGPA_HOOK(CmdDrawIndexedIndirectCount),
    OGPA_HOOK(CmdDrawIndexedIndirectCountKHR),
    OGPA_HOOK(CmdDispatch),
    OGPA_HOOK(CmdDispatchBase),
    OGPA_HOOK(CmdDispatchBaseKHR),
    OGPA_HOOK(CmdDispatchIndirect),
    OGPA_HOOK(CmdExecuteCommands),
    OGPA_HOOK(AllocateCommandBuffers),
    OGPA_HOOK(FreeCommandBuffers),
    OGPA_HOOK(BeginCommandBuffer),
    OGPA_HOOK(ResetCommandBuffer),
    OGPA_HOOK(ResetCommandPool),
    OGPA_HOOK(DestroyCommandPool),
    OGPA_HOOK(QueueSubmit),
    OGPA_HOOK(QueueSubmit2),
    OGPA_HOOK(QueueSubmit2KHR),
};
#undef OGPA_HOOK

}  // namespace

PFN_vkVoidFunction FindDeviceHook(const char* name) {
    for (const Hook& hook : kDeviceHooks) {
        if (std::strcmp(hook.name, name) == 0) return hook.function;
    }
    return nullptr;
}

void ReleaseDeviceResources(DeviceData& device) {
    // vkDestroyDevice requires the device's work to be complete, so the fixture's fences have signalled.
    for (const PendingResults& pending : device.pending) device.DestroyFence(device.handle, pending.fence, nullptr);
    device.pending.clear();
    device.pools.clear();
    device.commandBuffers.clear();
}

}  // namespace ogpa::vkfixture
