#include "pm_sampling/impossible_values.h"

#include <limits>

namespace gpa::pm_sampling {
namespace {
constexpr double kMostPercentOfPeak = 101.0;  // 100, and a margin for the evaluation's rounding
}  // namespace

bool IsPercentOfPeak(const std::string& metric) { return metric.find(".pct_of_peak_") != std::string::npos; }

size_t WithholdImpossibleValues(const std::vector<std::string>& metrics, std::vector<double>* values) {
    size_t withheld = 0;
    for (size_t m = 0; m < metrics.size() && m < values->size(); ++m) {
        double& value = (*values)[m];
        if (IsPercentOfPeak(metrics[m]) && value > kMostPercentOfPeak) {
            value = std::numeric_limits<double>::quiet_NaN();
            ++withheld;
        }
    }
    return withheld;
}

}  // namespace gpa::pm_sampling
