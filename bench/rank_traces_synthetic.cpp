#include "rank_traces_synthetic.h"

#include <algorithm>
#include <cstdio>

namespace gpaprof::bench {
namespace {

std::string NcclKernelName() {
    // ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>), mangled as CUDA reports it.
    const std::string base = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
    return "_Z" + std::to_string(base.size()) + base + "24ncclDevKernelArgsStorageILm4096EE";
}

const std::string& Nccl() {
    static const std::string name = NcclKernelName();
    return name;
}

// One kind of kernel: its name, its device time alone (ns) and its launch shape.
struct KernelKind {
    const char* name;
    uint64_t ns;
    uint64_t grid, block;
};

constexpr KernelKind kConvFwd{"sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
                              "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cudnn",
                              62000, 392, 128};
constexpr KernelKind kBnFwd{"_ZN5cudnn17bn_fw_tr_1C11_kernel_NCHWIffiLi512ELb1ELi1EEEv17cudnnTensorStructPKT_S3_PS2_"
                            "PKT0_S9_S7_S7_PS7_S8_S8_S7_S7_",
                            24000, 256, 512};
constexpr KernelKind kRelu{"_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_49_GLOBAL__N__f2bb7d2f_16_Tensor"
                           "Compare_cu_71e06f4e19launch_clamp_scalarERNS_18TensorIteratorBaseEN3c106ScalarES8_NS0_"
                           "6detail11ClampLimitsEENKUlvE_clEvENKUlvE5_clEvEUlfE_St5arrayIPcLm2EEEEviT0_T1_",
                           11000, 3136, 128};
constexpr KernelKind kAdd{"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3EE"
                          "EEviT0_T1_",
                          10000, 3136, 128};
constexpr KernelKind kMaxPool{"_ZN2at6native12_GLOBAL__N_121max_pool_forward_nchwIffEEviPKT_llliiiiiiiiPS3_Pl", 28000,
                              6272, 256};
constexpr KernelKind kMean{"_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7MeanOpsIffffEEjfLi4ELi4EEEEEv"
                           "T1_",
                           7000, 64, 512};
constexpr KernelKind kGemm{"sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize64x64x32_warpgroupsize1x1x1_execute_segment_"
                           "k_off_kernel__5x_cublas",
                           6000, 16, 128};
constexpr KernelKind kSoftMax{"_ZN2at6native43_GLOBAL__N__63a4f1ad_10_SoftMax_cu_9f978f6324cunn_SoftMaxForwardILi4Ef"
                              "ffNS1_25LogSoftMaxForwardEpilogueEEEvPT2_PKT0_i",
                              5000, 32, 1024};
constexpr KernelKind kNllLoss{"_ZN2at6native12_GLOBAL__N_126nll_loss_forward_reduce_cuda_kernel_2dIffiEEvPT_S4_PKS3_P"
                              "KT1_S6_bll",
                              4000, 1, 32};
constexpr KernelKind kConvDgrad{"sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
                                "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cudnn",
                                70000, 392, 128};
constexpr KernelKind kConvWgrad{"sm90_xmma_wgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
                                "warpgroupsize1x1x1_execute_segment_k_on_kernel__5x_cudnn",
                                80000, 196, 256};
constexpr KernelKind kBnBwd{"_ZN5cudnn17bn_bw_1C11_kernel_newIffLi512ELb1ELi1EEEvfffff17cudnnTensorStructPKT_S3_S3_S3_"
                            "PS1_PKT0_PS6_S8_S9_S9_S9_S7_S7_",
                            35000, 256, 512};
constexpr KernelKind kReluBwd{"_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_28threshold_backward_kernelERNS_"
                              "18TensorIteratorBaseERKN3c106ScalarES7_ENKUlvE_clEvENKUlvE5_clEvEUlffE_St5arrayIPcLm3EE"
                              "EEviT0_T1_",
                              12000, 3136, 128};
constexpr KernelKind kMaxPoolBwd{"_ZN2at6native12_GLOBAL__N_122max_pool_backward_nchwIffEEvPKT_PKlillliiiiiiiiPS3_",
                                 30000, 6272, 256};
constexpr KernelKind kBucketCopy{"_ZN2at6native27unrolled_elementwise_kernelIZZZNS0_23direct_copy_kernel_cudaERNS_18T"
                                 "ensorIteratorBaseEENKUlvE1_clEvENKUlvE5_clEvEUlfE_St5arrayIPcLm2EELi4E23TrivialOffs"
                                 "etCalculatorILi1EjESC_NS0_6memory12LoadWithCastILi1EEENSD_13StoreWithCastILi1EEEEEv"
                                 "iT_T0_T2_T3_T4_T5_",
                                 3000, 96, 128};
constexpr KernelKind kScale{"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BUnaryFunctorIfffNS0_10MulFunctorIf"
                            "EEEESt5arrayIPcLm2EEEEviT0_T1_",
                            9000, 1024, 128};
constexpr KernelKind kFill{"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0"
                           "_T1_",
                           2500, 64, 128};
constexpr KernelKind kCountAdd{"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIlEESt5arrayIPcLm3EE"
                               "EEviT0_T1_",
                               1800, 1, 64};
constexpr KernelKind kSgd{"_ZN2at6native12_GLOBAL__N_125multi_tensor_apply_kernelINS1_18TensorListMetadataILi3EEENS1_20"
                          "SGDFunctorIfLi3EEEJffbbbbPfS7_EEEvT_T0_DpT1_",
                          15000, 320, 512};

// ResNet-18's forward pass, layer by layer: conv1, max pool, 8 basic blocks (3 of them with a downsampling
// convolution), average pool and the classifier; each batch norm in training counts its batches first.
std::vector<const KernelKind*> ForwardKernels() {
    std::vector<const KernelKind*> k = {&kConvFwd, &kCountAdd, &kBnFwd, &kRelu, &kMaxPool};
    for (int block = 0; block < 8; ++block) {
        const bool downsample = block == 2 || block == 4 || block == 6;
        k.insert(k.end(), {&kConvFwd, &kCountAdd, &kBnFwd, &kRelu, &kConvFwd, &kCountAdd, &kBnFwd});
        if (downsample) k.insert(k.end(), {&kConvFwd, &kCountAdd, &kBnFwd});
        k.insert(k.end(), {&kAdd, &kRelu});
    }
    k.insert(k.end(), {&kMean, &kGemm, &kAdd, &kSoftMax, &kNllLoss});
    return k;
}

// The backward pass: each forward layer's gradients in reverse order, and DDP copying each of the 62
// parameter gradients into its bucket (spread over the pass).
std::vector<const KernelKind*> BackwardKernels() {
    const std::vector<const KernelKind*> forward = ForwardKernels();
    std::vector<const KernelKind*> k;
    for (auto it = forward.rbegin(); it != forward.rend(); ++it) {
        const KernelKind* layer = *it;
        if (layer == &kConvFwd) k.insert(k.end(), {&kConvDgrad, &kConvWgrad, &kBucketCopy});
        else if (layer == &kBnFwd) k.insert(k.end(), {&kBnBwd, &kBucketCopy, &kBucketCopy});
        else if (layer == &kRelu) k.push_back(&kReluBwd);
        else if (layer == &kMaxPool) k.push_back(&kMaxPoolBwd);
        else if (layer == &kGemm) k.insert(k.end(), {&kGemm, &kGemm, &kMean, &kBucketCopy, &kBucketCopy});
        else if (layer == &kAdd) k.push_back(&kAdd);
    }
    return k;
}

// A reproducible factor in [1 - spread, 1 + spread] from the numbers given.
double Jitter(uint64_t a, uint64_t b, uint64_t c, double spread) {
    uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^ c * 0x94D049BB133111EBull;
    x ^= x >> 31;
    x *= 0xD6E8FEB86659FD93ull;
    x ^= x >> 29;
    const double unit = static_cast<double>(x >> 11) / static_cast<double>(1ull << 53);
    return 1.0 + spread * (2.0 * unit - 1.0);
}

uint64_t Scaled(uint64_t ns, double factor) { return static_cast<uint64_t>(static_cast<double>(ns) * factor + 0.5); }

std::string Hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%016llX", static_cast<unsigned long long>(value));
    return text;
}

constexpr uint64_t kMachineClockOffsetNs = 1234567891011ull;  // between machines' CLOCK_MONOTONIC
constexpr uint64_t kFirstStepNs = 68000000000ull;             // machine 0's clock when step 0 begins
constexpr uint64_t kLaunchLatencyNs = 1500;                   // launch call's end to the earliest device start
constexpr uint64_t kComputeStream = 7, kNcclStream = 13;
constexpr uint32_t kCudaKernelCommand = 1;
constexpr uint32_t kMemcpyHtoD = 17, kMemcpyDtoH = 18;
constexpr uint64_t kBatchBytes = 32ull * 3 * 224 * 224 * 4;
// Gradient bytes per bucket: ResNet-18's 11.7 M parameters, float32, in `buckets` equal parts.
constexpr uint64_t kGradientBytes = 11689512ull * 4;

// One rank, simulated launch by launch. RunPhase/JoinCollective/FinishStep are called in step order; with an
// AtpFile the calls and kernels are recorded, without only the times advance (the first pass that finds when
// each all-reduce ends).
class RankSim {
public:
    RankSim(const SyntheticRanksOptions& options, uint32_t rank, AtpFile* out, SyntheticRankFacts* facts)
        : options_(options), rank_(rank), out_(out), facts_(facts) {
        const uint32_t perMachine = std::max<uint32_t>(1, (options.ranks + options.machines - 1) / options.machines);
        machine_ = rank / perMachine;
        clockOffset_ = machine_ * kMachineClockOffsetNs;
        computeScale_ = options.slowRanks.count(rank) ? 1.0 + options.slowdown : 1.0;
        hostScale_ = options.slowHostRanks.count(rank) ? 1.0 + options.hostSlowdown : 1.0;
        // Ranks start a little apart, as a launcher starts them.
        host_ = kFirstStepNs - 200000000 + Scaled(2000000, Jitter(rank, 0, 1, 1.0));
        mainTid_ = 40000 + rank * 16;
        autogradTid_ = mainTid_ + 3;
        context_ = Hex(0x00005570A0000000ull + rank * 0x100000ull);
        ncclStreamHandle_ = Hex(0x00007F3C10000000ull + rank * 0x1000ull);
        if (out_) {
            ApiTracePart part;
            part.api = "cuda";
            part.threads.push_back(ThreadBlock<ApiCall>{mainTid_, {}});
            part.threads.push_back(ThreadBlock<ApiCall>{autogradTid_, {}});
            out_->parts.push_back(std::move(part));
        }
        if (facts_) facts_->clockOffsetNs = static_cast<int64_t>(clockOffset_);
        thread_ = 0;
        // Start-up: the device, the context, the NCCL stream.
        Call(16, "cudaSetDevice", {"0"}, 900000);
        Call(20, "cudaMalloc", {"[0x00007F3C40000000]", std::to_string(kBatchBytes)}, 300000);
        Call(10282, "cuStreamCreate", {"[" + ncclStreamHandle_ + "]", "1"}, 20000);
    }

    uint64_t RunPhase(uint32_t step, uint32_t bucket) {
        const std::vector<const KernelKind*>& backward = Backward();
        const size_t per = (backward.size() + options_.buckets - 1) / options_.buckets;
        if (bucket == 0) {
            thread_ = 0;
            host_ += Scaled(4000000, Jitter(rank_, step, 2, 0.1) * hostScale_);  // the data loader's next batch
            Copy(41, "cudaMemcpyAsync", kMemcpyHtoD, "CUDA_MEMCPY_HTOD", kBatchBytes, step);
            for (const KernelKind* kind : Forward()) Launch(*kind, step, kComputeStream);
            thread_ = 1;  // loss.backward(): the autograd thread launches the backward pass
            host_ += 30000;
        }
        const size_t first = bucket * per, last = std::min(backward.size(), first + per);
        for (size_t i = first; i < last; ++i) Launch(*backward[i], step, kComputeStream);
        // DDP's hook: the bucket's gradients are scaled, the NCCL stream waits for the compute stream, and
        // NCCL's kernel is launched on it.
        Launch(kScale, step, kComputeStream);
        Call(135, "cudaEventRecord", {Hex(0x00005570B0000000ull + bucket), "0x0000000000000000"}, 1200);
        Call(147, "cudaStreamWaitEvent", {ncclStreamHandle_, Hex(0x00005570B0000000ull + bucket), "0"}, 900);
        const uint64_t ready = std::max(computeFree_, ncclFree_);
        joinCall_ = CallSpan(4000);
        joinStart_ = std::max(ready, joinCall_.second + kLaunchLatencyNs);
        return joinStart_;
    }

    void JoinCollective(uint64_t end) {
        end = std::max(end, joinStart_ + 1000);
        ncclFree_ = end;
        const uint64_t bytes = kGradientBytes / options_.buckets;
        RecordKernel(10652, "cuLaunchKernelEx", {"{" + std::to_string(bytes) + "}", "[" + Hex(0x00005570C0000000ull) + "]"},
                     joinCall_, Nccl(), Hex(0x00005570C0000000ull), joinStart_, end, kNcclStream, 4, 640, true);
        lastCollectiveEnd_ = end;
    }

    void FinishStep(uint32_t step) {
        thread_ = 0;  // backward() returned; DDP makes the compute stream wait for the all-reduces
        host_ += 20000;
        Call(147, "cudaStreamWaitEvent", {"0x0000000000000000", Hex(0x00005570B00000FFull), "0"}, 900);
        computeFree_ = std::max(computeFree_, lastCollectiveEnd_);
        for (int i = 0; i < 4; ++i) Launch(kSgd, step, kComputeStream);
        for (int i = 0; i < 62; ++i) Launch(kFill, step, kComputeStream);  // zero_grad() of the 62 parameters
        Copy(41, "cudaMemcpyAsync", kMemcpyDtoH, "CUDA_MEMCPY_DTOH", 4, step);
        // loss.item(): the host waits for the device.
        const uint64_t start = host_;
        host_ = std::max(host_ + 2000, computeFree_ + 3000);
        RecordCall(131, "cudaStreamSynchronize", {"0x0000000000000000"}, start, host_);
    }

    void Finish() {
        if (!out_) return;
        std::sort(timestamps_.begin(), timestamps_.end(),
                  [](const KernelTimestamp& a, const KernelTimestamp& b) { return a.start < b.start; });
        out_->parts[0].kernelTimestamps = std::move(timestamps_);
    }

private:
    static const std::vector<const KernelKind*>& Forward() {
        static const std::vector<const KernelKind*> kernels = ForwardKernels();
        return kernels;
    }
    static const std::vector<const KernelKind*>& Backward() {
        static const std::vector<const KernelKind*> kernels = BackwardKernels();
        return kernels;
    }

    uint64_t Tid() const { return thread_ == 0 ? mainTid_ : autogradTid_; }

    // The host's time for a call of about `ns`, after a little host work.
    std::pair<uint64_t, uint64_t> CallSpan(uint64_t ns) {
        host_ += Scaled(600, Jitter(rank_, ++serial_, 3, 0.5));
        const uint64_t start = host_;
        host_ += Scaled(ns, Jitter(rank_, serial_, 4, 0.3));
        return {start, host_};
    }

    void RecordCall(uint32_t type, const char* name, std::vector<std::string> args, uint64_t start, uint64_t end,
                    std::optional<CommandTimes> command = std::nullopt, std::optional<KernelLaunch> kernel = std::nullopt,
                    std::optional<uint64_t> transferSize = std::nullopt) {
        if (facts_) ++facts_->calls;
        if (!out_) return;
        ApiCall call;
        call.apiType = type;
        call.name = name;
        call.returnValue = type >= 10000 ? "CUDA_SUCCESS" : "cudaSuccess";
        call.args = std::move(args);
        call.start = start + clockOffset_;
        call.end = end + clockOffset_;
        call.command = std::move(command);
        call.kernel = std::move(kernel);
        call.transferSize = transferSize;
        out_->parts[0].threads[thread_].entries.push_back(std::move(call));
    }

    void Call(uint32_t type, const char* name, std::vector<std::string> args, uint64_t ns) {
        const auto [start, end] = CallSpan(ns);
        RecordCall(type, name, std::move(args), start, end);
    }

    CommandTimes Command(uint32_t type, const char* name, uint64_t stream, uint64_t start, uint64_t end) const {
        CommandTimes command;
        command.commandType = type;
        command.commandName = name;
        command.start = start + clockOffset_;
        command.end = end + clockOffset_;
        command.queueId = stream;
        command.queueHandle = stream == kNcclStream ? ncclStreamHandle_ : "0x0000000000000000";
        command.contextId = 1;
        command.contextHandle = context_;
        command.deviceName = "NVIDIA H200";
        return command;
    }

    void RecordKernel(uint32_t type, const char* call, std::vector<std::string> args, std::pair<uint64_t, uint64_t> span,
                      const std::string& name, const std::string& function, uint64_t start, uint64_t end,
                      uint64_t stream, uint64_t grid, uint64_t block, bool nccl) {
        const uint64_t correlation = ++correlation_;
        if (facts_) {
            ++facts_->kernels;
            facts_->kernelNs += end - start;
            if (nccl) {
                ++facts_->ncclKernels;
                facts_->ncclNs += end - start;
            }
        }
        KernelLaunch launch;
        launch.kernelHandle = function;
        launch.kernelName = name;
        launch.globalSize = {grid * block, 1, 1};
        launch.localSize = {block, 1, 1};
        RecordCall(type, call, std::move(args), span.first, span.second,
                   Command(kCudaKernelCommand, "CUDA_KERNEL", stream, start, end), std::move(launch));
        if (!out_) return;
        KernelTimestamp entry;
        entry.kernelName = name;
        entry.kernelObject = function;
        entry.start = start + clockOffset_;
        entry.end = end + clockOffset_;
        entry.agentName = "NVIDIA H200";
        entry.agentHandle = "0x0";
        entry.queueIndex = stream;
        entry.deviceIndex = 0;
        entry.packetType = "CUDA_KERNEL";
        entry.packetId = correlation;
        entry.packetFields = "{grid={" + std::to_string(grid) + ",1,1},block={" + std::to_string(block) +
                             ",1,1},registers=64,staticShared=0,dynamicShared=0,localPerThread=0,context=1,stream=" +
                             std::to_string(stream) + "}";
        timestamps_.push_back(std::move(entry));
    }

    // One kernel launch the way PyTorch makes it: the calls around it (device queries, error checks, the
    // caching allocator's), then cudaLaunchKernel.
    void Launch(const KernelKind& kind, uint32_t step, uint64_t stream) {
        for (uint32_t i = 1; i < options_.callsPerLaunch; ++i) {
            switch (i % 4) {
                case 0: Call(317, "cudaStreamIsCapturing", {"0x0000000000000000", "[0]"}, 250); break;
                case 1: Call(17, "cudaGetDevice", {"[0]"}, 180); break;
                case 2: Call(10, "cudaGetLastError", {}, 120); break;
                default: Call(17, "cudaGetDevice", {"[0]"}, 180); break;
            }
        }
        const auto span = CallSpan(4200);
        const uint64_t duration = Scaled(kind.ns, Jitter(rank_, step, ++launches_, 0.05) * computeScale_);
        const uint64_t start = std::max(computeFree_, span.second + kLaunchLatencyNs);
        computeFree_ = start + duration;
        const std::string function = Hex(0x00005570D0000000ull + reinterpret_cast<uintptr_t>(&kind) % 0x10000);
        RecordKernel(211, "cudaLaunchKernel",
                     {function, "{" + std::to_string(kind.grid) + ",1,1}", "{" + std::to_string(kind.block) + ",1,1}",
                      "0x00007FFC6D5E3A10", "0", "0x0000000000000000"},
                     span, kind.name, function, start, computeFree_, stream, kind.grid, kind.block, false);
    }

    void Copy(uint32_t type, const char* call, uint32_t command, const char* commandName, uint64_t bytes, uint32_t step) {
        const auto span = CallSpan(6000);
        // 55 GB/s from pinned memory.
        const uint64_t duration = Scaled(bytes * 1000 / 55000 + 2000, Jitter(rank_, step, 5, 0.05));
        const uint64_t start = std::max(computeFree_, span.second + kLaunchLatencyNs);
        computeFree_ = start + duration;
        RecordCall(type, call,
                   {"0x00007F3C40000000", "0x00007F3C80000000", std::to_string(bytes),
                    command == kMemcpyHtoD ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost", "0x0000000000000000"},
                   span.first, span.second, Command(command, commandName, kComputeStream, start, computeFree_),
                   std::nullopt, bytes);
    }

    const SyntheticRanksOptions& options_;
    uint32_t rank_;
    AtpFile* out_;
    SyntheticRankFacts* facts_;
    uint32_t machine_ = 0;
    uint64_t clockOffset_ = 0;
    double computeScale_ = 1.0, hostScale_ = 1.0;
    uint64_t host_ = 0;
    size_t thread_ = 0;
    uint64_t mainTid_ = 0, autogradTid_ = 0;
    std::string context_, ncclStreamHandle_;
    uint64_t computeFree_ = 0, ncclFree_ = 0, lastCollectiveEnd_ = 0;
    std::pair<uint64_t, uint64_t> joinCall_;
    uint64_t joinStart_ = 0;
    uint64_t serial_ = 0, launches_ = 0, correlation_ = 0;
    std::vector<KernelTimestamp> timestamps_;
};

DeviceHeader H200() {
    DeviceHeader device;
    device.name = "NVIDIA H200";
    device.platformVendor = "NVIDIA Corporation";
    device.platformName = "NVIDIA CUDA";
    device.platformVersion = "CUDA 13.0";
    device.driverVersion = "580.159.04";
    device.runtimeVersion = "NA";
    device.boardName = "NVIDIA H200";
    device.pcieDeviceId = "0x233510DE";
    return device;
}

}  // namespace

const char* const kSyntheticNcclKernel = Nccl().c_str();

SyntheticRanks::SyntheticRanks(SyntheticRanksOptions options) : options_(std::move(options)) {
    options_.ranks = std::max<uint32_t>(1, options_.ranks);
    options_.machines = std::clamp<uint32_t>(options_.machines, 1, options_.ranks);
    options_.buckets = std::max<uint32_t>(1, options_.buckets);
    options_.callsPerLaunch = std::max<uint32_t>(1, options_.callsPerLaunch);
    // First pass, all ranks together and nothing recorded: when each all-reduce ends.
    std::vector<RankSim> ranks;
    ranks.reserve(options_.ranks);
    for (uint32_t r = 0; r < options_.ranks; ++r) ranks.emplace_back(options_, r, nullptr, nullptr);
    for (uint32_t step = 0; step < options_.steps; ++step) {
        std::vector<uint64_t> ends;
        for (uint32_t bucket = 0; bucket < options_.buckets; ++bucket) {
            uint64_t last = 0;
            for (RankSim& rank : ranks) last = std::max(last, rank.RunPhase(step, bucket));
            // The ring all-reduce's transfer: 2 (n-1)/n of the bucket at 150 GB/s, plus its start-up.
            const double n = options_.ranks;
            const double bytes = static_cast<double>(kGradientBytes / options_.buckets) * 2.0 * (n - 1) / n;
            const uint64_t end = last + 20000 + static_cast<uint64_t>(bytes / 150.0);
            for (RankSim& rank : ranks) rank.JoinCollective(end);
            ends.push_back(end);
        }
        for (RankSim& rank : ranks) rank.FinishStep(step);
        collectiveEnds_.push_back(std::move(ends));
    }
}

AtpFile SyntheticRanks::Trace(uint32_t rank, SyntheticRankFacts* facts) const {
    AtpFile file;
    SessionInfo& session = file.session;
    session.profilerVersion = "0.1.0";
    session.application = "/usr/bin/python3.12";
    session.applicationArgs = "train.py --arch resnet18 --batch-size 32 --steps " + std::to_string(options_.steps);
    session.workingDirectory = "/home/user/train";
    session.devices.push_back(H200());
    session.osVersion = "Ubuntu 24.04.1 LTS Build 6.8.0";
    session.displayName = "run_" + std::to_string(rank);
    const uint32_t perMachine = std::max<uint32_t>(1, (options_.ranks + options_.machines - 1) / options_.machines);
    if (options_.placeHeaders) {
        char machine[16];
        std::snprintf(machine, sizeof machine, "node%02u", rank / perMachine);
        session.hostName = machine;
        char boot[48];
        std::snprintf(boot, sizeof boot, "5ae1c0de-0000-4000-8000-%012u", rank / perMachine);
        session.clockId = boot;
    }
    if (options_.rankHeader) session.processRank = EnvironmentVariable{"RANK", std::to_string(rank)};
    if (facts) *facts = SyntheticRankFacts{};
    RankSim sim(options_, rank, &file, facts);
    for (uint32_t step = 0; step < options_.steps; ++step) {
        for (uint32_t bucket = 0; bucket < options_.buckets; ++bucket) {
            sim.RunPhase(step, bucket);
            sim.JoinCollective(collectiveEnds_[step][bucket]);
        }
        sim.FinishStep(step);
    }
    sim.Finish();
    return file;
}

}  // namespace gpaprof::bench
