// Steady-clock nanoseconds and a scope that adds its duration to a total: the statistics of the CUDA backend and
// of gpaprof's CUDA part (where configuring, replaying and setting up went).
#pragma once

#include <chrono>
#include <cstdint>

namespace gpa::cuda {

inline uint64_t NowNs() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// Adds the time a scope took to `*total`.
class AddElapsed {
public:
    explicit AddElapsed(uint64_t* total) : total_(total), start_(NowNs()) {}
    ~AddElapsed() { *total_ += NowNs() - start_; }
    AddElapsed(const AddElapsed&) = delete;
    AddElapsed& operator=(const AddElapsed&) = delete;

private:
    uint64_t* total_;
    uint64_t start_;
};

}  // namespace gpa::cuda
