#include "tools/gpaprof/report/json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "tools/gpaprof/report/utf8_text.h"

namespace gpaprof::report {

std::string JsonString(std::string_view text, bool scriptSafe) {
    const std::string valid = ValidUtf8(text);
    std::string out;
    out.reserve(valid.size() + 2);
    out += '"';
    for (size_t i = 0; i < valid.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(valid[i]);
        switch (c) {
            case '"': out += "\\\""; continue;
            case '\\': out += "\\\\"; continue;
            case '\n': out += "\\n"; continue;
            case '\r': out += "\\r"; continue;
            case '\t': out += "\\t"; continue;
            default: break;
        }
        if (c < 0x20 || (scriptSafe && (c == '<' || c == '>' || c == '&'))) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
            continue;
        }
        // U+2028 and U+2029 (E2 80 A8/A9) end a line in older JavaScript.
        if (scriptSafe && c == 0xE2 && i + 2 < valid.size() && static_cast<unsigned char>(valid[i + 1]) == 0x80 &&
            (static_cast<unsigned char>(valid[i + 2]) == 0xA8 || static_cast<unsigned char>(valid[i + 2]) == 0xA9)) {
            out += static_cast<unsigned char>(valid[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
            i += 2;
            continue;
        }
        out += static_cast<char>(c);
    }
    out += '"';
    return out;
}

void JsonWriter::BeforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!firstInScope_.empty()) {
        if (!firstInScope_.back()) text_ += ',';
        firstInScope_.back() = false;
    }
}

JsonWriter& JsonWriter::BeginObject() {
    BeforeValue();
    text_ += '{';
    firstInScope_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::EndObject() {
    text_ += '}';
    if (!firstInScope_.empty()) firstInScope_.pop_back();
    return *this;
}

JsonWriter& JsonWriter::BeginArray() {
    BeforeValue();
    text_ += '[';
    firstInScope_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::EndArray() {
    text_ += ']';
    if (!firstInScope_.empty()) firstInScope_.pop_back();
    return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
    BeforeValue();
    text_ += JsonString(key, scriptSafe_);
    text_ += ':';
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
    BeforeValue();
    text_ += JsonString(value, scriptSafe_);
    return *this;
}

JsonWriter& JsonWriter::Unsigned(uint64_t value) {
    BeforeValue();
    text_ += std::to_string(value);
    return *this;
}

JsonWriter& JsonWriter::Signed(int64_t value) {
    BeforeValue();
    text_ += std::to_string(value);
    return *this;
}

JsonWriter& JsonWriter::Number(double value, int digits) {
    BeforeValue();
    if (!std::isfinite(value)) {
        text_ += "null";
        return *this;
    }
    char number[64];
    const int written = std::snprintf(number, sizeof number, "%.*f", digits, value);
    size_t length = written > 0 ? std::min(static_cast<size_t>(written), sizeof number - 1) : 0;
    // Trim trailing zeros so that whole numbers stay short ("3.500000" -> "3.5", "2.000000" -> "2").
    if (std::memchr(number, '.', length)) {
        while (length > 0 && number[length - 1] == '0') --length;
        if (length > 0 && number[length - 1] == '.') --length;
    }
    if (length == 2 && number[0] == '-' && number[1] == '0') {
        text_ += '0';
        return *this;
    }
    text_.append(number, length);
    return *this;
}

JsonWriter& JsonWriter::MicrosecondsFromNs(uint64_t nanoseconds) {
    BeforeValue();
    char fraction[8];
    std::snprintf(fraction, sizeof fraction, ".%03u", static_cast<unsigned>(nanoseconds % 1000));
    text_ += std::to_string(nanoseconds / 1000);
    text_ += fraction;
    return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
    BeforeValue();
    text_ += value ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::Null() {
    BeforeValue();
    text_ += "null";
    return *this;
}

}  // namespace gpaprof::report
