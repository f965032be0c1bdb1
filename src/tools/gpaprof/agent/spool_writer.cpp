#include "tools/gpaprof/agent/spool_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpaprof::agent {
namespace {

// Address space for the mapping (not memory: pages exist only where records were copied). A spool larger
// than this goes on with pwrite(2).
constexpr uint64_t kMapBytes = uint64_t{16} << 30;
// The file grows by what it holds already, at least 1 MiB and at most 64 MiB at a time.
constexpr uint64_t kMinStep = uint64_t{1} << 20;
constexpr uint64_t kMaxStep = uint64_t{64} << 20;

}  // namespace

bool SpoolWriter::Open(const std::string& path) {
    // No O_APPEND: every record has its place, reserved by the atomic counter.
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) return false;
    // A file left by an earlier process of the same id: write after it (its zeros are ignored as well).
    struct stat info;
    const uint64_t existing = fstat(fd_, &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
    used_ = existing;
    reserved_ = existing;
    void* map = mmap(nullptr, kMapBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (map == MAP_FAILED) {
        map_ = nullptr;
        reserveFailed_ = true;  // pwrite(2) only
    } else {
        map_ = static_cast<char*>(map);
    }
    return true;
}

bool SpoolWriter::Reserve(uint64_t end) {
    if (reserveFailed_.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::mutex> lock(growMutex_);
    uint64_t reserved = reserved_.load(std::memory_order_relaxed);
    while (reserved < end) {
        const uint64_t step = std::clamp(reserved, kMinStep, kMaxStep);
        const uint64_t target = std::min(std::max(end, reserved + step), kMapBytes);
        // Blocks on the disk for the whole step: a copy into the mapping can then never fail for want of space
        // (which would be a SIGBUS in the application).
        if (target < end || fallocate(fd_, 0, static_cast<off_t>(reserved), static_cast<off_t>(target - reserved)) != 0) {
            reserveFailed_ = true;
            return false;
        }
        reserved = target;
        reserved_.store(reserved, std::memory_order_release);
    }
    return true;
}

void SpoolWriter::WriteAt(const char* data, size_t length, uint64_t offset) {
    while (length > 0) {
        const ssize_t written = pwrite(fd_, data, length, static_cast<off_t>(offset));
        if (written < 0) {
            if (errno == EINTR) continue;
            return;  // no room: the record is lost, as a failed write(2) lost it
        }
        data += written;
        length -= static_cast<size_t>(written);
        offset += static_cast<uint64_t>(written);
    }
}

void SpoolWriter::Append(std::string_view lines) {
    if (fd_ < 0 || lines.empty()) return;
    const uint64_t offset = used_.fetch_add(lines.size(), std::memory_order_relaxed);
    const uint64_t end = offset + lines.size();
    if (map_ && (end <= reserved_.load(std::memory_order_acquire) || Reserve(end))) {
        std::memcpy(map_ + offset, lines.data(), lines.size());
        return;
    }
    WriteAt(lines.data(), lines.size(), offset);
}

void SpoolWriter::AppendFromSignalHandler(const char* lines, size_t length) {
    if (fd_ < 0 || length == 0) return;
    const uint64_t offset = used_.fetch_add(length, std::memory_order_relaxed);
    if (map_ && offset + length <= reserved_.load(std::memory_order_acquire)) {
        std::memcpy(map_ + offset, lines, length);
        return;
    }
    WriteAt(lines, length, offset);  // pwrite(2) is async-signal-safe
}

void SpoolWriter::ForgetAfterFork() {
    // The child's copy of the mapping is its parent's file: unmapped, never written.
    if (map_) munmap(map_, kMapBytes);
    if (fd_ >= 0) close(fd_);
    map_ = nullptr;
    fd_ = -1;
    used_ = 0;
    reserved_ = 0;
    reserveFailed_ = false;
    new (&growMutex_) std::mutex();
}

}  // namespace gpaprof::agent
