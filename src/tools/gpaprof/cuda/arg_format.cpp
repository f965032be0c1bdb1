#include "tools/gpaprof/cuda/arg_format.h"

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::cuda {

void AppendHex(std::string* out, uint64_t value) {
    char text[18];
    out->append(HexHandleText(value, text));
}

void AppendPointer(std::string* out, const void* pointer) {
    if (!pointer) {
        out->append("NULL");
        return;
    }
    AppendHex(out, reinterpret_cast<uintptr_t>(pointer));
}

void AppendQuoted(std::string* out, const char* text) {
    if (!text) {
        out->append("NULL");
        return;
    }
    out->push_back('"');
    size_t length = 0;
    for (; text[length] != '\0' && length < 256; ++length) {
        const char c = text[length];
        if (c == '"' || c == '\\') {
            out->push_back('\\');
            out->push_back(c);
        } else if (c == '\n') {
            out->append("\\n");
        } else if (c == '\t') {
            out->append("\\t");
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out->push_back('?');
        } else {
            out->push_back(c);
        }
    }
    if (text[length] != '\0') out->append("...");
    out->push_back('"');
}

std::string HexValue(uint64_t value) {
    std::string text;
    AppendHex(&text, value);
    return text;
}

std::string PointerText(const void* pointer) {
    std::string text;
    AppendPointer(&text, pointer);
    return text;
}

std::string QuotedString(const char* text) {
    std::string quoted;
    AppendQuoted(&quoted, text);
    return quoted;
}

}  // namespace gpaprof::cuda
