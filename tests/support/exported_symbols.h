// What a shared library exports: the defined, non-local, visible entries of its dynamic symbol table, read from the
// ELF file (tests of the GPA libraries' export lists and of the C++ runtime kept private in every library).
#pragma once

#include <string>
#include <vector>

namespace opengpa::testing {

// The names the 64-bit ELF file at `path` exports; on a file that cannot be read as one, none and `*error` says why.
std::vector<std::string> ExportedSymbols(const std::string& path, std::string* error);

}  // namespace opengpa::testing
