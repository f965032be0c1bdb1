#include "tools/gpaprof/report/pm_sampling_chart.h"

#include <algorithm>

namespace gpaprof::report::html_charts {

PmChart BuildPmSamplingChart(const PmSamplingFile& file, uint64_t begin, uint64_t end, size_t maxBarsPerLane) {
    PmChart chart;
    const uint64_t span = end > begin ? end - begin : 1;
    const uint64_t bucket = std::max<uint64_t>(1, span / std::max<size_t>(1, maxBarsPerLane));
    for (const PmSamplingDevice& device : file.devices) {
        std::vector<const PmSample*> samples;
        for (const PmSample& row : file.rows) {
            if (row.device == device.index) samples.push_back(&row);
        }
        for (size_t m = 0; m < file.metrics.size(); ++m) {
            PmChartLane lane;
            lane.name = "device " + std::to_string(device.index) + ": " + file.metrics[m];  // cut at the end
            lane.percent = IsPercentMetric(file.metrics[m]);
            const size_t laneIndex = chart.lanes.size();
            const size_t firstBar = chart.bars.size();
            double largest = 0;
            // The bar being built: samples of one bucket and one kind, weighted by length.
            bool open = false;
            PmChartBar bar;
            uint64_t barBucket = 0, barEnd = 0, weight = 0;
            double weighted = 0, plain = 0;
            auto close = [&] {
                if (!open) return;
                bar.duration = barEnd - bar.start;
                bar.value = weight ? weighted / static_cast<double>(weight) : plain / static_cast<double>(bar.samples);
                largest = std::max(largest, bar.value);
                chart.bars.push_back(bar);
                open = false;
            };
            for (const PmSample* sample : samples) {
                const std::optional<double> value = m < sample->values.size() ? sample->values[m] : std::nullopt;
                if (!value) {
                    close();
                    continue;
                }
                const int kind = sample->replay ? kPmReplay : sample->droppedBefore ? kPmAfterLost : kPmSample;
                const uint64_t start = sample->startNs >= begin ? sample->startNs - begin : 0;
                const uint64_t stop = sample->endNs >= begin ? sample->endNs - begin : 0;
                const uint64_t key = start / bucket;
                // Samples merge within a bucket, and only with samples of their kind.
                if (open && (kind != bar.kind || key != barBucket)) close();
                if (!open) {
                    open = true;
                    bar = PmChartBar{laneIndex, start, 0, 0, kind, 0};
                    barBucket = key;
                    weight = 0;
                    weighted = plain = 0;
                }
                const uint64_t length = stop - start;
                ++bar.samples;
                weight += length;
                weighted += *value * static_cast<double>(length);
                plain += *value;
                barEnd = stop;
            }
            close();
            lane.top = lane.percent ? 100.0 : largest;
            for (size_t b = firstBar; b < chart.bars.size(); ++b) {
                if (lane.percent) lane.top = std::max(lane.top, chart.bars[b].value);
            }
            chart.lanes.push_back(lane);
        }
    }
    return chart;
}

}  // namespace gpaprof::report::html_charts
