#include "tools/gpaprof/agent/spool_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <system_error>
#include <utility>

#include <pthread.h>
#include <signal.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpaprof::agent {
namespace {

// The file grows by what it holds already, at least 256 KiB and at most 8 MiB at a time: few fallocate calls,
// and at most 8 MiB of zeros at its end for gpaprof to read past.
constexpr uint64_t kMinStep = uint64_t{256} << 10;
constexpr uint64_t kMaxStep = uint64_t{8} << 20;
// Pages are made this far ahead of the last append; a new batch is asked for when appends have used half.
constexpr uint64_t kPrefaultAhead = uint64_t{4} << 20;
constexpr uint64_t kPageBytes = 4096;

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

// Faults a page in for writing without changing it: a locked read-modify-write of zero, safe while another
// thread copies a record into the same page.
void TouchForWrite(char* page) {
    auto* word = reinterpret_cast<uint32_t*>(page);
    asm volatile("lock orl $0, %0" : "+m"(*word) : : "memory");
}

}  // namespace

struct SpoolWriter::Prefaulter {
    std::mutex mutex;
    std::condition_variable wake;
    uint64_t wanted = 0;  // make pages up to here
    bool stop = false;
    std::thread thread;
};

SpoolWriter::~SpoolWriter() {
    StopPrefaulter();
    Unmap();
    if (fd_ >= 0) close(fd_);
}

bool SpoolWriter::Open(const std::string& path) {
    // No O_APPEND: every record has its place, reserved by the atomic counter.
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) return false;
    // Held while the file is open here (released at exec, which closes it); a file system without locks has none.
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        close(fd_);
        fd_ = -1;
        errno = EWOULDBLOCK;
        return false;
    }
    // A file left by an earlier process of the same id: write after it (its zeros are ignored as well).
    struct stat info;
    const uint64_t existing = fstat(fd_, &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
    used_ = existing;
    reserved_ = 0;
    Reserve(existing);  // maps what is there (reserving nothing new)
    return true;
}

bool SpoolWriter::Reserve(uint64_t end) {
    if (reserveFailed_.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::mutex> lock(growMutex_);
    uint64_t reserved = reserved_.load(std::memory_order_relaxed);
    struct stat info;
    const uint64_t size = fstat(fd_, &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
    while (reserved < end) {
        const uint64_t step = std::clamp(reserved, kMinStep, kMaxStep);
        const uint64_t target = std::min(std::max(end, reserved + step), kWindowBytes * kWindows);
        // Blocks on the disk for the whole step (beyond what the file holds): a copy into the mapping can then
        // never fail for want of space, which would be a SIGBUS in the application.
        bool good = target >= end;
        if (good && target > size) {
            const uint64_t from = std::max(reserved, size);
            good = fallocate(fd_, 0, static_cast<off_t>(from), static_cast<off_t>(target - from)) == 0;
        }
        for (uint64_t window = reserved / kWindowBytes; good && window * kWindowBytes < target; ++window) {
            if (windows_[window].load(std::memory_order_relaxed)) continue;
            void* map = mmap(nullptr, kWindowBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                             static_cast<off_t>(window * kWindowBytes));
            good = map != MAP_FAILED;
            if (good) windows_[window].store(static_cast<char*>(map), std::memory_order_release);
        }
        if (!good) {
            reserveFailed_ = true;
            return false;
        }
        reserved = target;
        reserved_.store(reserved, std::memory_order_release);
    }
    return true;
}

void SpoolWriter::CopyAt(const char* data, size_t length, uint64_t offset) {
    while (length > 0) {
        const uint64_t window = offset / kWindowBytes;
        const uint64_t within = offset % kWindowBytes;
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(length, kWindowBytes - within));
        std::memcpy(windows_[window].load(std::memory_order_acquire) + within, data, piece);
        data += piece;
        length -= piece;
        offset += piece;
    }
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
    if (end > prefaultTrigger_.load(std::memory_order_relaxed)) AskForPages(end);
    if (end <= reserved_.load(std::memory_order_acquire) || Reserve(end)) {
        CopyAt(lines.data(), lines.size(), offset);
        return;
    }
    WriteAt(lines.data(), lines.size(), offset);
}

void SpoolWriter::AppendFromSignalHandler(const char* lines, size_t length) {
    if (fd_ < 0 || length == 0) return;
    const uint64_t offset = used_.fetch_add(length, std::memory_order_relaxed);
    if (offset + length <= reserved_.load(std::memory_order_acquire)) {
        CopyAt(lines, length, offset);
        return;
    }
    WriteAt(lines, length, offset);  // pwrite(2) is async-signal-safe
}

void SpoolWriter::Unmap() {
    for (std::atomic<char*>& window : windows_) {
        if (char* map = window.exchange(nullptr)) munmap(map, kWindowBytes);
    }
}

void SpoolWriter::AskForPages(uint64_t end) {
    // One append per half step asks (the one that moves the trigger); the others go on.
    uint64_t trigger = prefaultTrigger_.load(std::memory_order_relaxed);
    if (end <= trigger || prefaultFailed_.load(std::memory_order_relaxed) ||
        !prefaultTrigger_.compare_exchange_strong(trigger, end + kPrefaultAhead / 2, std::memory_order_relaxed)) {
        return;
    }
    Prefaulter* prefaulter = nullptr;
    {
        std::lock_guard<std::mutex> lock(prefaulterMutex_);
        if (!prefaulter_) {
            auto started = std::make_unique<Prefaulter>();
            // All signals blocked: the application's signals go to its own threads (and to gpaprof's crash handler
            // there), never to this one.
            sigset_t all, previous;
            sigfillset(&all);
            pthread_sigmask(SIG_SETMASK, &all, &previous);
            try {
                Prefaulter* state = started.get();
                started->thread = std::thread([this, state] { MakePages(state); });
                pthread_setname_np(started->thread.native_handle(), "gpaprof-spool");
                prefaulter_ = started.release();
            } catch (const std::system_error&) {
                prefaultFailed_ = true;  // the appends fault their pages themselves, as without the thread
            }
            pthread_sigmask(SIG_SETMASK, &previous, nullptr);
            if (!prefaulter_) return;
        }
        prefaulter = prefaulter_;
    }
    {
        std::lock_guard<std::mutex> lock(prefaulter->mutex);
        prefaulter->wanted = std::max(prefaulter->wanted, end + kPrefaultAhead);
    }
    prefaulter->wake.notify_one();
}

void SpoolWriter::MakePages(Prefaulter* prefaulter) {
    const uint64_t capacity = kWindowBytes * kWindows;
    uint64_t done = 0;
    for (;;) {
        uint64_t wanted = 0;
        {
            std::unique_lock<std::mutex> lock(prefaulter->mutex);
            prefaulter->wake.wait(lock, [&] { return prefaulter->stop || prefaulter->wanted > done; });
            if (prefaulter->stop) return;
            wanted = std::min(prefaulter->wanted, capacity);
        }
        if (wanted <= done) return;  // the spool's end: appends go on with pwrite(2)
        if (wanted > reserved_.load(std::memory_order_acquire) && !Reserve(wanted)) return;
        // Pages appends have written are there already.
        uint64_t at = std::max(done, used_.load(std::memory_order_relaxed)) / kPageBytes * kPageBytes;
        while (at < wanted) {
            const uint64_t window = at / kWindowBytes;
            const uint64_t within = at % kWindowBytes;
            const uint64_t piece = std::min(wanted - at, kWindowBytes - within);
            char* base = windows_[window].load(std::memory_order_acquire);
            if (!base) return;
            if (madvise(base + within, piece, MADV_POPULATE_WRITE) != 0) {
                for (uint64_t page = 0; page < piece; page += kPageBytes) TouchForWrite(base + within + page);
            }
            at += piece;
        }
        done = wanted;
        prefaulted_.store(done, std::memory_order_release);
    }
}

void SpoolWriter::StopPrefaulter() {
    Prefaulter* prefaulter = nullptr;
    {
        std::lock_guard<std::mutex> lock(prefaulterMutex_);
        prefaulter = std::exchange(prefaulter_, nullptr);
    }
    if (!prefaulter) return;
    {
        std::lock_guard<std::mutex> lock(prefaulter->mutex);
        prefaulter->stop = true;
    }
    prefaulter->wake.notify_one();
    prefaulter->thread.join();
    delete prefaulter;
}

void SpoolWriter::ForgetAfterFork() {
    // The parent's prefaulter thread is not in the child, and its mutex may have been held at the fork: left
    // as it is (a joinable std::thread must not be destroyed), and a new one starts with the child's file.
    prefaulter_ = nullptr;
    new (&prefaulterMutex_) std::mutex();
    prefaultTrigger_ = 0;
    prefaulted_ = 0;
    prefaultFailed_ = false;
    // The child's copy of the mapping is its parent's file: unmapped, never written.
    Unmap();
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    used_ = 0;
    reserved_ = 0;
    reserveFailed_ = false;
    new (&growMutex_) std::mutex();
}

}  // namespace gpaprof::agent
