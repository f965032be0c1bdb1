// The PM-sampling block measuring known DRAM writes on an NVIDIA GPU (run by tools/device/gpu_vulkan_tests.sh;
// skipped with the layer's reason where the block is absent):
//  (a) a trace sample around N fills of a 256 MiB buffer: dram__bytes_write.sum over its samples = N x 256 MiB, at
//      the sampler's interval and at a longer streamingPerfTraceSampleInterval (samples joined);
//  (b) a cumulative sample around compute dispatches writing a 256 MiB buffer R times: R x 256 MiB;
//  (c) a cumulative sample around R full-screen draws into an 8192 x 8192 RGBA8 target: R x 256 MiB.
// Within 5% each. Device-wide: another process's work on the GPU would be in the figures.
#include "pm_gpu_fixture.h"
#include "pm_sampling/trace_buffer.h"
#include "samples/vulkan/shaders/spirv_shaders.h"

namespace ogpa::vktest {
namespace {

constexpr const char* kWrites = "dram__bytes_write.sum";
constexpr const char* kReads = "dram__bytes_read.sum";
constexpr VkDeviceSize kBufferBytes = 256 * kMiB;

void Serialize(VkCommandBuffer cb, VkPipelineStageFlags stage, VkAccessFlags access) {
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = access;
    barrier.dstAccessMask = access;
    vkCmdPipelineBarrier(cb, stage, stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// A trace sample around `fills` fills of a 256 MiB buffer, asking for `intervalCycles` between samples.
struct FillTrace {
    gpa::pm_sampling::TraceData trace;
    gpa::pm_sampling::TraceBufferHeader header;
    double written = 0, read = 0;
};

class PmSamplingGpu : public PmGpuTest {
protected:
    void TraceFills(uint32_t fills, uint32_t intervalCycles, FillTrace* out) {
        const VkBuffer buffer = DeviceBuffer(kBufferBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        const std::vector<VkGpaPerfCounterAMD> counters = {Counter(kWrites), Counter(kReads)};
        VkGpaSessionAMD session = NewSession();
        VkCommandBuffer cb = env().Begin();
        ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS) << LastMessage();
        VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
        info.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
        info.streamingPerfTraceSampleInterval = intervalCycles;
        uint32_t sample = 0;
        ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
        for (uint32_t i = 0; i < fills; ++i) {
            vkCmdFillBuffer(cb, buffer, 0, VK_WHOLE_SIZE, i);
            Serialize(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        }
        gpa().CmdEndGpaSample(cb, session, sample);
        ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
        env().SubmitAndWait(cb);
        std::vector<uint8_t> bytes;
        ASSERT_EQ(ResultsWhenReady(session, sample, &bytes), VK_SUCCESS) << LastMessage();
        std::string error;
        const auto trace = gpa::pm_sampling::ReadTraceBuffer(bytes.data(), bytes.size(), &error, &out->header);
        ASSERT_TRUE(trace) << error;
        ASSERT_EQ(trace->counters, (std::vector<std::string>{kWrites, kReads}));
        ASSERT_FALSE(trace->samples.empty());
        out->trace = *trace;
        for (const gpa::pm_sampling::TraceSample& s : trace->samples) {
            if (!std::isnan(s.values[0])) out->written += s.values[0];
            if (!std::isnan(s.values[1])) out->read += s.values[1];
        }
    }
};

TEST_F(PmSamplingGpu, TraceSampleOfBufferFillsHoldsTheirBytes) {
    constexpr uint32_t kFills = 80;  // 20 GiB: several ms on an H200
    FillTrace fills;
    // 100,000 cycles: about 50 us at an H100's or H200's 1,980 MHz, finer than the sampler's 100 us: its own is used.
    ASSERT_NO_FATAL_FAILURE(TraceFills(kFills, 100000, &fills));
    const double expected = double(kFills) * double(kBufferBytes);
    const double spanMs = double(fills.header.lastSampleNs - fills.header.firstSampleNs) / 1e6;
    Figure("vulkan_pm_trace_fill_dram_write", fills.written, expected,
           "samples=" + std::to_string(fills.trace.samples.size()) + " interval_ns=" + std::to_string(fills.header.intervalNs) +
               " span_ms=" + std::to_string(spanMs) + " dram_read=" + std::to_string(fills.read) +
               " flags=" + std::to_string(fills.header.flags));
    EXPECT_NEAR(fills.written / expected, 1.0, 0.05);
    EXPECT_EQ(fills.header.flags & gpa::pm_sampling::kTraceTruncated, 0u);
    EXPECT_GT(fills.trace.samples.size(), 4u) << "a trace of several ms at the default 100 us";
}

// streamingPerfTraceSampleInterval longer than the sampler's: 800,000 cycles, about 400 us at 1,980 MHz, so about
// four of the sampler's samples in each of the trace's; the bytes the same.
TEST_F(PmSamplingGpu, TraceSampleAtALongerIntervalJoinsSamplesAndKeepsTheBytes) {
    constexpr uint32_t kFills = 80;
    FillTrace fills;
    ASSERT_NO_FATAL_FAILURE(TraceFills(kFills, 800000, &fills));
    const double expected = double(kFills) * double(kBufferBytes);
    Figure("vulkan_pm_trace_fill_joined_dram_write", fills.written, expected,
           "samples=" + std::to_string(fills.trace.samples.size()) + " interval_ns=" + std::to_string(fills.header.intervalNs));
    EXPECT_NEAR(fills.written / expected, 1.0, 0.05);
    EXPECT_GT(fills.header.intervalNs, 100000u) << "a multiple of the sampler's 100 us";
    EXPECT_EQ(fills.header.intervalNs % 100000u, 0u);
    for (const gpa::pm_sampling::TraceSample& s : fills.trace.samples) EXPECT_LE(s.endNs - s.startNs, fills.header.intervalNs * 21 / 20);
}

TEST_F(PmSamplingGpu, CumulativeSampleOfComputeWritesCountsTheirBytes) {
    constexpr uint32_t kRepeats = 40;                               // 10 GiB
    constexpr uint32_t kFloats = uint32_t(kBufferBytes / sizeof(float));  // one float per invocation
    const VkBuffer buffer = DeviceBuffer(kBufferBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    const VkDevice device = env().device;
    // busy.comp (samples/vulkan/shaders): each invocation stores one float at its index (mod length).
    VkShaderModuleCreateInfo moduleInfo{};
    moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    moduleInfo.codeSize = sizeof kSpirv_busy_comp;
    moduleInfo.pCode = kSpirv_busy_comp;
    VkShaderModule module = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), VK_SUCCESS);
    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo{};
    setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    setInfo.bindingCount = 1;
    setInfo.pBindings = &binding;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout), VK_SUCCESS);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 2 * sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo layoutInfo{};
    layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), VK_SUCCESS);
    VkComputePipelineCreateInfo pipelineInfo{};
    pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pipelineInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipelineInfo.stage.module = module;
    pipelineInfo.stage.pName = "main";
    pipelineInfo.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline), VK_SUCCESS);
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo poolInfo{};
    poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &setLayout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateDescriptorSets(device, &allocate, &set), VK_SUCCESS);
    VkDescriptorBufferInfo bufferInfo{buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &bufferInfo;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

    const std::vector<VkGpaPerfCounterAMD> counters = {Counter(kWrites), Counter(kReads),
                                                       Counter("sm__cycles_active.avg.pct_of_peak_sustained_elapsed")};
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    const uint32_t constants[2] = {1, kFloats};
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof constants, constants);
    for (uint32_t i = 0; i < kRepeats; ++i) {
        vkCmdDispatch(cb, 256, 64, 64);  // 1024 x 256 x 256 invocations of 4 x 4 x 4 = 64 Mi floats = 256 MiB
        Serialize(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    }
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    env().SubmitAndWait(cb);
    std::vector<uint8_t> bytes;
    const VkResult result = ResultsWhenReady(session, sample, &bytes);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
    ASSERT_EQ(bytes.size(), counters.size() * sizeof(uint64_t));
    const double expected = double(kRepeats) * double(kBufferBytes);
    Figure("vulkan_pm_cumulative_compute_dram_write", Word(bytes, 0), expected,
           "dram_read=" + std::to_string(Word(bytes, 1)) + " sm_active_pct=" + std::to_string(Word(bytes, 2)));
    EXPECT_NEAR(Word(bytes, 0) / expected, 1.0, 0.05);
    EXPECT_GT(Word(bytes, 2), 0.0) << "the SMs were busy";
}

TEST_F(PmSamplingGpu, CumulativeSampleOfFullScreenDrawsCountsTheirBytes) {
    constexpr uint32_t kSide = 8192, kRepeats = 40;  // 256 MiB of RGBA8 per draw, 10 GiB in all
    Workloads target(env(), kSide, kSide);
    const std::vector<VkGpaPerfCounterAMD> counters = {Counter(kWrites), Counter(kReads),
                                                       Counter("gr__cycles_active.avg.pct_of_peak_sustained_elapsed")};
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    target.BeginRenderPass(cb);
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    uint32_t sample = 0;
    // Inside the render pass: the draws only, not the clear.
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    // Noise: with a solid colour the GPU compresses the render target and about an eighth of the bytes reach DRAM
    // (H200, 2026-11-28: ratio 0.1304).
    for (uint32_t i = 0; i < kRepeats; ++i) target.DrawFullscreenNoise(cb, i);
    gpa().CmdEndGpaSample(cb, session, sample);
    target.EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    env().SubmitAndWait(cb);
    std::vector<uint8_t> bytes;
    ASSERT_EQ(ResultsWhenReady(session, sample, &bytes), VK_SUCCESS) << LastMessage();
    const double expected = double(kRepeats) * double(kSide) * double(kSide) * 4.0;
    Figure("vulkan_pm_cumulative_draw_dram_write", Word(bytes, 0), expected,
           "dram_read=" + std::to_string(Word(bytes, 1)) + " gr_active_pct=" + std::to_string(Word(bytes, 2)) +
               " (a hash per pixel and draw: nothing to compress)");
    EXPECT_NEAR(Word(bytes, 0) / expected, 1.0, 0.05);
}

}  // namespace
}  // namespace ogpa::vktest
