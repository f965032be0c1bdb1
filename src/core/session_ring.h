// The finished sessions a context keeps: a circular buffer in which a new session overwrites the oldest.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>

#include "core/session.h"

namespace gpa {

class SessionRing {
public:
    explicit SessionRing(size_t capacity) : capacity_(capacity < kMinimumCapacity ? kMinimumCapacity : capacity) {}

    static constexpr size_t kMinimumCapacity = 4;  // the seed promises at least four

    size_t capacity() const { return capacity_; }

    // Stores a finished session, dropping the oldest when full.
    void Push(std::shared_ptr<Session> session) {
        if (sessions_.size() == capacity_) sessions_.pop_front();
        sessions_.push_back(std::move(session));
    }

    // The session with this id, or null if it was never stored or has been overwritten.
    std::shared_ptr<Session> Find(uint32_t id) const {
        for (const std::shared_ptr<Session>& session : sessions_) {
            if (session->id() == id) return session;
        }
        return nullptr;
    }

private:
    size_t capacity_;
    std::deque<std::shared_ptr<Session>> sessions_;
};

}  // namespace gpa
