// cl_codeplay_performance_counters as an application sees it: every counter the device lists enabled,
// kernels and transfers of known size, each value checked (work-items and bytes exactly, durations against
// the command's own event), markers and barriers, enable order, sensors, threads, out-of-order queues.
// The fixture: performance_counters_fixture.h.
#include "performance_counters_fixture.h"

namespace {

using namespace codeplay_test;

TEST_F(PerformanceCounters, DeviceAndPlatformListTheExtension) {
    char extensions[16384] = "";
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, nullptr), CL_SUCCESS);
    EXPECT_TRUE(Extension(extensions, CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME)) << extensions;
    EXPECT_TRUE(Extension(extensions, "cl_khr_create_command_queue")) << extensions;  // the extension needs it
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, 0, nullptr, &size), CL_SUCCESS);
    EXPECT_EQ(size, std::strlen(extensions) + 1);
    EXPECT_EQ(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, 4, extensions, nullptr), CL_INVALID_VALUE);
    char platformExtensions[16384] = "";
    ASSERT_EQ(clGetPlatformInfo(platform_, CL_PLATFORM_EXTENSIONS, sizeof platformExtensions, platformExtensions, nullptr),
              CL_SUCCESS);
    EXPECT_TRUE(Extension(platformExtensions, CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME)) << platformExtensions;
    // OpenCL 3.0 drivers list extensions with versions too.
    size_t versioned = 0;
    if (clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &versioned) == CL_SUCCESS) {
        std::vector<cl_name_version> list(versioned / sizeof(cl_name_version));
        ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, versioned, list.data(), nullptr), CL_SUCCESS);
        EXPECT_TRUE(std::any_of(list.begin(), list.end(), [](const cl_name_version& e) {
            return std::strcmp(e.name, CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME) == 0;
        }));
    }
    EXPECT_NE(createQueue_, nullptr);
    EXPECT_NE(clGetExtensionFunctionAddress("clCreateCommandQueueWithPropertiesKHR"), nullptr);
}

TEST_F(PerformanceCounters, DeviceListsItsCountersWithTheExtensionsStructure) {
    size_t bytes = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &bytes), CL_SUCCESS);
    ASSERT_GT(bytes, 0u);
    EXPECT_EQ(bytes % sizeof(cl_performance_counter_codeplay), 0u);
    EXPECT_EQ(bytes / sizeof(cl_performance_counter_codeplay), counters_.size());
    std::vector<cl_performance_counter_codeplay> small(1);
    EXPECT_EQ(clGetDeviceInfo(device_, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, sizeof small[0], small.data(), nullptr),
              counters_.size() > 1 ? CL_INVALID_VALUE : CL_SUCCESS);
    std::vector<std::string> names;
    std::vector<cl_uint> uuids;
    for (const Counter& counter : counters_) {
        SCOPED_TRACE(counter.name);
        EXPECT_LE(counter.info.unit, static_cast<cl_uint>(CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY));
        EXPECT_LE(counter.info.storage, static_cast<cl_uint>(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY));
        EXPECT_FALSE(counter.name.empty());
        EXPECT_NE(strnlen(counter.info.category, 256), 0u);
        EXPECT_LT(strnlen(counter.info.description, 256), 256u);  // terminated
        EXPECT_GT(strnlen(counter.info.description, 256), 20u);
        names.push_back(counter.name);
        uuids.push_back(counter.info.uuid);
    }
    std::sort(names.begin(), names.end());
    std::sort(uuids.begin(), uuids.end());
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "names are unique";
    EXPECT_EQ(std::adjacent_find(uuids.begin(), uuids.end()), uuids.end()) << "uuids are unique";
    // Every device has the counters of its commands (docs/opencl_layer.md), with these units and storage.
    const struct {
        const char* name;
        cl_uint unit;
        cl_uint storage;
    } expected[] = {
        {"CommandDuration", CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
        {"QueuedToStart", CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
        {"SubmitToStart", CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
        {"KernelWorkItems", CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
        {"KernelWorkGroups", CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY},
        {"KernelDuration", CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
        {"TransferBytes", CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
        {"TransferDuration", CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY},
    };
    for (const auto& want : expected) {
        const Counter* counter = Find(want.name);
        ASSERT_NE(counter, nullptr) << want.name;
        EXPECT_EQ(counter->info.unit, want.unit) << want.name;
        EXPECT_EQ(counter->info.storage, want.storage) << want.name;
    }
    // The sensors of the device's kind only: NVML for NVIDIA GPUs, the host's for CPU devices.
    for (const Counter& counter : counters_) {
        if (counter.name.rfind("CPU", 0) == 0) {
            EXPECT_TRUE(cpuDevice_) << counter.name;
        }
        if (counter.name.rfind("GPU", 0) == 0) {
            EXPECT_FALSE(cpuDevice_) << counter.name;
        }
    }
    std::printf("%zu counters:", counters_.size());
    for (const Counter& counter : counters_) std::printf(" %s", counter.name.c_str());
    std::printf("\n");
}

TEST_F(PerformanceCounters, KernelCountersAreExact) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(4096 * sizeof(float));
    const float zero = 0;
    ASSERT_EQ(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, 4096 * sizeof(float), 0, nullptr, nullptr),
              CL_SUCCESS);
    cl_kernel scale = Kernel("scale", buffer);
    const float factor = 2;
    clSetKernelArg(scale, 1, sizeof factor, &factor);
    cl_kernel index2d = Kernel("index2d", buffer);
    cl_kernel fixed = Kernel("fixed", buffer);
    cl_kernel one = Kernel("one", buffer);

    const struct {
        const char* what;
        cl_kernel kernel;
        cl_uint dimensions;
        size_t global[2];
        size_t local[2];
        bool withLocal;
        cl_ulong items;
        cl_long groups;
    } launches[] = {
        {"1D 1024 by 64", scale, 1, {1024, 0}, {64, 0}, true, 1024, 16},
        {"2D 64x32 by 8x4", index2d, 2, {64, 32}, {8, 4}, true, 2048, 64},
        {"1D 1000, driver's local size", scale, 1, {1000, 0}, {0, 0}, false, 1000, -1},
        {"reqd_work_group_size(8), no local size", fixed, 1, {256, 0}, {0, 0}, false, 256, 32},
    };
    for (const auto& launch : launches) {
        SCOPED_TRACE(launch.what);
        cl_event event = nullptr;
        const cl_int status = clEnqueueNDRangeKernel(queue, launch.kernel, launch.dimensions, nullptr, launch.global,
                                                     launch.withLocal ? launch.local : nullptr, 0, nullptr, &event);
        if (status == CL_INVALID_WORK_GROUP_SIZE && launch.kernel == fixed) {
            // OpenCL 1.x drivers refuse a kernel with reqd_work_group_size without a local size (PoCL does).
            std::printf("%s: the driver refuses it (CL_INVALID_WORK_GROUP_SIZE)\n", launch.what);
            continue;
        }
        ASSERT_EQ(status, CL_SUCCESS);
        ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
        std::map<std::string, Result> results = Results(event, uuids);
        EXPECT_EQ(results["KernelWorkItems"].uint64, launch.items);
        EXPECT_EQ(results["KernelWorkGroups"].int64, launch.groups);
        EXPECT_EQ(results["TransferBytes"].uint64, 0u);
        EXPECT_EQ(results["TransferDuration"].uint64, 0u);
        ExpectTimesOf(event, results, "KernelDuration");
        clReleaseEvent(event);
    }
    cl_event task = nullptr;
    ASSERT_EQ(clEnqueueTask(queue, one, 0, nullptr, &task), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &task), CL_SUCCESS);
    std::map<std::string, Result> results = Results(task, uuids);
    EXPECT_EQ(results["KernelWorkItems"].uint64, 1u);
    EXPECT_EQ(results["KernelWorkGroups"].int64, 1);
    clReleaseEvent(task);
}

TEST_F(PerformanceCounters, TransferBytesAreExact) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    constexpr size_t kBytes = 1 << 20;
    cl_mem a = Buffer(kBytes);
    cl_mem b = Buffer(kBytes);
    std::vector<unsigned char> host(kBytes, 3);
    const unsigned pattern = 0x01020304;
    const size_t origin[3] = {16, 2, 0};
    const size_t hostOrigin[3] = {0, 0, 0};
    const size_t region[3] = {100, 7, 1};  // 700 bytes, rows of 1024 bytes
    struct Transfer {
        const char* what;
        cl_ulong bytes;
        std::function<cl_int(cl_event*)> enqueue;
    };
    const std::vector<Transfer> transfers = {
        {"write", kBytes, [&](cl_event* e) { return clEnqueueWriteBuffer(queue, a, CL_FALSE, 0, kBytes, host.data(), 0, nullptr, e); }},
        {"blocking read of a part", 12345,
         [&](cl_event* e) { return clEnqueueReadBuffer(queue, a, CL_TRUE, 100, 12345, host.data(), 0, nullptr, e); }},
        {"copy", kBytes / 2, [&](cl_event* e) { return clEnqueueCopyBuffer(queue, a, b, 0, 64, kBytes / 2, 0, nullptr, e); }},
        {"fill", 4096, [&](cl_event* e) { return clEnqueueFillBuffer(queue, b, &pattern, sizeof pattern, 0, 4096, 0, nullptr, e); }},
        {"read rect", 700,
         [&](cl_event* e) {
             return clEnqueueReadBufferRect(queue, a, CL_TRUE, origin, hostOrigin, region, 1024, 0, 100, 0, host.data(), 0,
                                            nullptr, e);
         }},
        {"write rect", 700,
         [&](cl_event* e) {
             return clEnqueueWriteBufferRect(queue, a, CL_FALSE, origin, hostOrigin, region, 1024, 0, 100, 0, host.data(),
                                             0, nullptr, e);
         }},
        {"copy rect", 700,
         [&](cl_event* e) {
             return clEnqueueCopyBufferRect(queue, a, b, origin, origin, region, 1024, 0, 1024, 0, 0, nullptr, e);
         }},
    };
    for (const Transfer& transfer : transfers) {
        SCOPED_TRACE(transfer.what);
        cl_event event = nullptr;
        ASSERT_EQ(transfer.enqueue(&event), CL_SUCCESS);
        ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
        std::map<std::string, Result> results = Results(event, uuids);
        EXPECT_EQ(results["TransferBytes"].uint64, transfer.bytes);
        EXPECT_EQ(results["KernelWorkItems"].uint64, 0u);
        EXPECT_EQ(results["KernelDuration"].uint64, 0u);
        ExpectTimesOf(event, results, "TransferDuration");
        clReleaseEvent(event);
    }
    EXPECT_EQ(host[0], 3);  // the blocking reads returned the written data
    // A map moves bytes or not, as the driver chooses: it is no transfer.
    cl_event mapped = nullptr;
    cl_int error = CL_SUCCESS;
    void* pointer = clEnqueueMapBuffer(queue, a, CL_TRUE, CL_MAP_READ, 0, 4096, 0, nullptr, &mapped, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_NE(pointer, nullptr);
    EXPECT_EQ(Results(mapped, uuids)["TransferBytes"].uint64, 0u);
    clReleaseEvent(mapped);
    ASSERT_EQ(clEnqueueUnmapMemObject(queue, a, pointer, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

TEST_F(PerformanceCounters, ImageTransferBytesAreRegionTimesElementSize) {
    if (!images_) GTEST_SKIP() << "the device has no images";
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};  // 4 bytes per element
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 64;
    desc.image_height = 32;
    cl_int error = CL_SUCCESS;
    cl_mem image = clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    memories_.push_back(image);
    std::vector<unsigned char> host(64 * 32 * 4, 1);
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {64, 32, 1};
    const size_t part[3] = {10, 5, 1};
    const cl_uint color[4] = {1, 2, 3, 4};
    cl_event write = nullptr, read = nullptr, fill = nullptr;
    ASSERT_EQ(clEnqueueWriteImage(queue, image, CL_FALSE, origin, region, 0, 0, host.data(), 0, nullptr, &write), CL_SUCCESS);
    ASSERT_EQ(clEnqueueFillImage(queue, image, color, origin, part, 0, nullptr, &fill), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, part, 0, 0, host.data(), 0, nullptr, &read), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(Results(write, uuids)["TransferBytes"].uint64, 64u * 32u * 4u);
    EXPECT_EQ(Results(fill, uuids)["TransferBytes"].uint64, 10u * 5u * 4u);
    EXPECT_EQ(Results(read, uuids)["TransferBytes"].uint64, 10u * 5u * 4u);
    for (cl_event event : {write, read, fill}) clReleaseEvent(event);
}

TEST_F(PerformanceCounters, SvmTransferBytesAreExact) {
    if (!svm_) GTEST_SKIP() << "the device has no coarse-grained SVM";
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    void* a = clSVMAlloc(context_, CL_MEM_READ_WRITE, 8192, 0);
    void* b = clSVMAlloc(context_, CL_MEM_READ_WRITE, 8192, 0);
    ASSERT_TRUE(a && b);
    const int pattern = 5;
    cl_event fill = nullptr, copy = nullptr;
    ASSERT_EQ(clEnqueueSVMMemFill(queue, a, &pattern, sizeof pattern, 8000, 0, nullptr, &fill), CL_SUCCESS);
    ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, b, a, 6000, 0, nullptr, &copy), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(Results(fill, uuids)["TransferBytes"].uint64, 8000u);
    EXPECT_EQ(Results(copy, uuids)["TransferBytes"].uint64, 6000u);
    clReleaseEvent(fill);
    clReleaseEvent(copy);
    clSVMFree(context_, a);
    clSVMFree(context_, b);
}

// A marker or barrier reports the commands enqueued since the previous one on its queue: two markers
// bracket a span of work (what the GPA OpenCL library does for a sample).
TEST_F(PerformanceCounters, MarkersAndBarriersSumTheCommandsTheyCover) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(4096 * sizeof(float));
    cl_kernel scale = Kernel("scale", buffer);
    const float factor = 1;
    clSetKernelArg(scale, 1, sizeof factor, &factor);
    std::vector<float> host(4096, 1.0f);
    const size_t global = 4096, local = 32;

    cl_event before = nullptr;
    ASSERT_EQ(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, 100, host.data(), 0, nullptr, &before), CL_SUCCESS);
    cl_event open = nullptr;
    ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &open), CL_SUCCESS);
    cl_event kernel = nullptr, write = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &global, &local, 0, nullptr, &kernel), CL_SUCCESS);
    ASSERT_EQ(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, 8000, host.data(), 0, nullptr, &write), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    cl_event close = nullptr;
    ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &close), CL_SUCCESS);
    cl_event after = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(queue, buffer, &factor, sizeof factor, 0, 64, 0, nullptr, &after), CL_SUCCESS);
    cl_event barrier = nullptr;
    ASSERT_EQ(clEnqueueBarrierWithWaitList(queue, 0, nullptr, &barrier), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);

    std::map<std::string, Result> opened = Results(open, uuids);
    EXPECT_EQ(opened["TransferBytes"].uint64, 100u);  // the write before it
    std::map<std::string, Result> closed = Results(close, uuids);
    std::map<std::string, Result> k = Results(kernel, uuids);
    std::map<std::string, Result> w = Results(write, uuids);
    EXPECT_EQ(closed["KernelWorkItems"].uint64, 2 * 4096u);  // two kernels, one without an event
    EXPECT_EQ(closed["KernelWorkGroups"].int64, 2 * 128);
    EXPECT_EQ(closed["TransferBytes"].uint64, 8000u);
    EXPECT_EQ(closed["TransferDuration"].uint64, w["CommandDuration"].uint64);
    EXPECT_GE(closed["KernelDuration"].uint64, k["CommandDuration"].uint64);
    EXPECT_EQ(closed["CommandDuration"].uint64, closed["KernelDuration"].uint64 + closed["TransferDuration"].uint64);
    EXPECT_GE(closed["QueuedToStart"].uint64, k["QueuedToStart"].uint64 + w["QueuedToStart"].uint64);
    std::map<std::string, Result> barred = Results(barrier, uuids);
    EXPECT_EQ(barred["TransferBytes"].uint64, 64u);  // the fill after the closing marker
    EXPECT_EQ(barred["KernelWorkItems"].uint64, 0u);
    EXPECT_EQ(barred["CommandDuration"].uint64, Results(after, uuids)["CommandDuration"].uint64);
    for (cl_event event : {before, open, kernel, write, close, after, barrier}) clReleaseEvent(event);
}

TEST_F(PerformanceCounters, ResultsComeInTheOrderTheCountersWereEnabled) {
    const Counter* bytes = Find("TransferBytes");
    const Counter* duration = Find("CommandDuration");
    const Counter* items = Find("KernelWorkItems");
    ASSERT_TRUE(bytes && duration && items);
    const std::vector<cl_uint> order = {bytes->info.uuid, duration->info.uuid, items->info.uuid, bytes->info.uuid};
    cl_command_queue queue = CountingQueue(order, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(4096);
    std::vector<unsigned char> host(4096);
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, 1000, host.data(), 0, nullptr, &event), CL_SUCCESS);
    Result results[4];
    size_t size = 0;
    ASSERT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &size),
              CL_SUCCESS);
    EXPECT_EQ(size, sizeof results);
    ASSERT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof results, results,
                                      nullptr),
              CL_SUCCESS);
    EXPECT_EQ(results[0].uint64, 1000u);
    EXPECT_EQ(results[1].uint64, Time(event, CL_PROFILING_COMMAND_END) - Time(event, CL_PROFILING_COMMAND_START));
    EXPECT_EQ(results[2].uint64, 0u);
    EXPECT_EQ(results[3].uint64, 1000u);
    // Too small for the results.
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof results[0],
                                      results, nullptr),
              CL_INVALID_VALUE);
    clReleaseEvent(event);
}

// The sensors the device lists read plausible values over a kernel that runs for a while.
TEST_F(PerformanceCounters, SensorCountersReadPlausibleValues) {
    std::vector<cl_uint> uuids;
    for (const Counter& counter : counters_) {
        if (counter.name.rfind("GPU", 0) == 0 || counter.name.rfind("CPU", 0) == 0) uuids.push_back(counter.info.uuid);
    }
    if (uuids.empty()) GTEST_SKIP() << "the device lists no sensor counters here (docs/opencl_layer.md says why)";
    uuids.push_back(Find("CommandDuration")->info.uuid);
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    const size_t global = cpuDevice_ ? 4096 : 1 << 20;
    cl_mem buffer = Buffer(global * sizeof(float));
    cl_kernel spin = Kernel("spin", buffer);
    const int iterations = cpuDevice_ ? 20000 : 200000;
    clSetKernelArg(spin, 1, sizeof iterations, &iterations);
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, spin, 1, nullptr, &global, nullptr, 0, nullptr, &event),
              CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    std::map<std::string, Result> results = Results(event, uuids);
    const double seconds = static_cast<double>(results["CommandDuration"].uint64) / 1e9;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (auto& [name, result] : results) {
        std::printf("%-16s %.6g\n", name.c_str(),
                    name == "CommandDuration" || name == "CPUThreadTime" || name == "CPUCycles" ||
                            name == "CPUInstructions" || name == "CPUCacheMisses"
                        ? static_cast<double>(result.uint64)
                        : result.float64);
    }
    if (results.count("GPUPower")) {
        EXPECT_GT(results["GPUPower"].float64, 1.0);
        EXPECT_LT(results["GPUPower"].float64, 2000.0);
    }
    if (results.count("GPUTemperature")) {
        EXPECT_GT(results["GPUTemperature"].float64, 273.15);
        EXPECT_LT(results["GPUTemperature"].float64, 273.15 + 120);
    }
    for (const char* clock : {"GPUSMClock", "GPUMemoryClock", "CPUFrequency"}) {
        if (!results.count(clock)) continue;
        EXPECT_GT(results[clock].float64, 1e8) << clock;
        EXPECT_LT(results[clock].float64, 1e10) << clock;
    }
    if (results.count("CPUPackagePower")) {
        EXPECT_GT(results["CPUPackagePower"].float64, 0.0);
        EXPECT_LT(results["CPUPackagePower"].float64, 5000.0);
    }
    if (results.count("CPUThreadTime")) {
        // The driver's threads ran the kernel: some CPU time, at most all hardware threads over its span
        // (plus the callbacks' latency).
        EXPECT_GT(results["CPUThreadTime"].uint64, 0u);
        EXPECT_LT(static_cast<double>(results["CPUThreadTime"].uint64), (seconds + 0.05) * threads * 1e9);
    }
    for (const char* count : {"CPUCycles", "CPUInstructions"}) {
        if (results.count(count)) {
            EXPECT_GT(results[count].uint64, 0u) << count;
        }
    }
    clReleaseEvent(event);
}

// Queues of several threads count apart.
TEST_F(PerformanceCounters, ThreadsWithTheirOwnQueuesCountApart) {
    const std::vector<cl_uint> uuids = AllUuids();
    std::vector<cl_command_queue> queues;
    for (int t = 0; t < 3; ++t) {
        queues.push_back(CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE));
        ASSERT_NE(queues.back(), nullptr);
    }
    std::vector<cl_mem> buffers = {Buffer(1 << 16), Buffer(1 << 16), Buffer(1 << 16)};
    std::vector<std::vector<Result>> marker(3, std::vector<Result>(uuids.size()));
    std::vector<std::thread> threads;
    std::vector<cl_int> statuses(3, CL_SUCCESS);
    for (int t = 0; t < 3; ++t) {
        threads.emplace_back([&, t] {
            std::vector<unsigned char> host(1 << 16);
            cl_int status = CL_SUCCESS;
            for (int i = 0; i < 10 && status == CL_SUCCESS; ++i) {
                status = clEnqueueWriteBuffer(queues[t], buffers[t], CL_FALSE, 0, 1000 * (t + 1), host.data(), 0, nullptr,
                                              nullptr);
            }
            cl_event event = nullptr;
            if (status == CL_SUCCESS) status = clEnqueueMarkerWithWaitList(queues[t], 0, nullptr, &event);
            if (status == CL_SUCCESS) status = clWaitForEvents(1, &event);
            if (status == CL_SUCCESS) {
                status = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                                 uuids.size() * sizeof(Result), marker[t].data(), nullptr);
            }
            if (event) clReleaseEvent(event);
            statuses[t] = status;
        });
    }
    for (std::thread& thread : threads) thread.join();
    const auto bytes = std::find(uuids.begin(), uuids.end(), Find("TransferBytes")->info.uuid) - uuids.begin();
    for (int t = 0; t < 3; ++t) {
        ASSERT_EQ(statuses[t], CL_SUCCESS) << t;
        EXPECT_EQ(marker[t][bytes].uint64, 10u * 1000u * (t + 1)) << t;
    }
}

TEST_F(PerformanceCounters, OutOfOrderQueueMarkersCoverEverythingEnqueuedBefore) {
    cl_command_queue_properties supported = 0;
    clGetDeviceInfo(device_, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof supported, &supported, nullptr);
    if ((supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0) GTEST_SKIP() << "no out-of-order queues";
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue =
        CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem a = Buffer(8192), b = Buffer(8192);
    const int zero = 0;
    ASSERT_EQ(clEnqueueFillBuffer(queue, a, &zero, sizeof zero, 0, 8192, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueFillBuffer(queue, b, &zero, sizeof zero, 0, 4096, 0, nullptr, nullptr), CL_SUCCESS);
    cl_event marker = nullptr;
    ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
    EXPECT_EQ(Results(marker, uuids)["TransferBytes"].uint64, 8192u + 4096u);
    clReleaseEvent(marker);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

}  // namespace
