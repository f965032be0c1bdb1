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

}  // namespace gpa::graphics
