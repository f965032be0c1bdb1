// TEST DOUBLE, not a driver: a scripted stand-in for a GL driver that offers GL_AMD_performance_monitor and
// GL_INTEL_performance_query (neither llvmpipe nor NVIDIA's driver has them). It answers the extensions' entry points
// from the groups, queries, limits and canned results a test gives it, and records what it was asked (counters
// selected per monitor, begins and ends), so that the backend's enumeration, pass planning, recording and decoding
// can be tested. Its values are whatever the test scripts, never measurements.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/gl/gl_driver_functions.h"

namespace ogpa::gltest {

class FakePerfMonitorDriver {
public:
    struct AmdCounter {
        GLuint id = 0;
        std::string name;
        GLenum type = GL_UNSIGNED_INT;  // GL_UNSIGNED_INT, GL_UNSIGNED_INT64_AMD, GL_FLOAT, GL_PERCENTAGE_AMD
    };
    struct AmdGroup {
        GLuint id = 0;
        std::string name;
        GLint maxActive = 1;
        std::vector<AmdCounter> counters;
    };
    struct IntelCounter {  // ids are 1 + the index in IntelQuery::counters, as the extension numbers them
        std::string name, description;
        GLuint offset = 0, size = 0, counterType = 0, dataType = 0;
    };
    struct IntelQuery {
        GLuint id = 0;
        std::string name;
        GLuint dataSize = 0;
        GLuint caps = 0;
        std::vector<IntelCounter> counters;
    };

    // What the stand-in lists.
    std::vector<AmdGroup> amdGroups;
    std::vector<IntelQuery> intelQueries;

    // Canned results. AMD: an entry (group, counter, value) for each selected counter that has a value here and is
    // not refused, the value written in the counter's type; then `amdExtraWords` as they are.
    std::map<std::pair<GLuint, GLuint>, double> amdValues;
    std::set<std::pair<GLuint, GLuint>> amdRefused;
    std::vector<GLuint> amdExtraWords;
    bool amdAvailable = true;    // GL_PERFMON_RESULT_AVAILABLE_AMD
    bool amdGenFails = false;    // glGenPerfMonitorsAMD gives 0
    // INTEL: the data block each query's instances give.
    std::map<GLuint, std::vector<uint8_t>> intelBlocks;
    bool intelCreateFails = false;  // glCreatePerfQueryINTEL gives handle 0
    bool intelNoData = false;       // glGetPerfQueryDataINTEL writes nothing

    template <typename T>
    void PutIntelValue(GLuint queryId, GLuint offset, T value) {
        std::vector<uint8_t>& block = intelBlocks[queryId];
        if (block.size() < offset + sizeof value) block.resize(offset + sizeof value, 0);
        std::memcpy(block.data() + offset, &value, sizeof value);
    }

    // What it was asked.
    struct Monitor {
        std::map<GLuint, std::vector<GLuint>> selected;  // per group
        int begun = 0, ended = 0;
        bool deleted = false;
    };
    std::map<GLuint, Monitor> monitors;
    struct QueryInstance {
        GLuint queryId = 0;
        int begun = 0, ended = 0;
        bool deleted = false;
    };
    std::map<GLuint, QueryInstance> instances;

    FakePerfMonitorDriver();
    ~FakePerfMonitorDriver();
    FakePerfMonitorDriver(const FakePerfMonitorDriver&) = delete;
    FakePerfMonitorDriver& operator=(const FakePerfMonitorDriver&) = delete;

    // The tables of the extensions the stand-in offers here; their entry points answer for this object (one at a
    // time: the latest made).
    gpa::gl::DriverCounterFunctions Functions(bool amd, bool intel) const;

    static FakePerfMonitorDriver* Active();

    // The script most tests use (values chosen to be told apart, and exact in float where the type is float):
    // AMD group 3 "GRBM" (2 active at most): 1 GRBM_COUNT GL_UNSIGNED_INT = 1234, 2 GRBM_GUI_ACTIVE
    // GL_UNSIGNED_INT64_AMD = 5000000007 (past 32 bits), 4 GPU_BUSY GL_PERCENTAGE_AMD = 87.5; group 6 "SQ" (1 at
    // most): 7 SQ_WAVES GL_UNSIGNED_INT = 4096, 8 SQ_ALU_RATE GL_FLOAT = 0.25.
    // INTEL query 5 "RenderBasic" (40 bytes, device-wide): 1 GpuTime DURATION_RAW UINT64 @0 = 123456789012,
    // 2 GpuBusy DURATION_NORM FLOAT @8 = 62.5, 3 VertexCount EVENT UINT32 @12 = 96, 4 Bandwidth THROUGHPUT DOUBLE
    // @16 = 1.5e9, 5 HizEnabled RAW BOOL32 @24 = 7 (true), 6 Broken EVENT UINT64 @36 (past the block: not offered);
    // query 9 "Compute Basic" (8 bytes; a name with a space, as Intel's are): 1 EuActive DURATION_NORM DOUBLE @0 = 33.25.
    void ScriptExample();

    // AMD's result list for a monitor, as the stand-in writes it.
    std::vector<GLuint> AmdResultWords(GLuint monitor) const;
    const AmdCounter* FindAmdCounter(GLuint group, GLuint counter) const;
    const IntelQuery* FindIntelQuery(GLuint id) const;

    GLuint nextName = 1;
};

}  // namespace ogpa::gltest
