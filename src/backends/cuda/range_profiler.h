// CUPTI's range profiler on one CUcontext (cuptiRangeProfiler*): the target side of collection.
//
// Everything that collects on a context (GPA sessions, kernel-replay runs) goes through its RangeProfiler,
// one configuration at a time. The CUPTI object is enabled only while it is needed: the counters of a
// device serve one profiler at a time (a second context's cuptiRangeProfilerStart answers
// CUPTI_ERROR_HARDWARE_BUSY), so configuring on one context first releases any other profiler enabled on
// the same device, decoding what it still holds.
//
// Decoding is lazy: after the last pass of a configuration its data stays on the device until someone
// needs the results or the hardware; whoever comes first decodes it into its owner's counter data image
// (Pending). One process-wide lock serialises all of it (Lock).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/legacy_profiler_session.h"

namespace gpa::cuda {

// cuptiProfilerInitialize, once per process (the range profiler needs it).
Outcome InitializeCuptiProfiler(const CuptiApi& cupti);

// The chip of a device as CUPTI names it ("GH100").
Outcome QueryChipName(const CuptiApi& cupti, CUdevice device, std::string* chip);

// Whether CUPTI can profile the device (architecture, vGPU, confidential computing, MIG...), with the reason.
Outcome CheckProfilingSupported(const CuptiApi& cupti, CUdevice device);

// The counter availability image of the context's device (empty when CUPTI cannot say right now).
std::vector<uint8_t> QueryCounterAvailability(const CuptiApi& cupti, const DriverApi& driver, CUcontext context);

// Which of CUPTI's APIs a RangeProfiler drives. Pausable: user-replay configurations asked for as pausable go
// through the older Profiler API's sessions (legacy_profiler_session.h), whose profiling pauses around work that
// must not be a range; everything else, and everything where the library lacks those sessions, through the
// Range Profiler API.
enum class ProfilerApi { Range, Pausable };

class RangeProfiler {
public:
    // A profiler for `context`. Enables and disables CUPTI's range profiler once to find out whether this
    // process may read the counters: GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the fix when not.
    static Outcome Create(const CuptiApi& cupti, const DriverApi& driver, CUcontext context,
                          std::unique_ptr<RangeProfiler>* profiler, ProfilerApi api = ProfilerApi::Range);
    ~RangeProfiler();  // decodes pending data, then disables
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    CUcontext context() const { return context_; }
    const CuptiApi& cupti() const { return cupti_; }
    const DriverApi& driver() const { return driver_; }

    // The process-wide lock every call below expects its caller to hold.
    static std::unique_lock<std::mutex> Lock();

    // Data collected for a configuration and not decoded yet. `decoded` is called once, under the lock,
    // when the data has been decoded into the owner's image (or could not be).
    struct Pending {
        const void* owner = nullptr;
        std::function<void(const Outcome& outcome)> decoded;
    };
    // Decodes the pending data, if any (blocks until the device has finished the work it covers). Data of a
    // configuration whose passes did not all run cannot be decoded: it is dropped with the CUPTI object.
    void FinishPending();
    // Decodes the pending data now when `owner` owns it; answers whether it did.
    bool FinishPendingOf(const void* owner);
    // Decodes `owner`'s pending data for the profiler's sake only (its image is about to go away).
    void Abandon(const void* owner);
    // After CUPTI and the plan disagreed: decodes what is pending and disables the CUPTI object, so that
    // the next configuration starts on a fresh one.
    void Reset();

    // Makes `config` the current configuration with a fresh counter data image for `metrics` and
    // `maxRanges` ranges (enabling the profiler, after releasing any other on the device, and decoding
    // the previous configuration's data), and registers `pending` as the owner of what it collects.
    // `pausable`: a configuration that can Pause (user replay on a Pausable profiler; see CanPause).
    Outcome Configure(const std::vector<uint8_t>& config, const std::vector<std::string>& metrics, size_t maxRanges,
                      std::vector<uint8_t>* counterData, CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay,
                      Pending pending, bool pausable = false);
    Outcome Start();
    Outcome Stop(bool* allPassesSubmitted);
    Outcome PushRange(const std::string& name);
    Outcome PopRange();
    // Whether configurations asked for as pausable can pause (a Pausable profiler, user replay), and whether
    // the current one can: while paused between Start and Stop, launches are no ranges.
    bool Pausable() const { return api_ == ProfilerApi::Pausable; }
    bool CanPause() const { return session_ != nullptr; }
    // Why a Pausable profiler went over to the Range Profiler API (a session could not begin), or empty.
    const std::string& pauseLost() const { return pauseLost_; }
    Outcome Pause();
    Outcome Resume();
    // A decoded session of the Pausable API is kept for the next configuration when that is the same one with
    // the same room (gpaprof's next batch): it goes on into the same image instead of a new session, which costs
    // about 0.3 s plus 1 ms per range of room to begin on an H100 and 40-130 ms to end (docs/benchmarks.md).
    // OPENGPA_CUDA_SESSION_REUSE=0 ends each session when its data is decoded, as before.
    static bool ReuseSessions();
    size_t sessionsReused() const { return sessionsReused_; }
    // Where configuring went, process-wide (gpaprof's statistics line): the empty counter data images made,
    // the Profiler API sessions begun, gone on (Restart) and ended, in nanoseconds.
    struct StepTimes {
        uint64_t emptyImageNs = 0, sessionBeginNs = 0, sessionRestartNs = 0, sessionEndNs = 0;
        uint64_t emptyImages = 0, sessionsBegun = 0;
        uint64_t largestImageBytes = 0;
    };
    static StepTimes ProcessStepTimes();  // under Lock
    // Ends a session kept after its data was decoded (the process is ending: no session is left begun while CUDA
    // and CUPTI tear down). Under Lock.
    void EndKeptSession();

private:
    RangeProfiler(const CuptiApi& cupti, const DriverApi& driver, CUcontext context, CUdevice device, ProfilerApi api)
        : cupti_(cupti), driver_(driver), context_(context), device_(device), api_(api) {}
    Outcome EnableObject();
    // The failure of a call after another context of the device took the range profiler over.
    static Outcome Released();
    // OPENGPA_CUDA_FRESH_RANGE_PROFILER=1: a fresh CUPTI object for every configuration, as before the
    // reuse of one for the same configuration (to compare the two).
    static bool FreshObjectEachTime();

    void DisableObject();
    void Release();  // another context needs the device: decode and disable
    Outcome CreateCounterData(const std::vector<std::string>& metrics, size_t maxRanges, std::vector<uint8_t>* image);
    Outcome Decode();
    // The Pausable API: a session per configuration, into a copy of an empty image made once per metric list
    // and room with the Range Profiler API (the older API would need NVPW's counter data builder for it).
    Outcome ConfigureSession(const std::vector<uint8_t>& config, const std::vector<std::string>& metrics,
                             size_t maxRanges, std::vector<uint8_t>* counterData, CUpti_ProfilerRange range,
                             CUpti_ProfilerReplayMode replay);
    Outcome EmptyCounterData(const std::vector<std::string>& metrics, size_t maxRanges, std::vector<uint8_t>* image);
    // The empty image made before for `metrics` and room (nullptr: none yet), by EmptyImageKey.
    const std::vector<uint8_t>* KnownEmptyImage(const std::vector<std::string>& metrics, size_t maxRanges) const;
    static std::string EmptyImageKey(const std::vector<std::string>& metrics, size_t maxRanges);
    void ReleaseOthersOnDevice();
    // The configuration is set: what it is, and `pending` as the owner of what it will collect.
    void Configured(const std::vector<uint8_t>& config, CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay,
                    Pending pending);

    const CuptiApi& cupti_;
    const DriverApi& driver_;
    const CUcontext context_;
    const CUdevice device_;
    ProfilerApi api_;
    std::string pauseLost_;
    CUpti_RangeProfiler_Object* object_ = nullptr;  // null while disabled
    std::unique_ptr<LegacyProfilerSession> session_;  // the Pausable API's, while a configuration is set
    size_t sessionRanges_ = 0;     // the room session_ began with
    bool sessionDecoded_ = false;  // session_'s data was decoded and it was kept (ReuseSessions)
    size_t sessionsReused_ = 0;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> emptyImages_;  // by metric list and room
    bool configured_ = false;                       // a configuration was set on object_
    std::vector<uint8_t> config_;                   // object_'s configuration (range and replay modes too)
    CUpti_ProfilerRange range_{};
    CUpti_ProfilerReplayMode replay_{};
    bool hasPending_ = false;
    bool pendingComplete_ = false;  // CUPTI reported every pass of the pending configuration submitted
    bool stopFailed_ = false;       // a Stop of the pending configuration failed: never decoded
    Pending pending_;
};

}  // namespace gpa::cuda
