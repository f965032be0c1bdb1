#include "backends/gl/gl_session.h"

#include <limits>
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "backends/gl/gl_pm_sampling.h"
#include "core/logger.h"

namespace gpa::gl {

namespace {

constexpr GLenum kGpuDisjoint = 0x8FBB;  // GL_GPU_DISJOINT_EXT (EXT_disjoint_timer_query)

std::string TargetName(GLenum target) {
    switch (target) {
        case GL_SAMPLES_PASSED: return "GL_SAMPLES_PASSED";
        case GL_ANY_SAMPLES_PASSED: return "GL_ANY_SAMPLES_PASSED";
        case GL_ANY_SAMPLES_PASSED_CONSERVATIVE: return "GL_ANY_SAMPLES_PASSED_CONSERVATIVE";
        case GL_PRIMITIVES_GENERATED: return "GL_PRIMITIVES_GENERATED";
        case GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: return "GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN";
        case GL_TIME_ELAPSED: return "GL_TIME_ELAPSED";
        default: {
            char text[32];
            std::snprintf(text, sizeof text, "query target 0x%04X", target);
            return text;
        }
    }
}

std::string SampleName(uint32_t sampleId, uint32_t pass) {
    return "sample " + std::to_string(sampleId) + " (pass " + std::to_string(pass) + ")";
}

}  // namespace

GlSession::GlSession(const ContextProfile& profile, PassPlan plan) : profile_(profile), plan_(std::move(plan)) {
    // Redone per session: the clocks' offset moves (GPU clock changes, the CPU's clock slewed by NTP).
    if (profile_.sampling) beginCalibration_ = CalibrateGpuClock(profile_.gl);
}

GlSession::~GlSession() {
    // Query names belong to the context: deleted only in it (another context current would lose its own).
    if (!profile_.IsCurrent()) return;
    for (Sample& sample : samples_) DeleteQueries(sample);
}

Outcome GlSession::NotCurrent(const char* what) const {
    char handle[32];
    std::snprintf(handle, sizeof handle, "%p", profile_.handle);
    return Fail(GPA_STATUS_ERROR_FAILED, std::string("the GL context ") + handle + " is not current on this thread: " +
                                             what + " makes GL calls in it; make it current (eglMakeCurrent) first");
}

void GlSession::DeleteQueries(Sample& sample) {
    std::vector<GLuint> names;
    for (GLuint query : sample.queries) {
        if (query) names.push_back(query);
    }
    for (GLuint query : {sample.endTimestamp, sample.windowBegin, sample.windowEnd}) {
        if (query) names.push_back(query);
    }
    if (!names.empty()) profile_.gl.DeleteQueries(static_cast<GLsizei>(names.size()), names.data());
    DeleteDriverSample(profile_.driver, &sample.driver);
    std::fill(sample.queries.begin(), sample.queries.end(), 0);
    sample.endTimestamp = sample.windowBegin = sample.windowEnd = 0;
}

Outcome GlSession::BeginSample(uint32_t pass, uint32_t sampleId) {
    if (!profile_.IsCurrent()) return NotCurrent("GPA_BeginSample");
    if (pass >= plan_.passes.size()) return Fail(GPA_STATUS_ERROR_FAILED, "internal error: no pass " + std::to_string(pass));
    const GlFunctions& gl = profile_.gl;
    Sample sample;
    sample.pass = pass;
    sample.sampleId = sampleId;
    sample.counters = plan_.passes[pass];
    // Refused before anything begins: a query of the application's active on a target the pass needs.
    for (uint32_t counter : sample.counters) {
        const GlQuery& query = profile_.queries.at(counter);
        if (query.target == 0) continue;
        GLint active = 0;
        if (query.indexed) {
            gl.GetQueryIndexediv(query.target, query.index, GL_CURRENT_QUERY, &active);
        } else {
            gl.GetQueryiv(query.target, GL_CURRENT_QUERY, &active);
        }
        if (active != 0) {
            return Fail(GPA_STATUS_ERROR_FAILED,
                        "the application has a " + TargetName(query.target) + " query active (query " +
                            std::to_string(active) + ") at GPA_BeginSample of " + SampleName(sampleId, pass) +
                            ": GL allows one per target, and this pass counts with that target; end it before the "
                            "sample begins, or begin it after the sample ends");
        }
    }
    sample.queries.assign(sample.counters.size(), 0);
    bool sampled = false;
    for (size_t i = 0; i < sample.counters.size(); ++i) {
        const GlQuery& query = profile_.queries.at(sample.counters[i]);
        if (query.sampled >= 0) {
            sampled = true;
        } else if (query.driver >= 0) {
            sample.driver.counters.push_back(&profile_.driverCounters.at(static_cast<size_t>(query.driver)));
        } else {
            gl.GenQueries(1, &sample.queries[i]);
        }
    }
    if (sampled) {  // the window's begin, before the sample's own queries begin
        gl.GenQueries(1, &sample.windowBegin);
        gl.QueryCounter(sample.windowBegin, GL_TIMESTAMP);
    }
    for (size_t i = 0; i < sample.counters.size(); ++i) {
        const GlQuery& query = profile_.queries.at(sample.counters[i]);
        if (query.sampled >= 0 || query.driver >= 0) continue;
        if (query.target == 0) {
            gl.QueryCounter(sample.queries[i], GL_TIMESTAMP);
        } else if (query.indexed) {
            gl.BeginQueryIndexed(query.target, query.index, sample.queries[i]);
        } else {
            gl.BeginQuery(query.target, sample.queries[i]);
        }
    }
    BeginDriverSample(profile_.driver, &sample.driver);  // innermost: around the draws only
    samples_.push_back(std::move(sample));
    return Outcome::Ok();
}

Outcome GlSession::EndSample(uint32_t pass, uint32_t sampleId) {
    if (!profile_.IsCurrent()) return NotCurrent("GPA_EndSample");
    if (samples_.empty() || samples_.back().pass != pass || samples_.back().sampleId != sampleId || samples_.back().ended) {
        return Fail(GPA_STATUS_ERROR_FAILED, "internal error: " + SampleName(sampleId, pass) + " was not begun");
    }
    Sample& sample = samples_.back();
    const GlFunctions& gl = profile_.gl;
    EndDriverSample(profile_.driver, &sample.driver);
    for (size_t i = sample.counters.size(); i-- > 0;) {
        const GlQuery& query = profile_.queries.at(sample.counters[i]);
        if (query.sampled >= 0 || query.driver >= 0) continue;
        if (query.target == 0) {
            gl.GenQueries(1, &sample.endTimestamp);
            gl.QueryCounter(sample.endTimestamp, GL_TIMESTAMP);
        } else if (query.indexed) {
            gl.EndQueryIndexed(query.target, query.index);
        } else {
            gl.EndQuery(query.target);
        }
    }
    if (sample.windowBegin) {  // the window's end, after everything of the sample
        gl.GenQueries(1, &sample.windowEnd);
        gl.QueryCounter(sample.windowEnd, GL_TIMESTAMP);
    }
    sample.ended = true;
    return Outcome::Ok();
}

Outcome GlSession::End() {
    if (!profile_.IsCurrent()) return NotCurrent("GPA_EndSession");
    profile_.gl.Flush();  // the queries reach the GPU: polling with GPA_IsSessionReady sees them complete
    return Outcome::Ok();
}

bool GlSession::Available(GLuint query) const {
    GLuint available = GL_FALSE;
    profile_.gl.GetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
    return available == GL_TRUE;
}

uint64_t GlSession::Result(GLuint query) const {
    if (profile_.gl.GetQueryObjectui64v) {
        GLuint64 value = 0;
        profile_.gl.GetQueryObjectui64v(query, GL_QUERY_RESULT, &value);
        return value;
    }
    GLuint value = 0;
    profile_.gl.GetQueryObjectuiv(query, GL_QUERY_RESULT, &value);
    return value;
}

bool GlSession::IsReady() {
    if (read_) return true;
    if (!profile_.IsCurrent()) return false;
    for (Sample& sample : samples_) {
        if (!DriverSampleAvailable(profile_.driver, &sample.driver)) return false;
    }
    // Queries complete in order: the last one of the last sample is enough, as GL's timer query samples do.
    for (auto sample = samples_.rbegin(); sample != samples_.rend(); ++sample) {
        if (sample->windowEnd) return Available(sample->windowEnd);
        if (sample->endTimestamp) return Available(sample->endTimestamp);
        for (auto query = sample->queries.rbegin(); query != sample->queries.rend(); ++query) {
            if (*query) return Available(*query);
        }
    }
    return true;
}

Outcome GlSession::WaitUntilReady() {
    if (read_) return readFailure_.empty() ? Outcome::Ok() : Fail(GPA_STATUS_ERROR_FAILED, readFailure_);
    if (!profile_.IsCurrent()) return NotCurrent("reading a GL session's results");
    const GlFunctions& gl = profile_.gl;
    for (Sample& sample : samples_) {
        sample.values.assign(sample.counters.size(), 0);
        for (size_t i = 0; i < sample.counters.size(); ++i) {
            const GlQuery& query = profile_.queries.at(sample.counters[i]);
            if (query.sampled >= 0 || query.driver >= 0) continue;  // from the window, or the driver, below
            if (query.target == 0) {
                const uint64_t begin = Result(sample.queries[i]), end = Result(sample.endTimestamp);
                sample.values[i] = end >= begin ? end - begin : 0;
            } else {
                sample.values[i] = Result(sample.queries[i]);
            }
        }
        ReadDriverSample(profile_.driver, &sample.driver, kDriverResultTimeoutMs);
        if (sample.windowBegin) {
            sample.windowBeginGpuNs = Result(sample.windowBegin);
            sample.windowEndGpuNs = Result(sample.windowEnd);
        }
        DeleteQueries(sample);
    }
    if (profile_.capabilities.disjointTimer) {
        GLint disjoint = 0;
        gl.GetIntegerv(kGpuDisjoint, &disjoint);
        if (disjoint) {
            readFailure_ = "the GPU reported a disjoint operation (GL_GPU_DISJOINT_EXT: a clock change or a reset) while "
                           "the session ran, so its timestamps cannot be compared; run the session again";
        }
    }
    if (readFailure_.empty()) IntegrateWindows();
    read_ = true;
    return readFailure_.empty() ? Outcome::Ok() : Fail(GPA_STATUS_ERROR_FAILED, readFailure_);
}

void GlSession::IntegrateWindows() {
    const bool any = std::any_of(samples_.begin(), samples_.end(), [](const Sample& s) { return s.windowEndGpuNs != 0; });
    if (!any || !profile_.sampling) return;
    const std::optional<ClockCalibration> endCalibration = CalibrateGpuClock(profile_.gl);
    const std::optional<ClockCalibration>& first = beginCalibration_ ? beginCalibration_ : endCalibration;
    const size_t metrics = profile_.sampling->metrics().size();
    for (Sample& sample : samples_) {
        if (sample.windowEndGpuNs == 0) continue;
        const std::string name = SampleName(sample.sampleId, sample.pass);
        sample.sampledValues.assign(metrics, std::nullopt);
        sample.sampledWhy.assign(metrics, "");
        if (!first) {
            sample.sampledFailure = "the GPU clock could not be calibrated against CLOCK_MONOTONIC "
                                    "(glGetInteger64v(GL_TIMESTAMP) gave nothing), so the PM samples of " + name +
                                    "'s window cannot be found";
            continue;
        }
        if (sample.windowEndGpuNs < sample.windowBeginGpuNs) {
            sample.sampledFailure = "the GPU timestamps of " + name + " end before they begin";
            continue;
        }
        const std::optional<ClockCalibration> second = beginCalibration_ ? endCalibration : std::nullopt;
        const uint64_t begin = GpuToCpuNs(sample.windowBeginGpuNs, *first, second);
        const uint64_t end = std::max(begin + 1, GpuToCpuNs(sample.windowEndGpuNs, *first, second));
        const pm_sampling::WindowResult window =
            profile_.sampling->Window(begin, end, std::chrono::milliseconds(kWindowTimeoutMs));
        if (window.quality == pm_sampling::WindowQuality::Refused) {
            sample.sampledFailure = "the PM samples of " + name + "'s GPU time window (" +
                                    std::to_string(end - begin) + " ns) were refused: " + window.why;
            continue;
        }
        if (window.quality == pm_sampling::WindowQuality::Approximate) {
            Logger::Instance().Message("GL " + name + ": its PM counters are approximate: " + window.why);
        }
        for (size_t m = 0; m < metrics && m < window.values.size(); ++m) {
            sample.sampledValues[m] = window.values[m];
            if (m < window.valueWhy.size()) sample.sampledWhy[m] = window.valueWhy[m];
        }
    }
}

Outcome GlSession::ReadSample(uint32_t sampleId, std::vector<double>* values) {
    if (!read_) return Fail(GPA_STATUS_ERROR_FAILED, "internal error: results read before they were waited for");
    if (!readFailure_.empty()) return Fail(GPA_STATUS_ERROR_FAILED, readFailure_);
    bool found = false;
    for (const Sample& sample : samples_) {
        if (sample.sampleId != sampleId) continue;
        found = true;
        size_t driverIndex = 0;  // the sample's driver counters come in the order of its counters
        for (size_t i = 0; i < sample.counters.size(); ++i) {
            const GlQuery& query = profile_.queries.at(sample.counters[i]);
            if (query.driver >= 0) {
                const size_t d = driverIndex++;
                if (d < sample.driver.values.size() && sample.driver.values[d]) {
                    (*values)[sample.counters[i]] = *sample.driver.values[d];
                    continue;
                }
                (*values)[sample.counters[i]] = std::numeric_limits<double>::quiet_NaN();
                AddMissingWhy(sampleId, d < sample.driver.why.size() && !sample.driver.why[d].empty()
                                            ? sample.driver.why[d]
                                            : "internal error: no driver result of " + sample.driver.counters.at(d)->name);
                continue;
            }
            if (query.sampled < 0) {
                (*values)[sample.counters[i]] = static_cast<double>(sample.values[i]);
                continue;
            }
            // A PM counter without a value is NaN: the counters computed from it fail to read, with the reason
            // (MissingValueReason); the sample's query counters (GPUTime, pipeline statistics) read as usual.
            if (!sample.sampledFailure.empty()) {
                (*values)[sample.counters[i]] = std::numeric_limits<double>::quiet_NaN();
                AddMissingWhy(sampleId, sample.sampledFailure);
                continue;
            }
            const size_t metric = static_cast<size_t>(query.sampled);
            if (metric >= sample.sampledValues.size() || !sample.sampledValues[metric]) {
                const std::string why = metric < sample.sampledWhy.size() ? sample.sampledWhy[metric] : "";
                (*values)[sample.counters[i]] = std::numeric_limits<double>::quiet_NaN();
                AddMissingWhy(sampleId, "the PM samples give no value of " + profile_.sampling->metrics().at(metric) +
                                        " for " + SampleName(sample.sampleId, sample.pass) + (why.empty() ? "" : ": " + why));
                continue;
            }
            (*values)[sample.counters[i]] = *sample.sampledValues[metric];
        }
    }
    return found ? Outcome::Ok() : Fail(GPA_STATUS_ERROR_FAILED, "internal error: no sample " + std::to_string(sampleId));
}

void GlSession::AddMissingWhy(uint32_t sampleId, const std::string& why) {
    std::string& reasons = missingWhy_[sampleId];
    if (reasons.find(why) != std::string::npos) return;
    reasons += (reasons.empty() ? "" : "; ") + why;
}

std::string GlSession::MissingValueReason(uint32_t sampleId) {
    const auto it = missingWhy_.find(sampleId);
    return it == missingWhy_.end() ? std::string() : it->second;
}

}  // namespace gpa::gl
