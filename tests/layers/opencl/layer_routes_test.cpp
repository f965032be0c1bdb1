// The layer's ways into a process: the ICD loader's layers (OPENCL_LAYERS), the preload route for loaders
// without them (LD_PRELOAD), both at once (the first to start counts, the other passes calls on), and
// together with gpaprof's own OpenCL layer in one process. Each runs the program written against the
// extension alone (opencl_performance_counters_tests), whose own checks must all pass.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <map>
#include <set>
#include <string>

#include "layers/opencl/layer_entries.h"
#include "tools/gpaprof/cli/icd_loader.h"
#include "tools/gpaprof/profiled_run.h"

#if defined(__SANITIZE_ADDRESS__)
extern "C" void __asan_init();
#endif

namespace {

using gpaprof::testing::Execute;
using gpaprof::testing::Outcome;

// The ICD loader the program gets, and whether it loads layers (OPENCL_LAYERS; the CUDA toolkit's does not): as
// gpaprof decides it.
bool LoaderHasLayers() {
    const std::string path = gpaprof::cli::FindIcdLoader();
    return !path.empty() && gpaprof::cli::IcdLoaderReadsLayers(path);
}

// In sanitizer builds the sanitizer runtime must come first in LD_PRELOAD, and the processes PoCL starts
// (its kernel linker) must not fail on their own leaks.
std::map<std::string, std::string> PreloadEnvironment(const std::string& library) {
    std::string preload = library;
    std::map<std::string, std::string> environment;
#if defined(__SANITIZE_ADDRESS__)
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&__asan_init), &info) && info.dli_fname) {
        preload = std::string(info.dli_fname) + ":" + preload;
    }
    const char* options = std::getenv("ASAN_OPTIONS");
    environment["ASAN_OPTIONS"] = std::string(options ? options : "") + ":detect_leaks=0";
#endif
    environment["LD_PRELOAD"] = preload;
    return environment;
}

class LayerRoutes : public gpaprof::testing::ProfiledRunTest {
protected:
    void SetUp() override { MakeDirectory("opengpa-cl-layer"); }

    // Runs the program; it must find the extension and pass everything it checks (or skip it all, without
    // an OpenCL device).
    void ExpectProgramPasses(const std::vector<std::string>& prefix, std::map<std::string, std::string> environment,
                             const std::string& filter = "") {
        std::vector<std::string> command = prefix;
        command.push_back(SEED_PROGRAM);
        if (!filter.empty()) command.push_back("--gtest_filter=" + filter);
        const Outcome run = Execute(command, directory_, environment);
        EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
        EXPECT_NE(run.out.find("[  PASSED  ]"), std::string::npos) << run.out;
        EXPECT_EQ(run.out.find("[  FAILED  ]"), std::string::npos) << run.out;
        if (run.out.find("[  SKIPPED ]") != std::string::npos && run.out.find("no OpenCL device") != std::string::npos) {
            GTEST_SKIP() << "no OpenCL device: the program skipped its tests";
        }
    }
};

TEST_F(LayerRoutes, LoaderRoute) {
    if (!LoaderHasLayers()) GTEST_SKIP() << "the ICD loader here has no layers (OPENCL_LAYERS)";
    ExpectProgramPasses({}, {{"OPENCL_LAYERS", OPENGPA_CL_LAYER}});
}

TEST_F(LayerRoutes, PreloadRoute) {
    if (!OPENGPA_CL_LAYER_PRELOAD) GTEST_SKIP() << "the layer has no preload route on this architecture";
    ExpectProgramPasses({}, PreloadEnvironment(OPENGPA_CL_LAYER));
}

TEST_F(LayerRoutes, BothRoutesCountOnce) {
    if (!OPENGPA_CL_LAYER_PRELOAD || !LoaderHasLayers()) GTEST_SKIP() << "needs both routes";
    std::map<std::string, std::string> environment = PreloadEnvironment(OPENGPA_CL_LAYER);
    environment["OPENCL_LAYERS"] = OPENGPA_CL_LAYER;
    // Counted twice, the byte and work-item checks would fail.
    ExpectProgramPasses({}, environment);
}

// gpaprof's layer and this one in one process: gpaprof traces (-t) and counts dispatches (-p) of the program
// while the program's own counters stay exact. gpaprof's forced profiling shows through its layer (the
// events of a queue created without profiling answer their timestamps), so the one test of that is left out.
TEST_F(LayerRoutes, WithGpaprofInOneProcess) {
    const std::string filter = "-*QueueWithoutProfilingKeepsAnsweringAsOne";
    for (const std::string route : {"layer", "preload"}) {
        SCOPED_TRACE(route);
        std::map<std::string, std::string> environment;
        if (route == "layer") {
            if (!LoaderHasLayers()) continue;
            environment["OPENCL_LAYERS"] = OPENGPA_CL_LAYER;  // gpaprof adds its own above this one
            environment["GPAPROF_OPENCL_INJECTION"] = "layer";
        } else {
            if (!OPENGPA_CL_LAYER_PRELOAD) continue;
            environment = PreloadEnvironment(OPENGPA_CL_LAYER);  // gpaprof puts its own before this one
            environment["GPAPROF_OPENCL_INJECTION"] = "preload";
        }
        ExpectProgramPasses({GPAPROF_EXECUTABLE, "-t", "-p", "-o", Path(route), "--"}, environment, filter);
        if (HasFatalFailure() || IsSkipped()) return;
        const gpaprof::AtpFile atp = ReadAtp(route + ".atp");
        std::map<std::string, int> calls;
        for (const auto& part : atp.parts) {
            for (const auto& thread : part.threads) {
                for (const auto& call : thread.entries) ++calls[call.name];
            }
        }
        // The program's kernels, its queries, and its queues with counters: created through the layer's KHR
        // entry point, which calls the core one from the top, so gpaprof sees them.
        EXPECT_GE(calls["clEnqueueNDRangeKernel"], 8);
        EXPECT_GE(calls["clGetEventProfilingInfo"], 20);
        EXPECT_GE(calls["clCreateCommandQueueWithProperties"], 18);
        EXPECT_GE(ReadCsv(route + ".csv").rows.size(), 8u);
    }
}

// gpaprof -p --counters names the extension's counters: gpaprof's layer enables them on the application's
// queues (which do not know of them) and writes each dispatch's values into the .csv.
TEST_F(LayerRoutes, GpaprofCountsTheExtensionsCountersPerDispatch) {
    std::map<std::string, std::string> environment{{"OPENCL_LAYERS", OPENGPA_CL_LAYER}};
    if (!LoaderHasLayers()) {
        if (!OPENGPA_CL_LAYER_PRELOAD) GTEST_SKIP() << "no route into the program here";
        environment = PreloadEnvironment(OPENGPA_CL_LAYER);
    }
    const Outcome run = Execute({GPAPROF_EXECUTABLE, "-p", "--counters", "GPUTime,KernelWorkItems,CommandDuration,TransferBytes",
                                 "-o", Path("counted"), "--", GPAPROF_TEST_APP, "--threads", "2", "--iterations", "2"},
                                directory_, environment);
    // The program exits 77 without an OpenCL device (saying "no OpenCL platform" or "no OpenCL device").
    if (run.exitCode == 77 && run.err.find("no OpenCL") != std::string::npos) {
        GTEST_SKIP() << "no OpenCL device: the program skipped its tests";
    }
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const gpaprof::CsvFile csv = ReadCsv("counted.csv");
    ASSERT_EQ(csv.counterNames, (std::vector<std::string>{"GPUTime", "KernelWorkItems", "CommandDuration", "TransferBytes"}));
    ASSERT_EQ(csv.rows.size(), 20u);  // 2 threads x 2 iterations x 5 kernels
    for (const gpaprof::DispatchRow& row : csv.rows) {
        SCOPED_TRACE(row.method);
        ASSERT_EQ(row.counters.size(), 4u);
        EXPECT_EQ(row.counters[1].integer, row.globalWorkSize.product());
        ASSERT_TRUE(row.timeMs.has_value());
        EXPECT_NEAR(static_cast<double>(row.counters[2].integer), *row.timeMs * 1e6, 10.0);  // Time has 5 decimals
        EXPECT_EQ(row.counters[3].integer, 0u);  // kernels move no bytes
    }
}

// The entry points of the layer's table are exactly those the preload route exports, and only the first
// route to start the layer gets them.
TEST(LayerEntry, TableHasTheListedEntriesAndASecondStartPassesOn) {
    void* layer = dlopen(OPENGPA_CL_LAYER, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(layer, nullptr) << dlerror();
    using InitLayer = cl_int (*)(cl_uint, const cl_icd_dispatch*, cl_uint*, const cl_icd_dispatch**);
    using GetLayerInfo = cl_int (*)(cl_layer_info, size_t, void*, size_t*);
    auto init = reinterpret_cast<InitLayer>(dlsym(layer, "clInitLayer"));
    auto info = reinterpret_cast<GetLayerInfo>(dlsym(layer, "clGetLayerInfo"));
    ASSERT_TRUE(init && info);
    cl_layer_api_version version = 0;
    ASSERT_EQ(info(CL_LAYER_API_VERSION, sizeof version, &version, nullptr), CL_SUCCESS);
    EXPECT_EQ(version, static_cast<cl_layer_api_version>(CL_LAYER_API_VERSION_100));
    char name[64] = "";
    EXPECT_EQ(info(CL_LAYER_NAME, 2, name, nullptr), CL_INVALID_VALUE);
    ASSERT_EQ(info(CL_LAYER_NAME, sizeof name, name, nullptr), CL_SUCCESS);
    EXPECT_STREQ(name, "opengpa_cl_performance_counters");
    EXPECT_EQ(info(0x4249, sizeof name, name, nullptr), CL_INVALID_VALUE);

    // A table below in which every entry is a distinct address (never called).
    constexpr size_t kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);
    static char marks[kEntries];
    cl_icd_dispatch below{};
    void** slots = reinterpret_cast<void**>(&below);
    for (size_t i = 0; i < kEntries; ++i) slots[i] = &marks[i];
    cl_uint entries = 0;
    const cl_icd_dispatch* table = nullptr;
    EXPECT_EQ(init(kEntries, &below, nullptr, &table), CL_INVALID_VALUE);
    ASSERT_EQ(init(kEntries, &below, &entries, &table), CL_SUCCESS);
    EXPECT_EQ(entries, kEntries);
    std::set<size_t> listed;
#define OPENGPA_LISTED(entry) listed.insert(offsetof(cl_icd_dispatch, entry) / sizeof(void*));
    OPENGPA_CL_LAYER_ENTRIES(OPENGPA_LISTED)
#undef OPENGPA_LISTED
    const void* const* ours = reinterpret_cast<const void* const*>(table);
    for (size_t i = 0; i < kEntries; ++i) {
        EXPECT_EQ(ours[i] != slots[i], listed.count(i) == 1) << "entry " << i;
        EXPECT_NE(ours[i], nullptr) << "entry " << i;
    }
    // A second start (the other route) passes everything on.
    const cl_icd_dispatch* second = nullptr;
    ASSERT_EQ(init(kEntries, &below, &entries, &second), CL_SUCCESS);
    EXPECT_EQ(std::memcmp(second, &below, sizeof below), 0);
    // The preload route exports the same names.
#define OPENGPA_EXPORTED(entry) EXPECT_NE(dlsym(layer, #entry), nullptr) << #entry;
    if (OPENGPA_CL_LAYER_PRELOAD) {
        OPENGPA_CL_LAYER_ENTRIES(OPENGPA_EXPORTED)
    }
#undef OPENGPA_EXPORTED
}

}  // namespace
