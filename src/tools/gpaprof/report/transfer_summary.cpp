#include "tools/gpaprof/report/transfer_summary.h"

#include <algorithm>
#include <map>

#include "tools/gpaprof/report/format_units.h"

namespace gpaprof::report {
namespace {

std::string Upper(const std::string& text) {
    std::string upper = text;
    for (char& c : upper) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return upper;
}

}  // namespace

// Names compared in upper case: OpenCL commands (CL_COMMAND_READ_BUFFER), CUDA copy kinds
// (cudaMemcpyHostToDevice, CUDA_MEMCPY_HTOD with A for arrays and PTOP for peers), driver calls (cuMemcpyHtoD).
std::string TransferDirection(const std::string& command, const std::string& call) {
    const std::string what = Upper(command.empty() ? call : command);
    auto has = [&](const char* part) { return what.find(part) != std::string::npos; };
    if (has("HOSTTODEVICE") || has("HTOD") || has("HTOA")) return "host to device";
    if (has("DEVICETOHOST") || has("DTOH") || has("ATOH")) return "device to host";
    if (has("HOSTTOHOST") || has("HTOH")) return "host to host";
    if (has("DEVICETODEVICE") || has("DTOD") || has("DTOA") || has("ATOD") || has("ATOA") || has("PTOP") ||
        has("PEER")) {
        return "device to device";
    }
    if (has("FILL") || has("MEMSET")) return "fill";
    if (has("UNMAP")) return "unmap";
    if (has("MAP")) return "map";
    if (has("MIGRATE")) return "migrate";
    if (has("COPY") || has("MEMCPY")) return "device to device";
    if (has("READ")) return "device to host";
    if (has("WRITE")) return "host to device";
    return "other";
}

TransferSummary SummarizeTransfers(const Timeline& timeline, size_t top) {
    TransferSummary summary;
    std::vector<TransferRecord> records;
    std::map<std::string, DirectionTotals> directions;
    for (const DeviceActivity& activity : timeline.activities) {
        if (activity.kind != ActivityKind::Transfer) continue;
        if (!activity.completed) {
            ++summary.incomplete;
            continue;
        }
        TransferRecord record;
        record.api = activity.api;
        record.command = activity.command;
        record.device = activity.device;
        record.queue = activity.queue;
        record.bytes = activity.bytes.value_or(0);
        record.start = activity.start;
        record.durationNs = activity.duration();
        record.bandwidthGBps = BandwidthGBps(record.bytes, record.durationNs);
        if (activity.hostCall) {
            const HostCall& host = timeline.calls[*activity.hostCall];
            record.call = host.call->name;
            record.threadId = host.threadId;
            record.callIndex = host.index;
        }
        record.direction = TransferDirection(record.command, record.call);
        DirectionTotals& totals = directions[record.direction];
        totals.direction = record.direction;
        ++totals.transfers;
        totals.bytes += record.bytes;
        totals.durationNs += record.durationNs;
        ++summary.transfers;
        summary.bytes += record.bytes;
        summary.durationNs += record.durationNs;
        records.push_back(std::move(record));
    }
    for (auto& [name, totals] : directions) summary.directions.push_back(totals);
    std::stable_sort(summary.directions.begin(), summary.directions.end(),
                     [](const DirectionTotals& a, const DirectionTotals& b) { return a.bytes > b.bytes; });

    auto firstOf = [&](auto better) {
        std::vector<TransferRecord> sorted = records;
        std::stable_sort(sorted.begin(), sorted.end(), better);
        if (sorted.size() > top) sorted.resize(top);
        return sorted;
    };
    summary.largest = firstOf([](const TransferRecord& a, const TransferRecord& b) {
        if (a.bytes != b.bytes) return a.bytes > b.bytes;
        if (a.durationNs != b.durationNs) return a.durationNs > b.durationNs;
        return a.start < b.start;
    });
    summary.longest = firstOf([](const TransferRecord& a, const TransferRecord& b) {
        if (a.durationNs != b.durationNs) return a.durationNs > b.durationNs;
        if (a.bytes != b.bytes) return a.bytes > b.bytes;
        return a.start < b.start;
    });
    return summary;
}

}  // namespace gpaprof::report
