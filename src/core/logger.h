// The one logging callback a process registers (GPA_RegisterLoggingCallback), with its type mask.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "GPUPerfAPITypes.h"

namespace gpa {

class Logger {
public:
    static Logger& Instance();

    // Registers (or, with GPA_LOGGING_NONE, removes) the callback. Announces itself when MESSAGE is wanted.
    GPA_Status Register(GPA_Logging_Type mask, GPA_LoggingCallbackPtrType callback);

    void Error(const std::string& message) { Emit(GPA_LOGGING_ERROR, message); }
    void Message(const std::string& message) { Emit(GPA_LOGGING_MESSAGE, message); }
    void Trace(const std::string& message) { Emit(GPA_LOGGING_TRACE, message); }
    bool Wants(GPA_Logging_Type type) const;

private:
    void Emit(GPA_Logging_Type type, const std::string& message) const;

    mutable std::mutex mutex_;
    // Read without the lock on every API call (is tracing wanted?); written under it.
    std::atomic<unsigned> mask_{GPA_LOGGING_NONE};
    GPA_LoggingCallbackPtrType callback_ = nullptr;
};

}  // namespace gpa
