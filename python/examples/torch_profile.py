"""Profiles PyTorch work on the GPU through OpenGPA's CUDA library: one GPA sample per matrix size.

    python3 examples/torch_profile.py [--counters GPUTime,...] [--sizes 1024,2048,4096]

Needs PyTorch with a CUDA device and libGPUPerfAPICUDA.so (pip install ./python bundles it where the CUDA
toolkit with CUPTI was present; or OPENGPA_LIBRARY_DIR=<build>/lib with PYTHONPATH=python/src). Prints one
row per sample: the counters and the FLOP rate the sample's GPUTime implies.
"""

from __future__ import annotations

import argparse
import sys

import torch

import opengpa


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counters", default="GPUTime,GPUBusy,Wavefronts,FetchSize,WriteSize")
    parser.add_argument("--sizes", default="1024,2048,4096")
    arguments = parser.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: PyTorch sees none")
        return 77
    sizes = [int(size) for size in arguments.sizes.split(",")]
    matrices = {n: (torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")) for n in sizes}
    for a, b in matrices.values():  # warm-up: cuBLAS picks its kernels and allocates outside the samples
        torch.matmul(a, b)
    torch.cuda.synchronize()  # PyTorch's context is now current on this thread

    with opengpa.Library() as gpa, gpa.context() as context:  # no object: the current CUDA context
        print(f"library {gpa.path}")
        print(f"device  {context.device_description}")
        available = {counter.name for counter in context.counters()}
        wanted = [name for name in arguments.counters.split(",") if name in available]
        missing = sorted(set(arguments.counters.split(",")) - available)
        if missing:
            print(f"not offered on this device: {', '.join(missing)}")
        context.enable(*wanted)
        print(f"counters {', '.join(context.enabled())}: {context.pass_count} pass(es)")
        with context.session() as session:
            for gpa_pass in session.passes():
                for sample, n in enumerate(sizes):
                    a, b = matrices[n]
                    with gpa_pass.sample(sample):
                        torch.matmul(a, b)
                torch.cuda.synchronize()
        rows = session.results().rows()
    for row, n in zip(rows, sizes):
        values = ", ".join(f"{name} {row[name]:.6g}" for name in wanted)
        rate = 2 * n**3 / (float(row["GPUTime"]) * 1e-3) / 1e12 if row.get("GPUTime") else float("nan")
        print(f"sample {row['sample']} matmul {n}x{n}: {values} -> {rate:.1f} TFLOP/s")
    gputimes = [float(row["GPUTime"]) for row in rows]
    if not all(time > 0 for time in gputimes) or gputimes != sorted(gputimes):
        print(f"FAILED: GPUTime should be positive and grow with the matrix size: {gputimes}")
        return 1
    print("torch_profile passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
