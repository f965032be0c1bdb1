#include "tools/gpaprof/report/pm_sampling_tracks.h"

#include <map>

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

constexpr const char* kCategory = "pm_sampling";
constexpr uint64_t kFirstDevicePid = 2;        // process 1 is the host
constexpr uint64_t kTracksPerDevice = 100000;  // the flag track, then one NA track per metric

// The samples of one device, in file order (the reader keeps each device's samples in time order).
std::vector<const PmSample*> SamplesOf(const PmSamplingFile& file, uint32_t device) {
    std::vector<const PmSample*> samples;
    for (const PmSample& row : file.rows) {
        if (row.device == device) samples.push_back(&row);
    }
    return samples;
}

}  // namespace

std::vector<uint64_t> PmSamplingProcesses(const PmSamplingFile& file,
                                          const std::vector<std::pair<std::string, std::string>>& deviceProcesses) {
    std::vector<uint64_t> pids;
    uint64_t nextOwn = kFirstDevicePid + deviceProcesses.size();
    for (const PmSamplingDevice& device : file.devices) {
        // Timestamp lines write device names with '_' for spaces; the CUDA part's process first.
        std::optional<size_t> match;
        for (size_t d = 0; d < deviceProcesses.size(); ++d) {
            if (UnderscoreSpaces(deviceProcesses[d].second) != UnderscoreSpaces(device.name)) continue;
            if (!match || (deviceProcesses[d].first == "cuda" && deviceProcesses[*match].first != "cuda")) match = d;
        }
        pids.push_back(match ? kFirstDevicePid + *match : nextOwn++);
    }
    return pids;
}

void AppendPmSamplingTracks(const PmSamplingFile& file,
                            const std::vector<std::pair<std::string, std::string>>& deviceProcesses,
                            TraceEventWriter* out) {
    const std::vector<uint64_t> pids = PmSamplingProcesses(file, deviceProcesses);
    std::map<uint64_t, size_t> devicesInProcess;
    for (uint64_t pid : pids) ++devicesInProcess[pid];
    for (size_t i = 0; i < file.devices.size(); ++i) {
        const PmSamplingDevice& device = file.devices[i];
        const uint64_t pid = pids[i];
        const std::string deviceWord = "device " + std::to_string(device.index);
        if (pid >= kFirstDevicePid + deviceProcesses.size()) {
            out->Metadata("process_name", pid, std::nullopt,
                          device.name + " (" + device.chip + ") " + deviceWord + ": PM sampling");
            out->SortIndex("process_sort_index", pid, std::nullopt, pid);
        }
        const std::string prefix = devicesInProcess[pid] > 1 ? deviceWord + ": " : std::string();
        const std::vector<const PmSample*> samples = SamplesOf(file, device.index);

        // Counters: each value from its sample's start.
        for (size_t m = 0; m < file.metrics.size(); ++m) {
            for (const PmSample* sample : samples) {
                if (m < sample->values.size() && sample->values[m]) {
                    out->Counter(prefix + file.metrics[m], kCategory, pid, sample->startNs, *sample->values[m]);
                }
            }
        }

        // The flag track: replay runs, lost samples, gaps.
        const uint64_t flagTid = kPmSamplingTidBase + device.index * kTracksPerDevice;
        out->Metadata("thread_name", pid, flagTid, "PM sampling: " + deviceWord);
        out->SortIndex("thread_sort_index", pid, flagTid, flagTid);
        for (size_t k = 0; k < samples.size(); ++k) {
            const PmSample& sample = *samples[k];
            const uint64_t previousEnd = k ? samples[k - 1]->endNs : sample.startNs;
            if (sample.droppedBefore) {
                out->Begin("samples lost", kCategory, pid, flagTid, previousEnd, sample.startNs);
                out->Arg("why", "the hardware buffer filled before it was read: the samples of this time are lost");
                out->End();
            } else if (k && sample.startNs > previousEnd && sample.startNs - previousEnd > file.intervalNs) {
                out->Begin("not sampled", kCategory, pid, flagTid, previousEnd, sample.startNs);
                out->Arg("why", "no samples between these two (sampling was paused or stopped)");
                out->End();
            }
            if (!sample.replay || (k && samples[k - 1]->replay)) continue;
            size_t last = k;
            while (last + 1 < samples.size() && samples[last + 1]->replay) ++last;
            out->Begin("gpaprof replay", kCategory, pid, flagTid, sample.startNs, samples[last]->endNs);
            out->Arg("why", "gpaprof -p was replaying kernels: these samples show gpaprof's work, not the application's");
            out->ArgNumber("samples", last - k + 1);
            out->End();
        }

        // NA runs, one track per metric that has them.
        for (size_t m = 0; m < file.metrics.size(); ++m) {
            const uint64_t tid = flagTid + 1 + m;
            bool named = false;
            for (size_t k = 0; k < samples.size(); ++k) {
                auto unknown = [&](size_t j) { return m >= samples[j]->values.size() || !samples[j]->values[m]; };
                if (!unknown(k) || (k && unknown(k - 1))) continue;
                size_t last = k;
                while (last + 1 < samples.size() && unknown(last + 1)) ++last;
                if (!named) {
                    out->Metadata("thread_name", pid, tid, "PM sampling: " + deviceWord + " NA: " + file.metrics[m]);
                    out->SortIndex("thread_sort_index", pid, tid, tid);
                    named = true;
                }
                out->Begin("NA", kCategory, pid, tid, samples[k]->startNs, samples[last]->endNs);
                out->Arg("metric", file.metrics[m]);
                out->ArgNumber("samples", last - k + 1);
                out->End();
            }
        }
    }
}

}  // namespace gpaprof::report
