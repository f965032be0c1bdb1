// Reading and writing whole text files, with the reason when it fails.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "tools/gpaprof/files/parse_result.h"

namespace gpaprof {

// Writes through a temporary file and renames it, so that a reader never sees half a file.
bool WriteTextFile(const std::string& path, const std::string& text, std::string* error);
std::optional<std::string> ReadTextFile(const std::string& path, std::string* error);

// A file written piece by piece, through a temporary file renamed by Commit() (as WriteTextFile does); the
// temporary is removed when the file is not committed.
class AtomicFile {
public:
    AtomicFile() = default;
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();
    bool Open(const std::string& path, std::string* error);
    bool Write(std::string_view data);  // false once a write failed (Commit says why)
    bool Commit(std::string* error);

private:
    void Abandon();
    std::string path_;
    std::string temporary_;
    int fd_ = -1;
    int writeErrno_ = 0;
};

// A text built in a buffer: everything stays in the buffer (`text`), or, with a file, the buffer goes to the
// file whenever it holds `flushBytes` or more (Flush), so that a large file needs no buffer of its size.
class TextOutput {
public:
    TextOutput() = default;
    explicit TextOutput(AtomicFile* file, size_t flushBytes = size_t{4} << 20) : file_(file), flushBytes_(flushBytes) {
        text.reserve(flushBytes + (flushBytes >> 2));
    }
    std::string text;
    // Called between lines: hands the buffer to the file when it is full enough.
    void Flush() {
        if (file_ && text.size() >= flushBytes_) FlushAll();
    }
    void FlushAll() {
        if (!file_) return;
        file_->Write(text);
        text.clear();
    }
    // Appends a piece made elsewhere (large pieces go to the file as they are).
    void Append(std::string_view piece) {
        if (file_ && text.size() + piece.size() >= flushBytes_) {
            FlushAll();
            file_->Write(piece);
        } else {
            text.append(piece);
        }
    }
    bool buffered() const { return file_ != nullptr; }
    // Threads a writer may format with (1: only the calling one).
    size_t threads = 1;

private:
    AtomicFile* file_ = nullptr;
    size_t flushBytes_ = 0;
};

// A file's contents for reading: mapped into memory where possible (no copy), else read.
class MappedFile {
public:
    MappedFile() = default;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    bool Open(const std::string& path, std::string* error);
    std::string_view text() const { return mapped_ ? std::string_view(static_cast<const char*>(mapped_), size_) : read_; }

private:
    void* mapped_ = nullptr;
    size_t size_ = 0;
    std::string read_;
};

// A whole file written through `writeTo(&text)`, atomically (the .csv, .atp and .occupancy writers).
template <typename WriteTo>
bool WriteFileThrough(const std::string& path, WriteTo writeTo, std::string* error, size_t threads = 1) {
    AtomicFile output;
    if (!output.Open(path, error)) return false;
    TextOutput text(&output);
    text.threads = threads;
    writeTo(&text);
    text.FlushAll();
    return output.Commit(error);
}

// A file read and handed to `parse(text)`; one that cannot be read is a single problem at line 0.
template <typename File, typename Parse>
Parsed<File> ReadFileThrough(const std::string& path, Parse parse) {
    std::string error;
    std::optional<std::string> text = ReadTextFile(path, &error);
    if (!text) {
        Parsed<File> result;
        result.problems.push_back({0, error});
        return result;
    }
    return parse(*text);
}

}  // namespace gpaprof
