/*
 * The C++ API of OpenGPA: a thin, header-only layer over the GPA C functions of GPUPerfAPI.h.
 *
 * Link the program to one GPA library (for example libGPUPerfAPICL.so) and add include/ to the include
 * path. Every failing call throws gpa::Error, which carries the GPA_Status and the library's reason
 * (OGPA_GetLastErrorMessage). Objects are RAII: gpa::Library initialises and destroys GPA, gpa::Context
 * opens and closes the counters on an API object, gpa::Session / gpa::Pass / gpa::Sample begin in their
 * constructor and end in End() or, at the latest, in their destructor.
 *
 *     gpa::Library library;
 *     gpa::Context context(queue);                  // (void*)cl_command_queue for the OpenCL library
 *     context.Enable("GPUTime");
 *     gpa::Session session = context.BeginSession();
 *     session.ForEachPass([&](gpa::Pass& pass) {
 *         pass.Measure(0, [&] { enqueue_work(); });
 *     });
 *     gpa::Results results = session.End();
 *     double ms = results.Get<double>(0, "GPUTime");  // blocks until the device is done
 *
 * GPA keeps one selected context per process; every call of these classes selects its own context
 * first, so several gpa::Context objects can be used side by side (from one thread at a time).
 *
 * The classes live in the inline namespace gpa::v1: programs write gpa::Context, while the symbols stay
 * apart from the GPA libraries' internal gpa:: names (a program that links the core statically, such as
 * OpenGPA's own tests, would otherwise have two different gpa::Context classes).
 */
#ifndef OPENGPA_GPA_HPP_
#define OPENGPA_GPA_HPP_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "GPUPerfAPI.h"

namespace gpa {
inline namespace v1 {

// A GPA call that did not return GPA_STATUS_OK.
class Error : public std::runtime_error {
public:
    Error(GPA_Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    GPA_Status status() const noexcept { return status_; }

private:
    GPA_Status status_;
};

namespace detail {

// Throws gpa::Error for any status but OK. The message is the library's reason for the failure of the
// calling thread's last call, which is this one.
inline void Check(GPA_Status status, const char* call) {
    if (status == GPA_STATUS_OK) return;
    std::string message = OGPA_GetLastErrorMessage();
    if (message.empty()) message = std::string(call) + " failed with " + GPA_GetStatusAsStr(status);
    throw Error(status, message);
}

}  // namespace detail

// One counter of a context, as the catalog functions describe it.
struct CounterInfo {
    gpa_uint32 index = 0;
    std::string name;
    std::string group;
    std::string description;
    GPA_Type type = GPA_TYPE_FLOAT64;
    GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
};

// A counter result in the counter's own type.
using Value = std::variant<gpa_uint32, gpa_uint64, gpa_float32, gpa_float64>;

inline double AsDouble(const Value& value) {
    return std::visit([](auto v) { return static_cast<double>(v); }, value);
}

// The types GPA reads results as (GPA_GetSampleUInt32/UInt64/Float32/Float64).
template <class T>
inline constexpr bool kIsResultType = std::is_same_v<T, gpa_uint32> || std::is_same_v<T, gpa_uint64> ||
                                      std::is_same_v<T, gpa_float32> || std::is_same_v<T, gpa_float64>;

// GPA_Initialize in the constructor, GPA_Destroy in the destructor (which closes contexts left open).
class Library {
public:
    Library() { detail::Check(GPA_Initialize(), "GPA_Initialize"); }
    ~Library() { GPA_Destroy(); }
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    // Registers the process's logging callback (GPA_LOGGING_NONE and null remove it).
    static void SetLogging(GPA_Logging_Type types, GPA_LoggingCallbackPtrType callback) {
        detail::Check(GPA_RegisterLoggingCallback(types, callback), "GPA_RegisterLoggingCallback");
    }
    // How many finished sessions the contexts opened afterwards keep (at least 4).
    static void SetSessionBufferSize(gpa_uint32 sessions) {
        detail::Check(OGPA_SetSessionBufferSize(sessions), "OGPA_SetSessionBufferSize");
    }
};

class Session;

// The results of one ended session, read through its context. Cheap to copy.
class Results {
public:
    Results(void* apiContext, gpa_uint32 sessionId) : context_(apiContext), id_(sessionId) {}

    gpa_uint32 id() const { return id_; }

    // Never block. Throw gpa::Error(GPA_STATUS_ERROR_SESSION_NOT_FOUND) once newer sessions overwrote it.
    bool IsReady() const {
        Select();
        bool ready = false;
        detail::Check(GPA_IsSessionReady(&ready, id_), "GPA_IsSessionReady");
        return ready;
    }
    bool IsSampleReady(gpa_uint32 sampleId) const {
        Select();
        bool ready = false;
        detail::Check(GPA_IsSampleReady(&ready, id_, sampleId), "GPA_IsSampleReady");
        return ready;
    }
    gpa_uint32 SampleCount() const {
        Select();
        gpa_uint32 count = 0;
        detail::Check(GPA_GetSampleCount(id_, &count), "GPA_GetSampleCount");
        return count;
    }

    // The result of a counter as T, which must be the counter's type (else gpa::Error with
    // GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE). Blocks until the result is available.
    template <class T>
    T Get(gpa_uint32 sampleId, gpa_uint32 counterIndex) const {
        static_assert(kIsResultType<T>, "GPA results are gpa_uint32, gpa_uint64, gpa_float32 or gpa_float64");
        Select();
        T value{};
        if constexpr (std::is_same_v<T, gpa_uint32>) {
            detail::Check(GPA_GetSampleUInt32(id_, sampleId, counterIndex, &value), "GPA_GetSampleUInt32");
        } else if constexpr (std::is_same_v<T, gpa_uint64>) {
            detail::Check(GPA_GetSampleUInt64(id_, sampleId, counterIndex, &value), "GPA_GetSampleUInt64");
        } else if constexpr (std::is_same_v<T, gpa_float32>) {
            detail::Check(GPA_GetSampleFloat32(id_, sampleId, counterIndex, &value), "GPA_GetSampleFloat32");
        } else {
            detail::Check(GPA_GetSampleFloat64(id_, sampleId, counterIndex, &value), "GPA_GetSampleFloat64");
        }
        return value;
    }
    template <class T>
    T Get(gpa_uint32 sampleId, std::string_view counterName) const {
        return Get<T>(sampleId, IndexOf(counterName));
    }

    // The result in whatever type the counter has.
    Value GetValue(gpa_uint32 sampleId, gpa_uint32 counterIndex) const {
        Select();
        GPA_Type type = GPA_TYPE__LAST;
        detail::Check(GPA_GetCounterDataType(counterIndex, &type), "GPA_GetCounterDataType");
        switch (type) {
            case GPA_TYPE_UINT32: return Get<gpa_uint32>(sampleId, counterIndex);
            case GPA_TYPE_UINT64: return Get<gpa_uint64>(sampleId, counterIndex);
            case GPA_TYPE_FLOAT32: return Get<gpa_float32>(sampleId, counterIndex);
            case GPA_TYPE_FLOAT64: return Get<gpa_float64>(sampleId, counterIndex);
            default:
                throw Error(GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE,
                            "counter " + std::to_string(counterIndex) + " has a type GPA cannot read (" +
                                std::to_string(static_cast<int>(type)) + ")");
        }
    }
    Value GetValue(gpa_uint32 sampleId, std::string_view counterName) const {
        return GetValue(sampleId, IndexOf(counterName));
    }

private:
    void Select() const { detail::Check(GPA_SelectContext(context_), "GPA_SelectContext"); }
    gpa_uint32 IndexOf(std::string_view name) const {
        Select();
        gpa_uint32 index = 0;
        detail::Check(GPA_GetCounterIndex(std::string(name).c_str(), &index), "GPA_GetCounterIndex");
        return index;
    }

    void* context_;
    gpa_uint32 id_;
};

// A sample being recorded: GPA_BeginSample in the constructor, GPA_EndSample in End() or the destructor.
class Sample {
public:
    Sample(void* apiContext, gpa_uint32 sampleId) : context_(apiContext), id_(sampleId) {
        detail::Check(GPA_SelectContext(context_), "GPA_SelectContext");
        detail::Check(GPA_BeginSample(sampleId), "GPA_BeginSample");
    }
    ~Sample() {
        if (context_ != nullptr && GPA_SelectContext(context_) == GPA_STATUS_OK) GPA_EndSample();
    }
    Sample(Sample&& other) noexcept : context_(std::exchange(other.context_, nullptr)), id_(other.id_) {}
    Sample& operator=(Sample&&) = delete;
    Sample(const Sample&) = delete;
    Sample& operator=(const Sample&) = delete;

    gpa_uint32 id() const { return id_; }
    void End() {
        void* context = std::exchange(context_, nullptr);
        if (context == nullptr) return;
        detail::Check(GPA_SelectContext(context), "GPA_SelectContext");
        detail::Check(GPA_EndSample(), "GPA_EndSample");
    }

private:
    void* context_;  // null once ended
    gpa_uint32 id_;
};

// A pass being recorded: GPA_BeginPass in the constructor, GPA_EndPass in End() or the destructor.
class Pass {
public:
    explicit Pass(void* apiContext) : context_(apiContext) {
        detail::Check(GPA_SelectContext(context_), "GPA_SelectContext");
        detail::Check(GPA_BeginPass(), "GPA_BeginPass");
    }
    ~Pass() {
        if (context_ != nullptr && GPA_SelectContext(context_) == GPA_STATUS_OK) GPA_EndPass();
    }
    Pass(Pass&& other) noexcept : context_(std::exchange(other.context_, nullptr)) {}
    Pass& operator=(Pass&&) = delete;
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;

    Sample BeginSample(gpa_uint32 sampleId) { return Sample(context_, sampleId); }
    // Records `work` (the commands to measure) as sample `sampleId`.
    template <class Work>
    void Measure(gpa_uint32 sampleId, Work&& work) {
        Sample sample = BeginSample(sampleId);
        std::forward<Work>(work)();
        sample.End();
    }
    void End() {
        void* context = std::exchange(context_, nullptr);
        if (context == nullptr) return;
        detail::Check(GPA_SelectContext(context), "GPA_SelectContext");
        detail::Check(GPA_EndPass(), "GPA_EndPass");
    }

private:
    void* context_;  // null once ended
};

// A session being recorded: GPA_BeginSession in the constructor (see Context::BeginSession), GPA_EndSession
// in End(), which gives its results, or in the destructor, which drops them.
class Session {
public:
    explicit Session(void* apiContext) : context_(apiContext) {
        detail::Check(GPA_SelectContext(context_), "GPA_SelectContext");
        detail::Check(GPA_BeginSession(&id_), "GPA_BeginSession");
    }
    ~Session() {
        if (context_ != nullptr && GPA_SelectContext(context_) == GPA_STATUS_OK) GPA_EndSession();
    }
    Session(Session&& other) noexcept : context_(std::exchange(other.context_, nullptr)), id_(other.id_) {}
    Session& operator=(Session&&) = delete;
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    gpa_uint32 id() const { return id_; }
    // How many times the sampled work must be repeated, one pass each.
    gpa_uint32 PassCount() const {
        detail::Check(GPA_SelectContext(Handle()), "GPA_SelectContext");
        gpa_uint32 passes = 0;
        detail::Check(GPA_GetPassCount(&passes), "GPA_GetPassCount");
        return passes;
    }
    Pass BeginPass() { return Pass(Handle()); }
    // Runs `body(pass)` once per required pass, each between GPA_BeginPass and GPA_EndPass.
    template <class Body>
    void ForEachPass(Body&& body) {
        const gpa_uint32 passes = PassCount();
        for (gpa_uint32 i = 0; i < passes; ++i) {
            Pass pass = BeginPass();
            body(pass);
            pass.End();
        }
    }
    Results End() {
        void* context = Handle();
        detail::Check(GPA_SelectContext(context), "GPA_SelectContext");
        detail::Check(GPA_EndSession(), "GPA_EndSession");
        context_ = nullptr;
        return Results(context, id_);
    }

private:
    void* Handle() const {
        if (context_ == nullptr) throw Error(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, "this session has already ended");
        return context_;
    }

    void* context_;  // null once ended
    gpa_uint32 id_ = 0;
};

// The counters opened on one API object: GPA_OpenContext in the constructor, GPA_CloseContext in the
// destructor.
class Context {
public:
    explicit Context(void* apiContext, GPA_OpenContextFlags flags = GPA_OPENCONTEXT_DEFAULT_BIT) : context_(apiContext) {
        detail::Check(GPA_OpenContext(apiContext, flags), "GPA_OpenContext");
    }
    ~Context() {
        if (context_ != nullptr && GPA_SelectContext(context_) == GPA_STATUS_OK) GPA_CloseContext();
    }
    Context(Context&& other) noexcept : context_(std::exchange(other.context_, nullptr)) {}
    Context& operator=(Context&&) = delete;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    void* handle() const { return context_; }
    void Select() const { detail::Check(GPA_SelectContext(context_), "GPA_SelectContext"); }

    // ---- device ----
    std::optional<std::string> DeviceDescription() const {
        Select();
        const char* description = nullptr;
        const GPA_Status status = GPA_GetDeviceDesc(&description);
        if (status == GPA_STATUS_ERROR_NOT_FOUND) return std::nullopt;
        detail::Check(status, "GPA_GetDeviceDesc");
        return std::string(description);
    }
    // The PCI device id, when the device has one that the library can find.
    std::optional<gpa_uint32> DeviceId() const {
        Select();
        gpa_uint32 id = 0;
        const GPA_Status status = GPA_GetDeviceID(&id);
        if (status == GPA_STATUS_ERROR_NOT_FOUND) return std::nullopt;
        detail::Check(status, "GPA_GetDeviceID");
        return id;
    }

    // ---- counters ----
    gpa_uint32 CounterCount() const {
        Select();
        gpa_uint32 count = 0;
        detail::Check(GPA_GetNumCounters(&count), "GPA_GetNumCounters");
        return count;
    }
    CounterInfo Counter(gpa_uint32 index) const {
        Select();
        CounterInfo info;
        info.index = index;
        const char* text = nullptr;
        detail::Check(GPA_GetCounterName(index, &text), "GPA_GetCounterName");
        info.name = text;
        detail::Check(GPA_GetCounterCategory(index, &text), "GPA_GetCounterCategory");
        info.group = text;
        detail::Check(GPA_GetCounterDescription(index, &text), "GPA_GetCounterDescription");
        info.description = text;
        detail::Check(GPA_GetCounterDataType(index, &info.type), "GPA_GetCounterDataType");
        detail::Check(GPA_GetCounterUsageType(index, &info.usage), "GPA_GetCounterUsageType");
        return info;
    }
    std::vector<CounterInfo> Counters() const {
        std::vector<CounterInfo> counters;
        const gpa_uint32 count = CounterCount();
        counters.reserve(count);
        for (gpa_uint32 i = 0; i < count; ++i) counters.push_back(Counter(i));
        return counters;
    }
    // Case-insensitive, as GPA names are; nullopt when the device has no such counter.
    std::optional<gpa_uint32> FindCounter(std::string_view name) const {
        Select();
        gpa_uint32 index = 0;
        const GPA_Status status = GPA_GetCounterIndex(std::string(name).c_str(), &index);
        if (status == GPA_STATUS_ERROR_NOT_FOUND) return std::nullopt;
        detail::Check(status, "GPA_GetCounterIndex");
        return index;
    }
    // Like FindCounter, but a missing counter is an error.
    gpa_uint32 CounterIndex(std::string_view name) const {
        Select();
        gpa_uint32 index = 0;
        detail::Check(GPA_GetCounterIndex(std::string(name).c_str(), &index), "GPA_GetCounterIndex");
        return index;
    }

    // ---- enabling ----
    void Enable(gpa_uint32 index) {
        Select();
        detail::Check(GPA_EnableCounter(index), "GPA_EnableCounter");
    }
    void Enable(std::string_view name) {
        Select();
        detail::Check(GPA_EnableCounterStr(std::string(name).c_str()), "GPA_EnableCounterStr");
    }
    void EnableAll() {
        Select();
        detail::Check(GPA_EnableAllCounters(), "GPA_EnableAllCounters");
    }
    void Disable(gpa_uint32 index) {
        Select();
        detail::Check(GPA_DisableCounter(index), "GPA_DisableCounter");
    }
    void Disable(std::string_view name) {
        Select();
        detail::Check(GPA_DisableCounterStr(std::string(name).c_str()), "GPA_DisableCounterStr");
    }
    void DisableAll() {
        Select();
        detail::Check(GPA_DisableAllCounters(), "GPA_DisableAllCounters");
    }
    bool IsEnabled(gpa_uint32 index) const {
        Select();
        const GPA_Status status = GPA_IsCounterEnabled(index);
        if (status == GPA_STATUS_ERROR_NOT_FOUND) return false;  // GPA's answer for "not enabled"
        detail::Check(status, "GPA_IsCounterEnabled");
        return true;
    }
    // Indices of the enabled counters, in the order they were enabled.
    std::vector<gpa_uint32> EnabledCounters() const {
        Select();
        gpa_uint32 count = 0;
        detail::Check(GPA_GetEnabledCount(&count), "GPA_GetEnabledCount");
        std::vector<gpa_uint32> indices(count);
        for (gpa_uint32 i = 0; i < count; ++i) {
            detail::Check(GPA_GetEnabledIndex(i, &indices[i]), "GPA_GetEnabledIndex");
        }
        return indices;
    }
    // Passes the enabled counters need.
    gpa_uint32 PassCount() const {
        Select();
        gpa_uint32 passes = 0;
        detail::Check(GPA_GetPassCount(&passes), "GPA_GetPassCount");
        return passes;
    }

    // ---- sampling ----
    Session BeginSession() { return Session(context_); }
    // The results of an ended session of this context (see Session::End).
    Results SessionResults(gpa_uint32 sessionId) const { return Results(context_, sessionId); }

private:
    void* context_;  // null once moved from
};

}  // namespace v1
}  // namespace gpa

#endif  // OPENGPA_GPA_HPP_
