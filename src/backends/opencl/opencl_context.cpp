#include "backends/opencl/opencl_context.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/opencl/cl_errors.h"
#include "backends/opencl/cl_queries.h"
#include "backends/opencl/device_identity.h"
#include "backends/opencl/opencl_session.h"
#include "core/logger.h"

namespace gpa::cl {

namespace {

constexpr const char* kTimestampCommandVariable = "OPENGPA_CL_TIMESTAMP_COMMAND";

Outcome NotSupported(const std::string& reason) { return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, reason); }

TimestampCommand TimestampCommandFromEnvironment() {
    const char* text = std::getenv(kTimestampCommandVariable);
    if (text == nullptr || std::strcmp(text, "fill") == 0) return TimestampCommand::kFill;
    if (std::strcmp(text, "marker") == 0) return TimestampCommand::kMarker;
    Logger::Instance().Message(std::string(kTimestampCommandVariable) + "='" + text +
                               "' is neither 'fill' nor 'marker'; using 'fill'");
    return TimestampCommand::kFill;
}

HardwareCounter SampleDurationCounter() {
    HardwareCounter counter;
    counter.name = kSampleDurationCounterName;
    counter.group = "Timing";
    counter.description =
        "Nanoseconds from the end of the timestamp command OpenGPA enqueues at GPA_BeginSample to the start of the "
        "one it enqueues at GPA_EndSample (device timestamps from OpenCL event profiling): the span in which the "
        "device ran the commands the sample brackets, including any time it waited for them.";
    counter.type = GPA_TYPE_UINT64;
    counter.usage = GPA_USAGE_TYPE_NANOSECONDS;
    return counter;
}

DerivedCounterDefinition GpuTimeCounter() {
    DerivedCounterDefinition counter;
    counter.name = "GPUTime";
    counter.group = "Timing";
    counter.description =
        "Time, in milliseconds, the device took to execute the commands enqueued on the command queue between "
        "GPA_BeginSample and GPA_EndSample, from OpenCL device timestamps (cl.sample_duration_ns / 1e6). "
        "Includes gaps in which the device waited for commands the host had not yet enqueued.";
    counter.type = GPA_TYPE_FLOAT64;
    counter.usage = GPA_USAGE_TYPE_MILLISECONDS;
    counter.expression = std::string(kSampleDurationCounterName) + " / 1000000";
    return counter;
}

// Whether `queue` is a command queue. Drivers that check object types answer CL_INVALID_COMMAND_QUEUE for
// anything else; PoCL does not check them (a cl_context passes clGetCommandQueueInfo), so the queue's
// device and context are cross-checked too: a real queue's context lists its device.
Outcome CheckIsQueue(cl_command_queue queue, cl_device_id* device, cl_context* clContext) {
    cl_int error = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof *device, device, nullptr);
    if (error != CL_SUCCESS) return NotSupported(ClFailure("clGetCommandQueueInfo(CL_QUEUE_DEVICE)", error));
    if (*device == nullptr) return NotSupported("it reports no device");
    cl_device_type type = 0;
    error = clGetDeviceInfo(*device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    if (error != CL_SUCCESS) return NotSupported("its device is not valid: " + ClFailure("clGetDeviceInfo", error));
    error = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof *clContext, clContext, nullptr);
    if (error != CL_SUCCESS) return NotSupported(ClFailure("clGetCommandQueueInfo(CL_QUEUE_CONTEXT)", error));
    if (*clContext == nullptr) return NotSupported("it reports no context");
    std::vector<unsigned char> bytes;
    error = QueryBytes(clGetContextInfo, *clContext, CL_CONTEXT_DEVICES, &bytes);
    if (error != CL_SUCCESS) return NotSupported("its context is not valid: " + ClFailure("clGetContextInfo", error));
    for (size_t offset = 0; offset + sizeof(cl_device_id) <= bytes.size(); offset += sizeof(cl_device_id)) {
        cl_device_id listed = nullptr;
        std::memcpy(&listed, bytes.data() + offset, sizeof listed);
        if (listed == *device) return Outcome::Ok();
    }
    return NotSupported("its context does not list its device");
}

}  // namespace

// Every exposed counter is measured on every command of the queue (timestamps always; codeplay counters
// when the queue enabled them at creation), so any set of them fits in one pass.
OpenClContext::OpenClContext() : planner_([](std::span<const uint32_t>) { return true; }) {}

OpenClContext::~OpenClContext() {
    if (profile_.fillTarget != nullptr) clReleaseMemObject(profile_.fillTarget);
    if (profile_.queue != nullptr) clReleaseCommandQueue(profile_.queue);
}

Outcome OpenClContext::Open(void* apiContext, std::unique_ptr<BackendContext>* context) {
    auto queue = static_cast<cl_command_queue>(apiContext);
    cl_device_id device = nullptr;
    cl_context clContext = nullptr;
    if (Outcome o = CheckIsQueue(queue, &device, &clContext); !o.ok()) {
        return NotSupported("pContext is not an OpenCL command queue (" + o.reason() +
                            "); the OpenCL GPA library takes the cl_command_queue whose commands are to be "
                            "profiled, cast to void*");
    }
    cl_command_queue_properties properties = 0;
    cl_int error = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr);
    if (error != CL_SUCCESS) return NotSupported(ClFailure("clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)", error));
    if ((properties & CL_QUEUE_PROFILING_ENABLE) == 0) {
        return NotSupported(
            "the command queue was created without CL_QUEUE_PROFILING_ENABLE, so OpenCL reports no device "
            "timestamps for its commands; create it with that property, e.g. clCreateCommandQueue(context, "
            "device, CL_QUEUE_PROFILING_ENABLE, &error)");
    }
    const std::string version = DeviceString(device, CL_DEVICE_VERSION);
    if (!ParseVersion(version).AtLeast(1, 2)) {
        return NotSupported("the device reports '" + version +
                            "'; OpenGPA brackets samples with OpenCL 1.2 commands (clEnqueueFillBuffer, "
                            "clEnqueueMarkerWithWaitList), so it needs an OpenCL 1.2 device or newer");
    }

    std::unique_ptr<OpenClContext> opened(new OpenClContext());
    QueueProfile& profile = opened->profile_;
    profile.outOfOrder = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    profile.timestampCommand = TimestampCommandFromEnvironment();
    if (profile.timestampCommand == TimestampCommand::kFill) {
        profile.fillTarget = clCreateBuffer(clContext, CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &error);
        if (error != CL_SUCCESS) {
            return Fail(GPA_STATUS_ERROR_FAILED,
                        "the 4-byte buffer that sample timestamps are written to could not be created: " +
                            ClFailure("clCreateBuffer", error));
        }
    }
    error = clRetainCommandQueue(queue);
    if (error != CL_SUCCESS) return Fail(GPA_STATUS_ERROR_FAILED, ClFailure("clRetainCommandQueue", error));
    profile.queue = queue;

    opened->device_ = DescribeDevice(device);
    opened->hardware_.push_back(SampleDurationCounter());
    opened->derived_.push_back(GpuTimeCounter());

    const std::vector<cl_performance_counter_codeplay> deviceCounters = QueryDeviceCounters(device);
    if (!deviceCounters.empty()) {
        const std::vector<cl_uint> enabled = QueryQueueCounterUuids(queue);
        CodeplayCounterSet set = BuildCodeplayCounters(deviceCounters, enabled);
        for (const std::string& skipped : set.skipped) {
            Logger::Instance().Message(std::string(CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME) + " counter " + skipped);
        }
        for (const CodeplayCounter& counter : set.counters) {
            if (counter.hardware.name == kSampleDurationCounterName) continue;  // cannot happen in practice
            opened->hardware_.push_back(counter.hardware);
            profile.codeplayCounters.push_back(counter);
        }
        profile.codeplayResultCount = set.resultCount;
        std::vector<std::string> names;
        for (const HardwareCounter& counter : opened->hardware_) names.push_back(counter.name);
        for (DerivedCounterDefinition& derived : CodeplayDerivedCounters(names, kSampleDurationCounterName)) {
            opened->derived_.push_back(std::move(derived));
        }
    }
    *context = std::move(opened);
    return Outcome::Ok();
}

Outcome OpenClContext::CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) {
    *session = std::make_unique<OpenClSession>(profile_, plan);
    return Outcome::Ok();
}

}  // namespace gpa::cl
