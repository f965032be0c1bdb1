// Reading and writing whole text files, with the reason when it fails.
#pragma once

#include <optional>
#include <string>

namespace gpaprof {

// Writes through a temporary file and renames it, so that a reader never sees half a file.
bool WriteTextFile(const std::string& path, const std::string& text, std::string* error);
std::optional<std::string> ReadTextFile(const std::string& path, std::string* error);

}  // namespace gpaprof
