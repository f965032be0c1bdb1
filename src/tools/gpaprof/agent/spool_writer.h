// The spool file of a profiled process, written through a shared memory mapping: appending records is a
// copy into the file's pages in the page cache, without a system call or a lock, and what was copied is in
// the file even when the process is killed the next instant (the pages belong to the file, not to the
// process), as with one write(2) per record before.
//
// Each append reserves its bytes with one atomic addition, so threads append at once and every record stays
// one piece. The file grows in steps reserved on the disk (fallocate), so that a copy never faults for want
// of space, and is mapped in windows of 256 MiB as it grows (the address space the spool takes is about its
// size); beyond what is reserved (a full disk, a file system without fallocate, a window that could not be
// mapped) records are written with pwrite(2) at their reserved place. The file ends with the zeros of the
// last step, and a record cut short by the death of its process leaves zeros behind it: gpaprof reads
// neither as a record (no record has a NUL byte).
//
// The first write into a page of a shared file mapping faults (the kernel finds or makes the page-cache page
// and marks it dirty): about 3 us a page, 0.1-0.3 us per record of a traced call, on the application's thread.
// A thread of the writer's (started at the first append, all signals blocked) makes the pages ahead of the
// appends instead, reserving the file as it goes, so that an append is a copy into a page that is there.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace gpaprof::agent {

class SpoolWriter {
public:
    SpoolWriter() = default;
    SpoolWriter(const SpoolWriter&) = delete;
    SpoolWriter& operator=(const SpoolWriter&) = delete;
    ~SpoolWriter();
    // Opens (creates) the file and maps it; false with errno set when the file cannot be opened, EWOULDBLOCK when
    // another live process writes it (one with the same id in another PID namespace: the places of two writers'
    // records would collide). The program a process exec's writes on in its file.
    bool Open(const std::string& path);
    bool open() const { return fd_ >= 0; }
    // Appends whole lines.
    void Append(std::string_view lines);
    // Appends from a signal handler: only async-signal-safe calls (no lock, no allocation).
    void AppendFromSignalHandler(const char* lines, size_t length);
    // In a child after fork(): forgets the parent's file without touching it.
    void ForgetAfterFork();
    // Pages made ahead of the appends so far (for tests).
    uint64_t PagesMadeUpTo() const { return prefaulted_.load(std::memory_order_acquire); }

private:
    static constexpr uint64_t kWindowBytes = uint64_t{256} << 20;
    static constexpr size_t kWindows = 64;  // 16 GiB; a larger spool goes on with pwrite(2)

    // Makes sure [0, end) of the file is reserved on the disk and mapped; false when it cannot be.
    bool Reserve(uint64_t end);
    void CopyAt(const char* data, size_t length, uint64_t offset);
    void WriteAt(const char* data, size_t length, uint64_t offset);
    void Unmap();
    struct Prefaulter;
    void AskForPages(uint64_t end);
    void MakePages(Prefaulter* prefaulter);
    void StopPrefaulter();

    int fd_ = -1;
    std::atomic<char*> windows_[kWindows] = {};  // window i maps the file from i * kWindowBytes
    std::atomic<uint64_t> used_{0};        // bytes handed out to appends
    std::atomic<uint64_t> reserved_{0};    // bytes of the file reserved on the disk and mapped
    std::atomic<bool> reserveFailed_{false};
    std::mutex growMutex_;
    std::mutex prefaulterMutex_;         // starting the prefaulter
    Prefaulter* prefaulter_ = nullptr;  // its thread, once started
    std::atomic<uint64_t> prefaultTrigger_{0};  // an append that ends past this asks for more pages
    std::atomic<uint64_t> prefaulted_{0};       // pages are made up to here
    std::atomic<bool> prefaultFailed_{false};   // no thread could be started: appends fault as they go
};

}  // namespace gpaprof::agent
