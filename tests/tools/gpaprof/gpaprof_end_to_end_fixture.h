// What gpaprof's OpenCL end-to-end tests share (end_to_end_test.cpp, end_to_end_options_test.cpp): the fixture
// that runs gpaprof on the programs of apps/ (skipping, saying why, without an OpenCL device) and the checks of
// a well-formed trace.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profiled_run.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/opencl_api_types.h"

namespace gpaprof {

using testing::Execute;
using testing::Outcome;
using testing::ReadAll;

// The probe's device is a CPU (PoCL): its profiling clock is the host's, and every command has device times.
// Other devices (NVIDIA's OpenCL) get the checks their drivers can meet, each exception said where it is.
inline bool g_cpuDevice = true;

inline std::string App(const std::string& name) { return std::string(GPAPROF_APP_DIR) + "/" + name; }

class GpaprofEndToEnd : public testing::ProfiledRunTest {
protected:
    void SetUp() override {
        static int probed = -1;
        if (probed < 0) {
            char scratch[] = "/tmp/gpaprof-probe-XXXXXX";
            ASSERT_NE(mkdtemp(scratch), nullptr);
            const Outcome probe = Execute({App("multi_kernel_threads"), "--probe"}, scratch);
            probed = probe.exitCode;
            g_cpuDevice = probe.out.find("device type: CPU") != std::string::npos;
            std::filesystem::remove_all(scratch);
        }
        if (probed == 77) GTEST_SKIP() << "no OpenCL device: the OpenCL ICD loader found no platform with a device";
        ASSERT_EQ(probed, 0) << "the probe program failed";
        MakeDirectory("gpaprof-e2e");
    }

    Outcome Profile(std::vector<std::string> options, const std::vector<std::string>& command,
                    const std::map<std::string, std::string>& environment = {}) {
        std::vector<std::string> full = {GPAPROF_EXECUTABLE};
        full.insert(full.end(), options.begin(), options.end());
        full.push_back("--");
        full.insert(full.end(), command.begin(), command.end());
        return Execute(full, directory_, environment);
    }
};

// Every call of the trace: names and types from the published enumeration, times in order, enqueue
// commands with their device times mapped inside their call (QUEUED happens during the enqueue call).
inline void ExpectWellFormedTrace(const AtpFile& atp, bool requireDeviceTimes) {
    ASSERT_FALSE(atp.parts.empty());
    const ApiTracePart& ocl = atp.parts[0];
    EXPECT_EQ(ocl.api, "ocl");
    for (const auto& block : ocl.threads) {
        uint64_t previousStart = 0;
        ASSERT_FALSE(block.entries.empty());
        for (const ApiCall& call : block.entries) {
            std::optional<ocl::Api> api = ocl::ApiFromName(call.name);
            ASSERT_TRUE(api.has_value()) << call.name;
            EXPECT_EQ(call.apiType, static_cast<uint32_t>(*api)) << call.name;
            EXPECT_LE(call.start, call.end) << call.name;
            EXPECT_GE(call.start, previousStart) << call.name << " starts before the call before it";
            previousStart = call.start;
            ASSERT_TRUE(call.returnValue.has_value() || call.name == "clSVMFree") << call.name;
            if (call.returnValue && call.returnValue->rfind("0x", 0) != 0 && *call.returnValue != "NULL") {
                EXPECT_EQ(call.returnValue->rfind("CL_", 0), 0u) << call.name << " returned " << *call.returnValue;
            }
            if (!call.command) {
                EXPECT_FALSE(call.kernel.has_value());
                continue;
            }
            EXPECT_TRUE(ocl::IsEnqueueApi(call.apiType)) << call.name;
            const CommandTimes& command = *call.command;
            EXPECT_EQ(command.commandName, ocl::CommandTypeName(command.commandType));
            EXPECT_GE(command.queueId, 1u);
            EXPECT_GE(command.contextId, 1u);
            EXPECT_EQ(command.queueHandle.rfind("0x", 0), 0u);
            EXPECT_FALSE(command.deviceName.empty());
            // NVIDIA's driver gives markers and barriers no profiling times (2026-11-21, 580.159.04): all 0.
            const bool timeless = !g_cpuDevice && command.queued == 0 && command.end == 0 &&
                                  (call.name == "clEnqueueMarkerWithWaitList" || call.name == "clEnqueueBarrierWithWaitList");
            if (requireDeviceTimes && !timeless) {
                EXPECT_GT(command.queued, 0u) << call.name;
                EXPECT_LE(command.queued, command.submit) << call.name;
                EXPECT_LE(command.submit, command.start) << call.name;
                EXPECT_LE(command.start, command.end) << call.name;
                // A CPU device's clock is the host's: QUEUED falls inside the enqueue call. A GPU's is mapped from
                // samples of QUEUED stamps, which NVIDIA's driver takes up to a few hundred microseconds away
                // from the call (the batch is submitted later): within 2 ms there.
                const uint64_t slack = g_cpuDevice ? 0 : 2000000;
                EXPECT_GE(command.queued + slack, call.start) << call.name << ": QUEUED mapped before its enqueue call";
                EXPECT_LE(command.queued, call.end + slack) << call.name << ": QUEUED mapped after its enqueue call";
            }
            if (ocl::IsKernelDispatchApi(call.apiType)) {
                ASSERT_TRUE(call.kernel.has_value()) << call.name;
                EXPECT_FALSE(call.kernel->kernelName.empty());
                EXPECT_FALSE(call.kernel->globalSize.empty());
                // The command type is what the driver's event says (PoCL runs clEnqueueTask as an NDRange).
                EXPECT_TRUE(command.commandName == "CL_COMMAND_NDRANGE_KERNEL" || command.commandName == "CL_COMMAND_TASK")
                    << command.commandName;
            }
            if (ocl::IsDataTransferApi(call.apiType)) {
                EXPECT_TRUE(call.transferSize.has_value()) << call.name;
            }
        }
    }
}

}  // namespace gpaprof
