// Assembling a spool gives the same files, byte for byte, as the assembler and writers gave before they were
// made faster (docs/benchmarks.md, "gpaprof's own work after the application (CPU)"): synthetic spools of
// many launches (bench/spool_assembly_synthetic.h) with every kind of record, plus the odd ones a real spool
// may hold (escapes, unreadable and cut-short lines, unfinished commands, calibrated clocks, counters in
// another order, several threads and parts), are assembled and written, and the files' FNV-1a hashes are
// compared with those the earlier code wrote. The files also read back strictly.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <map>

#include "spool_assembly_synthetic.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof {
namespace {

using bench::SyntheticSpoolOptions;

uint64_t Fnv1a(std::string_view text) {
    uint64_t hash = 1469598103934665603ull;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

std::string Hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "%016" PRIx64, value);
    return text;
}

// Resolves every third address to a line, every third to a function only, and leaves the rest.
class FakeResolver : public SymbolResolver {
public:
    std::map<std::pair<std::string, uint64_t>, ResolvedAddress> Resolve(
        const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& wanted) override {
        std::map<std::pair<std::string, uint64_t>, ResolvedAddress> resolved;
        for (const auto& [module, address, base] : wanted) {
            ResolvedAddress result;
            switch ((address >> 4) % 3) {
                case 0:
                    result.function = "launch_all(int)";
                    result.file = "/src/launch loop.cpp";
                    result.line = 40 + (address >> 4) % 7;
                    break;
                case 1: result.function = "helper"; break;
                default: break;
            }
            resolved[{module, address}] = result;
        }
        return resolved;
    }
};

std::string Line(const spool::Record& record) { return spool::Encode(record); }

// The records no synthetic launch loop has, spread through the spool.
std::string OddRecords(bool cuda) {
    const std::string part = cuda ? "cuda" : "ocl";
    std::string text;
    text += Line(spool::NoteRecord{"a note\twith a tab\nand a line break"});
    text += "\n";  // an empty line
    text += "Z\tnot a record\n";
    text += "A\tocl\tnot-a-number\n";
    DeviceHeader device{"Second Device", "vendor", "platform", "1.2", "drv", "rt", 64, std::nullopt, std::string("0x1")};
    text += Line(spool::DeviceRecord{"0xDEAD", device});
    text += Line(spool::DeviceRecord{"0xDEAD", device});  // the same device again
    // A thread with a smaller id that starts later, with a void call and arguments that need escapes.
    ApiCall odd{7, cuda ? "cudaOdd" : "clOdd", std::nullopt, {"a;b", "\"quoted;\\\"\"", "new\nline", "tab\there", ""},
                68370488000, 68370489000, std::nullopt, std::nullopt, std::nullopt};
    text += Line(spool::CallRecord{part, 17, 0, odd});
    odd.start = 68370487000;  // an earlier call of the same thread, recorded later
    odd.end = 68370487500;
    odd.returnValue = "CL_INVALID_VALUE";
    text += Line(spool::CallRecord{part, 17, 1, odd});
    // An enqueue on another device that never completed, and one with calibrated device times.
    ApiCall enqueue{102, cuda ? "cudaMemcpyAsync" : "clEnqueueWriteBuffer", std::string("CL_SUCCESS"), {"0x1", "4096"},
                    68370490000, 68370495000, std::nullopt, std::nullopt, std::nullopt};
    text += Line(spool::CallRecord{part, 17, 2, enqueue});
    CommandTimes command{4596, "CL_COMMAND_WRITE_BUFFER", 0, 0, 0, 0, 2, "0x0000000000000002", 1, "0x3", "Second Device"};
    text += Line(spool::CommandRecord{part, 17, 2, "0xDEAD", command, std::nullopt, 4096});
    enqueue.start = 68370500000;
    enqueue.end = 68370502000;
    text += Line(spool::CallRecord{part, 17, 3, enqueue});
    text += Line(spool::CommandRecord{part, 17, 3, "0xDEAD", command, std::nullopt, 8192});
    text += Line(spool::CalibrationRecord{"0xDEAD", 68370499000, 68370499100, 5000});
    text += Line(spool::CalibrationRecord{"0xDEAD", 68370600000, 68370600300, 106000});
    text += Line(spool::TimesRecord{part, 17, 3, "0xDEAD", 1500, 1600, 1700, 2900});
    // A kernel timestamp on the calibrated clock, perf markers of thread 17, a caller without symbols.
    text += Line(spool::KernelTimestampRecord{part, "0xDEAD", KernelTimestamp{"odd kernel", "0x9", 3000, 4000, "Second Device",
                                                                              "0x2", 1, 1, "T", 7, "{a b}"}});
    text += Line(spool::MarkerRecord{17, PerfMarker{PerfMarker::Kind::Begin, "", "", 68370488100}});
    text += Line(spool::MarkerRecord{17, PerfMarker{PerfMarker::Kind::EndEx, "a b", "", 68370488200}});
    text += Line(spool::SourceRecord{part, 17, 0, cuda ? "cudaOdd" : "clOdd", "", 0x7f0012345678, 0, "", 0});
    text += Line(spool::SourceRecord{part, 17, 1, cuda ? "cudaOdd" : "clOdd", "/lib/x86_64-linux-gnu/libfoo.so.1",
                                     0x7f0012345678, 0x7f0012300000, "foo_call", 0x7f0012345600});
    // Rows: counters in another order, one missing; a row of another API; occupancy out of order.
    DispatchRow row;
    row.method = "odd__k2_Second Device1";
    row.executionOrder = 0;
    row.threadId = 17;
    row.globalWorkSize = WorkSize::Of({8, 8});
    row.counters = {CounterValue::Int("Wavefronts", 12), CounterValue::Real("GPUTime", 1.5)};
    text += Line(spool::DispatchRecord{cuda ? "CUDA" : "OpenCL", row});
    text += Line(spool::DispatchRecord{cuda ? "OpenCL" : "HSA", row});
    OccupancyRow occupancy;
    occupancy.threadId = 17;
    occupancy.kernelName = "odd,kernel";
    occupancy.deviceName = "Second Device";
    occupancy.occupancyPercent = 12.5;
    text += Line(spool::OccupancyRecord{0, occupancy});
    text += Line(spool::EventRecord{"signal", {"11", "17", "0"}});
    return text;
}

struct Files {
    std::string atp, csv, occupancy;
    AssembledProcess assembled;
};

Files Assemble(const SyntheticSpoolOptions& synthetic, bool odd) {
    const bool cuda = synthetic.api == SyntheticSpoolOptions::Api::Cuda;
    std::string text = bench::MakeSyntheticSpool(synthetic).text;
    if (odd) {
        // Odd records after the first tenth of the spool, a CRLF line, and a last line cut short.
        size_t at = text.find('\n', text.size() / 10) + 1;
        text.insert(at, OddRecords(cuda));
        at = text.find('\n', text.size() / 2);
        text.insert(at, "\r");
        text += "A\tocl\t1\t2\t3";
    }
    AssemblyOptions options;
    options.trace = true;
    options.counters = synthetic.counters;
    options.occupancy = synthetic.occupancy;
    options.profilerVersion = "0.1.0";
    options.displayName = "trace";
    options.osVersion = "Debian GNU/Linux 12 (bookworm) Build 6.1.0";
    options.fullEnvironment = false;
    options.environment = {{"A", "1"}, {"B", "two words"}};
    options.excludedApis = {"clGetPlatformInfo", "cudaGetDevice", "cuCtxGetDevice"};
    options.listSeparator = ';';
    options.kernelsProfiled = std::vector<std::string>{"add_one", "_Z5saxpyPfPKffi"};
    options.maxKernelsToProfile = 100000;
    options.defaultApi = cuda ? "CUDA" : "OpenCL";
    FakeResolver resolver;
    Files files;
    files.assembled = AssembleSpool(text, options, &resolver);
    if (files.assembled.atp) files.atp = WriteAtp(*files.assembled.atp);
    if (files.assembled.csv) files.csv = WriteCsv(*files.assembled.csv);
    if (files.assembled.occupancy) files.occupancy = WriteOccupancy(*files.assembled.occupancy);
    return files;
}

std::string Summary(const Files& files) {
    const AssembledProcess& a = files.assembled;
    std::string notes;
    for (const std::string& note : a.notes) notes += note + "|";
    return "atp " + Hex(Fnv1a(files.atp)) + " " + std::to_string(files.atp.size()) + ", csv " + Hex(Fnv1a(files.csv)) +
           " " + std::to_string(files.csv.size()) + ", occupancy " + Hex(Fnv1a(files.occupancy)) + " " +
           std::to_string(files.occupancy.size()) + ", calls " + std::to_string(a.apiCalls) + ", dispatches " +
           std::to_string(a.dispatches) + ", unfinished " + std::to_string(a.unfinishedCommands) + ", bad " +
           std::to_string(a.badRecords) + ", signal " + (a.signal ? "yes" : "no") + ", exit " +
           (a.exitRecorded ? "yes" : "no") + ", notes " + Hex(Fnv1a(notes));
}

void ExpectReadsBackStrictly(const Files& files) {
    Parsed<AtpFile> atp = ParseAtp(files.atp, {true});
    EXPECT_TRUE(atp.ok()) << atp.Describe().substr(0, 2000);
    if (files.assembled.csv) {
        Parsed<CsvFile> csv = ParseCsv(files.csv, {true});
        EXPECT_TRUE(csv.ok()) << csv.Describe().substr(0, 2000);
    }
    if (files.assembled.occupancy) {
        Parsed<OccupancyFile> occupancy = ParseOccupancy(files.occupancy, {true});
        EXPECT_TRUE(occupancy.ok()) << occupancy.Describe().substr(0, 2000);
    }
}

TEST(SpoolAssembly, CudaTraceIsUnchanged) {
    SyntheticSpoolOptions options;
    options.launches = 2500;
    const Files files = Assemble(options, false);
    EXPECT_EQ(Summary(files),
              "atp 6e1447d59694a64a 2526105, csv 14650fb0739d0383 0, occupancy 14650fb0739d0383 0, "
              "calls 5000, dispatches 0, unfinished 0, bad 0, signal no, exit yes, notes 14650fb0739d0383");
    ExpectReadsBackStrictly(files);
}

TEST(SpoolAssembly, CudaEverythingOnThreeThreadsIsUnchanged) {
    SyntheticSpoolOptions options;
    options.launches = 2500;
    options.threads = 3;
    options.counters = options.occupancy = options.symbols = true;
    options.activityBatch = 333;
    const Files files = Assemble(options, true);
    EXPECT_EQ(Summary(files),
              "atp da78342662f5a996 2723472, csv 044f103af3cfecf6 1339, occupancy 40c782371f93f176 343278, "
              "calls 5004, dispatches 1, unfinished 1, bad 2, signal yes, exit yes, notes d7807e73f0c192b4");
    ExpectReadsBackStrictly(files);
}

TEST(SpoolAssembly, OpenClTraceIsUnchanged) {
    SyntheticSpoolOptions options;
    options.api = SyntheticSpoolOptions::Api::OpenCL;
    options.launches = 2500;
    const Files files = Assemble(options, false);
    EXPECT_EQ(Summary(files),
              "atp f95eaea7a4fd10ee 1186197, csv 14650fb0739d0383 0, occupancy 14650fb0739d0383 0, "
              "calls 2500, dispatches 0, unfinished 0, bad 0, signal no, exit yes, notes 14650fb0739d0383");
    ExpectReadsBackStrictly(files);
}

TEST(SpoolAssembly, OpenClEverythingOnTwoThreadsIsUnchanged) {
    SyntheticSpoolOptions options;
    options.api = SyntheticSpoolOptions::Api::OpenCL;
    options.launches = 2500;
    options.threads = 2;
    options.counters = options.occupancy = options.symbols = true;
    const Files files = Assemble(options, true);
    EXPECT_EQ(Summary(files),
              "atp 00330d216f6440d4 1300832, csv 47e0794baa6a1ba8 1489, occupancy 9ffb5a9e3278d615 328278, "
              "calls 2504, dispatches 1, unfinished 1, bad 2, signal yes, exit yes, notes 7903dc849a9dd64f");
    ExpectReadsBackStrictly(files);
}

}  // namespace
}  // namespace gpaprof
