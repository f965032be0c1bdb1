// The GPA C++ API (include/gpa/gpa.hpp) on OpenCL: time a kernel at several problem sizes, one GPA sample
// per size, and print the counters of each sample.
//
// Links to libGPUPerfAPICL.so directly. Errors arrive as gpa::Error (status and reason).
// Run: gpa_cpp_example [--sessions N]   (OPENGPA_CL_PLATFORM=<part of a platform name> picks the platform)
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpa/gpa.hpp"

namespace {

const char* const kSource = R"CLC(
__kernel void saxpy(__global float* y, __global const float* x, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
)CLC";

void ClCheck(cl_int error, const char* what) {
    if (error != CL_SUCCESS) throw std::runtime_error(std::string(what) + " failed with OpenCL error " + std::to_string(error));
}

// The OpenCL objects of the example; the first device of the first (or the $OPENGPA_CL_PLATFORM) platform.
struct OpenCl {
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;
    cl_kernel saxpy = nullptr;
    cl_mem x = nullptr;
    cl_mem y = nullptr;
    size_t maxElements = 0;

    explicit OpenCl(size_t elements) : maxElements(elements) {
        // "no OpenCL device" is what the CTest test of this sample treats as a reason to skip.
        cl_uint count = 0;
        if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
            throw std::runtime_error("no OpenCL device: no OpenCL platform");
        }
        std::vector<cl_platform_id> platforms(count);
        ClCheck(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
        const char* wanted = std::getenv("OPENGPA_CL_PLATFORM");
        cl_platform_id platform = nullptr;
        for (cl_platform_id candidate : platforms) {
            char name[256] = {};
            clGetPlatformInfo(candidate, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
            std::string lower(name), part(wanted ? wanted : "");
            for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            for (char& c : part) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (lower.find(part) != std::string::npos) {
                platform = candidate;
                break;
            }
        }
        if (platform == nullptr) throw std::runtime_error("no OpenCL device: no platform matches OPENGPA_CL_PLATFORM");
        cl_device_id device = nullptr;
        if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
            throw std::runtime_error("no OpenCL device on the chosen platform");
        }
        cl_int error = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
        ClCheck(error, "clCreateContext");
        // GPA reads device timestamps: the queue needs profiling enabled.
        queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &error);
        ClCheck(error, "clCreateCommandQueue");
        const char* source = kSource;
        program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
        ClCheck(error, "clCreateProgramWithSource");
        ClCheck(clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr), "clBuildProgram");
        saxpy = clCreateKernel(program, "saxpy", &error);
        ClCheck(error, "clCreateKernel");
        x = clCreateBuffer(context, CL_MEM_READ_WRITE, elements * sizeof(float), nullptr, &error);
        ClCheck(error, "clCreateBuffer");
        y = clCreateBuffer(context, CL_MEM_READ_WRITE, elements * sizeof(float), nullptr, &error);
        ClCheck(error, "clCreateBuffer");
        const float a = 2.0f, one = 1.0f;
        ClCheck(clEnqueueFillBuffer(queue, x, &one, sizeof one, 0, elements * sizeof(float), 0, nullptr, nullptr), "fill");
        ClCheck(clEnqueueFillBuffer(queue, y, &one, sizeof one, 0, elements * sizeof(float), 0, nullptr, nullptr), "fill");
        ClCheck(clSetKernelArg(saxpy, 0, sizeof y, &y), "clSetKernelArg");
        ClCheck(clSetKernelArg(saxpy, 1, sizeof x, &x), "clSetKernelArg");
        ClCheck(clSetKernelArg(saxpy, 2, sizeof a, &a), "clSetKernelArg");
        Saxpy(elements);  // first launch compiles on some devices; keep it out of the measurements
        ClCheck(clFinish(queue), "clFinish");
    }
    ~OpenCl() {
        if (queue) clFinish(queue);
        if (y) clReleaseMemObject(y);
        if (x) clReleaseMemObject(x);
        if (saxpy) clReleaseKernel(saxpy);
        if (program) clReleaseProgram(program);
        if (queue) clReleaseCommandQueue(queue);
        if (context) clReleaseContext(context);
    }
    OpenCl(const OpenCl&) = delete;
    OpenCl& operator=(const OpenCl&) = delete;

    void Saxpy(size_t elements) {
        ClCheck(clEnqueueNDRangeKernel(queue, saxpy, 1, nullptr, &elements, nullptr, 0, nullptr, nullptr), "saxpy");
    }
};

const char* UsageName(GPA_Usage_Type usage) {
    const char* name = "?";
    GPA_GetUsageTypeAsStr(usage, &name);
    return name;
}

}  // namespace

int main(int argc, char** argv) {
    int sessions = 2;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--sessions") == 0 && i + 1 < argc) {
            sessions = std::atoi(argv[++i]);
        } else {
            std::printf("usage: gpa_cpp_example [--sessions N]\n"
                        "Times a saxpy kernel at several sizes with the GPA C++ API (one sample per size).\n"
                        "OPENGPA_CL_PLATFORM=<part of a platform name> picks the OpenCL platform.\n");
            return std::strcmp(argv[i], "--help") == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
        }
    }
    const std::vector<size_t> sizes = {1 << 16, 1 << 18, 1 << 20, 1 << 22};
    try {
        OpenCl cl(sizes.back());
        gpa::Library library;
        gpa::Context context(cl.queue);
        std::printf("device: %s\n", context.DeviceDescription().value_or("(unknown)").c_str());
        for (const gpa::CounterInfo& counter : context.Counters()) {
            std::printf("counter %u: %s [%s, %s] %s\n", counter.index, counter.name.c_str(), counter.group.c_str(),
                        UsageName(counter.usage), counter.description.c_str());
        }
        context.EnableAll();

        for (int s = 0; s < sessions; ++s) {
            gpa::Session session = context.BeginSession();
            session.ForEachPass([&](gpa::Pass& pass) {
                for (gpa_uint32 sample = 0; sample < sizes.size(); ++sample) {
                    pass.Measure(sample, [&] { cl.Saxpy(sizes[sample]); });
                }
            });
            const gpa::Results results = session.End();
            for (gpa_uint32 sample = 0; sample < results.SampleCount(); ++sample) {
                std::printf("session %u sample %u (%zu elements):", results.id(), sample, sizes[sample]);
                for (gpa_uint32 index : context.EnabledCounters()) {
                    // GetValue answers in the counter's own type; AsDouble for printing.
                    std::printf(" %s = %g", context.Counter(index).name.c_str(),
                                gpa::AsDouble(results.GetValue(sample, index)));
                }
                const double ms = results.Get<double>(sample, "GPUTime");
                std::printf(" -> %.2f GB/s\n", ms > 0 ? 3.0 * sizeof(float) * sizes[sample] / (ms * 1e6) : 0.0);
            }
        }
        return EXIT_SUCCESS;
    } catch (const gpa::Error& error) {
        std::fprintf(stderr, "GPA error %s: %s\n", GPA_GetStatusAsStr(error.status()), error.what());
    } catch (const std::exception& error) {
        std::fprintf(stderr, "error: %s\n", error.what());
    }
    return EXIT_FAILURE;
}
