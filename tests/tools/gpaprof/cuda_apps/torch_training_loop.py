"""A PyTorch training loop for gpaprof's repeated-run test (tools/device/gpu_gpaprof_repeat.sh): torchvision's
ResNet-18 (random weights, random data), a few SGD steps, then it prints the loss and returns from the script
without synchronising or freeing anything, as training scripts do. With --graph the step is captured into a
CUDA graph (PyTorch's whole-network capture: 3 warm-up steps on a side stream, one captured step) and the graph
is replayed N times, as programs that cut launch overhead do. With --workers W the batches come from a DataLoader
with W worker processes (forked from the process that already uses CUDA; they use none) into pinned memory (a
thread of the main process pins them), copied to the GPU without waiting, as training scripts load their data.
With --ddp (under torchrun) each rank takes the GPU of its LOCAL_RANK, joins the NCCL process group and
trains the model wrapped in DistributedDataParallel (its gradients all-reduced over NCCL every step), as data-parallel
training does; the loss line is printed by every rank, with rank=R. With --compile the model is compiled with torch.compile(mode="reduce-overhead") (TorchInductor's kernels, run from
CUDA graphs that PyTorch records after a warm-up): 2 compiled steps (compilation, warm-up and recording), then N
steps that replay the graphs. Where compiling is not possible here (no torch.compile, no triton, no C compiler,
no Python headers, or the compiler fails), it says why on one line starting "torch_training_loop: --compile not
possible:" and exits 0.

    python3 torch_training_loop.py [--model resnet18|convnet] [--steps N] [--batch B] [--graph] [--compile]
                                   [--workers W] [--ddp]
    prints: torch_training_loop model=M steps=N batch=B loss=L  (graph=1 after batch with --graph, compile=1 with
    --compile, workers=W with --workers; loop_seconds=S, the steps' time from the end of the set-up to the last
    loss, compiling included with --compile)
"""
import argparse
import os
import shutil
import sysconfig
import time

import torch


def compile_unavailable():
    """Why torch.compile(mode="reduce-overhead") cannot work here, or None."""
    if not hasattr(torch, "compile"):
        return f"this PyTorch ({torch.__version__}) has no torch.compile"
    try:
        import triton  # noqa: F401  (TorchInductor's GPU kernels are triton kernels)
    except ImportError as error:
        return f"triton is not installed ({error})"
    compiler = os.environ.get("CC") or "cc"
    if not (shutil.which(compiler) or shutil.which("gcc") or shutil.which("clang")):
        return f"no C compiler ({compiler}, gcc, clang): triton builds its kernel launcher with one"
    include = sysconfig.get_paths().get("include", "")
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"no Python headers ({include}/Python.h): triton builds its kernel launcher against them"
    return None


def convnet():
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(), torch.nn.Linear(64, 1000))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="resnet18", choices=["resnet18", "convnet"])
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--graph", action="store_true")
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--ddp", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    rank = None
    if args.ddp:
        import torch.distributed as dist
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        torch.cuda.set_device(local_rank)  # "cuda" below is this rank's GPU
        dist.init_process_group("nccl")
        rank = dist.get_rank()
    if args.model == "resnet18":
        import torchvision
        model = torchvision.models.resnet18(weights=None)
    else:
        model = convnet()
    model = model.cuda()
    if args.ddp:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[torch.cuda.current_device()])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    images = torch.randn(args.batch, 3, 224, 224, device="cuda")
    labels = torch.randint(0, 1000, (args.batch,), device="cuda")
    def step():
        optimizer.zero_grad(set_to_none=True)
        step_loss = loss_fn(model(images), labels)
        step_loss.backward()
        optimizer.step()
        return step_loss

    loss = None
    torch.cuda.synchronize()  # the set-up's work done: loop_seconds is the steps' time alone
    loop_start = time.perf_counter()
    if args.compile:
        reason = compile_unavailable()
        if reason:
            print(f"torch_training_loop: --compile not possible: {reason}", flush=True)
            return
        compiled = torch.compile(model, mode="reduce-overhead")
        mark_step = getattr(getattr(torch, "compiler", None), "cudagraph_mark_step_begin", None)

        def compiled_step():
            if mark_step:
                mark_step()
            optimizer.zero_grad(set_to_none=True)
            step_loss = loss_fn(compiled(images), labels)
            step_loss.backward()
            optimizer.step()
            return step_loss

        try:
            compiled_step()  # compiles (forward and backward), runs once
        except Exception as error:  # noqa: BLE001  (whatever stopped the compiler: say it, as for the checks above)
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            print(f"torch_training_loop: --compile not possible: {type(error).__name__}: {first[:300]}", flush=True)
            return
        compiled_step()  # records the CUDA graphs
        for _ in range(args.steps):
            loss = compiled_step()
    elif args.graph:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                step()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        optimizer.zero_grad(set_to_none=True)
        with torch.cuda.graph(graph):
            loss = loss_fn(model(images), labels)
            loss.backward()
            optimizer.step()
        for _ in range(args.steps):
            graph.replay()
    elif args.workers:
        data = torch.utils.data.TensorDataset(torch.randn(args.steps * args.batch, 3, 224, 224),
                                              torch.randint(0, 1000, (args.steps * args.batch,)))
        loader = torch.utils.data.DataLoader(data, batch_size=args.batch, num_workers=args.workers, pin_memory=True)
        for batch_images, batch_labels in loader:
            images.copy_(batch_images.cuda(non_blocking=True))
            labels.copy_(batch_labels.cuda(non_blocking=True))
            loss = step()
    else:
        for _ in range(args.steps):
            loss = step()
    graph_field = " graph=1" if args.graph and not args.compile else ""
    graph_field += " compile=1" if args.compile else ""
    graph_field += f" workers={args.workers}" if args.workers else ""
    graph_field += f" rank={rank}" if rank is not None else ""
    loss_value = loss.item()  # waits for the last step
    loop_seconds = time.perf_counter() - loop_start
    print(f"torch_training_loop model={args.model} steps={args.steps} batch={args.batch}{graph_field} "
          f"loss={loss_value:.4f} loop_seconds={loop_seconds:.6f}", flush=True)


if __name__ == "__main__":
    main()
