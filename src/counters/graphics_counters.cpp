#include "counters/graphics_counters.h"

namespace gpa::graphics {

namespace {

DerivedCounterDefinition Counter(std::string name, const char* group, std::string description, GPA_Type type,
                                 GPA_Usage_Type usage, std::string expression) {
    DerivedCounterDefinition counter;
    counter.name = std::move(name);
    counter.group = group;
    counter.description = std::move(description);
    counter.type = type;
    counter.usage = usage;
    counter.expression = std::move(expression);
    return counter;
}

DerivedCounterDefinition Statistic(const char* name, const char* description, const char* event) {
    return Counter(name, "PipelineStatistics", description, GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, event);
}

}  // namespace

std::string PrimitivesWritten(int stream) { return "SO.primitives_written_s" + std::to_string(stream); }
std::string PrimitivesGenerated(int stream) { return "SO.primitives_generated_s" + std::to_string(stream); }
std::string StreamOverflow(int stream) { return "SO.overflow_s" + std::to_string(stream); }

const std::vector<Event>& PipelineEvents() {
    static const std::vector<Event> events = {
        {"IA.vertices", "Vertices read by the input assembler (pipeline statistic)"},
        {"IA.primitives", "Primitives read by the input assembler (pipeline statistic)"},
        {"VGT.vs_invocations", "Vertex shader invocations (pipeline statistic)"},
        {"VGT.gs_invocations", "Geometry shader invocations (pipeline statistic)"},
        {"VGT.gs_primitives", "Primitives a geometry shader emitted (pipeline statistic)"},
        {"VGT.hs_patches", "Patches the tessellation control shader processed (pipeline statistic)"},
        {"VGT.ds_invocations", "Tessellation evaluation shader invocations (pipeline statistic)"},
        {"PA.clipping_invocations", "Primitives that reached the clipping stage (pipeline statistic)"},
        {"PA.clipping_primitives", "Primitives the clipping stage passed on (pipeline statistic)"},
        {"SPI.ps_invocations", "Fragment shader invocations (pipeline statistic)"},
        {"SPI.cs_invocations", "Compute shader invocations (pipeline statistic)"},
        {"DB.samples_passed", "Samples that passed the depth and stencil tests (occlusion query)"},
    };
    return events;
}

std::vector<DerivedCounterDefinition> PipelineCounters(const std::string& gpuTimeHow) {
    return {
        Counter("GPUTime", "Timing",
                "Time, in milliseconds, the GPU took to execute the commands between GPA_BeginSample and GPA_EndSample: "
                "the difference of two device timestamps, " + gpuTimeHow + ".",
                GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_MILLISECONDS, std::string(kDuration) + " / 1000000"),
        Statistic("IAVertices", "Number of vertices read by the input assembler.", "IA.vertices"),
        Statistic("IAPrimitives", "Number of primitives read by the input assembler.", "IA.primitives"),
        Statistic("VSInvocations", "Number of times a vertex shader was invoked.", "VGT.vs_invocations"),
        Statistic("HSInvocations",
                  "Number of times a hull (tessellation control) shader was invoked, counted per patch as Vulkan's and "
                  "OpenGL's statistic counts it (the patches the tessellation control shader processed), as in Direct3D 11.",
                  "VGT.hs_patches"),
        Statistic("DSInvocations", "Number of times a domain (tessellation evaluation) shader was invoked.", "VGT.ds_invocations"),
        Statistic("GSInvocations", "Number of times a geometry shader was invoked.", "VGT.gs_invocations"),
        Statistic("GSPrimitives", "Number of primitives output by a geometry shader.", "VGT.gs_primitives"),
        Statistic("CInvocations", "Number of primitives that were sent to the rasterizer (reached the clipping stage).",
                  "PA.clipping_invocations"),
        Statistic("CPrimitives", "Number of primitives that were rendered (passed on by the clipping stage).",
                  "PA.clipping_primitives"),
        Statistic("PSInvocations",
                  "Number of times a pixel (fragment) shader was invoked, as the driver counts them: some drivers count "
                  "whole pixel blocks (Mesa's llvmpipe: on Vulkan every 4 x 4 block its shader ran on as 16; on OpenGL "
                  "the pixels of blocks two triangles share twice).",
                  "SPI.ps_invocations"),
        Statistic("CSInvocations", "Number of times a compute shader was invoked.", "SPI.cs_invocations"),
        Statistic("Occlusion",
                  "Get the number of samples that passed the depth and stencil tests (a precise occlusion query where "
                  "the device has one).",
                  "DB.samples_passed"),
    };
}

std::vector<DerivedCounterDefinition> QueryOnlyCounters() {
    std::vector<DerivedCounterDefinition> counters;
    counters.push_back(Counter("OcclusionPredicate", "PipelineStatistics",
                               "Did any samples pass the depth and stencil tests? 1 if any did, 0 if none (an "
                               "any-samples-passed query).",
                               GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, kAnySamplesPassed));
    std::string written, generated;
    for (int stream = 0; stream < 4; ++stream) {
        written += (stream ? " + " : "") + PrimitivesWritten(stream);
        generated += (stream ? " + " : "") + PrimitivesGenerated(stream);
    }
    counters.push_back(Counter("PrimsWritten", "PipelineStatistics",
                               "Number of primitives written to the stream-output (transform feedback) buffers, all "
                               "streams.",
                               GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, written));
    counters.push_back(Counter("PrimsStorageNeed", "PipelineStatistics",
                               "Primitives the stream-output buffers needed room for, all streams: those written plus "
                               "those not written for lack of space (Direct3D 11's PrimitivesStorageNeeded; on OpenGL "
                               "the primitives-generated query, which counts whether or not transform feedback is "
                               "active). Not written for lack of space: PrimsStorageNeed - PrimsWritten.",
                               GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, generated));
    counters.push_back(Counter("OverflowPred", "PipelineStatistics",
                               "Did stream output overflow? 1 if any stream's buffers lacked room for a primitive "
                               "(PrimsStorageNeed > PrimsWritten on some stream), 0 if none (Direct3D 11's "
                               "SO_OVERFLOW_PREDICATE; OpenGL's transform feedback overflow query), as the driver "
                               "says it: Mesa's llvmpipe also says 1 for primitives drawn while transform feedback is "
                               "not active (it compares those generated with those written).",
                               GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, kOverflowAnyStream));
    for (int stream = 0; stream < 4; ++stream) {
        const std::string n = std::to_string(stream);
        counters.push_back(Counter("OverflowPred_S" + n, "PipelineStatistics",
                                   "Did stream " + n + "'s output overflow? 1 if its buffer lacked room for a primitive, "
                                   "0 if not.",
                                   GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, StreamOverflow(stream)));
        counters.push_back(Counter("PrimsWritten_S" + n, "PipelineStatistics",
                                   "Number of primitives written to the stream " + n + " buffer.", GPA_TYPE_UINT64,
                                   GPA_USAGE_TYPE_ITEMS, PrimitivesWritten(stream)));
        counters.push_back(Counter("PrimsStorageNeed_S" + n, "PipelineStatistics",
                                   "Primitives stream " + n + " needed room for (written or not for lack of space).",
                                   GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, PrimitivesGenerated(stream)));
    }
    return counters;
}

// ---- Sampled counters ----

namespace {

// How each value was obtained, said once in every sampled counter's description.
constexpr const char* kSampledHow =
    " Sampled device-wide by NVIDIA's PM sampler over the sample's GPU time window (from the GPU timestamps at its "
    "begin and end): all work on the GPU in that window counts, other contexts' and processes' too; PM samples that "
    "reach past the window's edges count by their share of time inside it. A window shorter than four sampling "
    "intervals is approximate (logged); one with samples missing is refused (the result cannot be read).";

}  // namespace

std::string SampledCounterName(const std::string& metric) { return kSampledPrefix + metric; }

const std::vector<SampledMetric>& SampledMetrics() {
    static const std::vector<SampledMetric> metrics = {
        {"gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
         "Percentage of elapsed cycles the graphics/compute engine (GR) was active", GPA_USAGE_TYPE_PERCENTAGE},
        {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
         "Percentage of elapsed cycles the SMs had work (at least one warp resident), averaged over the SMs",
         GPA_USAGE_TYPE_PERCENTAGE},
        {"sm__inst_executed_realtime.avg.per_cycle_elapsed",
         "Warp instructions executed per elapsed cycle, averaged over the SMs", GPA_USAGE_TYPE_ITEMS},
        {"sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
         "Percentage of elapsed cycles the tensor pipes were active, averaged over the SMs", GPA_USAGE_TYPE_PERCENTAGE},
        {"dram__bytes_read.sum", "Bytes read from device memory (DRAM)", GPA_USAGE_TYPE_BYTES},
        {"dram__bytes_write.sum", "Bytes written to device memory (DRAM)", GPA_USAGE_TYPE_BYTES},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed",
         "Device memory throughput in percent of its peak over the elapsed cycles", GPA_USAGE_TYPE_PERCENTAGE},
        {"lts__t_bytes.sum", "Bytes the L2 cache slices moved (requests of every kind: reads, writes, atomics)",
         GPA_USAGE_TYPE_BYTES},
        {"pcie__read_bytes.sum", "Bytes read over PCIe (from the GPU's side)", GPA_USAGE_TYPE_BYTES},
        {"pcie__write_bytes.sum", "Bytes written over PCIe (from the GPU's side)", GPA_USAGE_TYPE_BYTES},
        {"nvlrx__bytes.sum", "Bytes received over NVLink", GPA_USAGE_TYPE_BYTES},
        {"nvltx__bytes.sum", "Bytes sent over NVLink", GPA_USAGE_TYPE_BYTES},
    };
    return metrics;
}

HardwareCounter SampledHardwareCounter(const std::string& metric) {
    HardwareCounter counter;
    counter.name = SampledCounterName(metric);
    counter.group = "PM";
    counter.type = GPA_TYPE_FLOAT64;
    counter.usage = GPA_USAGE_TYPE_ITEMS;
    std::string what = "NVIDIA metric " + metric;
    for (const SampledMetric& known : SampledMetrics()) {
        if (metric == known.metric) {
            what = std::string(known.description) + " (NVIDIA metric " + metric + ")";
            counter.usage = known.usage;
        }
    }
    counter.description = what + "." + kSampledHow;
    return counter;
}

std::vector<DerivedCounterDefinition> SampledCounters() {
    const std::string how = kSampledHow;
    return {
        Counter("GPUBusy", "Timing",
                "The percentage of time GPU was busy. NVIDIA: the percentage of elapsed cycles the graphics/compute "
                "engine (GR) was active (gr__cycles_active.avg.pct_of_peak_sustained_elapsed), averaged over the "
                "window's time." + how,
                GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
                SampledCounterName("gr__cycles_active.avg.pct_of_peak_sustained_elapsed")),
        Counter("FetchSize", "GlobalMemory",
                "The total kilobytes fetched from the video memory. This is measured with all extra fetches and any "
                "cache or memory effects taken into account. NVIDIA: bytes read from device memory "
                "(dram__bytes_read.sum) / 1024." + how,
                GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_KILOBYTES, SampledCounterName("dram__bytes_read.sum") + " / 1024"),
        Counter("WriteSize", "GlobalMemory",
                "The total kilobytes written to the video memory. This is measured with all extra fetches and any "
                "cache or memory effects taken into account. NVIDIA: bytes written to device memory "
                "(dram__bytes_write.sum) / 1024; data the L2 cache still holds when the window ends is written, and "
                "counted, later." + how,
                GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_KILOBYTES, SampledCounterName("dram__bytes_write.sum") + " / 1024"),
    };
}

const std::vector<AbsentCounter>& SampledCountersAbsent() {
    static const std::vector<AbsentCounter> absent = {
        {"CSFetchSize, CSWriteSize",
         "device-wide DRAM bytes do not tell compute work from graphics work; FetchSize and WriteSize carry them"},
        {"CBMemRead, CBMemWritten",
         "DRAM bytes are not the color buffer's: the L2 cache, compression and every other surface are in them"},
        {"MemUnitBusy, MemUnitStalled, WriteUnitStalled",
         "no L1TEX or write-path metric is sampled (dram__throughput measures device memory, not the memory unit)"},
        {"L2CacheHit, CacheHit, L1CacheHit",
         "hit rates are ratios over requests, which a window over device-wide samples does not integrate; L2 bytes "
         "are offered as the hardware counter PM.lts__t_bytes.sum"},
        {"CSBusy, VSBusy, PSBusy, GSBusy, HSBusy, DSBusy (and their *Time)",
         "the SMs' activity (PM.sm__cycles_active...) does not say which shader stage kept them busy"},
        {"VALUBusy, SALUBusy, TexUnitBusy, DepthStencilTestBusy, PrimitiveAssemblyBusy, TessellatorBusy, CBSlowPixelPct, "
         "HiZ*, PreZ*, PostZ*",
         "no sampled metric measures these units"},
    };
    return absent;
}

}  // namespace gpa::graphics
