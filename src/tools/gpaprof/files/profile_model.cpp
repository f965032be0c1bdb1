#include "tools/gpaprof/files/profile_model.h"

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {

WorkSize WorkSize::Of(std::initializer_list<uint64_t> values) {
    WorkSize work;
    for (uint64_t value : values) {
        if (work.dims == 3) break;
        work.size[work.dims++] = value;
    }
    return work;
}

std::string MethodName::ToString() const {
    std::string text = kernel + "__k" + std::to_string(kernelId) + "_" + device;
    if (deviceIndex) text += std::to_string(*deviceIndex);
    return text;
}

std::optional<MethodName> MethodName::Parse(const std::string& text, const std::vector<std::string>& deviceNames) {
    // The kernel name may itself contain "__k", so the last occurrence that parses wins.
    size_t at = text.rfind("__k");
    while (at != std::string::npos) {
        size_t digitsEnd = at + 3;
        while (digitsEnd < text.size() && text[digitsEnd] >= '0' && text[digitsEnd] <= '9') ++digitsEnd;
        if (digitsEnd > at + 3 && digitsEnd < text.size() && text[digitsEnd] == '_' && at > 0) {
            std::optional<uint64_t> id = ParseUnsigned(std::string_view(text).substr(at + 3, digitsEnd - at - 3));
            std::string device = text.substr(digitsEnd + 1);
            if (id && *id <= UINT32_MAX && !device.empty()) {
                MethodName method;
                method.kernel = text.substr(0, at);
                method.kernelId = static_cast<uint32_t>(*id);
                size_t known = 0;  // the longest device name of the headers followed by an index alone
                for (const std::string& name : deviceNames) {
                    if (name.size() > known && name.size() < device.size() && device.compare(0, name.size(), name) == 0 &&
                        device.size() - name.size() <= 9 &&
                        device.find_first_not_of("0123456789", name.size()) == std::string::npos) {
                        known = name.size();
                    }
                }
                if (known > 0) {
                    method.deviceIndex = static_cast<uint32_t>(std::stoul(device.substr(known)));
                    device.resize(known);
                } else if (device != "CPU") {
                    size_t digits = device.size();
                    while (digits > 0 && device[digits - 1] >= '0' && device[digits - 1] <= '9') --digits;
                    if (digits < device.size() && digits > 0 && device.size() - digits <= 9) {
                        method.deviceIndex = static_cast<uint32_t>(std::stoul(device.substr(digits)));
                        device.resize(digits);
                    }
                }
                method.device = device;
                return method;
            }
        }
        if (at == 0) break;
        at = text.rfind("__k", at - 1);
    }
    return std::nullopt;
}

std::string ExcludedApisKeyPrefix(const std::string& api) {
    if (api == "ocl") return "CL";
    if (api == "hsa") return "HSA";
    if (api == "cuda") return "CUDA";
    std::string upper = api;
    for (char& c : upper) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return upper;
}

OccupancyLimiter LimitingResource(const OccupancyRow& row) {
    OccupancyLimiter limiter = OccupancyLimiter::None;
    std::optional<uint64_t> least;
    const std::pair<OccupancyLimiter, std::optional<uint64_t>> candidates[] = {
        {OccupancyLimiter::Vgpr, row.vgprLimitedWaves},
        {OccupancyLimiter::Sgpr, row.sgprLimitedWaves},
        {OccupancyLimiter::Lds, row.ldsLimitedWaves},
        {OccupancyLimiter::WorkGroup, row.workGroupLimitedWaves},
    };
    for (const auto& [resource, waves] : candidates) {
        if (waves && (!least || *waves < *least)) {
            least = waves;
            limiter = resource;
        }
    }
    return limiter;
}

const char* OccupancyLimiterName(OccupancyLimiter limiter) {
    switch (limiter) {
        case OccupancyLimiter::Vgpr: return "registers (VGPR)";
        case OccupancyLimiter::Sgpr: return "scalar registers (SGPR)";
        case OccupancyLimiter::Lds: return "local memory (LDS)";
        case OccupancyLimiter::WorkGroup: return "work-group slots";
        case OccupancyLimiter::None: break;
    }
    return "none known";
}

}  // namespace gpaprof
