// Human-readable numbers for the report pages: durations from nanoseconds, sizes from bytes, bandwidth.
#pragma once

#include <cstdint>
#include <string>

namespace gpaprof::report {

// "812 ns", "12.345 us", "1.234 ms", "2.500 s".
std::string FormatDuration(double nanoseconds);
// "512 B", "4.00 KiB", "1.50 MiB", "2.00 GiB".
std::string FormatBytes(uint64_t bytes);
// Bytes per nanosecond is GB/s (10^9 bytes per second): "12.34 GB/s"; "-" when the duration is 0.
std::string FormatBandwidth(uint64_t bytes, uint64_t nanoseconds);
// Bandwidth in GB/s; 0 when the duration is 0.
double BandwidthGBps(uint64_t bytes, uint64_t nanoseconds);
// "%.<digits>f" in the C locale.
std::string FormatDecimal(double value, int digits);

}  // namespace gpaprof::report
