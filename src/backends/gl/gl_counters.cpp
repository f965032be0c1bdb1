#include "backends/gl/gl_counters.h"

#include <algorithm>
#include <regex>

#include "counters/graphics_counters.h"

namespace gpa::gl {

namespace {

// GL_ARB_pipeline_statistics_query's targets (the same values as GL 4.6's).
struct StatisticTarget {
    const char* event;  // vocabulary name (graphics::PipelineEvents)
    GLenum target;
};
constexpr StatisticTarget kStatistics[] = {
    {"IA.vertices", 0x82EE},              // GL_VERTICES_SUBMITTED
    {"IA.primitives", 0x82EF},            // GL_PRIMITIVES_SUBMITTED
    {"VGT.vs_invocations", 0x82F0},       // GL_VERTEX_SHADER_INVOCATIONS
    {"VGT.gs_invocations", 0x887F},       // GL_GEOMETRY_SHADER_INVOCATIONS
    {"VGT.gs_primitives", 0x82F3},        // GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED
    {"VGT.hs_patches", 0x82F1},           // GL_TESS_CONTROL_SHADER_PATCHES
    {"VGT.ds_invocations", 0x82F2},       // GL_TESS_EVALUATION_SHADER_INVOCATIONS
    {"PA.clipping_invocations", 0x82F6},  // GL_CLIPPING_INPUT_PRIMITIVES
    {"PA.clipping_primitives", 0x82F7},   // GL_CLIPPING_OUTPUT_PRIMITIVES
    {"SPI.ps_invocations", 0x82F4},       // GL_FRAGMENT_SHADER_INVOCATIONS
    {"SPI.cs_invocations", 0x82F5},       // GL_COMPUTE_SHADER_INVOCATIONS
};

bool IsOcclusion(GLenum target) {
    return target == GL_SAMPLES_PASSED || target == GL_ANY_SAMPLES_PASSED || target == GL_ANY_SAMPLES_PASSED_CONSERVATIVE;
}

void Add(CounterSet* set, const std::string& name, const std::string& description, GPA_Usage_Type usage, GlQuery query) {
    HardwareCounter counter;
    counter.name = name;
    counter.group = name.substr(0, name.find('.'));
    counter.description = description;
    counter.type = GPA_TYPE_UINT64;
    counter.usage = usage;
    set->hardware.push_back(counter);
    set->queries.push_back(query);
}

}  // namespace

bool ParseVersion(const std::string& version, bool* gles, int* major, int* minor) {
    static const std::regex pattern(R"(^(OpenGL ES(?:-[A-Z]+)? )?(\d+)\.(\d+))");
    std::smatch match;
    if (!std::regex_search(version, match, pattern)) return false;
    *gles = match[1].matched;
    *major = std::stoi(match[2]);
    *minor = std::stoi(match[3]);
    return true;
}

GlCapabilities Capabilities(const std::string& version, const std::set<std::string>& extensions, int maxVertexStreams) {
    GlCapabilities c;
    if (!ParseVersion(version, &c.gles, &c.major, &c.minor)) return c;
    auto has = [&](const char* extension) { return extensions.count(extension) != 0; };
    if (c.gles) {
        c.timestamps = has("GL_EXT_disjoint_timer_query");
        c.disjointTimer = c.timestamps;
        c.anySamplesPassed = c.AtLeast(3, 0) || has("GL_EXT_occlusion_query_boolean");
        c.primitivesWritten = c.AtLeast(3, 0);
        c.primitivesGenerated = c.AtLeast(3, 2) || has("GL_EXT_geometry_shader") || has("GL_OES_geometry_shader");
        c.streams = c.primitivesWritten ? 1 : 0;
        return c;
    }
    c.timestamps = c.AtLeast(3, 3) || has("GL_ARB_timer_query");
    c.pipelineStatistics = c.AtLeast(4, 6) || has("GL_ARB_pipeline_statistics_query");
    c.samplesPassed = c.AtLeast(1, 5);
    c.anySamplesPassed = c.AtLeast(3, 3) || has("GL_ARB_occlusion_query2");
    c.primitivesWritten = c.primitivesGenerated = c.AtLeast(3, 0);
    const bool indexed = c.AtLeast(4, 0) || has("GL_ARB_transform_feedback3");
    c.streams = !c.primitivesWritten ? 0 : indexed ? std::max(1, std::min(maxVertexStreams, 4)) : 1;
    c.overflow = indexed && (c.AtLeast(4, 6) || has("GL_ARB_transform_feedback_overflow_query"));
    return c;
}

CounterSet BuildCounters(const GlCapabilities& c) {
    CounterSet set;
    const char* version = c.gles ? "OpenGL ES" : "OpenGL";
    if (c.timestamps) {
        Add(&set, graphics::kDuration,
            "Nanoseconds between the two GL_TIMESTAMP queries of a sample (glQueryCounter at GPA_BeginSample and at "
            "GPA_EndSample: when the GPU reached each)",
            GPA_USAGE_TYPE_NANOSECONDS, GlQuery{});
    } else {
        set.absent.push_back(std::string("GPUTime: no timestamp queries (") + version + " 3.3 or ARB_timer_query; on GLES, "
                             "EXT_disjoint_timer_query)");
    }
    if (c.pipelineStatistics) {
        for (const StatisticTarget& statistic : kStatistics) {
            std::string description = statistic.event;
            for (const graphics::Event& event : graphics::PipelineEvents()) {
                if (description == event.name) description = event.description;
            }
            Add(&set, statistic.event, description + " (GL_ARB_pipeline_statistics_query)", GPA_USAGE_TYPE_ITEMS,
                GlQuery{statistic.target, 0, false});
        }
    } else {
        set.absent.push_back(std::string("the pipeline statistics (IAVertices ... CSInvocations): ") + version +
                             " without GL 4.6 or GL_ARB_pipeline_statistics_query");
    }
    if (c.samplesPassed) {
        Add(&set, "DB.samples_passed", "Samples that passed the depth and stencil tests (GL_SAMPLES_PASSED query)",
            GPA_USAGE_TYPE_ITEMS, GlQuery{GL_SAMPLES_PASSED, 0, false});
    } else {
        set.absent.push_back("Occlusion: OpenGL ES has no samples-passed query (only whether any passed: OcclusionPredicate)");
    }
    if (c.anySamplesPassed) {
        Add(&set, graphics::kAnySamplesPassed, "1 if any sample passed the depth and stencil tests (GL_ANY_SAMPLES_PASSED query)",
            GPA_USAGE_TYPE_ITEMS, GlQuery{GL_ANY_SAMPLES_PASSED, 0, false});
    } else {
        set.absent.push_back("OcclusionPredicate: no any-samples-passed query (GL 3.3, ARB_occlusion_query2, GLES 3.0)");
    }
    for (int stream = 0; stream < c.streams; ++stream) {
        const bool indexed = c.streams > 1;
        const std::string n = std::to_string(stream);
        if (c.primitivesWritten) {
            Add(&set, graphics::PrimitivesWritten(stream),
                "Primitives written to the transform feedback buffers of stream " + n +
                    " (GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query)",
                GPA_USAGE_TYPE_ITEMS, GlQuery{GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, static_cast<GLuint>(stream), indexed});
        }
        if (c.primitivesGenerated) {
            Add(&set, graphics::PrimitivesGenerated(stream),
                "Primitives generated for stream " + n + ", whether or not transform feedback is active "
                "(GL_PRIMITIVES_GENERATED query)",
                GPA_USAGE_TYPE_ITEMS, GlQuery{GL_PRIMITIVES_GENERATED, static_cast<GLuint>(stream), indexed});
        }
    }
    if (c.overflow) {
        // GL 4.6's targets (ARB_transform_feedback_overflow_query has the same values).
        constexpr GLenum kOverflow = 0x82EC, kStreamOverflow = 0x82ED;
        Add(&set, graphics::kOverflowAnyStream,
            "1 if the transform feedback of any stream overflowed (GL_TRANSFORM_FEEDBACK_OVERFLOW query)",
            GPA_USAGE_TYPE_ITEMS, GlQuery{kOverflow, 0, false});
        for (int stream = 0; stream < c.streams; ++stream) {
            Add(&set, graphics::StreamOverflow(stream),
                "1 if the transform feedback of stream " + std::to_string(stream) +
                    " overflowed (GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW query)",
                GPA_USAGE_TYPE_ITEMS, GlQuery{kStreamOverflow, static_cast<GLuint>(stream), true});
        }
    } else {
        set.absent.push_back(std::string("OverflowPred and OverflowPred_S0-_S3: no transform feedback overflow queries (") +
                             (c.gles ? "OpenGL ES has none" : "GL 4.6 or ARB_transform_feedback_overflow_query") + ")");
    }
    if (c.streams == 0) set.absent.push_back("PrimsWritten, PrimsStorageNeed: no transform feedback queries (GL 3.0, GLES 3.0)");
    if (c.streams == 1) {
        set.absent.push_back("PrimsWritten and PrimsStorageNeed of all streams, and those of streams 1-3: no indexed "
                             "queries (GL 4.0 or ARB_transform_feedback3); stream 0's are PrimsWritten_S0, PrimsStorageNeed_S0");
    }
    std::string how = "GL_TIMESTAMP queries (glQueryCounter) at GPA_BeginSample and GPA_EndSample";
    if (c.disjointTimer) how += "; a sample during which the GPU reported a disjoint operation (GL_GPU_DISJOINT_EXT) fails";
    set.derived = graphics::PipelineCounters(how);
    for (DerivedCounterDefinition& counter : graphics::QueryOnlyCounters()) set.derived.push_back(std::move(counter));
    return set;
}

void AddSampledCounters(CounterSet* set, const std::vector<std::string>& metrics, const std::string& whyNot) {
    if (metrics.empty()) {
        std::string names;
        for (const DerivedCounterDefinition& counter : graphics::SampledCounters()) names += counter.name + ", ";
        set->absent.push_back(names + "and the PM. hardware counters (NVIDIA's device-level PM sampler): " + whyNot);
        return;
    }
    for (size_t i = 0; i < metrics.size(); ++i) {
        set->hardware.push_back(graphics::SampledHardwareCounter(metrics[i]));
        GlQuery query;
        query.sampled = static_cast<int>(i);
        set->queries.push_back(query);
    }
    for (DerivedCounterDefinition& counter : graphics::SampledCounters()) set->derived.push_back(std::move(counter));
}

void AddDriverCounters(CounterSet* set, DriverCounterList list, std::vector<DriverCounter>* driverCounters,
                       const std::string& whyNot) {
    if (list.counters.empty()) {
        set->absent.push_back("the driver's own counters (AMD_perfmon., INTEL_perfquery.): " + whyNot);
    }
    for (const std::string& skipped : list.skipped) set->absent.push_back("driver counter " + skipped);
    for (size_t i = 0; i < list.counters.size(); ++i) {
        GlQuery query;
        query.driver = static_cast<int>(driverCounters->size());
        driverCounters->push_back(std::move(list.counters[i]));
        set->hardware.push_back(std::move(list.hardware[i]));
        set->queries.push_back(query);
    }
}

bool FitInOnePass(const std::vector<GlQuery>& queries, std::span<const DriverCounter> driverCounters) {
    std::set<std::pair<GLenum, GLuint>> active;
    bool occlusion = false;
    std::vector<const DriverCounter*> driver;
    for (const GlQuery& query : queries) {
        if (query.driver >= 0) {
            if (static_cast<size_t>(query.driver) >= driverCounters.size()) return false;
            driver.push_back(&driverCounters[static_cast<size_t>(query.driver)]);
            continue;
        }
        if (query.target == 0) continue;  // timestamps (and the sampled counters' windows) are no active queries
        if (IsOcclusion(query.target)) {
            if (occlusion) return false;
            occlusion = true;
        }
        if (!active.emplace(query.target, query.index).second) return false;
    }
    return DriverCountersFitInOnePass(driver);
}

}  // namespace gpa::gl
