#include "tools/gpaprof/files/csv_file.h"

#include <algorithm>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/files/strict_check.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

constexpr const char* kMethod = "Method";
constexpr const char* kExecutionOrder = "ExecutionOrder";
constexpr const char* kThreadId = "ThreadID";
constexpr const char* kCallIndex = "CallIndex";
constexpr const char* kGlobalWorkSize = "GlobalWorkSize";
constexpr const char* kWorkGroupSize = "WorkGroupSize";
constexpr const char* kTime = "Time";
constexpr const char* kLocalMemSize = "LocalMemSize";
constexpr const char* kVgprs = "VGPRs";
constexpr const char* kSgprs = "SGPRs";
constexpr const char* kScratchRegs = "ScratchRegs";
constexpr const char* kKernelOccupancy = "KernelOccupancy";
constexpr const char* kGraphLaunch = "GraphLaunch";
constexpr const char* kGraphNode = "GraphNode";

void AppendSize(std::string* out, const WorkSize& size, int width) {
    out->push_back('{');
    for (int i = 0; i < 3; ++i) {
        if (i) out->push_back(' ');
        AppendFormatUnsigned(out, size.size[i], width);
    }
    out->push_back('}');
}

std::string FormatSize(const WorkSize& size, int width) {
    std::string text;
    AppendSize(&text, size, width);
    return text;
}

void AppendOptionalUnsigned(std::string* out, const std::optional<uint64_t>& value) {
    if (value) {
        AppendUnsigned(out, *value);
    } else {
        out->append("NA");
    }
}

void AppendCounter(std::string* out, const CounterValue& value) {
    switch (value.kind) {
        case CounterValue::Kind::Integer: AppendUnsigned(out, value.integer); return;
        case CounterValue::Kind::Float: AppendFixed(out, value.number, value.decimals > 2 ? 15 : 12, value.decimals); return;
        case CounterValue::Kind::NotAvailable: break;
    }
    out->append("NA");
}

// "{a b c}" with one to three values.
std::optional<WorkSize> ParseSize(std::string_view text) {
    text = Trim(text);
    if (text.size() < 3 || text.front() != '{' || text.back() != '}') return std::nullopt;
    std::vector<std::string_view> values = SplitWhitespace(text.substr(1, text.size() - 2));
    if (values.empty() || values.size() > 3) return std::nullopt;
    WorkSize size;
    size.dims = 3;
    for (size_t i = 0; i < values.size(); ++i) {
        std::optional<uint64_t> value = ParseUnsigned(values[i]);
        if (!value) return std::nullopt;
        size.size[i] = *value;
    }
    return size;
}

std::optional<std::optional<uint64_t>> ParseOptionalUnsigned(std::string_view text) {
    if (text == "NA") return std::optional<uint64_t>{};
    std::optional<uint64_t> value = ParseUnsigned(text);
    if (!value) return std::nullopt;
    return value;
}

}  // namespace

std::vector<std::string> CsvStatisticColumns(CsvFlavor flavor, bool withKernelOccupancy, bool withGraphColumns) {
    std::vector<std::string> columns;
    if (flavor == CsvFlavor::OpenCL) {
        columns = {kMethod, kExecutionOrder, kThreadId, kCallIndex, kGlobalWorkSize, kWorkGroupSize,
                   kTime, kLocalMemSize, kVgprs, kSgprs, kScratchRegs};
    } else {
        columns = {kMethod, kExecutionOrder, kThreadId, kGlobalWorkSize, kWorkGroupSize, kLocalMemSize, kVgprs, kSgprs};
    }
    if (withKernelOccupancy) columns.push_back(kKernelOccupancy);
    if (withGraphColumns) {
        columns.push_back(kGraphLaunch);
        columns.push_back(kGraphNode);
    }
    return columns;
}

bool IsCsvStatisticColumn(std::string_view name) {
    for (const char* known : {kMethod, kExecutionOrder, kThreadId, kCallIndex, kGlobalWorkSize, kWorkGroupSize, kTime,
                              kLocalMemSize, kVgprs, kSgprs, kScratchRegs, kKernelOccupancy, kGraphLaunch, kGraphNode}) {
        if (name == known) return true;
    }
    return false;
}

bool AnyGraphRow(const std::vector<DispatchRow>& rows) {
    return std::any_of(rows.begin(), rows.end(), [](const DispatchRow& row) { return row.graphLaunch.has_value(); });
}

std::string FormatGlobalWorkSize(const WorkSize& size) {
    return size.specified() ? FormatSize(size, 7) : std::string("NULL");
}

std::string FormatWorkGroupSize(const WorkSize& size) {
    return size.specified() ? FormatSize(size, 5) : std::string("NULL");
}

std::string FormatTimeMs(double milliseconds) { return FormatFixed(milliseconds, 15, 5); }

std::string FormatCounter(const CounterValue& value) {
    switch (value.kind) {
        case CounterValue::Kind::Integer: return std::to_string(value.integer);
        case CounterValue::Kind::Float: return FormatFixed(value.number, value.decimals > 2 ? 15 : 12, value.decimals);
        case CounterValue::Kind::NotAvailable: break;
    }
    return "NA";
}

namespace {

void WriteCsvTo(const CsvFile& file, TextOutput* out) {
    const SessionInfo& session = file.session;
    std::vector<std::string> lines;
    lines.push_back("#ProfileFileVersion=" + OneLine(file.profileFileVersion));
    lines.push_back("#ProfilerVersion=" + OneLine(session.profilerVersion));
    lines.push_back("#API=" + OneLine(file.api));
    lines.push_back("#Application=" + OneLine(session.application));
    lines.push_back("#ApplicationArgs=" + OneLine(session.applicationArgs));
    lines.push_back("#WorkingDirectory=" + OneLine(session.workingDirectory));
    if (session.fullEnvironment) {
        lines.push_back(std::string("#FullEnvironment=") + (*session.fullEnvironment ? "1" : "0"));
        for (const EnvironmentVariable& variable : session.environment) {
            lines.push_back("#EnvVar=" + OneLine(variable.name) + "=" + OneLine(variable.value));
        }
    }
    std::vector<DeviceHeader> devices = session.devices;
    for (DeviceHeader& device : devices) device.name = OneLine(device.name);
    AppendDeviceLines(&lines, devices, "#", "=");
    lines.push_back("#OS Version=" + OneLine(session.osVersion));
    lines.push_back("#DisplayName=" + OneLine(session.displayName));
    AppendProcessPlaceLines(&lines, session, "#");
    lines.push_back(std::string("#ListSeparator=") + session.listSeparator);
    lines.push_back("#ForceSinglePass=" + BoolText(file.forceSinglePass));
    if (file.kernelsProfiled) {
        std::string list;
        for (const std::string& kernel : *file.kernelsProfiled) list += (list.empty() ? "" : ",") + kernel;
        lines.push_back("#KernelsProfiled=" + OneLine(list));
    }
    if (file.maxKernelsToProfile) {
        lines.push_back("#MaxNumberOfKernelsToProfile=" + std::to_string(*file.maxKernelsToProfile));
    }

    std::vector<std::string> columns =
        CsvStatisticColumns(file.flavor, file.hasKernelOccupancyColumn, file.hasGraphColumns);
    for (const std::string& counter : file.counterNames) columns.push_back(counter);
    const char separator = session.listSeparator;
    lines.push_back(JoinFields(columns, separator, true));

    std::string& text = out->text;
    if (!out->buffered()) text.reserve(4096 + file.rows.size() * (160 + 16 * file.counterNames.size()));
    for (const std::string& line : lines) {
        text += line;
        text += '\n';
    }
    // Fields as JoinFields(fields, separator, true) joins them.
    auto next = [&text, separator] {
        text.push_back(separator);
        text.push_back(' ');
    };
    for (const DispatchRow& row : file.rows) {
        AppendOneLine(&text, row.method);
        next();
        AppendUnsigned(&text, row.executionOrder);
        next();
        AppendUnsigned(&text, row.threadId);
        if (file.flavor == CsvFlavor::OpenCL) {
            next();
            AppendOptionalUnsigned(&text, row.callIndex);
        }
        next();
        if (row.globalWorkSize.specified()) {
            AppendSize(&text, row.globalWorkSize, 7);
        } else {
            text.append("NULL");  // a whole CUDA graph (--graph-profiling graph) has no one grid
        }
        next();
        if (row.workGroupSize.specified()) {
            AppendSize(&text, row.workGroupSize, 5);
        } else {
            text.append("NULL");
        }
        if (file.flavor == CsvFlavor::OpenCL) {
            next();
            if (row.timeMs) {
                AppendFixed(&text, *row.timeMs, 15, 5);
            } else {
                text.append("NA");
            }
        }
        next();
        AppendUnsigned(&text, row.localMemSize);
        next();
        AppendOptionalUnsigned(&text, row.vgprs);
        next();
        AppendOptionalUnsigned(&text, row.sgprs);
        if (file.flavor == CsvFlavor::OpenCL) {
            next();
            AppendOptionalUnsigned(&text, row.scratchRegs);
        }
        if (file.hasKernelOccupancyColumn) {
            next();
            if (row.kernelOccupancy) {
                AppendFixed(&text, *row.kernelOccupancy, 12, 2);
            } else {
                text.append("NA");
            }
        }
        if (file.hasGraphColumns) {
            next();
            AppendOptionalUnsigned(&text, row.graphLaunch);
            next();
            AppendOptionalUnsigned(&text, row.graphNode);
        }
        for (size_t i = 0; i < file.counterNames.size(); ++i) {
            next();
            if (i < row.counters.size()) {
                AppendCounter(&text, row.counters[i]);
            } else {
                text.append("NA");
            }
        }
        text.push_back('\n');
        out->Flush();
    }
}

}  // namespace

std::string WriteCsv(const CsvFile& file) {
    TextOutput out;
    WriteCsvTo(file, &out);
    return std::move(out.text);
}

Parsed<CsvFile> ParseCsv(std::string_view text, ReadOptions options) {
    Parsed<CsvFile> result;
    CsvFile& file = result.file;
    file.hasKernelOccupancyColumn = false;
    auto problem = [&](size_t line, std::string message) { result.problems.push_back({line, std::move(message)}); };

    const std::vector<std::string_view> lines = SplitLines(text);
    DeviceHeaderParser devices;
    size_t index = 0;
    bool sawVersion = false;

    // Header: "#Key=Value" lines up to the column row.
    for (; index < lines.size(); ++index) {
        std::string_view line = lines[index];
        const size_t lineNumber = index + 1;
        if (line.empty()) continue;
        if (line.front() != '#') break;
        std::string_view body = line.substr(1);
        const size_t equals = body.find('=');
        if (equals == std::string_view::npos) {
            problem(lineNumber, "header line without '=': '" + std::string(line) + "'");
            continue;
        }
        const std::string_view key = body.substr(0, equals);
        const std::string_view value = body.substr(equals + 1);
        const std::string valueText(value);
        if (key == "ProfileFileVersion") {
            file.profileFileVersion = valueText;
            sawVersion = true;
        } else if (key == "API") {
            file.api = valueText;
        } else if (std::string bad; AcceptSessionField(key, value, &file.session, &bad)) {
            if (!bad.empty()) problem(lineNumber, bad);
        } else if (StartsWith(key, "Device ")) {
            std::string reason;
            if (!devices.Accept(key, value, &reason)) problem(lineNumber, reason);
        } else if (key == "ListSeparator") {
            if (value.size() != 1 || value[0] == ' ' || value[0] == '#') {
                problem(lineNumber, "ListSeparator must be one character: '" + valueText + "'");
            } else {
                file.session.listSeparator = value[0];
            }
        } else if (key == "ForceSinglePass") {
            if (!ParseBoolText(value, &file.forceSinglePass)) {
                problem(lineNumber, "ForceSinglePass must be True or False: '" + valueText + "'");
            }
        } else if (key == "KernelsProfiled") {
            std::vector<std::string> kernels;
            if (!value.empty()) {
                for (std::string_view kernel : SplitOn(value, ',')) kernels.emplace_back(Trim(kernel));
            }
            file.kernelsProfiled = kernels;
        } else if (key == "MaxNumberOfKernelsToProfile") {
            std::optional<uint64_t> count = ParseUnsigned(value);
            if (!count) problem(lineNumber, "MaxNumberOfKernelsToProfile is not a number: '" + valueText + "'");
            file.maxKernelsToProfile = count;
        } else if (options.strictLayout) {
            problem(lineNumber, "unknown header key '" + std::string(key) + "'");
        }
    }
    file.session.devices = devices.Take();
    if (!sawVersion) problem(0, "no #ProfileFileVersion header line: not a profiler .csv file");

    if (index >= lines.size()) {
        problem(0, "no column row (expected a line starting with 'Method')");
        return result;
    }

    // Column row.
    const char separator = file.session.listSeparator;
    std::vector<std::string> columns;
    for (std::string_view column : SplitOn(lines[index], separator)) columns.emplace_back(Trim(column));
    const size_t columnLine = index + 1;
    if (columns.empty() || columns[0] != kMethod) {
        problem(columnLine, "the column row must start with 'Method': '" + std::string(lines[index]) + "'");
        return result;
    }
    auto has = [&](const char* name) { return std::find(columns.begin(), columns.end(), name) != columns.end(); };
    file.flavor = (has(kCallIndex) || has(kTime) || has(kScratchRegs)) ? CsvFlavor::OpenCL : CsvFlavor::HSA;
    file.hasKernelOccupancyColumn = has(kKernelOccupancy);
    file.hasGraphColumns = has(kGraphLaunch) || has(kGraphNode);
    for (const std::string& column : columns) {
        if (!IsCsvStatisticColumn(column)) file.counterNames.push_back(column);
        if (column.empty()) problem(columnLine, "empty column name");
    }
    for (const char* required : {kExecutionOrder, kThreadId, kGlobalWorkSize, kWorkGroupSize}) {
        if (!has(required)) problem(columnLine, std::string("missing column ") + required);
    }
    ++index;

    // Rows.
    for (; index < lines.size(); ++index) {
        const size_t lineNumber = index + 1;
        std::string_view line = lines[index];
        if (Trim(line).empty()) {
            if (options.strictLayout) problem(lineNumber, "empty line among the rows");
            continue;
        }
        std::vector<std::string_view> fields = SplitOn(line, separator);
        if (fields.size() != columns.size()) {
            problem(lineNumber, "row has " + std::to_string(fields.size()) + " fields, the column row has " +
                                    std::to_string(columns.size()));
            continue;
        }
        DispatchRow row;
        bool good = true;
        auto bad = [&](const std::string& column, std::string_view value, const char* expected) {
            problem(lineNumber, column + " is '" + std::string(value) + "', expected " + expected);
            good = false;
        };
        for (size_t c = 0; c < columns.size(); ++c) {
            const std::string& column = columns[c];
            const std::string_view value = Trim(fields[c]);
            if (column == kMethod) {
                if (value.empty()) bad(column, value, "a kernel name");
                row.method = std::string(value);
            } else if (column == kExecutionOrder || column == kThreadId || column == kLocalMemSize) {
                std::optional<uint64_t> number = ParseUnsigned(value);
                if (!number) {
                    bad(column, value, "an unsigned integer");
                    continue;
                }
                if (column == kExecutionOrder) row.executionOrder = *number;
                else if (column == kThreadId) row.threadId = *number;
                else row.localMemSize = *number;
            } else if (column == kCallIndex || column == kVgprs || column == kSgprs || column == kScratchRegs ||
                       column == kGraphLaunch || column == kGraphNode) {
                std::optional<std::optional<uint64_t>> number = ParseOptionalUnsigned(value);
                if (!number) {
                    bad(column, value, "an unsigned integer or NA");
                    continue;
                }
                if (column == kCallIndex) row.callIndex = *number;
                else if (column == kVgprs) row.vgprs = *number;
                else if (column == kSgprs) row.sgprs = *number;
                else if (column == kScratchRegs) row.scratchRegs = *number;
                else if (column == kGraphLaunch) row.graphLaunch = *number;
                else row.graphNode = *number;
            } else if (column == kGlobalWorkSize) {
                if (value == "NULL") continue;  // a whole CUDA graph's row
                std::optional<WorkSize> size = ParseSize(value);
                if (!size) bad(column, value, "{x y z} or NULL");
                else row.globalWorkSize = *size;
            } else if (column == kWorkGroupSize) {
                if (value == "NULL") continue;
                std::optional<WorkSize> size = ParseSize(value);
                if (!size) bad(column, value, "{x y z} or NULL");
                else row.workGroupSize = *size;
            } else if (column == kTime || column == kKernelOccupancy) {
                if (value == "NA") continue;
                std::optional<double> number = ParseDouble(value);
                if (!number) {
                    bad(column, value, "a number or NA");
                    continue;
                }
                if (column == kTime) row.timeMs = *number;
                else row.kernelOccupancy = *number;
            } else {
                if (value == "NA") {
                    row.counters.push_back(CounterValue::NA(column));
                } else if (std::optional<uint64_t> integer = ParseUnsigned(value)) {
                    row.counters.push_back(CounterValue::Int(column, *integer));
                } else if (std::optional<double> number = ParseDouble(value)) {
                    const size_t point = value.find('.');
                    const int decimals = point == std::string_view::npos ? 0 : static_cast<int>(value.size() - point - 1);
                    row.counters.push_back(CounterValue::Real(column, *number, decimals));
                } else {
                    bad(column, value, "a number or NA");
                    row.counters.push_back(CounterValue::NA(column));
                }
            }
        }
        if (good) file.rows.push_back(std::move(row));
    }

    if (options.strictLayout && result.ok()) CompareWithLayout(text, WriteCsv(file), &result.problems);
    return result;
}

bool WriteCsvFile(const std::string& path, const CsvFile& file, std::string* error) {
    return WriteFileThrough(path, [&](TextOutput* text) { WriteCsvTo(file, text); }, error);
}

Parsed<CsvFile> ReadCsvFile(const std::string& path, ReadOptions options) {
    return ReadFileThrough<CsvFile>(path, [&](std::string_view text) { return ParseCsv(text, options); });
}

}  // namespace gpaprof
