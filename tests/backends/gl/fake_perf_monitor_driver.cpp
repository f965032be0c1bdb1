// TEST DOUBLE: see fake_perf_monitor_driver.h.
#include "fake_perf_monitor_driver.h"

#include <algorithm>
#include <cstdint>

namespace ogpa::gltest {

namespace {

FakePerfMonitorDriver* active = nullptr;

// A driver's string answer: the length without the terminator, the text cut to the buffer (terminated).
void CopyString(const std::string& text, GLsizei bufSize, GLsizei* length, GLchar* out) {
    if (length) *length = static_cast<GLsizei>(text.size());
    if (out && bufSize > 0) {
        const size_t n = std::min(text.size(), static_cast<size_t>(bufSize - 1));
        std::memcpy(out, text.data(), n);
        out[n] = '\0';
    }
}

const FakePerfMonitorDriver::AmdGroup* FindGroup(GLuint group) {
    for (const auto& g : active->amdGroups) {
        if (g.id == group) return &g;
    }
    return nullptr;
}

void APIENTRY GetPerfMonitorGroups(GLint* numGroups, GLsizei groupsSize, GLuint* groups) {
    if (numGroups) *numGroups = static_cast<GLint>(active->amdGroups.size());
    for (GLsizei i = 0; i < groupsSize && static_cast<size_t>(i) < active->amdGroups.size(); ++i) {
        groups[i] = active->amdGroups[static_cast<size_t>(i)].id;
    }
}
void APIENTRY GetPerfMonitorCounters(GLuint group, GLint* numCounters, GLint* maxActive, GLsizei size, GLuint* counters) {
    const auto* g = FindGroup(group);
    if (!g) return;
    if (numCounters) *numCounters = static_cast<GLint>(g->counters.size());
    if (maxActive) *maxActive = g->maxActive;
    for (GLsizei i = 0; i < size && static_cast<size_t>(i) < g->counters.size(); ++i) {
        counters[i] = g->counters[static_cast<size_t>(i)].id;
    }
}
void APIENTRY GetPerfMonitorGroupString(GLuint group, GLsizei bufSize, GLsizei* length, GLchar* text) {
    if (const auto* g = FindGroup(group)) CopyString(g->name, bufSize, length, text);
}
void APIENTRY GetPerfMonitorCounterString(GLuint group, GLuint counter, GLsizei bufSize, GLsizei* length, GLchar* text) {
    if (const auto* c = active->FindAmdCounter(group, counter)) CopyString(c->name, bufSize, length, text);
}
void APIENTRY GetPerfMonitorCounterInfo(GLuint group, GLuint counter, GLenum pname, void* data) {
    const auto* c = active->FindAmdCounter(group, counter);
    if (c && pname == gpa::gl::kAmdCounterType) *static_cast<GLenum*>(data) = c->type;
}
void APIENTRY GenPerfMonitors(GLsizei n, GLuint* monitors) {
    for (GLsizei i = 0; i < n; ++i) {
        monitors[i] = active->amdGenFails ? 0 : active->nextName++;
        if (monitors[i]) active->monitors[monitors[i]] = {};
    }
}
void APIENTRY DeletePerfMonitors(GLsizei n, GLuint* monitors) {
    for (GLsizei i = 0; i < n; ++i) active->monitors[monitors[i]].deleted = true;
}
void APIENTRY SelectPerfMonitorCounters(GLuint monitor, GLboolean enable, GLuint group, GLint numCounters, GLuint* list) {
    if (!enable) return;
    auto& selected = active->monitors[monitor].selected[group];
    selected.insert(selected.end(), list, list + numCounters);
}
void APIENTRY BeginPerfMonitor(GLuint monitor) { ++active->monitors[monitor].begun; }
void APIENTRY EndPerfMonitor(GLuint monitor) { ++active->monitors[monitor].ended; }
void APIENTRY GetPerfMonitorCounterData(GLuint monitor, GLenum pname, GLsizei dataSize, GLuint* data, GLint* written) {
    if (pname == gpa::gl::kAmdResultAvailable) {
        *data = active->amdAvailable ? 1 : 0;
        if (written) *written = sizeof(GLuint);
        return;
    }
    const std::vector<GLuint> words = active->AmdResultWords(monitor);
    if (pname == gpa::gl::kAmdResultSize) {
        *data = static_cast<GLuint>(words.size() * sizeof(GLuint));
        if (written) *written = sizeof(GLuint);
        return;
    }
    const size_t n = std::min(words.size(), static_cast<size_t>(dataSize) / sizeof(GLuint));
    std::copy(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(n), data);
    if (written) *written = static_cast<GLint>(n * sizeof(GLuint));
}

void APIENTRY GetFirstPerfQueryId(GLuint* queryId) {
    *queryId = active->intelQueries.empty() ? 0 : active->intelQueries.front().id;
}
void APIENTRY GetNextPerfQueryId(GLuint queryId, GLuint* next) {
    *next = 0;
    for (size_t i = 0; i + 1 < active->intelQueries.size(); ++i) {
        if (active->intelQueries[i].id == queryId) *next = active->intelQueries[i + 1].id;
    }
}
void APIENTRY GetPerfQueryInfo(GLuint queryId, GLuint nameLength, GLchar* name, GLuint* dataSize, GLuint* counters,
                               GLuint* instances, GLuint* caps) {
    const auto* q = active->FindIntelQuery(queryId);
    if (!q) return;
    CopyString(q->name, static_cast<GLsizei>(nameLength), nullptr, name);
    *dataSize = q->dataSize;
    *counters = static_cast<GLuint>(q->counters.size());
    *instances = 4;
    *caps = q->caps;
}
void APIENTRY GetPerfCounterInfo(GLuint queryId, GLuint counterId, GLuint nameLength, GLchar* name, GLuint descLength,
                                 GLchar* desc, GLuint* offset, GLuint* dataSize, GLuint* type, GLuint* dataType,
                                 GLuint64* rawMax) {
    const auto* q = active->FindIntelQuery(queryId);
    if (!q || counterId == 0 || counterId > q->counters.size()) return;
    const auto& c = q->counters[counterId - 1];
    CopyString(c.name, static_cast<GLsizei>(nameLength), nullptr, name);
    CopyString(c.description, static_cast<GLsizei>(descLength), nullptr, desc);
    *offset = c.offset;
    *dataSize = c.size;
    *type = c.counterType;
    *dataType = c.dataType;
    *rawMax = 0;
}
void APIENTRY CreatePerfQuery(GLuint queryId, GLuint* handle) {
    *handle = active->intelCreateFails ? 0 : active->nextName++;
    if (*handle) active->instances[*handle].queryId = queryId;
}
void APIENTRY DeletePerfQuery(GLuint handle) { active->instances[handle].deleted = true; }
void APIENTRY BeginPerfQuery(GLuint handle) { ++active->instances[handle].begun; }
void APIENTRY EndPerfQuery(GLuint handle) { ++active->instances[handle].ended; }
void APIENTRY GetPerfQueryData(GLuint handle, GLuint, GLsizei dataSize, void* data, GLuint* written) {
    *written = 0;
    if (active->intelNoData) return;
    const auto block = active->intelBlocks.find(active->instances[handle].queryId);
    if (block == active->intelBlocks.end()) return;
    const size_t n = std::min(block->second.size(), static_cast<size_t>(dataSize));
    std::memcpy(data, block->second.data(), n);
    *written = static_cast<GLuint>(n);
}

}  // namespace

FakePerfMonitorDriver::FakePerfMonitorDriver() { active = this; }
FakePerfMonitorDriver::~FakePerfMonitorDriver() {
    if (active == this) active = nullptr;
}

FakePerfMonitorDriver* FakePerfMonitorDriver::Active() { return active; }

gpa::gl::DriverCounterFunctions FakePerfMonitorDriver::Functions(bool amd, bool intel) const {
    gpa::gl::DriverCounterFunctions functions;
    if (amd) {
        auto& t = functions.amd;
        t.GetPerfMonitorGroupsAMD = GetPerfMonitorGroups;
        t.GetPerfMonitorCountersAMD = GetPerfMonitorCounters;
        t.GetPerfMonitorGroupStringAMD = GetPerfMonitorGroupString;
        t.GetPerfMonitorCounterStringAMD = GetPerfMonitorCounterString;
        t.GetPerfMonitorCounterInfoAMD = GetPerfMonitorCounterInfo;
        t.GenPerfMonitorsAMD = GenPerfMonitors;
        t.DeletePerfMonitorsAMD = DeletePerfMonitors;
        t.SelectPerfMonitorCountersAMD = SelectPerfMonitorCounters;
        t.BeginPerfMonitorAMD = BeginPerfMonitor;
        t.EndPerfMonitorAMD = EndPerfMonitor;
        t.GetPerfMonitorCounterDataAMD = GetPerfMonitorCounterData;
        t.loaded = true;
    } else {
        functions.why += "the stand-in offers no GL_AMD_performance_monitor; ";
    }
    if (intel) {
        auto& t = functions.intel;
        t.GetFirstPerfQueryIdINTEL = GetFirstPerfQueryId;
        t.GetNextPerfQueryIdINTEL = GetNextPerfQueryId;
        t.GetPerfQueryInfoINTEL = GetPerfQueryInfo;
        t.GetPerfCounterInfoINTEL = GetPerfCounterInfo;
        t.CreatePerfQueryINTEL = CreatePerfQuery;
        t.DeletePerfQueryINTEL = DeletePerfQuery;
        t.BeginPerfQueryINTEL = BeginPerfQuery;
        t.EndPerfQueryINTEL = EndPerfQuery;
        t.GetPerfQueryDataINTEL = GetPerfQueryData;
        t.loaded = true;
    } else {
        functions.why += "the stand-in offers no GL_INTEL_performance_query";
    }
    return functions;
}

void FakePerfMonitorDriver::ScriptExample() {
    using namespace gpa::gl;
    amdGroups = {
        {3, "GRBM", 2, {{1, "GRBM_COUNT", GL_UNSIGNED_INT}, {2, "GRBM_GUI_ACTIVE", kAmdUnsignedInt64}, {4, "GPU_BUSY", kAmdPercentage}}},
        {6, "SQ", 1, {{7, "SQ_WAVES", GL_UNSIGNED_INT}, {8, "SQ_ALU_RATE", GL_FLOAT}}},
    };
    amdValues = {{{3, 1}, 1234}, {{3, 2}, 5000000007.0}, {{3, 4}, 87.5}, {{6, 7}, 4096}, {{6, 8}, 0.25}};
    intelQueries = {
        {5, "RenderBasic", 40, kIntelGlobalContext,
         {{"GpuTime", "Time elapsed on the GPU during the measurement.", 0, 8, kIntelCounterDurationRaw, kIntelDataUint64},
          {"GpuBusy", "The percentage of time in which the GPU has been processing commands.", 8, 4,
           kIntelCounterDurationNorm, kIntelDataFloat},
          {"VertexCount", "The total number of vertices.", 12, 4, kIntelCounterEvent, kIntelDataUint32},
          {"Bandwidth", "Bytes per second.", 16, 8, kIntelCounterThroughput, kIntelDataDouble},
          {"HizEnabled", "", 24, 4, kIntelCounterRaw, kIntelDataBool32},
          {"Broken", "Lies past the block.", 36, 8, kIntelCounterEvent, kIntelDataUint64}}},
        {9, "Compute Basic", 8, 0, {{"EuActive", "EU active percentage.", 0, 8, kIntelCounterDurationNorm, kIntelDataDouble}}},
    };
    intelBlocks.clear();
    PutIntelValue<uint64_t>(5, 0, 123456789012ull);
    PutIntelValue<float>(5, 8, 62.5f);
    PutIntelValue<uint32_t>(5, 12, 96u);
    PutIntelValue<double>(5, 16, 1.5e9);
    PutIntelValue<uint32_t>(5, 24, 7u);
    intelBlocks[5].resize(40, 0);
    PutIntelValue<double>(9, 0, 33.25);
}

const FakePerfMonitorDriver::AmdCounter* FakePerfMonitorDriver::FindAmdCounter(GLuint group, GLuint counter) const {
    for (const auto& g : amdGroups) {
        if (g.id != group) continue;
        for (const auto& c : g.counters) {
            if (c.id == counter) return &c;
        }
    }
    return nullptr;
}

const FakePerfMonitorDriver::IntelQuery* FakePerfMonitorDriver::FindIntelQuery(GLuint id) const {
    for (const auto& q : intelQueries) {
        if (q.id == id) return &q;
    }
    return nullptr;
}

std::vector<GLuint> FakePerfMonitorDriver::AmdResultWords(GLuint monitor) const {
    std::vector<GLuint> words;
    const auto found = monitors.find(monitor);
    if (found == monitors.end()) return words;
    for (const auto& [group, counters] : found->second.selected) {
        for (GLuint id : counters) {
            const auto value = amdValues.find({group, id});
            const AmdCounter* counter = FindAmdCounter(group, id);
            if (value == amdValues.end() || counter == nullptr || amdRefused.count({group, id})) continue;
            words.push_back(group);
            words.push_back(id);
            if (counter->type == gpa::gl::kAmdUnsignedInt64) {
                const uint64_t v = static_cast<uint64_t>(value->second);
                GLuint halves[2];
                std::memcpy(halves, &v, sizeof v);
                words.push_back(halves[0]);
                words.push_back(halves[1]);
            } else if (counter->type == GL_FLOAT || counter->type == gpa::gl::kAmdPercentage) {
                const float v = static_cast<float>(value->second);
                GLuint bits = 0;
                std::memcpy(&bits, &v, sizeof v);
                words.push_back(bits);
            } else {
                words.push_back(static_cast<GLuint>(value->second));
            }
        }
    }
    words.insert(words.end(), amdExtraWords.begin(), amdExtraWords.end());
    return words;
}

}  // namespace ogpa::gltest
