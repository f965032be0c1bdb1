#include "tools/gpaprof/files/text_fields.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <locale>
#include <sstream>

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

std::string FormatFixed(double value, int width, int precision) {
    // snprintf honours LC_NUMERIC; a stream imbued with the classic locale never does.
    std::ostringstream stream;
    stream.imbue(std::locale::classic());
    stream.setf(std::ios::fixed);
    stream.precision(precision);
    stream.width(width);
    stream << value;
    return stream.str();
}

std::string FormatUnsigned(uint64_t value, int width) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%*" PRIu64, width, value);
    return buffer;
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
    std::istringstream stream{std::string(text)};
    stream.imbue(std::locale::classic());
    double value = 0.0;
    stream >> value;
    if (stream.fail() || !stream.eof()) return std::nullopt;
    return value;
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

std::string HexHandle(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%016" PRIX64, value);
    return buffer;
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
