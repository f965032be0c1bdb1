#include "core/logger.h"

namespace gpa {

Logger& Logger::Instance() {
    static Logger logger;
    return logger;
}

GPA_Status Logger::Register(GPA_Logging_Type mask, GPA_LoggingCallbackPtrType callback) {
    if (callback == nullptr && mask != GPA_LOGGING_NONE) {
        return GPA_STATUS_ERROR_NULL_POINTER;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        mask_ = callback == nullptr ? static_cast<unsigned>(GPA_LOGGING_NONE) : static_cast<unsigned>(mask);
        callback_ = callback;
    }
    Message("Logging callback registered successfully.");
    return GPA_STATUS_OK;
}

bool Logger::Wants(GPA_Logging_Type type) const {
    // The mask is NONE whenever no callback is registered.
    return (mask_.load(std::memory_order_relaxed) & static_cast<unsigned>(type)) != 0;
}

void Logger::Emit(GPA_Logging_Type type, const std::string& message) const {
    GPA_LoggingCallbackPtrType callback = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (callback_ == nullptr || (mask_ & static_cast<unsigned>(type)) == 0) {
            return;
        }
        callback = callback_;
    }
    // The callback runs outside the lock so that it may call back into GPA.
    std::string text = message;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
        text.pop_back();
    }
    callback(type, text.c_str());
}

}  // namespace gpa
