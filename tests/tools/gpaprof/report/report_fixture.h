// Hand-built profiles with known numbers for the report tests: an OpenCL trace on two threads (with a
// hostile kernel name, a failed build, leaks, redundant and blocking waits, poor work-group sizes,
// nested markers), a CUDA trace with a kernel timestamp section, and the matching .csv and .occupancy.
// The comments in report_fixture.cpp give each call's times; the tests check against them.
#pragma once

#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report::testing {

inline constexpr const char* kHostileKernel = "<script>alert(1)</script>";
inline constexpr const char* kHostileMarker = "compute </script><b>&\"'";
inline constexpr uint64_t kMainThread = 100;
inline constexpr uint64_t kWorkerThread = 200;

SessionInfo FixtureSession();
AtpFile OpenClFixture();
AtpFile CudaFixture();
CsvFile CsvFixture();
OccupancyFile OccupancyFixture();
// PM samples beside CudaFixture (pm_sampling_report_test.cpp gives each sample's numbers): device 0 is the trace's
// NVIDIA_H100, device 1 an A100 the trace has no work on.
PmSamplingFile PmSamplingFixture();

// Builders for tests that make their own traces.
ApiCall Call(const std::string& name, const std::string& returnValue, std::vector<std::string> args, uint64_t start,
             uint64_t end);
ApiCall Enqueue(ApiCall call, uint32_t commandType, const std::string& commandName, uint64_t deviceStart,
                uint64_t deviceEnd, uint64_t queueId, const std::string& queueHandle);
ApiCall Kernel(ApiCall enqueue, const std::string& kernelHandle, const std::string& kernelName,
               std::vector<uint64_t> global, std::vector<uint64_t> local);
AtpFile SingleThreadTrace(std::vector<ApiCall> calls, const std::string& api = "ocl");

}  // namespace gpaprof::report::testing
