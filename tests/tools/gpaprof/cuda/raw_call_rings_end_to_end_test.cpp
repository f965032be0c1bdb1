// The raw call rings (src/tools/gpaprof/cuda/raw_call_rings.h) end to end, without a GPU: rings_exit_app keeps calls
// in the rings through the agent gpaprof configured and ends at once — returning from main, exit, _exit, exec —
// before gpaprof's writer thread would have written them. Every call must be in the .atp all the same: the exit
// hooks, the finalizers and the exec hook of libgpaprof_exit.so write what the rings hold.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../profiled_run.h"
#include "tools/gpaprof/files/atp_file.h"

namespace gpaprof {
namespace {

using testing::Execute;
using testing::Outcome;

class RawCallRingsEndToEnd : public testing::ProfiledRunTest {
protected:
    void SetUp() override { MakeDirectory("gpaprof-raw-call-rings"); }
};

TEST_F(RawCallRingsEndToEnd, EveryKeptCallIsInTheTraceHoweverTheProcessEnds) {
    constexpr int kCalls = 400;
    for (const std::string way : {"return", "exit", "_exit", "exec"}) {
        SCOPED_TRACE(way);
        const Outcome run = Execute({GPAPROF_EXECUTABLE, "-t", "--no-progress", "-o", "rings", "--", GPAPROF_RINGS_EXIT_APP, way,
                                     std::to_string(kCalls)},
                                    directory_);
        if (run.err.find("cannot profile") != std::string::npos) GTEST_SKIP() << "gpaprof cannot profile here: " << run.err;
        ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
        ASSERT_NE(run.out.find("kept " + std::to_string(kCalls) + " of " + std::to_string(kCalls)), std::string::npos)
            << "every call went into a ring: " << run.out;
        const AtpFile atp = ReadAtp("rings.atp");
        const ApiTracePart* cuda = nullptr;
        for (const ApiTracePart& part : atp.parts) {
            if (part.api == "cuda") cuda = &part;
        }
        ASSERT_NE(cuda, nullptr) << "no cuda part in the trace";
        size_t calls = 0;
        for (const ThreadBlock<ApiCall>& thread : cuda->threads) {
            for (const ApiCall& call : thread.entries) {
                EXPECT_EQ(call.name, "cudaGetLastError");
                ++calls;
            }
        }
        EXPECT_EQ(calls, static_cast<size_t>(kCalls)) << "calls kept in the rings when the process ended";
        EXPECT_EQ(cuda->threads.size(), 2u);
    }
}

}  // namespace
}  // namespace gpaprof
