#include "tools/gpaprof/report/format_units.h"

#include <cstdio>

namespace gpaprof::report {

std::string FormatDecimal(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string FormatDuration(double nanoseconds) {
    if (nanoseconds < 1000.0) return FormatDecimal(nanoseconds, 0) + " ns";
    if (nanoseconds < 1e6) return FormatDecimal(nanoseconds / 1e3, 3) + " us";
    if (nanoseconds < 1e9) return FormatDecimal(nanoseconds / 1e6, 3) + " ms";
    return FormatDecimal(nanoseconds / 1e9, 3) + " s";
}

std::string FormatBytes(uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " B";
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    return FormatDecimal(value, 2) + " " + units[unit];
}

double BandwidthGBps(uint64_t bytes, uint64_t nanoseconds) {
    return nanoseconds ? static_cast<double>(bytes) / static_cast<double>(nanoseconds) : 0.0;
}

std::string FormatBandwidth(uint64_t bytes, uint64_t nanoseconds) {
    if (!nanoseconds) return "-";
    return FormatDecimal(BandwidthGBps(bytes, nanoseconds), 2) + " GB/s";
}

}  // namespace gpaprof::report
