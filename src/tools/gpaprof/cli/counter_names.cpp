#include "tools/gpaprof/cli/counter_names.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

#include "tools/gpaprof/opencl/opencl_counters.h"
#if GPAPROF_KNOWS_LAYER_COUNTERS
#include "layers/opencl/layer_counters.h"
#endif
#if GPAPROF_KNOWS_CUDA_COUNTERS
#include "backends/cuda/gpa_compute_counters.h"
#endif

namespace gpaprof::cli {
namespace {

std::string Lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

size_t EditDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
    const std::string lower = Lower(name);
    return std::any_of(names.begin(), names.end(), [&](const std::string& known) { return Lower(known) == lower; });
}

}  // namespace

std::vector<std::string> KnownCounterNames() {
    std::vector<std::string> names;
    for (const auto& counter : ocl::OpenClDerivedCounters()) names.push_back(counter.name);
#if GPAPROF_KNOWS_LAYER_COUNTERS
    for (const auto& counter : gpa::cl_layer::AllCounters()) names.push_back(counter.name);
#endif
#if GPAPROF_KNOWS_CUDA_COUNTERS
    for (const auto& counter : gpa::cuda::GpaComputeCounterTable()) names.push_back(counter.name);
    for (const auto& absent : gpa::cuda::AbsentGpaCounters()) names.push_back(absent.name);
#endif
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

bool LooksLikeNvidiaMetric(const std::string& name) { return name.find("__") != std::string::npos; }

std::vector<std::string> NearestCounterNames(const std::string& name, const std::vector<std::string>& known, size_t most) {
    const std::string lower = Lower(name);
    // A slip of a letter or two in a short name; more in a long one.
    const size_t bound = std::max<size_t>(2, lower.size() / 3);
    std::vector<std::pair<size_t, std::string>> near;
    for (const std::string& candidate : known) {
        const size_t distance = EditDistance(lower, Lower(candidate));
        if (distance <= bound) near.emplace_back(distance, candidate);
    }
    std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> nearest;
    for (const auto& [distance, candidate] : near) {
        if (nearest.size() == most) break;
        if (std::find(nearest.begin(), nearest.end(), candidate) == nearest.end()) nearest.push_back(candidate);
    }
    return nearest;
}

std::string UnknownCounterNames(const std::vector<std::string>& requested, const std::vector<std::string>& known,
                                const std::function<std::vector<std::string>()>& deviceNames) {
    std::vector<std::string> unknown;
    for (const std::string& name : requested) {
        if (!Contains(known, name) && !LooksLikeNvidiaMetric(name) && !Contains(unknown, name)) unknown.push_back(name);
    }
    if (unknown.empty()) return {};
    std::vector<std::string> offered = known;
    if (deviceNames) {
        const std::vector<std::string> device = deviceNames();
        std::erase_if(unknown, [&](const std::string& name) { return Contains(device, name); });
        offered.insert(offered.end(), device.begin(), device.end());
    }
    if (unknown.empty()) return {};
    std::string message;
    for (const std::string& name : unknown) {
        if (!message.empty()) message += "; ";
        message += "no API gpaprof profiles has a counter named '" + name + "'";
        const std::vector<std::string> nearest = NearestCounterNames(name, offered);
        for (size_t i = 0; i < nearest.size(); ++i) {
            message += (i == 0 ? " (did you mean " : i + 1 == nearest.size() ? " or " : ", ") + nearest[i];
        }
        if (!nearest.empty()) message += "?)";
    }
    return "--counters: " + message +
           ". The lists: `gpaprof -l` (OpenCL devices of this machine), `gpa-counters --chip GH100` (the CUDA counters "
           "of a chip, and --hardware for NVIDIA metric names, which are taken as ncu spells them, with '__'). "
           "The application was not started";
}

}  // namespace gpaprof::cli
