// cl_codeplay_performance_counters as an application sees it: this program is written against the extension
// alone (include/CL/cl_codeplay_performance_counters.h and the Khronos headers; no other OpenGPA header) and
// runs with the OpenGPA layer in the process (CTest sets OPENCL_LAYERS; layer_routes_test runs it through
// the other routes). It enables every counter the device lists, runs kernels and transfers of known size and
// checks each value, and every error the extension and docs/opencl_layer.md name.
//
// Device: the first of the first platform, or of the first platform whose name contains $OPENGPA_CL_PLATFORM.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS  // clGetExtensionFunctionAddress
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue, clEnqueueTask
#include <CL/cl.h>

#include "CL/cl_codeplay_performance_counters.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Result = cl_performance_counter_result_codeplay;
using CreateQueueKhr = cl_command_queue(CL_API_CALL*)(cl_context, cl_device_id, const cl_queue_properties*, cl_int*);

const char* kKernels = R"CLC(
kernel void scale(global float* data, float factor) { data[get_global_id(0)] *= factor; }
kernel void index2d(global int* out) {
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_global_id(0);
}
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global int* out) { out[get_global_id(0)] = 1; }
kernel void one(global int* out) { out[0] = 7; }
kernel void spin(global float* out, int iterations) {
    float x = (float)get_global_id(0);
    for (int i = 0; i < iterations; ++i) x = x * 0.999f + 0.5f;
    out[get_global_id(0)] = x;
}
)CLC";

std::string Lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

struct Counter {
    cl_performance_counter_codeplay info;
    std::string name;
};

// Messages the context's error callback received (the layer explains refused queues there).
std::mutex g_messagesMutex;
std::vector<std::string> g_messages;
void CL_CALLBACK OnContextError(const char* message, const void*, size_t, void*) {
    std::lock_guard<std::mutex> lock(g_messagesMutex);
    g_messages.emplace_back(message);
}

class PerformanceCounters : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        cl_uint platformCount = 0;
        if (clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS || platformCount == 0) {
            whyNot_ = "no OpenCL platform";
            return;
        }
        std::vector<cl_platform_id> platforms(platformCount);
        clGetPlatformIDs(platformCount, platforms.data(), nullptr);
        const char* wanted = std::getenv("OPENGPA_CL_PLATFORM");
        for (cl_platform_id candidate : platforms) {
            char name[256] = "";
            clGetPlatformInfo(candidate, CL_PLATFORM_NAME, sizeof name, name, nullptr);
            if (wanted && *wanted && Lower(name).find(Lower(wanted)) == std::string::npos) continue;
            cl_device_id device = nullptr;
            if (clGetDeviceIDs(candidate, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) continue;
            platform_ = candidate;
            device_ = device;
            break;
        }
        if (!device_) {
            whyNot_ = std::string("no device on a platform named like OPENGPA_CL_PLATFORM=") + (wanted ? wanted : "");
            return;
        }
        cl_int error = CL_SUCCESS;
        context_ = clCreateContext(nullptr, 1, &device_, &OnContextError, nullptr, &error);
        const char* source = kKernels;
        program_ = clCreateProgramWithSource(context_, 1, &source, nullptr, &error);
        if (clBuildProgram(program_, 1, &device_, "", nullptr, nullptr) != CL_SUCCESS) {
            whyNot_ = "the test kernels do not build";
            return;
        }
        createQueue_ = reinterpret_cast<CreateQueueKhr>(
            clGetExtensionFunctionAddressForPlatform(platform_, "clCreateCommandQueueWithPropertiesKHR"));
        size_t bytes = 0;
        if (clGetDeviceInfo(device_, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &bytes) == CL_SUCCESS) {
            std::vector<cl_performance_counter_codeplay> list(bytes / sizeof(cl_performance_counter_codeplay));
            clGetDeviceInfo(device_, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, bytes, list.data(), nullptr);
            for (const auto& info : list) counters_.push_back({info, std::string(info.name, strnlen(info.name, 256))});
        }
        cl_device_type type = 0;
        clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
        cpuDevice_ = (type & CL_DEVICE_TYPE_CPU) != 0;
        cl_device_svm_capabilities svm = 0;
        svm_ = clGetDeviceInfo(device_, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr) == CL_SUCCESS &&
               (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
        cl_bool images = CL_FALSE;
        clGetDeviceInfo(device_, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr);
        images_ = images == CL_TRUE;
    }
    static void TearDownTestSuite() {
        if (program_) clReleaseProgram(program_);
        if (context_) clReleaseContext(context_);
    }
    void SetUp() override {
        if (!device_) GTEST_SKIP() << "no OpenCL device: " << whyNot_;
        ASSERT_TRUE(whyNot_.empty()) << whyNot_;
    }
    void TearDown() override {
        for (cl_mem memory : memories_) clReleaseMemObject(memory);
        for (cl_kernel kernel : kernels_) clReleaseKernel(kernel);
        for (cl_command_queue queue : queues_) clReleaseCommandQueue(queue);
    }

    static bool Extension(const std::string& list, const char* name) {
        return (" " + list + " ").find(" " + std::string(name) + " ") != std::string::npos;
    }
    const Counter* Find(const char* name) const {
        for (const Counter& counter : counters_) {
            if (counter.name == name) return &counter;
        }
        return nullptr;
    }
    std::vector<cl_uint> AllUuids() const {
        std::vector<cl_uint> uuids;
        for (const Counter& counter : counters_) uuids.push_back(counter.info.uuid);
        return uuids;
    }

    // A queue with `uuids` enabled (through clCreateCommandQueueWithPropertiesKHR).
    cl_command_queue CountingQueue(const std::vector<cl_uint>& uuids, cl_command_queue_properties flags,
                                   cl_int* error = nullptr) {
        std::vector<cl_performance_counter_desc_codeplay> descs;
        for (cl_uint uuid : uuids) descs.push_back({uuid, nullptr});
        cl_performance_counter_config_codeplay config{static_cast<cl_uint>(descs.size()), descs.data()};
        const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, flags, CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                                  reinterpret_cast<cl_queue_properties>(&config), 0};
        cl_int status = CL_SUCCESS;
        cl_command_queue queue = createQueue_(context_, device_, properties, &status);
        if (error) *error = status;
        if (queue) queues_.push_back(queue);
        return queue;
    }
    cl_command_queue ProfilingQueue() {
        cl_int error = CL_SUCCESS;
        cl_command_queue queue = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &error);
        if (queue) queues_.push_back(queue);
        return queue;
    }
    cl_mem Buffer(size_t bytes) {
        cl_int error = CL_SUCCESS;
        cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &error);
        EXPECT_EQ(error, CL_SUCCESS);
        memories_.push_back(buffer);
        return buffer;
    }
    cl_kernel Kernel(const char* name, cl_mem argument) {
        cl_int error = CL_SUCCESS;
        cl_kernel kernel = clCreateKernel(program_, name, &error);
        EXPECT_EQ(error, CL_SUCCESS) << name;
        clSetKernelArg(kernel, 0, sizeof argument, &argument);
        kernels_.push_back(kernel);
        return kernel;
    }

    // The results of a finished command, by counter name (enable order: `uuids`).
    std::map<std::string, Result> Results(cl_event event, const std::vector<cl_uint>& uuids) {
        std::vector<Result> results(uuids.size());
        size_t returned = 0;
        const cl_int status = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                                      results.size() * sizeof(Result), results.data(), &returned);
        EXPECT_EQ(status, CL_SUCCESS);
        EXPECT_EQ(returned, uuids.size() * sizeof(Result));
        std::map<std::string, Result> byName;
        for (size_t i = 0; i < uuids.size(); ++i) {
            for (const Counter& counter : counters_) {
                if (counter.info.uuid == uuids[i]) byName[counter.name] = results[i];
            }
        }
        return byName;
    }
    static cl_ulong Time(cl_event event, cl_profiling_info which) {
        cl_ulong value = 0;
        EXPECT_EQ(clGetEventProfilingInfo(event, which, sizeof value, &value, nullptr), CL_SUCCESS);
        return value;
    }
    // Checks the timing counters of a command against its own event.
    static void ExpectTimesOf(cl_event event, std::map<std::string, Result>& results, const char* kindDuration) {
        const cl_ulong queued = Time(event, CL_PROFILING_COMMAND_QUEUED);
        const cl_ulong submit = Time(event, CL_PROFILING_COMMAND_SUBMIT);
        const cl_ulong start = Time(event, CL_PROFILING_COMMAND_START);
        const cl_ulong end = Time(event, CL_PROFILING_COMMAND_END);
        EXPECT_EQ(results["CommandDuration"].uint64, end - start);
        EXPECT_EQ(results["QueuedToStart"].uint64, start - queued);
        EXPECT_EQ(results["SubmitToStart"].uint64, start - submit);
        if (kindDuration) {
            EXPECT_EQ(results[kindDuration].uint64, end - start) << kindDuration;
        }
    }

    static inline cl_platform_id platform_ = nullptr;
    static inline cl_device_id device_ = nullptr;
    static inline cl_context context_ = nullptr;
    static inline cl_program program_ = nullptr;
    static inline CreateQueueKhr createQueue_ = nullptr;
    static inline std::vector<Counter> counters_;
    static inline bool cpuDevice_ = false;
    static inline bool svm_ = false;
    static inline bool images_ = false;
    static inline std::string whyNot_;
    std::vector<cl_command_queue> queues_;
    std::vector<cl_mem> memories_;
    std::vector<cl_kernel> kernels_;
};

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

TEST_F(PerformanceCounters, QueueCreationRefusesWhatTheExtensionCannotAccept) {
    const cl_uint uuid = counters_.at(0).info.uuid;
    auto create = [&](const cl_queue_properties* properties) {
        cl_int error = CL_SUCCESS;
        cl_command_queue queue = createQueue_(context_, device_, properties, &error);
        if (queue) clReleaseCommandQueue(queue);
        EXPECT_EQ(queue, nullptr);
        return error;
    };
    auto configProperties = [](cl_performance_counter_config_codeplay* config) {
        return std::vector<cl_queue_properties>{CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                                reinterpret_cast<cl_queue_properties>(config), 0};
    };
    const cl_uint unknown = 0xDEADBEEF;
    cl_performance_counter_desc_codeplay unknownDesc{unknown, nullptr};
    cl_performance_counter_config_codeplay unknownConfig{1, &unknownDesc};
    cl_performance_counter_desc_codeplay goodDesc{uuid, nullptr};
    cl_performance_counter_config_codeplay zeroCount{0, &goodDesc};
    cl_performance_counter_config_codeplay nullDescs{1, nullptr};
    int extra = 0;
    cl_performance_counter_desc_codeplay dataDesc{uuid, &extra};
    cl_performance_counter_config_codeplay withData{1, &dataDesc};
    cl_performance_counter_config_codeplay good{1, &goodDesc};
    const struct {
        const char* what;
        std::vector<cl_queue_properties> properties;
        const char* explained;  // a word the context's error callback says
    } refused[] = {
        {"unknown uuid", configProperties(&unknownConfig), "uuid"},
        {"count 0", configProperties(&zeroCount), "count"},
        {"null descs", configProperties(&nullDescs), "descs"},
        {"null config", configProperties(nullptr), "null"},
        {"data given", configProperties(&withData), "data"},
        {"key twice",
         {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, reinterpret_cast<cl_queue_properties>(&good),
          CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, reinterpret_cast<cl_queue_properties>(&good), 0},
         "twice"},
    };
    for (const auto& test : refused) {
        SCOPED_TRACE(test.what);
        {
            std::lock_guard<std::mutex> lock(g_messagesMutex);
            g_messages.clear();
        }
        EXPECT_EQ(create(test.properties.data()), CL_INVALID_VALUE);
        // Said once per refusal (a layer above may try again with other properties: gpaprof's does).
        std::lock_guard<std::mutex> lock(g_messagesMutex);
        ASSERT_FALSE(g_messages.empty());
        for (const std::string& message : g_messages) {
            EXPECT_NE(message.find(test.explained), std::string::npos) << message;
        }
    }
    // The core entry point takes the extension's key too.
    const std::vector<cl_queue_properties> accepted = configProperties(&good);
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context_, device_, accepted.data(), &error);
    EXPECT_EQ(error, CL_SUCCESS);
    ASSERT_NE(queue, nullptr);
    clReleaseCommandQueue(queue);
    EXPECT_EQ(create(configProperties(&unknownConfig).data()), CL_INVALID_VALUE);
}

TEST_F(PerformanceCounters, ResultsAreRefusedForUserEventsAndQueuesWithoutCounters) {
    cl_int error = CL_SUCCESS;
    cl_event user = clCreateUserEvent(context_, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    Result result;
    EXPECT_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_INVALID_VALUE);
    clSetUserEventStatus(user, CL_COMPLETE);
    EXPECT_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_INVALID_VALUE);
    clReleaseEvent(user);

    cl_command_queue plain = ProfilingQueue();
    ASSERT_NE(plain, nullptr);
    cl_mem buffer = Buffer(64);
    const int zero = 0;
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(plain, buffer, &zero, sizeof zero, 0, 64, 0, nullptr, &event), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    size_t size = 0;
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &size),
              CL_INVALID_VALUE);
    clReleaseEvent(event);
}

TEST_F(PerformanceCounters, ResultsAreNotAvailableUntilTheCommandCompleted) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(256 * sizeof(float));
    cl_kernel scale = Kernel("scale", buffer);
    const float factor = 3;
    clSetKernelArg(scale, 1, sizeof factor, &factor);
    cl_int error = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(context_, &error);
    const size_t global = 256;
    cl_event kernel = nullptr, marker = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &global, nullptr, 1, &gate, &kernel), CL_SUCCESS);
    ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), CL_SUCCESS);
    clFlush(queue);
    std::vector<Result> results(uuids.size());
    for (cl_event event : {kernel, marker}) {
        EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                          results.size() * sizeof(Result), results.data(), nullptr),
                  CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    clSetUserEventStatus(gate, CL_COMPLETE);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    EXPECT_EQ(Results(kernel, uuids)["KernelWorkItems"].uint64, 256u);
    EXPECT_EQ(Results(marker, uuids)["KernelWorkItems"].uint64, 256u);
    for (cl_event event : {gate, kernel, marker}) clReleaseEvent(event);
}

TEST_F(PerformanceCounters, InvalidHandlesGetTheDriversErrors) {
    size_t size = 0;
    EXPECT_EQ(clGetDeviceInfo(nullptr, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &size), CL_INVALID_DEVICE);
    Result result;
    EXPECT_EQ(clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_INVALID_EVENT);
    cl_performance_counter_desc_codeplay desc{counters_.at(0).info.uuid, nullptr};
    cl_performance_counter_config_codeplay config{1, &desc};
    const cl_queue_properties properties[] = {CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                              reinterpret_cast<cl_queue_properties>(&config), 0};
    cl_int error = CL_SUCCESS;
    EXPECT_EQ(createQueue_(context_, nullptr, properties, &error), nullptr);
    EXPECT_EQ(error, CL_INVALID_DEVICE);
}

// A command that terminated abnormally (its wait list failed) has no results.
TEST_F(PerformanceCounters, FailedCommandsHaveNoResults) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_mem buffer = Buffer(64);
    cl_int error = CL_SUCCESS;
    cl_event failing = clCreateUserEvent(context_, &error);
    const int zero = 0;
    cl_event fill = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, 64, 1, &failing, &fill), CL_SUCCESS);
    clFlush(queue);
    clSetUserEventStatus(failing, -1);
    clWaitForEvents(1, &fill);  // fails: the command terminated
    cl_int status = CL_COMPLETE;
    ASSERT_EQ(clGetEventInfo(fill, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
    Result results[32];
    const cl_int answer = clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                                  uuids.size() * sizeof(Result), results, nullptr);
    if (status < 0) {
        EXPECT_EQ(answer, CL_PROFILING_INFO_NOT_AVAILABLE);
    } else {
        std::printf("the driver ran the command although its wait list failed (status %d)\n", status);
        EXPECT_EQ(answer, CL_SUCCESS);
    }
    clReleaseEvent(fill);
    clReleaseEvent(failing);
}

// A command enqueued through another extension's function (here a command buffer of cl_khr_command_buffer)
// on a queue with counters: the layer does not follow it, so it has no results.
TEST_F(PerformanceCounters, CommandsOfOtherExtensionsHaveNoResults) {
    char extensions[16384] = "";
    clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, nullptr);
    if (!Extension(extensions, "cl_khr_command_buffer")) GTEST_SKIP() << "the device has no cl_khr_command_buffer";
    using Create = void* (*)(cl_uint, const cl_command_queue*, const cl_ulong*, cl_int*);
    using Barrier = cl_int (*)(void*, cl_command_queue, cl_uint, const cl_uint*, cl_uint*, void*);
    using Finalize = cl_int (*)(void*);
    using Enqueue = cl_int (*)(cl_uint, cl_command_queue*, void*, cl_uint, const cl_event*, cl_event*);
    auto create = reinterpret_cast<Create>(clGetExtensionFunctionAddressForPlatform(platform_, "clCreateCommandBufferKHR"));
    auto barrier = reinterpret_cast<Barrier>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clCommandBarrierWithWaitListKHR"));
    auto finalize = reinterpret_cast<Finalize>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clFinalizeCommandBufferKHR"));
    auto enqueue = reinterpret_cast<Enqueue>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clEnqueueCommandBufferKHR"));
    auto release = reinterpret_cast<Finalize>(clGetExtensionFunctionAddressForPlatform(platform_, "clReleaseCommandBufferKHR"));
    if (!create || !barrier || !finalize || !enqueue || !release) GTEST_SKIP() << "cl_khr_command_buffer entry points missing";
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(queue, nullptr);
    cl_int error = CL_SUCCESS;
    void* buffer = create(1, &queue, nullptr, &error);
    if (!buffer) GTEST_SKIP() << "clCreateCommandBufferKHR refuses this queue: " << error;
    cl_event event = nullptr;
    if (barrier(buffer, nullptr, 0, nullptr, nullptr, nullptr) != CL_SUCCESS || finalize(buffer) != CL_SUCCESS ||
        enqueue(0, nullptr, buffer, 0, nullptr, &event) != CL_SUCCESS) {
        release(buffer);
        GTEST_SKIP() << "the driver's command buffers do not run here";
    }
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    Result result;
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, sizeof result, &result,
                                      nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(event);
    release(buffer);
}

// Counters need the device's timestamps, so the queue gets profiling from the layer; an application that
// did not ask for it still sees a queue without it.
TEST_F(PerformanceCounters, QueueWithoutProfilingKeepsAnsweringAsOne) {
    const std::vector<cl_uint> uuids = AllUuids();
    cl_command_queue queue = CountingQueue(uuids, 0);
    ASSERT_NE(queue, nullptr);
    cl_command_queue_properties properties = 0;
    ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr), CL_SUCCESS);
    EXPECT_EQ(properties & CL_QUEUE_PROFILING_ENABLE, 0u);
    cl_mem buffer = Buffer(4096);
    const int zero = 0;
    cl_event event = nullptr;
    ASSERT_EQ(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, 4096, 0, nullptr, &event), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    cl_ulong start = 0;
    EXPECT_EQ(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    EXPECT_EQ(Results(event, uuids)["TransferBytes"].uint64, 4096u);
    clReleaseEvent(event);

    // The properties array is the application's, the counter configuration still readable.
    size_t size = 0;
    if (clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size) == CL_SUCCESS) {
        std::vector<cl_queue_properties> array(size / sizeof(cl_queue_properties));
        ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, array.data(), nullptr), CL_SUCCESS);
        ASSERT_EQ(array.size(), 5u);
        EXPECT_EQ(array[0], static_cast<cl_queue_properties>(CL_QUEUE_PROPERTIES));
        EXPECT_EQ(array[1], 0u);
        EXPECT_EQ(array[2], static_cast<cl_queue_properties>(CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY));
        const auto* config = reinterpret_cast<const cl_performance_counter_config_codeplay*>(array[3]);
        ASSERT_NE(config, nullptr);
        ASSERT_EQ(config->count, uuids.size());
        for (size_t i = 0; i < uuids.size(); ++i) EXPECT_EQ(config->descs[i].uuid, uuids[i]);
        EXPECT_EQ(array[4], 0u);
    }
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
