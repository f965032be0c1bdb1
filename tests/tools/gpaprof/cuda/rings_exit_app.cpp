// Stands in for the CUDA part's call recording, so that the raw call rings' promise (nothing lost however the
// process ends or replaces itself) is checked end to end without a GPU: through the agent of the process gpaprof
// started, it keeps `calls` cudaGetLastError records in the rings (raw_call_rings.h) from two threads, as the CUDA
// part does, registers the same exit and exec work as the CUDA part (CudaPart::Initialize and Finish), and then
// ends at once the way argv[1] says, well before the writer thread's interval has passed.
//
// usage: rings_exit_app return|exit|_exit|exec [calls]      (exec: runs itself again with "exec'd", which exits 0)
#include <cupti_runtime_cbid.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/raw_call_rings.h"

namespace {

using gpaprof::agent::Agent;

// One call's record, as ApiExit makes it for a call without parameters.
bool KeepCall(Agent* agent, gpaprof::cuda::RawCallRings* rings) {
    const gpaprof::agent::CallSlot slot = agent->BeginCall(gpaprof::agent::Part::Cuda, false);
    if (!slot.index || !slot.record) return false;
    // The CUDA part takes the thread's id from the slot (no second look-up): it must be the calling thread's.
    if (slot.threadId != Agent::ThreadId()) {
        std::fprintf(stderr, "BeginCall gave thread id %llu, the thread is %llu\n",
                     static_cast<unsigned long long>(slot.threadId), static_cast<unsigned long long>(Agent::ThreadId()));
        return false;
    }
    gpaprof::cuda::RawCallFields call;
    call.threadId = slot.threadId;
    call.index = *slot.index;
    call.apiType = CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020;
    call.start = Agent::Now();
    call.end = call.start + 100;
    return rings->Push(call);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string way = argc > 1 ? argv[1] : "return";
    if (way == "exec'd") return 0;
    const int calls = argc > 2 ? std::atoi(argv[2]) : 400;
    Agent* agent = Agent::Get();
    if (!agent) {
        std::printf("not profiled\n");
        return 3;
    }
    auto* rings = new gpaprof::cuda::RawCallRings([agent](std::string_view lines) { agent->WriteEncoded(lines); });
    agent->AddBeforeExec([rings] { rings->Drain(); });
    agent->AddFinalizer([rings] {
        rings->StopWriter();
        rings->Drain();
    });
    int kept = 0;
    std::thread other([&] {
        for (int i = 0; i < calls / 2; ++i) kept += KeepCall(agent, rings) ? 1 : 0;
    });
    other.join();
    for (int i = calls / 2; i < calls; ++i) kept += KeepCall(agent, rings) ? 1 : 0;
    std::printf("kept %d of %d\n", kept, calls);
    std::fflush(stdout);
    if (way == "exit") std::exit(0);
    if (way == "_exit") _exit(0);
    if (way == "exec") {
        char self[] = "/proc/self/exe";
        char again[] = "exec'd";
        char* const arguments[] = {self, again, nullptr};
        execv(self, arguments);
        std::printf("exec failed: %s\n", std::strerror(errno));
        return 4;
    }
    return 0;
}
