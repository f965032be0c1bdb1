// The table of GPA compute counters on NVIDIA metrics. Start from the seed's descriptions; say how NVIDIA
// measures each and, where the NVIDIA value is only an analog, begin that note with "APPROXIMATION".
#include "backends/cuda/gpa_compute_counters.h"

#include <set>

#include "counters/expression.h"

namespace gpa::cuda {

namespace {

// Instruction classes shared by several formulas. Vector ALU = the alu (integer, logic, conversions), fma
// (FP32; on Hopper and Ampere-GA10x also FP16), fp16 (a separate pipe on Volta, Turing and GA100), fp64
// and xu (transcendentals) pipes. fmaheavy/fmalite/fma_type_fp16 are parts of fma and never added.
#define VALU_FP16 \
    "smsp__inst_executed_pipe_alu.sum + smsp__inst_executed_pipe_fma.sum + smsp__inst_executed_pipe_fp16.sum + " \
    "smsp__inst_executed_pipe_fp64.sum + smsp__inst_executed_pipe_xu.sum"
#define VALU \
    "smsp__inst_executed_pipe_alu.sum + smsp__inst_executed_pipe_fma.sum + smsp__inst_executed_pipe_fp64.sum + " \
    "smsp__inst_executed_pipe_xu.sum"
#define VALU_THREADS_FP16                                                                                     \
    "smsp__thread_inst_executed_pipe_alu_pred_on.sum + smsp__thread_inst_executed_pipe_fma_pred_on.sum + "    \
    "smsp__thread_inst_executed_pipe_fp16_pred_on.sum + smsp__thread_inst_executed_pipe_fp64_pred_on.sum + "  \
    "smsp__thread_inst_executed_pipe_xu_pred_on.sum"
#define VALU_THREADS                                                                                        \
    "smsp__thread_inst_executed_pipe_alu_pred_on.sum + smsp__thread_inst_executed_pipe_fma_pred_on.sum + "  \
    "smsp__thread_inst_executed_pipe_fp64_pred_on.sum + smsp__thread_inst_executed_pipe_xu_pred_on.sum"
// Generic (FLAT) instructions that resolved to shared memory: SASS instrumentation counts every instruction
// that accessed shared memory, the hardware counts only shared-space (LDS/STS/ATOMS) instructions.
#define FLAT_LDS                                                                                             \
    "max(0, smsp__sass_inst_executed_op_shared_ld.sum + smsp__sass_inst_executed_op_shared_st.sum + "       \
    "smsp__sass_inst_executed_op_shared_atom.sum - smsp__inst_executed_op_shared_ld.sum - "                  \
    "smsp__inst_executed_op_shared_st.sum - smsp__inst_executed_op_shared_atom.sum)"
#define WARPS "smsp__warps_launched.sum"

const std::vector<GpaComputeCounter> kTable = {
    // ---- Timing ---------------------------------------------------------------------------------------
    {"GPUTime", "Timing", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_MILLISECONDS,
     "Time, in milliseconds, this API call took to execute on the GPU. NVIDIA: gpu__time_duration.sum of the "
     "sample's range, converted from nanoseconds; a sample spanning several launches also counts the time "
     "between them.",
     {{"gpu__time_duration.sum / 1000000"}}},
    {"GPUBusy", "Timing", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of time GPU was busy. NVIDIA: cycles the graphics/compute engine (GR) was active over the "
     "cycles elapsed in the sample (gr__cycles_active.avg.pct_of_peak_sustained_elapsed); about 100% for a "
     "sample that holds one kernel.",
     {{"gr__cycles_active.avg.pct_of_peak_sustained_elapsed"}}},

    // ---- General --------------------------------------------------------------------------------------
    {"Wavefronts", "General", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS,
     "Total wavefronts. NVIDIA: warps launched (smsp__warps_launched.sum). A warp is 32 threads, so a grid has "
     "about twice as many warps as 64-wide wavefronts.",
     {{WARPS}}},
    {"VALUInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of vector ALU instructions executed per work-item (affected by flow control). NVIDIA: "
     "warp instructions issued to the integer/logic (alu), FP32 (fma), FP16, FP64, transcendental (xu) and "
     "tensor pipes, per warp launched (GPA's per-work-item instruction counts are per wavefront).",
     {{"(" VALU_FP16 " + smsp__inst_executed_pipe_tensor.sum) / " WARPS},
      {"(" VALU " + smsp__inst_executed_pipe_tensor.sum) / " WARPS}}},
    {"SALUInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of scalar ALU instructions executed per work-item (affected by flow control). "
     "APPROXIMATION: NVIDIA GPUs have no scalar ALU; this counts instructions of the uniform datapath "
     "(smsp__inst_executed_pipe_uniform.sum per warp), its closest analog. NVIDIA's compiler uses it far less "
     "than AMD's compilers use the scalar ALU, so values run low.",
     {{"smsp__inst_executed_pipe_uniform.sum / " WARPS}}},
    {"VFetchInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of vector fetch instructions from the video memory executed per work-item (affected by "
     "flow control). NVIDIA: global, local, texture and surface loads and global-to-shared copies (LDG, LDL, "
     "TEX, SULD, LDGSTS) per warp; generic (FLAT) loads are counted by FlatVMemInsts.",
     {{"(smsp__inst_executed_op_global_ld.sum + smsp__inst_executed_op_local_ld.sum + "
       "smsp__inst_executed_op_ldgsts.sum + smsp__inst_executed_op_texture.sum + "
       "smsp__inst_executed_op_surface_ld.sum) / " WARPS},
      {"(smsp__inst_executed_op_global_ld.sum + smsp__inst_executed_op_local_ld.sum + "
       "smsp__inst_executed_op_texture.sum + smsp__inst_executed_op_surface_ld.sum) / " WARPS}}},
    {"SFetchInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of scalar fetch instructions from the video memory executed per work-item (affected by "
     "flow control). APPROXIMATION: NVIDIA GPUs read kernel parameters and constants mostly as instruction "
     "operands, with no load instruction; this counts only explicit constant loads (LDC, "
     "smsp__inst_executed_op_ldc.sum per warp), so values run low.",
     {{"smsp__inst_executed_op_ldc.sum / " WARPS}}},
    {"VWriteInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of vector write instructions to the video memory executed per work-item (affected by "
     "flow control). NVIDIA: global, local and surface stores (STG, STL, SUST) per warp; generic (FLAT) stores "
     "are counted by FlatVMemInsts, atomics and reductions are not counted.",
     {{"(smsp__inst_executed_op_global_st.sum + smsp__inst_executed_op_local_st.sum + "
       "smsp__inst_executed_op_surface_st.sum) / " WARPS}}},
    {"FlatVMemInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of FLAT instructions that read from or write to the video memory executed per work "
     "item (affected by flow control). Includes FLAT instructions that read from or write to scratch. NVIDIA: "
     "generic-address loads, stores and atomics (LD, ST, ATOM: NVIDIA's FLAT instructions) per warp, less those "
     "that resolved to shared memory (FlatLDSInsts). Collecting it instruments the kernel's SASS. For kernels a "
     "sample runs through a CUDA graph launch it includes those that resolved to shared memory (FlatLDSInsts "
     "reads 0 for them).",
     {{"(smsp__inst_executed_op_generic_ld.sum + smsp__inst_executed_op_generic_st.sum + "
       "smsp__inst_executed_op_generic_atom.sum - " FLAT_LDS ") / " WARPS}}},
    {"VALUUtilization", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of active vector ALU threads in a wave. A lower number can mean either more thread "
     "divergence in a wave or that the work-group size is not a multiple of the wave size. Value range: 0% "
     "(bad), 100% (ideal - no thread divergence). NVIDIA: threads predicated on per vector-ALU warp instruction "
     "(alu, fma, FP16, FP64, xu pipes), over the 32 threads of a warp.",
     {{"100 * (" VALU_THREADS_FP16 ") / (32 * (" VALU_FP16 "))"}, {"100 * (" VALU_THREADS ") / (32 * (" VALU "))"}}},
    {"VALUBusy", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of GPUTime vector ALU instructions are processed. Value range: 0% (bad) to 100% (optimal). "
     "APPROXIMATION: the share of warp-scheduler issue slots (one instruction per cycle per scheduler) that "
     "issued a vector-ALU instruction (alu, fma, FP16, FP64, xu pipes) over the sample's elapsed cycles; the "
     "slower pipes (FP64, xu) are not weighted by their lower rates.",
     {{"min(100, 100 * (" VALU_FP16 ") / smsp__cycles_elapsed.sum)"}, {"min(100, 100 * (" VALU ") / smsp__cycles_elapsed.sum)"}}},
    {"SALUBusy", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of GPUTime scalar ALU instructions are processed. Value range: 0% (bad) to 100% (optimal). "
     "APPROXIMATION: the share of warp-scheduler issue slots that issued a uniform-datapath instruction, the "
     "closest NVIDIA analog of the scalar ALU (see SALUInsts).",
     {{"min(100, 100 * smsp__inst_executed_pipe_uniform.sum / smsp__cycles_elapsed.sum)"}}},

    // ---- GlobalMemory ---------------------------------------------------------------------------------
    {"FetchSize", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_KILOBYTES,
     "The total kilobytes fetched from the video memory. This is measured with all extra fetches and any cache "
     "or memory effects taken into account. NVIDIA: bytes read from device memory (dram__bytes_read.sum) / 1024.",
     {{"dram__bytes_read.sum / 1024"}}},
    {"WriteSize", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_KILOBYTES,
     "The total kilobytes written to the video memory. This is measured with all extra fetches and any cache or "
     "memory effects taken into account. NVIDIA: bytes written to device memory (dram__bytes_write.sum) / 1024; "
     "data the L2 cache still holds when the sample ends is written, and counted, later.",
     {{"dram__bytes_write.sum / 1024"}}},
    {"CacheHit", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of fetch, write, atomic, and other instructions that hit the data cache. Value range: 0% "
     "(no hit) to 100% (optimal). NVIDIA: the L2 request hit rate (lts__t_request_hit_rate.pct), the same value "
     "as L2CacheHit; GPA named the L2 hit rate CacheHit on GPUs without separate L1 and L2 counters.",
     {{"lts__t_request_hit_rate.pct"}}},
    {"L1CacheHit", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of fetch, write, atomic, and other instructions that hit the data in L1 cache. Value range: "
     "0% (no hit) to 100% (optimal). NVIDIA: the L1TEX sector hit rate (l1tex__t_sector_hit_rate.pct) over "
     "global, local, texture and surface accesses, at 32-byte sector granularity.",
     {{"l1tex__t_sector_hit_rate.pct"}}},
    {"L2CacheHit", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of fetch, write, atomic, and other instructions that hit the data in L2 cache. Value range: "
     "0% (no hit) to 100% (optimal). NVIDIA: the L2 request hit rate over all requests reaching L2 "
     "(lts__t_request_hit_rate.pct).",
     {{"lts__t_request_hit_rate.pct"}}},
    {"MemUnitBusy", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of GPUTime the memory unit is active. The result includes the stall time (MemUnitStalled). "
     "This is measured with all extra fetches and writes and any cache or memory effects taken into account. "
     "Value range: 0% to 100% (fetch-bound). APPROXIMATION: the L1TEX unit's throughput, averaged over the SMs, "
     "in percent of its peak over the elapsed cycles (l1tex__throughput.avg.pct_of_peak_sustained_elapsed: the "
     "busiest of its request, tag and data stages); unlike GPA's it does not count stall time, so a kernel that "
     "waits on device memory reads well under 100% here and high in MemUnitStalled.",
     {{"l1tex__throughput.avg.pct_of_peak_sustained_elapsed"}}},
    {"MemUnitStalled", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of GPUTime the memory unit is stalled. Try reducing the number or size of fetches and "
     "writes if possible. Value range: 0% (optimal) to 100% (bad). APPROXIMATION: cycles the busiest SM's L1TEX "
     "unit was held back sending requests to L2 (l1tex__m_l1tex2xbar_req_cycles_stalled.max over "
     "l1tex__cycles_elapsed.max), whereas GPA measured the data path from the texture cache.",
     {{"100 * l1tex__m_l1tex2xbar_req_cycles_stalled.max / l1tex__cycles_elapsed.max"}}},

    // ---- LocalMemory ----------------------------------------------------------------------------------
    {"LDSInsts", "LocalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of LDS read or LDS write instructions executed per work item (affected by flow "
     "control). NVIDIA: shared-memory loads, stores and atomics and matrix loads/stores (LDS, STS, ATOMS, LDSM, "
     "STSM) per warp; generic (FLAT) accesses to shared memory are counted by FlatLDSInsts.",
     {{"(smsp__inst_executed_op_shared_ld.sum + smsp__inst_executed_op_shared_st.sum + "
       "smsp__inst_executed_op_shared_atom.sum + smsp__inst_executed_op_ldsm.sum + "
       "smsp__inst_executed_op_shared_stsm.sum) / " WARPS},
      {"(smsp__inst_executed_op_shared_ld.sum + smsp__inst_executed_op_shared_st.sum + "
       "smsp__inst_executed_op_shared_atom.sum + smsp__inst_executed_op_ldsm.sum) / " WARPS},
      {"(smsp__inst_executed_op_shared_ld.sum + smsp__inst_executed_op_shared_st.sum + "
       "smsp__inst_executed_op_shared_atom.sum) / " WARPS}}},
    {"FlatLDSInsts", "LocalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS,
     "The average number of FLAT instructions that read from or write to LDS executed per work item (affected by "
     "flow control). NVIDIA: generic-address loads, stores and atomics that resolved to shared memory, per warp: "
     "SASS-instrumented counts of instructions that accessed shared memory less the hardware counts of "
     "shared-space instructions (LDS, STS, ATOMS). Collecting it instruments the kernel's SASS. Kernels a sample "
     "runs through a CUDA graph launch are not instrumented: their share reads 0 (on an H200, 2026-11-28), and "
     "FlatVMemInsts counts their accesses.",
     {{FLAT_LDS " / " WARPS}}},
    {"LDSBankConflict", "LocalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE,
     "The percentage of GPUTime LDS is stalled by bank conflicts. NVIDIA: the extra shared-memory data cycles "
     "caused by bank conflicts (l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum) over the L1TEX cycles "
     "elapsed, both summed over all SMs.",
     {{"100 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum / l1tex__cycles_elapsed.sum"}}},

    // ---- ComputeShader --------------------------------------------------------------------------------
    {"CSThreadGroups", "ComputeShader", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS,
     "Total number of thread groups. NVIDIA: thread blocks (CTAs) launched (sm__ctas_launched.sum).",
     {{"sm__ctas_launched.sum"}}},
    {"CSThreads", "ComputeShader", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS,
     "The number of CS threads processed by the hardware. NVIDIA: threads launched (smsp__threads_launched.sum).",
     {{"smsp__threads_launched.sum"}}},
};

const std::vector<AbsentCounter> kAbsent = {
    {"GDSInsts",
     "NVIDIA GPUs have no global data share (GDS). The l1tex__*_gds metrics count global and distributed-shared "
     "traffic, which is not GDS; a zero would be invented, so the counter is absent."},
    {"WriteUnitStalled",
     "NVIDIA exposes no counter of stalls between the L2 cache and device memory on writes; write-bandwidth "
     "utilisation (fbpa__dram_write_throughput) measures how busy writes are, not how long they stall."},
};

}  // namespace

const std::vector<GpaComputeCounter>& GpaComputeCounterTable() { return kTable; }
const std::vector<AbsentCounter>& AbsentGpaCounters() { return kAbsent; }

std::vector<std::string> MetricsReadByGpaCounters() {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const GpaComputeCounter& counter : kTable) {
        for (const GpaCounterFormula& formula : counter.formulas) {
            for (std::string& name : Expression::Identifiers(formula.expression)) {
                if (seen.insert(name).second) names.push_back(std::move(name));
            }
        }
    }
    return names;
}

std::vector<DerivedCounterDefinition> GpaComputeCounters(const std::function<bool(std::string_view)>& hasMetric) {
    std::vector<DerivedCounterDefinition> definitions;
    definitions.reserve(kTable.size());
    for (const GpaComputeCounter& counter : kTable) {
        const GpaCounterFormula* chosen = &counter.formulas.front();
        for (const GpaCounterFormula& formula : counter.formulas) {
            bool complete = true;
            for (const std::string& name : Expression::Identifiers(formula.expression)) {
                if (!hasMetric(name)) {
                    complete = false;
                    break;
                }
            }
            if (complete) {
                chosen = &formula;
                break;
            }
        }
        definitions.push_back({counter.name, counter.group, counter.description, counter.type, counter.usage,
                               chosen->expression});
    }
    return definitions;
}

}  // namespace gpa::cuda
