#include "backends/gl/gl_driver_counters.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <thread>

namespace gpa::gl {

namespace {

// Where a driver's list never ends (a GetNextPerfQueryIdINTEL that cycles): enumeration stops there.
constexpr size_t kMaxDriverEntries = 100000;

std::string AmdTypeName(GLuint type) {
    switch (type) {
        case GL_UNSIGNED_INT: return "GL_UNSIGNED_INT";
        case kAmdUnsignedInt64: return "GL_UNSIGNED_INT64_AMD";
        case GL_FLOAT: return "GL_FLOAT";
        case kAmdPercentage: return "GL_PERCENTAGE_AMD";
        default: return "type " + std::to_string(type);
    }
}

// The name unique among `taken`: the driver's, or with "#<id>" where two of its counters share one.
std::string UniqueName(std::string name, GLuint id, std::set<std::string>* taken) {
    if (taken->count(name)) name += "#" + std::to_string(id);
    taken->insert(name);
    return name;
}

std::string AmdString(const AmdPerfMonitorFunctions& amd, GLuint group, std::optional<GLuint> counter) {
    GLsizei length = 0;
    if (counter) {
        amd.GetPerfMonitorCounterStringAMD(group, *counter, 0, &length, nullptr);
    } else {
        amd.GetPerfMonitorGroupStringAMD(group, 0, &length, nullptr);
    }
    if (length <= 0) return "";
    std::vector<GLchar> text(static_cast<size_t>(length) + 1, '\0');
    if (counter) {
        amd.GetPerfMonitorCounterStringAMD(group, *counter, length + 1, &length, text.data());
    } else {
        amd.GetPerfMonitorGroupStringAMD(group, length + 1, &length, text.data());
    }
    text.back() = '\0';
    return text.data();
}

std::string Truncated(const std::vector<GLchar>& text) { return std::string(text.data(), strnlen(text.data(), text.size())); }

size_t IntelDataSize(GLuint dataType) {
    switch (dataType) {
        case kIntelDataUint32:
        case kIntelDataFloat:
        case kIntelDataBool32: return 4;
        case kIntelDataUint64:
        case kIntelDataDouble: return 8;
        default: return 0;
    }
}

// The GPA usage of an INTEL counter type, and what the description adds about it.
GPA_Usage_Type IntelUsage(GLuint counterType, std::string* kind) {
    switch (counterType) {
        case kIntelCounterEvent: *kind = "an event count (EVENT)"; return GPA_USAGE_TYPE_ITEMS;
        case kIntelCounterDurationNorm:
            *kind = "a duration as a percentage of the query's time (DURATION_NORM)";
            return GPA_USAGE_TYPE_PERCENTAGE;
        case kIntelCounterDurationRaw: *kind = "a duration in nanoseconds (DURATION_RAW)"; return GPA_USAGE_TYPE_NANOSECONDS;
        case kIntelCounterThroughput:
            *kind = "a throughput, an amount per unit of time (THROUGHPUT; GPA has no usage of its own for rates)";
            return GPA_USAGE_TYPE_RATIO;
        case kIntelCounterTimestamp:
            *kind = "a GPU timestamp, a point in time rather than a duration (TIMESTAMP)";
            return GPA_USAGE_TYPE_NANOSECONDS;
        case kIntelCounterRaw:
        default: *kind = "a raw value whose unit the driver does not say (RAW)"; return GPA_USAGE_TYPE_ITEMS;
    }
}

}  // namespace

DriverCounterList EnumerateAmdPerfMonitor(const AmdPerfMonitorFunctions& amd) {
    DriverCounterList list;
    if (!amd.loaded) return list;
    GLint groupCount = 0;
    amd.GetPerfMonitorGroupsAMD(&groupCount, 0, nullptr);
    std::vector<GLuint> groups(static_cast<size_t>(std::max(groupCount, 0)));
    if (!groups.empty()) amd.GetPerfMonitorGroupsAMD(&groupCount, static_cast<GLsizei>(groups.size()), groups.data());
    groups.resize(std::min(groups.size(), static_cast<size_t>(std::max(groupCount, 0))));
    std::set<std::string> taken;
    for (GLuint group : groups) {
        const std::string groupName = AmdString(amd, group, std::nullopt);
        GLint counterCount = 0, maxActive = 0;
        amd.GetPerfMonitorCountersAMD(group, &counterCount, &maxActive, 0, nullptr);
        if (counterCount <= 0) continue;
        if (maxActive <= 0) {
            list.skipped.push_back("AMD_perfmon group " + groupName + ": maxActiveCounters is " +
                                   std::to_string(maxActive) + ", so none of its counters can be counted");
            continue;
        }
        std::vector<GLuint> ids(static_cast<size_t>(counterCount));
        amd.GetPerfMonitorCountersAMD(group, &counterCount, &maxActive, counterCount, ids.data());
        ids.resize(std::min(ids.size(), static_cast<size_t>(std::max(counterCount, 0))));
        for (GLuint id : ids) {
            const std::string counterName = AmdString(amd, group, id);
            GLuint type = 0;
            amd.GetPerfMonitorCounterInfoAMD(group, id, kAmdCounterType, &type);
            HardwareCounter hardware;
            hardware.name = UniqueName(kAmdPerfMonitorPrefix + groupName + "." + counterName, id, &taken);
            hardware.group = kAmdPerfMonitorPrefix + groupName;
            hardware.description = "Driver counter of group " + groupName + " (GL_AMD_performance_monitor, " +
                                   AmdTypeName(type) + "; the extension gives counters no description)";
            switch (type) {
                case GL_UNSIGNED_INT:
                case kAmdUnsignedInt64: hardware.type = GPA_TYPE_UINT64; hardware.usage = GPA_USAGE_TYPE_ITEMS; break;
                case kAmdPercentage: hardware.type = GPA_TYPE_FLOAT64; hardware.usage = GPA_USAGE_TYPE_PERCENTAGE; break;
                case GL_FLOAT:
                    hardware.type = GPA_TYPE_FLOAT64;
                    hardware.usage = GPA_USAGE_TYPE_ITEMS;
                    hardware.description += "; a float whose unit the extension does not say";
                    break;
                default:
                    list.skipped.push_back(hardware.name + ": the driver gives it " + AmdTypeName(type) +
                                           ", none of GL_AMD_performance_monitor's counter types");
                    continue;
            }
            DriverCounter counter;
            counter.extension = DriverExtension::AmdPerfMonitor;
            counter.group = group;
            counter.counter = id;
            counter.dataType = type;
            counter.groupLimit = static_cast<GLuint>(maxActive);
            counter.name = hardware.name;
            list.hardware.push_back(std::move(hardware));
            list.counters.push_back(std::move(counter));
        }
    }
    return list;
}

DriverCounterList EnumerateIntelPerfQuery(const IntelPerfQueryFunctions& intel) {
    DriverCounterList list;
    if (!intel.loaded) return list;
    std::set<std::string> taken;
    std::set<GLuint> seen;
    GLuint queryId = 0;
    intel.GetFirstPerfQueryIdINTEL(&queryId);
    while (queryId != 0 && seen.insert(queryId).second && list.counters.size() < kMaxDriverEntries) {
        std::vector<GLchar> queryText(1024, '\0');
        GLuint dataSize = 0, counterCount = 0, instances = 0, caps = 0;
        intel.GetPerfQueryInfoINTEL(queryId, static_cast<GLuint>(queryText.size()), queryText.data(), &dataSize,
                                    &counterCount, &instances, &caps);
        const std::string queryName = Truncated(queryText);
        for (GLuint id = 1; id <= counterCount && id < kMaxDriverEntries; ++id) {
            std::vector<GLchar> name(1024, '\0'), description(4096, '\0');
            GLuint offset = 0, size = 0, counterType = 0, dataType = 0;
            GLuint64 rawMax = 0;
            intel.GetPerfCounterInfoINTEL(queryId, id, static_cast<GLuint>(name.size()), name.data(),
                                          static_cast<GLuint>(description.size()), description.data(), &offset, &size,
                                          &counterType, &dataType, &rawMax);
            HardwareCounter hardware;
            hardware.name = UniqueName(kIntelPerfQueryPrefix + queryName + "." + Truncated(name), id, &taken);
            hardware.group = kIntelPerfQueryPrefix + queryName;
            const size_t valueSize = IntelDataSize(dataType);
            if (valueSize == 0 || size < valueSize || static_cast<uint64_t>(offset) + valueSize > dataSize) {
                list.skipped.push_back(hardware.name + ": the driver places it at bytes " + std::to_string(offset) + "+" +
                                       std::to_string(size) + " of a " + std::to_string(dataSize) +
                                       "-byte block as data type " + std::to_string(dataType) + ", which cannot be read");
                continue;
            }
            std::string kind;
            hardware.usage = IntelUsage(counterType, &kind);
            hardware.type = dataType == kIntelDataFloat || dataType == kIntelDataDouble ? GPA_TYPE_FLOAT64 : GPA_TYPE_UINT64;
            hardware.description = Truncated(description);
            hardware.description += (hardware.description.empty() ? "" : " ") + std::string("(GL_INTEL_performance_query, query ") +
                                    queryName + ": " + kind + (dataType == kIntelDataBool32 ? ", 1 or 0" : "") +
                                    ((caps & kIntelGlobalContext) ? "; the query counts the whole GPU, other contexts' work too" : "") +
                                    ")";
            DriverCounter counter;
            counter.extension = DriverExtension::IntelPerfQuery;
            counter.group = queryId;
            counter.counter = id;
            counter.dataType = dataType;
            counter.offset = offset;
            counter.size = size;
            counter.groupLimit = dataSize;
            counter.name = hardware.name;
            list.hardware.push_back(std::move(hardware));
            list.counters.push_back(std::move(counter));
        }
        GLuint next = 0;
        intel.GetNextPerfQueryIdINTEL(queryId, &next);
        queryId = next;
    }
    return list;
}

DriverCounterList EnumerateDriverCounters(const DriverCounterFunctions& driver) {
    DriverCounterList list = EnumerateAmdPerfMonitor(driver.amd);
    DriverCounterList intel = EnumerateIntelPerfQuery(driver.intel);
    for (size_t i = 0; i < intel.counters.size(); ++i) {
        list.hardware.push_back(std::move(intel.hardware[i]));
        list.counters.push_back(std::move(intel.counters[i]));
    }
    for (std::string& skipped : intel.skipped) list.skipped.push_back(std::move(skipped));
    return list;
}

bool DriverCountersFitInOnePass(std::span<const DriverCounter* const> counters) {
    bool amd = false, intel = false;
    std::optional<GLuint> query;
    std::map<GLuint, GLuint> activePerGroup;
    for (const DriverCounter* counter : counters) {
        if (counter->extension == DriverExtension::AmdPerfMonitor) {
            amd = true;
            if (++activePerGroup[counter->group] > counter->groupLimit) return false;
        } else {
            intel = true;
            if (query && *query != counter->group) return false;
            query = counter->group;
        }
    }
    return !(amd && intel);
}

void BeginDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample) {
    if (sample->counters.empty()) return;
    const DriverCounter& first = *sample->counters.front();
    if (first.extension == DriverExtension::AmdPerfMonitor) {
        driver.amd.GenPerfMonitorsAMD(1, &sample->amdMonitor);
        if (sample->amdMonitor == 0) {
            sample->beginFailure = "glGenPerfMonitorsAMD gave no monitor: the driver made none for this sample";
            return;
        }
        std::map<GLuint, std::vector<GLuint>> perGroup;
        for (const DriverCounter* counter : sample->counters) perGroup[counter->group].push_back(counter->counter);
        for (auto& [group, ids] : perGroup) {
            driver.amd.SelectPerfMonitorCountersAMD(sample->amdMonitor, GL_TRUE, group, static_cast<GLint>(ids.size()),
                                                    ids.data());
        }
        driver.amd.BeginPerfMonitorAMD(sample->amdMonitor);
        return;
    }
    driver.intel.CreatePerfQueryINTEL(first.group, &sample->intelQuery);
    if (sample->intelQuery == 0) {
        const std::string query = first.name.substr(0, first.name.rfind('.'));
        sample->beginFailure = "glCreatePerfQueryINTEL gave no instance of " + query +
                               ": the driver refused it (each sample keeps an instance until its results are read, "
                               "and the driver allows a limited number at once)";
        return;
    }
    driver.intel.BeginPerfQueryINTEL(sample->intelQuery);
}

void EndDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample) {
    if (sample->amdMonitor) driver.amd.EndPerfMonitorAMD(sample->amdMonitor);
    if (sample->intelQuery) driver.intel.EndPerfQueryINTEL(sample->intelQuery);
}

namespace {

// Whether the driver has the result now, read or not.
bool ResultAvailable(const DriverCounterFunctions& driver, DriverSampleRecording* sample) {
    if (sample->amdMonitor) {
        GLuint available = 0;
        driver.amd.GetPerfMonitorCounterDataAMD(sample->amdMonitor, kAmdResultAvailable, sizeof available, &available,
                                                nullptr);
        return available != 0;
    }
    if (sample->intelQuery) {
        if (sample->intelWritten) return true;
        // Without flushing: the data, where it is ready, is kept (the call hands it over).
        sample->intelBlock.assign(sample->counters.front()->groupLimit, 0);
        driver.intel.GetPerfQueryDataINTEL(sample->intelQuery, kIntelDoNotFlush,
                                           static_cast<GLsizei>(sample->intelBlock.size()), sample->intelBlock.data(),
                                           &sample->intelWritten);
        return sample->intelWritten != 0;
    }
    return true;
}

}  // namespace

bool DriverSampleAvailable(const DriverCounterFunctions& driver, DriverSampleRecording* sample) {
    return sample->read || ResultAvailable(driver, sample);
}

void ReadDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample, uint32_t timeoutMs) {
    if (sample->read || sample->counters.empty()) return;
    sample->read = true;
    const size_t count = sample->counters.size();
    sample->values.assign(count, std::nullopt);
    sample->why.assign(count, "");
    auto failAll = [&](const std::string& why) {
        for (size_t i = 0; i < count; ++i) sample->why[i] = why;
    };
    if (!sample->beginFailure.empty()) return failAll(sample->beginFailure);
    if (sample->amdMonitor) {
        // GL_PERFMON_RESULT_AMD does not say whether it waits: the result is asked for only once available.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (!ResultAvailable(driver, sample)) {
            if (std::chrono::steady_clock::now() > deadline) {
                return failAll("the driver did not make the result of AMD monitor " + std::to_string(sample->amdMonitor) +
                               " available within " + std::to_string(timeoutMs) +
                               " ms (GL_PERFMON_RESULT_AVAILABLE_AMD stayed 0)");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        GLuint size = 0;
        driver.amd.GetPerfMonitorCounterDataAMD(sample->amdMonitor, kAmdResultSize, sizeof size, &size, nullptr);
        std::vector<GLuint> words((size + sizeof(GLuint) - 1) / sizeof(GLuint), 0);
        GLint written = 0;
        if (!words.empty()) {
            driver.amd.GetPerfMonitorCounterDataAMD(sample->amdMonitor, kAmdResult, static_cast<GLsizei>(size),
                                                    words.data(), &written);
        }
        DecodeAmdResult(words, static_cast<size_t>(std::max(written, 0)), sample->counters, &sample->values, &sample->why);
        return;
    }
    if (!sample->intelWritten) {
        sample->intelBlock.assign(sample->counters.front()->groupLimit, 0);
        driver.intel.GetPerfQueryDataINTEL(sample->intelQuery, kIntelWait, static_cast<GLsizei>(sample->intelBlock.size()),
                                           sample->intelBlock.data(), &sample->intelWritten);
    }
    if (sample->intelWritten == 0) {
        return failAll("glGetPerfQueryDataINTEL(GL_PERFQUERY_WAIT_INTEL) wrote nothing for query instance " +
                       std::to_string(sample->intelQuery) + ": the driver gave no result");
    }
    for (size_t i = 0; i < count; ++i) {
        sample->values[i] = DecodeIntelCounter(sample->intelBlock, sample->intelWritten, *sample->counters[i], &sample->why[i]);
    }
}

void DeleteDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample) {
    if (sample->amdMonitor) driver.amd.DeletePerfMonitorsAMD(1, &sample->amdMonitor);
    if (sample->intelQuery) driver.intel.DeletePerfQueryINTEL(sample->intelQuery);
    sample->amdMonitor = sample->intelQuery = 0;
}

void DecodeAmdResult(std::span<const GLuint> words, size_t bytes, std::span<const DriverCounter* const> counters,
                     std::vector<std::optional<double>>* values, std::vector<std::string>* why) {
    values->assign(counters.size(), std::nullopt);
    why->assign(counters.size(), "");
    const size_t end = std::min(words.size(), bytes / sizeof(GLuint));
    auto refuse = [&](const std::string& reason) {
        values->assign(counters.size(), std::nullopt);
        why->assign(counters.size(), "the driver's result list (GL_PERFMON_RESULT_AMD) cannot be read: " + reason);
    };
    for (size_t i = 0; i < end;) {
        if (i + 3 > end) return refuse("it ends inside an entry");
        const GLuint group = words[i], id = words[i + 1];
        size_t index = counters.size();
        for (size_t c = 0; c < counters.size(); ++c) {
            if (counters[c]->group == group && counters[c]->counter == id) index = c;
        }
        if (index == counters.size()) {
            return refuse("it names counter " + std::to_string(id) + " of group " + std::to_string(group) +
                          ", which the monitor did not select, so the size of its value is unknown");
        }
        const GLuint type = counters[index]->dataType;
        if (type == kAmdUnsignedInt64) {
            if (i + 4 > end) return refuse("it ends inside the 64-bit value of " + counters[index]->name);
            uint64_t value = 0;
            std::memcpy(&value, &words[i + 2], sizeof value);
            (*values)[index] = static_cast<double>(value);
            i += 4;
            continue;
        }
        if (type == GL_FLOAT || type == kAmdPercentage) {
            float value = 0;
            std::memcpy(&value, &words[i + 2], sizeof value);
            (*values)[index] = value;
        } else {
            (*values)[index] = words[i + 2];
        }
        i += 3;
    }
    for (size_t c = 0; c < counters.size(); ++c) {
        if (!(*values)[c]) {
            (*why)[c] = "the driver's result list (GL_PERFMON_RESULT_AMD) has no value of " + counters[c]->name +
                        ": the driver did not count it (it refused the counter when the monitor selected it)";
        }
    }
}

std::optional<double> DecodeIntelCounter(std::span<const uint8_t> block, size_t bytes, const DriverCounter& counter,
                                         std::string* why) {
    const size_t size = IntelDataSize(counter.dataType);
    const size_t available = std::min(block.size(), bytes);
    if (size == 0 || static_cast<size_t>(counter.offset) + size > available) {
        *why = "the driver's data of the query (" + std::to_string(bytes) + " bytes written) does not hold " +
               counter.name + " (bytes " + std::to_string(counter.offset) + "+" + std::to_string(size) + ")";
        return std::nullopt;
    }
    const uint8_t* at = block.data() + counter.offset;
    switch (counter.dataType) {
        case kIntelDataUint32: {
            uint32_t value = 0;
            std::memcpy(&value, at, sizeof value);
            return value;
        }
        case kIntelDataBool32: {
            uint32_t value = 0;
            std::memcpy(&value, at, sizeof value);
            return value != 0 ? 1.0 : 0.0;
        }
        case kIntelDataUint64: {
            uint64_t value = 0;
            std::memcpy(&value, at, sizeof value);
            return static_cast<double>(value);
        }
        case kIntelDataFloat: {
            float value = 0;
            std::memcpy(&value, at, sizeof value);
            return value;
        }
        default: {
            double value = 0;
            std::memcpy(&value, at, sizeof value);
            return value;
        }
    }
}

}  // namespace gpa::gl
