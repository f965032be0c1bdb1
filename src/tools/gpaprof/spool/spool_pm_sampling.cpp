// <out>.pmsampling.csv from a spool's PM-sampling records: 'G' (a sampled device, its metrics and what it left out)
// and 'H' (one sample). The CUDA part drains each device's sampler on a thread of its own, so the samples of several
// devices interleave in the spool, and a device's own may come out of order; nothing is made up here.
#include <algorithm>
#include <map>

#include "tools/gpaprof/spool/spool_assembler_internal.h"

namespace gpaprof::assembly {
namespace {

// "metric: why", as MakePlan writes it.
PmSamplingLeftOut SplitLeftOut(const std::string& text) {
    const size_t colon = text.find(": ");
    if (colon == std::string::npos) return {text, "no reason given"};
    return {text.substr(0, colon), text.substr(colon + 2)};
}

// Each device's samples in time order, in the places its samples had among the rows (the devices' interleaving
// stays the spool's); then a sample that starts before the end of its device's previous one is left out.
size_t OrderAndLeaveOutOverlaps(std::vector<PmSample>* rows, std::map<uint32_t, size_t>* overlapping) {
    std::map<uint32_t, std::vector<size_t>> places;
    for (size_t i = 0; i < rows->size(); ++i) places[(*rows)[i].device].push_back(i);
    std::vector<bool> leftOut(rows->size(), false);
    size_t left = 0;
    for (auto& [device, at] : places) {
        auto byStart = [&](size_t a, size_t b) { return (*rows)[a].startNs < (*rows)[b].startNs; };
        if (!std::is_sorted(at.begin(), at.end(), byStart)) {
            std::vector<size_t> order = at;
            std::stable_sort(order.begin(), order.end(), byStart);
            std::vector<PmSample> sorted;
            sorted.reserve(order.size());
            for (size_t i : order) sorted.push_back(std::move((*rows)[i]));
            for (size_t i = 0; i < at.size(); ++i) (*rows)[at[i]] = std::move(sorted[i]);
        }
        bool any = false;
        uint64_t previousEnd = 0;
        for (size_t i : at) {
            const PmSample& row = (*rows)[i];
            if (any && row.startNs < previousEnd) {
                leftOut[i] = true;
                ++(*overlapping)[device];
                ++left;
                continue;
            }
            any = true;
            previousEnd = row.endNs;
        }
    }
    if (left > 0) {
        size_t kept = 0;
        for (size_t i = 0; i < rows->size(); ++i) {
            if (leftOut[i]) continue;
            if (kept != i) (*rows)[kept] = std::move((*rows)[i]);  // never onto itself: that empties its values
            ++kept;
        }
        rows->resize(kept);
    }
    return left;
}

}  // namespace

std::optional<PmSamplingFile> AssemblePmSampling(std::vector<PmDeviceEntry> devices,
                                                 std::vector<spool::PmSampleRecord> samples, const SessionInfo& session,
                                                 std::vector<std::string>* problems) {
    if (devices.empty() && samples.empty()) return std::nullopt;
    PmSamplingFile file;
    file.session = session;
    file.session.devices.clear();  // the file has no device groups, only its Device<N> lines
    file.session.listSeparator = PmSamplingSeparator(session.listSeparator);  // what the file is written with

    // Devices, columns (every device's metrics, in first-seen order) and what was left out, once each.
    std::vector<std::vector<size_t>> columns(devices.size());  // per device record: its metrics' columns
    for (size_t d = 0; d < devices.size(); ++d) {
        const spool::PmDeviceRecord& record = devices[d].record;
        if (d == 0) {
            file.intervalNs = record.intervalNs;
        } else if (record.intervalNs != file.intervalNs) {
            problems->push_back("PM sampling: device " + std::to_string(record.device) + " was sampled every " +
                                std::to_string(record.intervalNs) + " ns; the file says " +
                                std::to_string(file.intervalNs) + " ns, its first device's interval");
        }
        if (std::none_of(file.devices.begin(), file.devices.end(),
                         [&](const PmSamplingDevice& known) { return known.index == record.device; })) {
            file.devices.push_back({record.device, record.name, record.chip});
        }
        for (const std::string& metric : record.metrics) {
            auto found = std::find(file.metrics.begin(), file.metrics.end(), metric);
            if (found == file.metrics.end()) found = file.metrics.insert(file.metrics.end(), metric);
            columns[d].push_back(static_cast<size_t>(found - file.metrics.begin()));
        }
        for (const std::string& text : record.leftOut) {
            PmSamplingLeftOut left = SplitLeftOut(text);
            if (std::find(file.leftOut.begin(), file.leftOut.end(), left) == file.leftOut.end()) {
                file.leftOut.push_back(std::move(left));
            }
        }
    }

    // Each sample's values into the file's columns, through the last record of its device before it (the first one
    // when the sample came before any).
    std::map<uint32_t, size_t> current, first;
    for (size_t d = devices.size(); d-- > 0;) first[devices[d].record.device] = d;
    std::map<uint32_t, size_t> unknownDevice, mismatched, backwards, overlapping;
    size_t nextDevice = 0;
    file.rows.reserve(samples.size());
    for (size_t s = 0; s < samples.size(); ++s) {
        spool::PmSampleRecord& sample = samples[s];
        for (; nextDevice < devices.size() && devices[nextDevice].firstSample <= s; ++nextDevice) {
            current[devices[nextDevice].record.device] = nextDevice;
        }
        auto at = current.find(sample.device);
        if (at == current.end()) {
            at = first.find(sample.device);
            if (at == first.end()) {
                ++unknownDevice[sample.device];
                continue;
            }
        }
        const std::vector<size_t>& to = columns[at->second];
        if (sample.values.size() != to.size()) {
            ++mismatched[sample.device];
            continue;
        }
        if (sample.endNs < sample.startNs) {
            ++backwards[sample.device];
            continue;
        }
        PmSample row{sample.device, sample.startNs, sample.endNs, sample.droppedBefore, sample.replay, {}};
        bool inPlace = to.size() == file.metrics.size();
        for (size_t i = 0; inPlace && i < to.size(); ++i) inPlace = to[i] == i;
        if (inPlace) {
            row.values = std::move(sample.values);
        } else {
            row.values.assign(file.metrics.size(), std::nullopt);  // NA where the device has no such column
            for (size_t i = 0; i < to.size(); ++i) row.values[to[i]] = sample.values[i];
        }
        file.rows.push_back(std::move(row));
    }
    OrderAndLeaveOutOverlaps(&file.rows, &overlapping);

    auto report = [problems](const std::map<uint32_t, size_t>& counts, const std::string& why) {
        for (const auto& [device, count] : counts) {
            problems->push_back("PM sampling: " + std::to_string(count) + " sample" + (count == 1 ? "" : "s") +
                                " of device " + std::to_string(device) + " left out: " + why);
        }
    };
    report(unknownDevice, "the spool has no 'G' record of that device");
    report(mismatched, "each has another number of values than the device has metrics");
    report(backwards, "each ends before it starts");
    report(overlapping, "each starts before the end of the device's previous sample");
    return file;
}

}  // namespace gpaprof::assembly
