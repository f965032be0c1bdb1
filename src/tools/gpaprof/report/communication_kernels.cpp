#include "tools/gpaprof/report/communication_kernels.h"

#include <cctype>

namespace gpaprof::report {
namespace {

// The first identifier of an Itanium-mangled name (_Z<length><identifier>..., _ZN<length><identifier>...).
std::string_view FirstMangledIdentifier(std::string_view name) {
    if (name.substr(0, 2) != "_Z") return {};
    name.remove_prefix(2);
    if (!name.empty() && name[0] == 'N') name.remove_prefix(1);
    size_t length = 0, digits = 0;
    while (digits < name.size() && digits < 6 && std::isdigit(static_cast<unsigned char>(name[digits]))) {
        length = length * 10 + static_cast<size_t>(name[digits] - '0');
        ++digits;
    }
    if (digits == 0 || length > name.size() - digits) return {};
    return name.substr(digits, length);
}

}  // namespace

bool IsCommunicationKernel(std::string_view name) {
    return name.substr(0, 4) == "nccl" || FirstMangledIdentifier(name).substr(0, 4) == "nccl";
}

}  // namespace gpaprof::report
