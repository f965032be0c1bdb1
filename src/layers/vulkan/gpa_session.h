// One VkGpaSessionAMD: its state (ready -> begun -> ended -> reset -> ready), its samples and their queries.
//
// A timing sample is two timestamp queries (vkCmdWriteTimestamp at timingPreSample / timingPostSample);
// its results are the two raw timestamps. A cumulative sample is one pipeline statistics query, one
// occlusion query and/or one VK_KHR_performance_query query (khr_sample_plan.h) spanning the sample; its
// results are one 64-bit value per requested counter, in the order of pPerfCounters (a performance
// counter's value widened as khr_result_conversion.h says; a PM-sampling block's metric integrated between two
// timestamps, pm_result_encoding.h). A trace sample (PM-sampling block only) is two timestamps; its results are
// OpenGPA's SPM trace buffer of the PM samples between them. A session created with secondaryCopySource holds no queries of its own: it
// receives the source's results through vkCmdCopyGpaSessionResultsAMD (see result_buffer.h).
//
// Every method runs under the layer's lock and says in *problem why it refused.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layers/vulkan/layer_state.h"
#include "layers/vulkan/query_arena.h"
#include "layers/vulkan/result_buffer.h"

namespace ogpa::vklayer {

class GpaSession {
public:
    GpaSession(DeviceData& device, uint64_t handle);
    ~GpaSession();
    GpaSession(const GpaSession&) = delete;
    GpaSession& operator=(const GpaSession&) = delete;

    DeviceData& device() const { return device_; }
    uint64_t handle() const { return handle_; }
    std::string Name() const;

    // Makes this session a copy target of `source` (its samples, and a buffer for their results).
    VkResult MakeCopyTarget(const GpaSession& source, std::string* problem);

    VkResult Begin(std::string* problem);
    VkResult End(std::string* problem);
    VkResult BeginSample(VkCommandBuffer commandBuffer, CommandBufferInfo& buffer, const VkGpaSampleBeginInfoAMD& info,
                         uint32_t* sampleId, std::string* problem);
    VkResult EndSample(VkCommandBuffer commandBuffer, CommandBufferInfo& buffer, uint32_t sampleId, std::string* problem);
    // Records the copy of the source's results into this (copy target) session.
    VkResult RecordCopy(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer, std::string* problem);

    VkResult Status(std::string* problem) const;
    VkResult Results(uint32_t sampleId, size_t* sizeInBytes, void* data, std::string* problem) const;
    VkResult Reset(std::string* problem);

private:
    enum class State { kReady, kBegun, kEnded };

    struct CounterSlot {
        EventSource source = EventSource::kOcclusion;
        uint32_t resultIndex = 0;  // within the pipeline statistics (or performance) query's results
    };
    struct Sample {
        VkGpaSampleTypeAMD type = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
        VkCommandBuffer commandBuffer = VK_NULL_HANDLE;  // where it began
        bool insideRenderPass = false;
        uint64_t renderPassInstance = 0;
        uint32_t subpass = 0;
        bool ended = false;
        VkPipelineStageFlagBits postStage = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
        QueryRef begin, end;                                 // timing
        std::optional<QueryRef> statistics, occlusion, performance;       // cumulative
        std::vector<VkPerformanceCounterStorageKHR> performanceStorages;  // of the performance query's counters
        std::vector<CounterSlot> counters;                                // cumulative, in pPerfCounters order
        // The PM-sampling block's window (cumulative samples of its events, trace samples): two timestamps.
        std::optional<QueryRef> pmBegin, pmEnd;
        uint32_t timestampBits = 64;       // of the queue family that writes them
        std::vector<uint32_t> traceEvents;  // trace samples: the PM block's events, in pPerfCounters order
        uint32_t traceIntervalCycles = 0;   // trace samples: streamingPerfTraceSampleInterval
    };

    VkResult BeginTiming(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer, const VkGpaSampleBeginInfoAMD& info,
                         Sample* sample, std::string* problem);
    VkResult BeginCumulative(VkCommandBuffer commandBuffer, CommandBufferInfo& buffer, const VkGpaSampleBeginInfoAMD& info,
                             Sample* sample, std::string* problem);
    VkResult ReadQuery(QueryRef ref, uint64_t* values) const;
    VkResult ReadCumulative(uint32_t sampleId, const Sample& sample, std::vector<uint64_t>* out, std::string* problem) const;
    // The PM-sampling block's part (pm_samples.cpp).
    VkResult BeginTrace(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer, const VkGpaSampleBeginInfoAMD& info,
                        Sample* sample, std::string* problem);
    VkResult AddPmEvent(const VkGpaPerfCounterAMD& counter, const std::string& which, std::string* problem) const;
    // Acquires the window's two timestamps (written by WritePmBegin and EndPmWindow).
    VkResult BeginPmWindow(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer, Sample* sample, std::string* problem);
    void WritePmBegin(VkCommandBuffer commandBuffer, const Sample& sample);
    void EndPmWindow(VkCommandBuffer commandBuffer, const Sample& sample);
    VkResult PmWindow(const Sample& sample, uint64_t* beginNs, uint64_t* endNs, std::string* problem) const;
    // How many PM samples make one of a trace sample's streamingPerfTraceSampleInterval (1: the sampler's own).
    uint32_t SamplesPerTraceSample(uint32_t intervalCycles, const std::string& which) const;
    VkResult ReadPmCounters(uint32_t sampleId, const Sample& sample, std::vector<uint64_t>* values, std::string* problem) const;
    VkResult TraceResults(uint32_t sampleId, const Sample& sample, size_t* sizeInBytes, void* data, std::string* problem) const;
    bool HasPmSamples() const;
    VkResult ResultsReady(std::string* problem) const;

    DeviceData& device_;
    const uint64_t handle_;
    State state_ = State::kReady;
    QueryArena queries_;
    std::vector<Sample> samples_;  // sample id = index
    // Copy targets only.
    uint64_t copySource_ = 0;
    std::unique_ptr<ResultBuffer> copyResults_;
    bool copyRecorded_ = false;
};

}  // namespace ogpa::vklayer
