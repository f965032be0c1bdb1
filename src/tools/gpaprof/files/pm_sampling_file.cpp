#include "tools/gpaprof/files/pm_sampling_file.h"

#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/files/strict_check.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

constexpr const char* kVersionKey = "PmSamplingFileVersion";
constexpr const char* kVersion = "1";
const char* const kFixedColumns[] = {"Device", "StartNs", "EndNs", "Flags"};
constexpr size_t kFixedColumnCount = 4;

// The shortest text that reads back as the same double, without exponent ("12.5", "3500000000000") unless that
// is longer than 40 characters ("1e+100"; the readers take numbers of up to 64). NaN and infinities are not values.
void AppendValue(std::string* out, const std::optional<double>& value) {
    if (!value || !std::isfinite(*value)) {
        out->append("NA");
        return;
    }
    char buffer[400];  // DBL_MAX has 309 digits
    std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), *value, std::chars_format::fixed);
    if (result.ptr - buffer > 40) result = std::to_chars(buffer, buffer + sizeof(buffer), *value);
    out->append(buffer, result.ptr);
}

// A header value or metric name must neither break the line nor hold the separator.
void AppendName(std::string* out, std::string_view text, char separator) {
    const size_t begin = out->size();
    AppendOneLine(out, text);
    for (size_t i = begin; i < out->size(); ++i) {
        if ((*out)[i] == separator) (*out)[i] = ' ';
    }
}

void WritePmSamplingTo(const PmSamplingFile& file, TextOutput* out) {
    const SessionInfo& session = file.session;
    const char separator = PmSamplingSeparator(session.listSeparator);
    std::vector<std::string> lines;
    lines.push_back(std::string("# ") + kVersionKey + "=" + kVersion);
    lines.push_back("# ProfilerVersion=" + OneLine(session.profilerVersion));
    lines.push_back("# Application=" + OneLine(session.application));
    lines.push_back("# ApplicationArgs=" + OneLine(session.applicationArgs));
    lines.push_back("# WorkingDirectory=" + OneLine(session.workingDirectory));
    if (session.fullEnvironment) {
        lines.push_back(std::string("# FullEnvironment=") + (*session.fullEnvironment ? "1" : "0"));
        for (const EnvironmentVariable& variable : session.environment) {
            lines.push_back("# EnvVar=" + OneLine(variable.name) + "=" + OneLine(variable.value));
        }
    }
    lines.push_back("# OS Version=" + OneLine(session.osVersion));
    lines.push_back("# DisplayName=" + OneLine(session.displayName));
    AppendProcessPlaceLines(&lines, session, "# ");
    lines.push_back(std::string("# ListSeparator=") + separator);
    lines.push_back("# IntervalNs=" + std::to_string(file.intervalNs));
    for (const PmSamplingDevice& device : file.devices) {
        lines.push_back("# Device" + std::to_string(device.index) + "=" + OneLine(device.name) + " (" +
                        OneLine(device.chip) + ")");
    }
    for (const PmSamplingLeftOut& left : file.leftOut) {
        lines.push_back("# LeftOut=" + OneLine(left.metric) + ": " + OneLine(left.reason));
    }

    std::string& text = out->text;
    if (!out->buffered()) text.reserve(4096 + file.rows.size() * (48 + 12 * file.metrics.size()));
    for (const std::string& line : lines) {
        text += line;
        text += '\n';
    }
    for (size_t c = 0; c < kFixedColumnCount; ++c) {
        if (c) text.push_back(separator);
        text += kFixedColumns[c];
    }
    for (const std::string& metric : file.metrics) {
        text.push_back(separator);
        AppendName(&text, metric, separator);
    }
    text.push_back('\n');
    for (const PmSample& row : file.rows) {
        AppendUnsigned(&text, row.device);
        text.push_back(separator);
        AppendUnsigned(&text, row.startNs);
        text.push_back(separator);
        AppendUnsigned(&text, row.endNs);
        text.push_back(separator);
        if (row.droppedBefore) text += kPmSamplingDroppedBefore;
        if (row.droppedBefore && row.replay) text.push_back('|');
        if (row.replay) text += kPmSamplingReplay;
        for (size_t m = 0; m < file.metrics.size(); ++m) {
            text.push_back(separator);
            AppendValue(&text, m < row.values.size() ? row.values[m] : std::nullopt);
        }
        text.push_back('\n');
        out->Flush();
    }
}

// "<name> (<chip>)": the chip is what the last " (" and the final ')' enclose.
bool ParseDeviceValue(std::string_view value, PmSamplingDevice* device) {
    const size_t open = value.rfind(" (");
    if (open == std::string_view::npos || value.empty() || value.back() != ')') return false;
    device->name = std::string(value.substr(0, open));
    device->chip = std::string(value.substr(open + 2, value.size() - open - 3));
    return !device->name.empty();
}

}  // namespace

char PmSamplingSeparator(char requested) {
    const bool letterOrDigit = (requested >= 'a' && requested <= 'z') || (requested >= 'A' && requested <= 'Z') ||
                               (requested >= '0' && requested <= '9');
    const std::string_view inFields = "._-+|():= #\"\r\n";
    if (letterOrDigit || inFields.find(requested) != std::string_view::npos || requested == '\0') return ',';
    return requested;
}

bool IsPercentMetric(std::string_view metric) {
    auto endsWith = [&](std::string_view suffix) {
        return metric.size() >= suffix.size() && metric.substr(metric.size() - suffix.size()) == suffix;
    };
    return endsWith("pct_of_peak_sustained_elapsed") || endsWith(".pct");
}

std::string WritePmSampling(const PmSamplingFile& file) {
    TextOutput out;
    WritePmSamplingTo(file, &out);
    return std::move(out.text);
}

Parsed<PmSamplingFile> ParsePmSampling(std::string_view text, ReadOptions options) {
    Parsed<PmSamplingFile> result;
    PmSamplingFile& file = result.file;
    auto problem = [&](size_t line, std::string message) { result.problems.push_back({line, std::move(message)}); };
    const std::vector<std::string_view> lines = SplitLines(text);
    bool sawVersion = false;
    bool sawInterval = false;
    size_t index = 0;

    // Header: "# Key=Value" lines up to the column row.
    for (; index < lines.size(); ++index) {
        const std::string_view line = lines[index];
        const size_t lineNumber = index + 1;
        if (Trim(line).empty()) continue;
        if (line.front() != '#') break;
        const std::string_view body = Trim(line.substr(1));
        const size_t equals = body.find('=');
        if (equals == std::string_view::npos) {
            problem(lineNumber, "header line without '=': '" + std::string(line) + "'");
            continue;
        }
        const std::string_view key = body.substr(0, equals);
        const std::string_view value = body.substr(equals + 1);
        const std::string valueText(value);
        if (key == kVersionKey) {
            sawVersion = true;
            if (value != kVersion) problem(lineNumber, "unknown PmSamplingFileVersion '" + valueText + "' (this reader knows 1)");
        } else if (std::string bad; AcceptSessionField(key, value, &file.session, &bad)) {
            if (!bad.empty()) problem(lineNumber, bad);
        } else if (key == "ListSeparator") {
            if (value.size() != 1 || PmSamplingSeparator(value[0]) != value[0]) {
                problem(lineNumber, "ListSeparator must be one character that no field holds: '" + valueText + "'");
            } else {
                file.session.listSeparator = value[0];
            }
        } else if (key == "IntervalNs") {
            const std::optional<uint64_t> interval = ParseUnsigned(value);
            if (!interval || *interval == 0) problem(lineNumber, "IntervalNs must be a positive integer: '" + valueText + "'");
            else file.intervalNs = *interval;
            sawInterval = true;
        } else if (StartsWith(key, "Device") && key.size() > 6 && ParseUnsigned(key.substr(6))) {
            PmSamplingDevice device;
            const uint64_t deviceIndex = *ParseUnsigned(key.substr(6));
            device.index = static_cast<uint32_t>(deviceIndex);
            bool duplicate = false;
            for (const PmSamplingDevice& known : file.devices) duplicate = duplicate || known.index == device.index;
            if (deviceIndex > UINT32_MAX || !ParseDeviceValue(value, &device)) {
                problem(lineNumber, "a device line is '# Device<index>=<name> (<chip>)': '" + std::string(line) + "'");
            } else if (duplicate) {
                problem(lineNumber, "a second line for device " + std::to_string(device.index));
            } else {
                file.devices.push_back(std::move(device));
            }
        } else if (key == "LeftOut") {
            const size_t colon = value.find(": ");
            if (colon == std::string_view::npos || colon == 0) {
                problem(lineNumber, "LeftOut must be '<metric>: <why>': '" + valueText + "'");
            } else {
                file.leftOut.push_back({std::string(value.substr(0, colon)), std::string(value.substr(colon + 2))});
            }
        } else if (options.strictLayout) {
            problem(lineNumber, "unknown header key '" + std::string(key) + "'");
        }
    }
    if (!sawVersion) problem(0, "no '# PmSamplingFileVersion=' header line: not a .pmsampling.csv file");
    if (!sawInterval) problem(0, "no '# IntervalNs=' header line");
    if (index >= lines.size()) {
        problem(0, "no column row (expected a line starting with 'Device')");
        return result;
    }

    // Column row.
    const char separator = file.session.listSeparator;
    const size_t columnLine = index + 1;
    std::vector<std::string> columns;
    for (std::string_view column : SplitOn(lines[index], separator)) columns.emplace_back(Trim(column));
    bool fixedGood = columns.size() >= kFixedColumnCount;
    for (size_t c = 0; fixedGood && c < kFixedColumnCount; ++c) fixedGood = columns[c] == kFixedColumns[c];
    if (!fixedGood) {
        const std::string s(1, separator);
        problem(columnLine, "the column row must start with Device" + s + "StartNs" + s + "EndNs" + s + "Flags: '" +
                                std::string(lines[index]) + "'");
        return result;
    }
    std::set<std::string> seen;
    for (size_t c = kFixedColumnCount; c < columns.size(); ++c) {
        if (columns[c].empty()) problem(columnLine, "empty metric name in column " + std::to_string(c + 1));
        else if (!seen.insert(columns[c]).second) problem(columnLine, "metric '" + columns[c] + "' twice");
        file.metrics.push_back(columns[c]);
    }
    ++index;

    // Rows.
    std::map<uint32_t, uint64_t> lastEnd;  // per device: the end of its last sample read
    for (; index < lines.size(); ++index) {
        const size_t lineNumber = index + 1;
        const std::string_view line = lines[index];
        if (Trim(line).empty()) {
            if (options.strictLayout) problem(lineNumber, "empty line among the rows");
            continue;
        }
        const std::vector<std::string_view> fields = SplitOn(line, separator);
        if (fields.size() != columns.size()) {
            problem(lineNumber, "row has " + std::to_string(fields.size()) + " fields, the column row has " +
                                    std::to_string(columns.size()));
            continue;
        }
        PmSample row;
        bool good = true;
        auto bad = [&](const std::string& column, std::string_view value, const char* expected) {
            problem(lineNumber, column + " is '" + std::string(value) + "', expected " + expected);
            good = false;
        };
        const std::string_view deviceText = Trim(fields[0]);
        const std::optional<uint64_t> device = ParseUnsigned(deviceText);
        bool knownDevice = false;
        for (const PmSamplingDevice& known : file.devices) knownDevice = knownDevice || (device && known.index == *device);
        if (!device || !knownDevice) bad("Device", deviceText, "the index of a '# Device<index>=' header line");
        else row.device = static_cast<uint32_t>(*device);
        const std::optional<uint64_t> start = ParseUnsigned(Trim(fields[1]));
        const std::optional<uint64_t> end = ParseUnsigned(Trim(fields[2]));
        if (!start) bad("StartNs", Trim(fields[1]), "nanoseconds (an unsigned integer)");
        if (!end) bad("EndNs", Trim(fields[2]), "nanoseconds (an unsigned integer)");
        if (start && end) {
            row.startNs = *start;
            row.endNs = *end;
            if (*end < *start) bad("EndNs", Trim(fields[2]), "a time at or after StartNs");
        }
        const std::string_view flags = Trim(fields[3]);
        if (!flags.empty()) {
            for (std::string_view flag : SplitOn(flags, '|')) {
                bool* slot = flag == kPmSamplingDroppedBefore ? &row.droppedBefore
                             : flag == kPmSamplingReplay      ? &row.replay
                                                              : nullptr;
                if (!slot || *slot) {
                    bad("Flags", flags, "empty, or dropped-before and/or replay joined by '|', each once");
                    break;
                }
                *slot = true;
            }
        }
        for (size_t c = kFixedColumnCount; c < columns.size(); ++c) {
            const std::string_view value = Trim(fields[c]);
            if (value == "NA") {
                row.values.emplace_back();
                continue;
            }
            const std::optional<double> number = ParseDouble(value);
            if (!number || !std::isfinite(*number)) {
                bad(columns[c], value, "a number or NA");
                row.values.emplace_back();
            } else {
                row.values.push_back(*number);
            }
        }
        if (good) {
            auto previous = lastEnd.find(row.device);
            if (previous != lastEnd.end() && row.startNs < previous->second) {
                problem(lineNumber, "StartNs " + std::to_string(row.startNs) + " is before the end of device " +
                                        std::to_string(row.device) + "'s previous sample (" +
                                        std::to_string(previous->second) + "): its samples must be in time order");
                good = false;
            }
        }
        if (!good) continue;
        lastEnd[row.device] = row.endNs;
        file.rows.push_back(std::move(row));
    }
    if (options.strictLayout && result.ok()) CompareWithLayout(text, WritePmSampling(file), &result.problems);
    return result;
}

bool WritePmSamplingFile(const std::string& path, const PmSamplingFile& file, std::string* error) {
    return WriteFileThrough(path, [&](TextOutput* text) { WritePmSamplingTo(file, text); }, error);
}

Parsed<PmSamplingFile> ReadPmSamplingFile(const std::string& path, ReadOptions options) {
    return ReadFileThrough<PmSamplingFile>(path, [&](std::string_view text) { return ParsePmSampling(text, options); });
}

}  // namespace gpaprof
