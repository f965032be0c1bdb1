// gpaprof's own replay without a GPU: the module variables read from a cubin built here (nvcc -cubin), what
// the device memory map says must be saved (or why nothing can be saved reliably) after the driver calls an
// application makes, and what a launch carries for being issued again.
#define __CUDA_API_VERSION_INTERNAL 1  // CUPTI's driver parameter structs need the driver's own types

#include <gtest/gtest.h>

#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

#include <cstring>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/cubin_globals.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/device_memory_map.h"
#include "tools/gpaprof/cuda/launch_replayer.h"
#include "tools/gpaprof/cuda/memory_calls.h"
#include "tools/gpaprof/cuda/replay_windows.h"

namespace gpaprof::cuda {
namespace {

CUcontext Context(uintptr_t value) { return reinterpret_cast<CUcontext>(value); }
CUmodule Module(uintptr_t value) { return reinterpret_cast<CUmodule>(value); }

// ---- module variables from a cubin --------------------------------------------------------------------------

std::vector<char> ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

TEST(CubinGlobals, WritableVariablesOfACubinBuiltWithNvcc) {
#ifndef GPAPROF_TEST_CUBIN
    GTEST_SKIP() << "nvcc was not found when this was configured, so there is no test cubin";
#else
    const std::vector<char> image = ReadFile(GPAPROF_TEST_CUBIN);
    ASSERT_FALSE(image.empty()) << GPAPROF_TEST_CUBIN;
    std::string problem;
    const std::optional<CubinContents> contents = ReadCubinContents(image.data(), image.size(), &problem);
    ASSERT_TRUE(contents) << problem;
    std::map<std::string, CubinGlobal> globals;
    std::map<std::string, std::string> sectionOf;
    for (const CubinDataSection& section : contents->sections) {
        uint64_t end = 0;
        for (const CubinGlobal& global : section.globals) {
            globals[global.name] = global;
            sectionOf[global.name] = section.name;
            end = std::max(end, global.offset + global.size);
        }
        EXPECT_LE(end, section.size) << section.name << ": every variable lies inside its section";
    }
    ASSERT_TRUE(globals.count("counter"));
    EXPECT_EQ(globals["counter"].size, 4u);
    EXPECT_EQ(sectionOf["counter"], ".nv.global");
    ASSERT_TRUE(globals.count("table"));
    EXPECT_EQ(globals["table"].size, 256u);
    EXPECT_EQ(sectionOf["table"], ".nv.global.init") << "an initialised variable";
    ASSERT_TRUE(globals.count("_ZN2ns5totalE")) << "names are the symbol table's (mangled)";
    EXPECT_EQ(globals["_ZN2ns5totalE"].size, 8u);
    bool hidden = false;
    for (const auto& [name, global] : globals) hidden = hidden || (name.find("hidden") != std::string::npos && global.size == 24);
    EXPECT_TRUE(hidden) << "the file-scope static is in the section too";
    EXPECT_FALSE(globals.count("coefficients")) << "constant memory is not writable by kernels";
    EXPECT_NE(std::find(contents->functions.begin(), contents->functions.end(), "_Z5touchPi"), contents->functions.end())
        << "the kernel, by the name cuFuncGetName gives";
    EXPECT_EQ(std::find(contents->functions.begin(), contents->functions.end(), "counter"), contents->functions.end())
        << "variables are not functions";
#endif
}

TEST(CubinGlobals, ImagesThatAreNotCubinsAreRefused) {
    std::string problem;
    const char text[] = "not an ELF file at all";
    EXPECT_FALSE(ReadCubinContents(text, sizeof text, &problem));
    EXPECT_EQ(problem, "not an ELF image");
    EXPECT_FALSE(ReadCubinContents(nullptr, 0, &problem));
#ifdef GPAPROF_TEST_CUBIN
    std::vector<char> image = ReadFile(GPAPROF_TEST_CUBIN);
    ASSERT_GT(image.size(), 256u);
    // Cut short: the section table (at the end of nvcc's cubins) is missing.
    EXPECT_FALSE(ReadCubinContents(image.data(), image.size() / 2, &problem));
    EXPECT_FALSE(problem.empty());
    image[4] = 1;  // ELFCLASS32
    EXPECT_FALSE(ReadCubinContents(image.data(), image.size(), &problem));
    EXPECT_EQ(problem, "not a 64-bit little-endian ELF image");
#endif
}

// ---- the device memory map ------------------------------------------------------------------------------------

TEST(DeviceMemoryMap, DeviceAllocationsOfTheContextAreSavedUntilFreed) {
    DeviceMemoryMap map;
    map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
    map.Allocated(Context(1), MemoryKind::Device, 0x3000, 0x200);
    map.Allocated(Context(2), MemoryKind::Device, 0x9000, 0x100);  // another context's
    DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x1000, 0x100}, {0x3000, 0x200}}));
    EXPECT_EQ(plan.bytes, 0x300u);
    map.Freed(0x1000);
    map.Freed(0x5555);  // memory the map never saw: ignored
    plan = map.Plan(Context(1));
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x3000, 0x200}}));
    EXPECT_EQ(map.AllocationCount(), 2u);
}

TEST(DeviceMemoryMap, MemoryThatCannotBeRestoredReliablyMakesReplaysFallBack) {
    const std::vector<std::pair<MemoryKind, std::string>> kinds = {
        {MemoryKind::Managed, "managed memory"},
        {MemoryKind::HostPinned, "pinned host memory"},
        {MemoryKind::HostRegistered, "registered host memory"},
        {MemoryKind::VirtualMapped, "cuMemMap"},
        {MemoryKind::Imported, "another process"}};
    for (const auto& [kind, words] : kinds) {
        DeviceMemoryMap map;
        map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
        map.Allocated(Context(2), kind, 0x8000, 0x100);  // in any context: such memory is reachable from all
        const DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
        EXPECT_NE(plan.unsafe.find(words), std::string::npos) << plan.unsafe;
        EXPECT_TRUE(plan.regions.empty());
        map.Freed(0x8000);
        EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty()) << "freed again: replays are safe again";
    }
}

TEST(DeviceMemoryMap, ACommunicationLibrarysMemoryIsLeftAloneAndMakesNoReplayFallBack) {
    // NCCL's buffers, of any kind: its peers write them at any time, so a replay must never put them back.
    for (const MemoryKind kind : {MemoryKind::Device, MemoryKind::HostPinned, MemoryKind::VirtualMapped, MemoryKind::Imported}) {
        DeviceMemoryMap map;
        map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
        EXPECT_FALSE(map.HasCommunicationMemory());
        map.Allocated(Context(1), kind, 0x8000, 0x400, MemoryOwner::CommunicationLibrary);
        EXPECT_TRUE(map.HasCommunicationMemory());
        DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
        EXPECT_TRUE(plan.unsafe.empty()) << MemoryKindName(kind) << ": " << plan.unsafe;
        EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x1000, 0x100}})) << MemoryKindName(kind);
        EXPECT_EQ(plan.communicationAllocations, 1u);
        if (kind == MemoryKind::VirtualMapped) {
            map.Unmapped(0x8000, 0x400);
        } else {
            map.Freed(0x8000);
        }
        EXPECT_FALSE(map.HasCommunicationMemory()) << MemoryKindName(kind) << " released";
    }
    // The application's own memory of the same kinds still makes replays fall back.
    DeviceMemoryMap map;
    map.Allocated(Context(1), MemoryKind::VirtualMapped, 0x8000, 0x400, MemoryOwner::CommunicationLibrary);
    map.Allocated(Context(1), MemoryKind::VirtualMapped, 0x20000, 0x400);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("cuMemMap"), std::string::npos);
}

TEST(MemoryCalls, AllocationsCarryTheirOwner) {
    for (const uint32_t cbid : {CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc,
                                CUPTI_DRIVER_TRACE_CBID_cuMemMap, CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2}) {
        EXPECT_TRUE(IsAllocationCall(cbid)) << cbid;
    }
    for (const uint32_t cbid : {CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, CUPTI_DRIVER_TRACE_CBID_cuMemUnmap,
                                CUPTI_DRIVER_TRACE_CBID_cuModuleLoad, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel}) {
        EXPECT_FALSE(IsAllocationCall(cbid)) << cbid;
    }
    DeviceMemoryMap map;
    CUdeviceptr pointer = 0x5000;
    cuMemAlloc_v2_params alloc{&pointer, 0x100};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &alloc, Context(1), true, MemoryOwner::CommunicationLibrary);
    EXPECT_TRUE(map.HasCommunicationMemory());
    EXPECT_TRUE(map.Plan(Context(1)).regions.empty()) << "NCCL's allocation is not saved";
    cuMemMap_params mapping{0x9000, 0x1000, 0, 0, 0};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemMap, &mapping, Context(1), true);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("cuMemMap"), std::string::npos) << "the application's mapping";
}

TEST(DeviceMemoryMap, ArraysPeerAccessAndGraphCaptureMakeReplaysFallBack) {
    DeviceMemoryMap map;
    map.ArrayCreated(Context(1));
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("CUDA arrays"), std::string::npos);
    EXPECT_TRUE(map.Plan(Context(2)).unsafe.empty()) << "arrays belong to their context";
    map.ArrayDestroyed(Context(1));
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());
    map.PeerAccessEnabled(Context(1));
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("peer access"), std::string::npos);
    map.PeerAccessDisabled(Context(1));
    map.CaptureBegan();
    EXPECT_NE(map.Plan(Context(2)).unsafe.find("capture"), std::string::npos);
    map.CaptureEnded();
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());
}

// CUDA graph replays: pinned host memory no kernel argument points into is left alone (neither saved nor a reason to
// refuse); one an argument points into is saved with the device memory; managed memory still refuses.
TEST(DeviceMemoryMap, GraphReplaysSavePinnedMemoryOnlyWhereAnArgumentNamesIt) {
    DeviceMemoryMap map;
    map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
    map.Allocated(Context(1), MemoryKind::HostPinned, 0x9000, 0x100);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("pinned"), std::string::npos) << "launch by launch: still refused";
    const std::vector<uint64_t> elsewhere = {0x1000, 0x1080, 0x42};
    const DeviceMemoryMap::SavePlan plan = map.Plan(Context(1), &elsewhere);
    EXPECT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    ASSERT_EQ(plan.regions.size(), 1u);
    EXPECT_EQ(plan.regions[0].base, 0x1000u) << "the pinned memory is not saved";
    const std::vector<uint64_t> inside = {0x1000, 0x90ff};
    const DeviceMemoryMap::SavePlan named = map.Plan(Context(1), &inside);
    EXPECT_TRUE(named.unsafe.empty()) << named.unsafe;
    ASSERT_EQ(named.regions.size(), 2u) << "the pinned allocation an argument names is saved too";
    EXPECT_EQ(named.regions[1].base, 0x9000u);
    EXPECT_EQ(named.regions[1].size, 0x100u);
    const std::vector<uint64_t> pastTheEnd = {0x9100};
    EXPECT_TRUE(map.Plan(Context(1), &pastTheEnd).unsafe.empty());
    map.Allocated(Context(1), MemoryKind::Managed, 0x20000, 0x100);
    EXPECT_NE(map.Plan(Context(1), &elsewhere).unsafe.find("managed"), std::string::npos);
}

// Eager launches in a process with a communication library's memory (where CUPTI's kernel replay is ruled out):
// pinned host memory is handled as for graphs, through the launch's arguments; elsewhere it still falls back.
TEST(DeviceMemoryMap, EagerLaunchesSavePinnedMemoryAnArgumentNamesWhereACommunicationLibraryHasMemory) {
    DeviceMemoryMap map;
    map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
    map.Allocated(Context(1), MemoryKind::HostPinned, 0x9000, 0x100);
    int reads = 0;
    std::optional<std::vector<uint64_t>> arguments = std::vector<uint64_t>{0x1010, 0x42};
    auto words = [&] {
        ++reads;
        return arguments;
    };
    EXPECT_NE(map.PlanForLaunches(Context(1), {"kernel"}, words).unsafe.find("pinned"), std::string::npos)
        << "no communication library: the dispatch falls back to CUPTI's replay";
    EXPECT_EQ(reads, 0) << "the arguments are read only where they decide";

    map.Allocated(Context(1), MemoryKind::VirtualMapped, 0x100000, 0x1000, MemoryOwner::CommunicationLibrary);
    DeviceMemoryMap::SavePlan plan = map.PlanForLaunches(Context(1), {"kernel"}, words);
    EXPECT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    ASSERT_EQ(plan.regions.size(), 1u) << "pinned memory no argument names is left alone";
    EXPECT_EQ(plan.regions[0].base, 0x1000u);
    arguments = std::vector<uint64_t>{0x1010, 0x9010};
    plan = map.PlanForLaunches(Context(1), {"kernel"}, words);
    ASSERT_EQ(plan.regions.size(), 2u) << "named by an argument: saved";
    EXPECT_EQ(plan.regions[1].base, 0x9000u);

    arguments = std::nullopt;  // the arguments could not be read (no cuFuncGetParamInfo)
    EXPECT_NE(map.PlanForLaunches(Context(1), {"kernel"}, words).unsafe.find("pinned"), std::string::npos);
    arguments = std::vector<uint64_t>{};
    map.Allocated(Context(1), MemoryKind::Managed, 0x20000, 0x100);
    EXPECT_NE(map.PlanForLaunches(Context(1), {"kernel"}, words).unsafe.find("managed"), std::string::npos) << "managed still refuses";
}

TEST(DeviceMemoryMap, ArgumentWordsAreEachParametersEightByteWords) {
    // As CopyKernelArguments packs them: an int (4 bytes), then one 16-byte parameter holding two pointers.
    const uint32_t count = 7;
    const uint64_t first = 0x1111, second = 0x2222;
    std::vector<uint8_t> arguments(4 + 16);
    std::memcpy(arguments.data(), &count, 4);
    std::memcpy(arguments.data() + 4, &first, 8);
    std::memcpy(arguments.data() + 12, &second, 8);
    EXPECT_EQ(ArgumentWords(arguments, {0, 4}), (std::vector<uint64_t>{first, second})) << "a 4-byte parameter has no word";
    // One parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER): words from its start.
    const std::vector<uint64_t> words = ArgumentWords(arguments, {});
    ASSERT_EQ(words.size(), 2u);
    uint64_t expected = 0;
    std::memcpy(&expected, arguments.data() + 8, 8);
    EXPECT_EQ(words[1], expected);
}

// Begun captures count once they succeed; an end counts whatever it returns (an invalidated capture ends too).
TEST(MemoryCalls, GraphCapturesBeginWhenTheySucceedAndEndEitherWay) {
    for (const uint32_t begin : {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
                                 CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph}) {
        EXPECT_EQ(GraphCaptureChange(begin, true), 1);
        EXPECT_EQ(GraphCaptureChange(begin, false), 0);
        EXPECT_TRUE(IsMemoryCall(begin));
    }
    for (const uint32_t end : {CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz}) {
        EXPECT_EQ(GraphCaptureChange(end, true), -1);
        EXPECT_EQ(GraphCaptureChange(end, false), -1);
        EXPECT_TRUE(IsMemoryCall(end));
    }
    EXPECT_EQ(GraphCaptureChange(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, true), 0);
    EXPECT_EQ(GraphCaptureChange(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, true), 0);

    DeviceMemoryMap map;
    cuStreamBeginCapture_v2_params begin{nullptr, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &begin, Context(1), false);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty()) << "a capture that did not begin";
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &begin, Context(1), true);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("capture"), std::string::npos);
    cuStreamEndCapture_params end{nullptr, nullptr};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, &end, Context(1), false);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty()) << "an invalidated capture ends";
}

// Answers every pending lookup from a table of (module, name) -> address; other names are not found.
void Answer(DeviceMemoryMap* map, CUcontext context, const std::map<std::pair<CUmodule, std::string>, MemoryRegion>& table) {
    for (int round = 0; round < 16; ++round) {
        const std::vector<DeviceMemoryMap::Lookup> lookups = map->PendingLookups(context);
        if (lookups.empty()) return;
        for (const DeviceMemoryMap::Lookup& lookup : lookups) {
            auto found = table.find({lookup.module, lookup.name});
            if (found == table.end()) {
                map->LookupResult(context, lookup, std::nullopt);
            } else {
                // As the driver answers: cuMemGetAddressRange gives the variable's own extent.
                map->LookupResult(context, lookup,
                                  DeviceMemoryMap::Found{found->second.base, found->second.size, found->second.base,
                                                         found->second.size});
            }
        }
    }
}

TEST(DeviceMemoryMap, ModuleVariablesArePlacedThroughCuModuleGetGlobal) {
    DeviceMemoryMap map;
    // One section of 64 bytes: a (offset 0, 4 bytes), s (8, 4, a static the driver cannot name), b (16, 8).
    map.CubinLoaded(Context(1), 7, {CubinDataSection{".nv.global", 64, {{"a", 0, 4}, {"s", 8, 4}, {"b", 16, 8}}}});
    DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    EXPECT_NE(plan.unsafe.find("could not be located"), std::string::npos) << "not placed yet: nothing is saved";

    map.ModuleKnown(Context(1), Module(0xA));
    std::vector<DeviceMemoryMap::Lookup> lookups = map.PendingLookups(Context(1));
    ASSERT_EQ(lookups.size(), 1u);
    EXPECT_EQ(lookups[0].name, "a") << "the section's variables in turn";
    // a and b where the cubin puts them from 0x5000: the layout is kept, the whole section (s too) is saved.
    Answer(&map, Context(1), {{{Module(0xA), "a"}, {0x5000, 4}}, {{Module(0xA), "b"}, {0x5010, 8}}});
    EXPECT_TRUE(map.PendingLookups(Context(1)).empty());
    plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x5000, 64}}));

    // Unloading the module forgets where it placed the section.
    map.ModuleUnloaded(Module(0xA));
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());

    // Another module where the driver did not keep the layout: with every variable found, each is saved.
    map.CubinLoaded(Context(1), 8, {CubinDataSection{".nv.global", 16, {{"c", 0, 8}, {"d", 8, 8}}}});
    map.ModuleKnown(Context(1), Module(0xB));
    Answer(&map, Context(1), {{{Module(0xB), "c"}, {0x9000, 8}}, {{Module(0xB), "d"}, {0x7000, 8}}});
    map.CubinUnloaded(Context(1), 7);
    plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x7000, 8}, {0x9000, 8}}));
    // Not kept and one variable unnamed: nothing places it.
    map.CubinLoaded(Context(1), 9, {CubinDataSection{".nv.global", 16, {{"e", 0, 8}, {"f", 8, 8}}}});
    Answer(&map, Context(1), {{{Module(0xB), "e"}, {0x9100, 8}}});
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("could not be located"), std::string::npos);
    map.CubinUnloaded(Context(1), 9);
    map.CubinUnloaded(Context(1), 8);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());
}

// CUPTI numbers modules per context: a module of the same id in another context (gpaprof's cache-flush context
// has one) neither replaces nor unloads this context's (seen on an H100: the __device__ variables of a batch
// went unsaved and its replays added to them).
TEST(DeviceMemoryMap, ModuleIdsAreTheirContexts) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 1, {CubinDataSection{".nv.global", 8, {{"total", 0, 4}}}});
    map.CubinLoaded(Context(2), 1, {CubinDataSection{".nv.global", 8, {{"other", 0, 8}}}});
    map.ModuleKnown(Context(1), Module(0xA));
    Answer(&map, Context(1), {{{Module(0xA), "total"}, {0x5000, 4}}});
    DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x5000, 4}}));
    map.CubinUnloaded(Context(2), 1);
    EXPECT_EQ(map.Plan(Context(1)).regions, (std::vector<MemoryRegion>{{0x5000, 4}}));
}

TEST(DeviceMemoryMap, AVariableOfTheSameNameInAnotherModuleDoesNotMisplaceASection) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 1, {CubinDataSection{".nv.global", 32, {{"counter", 8, 4}}}});
    map.ModuleKnown(Context(1), Module(0xB));
    // Another module's "counter": a different size, so not this cubin's.
    Answer(&map, Context(1), {{{Module(0xB), "counter"}, {0x7008, 8}}});
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());
    // The right one: a section of one variable is saved as that variable.
    map.ModuleKnown(Context(1), Module(0xD));
    Answer(&map, Context(1), {{{Module(0xD), "counter"}, {0xA008, 4}}});
    const DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0xA008, 4}}));
}

TEST(DeviceMemoryMap, VariablesTheApplicationLookedUpPlaceTheirSection) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 4, {CubinDataSection{".nv.global", 40, {{"total", 0, 4}, {"table", 8, 32}}}});
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());
    map.GlobalSeen(Context(1), "table", 0x6008, 32);  // cudaMemcpyToSymbol looks them up through the driver
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty()) << "one of two: the layout is not known yet";
    map.GlobalSeen(Context(1), "total", 0x6000, 4);
    DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x6000, 40}}));

    // Two cubins with a variable of that name and size: the name says nothing about which one it is.
    DeviceMemoryMap twice;
    twice.CubinLoaded(Context(1), 1, {CubinDataSection{".nv.global", 4, {{"counter", 0, 4}}}});
    twice.CubinLoaded(Context(1), 2, {CubinDataSection{".nv.global", 4, {{"counter", 0, 4}}}});
    twice.GlobalSeen(Context(1), "counter", 0x7000, 4);
    EXPECT_FALSE(twice.Plan(Context(1)).unsafe.empty());
}

TEST(DeviceMemoryMap, LibrariesAreSearchedLikeModules) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 9, {CubinDataSection{".nv.global", 16, {{"g", 4, 4}}}});
    const CUlibrary library = reinterpret_cast<CUlibrary>(0x77);
    map.LibraryKnown(library);
    std::vector<DeviceMemoryMap::Lookup> lookups = map.PendingLookups(Context(1));
    ASSERT_EQ(lookups.size(), 1u);
    EXPECT_EQ(lookups[0].library, library);
    EXPECT_EQ(lookups[0].module, nullptr);
    map.LookupResult(Context(1), lookups[0], DeviceMemoryMap::Found{0x9004, 4, 0, 0});
    DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x9004, 4}}));
    map.LibraryUnloaded(library);
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());
}

// Linked device code can keep two local symbols of one name; the driver finds one of them, which then seems to sit
// at the other's offset. Such names say nothing about the layout.
TEST(DeviceMemoryMap, ANameTheSectionHasTwiceDoesNotMisplaceIt) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 5,
                    {CubinDataSection{".nv.global.init", 32, {{"a", 0, 4}, {"dup", 8, 4}, {"dup", 16, 4}, {"b", 24, 8}}}});
    map.ModuleKnown(Context(1), Module(0xA));
    Answer(&map, Context(1),
           {{{Module(0xA), "a"}, {0x5000, 4}}, {{Module(0xA), "dup"}, {0x5010, 4}}, {{Module(0xA), "b"}, {0x5018, 8}}});
    const DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x5000, 32}}));

    // Every variable found but the layout not kept: saved variable by variable, never with a name twice (both
    // copies would be saved at the one address found).
    DeviceMemoryMap scattered;
    scattered.CubinLoaded(Context(1), 7, {CubinDataSection{".nv.global", 16, {{"dup", 0, 4}, {"dup", 8, 4}}}});
    scattered.ModuleKnown(Context(1), Module(0xA));
    Answer(&scattered, Context(1), {{{Module(0xA), "dup"}, {0x9000, 4}}});
    EXPECT_NE(scattered.Plan(Context(1)).unsafe.find("could not be located"), std::string::npos);

    // Two unambiguous variables that disagree: not placed, and the reason says how far the layout held.
    DeviceMemoryMap other;
    other.CubinLoaded(Context(1), 6, {CubinDataSection{".nv.global", 32, {{"a", 0, 4}, {"b", 8, 4}, {"s", 16, 4}}}});
    other.ModuleKnown(Context(1), Module(0xA));
    Answer(&other, Context(1), {{{Module(0xA), "a"}, {0x5000, 4}}, {{Module(0xA), "b"}, {0x7000, 4}}});
    const std::string why = other.Plan(Context(1)).unsafe;
    EXPECT_NE(why.find("2 found, 1 inconsistent, at most 1 at the cubin's offsets"), std::string::npos) << why;
    EXPECT_NE(why.find("3 variable(s) named in the cubin"), std::string::npos) << why;
}

TEST(DeviceMemoryMap, SectionsWithoutNamedVariablesAreNeverPlaced) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 3, {CubinDataSection{".nv.global", 16, {}}});
    map.ModuleKnown(Context(1), Module(0xA));
    EXPECT_TRUE(map.PendingLookups(Context(1)).empty());
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("could not be located"), std::string::npos);
}

// In a process with a communication library's memory only the launched kernel's own module must be located: NCCL's
// module (its kernels are never replayed, so nothing looks its variables up) no longer makes every launch NA.
TEST(DeviceMemoryMap, EagerLaunchesNeedOnlyTheirOwnModulesVariablesWhereACommunicationLibraryHasMemory) {
    DeviceMemoryMap map;
    map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
    map.CubinLoaded(Context(1), 1, {CubinDataSection{".nv.global", 8, {{"mine", 0, 8}}}}, std::vector<std::string>{"_Z4mainv"});
    map.CubinLoaded(Context(1), 2, {CubinDataSection{".nv.global.init", 64, {{"ncclState", 0, 64}}}},
                    std::vector<std::string>{"ncclDevKernel"});
    map.ModuleKnown(Context(1), Module(0xA));
    Answer(&map, Context(1), {{{Module(0xA), "mine"}, {0x5000, 8}}});
    const auto words = [] { return std::optional<std::vector<uint64_t>>(std::vector<uint64_t>{}); };
    EXPECT_NE(map.PlanForLaunches(Context(1), {"_Z4mainv"}, words).unsafe.find("CUPTI module 2"), std::string::npos)
        << "no communication library: every module must be located, as before";

    map.Allocated(Context(1), MemoryKind::Device, 0x100000, 0x1000, MemoryOwner::CommunicationLibrary);
    DeviceMemoryMap::SavePlan plan = map.PlanForLaunches(Context(1), {"_Z4mainv"}, words);
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x1000, 0x100}, {0x5000, 8}})) << "its own module is saved";
    EXPECT_NE(map.PlanForLaunches(Context(1), {"ncclDevKernel"}, words).unsafe.find("CUPTI module 2"), std::string::npos)
        << "a kernel of the module that is not located";
    EXPECT_NE(map.PlanForLaunches(Context(1), {""}, words).unsafe.find("CUPTI module 2"), std::string::npos)
        << "no kernel name: every module";
    const std::string why = map.PlanForLaunches(Context(1), {"_Z7unknownv"}, words).unsafe;
    EXPECT_NE(why.find("CUPTI module 2"), std::string::npos) << "a kernel no module is known to define: every module";
    EXPECT_NE(why.find("no loaded module is known to define the kernel _Z7unknownv"), std::string::npos) << why;
    EXPECT_NE(map.PlanForLaunches(Context(1), {"ncclDevKernel"}, words).unsafe.find("it defines a kernel being replayed"),
              std::string::npos);
    // A batch of deferred launches: the modules of all its kernels.
    EXPECT_TRUE(map.PlanForLaunches(Context(1), {"_Z4mainv", "_Z4mainv"}, words).unsafe.empty());
    EXPECT_NE(map.PlanForLaunches(Context(1), {"_Z4mainv", "ncclDevKernel"}, words).unsafe.find("CUPTI module 2"),
              std::string::npos);
    EXPECT_NE(map.PlanForLaunches(Context(1), {"_Z4mainv", "_Z7unknownv"}, words).unsafe.find("CUPTI module 2"),
              std::string::npos);
    // A module whose functions are not known (its cubin could not be read) may define any kernel.
    map.CubinLoaded(Context(1), 3, {CubinDataSection{".nv.global (unreadable cubin)", 1, {}}});
    EXPECT_NE(map.PlanForLaunches(Context(1), {"_Z4mainv"}, words).unsafe.find("CUPTI module 3"), std::string::npos);
    map.CubinUnloaded(Context(1), 3);
    // A located module that does not define the kernel is still saved (restoring what was not written changes nothing).
    map.CubinLoaded(Context(1), 4, {CubinDataSection{".nv.global", 4, {{"other", 0, 4}}}}, std::vector<std::string>{"_Z1fv"});
    Answer(&map, Context(1), {{{Module(0xA), "other"}, {0x6000, 4}}});
    plan = map.PlanForLaunches(Context(1), {"_Z4mainv"}, words);
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x1000, 0x100}, {0x5000, 8}, {0x6000, 4}}));
}

TEST(DeviceMemoryMap, KernelNamesAreAskedForOnlyWhereACommunicationLibraryHasMemory) {
    DeviceMemoryMap map;
    map.Allocated(Context(1), MemoryKind::Device, 0x1000, 0x100);
    int asked = 0;
    const auto kernels = [&] {
        ++asked;
        return std::vector<std::string>{"_Z4mainv"};
    };
    const auto words = [] { return std::optional<std::vector<uint64_t>>(std::vector<uint64_t>{}); };
    EXPECT_TRUE(map.PlanForLaunches(Context(1), kernels, words).unsafe.empty());
    EXPECT_EQ(asked, 0) << "naming a copied launch's kernel takes driver calls: not where the names are not used";
    map.Allocated(Context(1), MemoryKind::Device, 0x100000, 0x1000, MemoryOwner::CommunicationLibrary);
    EXPECT_TRUE(map.PlanForLaunches(Context(1), kernels, words).unsafe.empty());
    EXPECT_EQ(asked, 1);
}

// ---- the driver calls that feed the map ------------------------------------------------------------------------

TEST(MemoryCalls, AllocationsAndFreesOfEveryKind) {
    DeviceMemoryMap map;
    CUdeviceptr pointer = 0x10000;
    cuMemAlloc_v2_params alloc{&pointer, 4096};
    ASSERT_TRUE(IsMemoryCall(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2));
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &alloc, Context(1), true);
    CUdeviceptr pitched = 0x20000;
    size_t pitch = 512;
    cuMemAllocPitch_v2_params allocPitch{&pitched, &pitch, 500, 10, 4};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2, &allocPitch, Context(1), true);
    CUdeviceptr pooled = 0x30000;
    cuMemAllocAsync_params allocAsync{&pooled, 100, nullptr};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz, &allocAsync, Context(1), true);
    CUdeviceptr failed = 0x40000;
    cuMemAlloc_v2_params failedAlloc{&failed, 64};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &failedAlloc, Context(1), false);  // failed: nothing
    DeviceMemoryMap::SavePlan plan = map.Plan(Context(1));
    ASSERT_TRUE(plan.unsafe.empty()) << plan.unsafe;
    EXPECT_EQ(plan.regions, (std::vector<MemoryRegion>{{0x10000, 4096}, {0x20000, 5120}, {0x30000, 100}}));

    cuMemFreeAsync_params freeAsync{0x30000, nullptr};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync, &freeAsync, Context(1), true);
    cuMemFree_v2_params freed{0x10000};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, &freed, Context(1), true);
    EXPECT_EQ(map.Plan(Context(1)).regions, (std::vector<MemoryRegion>{{0x20000, 5120}}));

    CUdeviceptr managed = 0x50000;
    cuMemAllocManaged_params allocManaged{&managed, 64, CU_MEM_ATTACH_GLOBAL};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged, &allocManaged, Context(1), true);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("managed"), std::string::npos);
    cuMemFree_v2_params freeManaged{0x50000};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, &freeManaged, Context(1), true);

    void* host = reinterpret_cast<void*>(0x60000);
    cuMemHostAlloc_params hostAlloc{&host, 64, CU_MEMHOSTALLOC_DEVICEMAP};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc, &hostAlloc, Context(1), true);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("pinned host"), std::string::npos);
    cuMemFreeHost_params freeHost{host};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost, &freeHost, Context(1), true);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());

    cuMemHostRegister_v2_params registered{host, 4096, 0};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2, &registered, Context(1), true);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("registered"), std::string::npos);
    cuMemHostUnregister_params unregistered{host};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister, &unregistered, Context(1), true);

    cuMemMap_params mapped{0x70000, 2 << 20, 0, 0, 0};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemMap, &mapped, Context(1), true);
    EXPECT_NE(map.Plan(Context(1)).unsafe.find("cuMemMap"), std::string::npos);
    cuMemUnmap_params unmapped{0x70000, 2 << 20};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuMemUnmap, &unmapped, Context(1), true);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());
}

TEST(MemoryCalls, ModulesLookupsArraysPeersAndCaptures) {
    DeviceMemoryMap map;
    map.CubinLoaded(Context(1), 5, {CubinDataSection{".nv.global", 16, {{"g", 0, 16}}}});
    CUmodule module = Module(0xAB);
    cuModuleLoadData_params load{&module, nullptr};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, &load, Context(1), true);
    std::vector<DeviceMemoryMap::Lookup> lookups = map.PendingLookups(Context(1));
    ASSERT_EQ(lookups.size(), 1u) << "a loaded module's variables are looked up";
    EXPECT_EQ(lookups[0].module, module);
    cuModuleUnload_params unload{module};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuModuleUnload, &unload, Context(1), true);
    EXPECT_TRUE(map.PendingLookups(Context(1)).empty());

    CUdeviceptr address = 0x8000;
    size_t bytes = 16;
    cuModuleGetGlobal_v2_params lookup{&address, &bytes, Module(0xCD), "g"};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2, &lookup, Context(1), true);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty()) << "the variable the application looked up placed the section";
    map.CubinUnloaded(Context(1), 5);
    EXPECT_EQ(map.Plan(Context(1)).regions, (std::vector<MemoryRegion>{{0x8000, 16}}))
        << "a variable the application looked up is saved";
    CUlibrary library = reinterpret_cast<CUlibrary>(0x55);
    cuLibraryLoadData_params loadLibrary{&library, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData, &loadLibrary, Context(1), true);
    map.CubinLoaded(Context(1), 6, {CubinDataSection{".nv.global", 8, {{"h", 0, 8}}}});
    auto libraryLookups = [&] {
        size_t count = 0;
        for (const DeviceMemoryMap::Lookup& pending : map.PendingLookups(Context(1))) count += pending.library == library;
        return count;
    };
    EXPECT_EQ(libraryLookups(), 1u) << "a loaded library's variables are looked up";
    cuLibraryUnload_params unloadLibrary{library};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload, &unloadLibrary, Context(1), true);
    EXPECT_EQ(libraryLookups(), 0u);
    map.CubinUnloaded(Context(1), 6);

    CUarray array = nullptr;
    CUDA_ARRAY_DESCRIPTOR descriptor{};
    cuArrayCreate_v2_params createArray{&array, &descriptor};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2, &createArray, Context(1), true);
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());
    cuArrayDestroy_params destroyArray{array};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy, &destroyArray, Context(1), true);
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());

    cuCtxEnablePeerAccess_params peer{Context(2), 0};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess, &peer, Context(1), true);
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());
    cuCtxDisablePeerAccess_params noPeer{Context(2)};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess, &noPeer, Context(1), true);

    cuStreamBeginCapture_v2_params begin{nullptr, CU_STREAM_CAPTURE_MODE_GLOBAL};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &begin, Context(1), true);
    EXPECT_FALSE(map.Plan(Context(1)).unsafe.empty());
    CUgraph graph = nullptr;
    cuStreamEndCapture_params end{nullptr, &graph};
    TrackMemoryCall(&map, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, &end, Context(1), false);  // ends even so
    EXPECT_TRUE(map.Plan(Context(1)).unsafe.empty());
}

// ---- -t: the kernels gpaprof ran itself ------------------------------------------------------------------------

TEST(ReplayWindows, KernelsThatStartedWhileGpaprofReplayedAreItsOwn) {
    ReplayWindows windows;
    EXPECT_FALSE(windows.Contains(50));
    windows.Open(100);
    EXPECT_TRUE(windows.Contains(150)) << "still open";
    windows.Close(200);
    windows.Open(300);
    windows.Close(400);
    EXPECT_FALSE(windows.Contains(99));
    EXPECT_TRUE(windows.Contains(100));
    EXPECT_TRUE(windows.Contains(199));
    EXPECT_FALSE(windows.Contains(200)) << "closed before the application's next kernel";
    EXPECT_FALSE(windows.Contains(250));
    EXPECT_TRUE(windows.Contains(350));
    EXPECT_FALSE(windows.Contains(500));
    EXPECT_FALSE(windows.Contains(0)) << "a record without times";
}

// ---- what a launch carries for being issued again -------------------------------------------------------------

TEST(LaunchParametersForReplay, KernelArgumentsStreamsAndCooperativeLaunches) {
    void* args[1] = {nullptr};
    cuLaunchKernel_params plain{reinterpret_cast<CUfunction>(0x1), 4, 1, 1, 128, 1, 1, 256, nullptr, args, nullptr};
    std::optional<LaunchParameters> launch = KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, &plain);
    ASSERT_TRUE(launch);
    EXPECT_EQ(launch->kernelParams, args);
    EXPECT_TRUE(launch->perThreadStream);
    EXPECT_FALSE(launch->cooperative);
    EXPECT_FALSE(KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &plain)->perThreadStream);

    cuLaunchCooperativeKernel_params cooperative{reinterpret_cast<CUfunction>(0x1), 4, 1, 1, 128, 1, 1, 0, nullptr, args};
    launch = KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, &cooperative);
    ASSERT_TRUE(launch);
    EXPECT_TRUE(launch->cooperative);

    CUlaunchAttribute attribute{};
    attribute.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attribute.value.cooperative = 1;
    CUlaunchConfig config{};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = config.blockDimY = config.blockDimZ = 32;
    config.attrs = &attribute;
    config.numAttrs = 1;
    cuLaunchKernelEx_params ex{&config, reinterpret_cast<CUfunction>(0x1), args, nullptr};
    launch = KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &ex);
    ASSERT_TRUE(launch);
    EXPECT_EQ(launch->config, &config);
    EXPECT_TRUE(launch->cooperative) << "the cooperative launch attribute";
    attribute.value.cooperative = 0;
    EXPECT_FALSE(KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &ex)->cooperative);
}

// A stand-in driver for naming a launch in a failure note: only the runtime's CUkernel 0x2 has a name, through
// its function 0x20 in the current context.
CUresult StandInErrorName(CUresult result, const char** name) {
    *name = result == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : nullptr;
    return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult StandInFuncName(const char** name, CUfunction function) {
    if (function != reinterpret_cast<CUfunction>(0x20)) return CUDA_ERROR_INVALID_HANDLE;
    *name = "_Z4gemmPf";
    return CUDA_SUCCESS;
}
CUresult StandInKernelFunction(CUfunction* function, CUkernel kernel) {
    if (kernel != reinterpret_cast<CUkernel>(0x2)) return CUDA_ERROR_INVALID_HANDLE;
    *function = reinterpret_cast<CUfunction>(0x20);
    return CUDA_SUCCESS;
}

TEST(LaunchReplayer, AFailedRelaunchIsDescribedWithItsKernelShapeAndAttributes) {
    TracingApi api;
    api.cuGetErrorName = StandInErrorName;
    api.cuFuncGetName = StandInFuncName;
    api.cuKernelGetFunction = StandInKernelFunction;
    DeviceMemoryMap map;
    LaunchReplayer replayer(&api, &map);
    LaunchCopy copy;
    copy.function = reinterpret_cast<CUfunction>(0x2);  // a CUkernel, as the runtime launches
    copy.grid[0] = 132;
    copy.block[0] = 384;
    copy.sharedBytes = 232448;
    copy.arguments.resize(600);
    copy.hasConfig = true;
    copy.attributes.resize(2);
    copy.attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    copy.attributes[1].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    EXPECT_EQ(replayer.DescribeRelaunch(copy, CUDA_ERROR_INVALID_VALUE),
              "CUDA_ERROR_INVALID_VALUE (1) for _Z4gemmPf, grid 132x1x1, block 384x1x1, 232448 bytes of dynamic shared "
              "memory, 600 bytes of arguments, cuLaunchKernelEx with 2 attribute(s) (CUlaunchAttributeID 4, 6)");
    copy.function = reinterpret_cast<CUfunction>(0x3);
    copy.hasConfig = false;
    EXPECT_EQ(replayer.DescribeRelaunch(copy, CUDA_ERROR_INVALID_VALUE),
              "CUDA_ERROR_INVALID_VALUE (1) for a kernel the driver does not name, grid 132x1x1, block 384x1x1, 232448 "
              "bytes of dynamic shared memory, 600 bytes of arguments");
}

}  // namespace
}  // namespace gpaprof::cuda
