// Best-practice checks that can be decided from a trace. Each check states its rule, and when it fires,
// the evidence: which calls (thread and 0-based call index in that thread's block, as the .atp and the
// .csv CallIndex number them) and what they show. A check that the trace cannot decide says why instead
// of passing (for example when the release calls were excluded from tracing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"
#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

enum class CheckStatus { Passed, Fired, NotDecidable };
enum class Severity { Warning, Advice };

struct Evidence {
    std::string api;
    std::optional<uint64_t> threadId;
    std::optional<uint64_t> callIndex;
    std::string text;
};

struct CheckResult {
    std::string id;                // stable identifier: "leaks", "failed-calls", ...
    std::string title;
    std::string rule;              // what the check looks for, in one or two sentences
    std::string advice;            // what to do when it fires
    Severity severity = Severity::Warning;
    CheckStatus status = CheckStatus::Passed;
    uint64_t occurrences = 0;      // findings in all (evidence keeps the first kMaxEvidence)
    std::vector<Evidence> evidence;
    std::vector<std::string> notes;  // limits of the check on this trace; why it is not decidable

    void Add(Evidence item);       // counts the occurrence, keeps the evidence while there is room
};

inline constexpr size_t kMaxEvidence = 50;

struct CheckInput {
    const AtpFile& atp;
    const Timeline& timeline;
    const OccupancyFile* occupancy = nullptr;  // preferred work-group multiples (wavefront/warp size)
};

// All checks, in the order the report lists them.
std::vector<CheckResult> RunBestPracticeChecks(const CheckInput& input);

// The checks, one per file.
CheckResult CheckLeaks(const CheckInput& input);               // objects created and never released
CheckResult CheckFailedCalls(const CheckInput& input);         // calls that returned an error
CheckResult CheckDeprecatedCalls(const CheckInput& input);     // calls deprecated in the platform's version
CheckResult CheckRedundantSync(const CheckInput& input);       // waits on work that was already complete
CheckResult CheckBlockingTransfers(const CheckInput& input);   // blocking reads, writes and maps
CheckResult CheckWorkGroupSizes(const CheckInput& input);      // unspecified or poorly sized work-groups

const char* CheckStatusName(CheckStatus status);
const char* SeverityName(Severity severity);

// Host calls of the trace in the order they started (ties: thread, then call index): indices into
// input.timeline.calls.
std::vector<size_t> CallsInTimeOrder(const Timeline& timeline);

}  // namespace gpaprof::report
