#include "tools/gpaprof/cuda/arg_format.h"

namespace gpaprof::cuda {

std::string HexValue(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llX", static_cast<unsigned long long>(value));
    return text;
}

std::string PointerText(const void* pointer) {
    if (!pointer) return "NULL";
    return HexValue(reinterpret_cast<uintptr_t>(pointer));
}

std::string QuotedString(const char* text) {
    if (!text) return "NULL";
    std::string quoted = "\"";
    size_t length = 0;
    for (; text[length] != '\0' && length < 256; ++length) {
        const char c = text[length];
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (c == '\n') {
            quoted += "\\n";
        } else if (c == '\t') {
            quoted += "\\t";
        } else if (static_cast<unsigned char>(c) < 0x20) {
            quoted += '?';
        } else {
            quoted += c;
        }
    }
    if (text[length] != '\0') quoted += "...";
    return quoted + "\"";
}

}  // namespace gpaprof::cuda
