#include "tools/gpaprof/files/occupancy_file.h"

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/strict_check.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

// How each column of a row is stored in OccupancyRow.
enum class Kind { ThreadId, KernelName, DeviceName, Unsigned, Percent, Text };

struct Column {
    const char* name;
    Kind kind;
    std::optional<uint64_t> OccupancyRow::*number = nullptr;
};

const Column kColumns[] = {
    {"Thread ID", Kind::ThreadId},
    {"Kernel Name", Kind::KernelName},
    {"Device Name", Kind::DeviceName},
    {"Number of compute units", Kind::Unsigned, &OccupancyRow::computeUnits},
    {"Max. number of wavefronts per CU", Kind::Unsigned, &OccupancyRow::maxWavesPerComputeUnit},
    {"Max. number of work-group per CU", Kind::Unsigned, &OccupancyRow::maxWorkGroupsPerComputeUnit},
    {"Max. number of VGPR", Kind::Unsigned, &OccupancyRow::maxVgprs},
    {"Max. number of SGPR", Kind::Unsigned, &OccupancyRow::maxSgprs},
    {"Max. amount of LDS", Kind::Unsigned, &OccupancyRow::maxLds},
    {"Number of VGPR used", Kind::Unsigned, &OccupancyRow::usedVgprs},
    {"Number of SGPR used", Kind::Unsigned, &OccupancyRow::usedSgprs},
    {"Amount of LDS used", Kind::Unsigned, &OccupancyRow::usedLds},
    {"Size of wavefront", Kind::Unsigned, &OccupancyRow::waveSize},
    {"Work-group size", Kind::Unsigned, &OccupancyRow::workGroupSize},
    {"Wavefronts per work-group", Kind::Unsigned, &OccupancyRow::wavesPerWorkGroup},
    {"Max work-group size", Kind::Unsigned, &OccupancyRow::maxWorkGroupSize},
    {"Max wavefronts per work-group", Kind::Unsigned, &OccupancyRow::maxWavesPerWorkGroup},
    {"Global work size", Kind::Unsigned, &OccupancyRow::globalWorkSize},
    {"Maximum global work size", Kind::Unsigned, &OccupancyRow::maxGlobalWorkSize},
    {"Nbr VGPR-limited waves", Kind::Unsigned, &OccupancyRow::vgprLimitedWaves},
    {"Nbr SGPR-limited waves", Kind::Unsigned, &OccupancyRow::sgprLimitedWaves},
    {"Nbr LDS-limited waves", Kind::Unsigned, &OccupancyRow::ldsLimitedWaves},
    {"Nbr of WG-limited waves", Kind::Unsigned, &OccupancyRow::workGroupLimitedWaves},
    {"Kernel occupancy", Kind::Percent},
    {"Graphics IP Version", Kind::Text},
    {"Number of SIMDs per CU", Kind::Unsigned, &OccupancyRow::simdsPerComputeUnit},
};
constexpr size_t kColumnCount = sizeof(kColumns) / sizeof(kColumns[0]);
static_assert(kColumnCount == 26, "the occupancy layout has 26 columns");

}  // namespace

const std::vector<std::string>& OccupancyColumns() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const Column& column : kColumns) list.emplace_back(column.name);
        return list;
    }();
    return names;
}

namespace {

// A text field must not contain the separator; it is replaced rather than breaking the row.
void AppendField(std::string* out, std::string_view text, char separator) {
    const size_t begin = out->size();
    AppendOneLine(out, text);
    for (size_t i = begin; i < out->size(); ++i) {
        if ((*out)[i] == separator) (*out)[i] = ' ';
    }
}

void WriteOccupancyTo(const OccupancyFile& file, TextOutput* out) {
    const SessionInfo& session = file.session;
    const char separator = session.listSeparator;
    std::string& text = out->text;
    if (!out->buffered()) text.reserve(4096 + file.rows.size() * 160);
    text += "# ProfilerVersion=" + OneLine(session.profilerVersion) + "\n";
    text += "# Application=" + OneLine(session.application) + "\n";
    text += "# ApplicationArgs=" + OneLine(session.applicationArgs) + "\n";
    text += std::string("# ListSeparator=") + separator + "\n";
    text += "# KernelCount=" + std::to_string(file.rows.size()) + "\n";
    text += JoinFields(OccupancyColumns(), separator, false) + "\n";
    for (const OccupancyRow& row : file.rows) {
        bool first = true;
        for (const Column& column : kColumns) {
            if (!first) text.push_back(separator);
            first = false;
            switch (column.kind) {
                case Kind::ThreadId: AppendUnsigned(&text, row.threadId); break;
                case Kind::KernelName: AppendField(&text, row.kernelName, separator); break;
                case Kind::DeviceName: AppendField(&text, row.deviceName, separator); break;
                case Kind::Unsigned: {
                    const std::optional<uint64_t>& value = row.*column.number;
                    if (value) {
                        AppendUnsigned(&text, *value);
                    } else {
                        text.append("NA");
                    }
                    break;
                }
                case Kind::Percent:
                    if (row.occupancyPercent) {
                        AppendFixed(&text, *row.occupancyPercent, 0, 2);
                    } else {
                        text.append("NA");
                    }
                    break;
                case Kind::Text:
                    if (row.graphicsIpVersion) {
                        AppendField(&text, *row.graphicsIpVersion, separator);
                    } else {
                        text.append("NA");
                    }
                    break;
            }
        }
        text.push_back('\n');
        out->Flush();
    }
}

}  // namespace

std::string WriteOccupancy(const OccupancyFile& file) {
    TextOutput out;
    WriteOccupancyTo(file, &out);
    return std::move(out.text);
}

Parsed<OccupancyFile> ParseOccupancy(std::string_view text, ReadOptions options) {
    Parsed<OccupancyFile> result;
    OccupancyFile& file = result.file;
    auto problem = [&](size_t line, std::string message) { result.problems.push_back({line, std::move(message)}); };
    const std::vector<std::string_view> lines = SplitLines(text);
    std::optional<uint64_t> kernelCount;
    size_t kernelCountLine = 0;
    size_t index = 0;

    for (; index < lines.size(); ++index) {
        std::string_view line = lines[index];
        const size_t lineNumber = index + 1;
        if (Trim(line).empty()) continue;
        if (line.front() != '#') break;
        std::string_view body = Trim(line.substr(1));
        const size_t equals = body.find('=');
        if (equals == std::string_view::npos) {
            problem(lineNumber, "header line without '=': '" + std::string(line) + "'");
            continue;
        }
        const std::string_view key = body.substr(0, equals);
        const std::string_view value = body.substr(equals + 1);
        if (key == "ProfilerVersion") {
            file.session.profilerVersion = std::string(value);
        } else if (key == "Application") {
            file.session.application = std::string(value);
        } else if (key == "ApplicationArgs" || key == "ApplicationArg") {
            file.session.applicationArgs = std::string(value);
        } else if (key == "ListSeparator") {
            if (value.size() != 1) problem(lineNumber, "ListSeparator must be one character: '" + std::string(value) + "'");
            else file.session.listSeparator = value[0];
        } else if (key == "KernelCount") {
            kernelCount = ParseUnsigned(value);
            kernelCountLine = lineNumber;
            if (!kernelCount) problem(lineNumber, "KernelCount is not a number: '" + std::string(value) + "'");
        } else if (options.strictLayout) {
            problem(lineNumber, "unknown header key '" + std::string(key) + "'");
        }
    }
    if (index >= lines.size()) {
        problem(0, "no column row (expected a line starting with 'Thread ID')");
        return result;
    }

    const char separator = file.session.listSeparator;
    const size_t columnLine = index + 1;
    std::vector<std::string> columns;
    for (std::string_view column : SplitOn(lines[index], separator)) columns.emplace_back(Trim(column));
    // Older files lack the last two columns; any other difference is a different file.
    const size_t expected = columns.size();
    bool columnsGood = expected == kColumnCount || expected == kColumnCount - 2;
    for (size_t c = 0; columnsGood && c < expected; ++c) {
        std::string name = columns[c];
        if (name == "Nbr of WG limited waves") name = "Nbr of WG-limited waves";  // older spelling
        columnsGood = name == kColumns[c].name;
    }
    if (!columnsGood) {
        problem(columnLine, "the column row is not the occupancy layout's 26 columns (Thread ID" + std::string(1, separator) +
                                "Kernel Name" + std::string(1, separator) + "...): '" + std::string(lines[index]) + "'");
        return result;
    }
    ++index;

    for (; index < lines.size(); ++index) {
        const size_t lineNumber = index + 1;
        std::string_view line = lines[index];
        if (Trim(line).empty()) {
            if (options.strictLayout) problem(lineNumber, "empty line among the rows");
            continue;
        }
        std::vector<std::string_view> fields = SplitOn(line, separator);
        if (fields.size() != expected) {
            problem(lineNumber, "row has " + std::to_string(fields.size()) + " fields, the column row has " +
                                    std::to_string(expected));
            continue;
        }
        OccupancyRow row;
        bool good = true;
        for (size_t c = 0; c < expected; ++c) {
            const Column& column = kColumns[c];
            const std::string_view value = Trim(fields[c]);
            auto bad = [&](const char* what) {
                problem(lineNumber, std::string(column.name) + " is '" + std::string(value) + "', expected " + what);
                good = false;
            };
            switch (column.kind) {
                case Kind::ThreadId: {
                    std::optional<uint64_t> tid = ParseUnsigned(value);
                    if (!tid) bad("a thread id");
                    else row.threadId = *tid;
                    break;
                }
                case Kind::KernelName:
                    if (value.empty()) bad("a kernel name");
                    row.kernelName = std::string(value);
                    break;
                case Kind::DeviceName: row.deviceName = std::string(value); break;
                case Kind::Unsigned: {
                    if (value == "NA") break;
                    std::optional<uint64_t> number = ParseUnsigned(value);
                    if (!number) bad("an unsigned integer or NA");
                    else row.*column.number = number;
                    break;
                }
                case Kind::Percent: {
                    if (value == "NA") break;
                    std::optional<double> number = ParseDouble(value);
                    if (!number || *number < 0.0 || *number > 100.0) bad("a percentage (0 to 100) or NA");
                    else row.occupancyPercent = number;
                    break;
                }
                case Kind::Text:
                    if (value != "NA") row.graphicsIpVersion = std::string(value);
                    break;
            }
        }
        if (good) file.rows.push_back(std::move(row));
    }
    if (kernelCount && *kernelCount != file.rows.size() && result.ok()) {
        problem(kernelCountLine, "KernelCount says " + std::to_string(*kernelCount) + ", the file has " +
                                     std::to_string(file.rows.size()) + " rows");
    }
    if (options.strictLayout && !kernelCount) problem(0, "no '# KernelCount=' header line");
    if (options.strictLayout && result.ok()) CompareWithLayout(text, WriteOccupancy(file), &result.problems);
    return result;
}

bool WriteOccupancyFile(const std::string& path, const OccupancyFile& file, std::string* error) {
    return WriteFileThrough(path, [&](TextOutput* text) { WriteOccupancyTo(file, text); }, error);
}

Parsed<OccupancyFile> ReadOccupancyFile(const std::string& path, ReadOptions options) {
    return ReadFileThrough<OccupancyFile>(path, [&](std::string_view text) { return ParseOccupancy(text, options); });
}

}  // namespace gpaprof
