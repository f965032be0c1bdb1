#include "report_fixture.h"

namespace gpaprof::report::testing {

namespace {
constexpr const char* kContext = "0x00000000000000C1";
constexpr const char* kDevice = "0x00000000000000D1";
constexpr const char* kQueue1 = "0x0000000000000A01";
constexpr const char* kQueue2 = "0x0000000000000A02";
constexpr const char* kBuffer1 = "0x0000000000000B01";
constexpr const char* kBuffer2 = "0x0000000000000B02";
constexpr const char* kProgram = "0x0000000000000E01";
constexpr const char* kKernel1 = "0x0000000000000F01";
constexpr const char* kKernel2 = "0x0000000000000F02";
constexpr const char* kEvent1 = "0x0000000000000E71";
constexpr const char* kDeviceName = "cpu device";
}  // namespace

SessionInfo FixtureSession() {
    SessionInfo session;
    session.profilerVersion = "0.1.0";
    session.application = "/opt/app/bin/solver";
    session.applicationArgs = "--size 64";
    session.workingDirectory = "/home/user/run";
    DeviceHeader device;
    device.name = kDeviceName;
    device.platformVendor = "The pocl project";
    device.platformName = "Portable Computing Language";
    device.platformVersion = "OpenCL 3.0 PoCL 3.1";
    device.driverVersion = "3.1";
    device.runtimeVersion = "OpenCL 3.0 PoCL";
    session.devices.push_back(device);
    session.osVersion = "Debian GNU/Linux 12 Build 6.1.0";
    session.displayName = "fixture";
    return session;
}

ApiCall Call(const std::string& name, const std::string& returnValue, std::vector<std::string> args, uint64_t start,
             uint64_t end) {
    ApiCall call;
    call.name = name;
    if (!returnValue.empty()) call.returnValue = returnValue;
    call.args = std::move(args);
    call.start = start;
    call.end = end;
    return call;
}

ApiCall Enqueue(ApiCall call, uint32_t commandType, const std::string& commandName, uint64_t deviceStart,
                uint64_t deviceEnd, uint64_t queueId, const std::string& queueHandle) {
    CommandTimes command;
    command.commandType = commandType;
    command.commandName = commandName;
    command.queued = call.start + 10;
    command.submit = call.start + 20;
    command.start = deviceStart;
    command.end = deviceEnd;
    command.queueId = queueId;
    command.queueHandle = queueHandle;
    command.contextId = 1;
    command.contextHandle = kContext;
    command.deviceName = kDeviceName;
    call.command = command;
    return call;
}

ApiCall Kernel(ApiCall enqueue, const std::string& kernelHandle, const std::string& kernelName,
               std::vector<uint64_t> global, std::vector<uint64_t> local) {
    KernelLaunch kernel;
    kernel.kernelHandle = kernelHandle;
    kernel.kernelName = kernelName;
    kernel.globalSize = std::move(global);
    kernel.localSize = std::move(local);
    enqueue.kernel = kernel;
    return enqueue;
}

AtpFile SingleThreadTrace(std::vector<ApiCall> calls, const std::string& api) {
    AtpFile file;
    file.session = FixtureSession();
    ApiTracePart part;
    part.api = api;
    part.threads.push_back({kMainThread, std::move(calls)});
    file.parts.push_back(part);
    return file;
}

AtpFile OpenClFixture() {
    AtpFile file;
    file.session = FixtureSession();
    ApiTracePart part;
    part.api = "ocl";

    // Main thread. Host times in ns; the comment gives the duration.
    std::vector<ApiCall> main;
    main.push_back(Call("clGetPlatformIDs", "CL_SUCCESS", {"1", "[0x0000000000000001]", "[1]"}, 1000, 1500));  // #0 500
    main.push_back(Call("clCreateContext", kContext, {"NULL", "1", std::string("{") + kDevice + "}", "NULL", "NULL",
                                                      "[CL_SUCCESS]"},
                        2000, 4000));  // #1 2000
    main.push_back(Call("clCreateCommandQueue", kQueue1, {kContext, kDevice, "CL_QUEUE_PROFILING_ENABLE", "[CL_SUCCESS]"},
                        5000, 6000));  // #2 1000, deprecated since 2.0
    main.push_back(Call("clCreateBuffer", kBuffer1, {kContext, "CL_MEM_READ_WRITE", "1048576", "NULL", "[CL_SUCCESS]"},
                        7000, 7500));  // #3 500
    main.push_back(Call("clCreateBuffer", kBuffer2, {kContext, "CL_MEM_READ_WRITE", "4096", "NULL", "[CL_SUCCESS]"},
                        8000, 8500));  // #4 500, never released
    main.push_back(Call("clCreateProgramWithSource", kProgram,
                        {kContext, "1", "[\"__kernel void k() {}\"]", "NULL", "[CL_SUCCESS]"}, 9000, 9500));  // #5
    main.push_back(Call("clBuildProgram", "CL_BUILD_PROGRAM_FAILURE", {kProgram, "1", "{0x00000000000000D1}", "\"\"",
                                                                       "NULL", "NULL"},
                        10000, 20000));  // #6 10000, failed
    main.push_back(Call("clCreateKernel", kKernel1, {kProgram, std::string("\"") + kHostileKernel + "\"", "[CL_SUCCESS]"},
                        21000, 21500));  // #7
    main.push_back(Call("clGetKernelWorkGroupInfo", "CL_SUCCESS",
                        {kKernel1, kDevice, "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE", "8", "[32]", "NULL"},
                        21600, 21700));  // #8: preferred multiple 32
    ApiCall write = Enqueue(Call("clEnqueueWriteBuffer", "CL_SUCCESS",
                                 {kQueue1, kBuffer1, "CL_TRUE", "0", "4096", "0x0000000000007000", "0", "NULL", "NULL"},
                                 22000, 30000),
                            0x11F4, "CL_COMMAND_WRITE_BUFFER", 23000, 27096, 1, kQueue1);
    write.transferSize = 4096;
    main.push_back(write);  // #9 blocking write, 4096 B in 4096 ns
    main.push_back(Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS",
                                       {kQueue1, kKernel1, "1", "NULL", "{1000}", "{30}", "0", "NULL",
                                        std::string("[") + kEvent1 + "]"},
                                       31000, 32000),
                                  0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 40000, 50000, 1, kQueue1),
                          kKernel1, kHostileKernel, {1000}, {30}));  // #10 device 10000 ns, event never released
    main.push_back(Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS",
                                       {kQueue1, kKernel1, "1", "NULL", "{1000}", "NULL", "0", "NULL", "NULL"}, 33000,
                                       34000),
                                  0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 50000, 56000, 1, kQueue1),
                          kKernel1, kHostileKernel, {1000}, {}));  // #11 device 6000 ns, no local size
    main.push_back(Call("clFinish", "CL_SUCCESS", {kQueue1}, 35000, 60000));  // #12 25000
    main.push_back(Call("clFinish", "CL_SUCCESS", {kQueue1}, 61000, 61100));  // #13 100, redundant (after #12)
    ApiCall read = Enqueue(Call("clEnqueueReadBuffer", "CL_SUCCESS",
                                {kQueue1, kBuffer1, "CL_TRUE", "0", "8192", "0x0000000000007000", "0", "NULL", "NULL"},
                                62000, 70000),
                           0x11F3, "CL_COMMAND_READ_BUFFER", 63000, 67096, 1, kQueue1);
    read.transferSize = 8192;
    main.push_back(read);  // #14 blocking read, 8192 B in 4096 ns
    main.push_back(Call("clFinish", "CL_SUCCESS", {kQueue1}, 70500, 70600));  // #15 100, redundant (after #14)
    main.push_back(Call("clReleaseMemObject", "CL_SUCCESS", {kBuffer1}, 71000, 71100));          // #16
    main.push_back(Call("clReleaseKernel", "CL_SUCCESS", {kKernel1}, 71200, 71300));             // #17
    main.push_back(Call("clReleaseProgram", "CL_SUCCESS", {kProgram}, 71400, 71500));            // #18
    main.push_back(Call("clReleaseCommandQueue", "CL_SUCCESS", {kQueue1}, 71600, 71700));        // #19
    main.push_back(Call("clReleaseContext", "CL_SUCCESS", {kContext}, 71800, 71900));            // #20
    part.threads.push_back({kMainThread, main});

    // Worker thread, its own in-order queue.
    std::vector<ApiCall> worker;
    worker.push_back(Call("clCreateCommandQueueWithProperties", kQueue2, {kContext, kDevice, "NULL", "[CL_SUCCESS]"},
                          4500, 4800));  // #0
    worker.push_back(Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS",
                                         {kQueue2, kKernel2, "1", "NULL", "{1024}", "{64}", "0", "NULL", "NULL"}, 36000,
                                         36500),
                                    0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 56000, 58000, 2, kQueue2),
                            kKernel2, "vector_add", {1024}, {64}));  // #1 device 2000
    worker.push_back(Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS",
                                         {kQueue2, kKernel2, "1", "NULL", "{1024}", "{64}", "0", "NULL", "NULL"}, 37000,
                                         37500),
                                    0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 58000, 61000, 2, kQueue2),
                            kKernel2, "vector_add", {1024}, {64}));  // #2 device 3000
    ApiCall big = Enqueue(Call("clEnqueueWriteBuffer", "CL_SUCCESS",
                               {kQueue2, kBuffer1, "CL_FALSE", "0", "1048576", "0x0000000000008000", "0", "NULL", "NULL"},
                               38000, 38200),
                          0x11F4, "CL_COMMAND_WRITE_BUFFER", 61000, 62000, 2, kQueue2);
    big.transferSize = 1048576;
    worker.push_back(big);  // #3 non-blocking, 1 MiB in 1000 ns
    worker.push_back(Call("clFinish", "CL_SUCCESS", {kQueue2}, 38500, 62500));  // #4 24000, not redundant
    worker.push_back(Call("clReleaseCommandQueue", "CL_SUCCESS", {kQueue2}, 63000, 63100));  // #5
    worker.push_back(Call("clCreateBuffer", "NULL", {kContext, "CL_MEM_READ_WRITE", "0", "NULL", "[CL_INVALID_BUFFER_SIZE]"},
                          63200, 63400));  // #6 200, failed
    part.threads.push_back({kWorkerThread, worker});
    file.parts.push_back(part);

    // Markers on the main thread: "setup" around #0..#8, the hostile one around #9..#12 with "inner" inside.
    ThreadBlock<PerfMarker> markers;
    markers.threadId = kMainThread;
    markers.entries = {
        {PerfMarker::Kind::Begin, "setup", "app", 900},
        {PerfMarker::Kind::End, "", "", 21800},
        {PerfMarker::Kind::Begin, kHostileMarker, "app", 21900},
        {PerfMarker::Kind::Begin, "inner", "", 30500},
        {PerfMarker::Kind::End, "", "", 34500},
        {PerfMarker::Kind::End, "", "", 60500},
    };
    file.markerThreads.push_back(markers);
    return file;
}

AtpFile CudaFixture() {
    AtpFile file;
    file.session = FixtureSession();
    file.session.devices.clear();
    ApiTracePart part;
    part.api = "cuda";
    std::vector<ApiCall> calls;
    calls.push_back(Call("cudaMalloc", "cudaSuccess", {"[0x00007F0000000000]", "1024"}, 1000, 2000));   // #0 never freed
    calls.push_back(Call("cudaMalloc", "cudaSuccess", {"[0x00007F0000100000]", "1024"}, 2100, 2200));   // #1 freed at #9
    calls.push_back(Call("cudaMemcpy", "cudaSuccess", {"0x00007F0000100000", "0x0000000000005000", "1024",
                                                       "cudaMemcpyHostToDevice"},
                         3000, 4000));  // #2 synchronous copy
    calls.push_back(Call("cudaLaunchKernel", "cudaSuccess", {"0x0000000000400000", "{4,1,1}", "{128,1,1}", "NULL", "0",
                                                             "NULL"},
                         5000, 5100));                                              // #3
    calls.push_back(Call("cudaDeviceSynchronize", "cudaSuccess", {}, 5200, 9000));  // #4
    calls.push_back(Call("cudaDeviceSynchronize", "cudaSuccess", {}, 9100, 9200));  // #5 redundant
    calls.push_back(Call("cudaGetLastError", "cudaSuccess", {}, 9300, 9310));       // #6 not work
    calls.push_back(Call("cudaThreadSynchronize", "cudaSuccess", {}, 9400, 9500));  // #7 deprecated and redundant
    calls.push_back(Call("cudaMemcpy", "cudaErrorInvalidValue", {"NULL", "NULL", "1", "cudaMemcpyDeviceToHost"}, 9600,
                         9700));                                                                // #8 failed
    calls.push_back(Call("cudaFree", "cudaSuccess", {"0x00007F0000100000"}, 9800, 9900));      // #9
    calls.push_back(Call("cudaStreamQuery", "cudaErrorNotReady", {"0x0000000000000000"}, 9950, 9960));  // #10 not a failure
    part.threads.push_back({kMainThread, calls});
    KernelTimestamp stamp;
    stamp.kernelName = "_Z6vecAddPfS_S_i";
    stamp.kernelObject = "0x0000000000400000";
    stamp.start = 6000;
    stamp.end = 8500;
    stamp.agentName = "NVIDIA_H100";
    stamp.agentHandle = "0x1";
    stamp.queueIndex = 7;
    stamp.deviceIndex = 0;
    stamp.packetType = "KERNEL";
    stamp.packetId = 1;
    stamp.packetFields = "{grid=4,1,1 block=128,1,1}";
    part.kernelTimestamps.push_back(stamp);
    file.parts.push_back(part);
    return file;
}

CsvFile CsvFixture() {
    CsvFile file;
    file.session = FixtureSession();
    file.counterNames = {"GPUTime", "Wavefronts"};
    DispatchRow row;
    row.method = std::string(kHostileKernel) + "__k1_CPU";
    row.executionOrder = 1;
    row.threadId = kMainThread;
    row.callIndex = 10;
    row.globalWorkSize = WorkSize::Of({1000});
    row.workGroupSize = WorkSize::Of({30});
    row.timeMs = 0.010;
    row.counters = {CounterValue::Real("GPUTime", 0.01), CounterValue::Int("Wavefronts", 34)};
    file.rows.push_back(row);
    DispatchRow second = row;
    second.method = "vector_add__k2_CPU";
    second.executionOrder = 2;
    second.threadId = kWorkerThread;
    second.callIndex = 1;
    second.globalWorkSize = WorkSize::Of({1024});
    second.workGroupSize = WorkSize::Of({64});
    second.timeMs = 0.002;
    second.counters = {CounterValue::Real("GPUTime", 0.002), CounterValue::NA("Wavefronts")};
    file.rows.push_back(second);
    return file;
}

OccupancyFile OccupancyFixture() {
    OccupancyFile file;
    file.session = FixtureSession();
    OccupancyRow row;
    row.threadId = kWorkerThread;
    row.kernelName = "vector_add";
    row.deviceName = kDeviceName;
    row.computeUnits = 8;
    row.waveSize = 32;
    row.workGroupSize = 64;
    row.occupancyPercent = 50.0;
    row.vgprLimitedWaves = 10;
    row.ldsLimitedWaves = 4;
    file.rows.push_back(row);
    OccupancyRow second = row;
    second.occupancyPercent = 75.0;
    file.rows.push_back(second);
    return file;
}

PmSamplingFile PmSamplingFixture() {
    PmSamplingFile file;
    file.session = FixtureSession();
    file.session.devices.clear();
    file.intervalNs = 1000;
    file.devices = {{0, "NVIDIA H100", "GH100"}, {1, "NVIDIA A100-SXM4-40GB", "GA100"}};
    file.metrics = {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum"};
    const std::optional<double> na;
    file.rows = {
        {0, 5000, 6000, false, false, {10.0, 1000.0}},
        {1, 5500, 6500, false, false, {60.0, 0.0}},
        {0, 6000, 7000, false, false, {80.0, 4000.0}},   // the kernel runs 6000..8500
        {1, 6500, 7500, false, false, {na, na}},
        {0, 7000, 8000, false, false, {90.0, na}},
        {0, 8000, 9000, false, true, {100.0, 500.0}},    // gpaprof replaying
        {0, 9000, 10000, false, true, {100.0, 500.0}},
        {1, 9000, 10000, false, false, {20.0, 100.0}},   // 1500 ns not sampled before it
        {0, 12000, 13000, true, false, {40.0, 2000.0}},  // samples lost before it
    };
    return file;
}

}  // namespace gpaprof::report::testing
