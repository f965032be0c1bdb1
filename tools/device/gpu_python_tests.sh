#!/usr/bin/env bash
# The Python package and the main job's build time on the GPU machine (docs/python.md, docs/install.md):
#   install   pip install --no-build-isolation --no-index ./python (the machine has scikit-build-core, cmake,
#             ninja and no internet): the wheel builds and bundles libGPUPerfAPICL.so and libGPUPerfAPICUDA.so
#   pytest    python/tests with the CUDA tests required (PyTorch's, cuda-python's and CuPy's contexts)
#   torch     python/examples/torch_profile.py: PyTorch matrix products measured through the binding
#   maintime  the main job's targets (tools/main.sh) built fresh on 2 cores without CUDA, then the profile
#             on PoCL: the "fresh 2-core machine" figure of docs/install.md
# Writes $OUT/summary.txt (one line per step, [figure] lines) and $OUT/<step>.log.
#
# Usage: tools/device/gpu_python_tests.sh [steps...]   (default: install pytest torch maintime)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-python-out}
steps=${*:-install pytest torch maintime}
mkdir -p "$OUT"
summary=$OUT/summary.txt
: > "$summary"
export PYTHONUNBUFFERED=1
site=/tmp/opengpa-python-site

step() {  # step NAME COMMAND...: runs with its log in $OUT/NAME.log, records the exit status
  local name=$1
  shift
  local start=$SECONDS
  "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  printf '%-10s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - start))" | tee -a "$summary"
  tail -25 "$OUT/$name.log"
  return $rc
}

for name in $steps; do
  case $name in
    install)
      # Into a folder of its own, so that the machine's Python stays as it was.
      step install python3 -m pip install --no-build-isolation --no-index --no-deps --target "$site" -v ./python
      grep -E "opengpa wheel bundles|Successfully" "$OUT/install.log" | tee -a "$summary"
      ;;
    pytest)
      step pytest env PYTHONPATH="$site" OPENGPA_TEST_REQUIRE=cuda \
        python3 -m pytest -p no:cacheprovider -rs -v python/tests
      grep -E "passed|failed|SKIPPED" "$OUT/pytest.log" | tail -12 | tee -a "$summary"
      ;;
    torch)
      step torch env PYTHONPATH="$site" python3 python/examples/torch_profile.py
      grep -E "^sample|passed|FAILED" "$OUT/torch.log" | sed 's/^/[figure] /' | tee -a "$summary"
      ;;
    maintime)
      # A fresh build of tools/main.sh's targets on two cores, as on a 2-core machine without a GPU toolkit.
      fresh=/tmp/opengpa-main-2core
      rm -rf "$fresh" "$OUT/maintime-out"
      step maintime taskset -c 0,1 bash -c "
        set -e
        seconds() { awk -v a=\$1 -v b=\$2 'BEGIN { printf \"%.1f\", (b - a) / 1e9 }'; }
        t0=\$(date +%s%N)
        cmake -S . -B $fresh -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON \\
              -DCMAKE_CUDA_COMPILER=NOTFOUND > /dev/null
        t1=\$(date +%s%N)
        cmake --build $fresh -j 2 --target opengpa_main_job
        t2=\$(date +%s%N)
        $fresh/bin/gpaprof -t -p -O -T --perfetto -o $OUT/maintime-out/image_pipeline -- $fresh/bin/image_pipeline_opencl 8
        t3=\$(date +%s%N)
        echo \"[figure] main job on 2 cores, no CUDA: configure \$(seconds \$t0 \$t1) s, build \$(seconds \$t1 \$t2) s, profile \$(seconds \$t2 \$t3) s, total \$(seconds \$t0 \$t3) s\""
      grep "^\[figure\]" "$OUT/maintime.log" | tee -a "$summary"
      rm -rf "$OUT/maintime-out"
      ;;
    *) echo "unknown step '$name' (steps: install pytest torch maintime)"; exit 2 ;;
  esac
done
