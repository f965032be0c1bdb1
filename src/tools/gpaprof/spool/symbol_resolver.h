// Turns the return addresses that --sym recorded into function, file and line, after the application has
// ended: addr2line (binutils) is run once per module on all of its addresses. Without addr2line or debug
// information, the symbol the dynamic linker knew (or the module name) and the offset from it remain.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpaprof {

struct ResolvedAddress {
    std::string function;             // empty when unknown
    std::string file;                 // empty when unknown
    std::optional<uint64_t> line;
};

class SymbolResolver {
public:
    virtual ~SymbolResolver() = default;
    // Resolves every (module, address) pair; `moduleBase` is where the module was loaded.
    virtual std::map<std::pair<std::string, uint64_t>, ResolvedAddress> Resolve(
        const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& moduleAddressBase) = 0;
};

// addr2line from PATH (or $GPAPROF_ADDR2LINE). `problem` says why nothing could be resolved, if so.
class Addr2LineResolver : public SymbolResolver {
public:
    std::map<std::pair<std::string, uint64_t>, ResolvedAddress> Resolve(
        const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& moduleAddressBase) override;
    const std::string& problem() const { return problem_; }

private:
    std::string problem_;
};

// Whether an ELF file is position-independent (ET_DYN: addresses are relative to its load base).
std::optional<bool> IsPositionIndependent(const std::string& path);

}  // namespace gpaprof
