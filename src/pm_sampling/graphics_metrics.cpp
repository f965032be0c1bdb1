// GraphicsMetrics() (device_sampling.h): a list, so built everywhere (opengpa_pm_windows), with or without CUPTI.
#include "pm_sampling/device_sampling.h"

namespace gpa::pm_sampling {

const std::vector<std::string>& GraphicsMetrics() {
    static const std::vector<std::string> metrics = {
        "gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
        "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
        "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "lts__t_bytes.sum",
        "pcie__read_bytes.sum",
        "pcie__write_bytes.sum",
    };
    return metrics;
}

}  // namespace gpa::pm_sampling
