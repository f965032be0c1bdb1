// CUPTI's range profiler on one CUcontext (cuptiRangeProfiler*): the target side of collection.
//
// CUPTI allows one range profiler object per context. Everything that collects on the context (GPA
// sessions, kernel-replay runs) goes through this object, one configuration at a time. Decoding is lazy:
// after the last pass of a configuration its data stays on the device until someone needs the results
// or the profiler for another configuration; whoever reconfigures first decodes the previous data into
// its owner's counter data image (Pending).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/cupti_loader.h"

namespace gpa::cuda {

// cuptiProfilerInitialize, once per process (the range profiler needs it).
Outcome InitializeCuptiProfiler(const CuptiApi& cupti);

// The chip of a device as CUPTI names it ("GH100").
Outcome QueryChipName(const CuptiApi& cupti, CUdevice device, std::string* chip);

// Whether CUPTI can profile the device (architecture, vGPU, confidential computing, MIG...), with the reason.
Outcome CheckProfilingSupported(const CuptiApi& cupti, CUdevice device);

// The counter availability image of the context's device (empty when CUPTI cannot say right now).
std::vector<uint8_t> QueryCounterAvailability(const CuptiApi& cupti, const DriverApi& driver, CUcontext context);

class RangeProfiler {
public:
    // Enables range profiling on `context` (cuptiRangeProfilerEnable). Fails with
    // GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED and the fix when counters are restricted to administrators.
    static Outcome Enable(const CuptiApi& cupti, const DriverApi& driver, CUcontext context,
                          std::unique_ptr<RangeProfiler>* profiler);
    ~RangeProfiler();  // decodes pending data, then cuptiRangeProfilerDisable
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    CUcontext context() const { return context_; }
    const CuptiApi& cupti() const { return cupti_; }
    const DriverApi& driver() const { return driver_; }

    // Serialises use of the profiler; every call below expects the caller to hold it.
    std::unique_lock<std::mutex> Lock() { return std::unique_lock<std::mutex>(mutex_); }

    // A counter data image able to hold `maxRanges` ranges of `metrics`.
    Outcome CreateCounterData(const std::vector<std::string>& metrics, size_t maxRanges, std::vector<uint8_t>* image);

    // Data collected for a configuration and not decoded yet. `decoded` is called once, with the profiler
    // locked, when the data has been decoded into the owner's image (or could not be).
    struct Pending {
        const void* owner = nullptr;
        std::function<void(const Outcome& outcome)> decoded;
    };
    // Decodes the pending data, if any (blocks until the device has finished the work it covers).
    void FinishPending();
    // Decodes the pending data now when `owner` owns it; answers whether it did.
    bool FinishPendingOf(const void* owner);
    // Forgets pending data of `owner` after decoding it (its image is about to go away).
    void Abandon(const void* owner);

    // Makes `config`/`counterData` the current configuration (after decoding the previous one's data) and
    // registers `pending` as the owner of what it collects.
    Outcome Configure(const std::vector<uint8_t>& config, std::vector<uint8_t>* counterData, CUpti_ProfilerRange range,
                      CUpti_ProfilerReplayMode replay, size_t maxRangesPerPass, Pending pending);
    Outcome Start();
    Outcome Stop(bool* allPassesSubmitted);
    Outcome PushRange(const std::string& name);
    Outcome PopRange();

private:
    RangeProfiler(const CuptiApi& cupti, const DriverApi& driver, CUcontext context, CUpti_RangeProfiler_Object* object)
        : cupti_(cupti), driver_(driver), context_(context), object_(object) {}
    Outcome Decode();

    const CuptiApi& cupti_;
    const DriverApi& driver_;
    const CUcontext context_;
    CUpti_RangeProfiler_Object* object_;
    std::mutex mutex_;
    bool configured_ = false;
    bool hasPending_ = false;
    Pending pending_;
};

}  // namespace gpa::cuda
