#include "tools/gpaprof/files/text_fields.h"

#include <charconv>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <locale>
#include <sstream>
#include <system_error>

namespace gpaprof {

std::string PadRight(std::string_view value, size_t width) {
    std::string field(value);
    if (field.size() >= width) {
        field += ' ';
    } else {
        field.append(width - field.size(), ' ');
    }
    return field;
}

namespace {

// The slow, general form of FormatFixed: what std::to_chars cannot do (a number too long for the buffer).
std::string FormatFixedByStream(double value, int width, int precision) {
    // snprintf honours LC_NUMERIC; a stream imbued with the classic locale never does.
    std::ostringstream stream;
    stream.imbue(std::locale::classic());
    stream.setf(std::ios::fixed);
    stream.precision(precision);
    stream.width(width);
    stream << value;
    return stream.str();
}

// What std::istream >> double accepts, for what std::from_chars does not take.
std::optional<double> ParseDoubleByStream(std::string_view text) {
    std::istringstream stream{std::string(text)};
    stream.imbue(std::locale::classic());
    double value = 0.0;
    stream >> value;
    if (stream.fail() || !stream.eof()) return std::nullopt;
    return value;
}

}  // namespace

std::string FormatFixed(double value, int width, int precision) {
    std::string text;
    AppendFixed(&text, value, width, precision);
    return text;
}

std::string FormatUnsigned(uint64_t value, int width) {
    std::string text;
    AppendFormatUnsigned(&text, value, width);
    return text;
}

void AppendFixed(std::string* out, double value, int width, int precision) {
    // std::to_chars is the exact conversion printf("%.*f") makes in the C locale, as the classic-locale stream
    // does, without a locale or a stream. Right-aligned in `width` like the stream's field.
    char buffer[128];
    const std::to_chars_result result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, precision);
    if (result.ec != std::errc()) {
        out->append(FormatFixedByStream(value, width, precision));
        return;
    }
    const size_t length = static_cast<size_t>(result.ptr - buffer);
    if (width > 0 && length < static_cast<size_t>(width)) out->append(static_cast<size_t>(width) - length, ' ');
    out->append(buffer, length);
}

void AppendFormatUnsigned(std::string* out, uint64_t value, int width) {
    char buffer[24];
    const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
    const size_t length = static_cast<size_t>(result.ptr - buffer);
    if (width > 0 && length < static_cast<size_t>(width)) out->append(static_cast<size_t>(width) - length, ' ');
    out->append(buffer, length);
}

void AppendUnsigned(std::string* out, uint64_t value) {
    char buffer[24];
    const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out->append(buffer, static_cast<size_t>(result.ptr - buffer));
}

void AppendPadRight(std::string* out, std::string_view value, size_t width) {
    out->append(value);
    if (value.size() >= width) {
        out->push_back(' ');
    } else {
        out->append(width - value.size(), ' ');
    }
}

void AppendUnsignedPadRight(std::string* out, uint64_t value, size_t width) {
    char buffer[24];
    const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
    AppendPadRight(out, std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)), width);
}

void AppendUnderscoreSpaces(std::string* out, std::string_view text) {
    const size_t begin = out->size();
    out->append(text);
    for (size_t i = begin; i < out->size(); ++i) {
        char& c = (*out)[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
    }
}

void AppendUnderscorePadRight(std::string* out, std::string_view text, size_t width) {
    AppendUnderscoreSpaces(out, text);
    if (text.size() >= width) {
        out->push_back(' ');
    } else {
        out->append(width - text.size(), ' ');
    }
}

void AppendOneLine(std::string* out, std::string_view text) {
    const size_t begin = out->size();
    out->append(text);
    for (size_t i = begin; i < out->size(); ++i) {
        char& c = (*out)[i];
        if (c == '\n' || c == '\r') c = ' ';
    }
}

void AppendEncodeSpaces(std::string* out, std::string_view text) {
    bool plain = true;
    for (char c : text) plain = plain && c != ' ' && c != '\t' && c != '\n' && c != '\r';
    if (plain) {
        out->append(text);
        return;
    }
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') out->append("&nbsp;");
        else out->push_back(c);
    }
}

std::vector<std::string_view> SplitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        begin = end + 1;
    }
    return lines;
}

std::vector<std::string_view> SplitOn(std::string_view text, char separator) {
    std::vector<std::string_view> fields;
    size_t begin = 0;
    while (true) {
        size_t end = text.find(separator, begin);
        if (end == std::string_view::npos) {
            fields.push_back(text.substr(begin));
            return fields;
        }
        fields.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
}

std::vector<std::string_view> SplitWhitespace(std::string_view text) {
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        size_t begin = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > begin) fields.push_back(text.substr(begin, i - begin));
    }
    return fields;
}

std::string_view Trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

std::optional<uint64_t> ParseUnsigned(std::string_view text) {
    if (text.empty() || text.size() > 20) return std::nullopt;
    uint64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

std::optional<int64_t> ParseSigned(std::string_view text) {
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    std::optional<uint64_t> magnitude = ParseUnsigned(text);
    if (!magnitude) return std::nullopt;
    if (negative) {
        if (*magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
        return static_cast<int64_t>(0 - *magnitude);
    }
    if (*magnitude > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(*magnitude);
}

std::optional<double> ParseDouble(std::string_view text) {
    if (text.empty() || text.size() > 64) return std::nullopt;
    for (char c : text) {
        const bool allowed = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
        if (!allowed) return std::nullopt;  // no "nan", "inf", hex floats or locale marks
    }
    // What std::from_chars reads whole, the classic-locale stream reads to the same double (both round
    // correctly). Anything else (a leading '+', a number out of range, a bad number) goes to the stream,
    // which decides as it always did.
    if (text.front() != '+') {
        double value = 0.0;
        const std::from_chars_result result = std::from_chars(text.data(), text.data() + text.size(), value);
        if (result.ec == std::errc() && result.ptr == text.data() + text.size()) return value;
    }
    return ParseDoubleByStream(text);
}

std::optional<uint64_t> ParseHexOrDecimal(std::string_view text) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        if (text.empty() || text.size() > 16) return std::nullopt;
        uint64_t value = 0;
        for (char c : text) {
            uint64_t digit;
            if (c >= '0' && c <= '9') digit = static_cast<uint64_t>(c - '0');
            else if (c >= 'a' && c <= 'f') digit = static_cast<uint64_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') digit = static_cast<uint64_t>(c - 'A' + 10);
            else return std::nullopt;
            value = (value << 4) | digit;
        }
        return value;
    }
    return ParseUnsigned(text);
}

std::string_view HexHandleText(uint64_t value, char (&text)[18]) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    text[0] = '0', text[1] = 'x';
    for (int i = 17; i >= 2; --i, value >>= 4) text[i] = kDigits[value & 0xF];
    return std::string_view(text, sizeof text);
}

std::string HexHandle(uint64_t value) {
    char text[18];
    return std::string(HexHandleText(value, text));
}

std::string EncodeSpaces(std::string_view text) {
    std::string encoded;
    for (char c : text) {
        if (c == ' ') encoded += "&nbsp;";
        else if (c == '\t' || c == '\n' || c == '\r') encoded += "&nbsp;";
        else encoded += c;
    }
    return encoded;
}

std::string DecodeSpaces(std::string_view text) {
    std::string decoded;
    size_t i = 0;
    while (i < text.size()) {
        if (text.substr(i, 6) == "&nbsp;") {
            decoded += ' ';
            i += 6;
        } else {
            decoded += text[i++];
        }
    }
    return decoded;
}

std::string UnderscoreSpaces(std::string_view text) {
    std::string replaced(text);
    for (char& c : replaced) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
    }
    return replaced;
}

std::string OneLine(std::string_view text) {
    std::string line(text);
    for (char& c : line) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return line;
}

std::string JoinFields(const std::vector<std::string>& fields, char separator, bool spaceAfterSeparator) {
    std::string line;
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i) {
            line += separator;
            if (spaceAfterSeparator) line += ' ';
        }
        line += fields[i];
    }
    return line;
}

}  // namespace gpaprof
