// The two ways the OpenCL layer is initialised (layer_entry.cpp): the first traces, a later one passes calls
// on; and the list of traced entry points (traced_entry_names.h) is what the layer fills and what the preload
// shim exports. Loads the built libraries as the ICD loader would; this process becomes a profiled one (its
// spool goes to a scratch directory).
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <dlfcn.h>

#include <gtest/gtest.h>

#include "tools/gpaprof/opencl/cl_headers.h"
#include "tools/gpaprof/opencl/traced_entry_names.h"

#include "opencl_layer_loading.h"

namespace {

constexpr size_t kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);

std::set<size_t> TracedIndices() {
    std::set<size_t> indices;
#define GPAPROF_INDEX(name) indices.insert(offsetof(cl_icd_dispatch, name) / sizeof(void*));
    GPAPROF_OPENCL_TRACED_ENTRIES(GPAPROF_INDEX)
#undef GPAPROF_INDEX
    return indices;
}

// A table "below" the layer whose entries are all present and all different (never called).
cl_icd_dispatch TableBelow() {
    static char marks[kEntries];
    cl_icd_dispatch table;
    void** entries = reinterpret_cast<void**>(&table);
    for (size_t i = 0; i < kEntries; ++i) entries[i] = &marks[i];
    return table;
}

TEST(OpenclLayerEntry, FirstInitialisationTracesTheListedEntriesAndLaterOnesPassCallsOn) {
    std::string scratch, problem;
    const gpaprof::test::InitLayer init = gpaprof::test::LoadTracingLayer("/tmp/gpaprof-layer-entry-", &scratch, &problem);
    ASSERT_NE(init, nullptr) << problem;

    const cl_icd_dispatch below = TableBelow();
    const cl_icd_dispatch* first = nullptr;
    cl_uint firstEntries = 0;
    ASSERT_EQ(init(kEntries, &below, &firstEntries, &first), CL_SUCCESS);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(firstEntries, kEntries);
    const std::set<size_t> traced = TracedIndices();
    void* const* ours = reinterpret_cast<void* const*>(first);
    void* const* theirs = reinterpret_cast<void* const*>(&below);
    for (size_t i = 0; i < kEntries; ++i) {
        SCOPED_TRACE("dispatch entry " + std::to_string(i));
        if (traced.count(i)) {
            EXPECT_NE(ours[i], nullptr);
            EXPECT_NE(ours[i], theirs[i]);
        } else {
            EXPECT_EQ(ours[i], nullptr);  // the loader calls what lies below
        }
    }

    const cl_icd_dispatch* second = nullptr;
    cl_uint secondEntries = 0;
    ASSERT_EQ(init(kEntries, &below, &secondEntries, &second), CL_SUCCESS);
    ASSERT_NE(second, nullptr);
    EXPECT_NE(second, first);
    EXPECT_EQ(std::memcmp(second, &below, sizeof below), 0) << "a later initialisation passes every call on";

    const cl_icd_dispatch* bad = nullptr;
    EXPECT_EQ(init(kEntries, nullptr, &secondEntries, &bad), CL_INVALID_VALUE);
    std::filesystem::remove_all(scratch);
}

TEST(OpenclLayerEntry, PreloadShimExportsEveryTracedEntryPoint) {
#ifdef GPAPROF_OPENCL_PRELOAD
    void* shim = dlopen(GPAPROF_OPENCL_PRELOAD, RTLD_LAZY | RTLD_LOCAL);
    ASSERT_NE(shim, nullptr) << dlerror();
#define GPAPROF_EXPORTED(name) EXPECT_NE(dlsym(shim, #name), nullptr) << #name;
    GPAPROF_OPENCL_TRACED_ENTRIES(GPAPROF_EXPORTED)
#undef GPAPROF_EXPORTED
    EXPECT_EQ(dlsym(shim, "clGetGLContextInfoKHR"), nullptr) << "only the traced entry points";
#else
    GTEST_SKIP() << "the preload shim is not built for this processor";
#endif
}

}  // namespace
