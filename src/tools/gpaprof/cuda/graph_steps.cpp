// The pure parts of a graph program (graph_programs.h): what its steps say, what its kernels' arguments may point
// to. No driver calls, so the host tests link them.
#include "tools/gpaprof/cuda/graph_programs.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpaprof::cuda {

std::string DescribeStep(const GraphStep& step) {
    auto dims = [](const unsigned (&d)[3]) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    std::string text;
    switch (step.kind) {
        case GraphStepKind::Kernel: {
            text = "kernel node " + std::to_string(step.cuptiNodeId) + " " + (step.name.empty() ? "(unnamed)" : step.name) +
                   ": grid " + dims(step.launch.grid) + ", block " + dims(step.launch.block) + ", " +
                   std::to_string(step.launch.sharedBytes) + " B shared, " + std::to_string(step.launch.arguments.size()) +
                   " B of arguments";
            for (const CUlaunchAttribute& attribute : step.launch.attributes) {
                if (attribute.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
                    const auto& c = attribute.value.clusterDim;
                    text += ", cluster " + std::to_string(c.x) + "x" + std::to_string(c.y) + "x" + std::to_string(c.z);
                } else if (attribute.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
                    text += ", cooperative";
                } else if (attribute.id == CU_LAUNCH_ATTRIBUTE_PRIORITY) {
                    text += ", priority " + std::to_string(attribute.value.priority);
                } else {
                    text += ", attribute " + std::to_string(static_cast<int>(attribute.id));
                }
            }
            break;
        }
        case GraphStepKind::Memcpy: {
            auto type = [](CUmemorytype t) -> std::string {
                switch (t) {
                    case CU_MEMORYTYPE_HOST: return "host";
                    case CU_MEMORYTYPE_DEVICE: return "device";
                    case CU_MEMORYTYPE_ARRAY: return "array";
                    case CU_MEMORYTYPE_UNIFIED: return "unified";
                    default: return "memory type " + std::to_string(static_cast<int>(t));
                }
            };
            const CUDA_MEMCPY3D& c = step.copy;
            text = "memcpy node " + std::to_string(step.cuptiNodeId) + ": " + type(c.srcMemoryType) + " to " +
                   type(c.dstMemoryType) + ", " + std::to_string(c.WidthInBytes) + " B x " + std::to_string(c.Height) +
                   " x " + std::to_string(c.Depth) + ", pitches " + std::to_string(c.srcPitch) + "/" +
                   std::to_string(c.dstPitch);
            break;
        }
        case GraphStepKind::Memset: {
            const CUDA_MEMSET_NODE_PARAMS& m = step.set;
            text = "memset node " + std::to_string(step.cuptiNodeId) + ": " + std::to_string(m.width) + " x " +
                   std::to_string(m.height) + " elements of " + std::to_string(m.elementSize) + " B, pitch " +
                   std::to_string(m.pitch);
            break;
        }
        case GraphStepKind::Skip: text = "node " + std::to_string(step.cuptiNodeId) + " (nothing to run again)"; break;
    }
    if (!step.enabled) text += ", disabled";
    return text;
}

size_t GraphProgram::Kernels() const {
    return static_cast<size_t>(std::count_if(steps.begin(), steps.end(), [](const GraphStep& step) {
        return step.kind == GraphStepKind::Kernel && step.enabled;
    }));
}

std::vector<uint64_t> GraphProgram::ArgumentWords() const {
    std::vector<uint64_t> words;
    for (const GraphStep& step : steps) {
        if (!step.enabled) continue;
        if (step.kind == GraphStepKind::Memset) words.push_back(step.set.dst);
        if (step.kind != GraphStepKind::Kernel) continue;
        const std::vector<uint64_t> more = cuda::ArgumentWords(step.launch.arguments, step.launch.argumentOffsets);
        words.insert(words.end(), more.begin(), more.end());
    }
    return words;
}

}  // namespace gpaprof::cuda
