#!/usr/bin/env bash
# Prints what the GPU machine has that OpenGPA's GPU tests rely on.
set -u
echo "== date"; date -u
echo "== os"; cat /etc/os-release | head -3; uname -r; ldd --version | head -1
echo "== gpu"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
echo "== tools"; for t in nvcc cmake ninja g++ gcc ncu clinfo python3; do printf '%s: ' $t; command -v $t || echo missing; done
nvcc --version | tail -2; cmake --version | head -1; g++ --version | head -1; ncu --version | tail -1
echo "== gtest"; ls /usr/include/gtest 2>/dev/null | head -2; ls /usr/lib/x86_64-linux-gnu/libgtest* 2>/dev/null; ls /usr/src/googletest 2>/dev/null
echo "== cuda libs"; ls /usr/local/cuda/lib64 2>/dev/null | grep -E "cupti|nvperf|OpenCL|cudart.so" ; ls /usr/local/cuda/extras/CUPTI/lib64 2>/dev/null | head
echo "== ldconfig"; ldconfig -p | grep -E "libcuda.so|OpenCL|vulkan|nvidia-ml|cupti|nvperf" 
echo "== icd"; ls -la /etc/OpenCL/vendors 2>/dev/null; cat /etc/OpenCL/vendors/* 2>/dev/null; ls /usr/local/nvidia 2>/dev/null; ls /usr/local/nvidia/lib64 2>/dev/null | grep -iE "opencl|cuda|ml" | head
echo "== headers"; ls /usr/include/CL 2>/dev/null | head -3; ls /usr/local/cuda/include/CL 2>/dev/null | head -3
echo "== perm"; cat /proc/driver/nvidia/params 2>/dev/null | grep -i profil
echo "== cpus"; nproc; free -g | head -2
