"""NCCL all-reduce across GPUs for gpaprof's multi-GPU runs (issue 12, tools/device/gpu_gpaprof_multi_gpu.sh).

Two shapes, each a few steps of a matrix product on every GPU followed by an all-reduce of its result, the sum
checked against the value every rank can compute by itself:

    torchrun --nproc_per_node 2 nccl_allreduce.py [--steps N]      one process per GPU (torch.distributed, NCCL)
    python3 nccl_allreduce.py --single-process [--steps N]         one process, one thread, every GPU (CuPy's
                                                                   NCCL: ncclCommInitAll, grouped calls)

In the single-process shape one thread launches the collective on device 0 and then on device 1 inside one NCCL
group: the kernel on device 0 waits for the one on device 1, so a profiler that holds the thread in the first
launch until its kernel ends deadlocks (the script then never prints its result; the caller's timeout ends it).

Keep NVLink multicast off (NCCL_NVLS_ENABLE=0) on shared machines. Prints
"nccl_allreduce: <shape> ranks=R steps=N sum correct" and exits 0, or exits 1 with the wrong sum.
"""
import argparse
import os
import sys

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")


def expected_sum(ranks, step, n):
    # rank r contributes (r + 1 + step) * n per element (a ones(n, n) @ full(r + 1 + step) product).
    return sum(float((r + 1 + step) * n) for r in range(ranks))


def torchrun_shape(steps, n):
    import torch
    import torch.distributed as dist
    dist.init_process_group("nccl")
    rank, ranks = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    ones = torch.ones(n, n, device="cuda")
    for step in range(steps):
        part = ones @ torch.full((n, n), float(rank + 1 + step), device="cuda")
        dist.all_reduce(part)
        got = part[0, 0].item()
        if got != expected_sum(ranks, step, n):
            print(f"nccl_allreduce: torchrun rank {rank} step {step}: sum {got}, expected {expected_sum(ranks, step, n)}")
            sys.exit(1)
    dist.barrier()
    if rank == 0:
        print(f"nccl_allreduce: torchrun ranks={ranks} steps={steps} sum correct", flush=True)
    dist.destroy_process_group()


def single_process_shape(steps, n):
    import cupy
    from cupy.cuda import nccl
    ranks = cupy.cuda.runtime.getDeviceCount()
    comms = nccl.NcclCommunicator.initAll(list(range(ranks)))
    buffers, streams = [], []
    for rank in range(ranks):
        with cupy.cuda.Device(rank):
            buffers.append(cupy.ones((n, n), dtype=cupy.float32))
            streams.append(cupy.cuda.Stream(non_blocking=True))
    for step in range(steps):
        parts = []
        for rank in range(ranks):
            with cupy.cuda.Device(rank), streams[rank]:
                parts.append(buffers[rank] @ cupy.full((n, n), float(rank + 1 + step), dtype=cupy.float32))
        nccl.groupStart()
        for rank in range(ranks):
            with cupy.cuda.Device(rank):
                comms[rank].allReduce(parts[rank].data.ptr, parts[rank].data.ptr, parts[rank].size,
                                      nccl.NCCL_FLOAT32, nccl.NCCL_SUM, streams[rank].ptr)
        nccl.groupEnd()
        for rank in range(ranks):
            with cupy.cuda.Device(rank):
                streams[rank].synchronize()
                got = float(parts[rank][0, 0].get())
                if got != expected_sum(ranks, step, n):
                    print(f"nccl_allreduce: single-process device {rank} step {step}: sum {got}, "
                          f"expected {expected_sum(ranks, step, n)}")
                    sys.exit(1)
    print(f"nccl_allreduce: single-process ranks={ranks} steps={steps} sum correct", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--single-process", action="store_true")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--size", type=int, default=256)
    args = parser.parse_args()
    if args.single_process:
        single_process_shape(args.steps, args.size)
    else:
        torchrun_shape(args.steps, args.size)


if __name__ == "__main__":
    main()
