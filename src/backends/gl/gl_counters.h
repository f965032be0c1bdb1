// The OpenGL backend's counters, as data. Every counter is a GL query: hardware counter names are those of the
// graphics vocabulary shared with the Vulkan backend (counters/graphics_counters.h), measured by the query target
// (and stream index) each one maps to here; GPA's public counters are the vocabulary's derived counters. Which
// targets a context has follows from its version and extensions (GlCapabilities), so the counters of a driver
// are decided by pure functions that the tests run without a GPU.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "backends/gl/gl_driver_counters.h"
#include "counters/counter_definition.h"

namespace gpa::gl {

// What the context's version and extensions offer.
struct GlCapabilities {
    bool gles = false;
    int major = 0, minor = 0;
    bool timestamps = false;          // glQueryCounter(GL_TIMESTAMP): GL 3.3, ARB_timer_query, EXT_disjoint_timer_query
    bool disjointTimer = false;       // GLES: timestamps may be invalidated (GL_GPU_DISJOINT_EXT)
    bool pipelineStatistics = false;  // GL 4.6 or ARB_pipeline_statistics_query
    bool samplesPassed = false;       // GL_SAMPLES_PASSED (desktop GL)
    bool anySamplesPassed = false;    // GL 3.3, ARB_occlusion_query2, GLES 3.0
    bool primitivesWritten = false;   // GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: GL 3.0, GLES 3.0
    bool primitivesGenerated = false; // GL_PRIMITIVES_GENERATED: GL 3.0, GLES 3.2
    int streams = 0;                  // stream-output streams with queries of their own (indexed queries: 4), else 1
    bool overflow = false;            // GL_TRANSFORM_FEEDBACK_(STREAM_)OVERFLOW: GL 4.6, ARB_transform_feedback_overflow_query

    bool AtLeast(int wantMajor, int wantMinor) const { return major > wantMajor || (major == wantMajor && minor >= wantMinor); }
};

// GL_VERSION ("4.5 (Core Profile) Mesa 22.3.6", "OpenGL ES 3.2 NVIDIA 580.159.04"): whether it is GLES, and the
// version. False when the string is not one.
bool ParseVersion(const std::string& version, bool* gles, int* major, int* minor);
GlCapabilities Capabilities(const std::string& version, const std::set<std::string>& extensions, int maxVertexStreams);

// How one hardware counter is measured.
struct GlQuery {
    GLenum target = 0;  // 0: the two timestamps of the sample (TIMING.duration_ns), or a sampled metric's window
    GLuint index = 0;   // stream, for indexed targets
    bool indexed = false;
    int sampled = -1;   // >= 0: the index of a metric of the device's PM sampling, integrated over the sample's window
    int driver = -1;    // >= 0: the index of a driver counter (AMD_perfmon., INTEL_perfquery.: gl_driver_counters.h)

    bool IsTiming() const { return target == 0 && sampled < 0 && driver < 0; }
};

struct CounterSet {
    std::vector<HardwareCounter> hardware;
    std::vector<GlQuery> queries;                   // queries[i] measures hardware[i]
    std::vector<DerivedCounterDefinition> derived;  // GPA's counters over them
    std::vector<std::string> absent;                // what the context lacks, and why
};

CounterSet BuildCounters(const GlCapabilities& capabilities);

// The counters of a GPU sampled by NVIDIA's PM sampler (gl_pm_sampling.h): "PM.<metric>" hardware counters of
// `metrics` (the device's, in its order) and the vocabulary's public counters over them. Without sampling
// (`metrics` empty) the public counters are absent, with `whyNot`.
void AddSampledCounters(CounterSet* set, const std::vector<std::string>& metrics, const std::string& whyNot);

// The driver's own counters (AMD_perfmon., INTEL_perfquery.) as hardware counters measured by `GlQuery::driver`.
// `driverCounters` gets their measurement, which the queries index. Without them, `whyNot` is logged as absent.
void AddDriverCounters(CounterSet* set, DriverCounterList list, std::vector<DriverCounter>* driverCounters,
                       const std::string& whyNot);

// Whether the queries of these hardware counters can all be active at once: GL allows one active query per target
// and index, and one of the occlusion targets at a time; driver counters (indexing `driverCounters`) as
// DriverCountersFitInOnePass says.
bool FitInOnePass(const std::vector<GlQuery>& queries, std::span<const DriverCounter> driverCounters = {});

}  // namespace gpa::gl
