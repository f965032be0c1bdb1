// The result of an internal operation: a GPA status plus, when it is not OK, the reason in words.
// Every layer returns one of these so that the API boundary can log what went wrong and what to do.
#pragma once

#include <string>
#include <utility>

#include "GPUPerfAPITypes.h"

namespace gpa {

class Outcome {
public:
    Outcome() = default;
    Outcome(GPA_Status status, std::string reason) : status_(status), reason_(std::move(reason)) {}

    static Outcome Ok() { return {}; }

    bool ok() const { return status_ == GPA_STATUS_OK; }
    GPA_Status status() const { return status_; }
    const std::string& reason() const { return reason_; }

private:
    GPA_Status status_ = GPA_STATUS_OK;
    std::string reason_;
};

inline Outcome Fail(GPA_Status status, std::string reason) { return {status, std::move(reason)}; }

}  // namespace gpa
