// The CUDA API-type enumeration of the .atp timestamp section (first column of every CUDA line), published
// in docs/profiler_files.md, and what gpaprof knows about each traced function.
//
// The number of a CUDA function is its CUPTI callback id, which NVIDIA assigns once and never reuses:
//   runtime API  (cuda*):  the CUPTI runtime callback id           (CUpti_runtime_api_trace_cbid), 1-9999
//   driver API   (cu*):    10000 + the CUPTI driver callback id    (CUpti_driver_api_trace_cbid), 10000-19999
// A reader recognises the calls that enqueue device work by their timestamp line, which carries the command
// fields (15, 16 or 19 fields), and by the class this table gives each function (CudaApiClass).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpaprof::cuda {

enum class CudaDomain : uint32_t { Runtime = 0, Driver = 1 };

inline constexpr uint32_t kDriverApiTypeBase = 10000;

// What a call does to the device, by its name.
enum class CudaApiClass {
    Other,
    KernelLaunch,   // one kernel (cudaLaunchKernel, cuLaunchKernel, cuLaunchKernelEx, cooperative launches)
    GraphLaunch,    // a graph: its kernels, copies and sets appear in the kernel timestamp section only
    Memcpy,         // one copy (cudaMemcpy*, cuMemcpy*)
    Memset,         // one set (cudaMemset*, cuMemset*)
};

struct CudaApiInfo {
    CudaDomain domain;
    uint32_t cbid;
    uint32_t apiType;        // the published number
    std::string_view name;   // as the application called it (e.g. cudaMemcpy, cudaMemcpy_ptds, cuMemcpyHtoD_v2)
    bool argumentsKnown;     // CUPTI describes its parameters
    CudaApiClass apiClass;
};

uint32_t ApiType(CudaDomain domain, uint32_t cbid);
// nullptr for a function the table does not know.
const CudaApiInfo* FindApi(CudaDomain domain, uint32_t cbid);
const CudaApiInfo* FindApiByType(uint32_t apiType);
const CudaApiInfo* FindApiByName(std::string_view name);
// Every function of a domain by its CUPTI callback id (nullptr where the table has none), for a lookup in one load.
const std::vector<const CudaApiInfo*>& ApisByCallbackId(CudaDomain domain);
// Every function of both domains, runtime first, each in callback-id order.
const std::vector<CudaApiInfo>& AllApis();

// Of the functions -F leaves out of the trace, those gpaprof need not hear of at all: runtime functions that
// enqueue nothing (CudaApiClass::Other). Their callbacks exist only for their records; everything else gpaprof
// follows (memory, contexts, graphs, captures, launches) it follows in the driver calls, which stay subscribed.
// Each callback pair costs a launch-bound loop about as much as CUPTI's whole kernel timing, so a left-out
// cudaGetLastError should cost nothing. Every CUPTI runtime callback id of each such name (a name may have
// several).
std::vector<uint32_t> UnheardRuntimeCallbacks(const std::vector<std::string>& excludedNames);

CudaApiClass ClassifyApi(std::string_view name);
const char* ApiClassName(CudaApiClass apiClass);

// Return codes and copy kinds by value ("cudaErrorInvalidValue", "CUDA_ERROR_INVALID_VALUE").
std::string CudaErrorName(int value);
std::string CuResultName(int value);
std::string MemcpyKindName(int value);

struct ArgContext;
class ArgList;
// The argument list of one call from the parameter struct CUPTI passed to the callback; false when CUPTI
// does not describe the function's parameters (then *out is left empty).
bool FormatArguments(CudaDomain domain, uint32_t cbid, const void* params, const ArgContext& context, ArgList* out);
bool FormatArguments(CudaDomain domain, uint32_t cbid, const void* params, const ArgContext& context,
                     std::vector<std::string>* out);

// The size of the parameter struct of a function whose arguments FormatArguments writes from the struct's bytes
// alone, without reading memory they point at (no strings, no out-pointers): such a call's record may carry the
// bytes and be formatted later (raw_call_line.h). 0 for a function CUPTI does not describe (no arguments); -1
// where formatting reads memory, or for a function the table does not know.
int RawParamsSize(CudaDomain domain, uint32_t cbid);
// Whether the function returns a status code (cudaError_t, CUresult): all but cudaCreateChannelDesc (a struct),
// cudaGetErrorName and cudaGetErrorString (a string).
bool ReturnsStatusCode(CudaDomain domain, std::string_view name);
// A status code as the .atp writes it: CUresult names for the driver, cudaError_t names for the runtime.
std::string StatusText(CudaDomain domain, int code);

// What a driver kernel launch (cuLaunchKernel, cuLaunchCooperativeKernel, cuLaunchKernelEx, their _ptsz
// forms) launches, from its CUPTI parameter struct.
struct LaunchParameters {
    CUfunction function = nullptr;
    uint64_t grid[3] = {1, 1, 1};
    uint64_t block[3] = {1, 1, 1};
    uint64_t dynamicSharedBytes = 0;
    CUstream stream = nullptr;
    // What issuing the same launch again takes (gpaprof's own replay).
    void** kernelParams = nullptr;
    void** extra = nullptr;
    const CUlaunchConfig* config = nullptr;  // cuLaunchKernelEx
    bool perThreadStream = false;            // a _ptsz form: stream 0 is the thread's default stream
    bool cooperative = false;                // cuLaunchCooperativeKernel, or the cooperative launch attribute
};
std::optional<LaunchParameters> KernelLaunchParameters(uint32_t driverCbid, const void* params);

// The stream a call works on (its cudaStream_t / CUstream parameter), when it has one.
std::optional<uint64_t> StreamArgument(CudaDomain domain, uint32_t cbid, const void* params);

}  // namespace gpaprof::cuda
