// Small text helpers shared by the writers and readers: fixed-width fields, number formats, splitting
// and strict number parsing (no locale, no exceptions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpaprof {

// Left-justified field of at least `width` characters. A value as wide as the field or wider is followed
// by one space, so that whitespace always separates fields (the original ran such fields together).
std::string PadRight(std::string_view value, size_t width);

// printf-style "%<width>.<precision>f" in the C locale.
std::string FormatFixed(double value, int width, int precision);

// "%<width>lu".
std::string FormatUnsigned(uint64_t value, int width);

// Lines of a text without their end-of-line characters ("\n" or "\r\n"). A final line without "\n" is kept.
std::vector<std::string_view> SplitLines(std::string_view text);

// Fields separated by `separator` (no trimming).
std::vector<std::string_view> SplitOn(std::string_view text, char separator);

// Fields separated by runs of spaces or tabs.
std::vector<std::string_view> SplitWhitespace(std::string_view text);

std::string_view Trim(std::string_view text);
bool StartsWith(std::string_view text, std::string_view prefix);

// Whole-string parses; nullopt on anything else (sign, spaces, trailing characters, overflow).
std::optional<uint64_t> ParseUnsigned(std::string_view text);
std::optional<int64_t> ParseSigned(std::string_view text);
std::optional<double> ParseDouble(std::string_view text);
// "0x..." or decimal.
std::optional<uint64_t> ParseHexOrDecimal(std::string_view text);

// "0x" followed by the value in upper-case hex, zero-padded to 16 digits (pointer-sized handles).
std::string HexHandle(uint64_t value);
// The same written into `text`, without an allocation (for writers of many records).
std::string_view HexHandleText(uint64_t value, char (&text)[18]);

// Spaces in a field that whitespace separates: written as "&nbsp;" (stack traces, perf markers), or
// replaced by '_' (device names in timestamp lines).
std::string EncodeSpaces(std::string_view text);
std::string DecodeSpaces(std::string_view text);
std::string UnderscoreSpaces(std::string_view text);

// Header values and other one-line fields: line breaks become spaces.
std::string OneLine(std::string_view text);

// Joins with `separator` + one space, as the .csv layout does.
std::string JoinFields(const std::vector<std::string>& fields, char separator, bool spaceAfterSeparator);

// Appending forms of the formats above, for the writers: they build a whole file in one string without a
// temporary per field. Each appends exactly what its counterpart returns.
void AppendUnsigned(std::string* out, uint64_t value);                      // std::to_string
void AppendPadRight(std::string* out, std::string_view value, size_t width);  // PadRight
void AppendUnsignedPadRight(std::string* out, uint64_t value, size_t width);  // PadRight(std::to_string)
void AppendUnderscoreSpaces(std::string* out, std::string_view text);       // UnderscoreSpaces
void AppendUnderscorePadRight(std::string* out, std::string_view text, size_t width);  // PadRight(UnderscoreSpaces)
void AppendOneLine(std::string* out, std::string_view text);                // OneLine
void AppendEncodeSpaces(std::string* out, std::string_view text);           // EncodeSpaces
void AppendFixed(std::string* out, double value, int width, int precision); // FormatFixed
void AppendFormatUnsigned(std::string* out, uint64_t value, int width);     // FormatUnsigned

}  // namespace gpaprof
