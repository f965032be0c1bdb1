#include "layers/opencl/command_measurement.h"

#include <cmath>
#include <limits>

namespace gpa::cl_layer {

namespace {

// A span of two device timestamps; a driver that reports them out of order gets 0, not a wrapped value.
uint64_t Span(cl_ulong from, cl_ulong to) { return to > from ? to - from : 0; }

void SetSum(Measurement* m, CounterId id, uint64_t value) { (*m)[IndexOf(id)].sum = value; }

}  // namespace

Measurement Measure(const CommandSample& sample) {
    Measurement m{};
    const uint64_t duration = Span(sample.times.start, sample.times.end);
    const CommandShape& shape = sample.shape;
    SetSum(&m, CounterId::kCommandDuration, duration);
    SetSum(&m, CounterId::kQueuedToStart, Span(sample.times.queued, sample.times.start));
    SetSum(&m, CounterId::kSubmitToStart, Span(sample.times.submit, sample.times.start));
    const bool kernel = shape.kind == CommandKind::kKernel;
    const bool transfer = shape.kind == CommandKind::kTransfer;
    SetSum(&m, CounterId::kKernelWorkItems, kernel ? shape.workItems : 0);
    if (kernel && !shape.workGroups) {
        m[IndexOf(CounterId::kKernelWorkGroups)].unknown = true;
    } else {
        SetSum(&m, CounterId::kKernelWorkGroups, kernel ? *shape.workGroups : 0);
    }
    SetSum(&m, CounterId::kKernelDuration, kernel ? duration : 0);
    SetSum(&m, CounterId::kTransferBytes, transfer ? shape.bytes : 0);
    SetSum(&m, CounterId::kTransferDuration, transfer ? duration : 0);

    for (const CounterDefinition& counter : AllCounters()) {
        CounterValue& value = m[IndexOf(counter.id)];
        if (counter.aggregation == Aggregation::kWeightedMean) {
            const std::optional<double>& reading = sample.readings[IndexOf(counter.id)];
            if (!reading || std::isnan(*reading)) continue;
            value.numerator = *reading * static_cast<double>(duration);
            value.denominator = static_cast<double>(duration);
            value.plainSum = *reading;
            value.plainCount = 1;
        } else if (counter.aggregation == Aggregation::kSum && counter.source == Source::kCpuWindow) {
            value.sum = sample.spanCounts[IndexOf(counter.id)];
        }
    }
    if (sample.energyJoules && sample.spanSeconds > 0) {
        CounterValue& power = m[IndexOf(CounterId::kCpuPackagePower)];
        power.numerator = *sample.energyJoules;
        power.denominator = sample.spanSeconds;
    }
    return m;
}

void Accumulate(Measurement* total, const Measurement& command) {
    for (const CounterDefinition& counter : AllCounters()) {
        CounterValue& into = (*total)[IndexOf(counter.id)];
        const CounterValue& from = command[IndexOf(counter.id)];
        into.sum += from.sum;
        into.unknown = into.unknown || from.unknown;
        into.numerator += from.numerator;
        into.denominator += from.denominator;
        into.plainSum += from.plainSum;
        into.plainCount += from.plainCount;
    }
}

cl_performance_counter_result_codeplay ResultOf(const Measurement& measurement, CounterId id) {
    const CounterDefinition& counter = Definition(id);
    const CounterValue& value = measurement[IndexOf(id)];
    double real = std::numeric_limits<double>::quiet_NaN();
    if (counter.aggregation == Aggregation::kWeightedMean) {
        // Weighted by duration; commands that took 0 ns carry no weight, so only they give a plain mean.
        if (value.denominator > 0) {
            real = value.numerator / value.denominator;
        } else if (value.plainCount > 0) {
            real = value.plainSum / value.plainCount;
        }
    } else if (counter.aggregation == Aggregation::kRatioOfSums) {
        if (value.denominator > 0) real = value.numerator / value.denominator;
    } else {
        real = static_cast<double>(value.sum);
    }
    cl_performance_counter_result_codeplay result{};
    switch (counter.storage) {
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY: result.uint64 = value.sum; break;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY:
            result.int64 = value.unknown ? -1 : static_cast<cl_long>(value.sum);
            break;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY: result.uint32 = static_cast<cl_uint>(value.sum); break;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY:
            result.int32 = value.unknown ? -1 : static_cast<cl_int>(value.sum);
            break;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY: result.float32 = static_cast<cl_float>(real); break;
        default: result.float64 = real; break;
    }
    return result;
}

std::vector<cl_performance_counter_result_codeplay> Results(const Measurement& measurement,
                                                            std::span<const CounterId> enabled) {
    std::vector<cl_performance_counter_result_codeplay> results;
    results.reserve(enabled.size());
    for (CounterId id : enabled) results.push_back(ResultOf(measurement, id));
    return results;
}

}  // namespace gpa::cl_layer
