#include "tools/gpaprof/files/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpaprof {
namespace {

std::string Reason(int error) { return std::strerror(error); }

// Reads the rest of `fd` into `text` (which may hold its first bytes already).
bool ReadAll(int fd, std::string* text, size_t expected) {
    if (expected > text->size()) text->reserve(expected);
    char buffer[1 << 16];
    while (true) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got == 0) return true;
        if (got < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        text->append(buffer, static_cast<size_t>(got));
    }
}

}  // namespace

AtomicFile::~AtomicFile() { Abandon(); }

void AtomicFile::Abandon() {
    if (fd_ >= 0) {
        close(fd_);
        fd_ = -1;
        std::remove(temporary_.c_str());
    }
}

bool AtomicFile::Open(const std::string& path, std::string* error) {
    Abandon();
    path_ = path;
    temporary_ = path + ".tmp" + std::to_string(getpid());
    writeErrno_ = 0;
    fd_ = open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
        if (error) *error = "cannot create " + temporary_ + ": " + Reason(errno);
        return false;
    }
    return true;
}

bool AtomicFile::Write(std::string_view data) {
    if (fd_ < 0 || writeErrno_) return false;
    while (!data.empty()) {
        const ssize_t written = write(fd_, data.data(), data.size());
        if (written < 0) {
            if (errno == EINTR) continue;
            writeErrno_ = errno;
            return false;
        }
        data.remove_prefix(static_cast<size_t>(written));
    }
    return true;
}

bool AtomicFile::Commit(std::string* error) {
    if (fd_ < 0) {
        if (error) *error = "cannot write " + path_ + ": not open";
        return false;
    }
    const int closed = close(fd_);
    fd_ = -1;
    if (writeErrno_ || closed != 0) {
        if (error) *error = "cannot write " + temporary_ + ": " + Reason(writeErrno_ ? writeErrno_ : errno);
        std::remove(temporary_.c_str());
        return false;
    }
    if (std::rename(temporary_.c_str(), path_.c_str()) != 0) {
        if (error) *error = "cannot rename " + temporary_ + " to " + path_ + ": " + Reason(errno);
        std::remove(temporary_.c_str());
        return false;
    }
    return true;
}

bool WriteTextFile(const std::string& path, const std::string& text, std::string* error) {
    AtomicFile file;
    if (!file.Open(path, error)) return false;
    file.Write(text);
    return file.Commit(error);
}

std::optional<std::string> ReadTextFile(const std::string& path, std::string* error) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (error) *error = "cannot open " + path + ": " + Reason(errno);
        return std::nullopt;
    }
    struct stat info;
    const size_t expected = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) ? static_cast<size_t>(info.st_size) : 0;
    std::string text;
    const bool good = ReadAll(fd, &text, expected);
    close(fd);
    if (!good) {
        if (error) *error = "cannot read " + path;
        return std::nullopt;
    }
    return text;
}

MappedFile::~MappedFile() {
    if (mapped_) munmap(mapped_, size_);
}

bool MappedFile::Open(const std::string& path, std::string* error) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (error) *error = "cannot open " + path + ": " + Reason(errno);
        return false;
    }
    struct stat info;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
        // Populated at once: one page-table walk for the whole file instead of a fault per page.
        void* mapped = mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (mapped != MAP_FAILED) {
            close(fd);
            mapped_ = mapped;
            size_ = static_cast<size_t>(info.st_size);
            return true;
        }
    }
    const bool good = ReadAll(fd, &read_, 0);
    close(fd);
    if (!good) {
        if (error) *error = "cannot read " + path;
        return false;
    }
    return true;
}

}  // namespace gpaprof
