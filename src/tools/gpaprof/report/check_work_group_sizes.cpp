// Work-group sizes: kernel dispatches that leave the work-group size to the runtime (local size NULL), and
// dispatches whose work-group size is not a multiple of the device's preferred multiple (the wavefront or
// warp size: partly filled wavefronts leave lanes idle). clEnqueueTask is left out: a task is one
// work-item by definition. The preferred multiple comes from, in order:
//  - the trace itself, where the application asked clGetKernelWorkGroupInfo for
//    CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of that kernel object;
//  - the .occupancy file's "Size of wavefront" for that kernel;
//  - for CUDA, the warp size, 32 on every NVIDIA GPU.
// Without any of these only the unspecified-size rule is decided, and the check says so.
#include <algorithm>
#include <map>

#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

constexpr uint64_t kCudaWarpSize = 32;

std::string SizeText(const std::vector<uint64_t>& sizes) {
    std::string text = "{";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? "," : "") + std::to_string(sizes[i]);
    return text + "}";
}

struct PreferredMultiple {
    uint64_t value = 0;
    std::string source;
};

}  // namespace

CheckResult CheckWorkGroupSizes(const CheckInput& input) {
    CheckResult result;
    result.id = "work-group-size";
    result.title = "Work-group sizes";
    result.rule = "Each kernel dispatch should give its work-group (local) size, and that size (the product over the "
                  "dimensions) should be a multiple of the device's preferred multiple (wavefront/warp size).";
    result.advice = "Pass a local work size that is a multiple of CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE "
                    "(the warp size on NVIDIA, the wavefront size on AMD) and pad the global size to match.";
    result.severity = Severity::Advice;

    // Preferred multiples the application queried, by kernel object.
    std::map<std::string, PreferredMultiple> queried;
    for (const HostCall& host : input.timeline.calls) {
        const ApiCall& call = *host.call;
        if (host.api != "ocl" || call.name != "clGetKernelWorkGroupInfo" || call.args.size() < 5) continue;
        if (call.args[2] != "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE" || ClassifyCall(host.api, call).failed) continue;
        std::optional<uint64_t> value = ParseUnsigned(StripBrackets(call.args[4]));
        if (value && *value > 0) {
            queried[call.args[0]] = {*value, "clGetKernelWorkGroupInfo at " + host.Where()};
        }
    }
    std::map<std::string, PreferredMultiple> fromOccupancy;
    if (input.occupancy) {
        for (const OccupancyRow& row : input.occupancy->rows) {
            if (row.waveSize && *row.waveSize > 0 && !fromOccupancy.count(row.kernelName)) {
                fromOccupancy[row.kernelName] = {*row.waveSize, "the .occupancy wavefront size"};
            }
        }
    }

    struct Group {
        std::string api, kernel;
        std::vector<uint64_t> local;
        uint64_t count = 0;
        const HostCall* first = nullptr;
        std::optional<PreferredMultiple> multiple;
    };
    std::vector<Group> groups;
    std::vector<std::string> unknownMultiple;
    bool anyDispatch = false;
    for (size_t index : CallsInTimeOrder(input.timeline)) {
        const HostCall& host = input.timeline.calls[index];
        const ApiCall& call = *host.call;
        if (!call.kernel || ClassifyCall(host.api, call).failed) continue;
        // A task is one work-item by definition (the deprecated-call check speaks about clEnqueueTask).
        if (call.name == "clEnqueueTask") continue;
        anyDispatch = true;
        const KernelLaunch& kernel = *call.kernel;
        auto found = std::find_if(groups.begin(), groups.end(), [&](const Group& group) {
            return group.api == host.api && group.kernel == kernel.kernelName && group.local == kernel.localSize;
        });
        if (found == groups.end()) {
            Group group;
            group.api = host.api;
            group.kernel = kernel.kernelName;
            group.local = kernel.localSize;
            group.first = &host;
            if (auto q = queried.find(kernel.kernelHandle); q != queried.end()) group.multiple = q->second;
            else if (auto o = fromOccupancy.find(kernel.kernelName); o != fromOccupancy.end()) group.multiple = o->second;
            else if (host.api == "cuda") group.multiple = PreferredMultiple{kCudaWarpSize, "the CUDA warp size"};
            groups.push_back(group);
            found = groups.end() - 1;
        }
        ++found->count;
    }
    if (!anyDispatch) {
        result.status = CheckStatus::NotDecidable;
        result.notes.push_back("the trace has no kernel dispatch with launch sizes");
        return result;
    }
    uint64_t total = 0;
    for (const Group& group : groups) {
        const std::string dispatches =
            std::to_string(group.count) + (group.count == 1 ? " dispatch" : " dispatches");
        if (group.local.empty()) {
            total += group.count;
            result.Add(Evidence{group.api, group.first->threadId, group.first->index,
                                "kernel " + group.kernel + ": " + dispatches +
                                    " without a work-group size (local size NULL), the runtime chooses one; first at " +
                                    group.first->Where()});
            continue;
        }
        uint64_t product = 1;
        for (uint64_t size : group.local) product *= size;
        if (!group.multiple) {
            if (std::find(unknownMultiple.begin(), unknownMultiple.end(), group.kernel) == unknownMultiple.end()) {
                unknownMultiple.push_back(group.kernel);
            }
            continue;
        }
        if (product % group.multiple->value != 0) {
            total += group.count;
            result.Add(Evidence{group.api, group.first->threadId, group.first->index,
                                "kernel " + group.kernel + ": " + dispatches + " with work-group " + SizeText(group.local) +
                                    " = " + std::to_string(product) + " work-items, not a multiple of " +
                                    std::to_string(group.multiple->value) + " (preferred multiple from " +
                                    group.multiple->source + "); first at " + group.first->Where()});
        }
    }
    if (!unknownMultiple.empty()) {
        std::string kernels;
        for (const std::string& name : unknownMultiple) kernels += (kernels.empty() ? "" : ", ") + name;
        result.notes.push_back("preferred work-group multiple unknown for " + kernels +
                               " (the trace has no CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE query and no .occupancy "
                               "file was given): only unspecified sizes are checked there");
    }
    if (total) result.occurrences = total;
    return result;
}

}  // namespace gpaprof::report
