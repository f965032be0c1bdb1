// A backend for unit-testing the core: its counters, pass limits and device timing are scripted by the
// test. It is linked only into test executables; no GPA library ships it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/backend.h"

namespace gpa::testing {

struct ScriptedBackendConfig {
    std::vector<HardwareCounter> hardware;
    std::vector<DerivedCounterDefinition> derived;
    // Hardware counter i belongs to block blockOf[i]; a block counts at most maxPerBlock[block] per pass.
    std::vector<uint32_t> blockOf;
    std::vector<uint32_t> maxPerBlock;
    // Counters the context does not list but adds when a name asks for one (BackendContext::AddHardwareCounter,
    // any letter case), in block addableBlockOf[i]. Other names are refused with addRefusal as the reason.
    std::vector<HardwareCounter> addable;
    std::vector<uint32_t> addableBlockOf;
    std::string addRefusal;
    DeviceDescription device{0x2335u, "Scripted Test Device"};
    // While false, sessions stay "in flight": IsReady answers false and WaitUntilReady blocks.
    std::atomic<bool> resultsReleased{true};
    bool failOpen = false;                // OpenContext fails with openFailStatus
    GPA_Status openFailStatus = GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED;
    bool failInitialize = false;          // Backend::Initialize fails
    bool failDestroy = false;             // Backend::Destroy fails
    bool failCreateSession = false;       // BackendContext::CreateSession fails
    bool failBeginSample = false;         // BeginSample fails in the backend
    bool failEndSample = false;           // EndSample fails in the backend
    bool failEndSession = false;          // BackendSession::End fails
    bool failRead = false;                // ReadSample fails in the backend
    // Hardware counters whose value a sample does not have (NaN, as a refused PM window gives), and why.
    std::vector<uint32_t> unmeasured;
    std::string unmeasuredReason;
};

// The configuration the next GPA_OpenContext uses (the failure switches act at once).
// ResetConfig() restores the default counters and clears every failure switch.
ScriptedBackendConfig& Config();
void ResetConfig();

// The value hardware counter `hw` reports for `sampleId` in every pass: 1000*(hw+1) + sampleId.
double ScriptedValue(uint32_t hw, uint32_t sampleId);

// Number of backend sessions alive now (to check that the ring releases old sessions).
int LiveSessions();

}  // namespace gpa::testing
