// The PM-sampling block's part of a session (gpa_session.h): cumulative samples of its events and trace samples.
// Both write a timestamp at the sample's begin (top of pipe) and at its end (bottom of pipe); at results time the
// two are put on CLOCK_MONOTONIC (gpu_clock_conversion.h, calibrated then) and the GPU's PM samples between them
// are integrated (cumulative: DeviceSampling::Window) or written out (trace: OpenGPA's SPM trace format).
#include <algorithm>
#include <chrono>
#include <cstring>

#include "layers/vulkan/gpa_session.h"
#include "layers/vulkan/gpu_clock_conversion.h"
#include "layers/vulkan/layer_messages.h"
#include "layers/vulkan/pm_block.h"
#include "layers/vulkan/pm_result_encoding.h"
#include "pm_sampling/device_sampling.h"
#include "pm_sampling/trace_coarsening.h"

namespace ogpa::vklayer {

namespace {

// How long results wait for the PM samples of a window's end to be decoded (they come an interval or two after the
// GPU work; the drain thread runs every few ms and results drain at once).
constexpr std::chrono::milliseconds kSampleWait(1000);

bool Late(const std::string& why) { return why.rfind(gpa::pm_sampling::kSamplesLate, 0) == 0; }

std::string SampleName(uint32_t sampleId) { return "sample " + std::to_string(sampleId); }

}  // namespace

bool GpaSession::HasPmSamples() const {
    return std::any_of(samples_.begin(), samples_.end(), [](const Sample& sample) { return sample.pmBegin.has_value(); });
}

VkResult GpaSession::AddPmEvent(const VkGpaPerfCounterAMD& counter, const std::string& which, std::string* problem) const {
    if (!device_.pm.offered()) {
        *problem = which + ": this device does not offer the PM-sampling block (" + device_.pm.absentReason +
                   "); VkPhysicalDeviceGpaPropertiesAMD lists the blocks it offers";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (counter.blockInstance != 0) {
        *problem = which + ": blockInstance " + std::to_string(counter.blockInstance) + " does not exist; every block has one instance";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (counter.eventID >= device_.pm.metrics.size()) {
        *problem = which + ": the PM-sampling block has events 0 to " + std::to_string(device_.pm.metrics.size() - 1) +
                   " (vkEnumerateGpaPerfEventsOPENGPA names them)";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    return VK_SUCCESS;
}

VkResult GpaSession::BeginPmWindow(VkCommandBuffer, const CommandBufferInfo& buffer, Sample* sample, std::string* problem) {
    const QueueFamilyInfo& family = device_.queueFamilies.at(buffer.queueFamily);
    if (family.timestampValidBits == 0) {
        *problem = "queue family " + std::to_string(buffer.queueFamily) + " of this command buffer has no timestamps "
                   "(timestampValidBits is 0), and the PM-sampling block's samples are timed by timestamps";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    const QueryKind timestamp = QueryKind::Of(VK_QUERY_TYPE_TIMESTAMP);
    sample->pmBegin.emplace();
    sample->pmEnd.emplace();
    sample->timestampBits = family.timestampValidBits;
    VkResult result = queries_.Acquire(timestamp, &*sample->pmBegin, problem);
    if (result == VK_SUCCESS) result = queries_.Acquire(timestamp, &*sample->pmEnd, problem);
    return result;
}

void GpaSession::WritePmBegin(VkCommandBuffer commandBuffer, const Sample& sample) {
    device_.next.CmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_.chunks()[sample.pmBegin->chunk].pool,
                                   sample.pmBegin->query);
}

void GpaSession::EndPmWindow(VkCommandBuffer commandBuffer, const Sample& sample) {
    device_.next.CmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_.chunks()[sample.pmEnd->chunk].pool,
                                   sample.pmEnd->query);
}

VkResult GpaSession::BeginTrace(VkCommandBuffer commandBuffer, const CommandBufferInfo& buffer,
                                const VkGpaSampleBeginInfoAMD& info, Sample* sample, std::string* problem) {
    if (info.sqThreadTraceEnable == VK_TRUE) {
        *problem = "thread traces (sqThreadTraceEnable) are not available: no driver the layer runs on exposes SQ thread "
                   "trace hardware to Vulkan (VkPhysicalDeviceGpaFeaturesAMD::sqThreadTracing is VK_FALSE); trace "
                   "samples stream counters of the PM-sampling block only, where it is offered";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (!device_.pm.offered()) {
        *problem = "trace samples are not available on this device: " + device_.pm.absentReason +
                   ". They stream the counters of OpenGPA's PM-sampling block (NVIDIA GPUs, with CUDA and CUPTI; "
                   "VkPhysicalDeviceGpaFeaturesAMD::streamingPerfCounters says where); use timing or cumulative samples";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (info.perfCounterCount == 0 || info.pPerfCounters == nullptr) {
        *problem = "a trace sample needs perfCounterCount > 0 and pPerfCounters (the PM-sampling block's counters to stream)";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    for (uint32_t i = 0; i < info.perfCounterCount; ++i) {
        const VkGpaPerfCounterAMD& counter = info.pPerfCounters[i];
        const std::string which = "pPerfCounters[" + std::to_string(i) + "] (block " +
                                  std::to_string(static_cast<int>(counter.blockType)) + ", event " +
                                  std::to_string(counter.eventID) + ")";
        if (counter.blockType != VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) {
            *problem = which + ": only the PM-sampling block (VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) streams counters in "
                       "trace samples; count the other blocks' events in cumulative samples";
            return VK_ERROR_FEATURE_NOT_PRESENT;
        }
        if (VkResult r = AddPmEvent(counter, which, problem); r != VK_SUCCESS) return r;
        if (std::find(sample->traceEvents.begin(), sample->traceEvents.end(), counter.eventID) != sample->traceEvents.end()) {
            *problem = which + ": asked for twice; a trace names each counter once";
            return VK_ERROR_VALIDATION_FAILED_EXT;
        }
        sample->traceEvents.push_back(counter.eventID);
    }
    // streamingPerfTraceSampleInterval (cycles): the GPU is sampled at one interval for the whole process
    // (DeviceSampling); a longer request is served by joining its samples at results time (PmTraceInterval).
    sample->traceIntervalCycles = info.streamingPerfTraceSampleInterval;
    if (VkResult r = BeginPmWindow(commandBuffer, buffer, sample, problem); r != VK_SUCCESS) return r;
    WritePmBegin(commandBuffer, *sample);
    return VK_SUCCESS;
}

uint32_t GpaSession::SamplesPerTraceSample(uint32_t intervalCycles, const std::string& which) const {
    if (intervalCycles == 0) return 1;
    const uint32_t clockKHz = device_.pm.sampling->gpuClockKHz();
    if (clockKHz == 0) {
        Report(device_.instance, Severity::kWarning,
               "vkGetGpaSessionResultsAMD: " + which + ": streamingPerfTraceSampleInterval is not applied: the GPU's clock "
               "rate is not known; the trace has the sampler's interval (its header's intervalNs)");
        return 1;
    }
    // Cycles of the GPU's rated graphics clock (NVIDIA's PM samples are timed in ns, AMD's SPM in cycles).
    const uint64_t requestedNs = uint64_t(intervalCycles) * 1000000ull / clockKHz;
    return gpa::pm_sampling::SamplesPerBin(requestedNs, device_.pm.sampling->intervalNs());
}

VkResult GpaSession::PmWindow(const Sample& sample, uint64_t* beginNs, uint64_t* endNs, std::string* problem) const {
    uint64_t begin = 0, end = 0;
    VkResult result = ReadQuery(*sample.pmBegin, &begin);
    if (result == VK_SUCCESS) result = ReadQuery(*sample.pmEnd, &end);
    if (result != VK_SUCCESS) return result;  // VK_NOT_READY: not there yet
    GpuClockCalibration calibration;
    if (VkResult r = CalibrateGpuClock(device_, sample.timestampBits, &calibration, problem); r != VK_SUCCESS) return r;
    *beginNs = GpuTicksToMonotonicNs(begin, calibration);
    *endNs = GpuTicksToMonotonicNs(end, calibration);
    return VK_SUCCESS;
}

VkResult GpaSession::ReadPmCounters(uint32_t sampleId, const Sample& sample, std::vector<uint64_t>* values,
                                    std::string* problem) const {
    uint64_t beginNs = 0, endNs = 0;
    if (VkResult r = PmWindow(sample, &beginNs, &endNs, problem); r != VK_SUCCESS) return r;
    const gpa::pm_sampling::WindowResult window = device_.pm.sampling->Window(beginNs, endNs, kSampleWait);
    const std::string which = SampleName(sampleId) + " of " + Name();
    if (window.quality == gpa::pm_sampling::WindowQuality::Refused) {
        if (Late(window.why)) {
            Report(device_.instance, Severity::kInfo, "vkGetGpaSessionResultsAMD: " + which + ": " + window.why + "; ask again");
            return VK_NOT_READY;
        }
        // No value (NaN) for its PM events, never a guess; the sample's other counters (pipeline statistics,
        // occlusion) are still its results. (An error for the whole sample lost them: the seed's example loop failed
        // on an H200 when one short sample's window met a missing PM sample, 2026-11-28.)
        values->insert(values->end(), window.values.size(), EncodePmValue(std::nullopt));
        Report(device_.instance, Severity::kWarning,
               "vkGetGpaSessionResultsAMD: " + which + ": its PM-sampling counters have no value (NaN): " + window.why +
                   " (the sample's window is the GPU's timestamps at its begin and end, on CLOCK_MONOTONIC)");
        return VK_SUCCESS;
    }
    std::string unknown;
    for (size_t m = 0; m < window.values.size(); ++m) {
        values->push_back(EncodePmValue(window.values[m]));
        if (!window.values[m]) unknown += (unknown.empty() ? "" : "; ") + device_.pm.metrics[m] + ": " + window.valueWhy[m];
    }
    bool asked = false;  // only the events asked for make messages
    for (const CounterSlot& slot : sample.counters) asked |= slot.source == EventSource::kPmSampling && !window.values[slot.resultIndex];
    if (window.quality == gpa::pm_sampling::WindowQuality::Approximate) {
        Report(device_.instance, Severity::kWarning,
               "vkGetGpaSessionResultsAMD: " + which + ": its PM-sampling counters are approximate: " + window.why);
    }
    if (asked) {
        Report(device_.instance, Severity::kWarning,
               "vkGetGpaSessionResultsAMD: " + which + ": PM-sampling counters not known (NaN): " + unknown);
    }
    return VK_SUCCESS;
}

VkResult GpaSession::TraceResults(uint32_t sampleId, const Sample& sample, size_t* sizeInBytes, void* data,
                                  std::string* problem) const {
    if (VkResult r = ResultsReady(problem); r != VK_SUCCESS) return r;
    const std::string which = "trace " + SampleName(sampleId) + " of " + Name();
    if (!sample.ended) return *problem = which + " was never ended", VK_ERROR_VALIDATION_FAILED_EXT;
    uint64_t beginNs = 0, endNs = 0;
    if (VkResult r = PmWindow(sample, &beginNs, &endNs, problem); r != VK_SUCCESS) return r;
    bool complete = false;
    const std::vector<gpa::pm_sampling::WindowSample> samples =
        device_.pm.sampling->Samples(beginNs, endNs, kSampleWait, &complete);
    if (samples.empty() || samples.back().endNs < endNs) {
        if (samples.empty() && device_.pm.sampling->Window(beginNs, endNs, std::chrono::milliseconds(0)).quality ==
                                   gpa::pm_sampling::WindowQuality::Refused) {
            const std::string why = device_.pm.sampling->Window(beginNs, endNs, std::chrono::milliseconds(0)).why;
            if (!Late(why)) {
                *problem = which + ": no PM sample meets its window: " + why;
                return VK_ERROR_FEATURE_NOT_PRESENT;
            }
        }
        Report(device_.instance, Severity::kInfo,
               "vkGetGpaSessionResultsAMD: " + which + ": the PM samples of its end are not decoded yet; ask again");
        return VK_NOT_READY;
    }
    const gpa::pm_sampling::TraceData trace = gpa::pm_sampling::CoarsenTrace(
        PmTraceData(device_.pm.metrics, sample.traceEvents, samples, device_.pm.sampling->intervalNs()),
        SamplesPerTraceSample(sample.traceIntervalCycles, which));
    std::string error;
    if (!gpa::pm_sampling::CheckTraceData(trace, &error)) {
        *problem = which + ": its PM samples cannot be written as a trace: " + error;
        return VK_ERROR_UNKNOWN;
    }
    const size_t needed = gpa::pm_sampling::WriteTraceBuffer(trace, nullptr, 0);
    if (data == nullptr) {
        *sizeInBytes = needed;
        return VK_SUCCESS;
    }
    if (*sizeInBytes < needed) {
        *problem = "pData has " + std::to_string(*sizeInBytes) + " bytes but " + which + " has " + std::to_string(needed) +
                   "; nothing was written";
        *sizeInBytes = 0;
        Report(device_.instance, Severity::kWarning, *problem);
        return VK_INCOMPLETE;
    }
    *sizeInBytes = gpa::pm_sampling::WriteTraceBuffer(trace, data, needed);
    if (!complete) {
        Report(device_.instance, Severity::kWarning,
               "vkGetGpaSessionResultsAMD: " + which + ": PM samples are missing inside its window (or reach before the "
               "oldest kept); the trace's flags mark the samples that follow lost ones");
    }
    return VK_SUCCESS;
}

}  // namespace ogpa::vklayer
