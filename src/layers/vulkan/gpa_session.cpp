#include "layers/vulkan/gpa_session.h"

#include <bit>
#include <cstring>

#include "layers/vulkan/khr_result_conversion.h"
#include "layers/vulkan/khr_sample_plan.h"
#include "layers/vulkan/layer_messages.h"

namespace ogpa::vklayer {

namespace {

constexpr VkPipelineStageFlags kComputeQueueStages =
    VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
    VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_HOST_BIT |
    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
constexpr VkPipelineStageFlags kCoreStages = 0x1FFFF;  // the VkPipelineStageFlagBits of Vulkan 1.0

// vkCmdWriteTimestamp takes one stage: the latest one of the mask (so the timestamp waits for all of them),
// or TOP_OF_PIPE / BOTTOM_OF_PIPE for an empty mask or stages the command buffer's queue does not have.
VkPipelineStageFlagBits TimestampStage(VkPipelineStageFlags mask, bool pre, bool graphicsQueue) {
    const VkPipelineStageFlagBits fallback = pre ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    mask &= kCoreStages;
    if (!graphicsQueue) mask &= kComputeQueueStages;
    if (mask == 0) return fallback;
    return static_cast<VkPipelineStageFlagBits>(1u << (31 - std::countl_zero(mask)));
}

const char* TypeName(VkGpaSampleTypeAMD type) {
    switch (type) {
        case VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD: return "cumulative";
        case VK_GPA_SAMPLE_TYPE_TRACE_AMD: return "trace";
        case VK_GPA_SAMPLE_TYPE_TIMING_AMD: return "timing";
        default: return "unknown";
    }
}

}  // namespace

GpaSession::GpaSession(DeviceData& device, uint64_t handle) : device_(device), handle_(handle), queries_(device) {}
GpaSession::~GpaSession() = default;

std::string GpaSession::Name() const { return "VkGpaSessionAMD " + std::to_string(handle_); }

VkResult GpaSession::MakeCopyTarget(const GpaSession& source, std::string* problem) {
    if (source.copyResults_ != nullptr) {
        *problem = "secondaryCopySource " + source.Name() + " is itself a copy target; name the session its secondary "
                   "command buffer records into";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (source.state_ != State::kEnded) {
        *problem = "secondaryCopySource " + source.Name() + " must have been begun and ended (vkCmdBeginGpaSessionAMD, "
                   "vkCmdEndGpaSessionAMD) before a copy target is created from it";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (source.queries_.HasPerformanceQueries()) {
        *problem = "secondaryCopySource " + source.Name() + " has samples of VK_KHR_performance_query counters, whose "
                   "results cannot be copied between executions: the copy resets the queries in the command buffer that "
                   "executes the ones that begin them, which Vulkan forbids for performance queries "
                   "(VUID-vkCmdResetQueryPool-firstQuery-02862); sample those counters in primary command buffers";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (source.HasPmSamples()) {
        *problem = "secondaryCopySource " + source.Name() + " has samples of the PM-sampling block (cumulative or trace), "
                   "whose results come from the GPU's PM samples between two timestamps of each execution; copies between "
                   "executions are not supported for them: sample those counters in primary command buffers";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    copyResults_ = std::make_unique<ResultBuffer>(device_);
    const VkResult result = copyResults_->Create(source.queries_, problem);
    if (result != VK_SUCCESS) return result;
    copySource_ = source.handle_;
    samples_ = source.samples_;  // the same sample ids, read from the copied results
    return VK_SUCCESS;
}

VkResult GpaSession::Begin(std::string* problem) {
    if (copyResults_ != nullptr) {
        *problem = Name() + " was created with a secondaryCopySource: it only receives copies "
                   "(vkCmdCopyGpaSessionResultsAMD) and cannot be begun";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (state_ == State::kBegun) return *problem = Name() + " is already begun; end it first", VK_ERROR_VALIDATION_FAILED_EXT;
    if (state_ == State::kEnded) {
        *problem = Name() + " was begun and ended before; reset it with vkResetGpaSessionAMD before beginning it again";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    state_ = State::kBegun;
    return VK_SUCCESS;
}

VkResult GpaSession::End(std::string* problem) {
    if (state_ != State::kBegun) {
        *problem = Name() + " is not begun; call vkCmdBeginGpaSessionAMD first";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    for (size_t id = 0; id < samples_.size(); ++id) {
        if (!samples_[id].ended) {
            *problem = "sample " + std::to_string(id) + " of " + Name() + " is still open; call vkCmdEndGpaSampleAMD first";
            return VK_ERROR_VALIDATION_FAILED_EXT;
        }
    }
    state_ = State::kEnded;
    return VK_SUCCESS;
}

VkResult GpaSession::BeginSample(VkCommandBuffer commandBuffer, CommandBufferInfo& buffer,
                                 const VkGpaSampleBeginInfoAMD& info, uint32_t* sampleId, std::string* problem) {
    if (state_ != State::kBegun) {
        *problem = Name() + (state_ == State::kEnded ? " has ended" : " is not begun") +
                   "; samples are recorded between vkCmdBeginGpaSessionAMD and vkCmdEndGpaSessionAMD";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    Sample sample;
    sample.type = info.sampleType;
    sample.commandBuffer = commandBuffer;
    sample.insideRenderPass = buffer.insideRenderPass;
    sample.renderPassInstance = buffer.renderPassInstance;
    sample.subpass = buffer.subpass;
    VkResult result = VK_SUCCESS;
    switch (info.sampleType) {
        case VK_GPA_SAMPLE_TYPE_TIMING_AMD: result = BeginTiming(commandBuffer, buffer, info, &sample, problem); break;
        case VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD: result = BeginCumulative(commandBuffer, buffer, info, &sample, problem); break;
        case VK_GPA_SAMPLE_TYPE_TRACE_AMD: result = BeginTrace(commandBuffer, buffer, info, &sample, problem); break;
        default:
            *problem = "sampleType " + std::to_string(static_cast<int>(info.sampleType)) + " is not a VkGpaSampleTypeAMD value";
            return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (result != VK_SUCCESS) return result;
    *sampleId = static_cast<uint32_t>(samples_.size());
    samples_.push_back(std::move(sample));
    return VK_SUCCESS;
}

VkResult GpaSession::BeginTiming(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer,
                                 const VkGpaSampleBeginInfoAMD& info, Sample* sample, std::string* problem) {
    const QueueFamilyInfo& family = device_.queueFamilies.at(buffer.queueFamily);
    if (family.timestampValidBits == 0) {
        *problem = "queue family " + std::to_string(buffer.queueFamily) + " of this command buffer has no timestamps "
                   "(timestampValidBits is 0), so timing samples cannot be recorded in it";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    const bool graphics = (family.flags & VK_QUEUE_GRAPHICS_BIT) != 0;
    const QueryKind timestamp = QueryKind::Of(VK_QUERY_TYPE_TIMESTAMP);
    VkResult result = queries_.Acquire(timestamp, &sample->begin, problem);
    if (result == VK_SUCCESS) result = queries_.Acquire(timestamp, &sample->end, problem);
    if (result != VK_SUCCESS) return result;
    sample->postStage = TimestampStage(info.timingPostSample, false, graphics);
    device_.next.CmdWriteTimestamp(commandBuffer, TimestampStage(info.timingPreSample, true, graphics),
                                   queries_.chunks()[sample->begin.chunk].pool, sample->begin.query);
    return VK_SUCCESS;
}

VkResult GpaSession::BeginCumulative(VkCommandBuffer commandBuffer, CommandBufferInfo& buffer,
                                     const VkGpaSampleBeginInfoAMD& info, Sample* sample, std::string* problem) {
    if (info.perfCounterCount == 0 || info.pPerfCounters == nullptr) {
        *problem = "a cumulative sample needs perfCounterCount > 0 and pPerfCounters (the counters to sample)";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    const bool graphics = (device_.queueFamilies.at(buffer.queueFamily).flags & VK_QUEUE_GRAPHICS_BIT) != 0;
    const VkQueryPipelineStatisticFlags statistics = StatisticsForQueue(graphics);
    bool wantsStatistics = false, wantsOcclusion = false, wantsPm = false;
    KhrSamplePlan khr(buffer.queueFamily);
    for (uint32_t i = 0; i < info.perfCounterCount; ++i) {
        const VkGpaPerfCounterAMD& counter = info.pPerfCounters[i];
        const std::string which = "pPerfCounters[" + std::to_string(i) + "] (block " +
                                  std::to_string(static_cast<int>(counter.blockType)) + ", event " +
                                  std::to_string(counter.eventID) + ")";
        CounterSlot slot;
        if (counter.blockType == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) {
            if (VkResult r = AddPmEvent(counter, which, problem); r != VK_SUCCESS) return r;
            slot.source = EventSource::kPmSampling;
            slot.resultIndex = counter.eventID;
            sample->counters.push_back(slot);
            wantsPm = true;
            continue;
        }
        if (counter.blockType == VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA) {
            if (VkResult r = AddKhrEvent(device_, counter, which, &khr, &slot.resultIndex, problem); r != VK_SUCCESS) return r;
            slot.source = EventSource::kKhrPerformance;
            sample->counters.push_back(slot);
            continue;
        }
        const std::optional<EventDefinition> event = FindEvent(device_.counters, counter.blockType, counter.eventID);
        if (!event) {
            bool blockOffered = false;
            for (const VkGpaPerfBlockPropertiesAMD& block : OfferedBlocks(device_.counters)) blockOffered |= block.blockType == counter.blockType;
            *problem = which + (blockOffered ? ": the block has no such event; VkGpaPerfBlockPropertiesAMD::maxEventID is the last one"
                                             : ": this device does not offer the block; VkPhysicalDeviceGpaPropertiesAMD lists the "
                                               "blocks it offers (docs/vulkan_layer.md has their events)");
            return blockOffered ? VK_ERROR_VALIDATION_FAILED_EXT : VK_ERROR_FEATURE_NOT_PRESENT;
        }
        if (counter.blockInstance != 0) {
            *problem = which + ": blockInstance " + std::to_string(counter.blockInstance) + " does not exist; every block has one instance";
            return VK_ERROR_VALIDATION_FAILED_EXT;
        }
        if (event->needsGraphicsQueue && !graphics) {
            *problem = which + " (" + event->name + ") counts graphics work, but this command buffer's queue family has no "
                       "graphics; on a compute queue only SPI event 1 (compute shader invocations) can be counted";
            return VK_ERROR_FEATURE_NOT_PRESENT;
        }
        slot.source = event->source;
        if (event->source == EventSource::kPipelineStatistic) {
            slot.resultIndex = StatisticResultIndex(statistics, event->statistic);
            wantsStatistics = true;
        } else {
            wantsOcclusion = true;
        }
        sample->counters.push_back(slot);
    }
    const bool wantsPerformance = !khr.empty();
    if ((wantsStatistics && buffer.statisticsQueryActive) || (wantsOcclusion && buffer.occlusionQueryActive) ||
        (wantsPerformance && buffer.performanceQueryActive)) {
        *problem = "another cumulative sample is open in this command buffer, and Vulkan allows one active query of each "
                   "type per command buffer; end that sample first (timing samples may overlap)";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (wantsPerformance) {
        if (VkResult r = CheckKhrSample(device_, buffer, khr, queries_.NextPool(khr.kind), problem); r != VK_SUCCESS) return r;
        sample->performance.emplace();
        if (VkResult r = queries_.Acquire(khr.kind, &*sample->performance, problem); r != VK_SUCCESS) return r;
        sample->performanceStorages = khr.storages;
    }
    if (wantsStatistics) {
        sample->statistics.emplace();
        const QueryKind kind = QueryKind::Of(VK_QUERY_TYPE_PIPELINE_STATISTICS, statistics);
        if (VkResult r = queries_.Acquire(kind, &*sample->statistics, problem); r != VK_SUCCESS) return r;
    }
    if (wantsOcclusion) {
        sample->occlusion.emplace();
        if (VkResult r = queries_.Acquire(QueryKind::Of(VK_QUERY_TYPE_OCCLUSION), &*sample->occlusion, problem); r != VK_SUCCESS) return r;
    }
    // The PM window's begin timestamp is written after the queries begin (a performance query of command-buffer
    // scope must be the command buffer's first command), and its end before they end.
    if (wantsPm) {
        if (VkResult r = BeginPmWindow(commandBuffer, buffer, sample, problem); r != VK_SUCCESS) return r;
    }
    // The performance query first (and ended last): counters of command-buffer scope need it to be the
    // command buffer's first and last command.
    if (sample->performance) {
        const VkQueryPool pool = queries_.chunks()[sample->performance->chunk].pool;
        device_.next.CmdBeginQuery(commandBuffer, pool, sample->performance->query, 0);
        buffer.performanceQueryActive = true;
        buffer.performancePool = pool;
    }
    if (sample->statistics) {
        device_.next.CmdBeginQuery(commandBuffer, queries_.chunks()[sample->statistics->chunk].pool, sample->statistics->query, 0);
        buffer.statisticsQueryActive = true;
    }
    if (sample->occlusion) {
        // Precise: the number of samples, not just zero / non-zero.
        const VkQueryControlFlags flags = device_.counters.preciseOcclusion ? VK_QUERY_CONTROL_PRECISE_BIT : 0;
        device_.next.CmdBeginQuery(commandBuffer, queries_.chunks()[sample->occlusion->chunk].pool, sample->occlusion->query, flags);
        buffer.occlusionQueryActive = true;
    }
    if (sample->pmBegin) WritePmBegin(commandBuffer, *sample);
    return VK_SUCCESS;
}

VkResult GpaSession::EndSample(VkCommandBuffer commandBuffer, CommandBufferInfo& buffer, uint32_t sampleId, std::string* problem) {
    if (sampleId >= samples_.size() || copyResults_ != nullptr) {
        *problem = Name() + " has no sample " + std::to_string(sampleId) + "; pass the id vkCmdBeginGpaSampleAMD returned";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    Sample& sample = samples_[sampleId];
    if (sample.ended) return *problem = "sample " + std::to_string(sampleId) + " of " + Name() + " has already ended", VK_ERROR_VALIDATION_FAILED_EXT;
    if (state_ != State::kBegun) return *problem = Name() + " is not begun", VK_ERROR_VALIDATION_FAILED_EXT;
    if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) {  // may end in another command buffer
        device_.next.CmdWriteTimestamp(commandBuffer, sample.postStage, queries_.chunks()[sample.end.chunk].pool, sample.end.query);
        sample.ended = true;
        return VK_SUCCESS;
    }
    if (sample.type == VK_GPA_SAMPLE_TYPE_TRACE_AMD) {  // so may a trace sample
        EndPmWindow(commandBuffer, sample);
        sample.ended = true;
        return VK_SUCCESS;
    }
    if (commandBuffer != sample.commandBuffer) {
        *problem = "cumulative sample " + std::to_string(sampleId) + " of " + Name() + " began in another command buffer; "
                   "cumulative samples begin and end in the same command buffer";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (buffer.insideRenderPass != sample.insideRenderPass ||
        (sample.insideRenderPass && (buffer.renderPassInstance != sample.renderPassInstance || buffer.subpass != sample.subpass))) {
        *problem = "cumulative sample " + std::to_string(sampleId) + " of " + Name() + " began " +
                   (sample.insideRenderPass ? "inside a render pass subpass" : "outside a render pass") +
                   "; Vulkan queries end where they began (the same subpass of the same render pass instance, or outside "
                   "any), so end the sample there";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (sample.pmEnd) EndPmWindow(commandBuffer, sample);
    if (sample.occlusion) {
        device_.next.CmdEndQuery(commandBuffer, queries_.chunks()[sample.occlusion->chunk].pool, sample.occlusion->query);
        buffer.occlusionQueryActive = false;
    }
    if (sample.statistics) {
        device_.next.CmdEndQuery(commandBuffer, queries_.chunks()[sample.statistics->chunk].pool, sample.statistics->query);
        buffer.statisticsQueryActive = false;
    }
    if (sample.performance) {
        device_.next.CmdEndQuery(commandBuffer, queries_.chunks()[sample.performance->chunk].pool, sample.performance->query);
        buffer.performanceQueryActive = false;
    }
    sample.ended = true;
    return VK_SUCCESS;
}

VkResult GpaSession::RecordCopy(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer, std::string* problem) {
    if (copyResults_ == nullptr) {
        *problem = Name() + " is not a copy target: create it with VkGpaSessionCreateInfoAMD::secondaryCopySource set to "
                   "the session the secondary command buffer records into";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    auto found = LayerState::Get().sessions.find(copySource_);
    if (found == LayerState::Get().sessions.end()) {
        *problem = "the secondaryCopySource of " + Name() + " (VkGpaSessionAMD " + std::to_string(copySource_) + ") was destroyed";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    const GpaSession& source = *found->second;
    if (!copyResults_->Matches(source.queries_)) {
        *problem = "the secondaryCopySource of " + Name() + " was reset and recorded again since this session was created; "
                   "create the copy target again from the newly recorded session";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (buffer.insideRenderPass) {
        *problem = "vkCmdCopyGpaSessionResultsAMD into " + Name() + " was recorded inside a render pass; the layer copies "
                   "query results with vkCmdCopyQueryPoolResults, which Vulkan allows only outside render passes";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    copyResults_->RecordCopy(commandBuffer, source.queries_);
    copyRecorded_ = true;
    return VK_SUCCESS;
}

VkResult GpaSession::ReadQuery(QueryRef ref, uint64_t* values) const {
    return copyResults_ != nullptr ? copyResults_->Read(ref, values) : queries_.Read(ref, values);
}

VkResult GpaSession::ReadCumulative(uint32_t sampleId, const Sample& sample, std::vector<uint64_t>* out,
                                    std::string* problem) const {
    uint64_t statistics[16] = {};  // at most one value per VkQueryPipelineStatisticFlagBits
    uint64_t occlusion = 0;
    std::vector<uint64_t> performance;
    VkResult result = VK_SUCCESS;
    if (sample.statistics) result = ReadQuery(*sample.statistics, statistics);
    if (result == VK_SUCCESS && sample.occlusion) result = ReadQuery(*sample.occlusion, &occlusion);
    if (result == VK_SUCCESS && sample.performance) {
        performance.resize(sample.performanceStorages.size());
        result = ReadQuery(*sample.performance, performance.data());
    }
    std::vector<uint64_t> pm;
    if (result == VK_SUCCESS && sample.pmBegin) result = ReadPmCounters(sampleId, sample, &pm, problem);
    if (result != VK_SUCCESS) return result;
    for (const CounterSlot& slot : sample.counters) {
        switch (slot.source) {
            case EventSource::kPipelineStatistic: out->push_back(statistics[slot.resultIndex]); break;
            case EventSource::kOcclusion: out->push_back(occlusion); break;
            case EventSource::kKhrPerformance:
                out->push_back(WidenKhrResult(performance[slot.resultIndex], sample.performanceStorages[slot.resultIndex]));
                break;
            case EventSource::kPmSampling: out->push_back(pm.at(slot.resultIndex)); break;
        }
    }
    return VK_SUCCESS;
}

VkResult GpaSession::ResultsReady(std::string* problem) const {
    if (copyResults_ != nullptr) {
        if (!copyRecorded_) {
            *problem = "no vkCmdCopyGpaSessionResultsAMD into " + Name() + " was recorded since it was created or reset";
            return VK_ERROR_VALIDATION_FAILED_EXT;
        }
        return VK_SUCCESS;
    }
    if (state_ != State::kEnded) {
        *problem = Name() + " has not been ended (vkCmdEndGpaSessionAMD); results exist only for ended sessions";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    return VK_SUCCESS;
}

VkResult GpaSession::Status(std::string* problem) const {
    if (VkResult r = ResultsReady(problem); r != VK_SUCCESS) return r;
    const VkResult result = copyResults_ != nullptr ? copyResults_->AllAvailable() : queries_.AllAvailable();
    if (result < 0) *problem = "reading the query results of " + Name() + " failed with VkResult " + std::to_string(result);
    return result;
}

VkResult GpaSession::Results(uint32_t sampleId, size_t* sizeInBytes, void* data, std::string* problem) const {
    if (sizeInBytes == nullptr) return *problem = "pSizeInBytes is NULL", VK_ERROR_VALIDATION_FAILED_EXT;
    if (sampleId >= samples_.size()) {
        *problem = Name() + " has no sample " + std::to_string(sampleId) + " (it has " + std::to_string(samples_.size()) + ")";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    const Sample& sample = samples_[sampleId];
    if (sample.type == VK_GPA_SAMPLE_TYPE_TRACE_AMD) return TraceResults(sampleId, sample, sizeInBytes, data, problem);
    const size_t needed = sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD ? 2 * sizeof(uint64_t) : sample.counters.size() * sizeof(uint64_t);
    if (data == nullptr) {
        *sizeInBytes = needed;
        return VK_SUCCESS;
    }
    if (*sizeInBytes < needed) {
        *problem = "pData has " + std::to_string(*sizeInBytes) + " bytes but " + TypeName(sample.type) + " sample " +
                   std::to_string(sampleId) + " has " + std::to_string(needed) + "; nothing was written";
        *sizeInBytes = 0;
        Report(device_.instance, Severity::kWarning, *problem);
        return VK_INCOMPLETE;
    }
    if (VkResult r = ResultsReady(problem); r != VK_SUCCESS) return r;
    if (!sample.ended) return *problem = "sample " + std::to_string(sampleId) + " was never ended", VK_ERROR_VALIDATION_FAILED_EXT;
    std::vector<uint64_t> out;
    VkResult result = VK_SUCCESS;
    if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) {
        out.assign(2, 0);
        result = ReadQuery(sample.begin, &out[0]);
        if (result == VK_SUCCESS) result = ReadQuery(sample.end, &out[1]);
    } else {
        result = ReadCumulative(sampleId, sample, &out, problem);
    }
    if (result == VK_NOT_READY) return result;  // not an error: the results are still on their way
    if (result != VK_SUCCESS && !problem->empty()) return result;
    if (result != VK_SUCCESS) {
        *problem = "reading sample " + std::to_string(sampleId) + " of " + Name() + " failed with VkResult " + std::to_string(result);
        return result;
    }
    std::memcpy(data, out.data(), needed);
    *sizeInBytes = needed;
    return VK_SUCCESS;
}

VkResult GpaSession::Reset(std::string*) {
    if (copyResults_ != nullptr) {
        copyResults_->Clear();
        copyRecorded_ = false;
        return VK_SUCCESS;
    }
    queries_.Reset();
    samples_.clear();
    state_ = State::kReady;
    return VK_SUCCESS;
}

}  // namespace ogpa::vklayer
