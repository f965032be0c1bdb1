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
#include <utility>

#include "spool_assembly_synthetic.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"
#ifdef GPAPROF_WITH_CUDA_PART
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/raw_kernel_line.h"
#endif

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

std::string SpoolText(const SyntheticSpoolOptions& synthetic, bool odd) {
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
    return text;
}

AssemblyOptions Options(const SyntheticSpoolOptions& synthetic, size_t threads = 0) {
    const bool cuda = synthetic.api == SyntheticSpoolOptions::Api::Cuda;
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
    options.threads = threads;
#ifdef GPAPROF_WITH_CUDA_PART
    options.expandRawCall = &cuda::ExpandRawCallLine;
    options.expandRawKernel = &cuda::ExpandRawKernelLine;
#endif
    return options;
}

Files Assemble(const SyntheticSpoolOptions& synthetic, bool odd, size_t threads = 0) {
    const std::string text = SpoolText(synthetic, odd);
    const AssemblyOptions options = Options(synthetic, threads);
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
    for (const std::string& problem : a.spoolProblems) notes += problem + "|";
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

std::vector<std::pair<SyntheticSpoolOptions, bool>> Spools() {
    std::vector<std::pair<SyntheticSpoolOptions, bool>> spools;
    for (auto api : {SyntheticSpoolOptions::Api::Cuda, SyntheticSpoolOptions::Api::OpenCL}) {
        for (uint32_t threads : {1u, 3u}) {
            for (bool odd : {false, true}) {
                SyntheticSpoolOptions options;
                options.api = api;
                options.launches = 1500;
                options.threads = threads;
                options.counters = options.occupancy = options.symbols = odd;
                options.activityBatch = 250;
                spools.push_back({options, odd});
            }
        }
    }
    return spools;
}

// gpaprof writes the trace's calls from the spool straight into the .atp: the same file as the AtpFile gives.
TEST(SpoolAssembly, TraceWrittenFromTheSpoolIsTheAssembledOne) {
    for (const auto& [synthetic, odd] : Spools()) {
        const std::string text = SpoolText(synthetic, odd);
        const AssemblyOptions options = Options(synthetic);
        FakeResolver resolver;
        AssembledSpool streamed(text, options, &resolver);
        const AssembledProcess assembled = AssembleSpool(text, options, &resolver);
        ASSERT_TRUE(streamed.process().atp && assembled.atp);
        const std::string fromSpool = WriteAtp(*streamed.process().atp, streamed.traceLines());
        EXPECT_EQ(fromSpool, WriteAtp(*assembled.atp)) << synthetic.threads << " threads, odd " << odd;
        EXPECT_EQ(streamed.process().apiCalls, assembled.apiCalls);
        EXPECT_EQ(streamed.process().unfinishedCommands, assembled.unfinishedCommands);
        size_t threads = 0;
        for (const auto& part : assembled.atp->parts) threads += part.threads.size();
        EXPECT_EQ(streamed.traceThreads(), threads);
    }
}

// Writing the .atp on several threads (runs of 4096 lines at once) gives the same file.
TEST(SpoolAssembly, TraceWrittenOnSeveralThreadsIsTheSame) {
    for (auto api : {SyntheticSpoolOptions::Api::Cuda, SyntheticSpoolOptions::Api::OpenCL}) {
        SyntheticSpoolOptions synthetic;
        synthetic.api = api;
        synthetic.launches = 12000;
        synthetic.threads = 3;
        const std::string text = SpoolText(synthetic, true);
        const AssemblyOptions options = Options(synthetic);
        AssembledSpool streamed(text, options, nullptr);
        const std::string one = WriteAtp(*streamed.process().atp, streamed.traceLines(), 1);
        for (size_t threads : {2u, 3u, 5u}) {
            EXPECT_EQ(WriteAtp(*streamed.process().atp, streamed.traceLines(), threads), one) << threads << " threads";
        }
    }
}

// Random spools of calls, commands, device times, clocks and kernel timestamps, in random order, with
// duplicates, escapes in every text field and unreadable lines: the .atp written from the spool is the one
// the AtpFile gives.
TEST(SpoolAssembly, RandomSpoolsWrittenFromTheSpoolAreTheAssembledOnes) {
    uint64_t state = 99;
    auto random = [&state](uint64_t bound) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % bound;
    };
    // Plain texts first; every fourth round also those with escapes.
    const std::vector<std::string> texts = {"a", "b c", "", "x;y", "0x0000557E3E6E65B0", "tab\there", "new\nline",
                                            "back\\slash", "cr\r"};
    int round = 0;
    auto text = [&] { return texts[random(round % 4 == 0 ? texts.size() : 5)]; };
    const std::vector<std::string> parts = {"ocl", "cuda", "hsa", "ocl\tx"};
    for (round = 0; round < 40; ++round) {
        std::string spool;
        const size_t records = 50 + random(400);
        for (size_t i = 0; i < records; ++i) {
            const std::string part = parts[random(round % 3 == 0 ? 4 : 2)];
            const uint64_t tid = 1 + random(4), index = random(30);
            switch (random(7)) {
                case 0:
                case 1: {
                    ApiCall call{static_cast<uint32_t>(random(300)), text(), std::nullopt, {}, 1000 + random(100000), 0,
                                 std::nullopt, std::nullopt, std::nullopt};
                    call.end = call.start + random(5000);
                    if (random(2)) call.returnValue = text();
                    for (uint64_t a = random(5); a > 0; --a) call.args.push_back(text());
                    spool += spool::Encode(spool::CallRecord{part, tid, index, call});
                    break;
                }
                case 2: {
                    CommandTimes command{static_cast<uint32_t>(random(5000)), text(), 0, 0, 0, 0, random(3), text(),
                                         random(3), text(), text()};
                    std::optional<KernelLaunch> kernel;
                    if (random(2)) kernel = KernelLaunch{text(), text(), {random(99), random(99)}, {}};
                    if (kernel && random(2)) kernel->localSize = {random(9), random(9), random(9)};
                    std::optional<uint64_t> transfer;
                    if (random(2)) transfer = random(100000);
                    spool += spool::Encode(spool::CommandRecord{part, tid, index, random(5) ? "0xD" : "k\tey", command,
                                                                kernel, transfer});
                    break;
                }
                case 3: {
                    const uint64_t queued = random(3) ? 500 + random(90000) : 0;
                    spool += spool::Encode(spool::TimesRecord{part, tid, index, random(3) ? "0xD" : "k\tey", queued,
                                                              queued + 10, queued + 20, queued + random(100)});
                    break;
                }
                case 4:
                    spool += spool::Encode(spool::CalibrationRecord{"0xD", 1000 + random(1000), 3000 + random(1000),
                                                                    500 + random(1000)});
                    break;
                case 5: {
                    KernelTimestamp stamp{text(), text(), random(100000), random(100000), text(), text(),
                                          random(9), random(9), text(), random(9999), text()};
                    spool += spool::Encode(spool::KernelTimestampRecord{part, random(2) ? "" : "0xD", stamp});
                    break;
                }
                default:
                    spool += random(2) ? "A\tocl\t1\tx\n" : "E\t\n";
                    break;
            }
        }
        SyntheticSpoolOptions synthetic;
        AssemblyOptions options = Options(synthetic, 1 + random(3));
        options.counters = options.occupancy = false;
        AssembledSpool streamed(spool, options, nullptr);
        const AssembledProcess assembled = AssembleSpool(spool, options, nullptr);
        EXPECT_EQ(WriteAtp(*streamed.process().atp, streamed.traceLines()), WriteAtp(*assembled.atp)) << "round " << round;
    }
}

// A spool read in stretches on several threads is assembled as one read at once (notes and their line
// numbers included).
TEST(SpoolAssembly, ThreadsReadingTheSpoolChangeNothing) {
    for (const auto& [synthetic, odd] : Spools()) {
        const std::string one = Summary(Assemble(synthetic, odd, 1));
        for (size_t threads : {2u, 3u, 7u}) EXPECT_EQ(Summary(Assemble(synthetic, odd, threads)), one) << threads;
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

// The CUDA part writes each kernel as a raw line ('R') that gpaprof expands while it reads the spool: the files are
// those of the kernel's 'Q' 'E' 'T' records, also among odd records, on several threads, with every mode.
TEST(SpoolAssembly, CudaRawKernelLinesGiveTheSameFiles) {
    if (!bench::SyntheticRawKernels()) GTEST_SKIP() << "built without gpaprof's CUDA part (no raw kernel lines)";
    SyntheticSpoolOptions simple;
    simple.launches = 2500;
    SyntheticSpoolOptions everything = simple;
    everything.threads = 3;
    everything.counters = everything.occupancy = everything.symbols = true;
    everything.activityBatch = 333;
    for (const auto& [synthetic, odd] : {std::pair{simple, false}, std::pair{everything, true}}) {
        SyntheticSpoolOptions raw = synthetic;
        raw.rawKernels = true;
        const std::string rawText = SpoolText(raw, odd);
        if (!odd) {
            EXPECT_EQ(rawText.find("\nQ\t"), std::string::npos) << "kernels as raw lines only";
        }
        EXPECT_NE(rawText.find("\nR\t"), std::string::npos);
        // The notes name the odd records' line numbers, fewer lines earlier with raw lines: all else is the same.
        auto withoutNotes = [](const std::string& summary) { return summary.substr(0, summary.find(", notes ")); };
        for (size_t threads : {1u, 3u}) {
            const Files expected = Assemble(synthetic, odd, threads);
            const Files fromRaw = Assemble(raw, odd, threads);
            EXPECT_EQ(withoutNotes(Summary(fromRaw)), withoutNotes(Summary(expected))) << threads << " threads";
            EXPECT_EQ(fromRaw.atp, expected.atp);
            EXPECT_EQ(fromRaw.assembled.spoolProblems.size(), expected.assembled.spoolProblems.size());
        }
    }
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

namespace gpaprof {
namespace {

// Spool lines, whole and mutated (cut short, a byte changed, a tab or backslash added): what Decode makes of
// each (the record written back, or the reason it refuses the line), hashed. The hash is the one the decoder
// gave before it read fields in place, so every line is accepted or refused as it was, with the same reason.
// Since K records may end in a graph launch and node (CUDA graphs), five mutated K lines with one field too many
// are refused for another reason ("record ends early", "... is not a number"); the same lines are refused. Since P
// records may end in the process's place (host, boot id, rank), nine mutated P lines with one field too many are
// refused as "record ends early" instead of "more fields than the record has"; the same lines are refused.
TEST(SpoolRecordsDecode, AcceptsAndRefusesLinesAsBefore) {
    const std::vector<std::string> samples = {
        "P\t41235\t41230\t/opt/bench/launch_loop\t--launches 5\t/opt/bench\t/tmp/bench/trace\t68120488587",
        "D\tcuda:0\tNVIDIA H200\tNVIDIA Corporation\tNVIDIA CUDA\tCUDA 13.0\t580.159.04\tNA\t64\t1\tNVIDIA H200\t1\t0x2335",
        "L\tCUDA\t3\tGPUTime\tWavefronts\tL2CacheHit",
        "A\tcuda\t41235\t0\t211\tcudaLaunchKernel\t1\tcudaSuccess\t6\t0x0000557E3E6E65B0\t{16384,1,1}\t{256,1,1}\t"
        "0x00007FFDEB1E4660\t0\tNULL\t68370488587\t68370491087",
        "A\tocl\t7\t3\t38\tclSetKernelArg\t1\tCL_SUCCESS\t4\t0x1\t0\t8\t[0x2]\t10\t20",
        "A\tocl\t7\t4\t99\tclVoid\t0\t\t2\ta\\\\b\tnew\\nline\t30\t40",
        "E\tcuda\t41235\t0\t\t1\tCUDA_KERNEL\t7\t0x0000000000000000\t1\t0x0000557E3D3FD470\tNVIDIA H200\t1\t"
        "0x0000557E3E2F80\t_Z5saxpyPfPKffi\t3\t4194304\t1\t1\t3\t256\t1\t1\t-",
        "E\tocl\t7\t5\t0x1\t4596\tCL_COMMAND_WRITE_BUFFER\t1\t0x2\t1\t0x3\tdev ice\t0\t256",
        "T\tocl\t7\t5\t0x1\t100\t200\t300\t400",
        "C\t0x1\t10\t20\t5",
        "K\tOpenCL\tadd_one__k1_CPU\t1\t7\t5\t1\t64\t1\t1\t1\t64\t1\t1\t0.006502\t0\t-\t-\t-\t1.5625\t1\tGPUTime\t1\t0\t"
        "0.0065020000000000004",
        "O\t1\t7\tadd_one\tdev\t2\t512\t1\t-\t-\t524288\t-\t-\t0\t8\t64\t8\t4096\t512\t64\t18446744073709551615\t-\t-\t"
        "512\t8\t1.5625\t0\t\t-",
        "M\t7\t0\t123\tname\tgroup",
        "S\tocl\t7\t5\tclFinish\t/bin/app\t4198964\t4194304\tmain\t4198912",
        "Q\tcuda\t\t_Z5saxpyPfPKffi\t0x0000557E3E6E65B0\t68370494587\t68370511387\tNVIDIA H200\t0x0000000000000000\t7\t0\t"
        "CUDA_KERNEL\t1000\t{grid={16384,1,1},block={256,1,1}}",
        "X\tsignal\t3\t11\t7\t0",
        "N\ta note\\twith a tab",
    };
    uint64_t state = 12345;
    auto random = [&state](uint64_t bound) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % bound;
    };
    uint64_t hash = 1469598103934665603ull;
    size_t accepted = 0, refused = 0;
    auto add = [&](const std::string& line) {
        std::string error;
        std::optional<spool::Record> record = spool::Decode(line, &error);
        const std::string result = record ? spool::Encode(*record) : "refused: " + error + "\n";
        (record ? accepted : refused)++;
        for (unsigned char c : result) {
            hash ^= c;
            hash *= 1099511628211ull;
        }
    };
    const char replacements[] = {'\t', '\\', '-', '0', '9', 'x', ' ', 'n', 't', '1'};
    for (const std::string& sample : samples) {
        add(sample);
        for (size_t length = 0; length < sample.size(); ++length) add(sample.substr(0, length));
        for (int i = 0; i < 400; ++i) {
            std::string line = sample;
            const size_t edits = 1 + random(3);
            for (size_t e = 0; e < edits && !line.empty(); ++e) {
                const size_t at = random(line.size());
                switch (random(3)) {
                    case 0: line[at] = replacements[random(sizeof replacements)]; break;
                    case 1: line.insert(at, 1, replacements[random(sizeof replacements)]); break;
                    default: line.erase(at, 1); break;
                }
            }
            add(line);
        }
    }
    EXPECT_EQ(Hex(hash), "a508b61d96832edf") << accepted << " accepted, " << refused << " refused";
}

}  // namespace
}  // namespace gpaprof
