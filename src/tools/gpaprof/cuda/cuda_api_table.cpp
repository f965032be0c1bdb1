// CUPTI's parameter structs of the oldest driver functions use types cuda.h declares only for the driver's
// own build; this file alone sees them (no other file includes the generated headers).
#define __CUDA_API_VERSION_INTERNAL 1

#include "tools/gpaprof/cuda/cuda_api_table.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <cuda_runtime_api.h>
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>

#include "tools/gpaprof/cuda/arg_format.h"

namespace gpaprof::cuda {
namespace {

struct CudaApiEntry {
    uint32_t cbid;
    const char* name;
    bool argumentsKnown;
};

struct CudaEnumName {
    int value;
    const char* name;
};

// The generated RawParamsSize of a struct: its size where its arguments are formatted from its bytes alone.
template <typename Params>
constexpr int RawSize(bool formatsWithoutReading) {
    return formatsWithoutReading ? static_cast<int>(sizeof(Params)) : -1;
}

#include "cuda_api_table.inc"

bool Contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }
bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

const std::vector<CudaApiInfo>& Table() {
    static const std::vector<CudaApiInfo> table = [] {
        std::vector<CudaApiInfo> all;
        for (const CudaApiEntry& entry : kRuntimeApis) {
            all.push_back({CudaDomain::Runtime, entry.cbid, ApiType(CudaDomain::Runtime, entry.cbid), entry.name,
                           entry.argumentsKnown, ClassifyApi(entry.name)});
        }
        for (const CudaApiEntry& entry : kDriverApis) {
            all.push_back({CudaDomain::Driver, entry.cbid, ApiType(CudaDomain::Driver, entry.cbid), entry.name,
                           entry.argumentsKnown, ClassifyApi(entry.name)});
        }
        std::stable_sort(all.begin(), all.end(), [](const CudaApiInfo& a, const CudaApiInfo& b) { return a.apiType < b.apiType; });
        return all;
    }();
    return table;
}

template <size_t N>
std::string EnumName(const CudaEnumName (&names)[N], int value) {
    for (const CudaEnumName& entry : names) {
        if (entry.value == value) return entry.name;
    }
    return std::to_string(value);
}

}  // namespace

uint32_t ApiType(CudaDomain domain, uint32_t cbid) {
    return domain == CudaDomain::Runtime ? cbid : kDriverApiTypeBase + cbid;
}

const CudaApiInfo* FindApi(CudaDomain domain, uint32_t cbid) { return FindApiByType(ApiType(domain, cbid)); }

const std::vector<const CudaApiInfo*>& ApisByCallbackId(CudaDomain domain) {
    // Looked up at every callback: one dense array per domain, one load, where a binary search over the table
    // touched a dozen cache lines (docs/benchmarks.md, launch-bound tracing).
    static const std::array<std::vector<const CudaApiInfo*>, 2> index = [] {
        std::array<std::vector<const CudaApiInfo*>, 2> built;
        for (const CudaApiInfo& info : Table()) {
            std::vector<const CudaApiInfo*>& slots = built[static_cast<size_t>(info.domain)];
            if (info.cbid >= slots.size()) slots.resize(info.cbid + 1, nullptr);
            if (!slots[info.cbid]) slots[info.cbid] = &info;  // the first of a type, as the sorted table's lower bound gave
        }
        return built;
    }();
    return index[static_cast<size_t>(domain)];
}

const CudaApiInfo* FindApiByType(uint32_t apiType) {
    const bool driver = apiType >= kDriverApiTypeBase;
    const std::vector<const CudaApiInfo*>& slots = ApisByCallbackId(driver ? CudaDomain::Driver : CudaDomain::Runtime);
    const uint32_t slot = driver ? apiType - kDriverApiTypeBase : apiType;
    return slot < slots.size() ? slots[slot] : nullptr;
}

const CudaApiInfo* FindApiByName(std::string_view name) {
    static const std::unordered_map<std::string_view, size_t> byName = [] {
        std::unordered_map<std::string_view, size_t> map;
        const std::vector<CudaApiInfo>& table = Table();
        for (size_t i = 0; i < table.size(); ++i) map.emplace(table[i].name, i);  // the first (oldest) wins
        return map;
    }();
    auto it = byName.find(name);
    if (it == byName.end()) return nullptr;
    return &Table()[it->second];
}

const std::vector<CudaApiInfo>& AllApis() { return Table(); }

std::vector<uint32_t> UnheardRuntimeCallbacks(const std::vector<std::string>& excludedNames) {
    std::vector<uint32_t> cbids;
    for (const CudaApiInfo& info : Table()) {
        if (info.domain != CudaDomain::Runtime || info.apiClass != CudaApiClass::Other) continue;
        for (const std::string& name : excludedNames) {
            if (info.name == name) {
                cbids.push_back(info.cbid);
                break;
            }
        }
    }
    return cbids;
}

CudaApiClass ClassifyApi(std::string_view name) {
    if (Contains(name, "GraphLaunch")) return CudaApiClass::GraphLaunch;
    if (StartsWith(name, "cudaLaunchKernel") || StartsWith(name, "cudaLaunchCooperativeKernel") ||
        name == "cudaLaunch" || StartsWith(name, "cudaLaunch_") || StartsWith(name, "cuLaunchKernel") ||
        StartsWith(name, "cuLaunchCooperativeKernel") || name == "cuLaunch" || StartsWith(name, "cuLaunchGrid")) {
        if (Contains(name, "MultiDevice")) return CudaApiClass::Other;  // several kernels: activity only
        return CudaApiClass::KernelLaunch;
    }
    if (StartsWith(name, "cudaMemcpy") || StartsWith(name, "cuMemcpy")) {
        return Contains(name, "Batch") ? CudaApiClass::Other : CudaApiClass::Memcpy;  // a batch is several copies
    }
    if (StartsWith(name, "cudaMemset") || StartsWith(name, "cuMemset")) return CudaApiClass::Memset;
    return CudaApiClass::Other;
}

const char* ApiClassName(CudaApiClass apiClass) {
    switch (apiClass) {
        case CudaApiClass::Other: return "other";
        case CudaApiClass::KernelLaunch: return "kernel launch";
        case CudaApiClass::GraphLaunch: return "graph launch";
        case CudaApiClass::Memcpy: return "memcpy";
        case CudaApiClass::Memset: return "memset";
    }
    return "other";
}

std::string CudaErrorName(int value) { return value == 0 ? "cudaSuccess" : EnumName(kCudaErrorNames, value); }
std::string CuResultName(int value) { return value == 0 ? "CUDA_SUCCESS" : EnumName(kCuResultNames, value); }
std::string MemcpyKindName(int value) { return EnumName(kMemcpyKindNames, value); }

bool FormatArguments(CudaDomain domain, uint32_t cbid, const void* params, const ArgContext& context, ArgList* out) {
    out->Clear();
    if (!params) return false;
    return domain == CudaDomain::Runtime ? FormatRuntimeArguments(cbid, params, context, out)
                                         : FormatDriverArguments(cbid, params, context, out);
}

bool FormatArguments(CudaDomain domain, uint32_t cbid, const void* params, const ArgContext& context,
                     std::vector<std::string>* out) {
    ArgList list;
    const bool known = FormatArguments(domain, cbid, params, context, &list);
    out->clear();
    for (size_t i = 0; i < list.size(); ++i) out->emplace_back(list[i]);
    return known;
}

int RawParamsSize(CudaDomain domain, uint32_t cbid) {
    return domain == CudaDomain::Runtime ? RuntimeRawParamsSize(cbid) : DriverRawParamsSize(cbid);
}

bool ReturnsStatusCode(CudaDomain domain, std::string_view name) {
    return domain == CudaDomain::Driver ||
           (name != "cudaCreateChannelDesc" && name != "cudaGetErrorName" && name != "cudaGetErrorString");
}

std::string StatusText(CudaDomain domain, int code) {
    return domain == CudaDomain::Driver ? CuResultName(code) : CudaErrorName(code);
}

std::optional<uint64_t> StreamArgument(CudaDomain domain, uint32_t cbid, const void* params) {
    if (!params) return std::nullopt;
    return domain == CudaDomain::Runtime ? RuntimeStreamArgument(cbid, params) : DriverStreamArgument(cbid, params);
}

std::optional<LaunchParameters> KernelLaunchParameters(uint32_t driverCbid, const void* params) {
    if (!params) return std::nullopt;
    LaunchParameters launch;
    switch (driverCbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
            const auto* p = static_cast<const cuLaunchKernel_params*>(params);
            launch.function = p->f;
            launch.grid[0] = p->gridDimX, launch.grid[1] = p->gridDimY, launch.grid[2] = p->gridDimZ;
            launch.block[0] = p->blockDimX, launch.block[1] = p->blockDimY, launch.block[2] = p->blockDimZ;
            launch.dynamicSharedBytes = p->sharedMemBytes;
            launch.stream = p->hStream;
            launch.kernelParams = p->kernelParams;
            launch.extra = p->extra;
            launch.perThreadStream = driverCbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz;
            return launch;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
            const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
            launch.function = p->f;
            launch.grid[0] = p->gridDimX, launch.grid[1] = p->gridDimY, launch.grid[2] = p->gridDimZ;
            launch.block[0] = p->blockDimX, launch.block[1] = p->blockDimY, launch.block[2] = p->blockDimZ;
            launch.dynamicSharedBytes = p->sharedMemBytes;
            launch.stream = p->hStream;
            launch.kernelParams = p->kernelParams;
            launch.perThreadStream = driverCbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
            launch.cooperative = true;
            return launch;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
            const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
            if (!p->config) return std::nullopt;
            launch.function = p->f;
            launch.grid[0] = p->config->gridDimX, launch.grid[1] = p->config->gridDimY, launch.grid[2] = p->config->gridDimZ;
            launch.block[0] = p->config->blockDimX, launch.block[1] = p->config->blockDimY,
            launch.block[2] = p->config->blockDimZ;
            launch.dynamicSharedBytes = p->config->sharedMemBytes;
            launch.stream = p->config->hStream;
            launch.kernelParams = p->kernelParams;
            launch.extra = p->extra;
            launch.config = p->config;
            launch.perThreadStream = driverCbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
            for (unsigned a = 0; p->config->attrs && a < p->config->numAttrs; ++a) {
                if (p->config->attrs[a].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && p->config->attrs[a].value.cooperative) {
                    launch.cooperative = true;
                }
            }
            return launch;
        }
        default:
            return std::nullopt;  // cuLaunch, cuLaunchGrid: deprecated launches
    }
}

}  // namespace gpaprof::cuda
