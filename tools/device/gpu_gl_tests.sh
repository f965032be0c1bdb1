#!/usr/bin/env bash
# The OpenGL backend's tests (libGPUPerfAPIGL.so) on the GPU machine's NVIDIA EGL/OpenGL driver.
#
# That machine has NVIDIA's EGL and OpenGL driver but not glvnd's loader libraries: they are carried as Debian
# packages in .gl/ (the device README's recipe: libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2, unpacked
# into /), and the headers to build against them in .gl/extra/ (libegl-dev libgl-dev libopengl-dev libgles-dev
# libglx-dev, unpacked into /tmp/opengpa-gl, not into /). NVIDIA's EGL vendor file is named with
# __EGL_VENDOR_LIBRARY_FILENAMES, so that glvnd picks NVIDIA's driver (Mesa, where installed, would be llvmpipe).
#
# Usage (device tool: carry [".gl"]):  bash tools/device/gpu_gl_tests.sh [build-dir]
# Writes under $OUT (default ./gpu-out/gl): summary.txt (one line per step, the renderer, the GL queries' figures,
# the sampled counters' FIGURE lines or why they were skipped), device.txt, build.log, ctest-gl.log, pm-counters.txt,
# the example's CSV. The sampled counters (NVIDIA's PM sampler) need the CUDA toolkit with CUPTI at build time and
# libcuda/libcupti at run time.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out/gl}
build=${1:-build-gpu-gl}
extra=/tmp/opengpa-gl
source tools/device/carried_loaders.sh
start_summary "$OUT"
# glvnd's libOpenGL.so.0, which the GL tests link, stands for the whole set.
unpack_loaders libOpenGL.so.0 || exit 1
unpack_extra "$extra" 'lib*gl*-dev_*.deb'
[ -f "$extra/usr/include/GL/glcorearb.h" ] || { record headers "no GL headers: carry .gl/extra/libgl-dev_*.deb and libegl-dev_*.deb"; exit 1; }
vendor=""
for candidate in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -f "$candidate" ] && { vendor=$candidate; break; }
done
[ -n "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
lib=/usr/lib/x86_64-linux-gnu
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; echo "EGL vendor file: ${vendor:-none found}";
  ldconfig -p | grep -E "libEGL|libOpenGL|libEGL_nvidia"; } > "$OUT/device.txt" 2>&1
sed -n 2,3p "$OUT/device.txt" | tee -a "$summary"

start=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENGPA_WERROR=ON \
      -DOPENGL_INCLUDE_DIR="$extra/usr/include" -DOPENGL_EGL_INCLUDE_DIR="$extra/usr/include" \
      -DOPENGL_egl_LIBRARY="$lib/libEGL.so.1" -DOPENGL_opengl_LIBRARY="$lib/libOpenGL.so.0" \
      -DOPENGL_glx_LIBRARY="$lib/libGLX.so.0" -DOPENGL_gles3_LIBRARY="$lib/libGLESv2.so.2" \
      > "$OUT/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" --target opengl_backend_tests opengl_pm_sampling_tests gpa_example_opengl GPUPerfAPIGL >> "$OUT/build.log" 2>&1
rc=$?
grep -E "SKIPPED|OpenGL|PM sampler" "$OUT/build.log" | head -6 | tee -a "$summary"
record build "rc=$rc $((SECONDS - start))s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" "$OUT/build.log" | head -20; exit 1; }

# Every GL test, on NVIDIA's driver (the tests print the renderer they ran on).
(cd "$build" && ctest -L opengl --output-on-failure --timeout 120) > "$OUT/ctest-gl.log" 2>&1
rc=$?
record "ctest -L opengl" "rc=$rc $(grep -E 'tests passed|tests failed' "$OUT/ctest-gl.log" | tail -1)"
grep -E "renderer|Renderer|GL_RENDERER" "$OUT/ctest-gl.log" | sort -u | head -3 | tee -a "$summary"
grep -E "^\s*[0-9]+/[0-9]+ Test .*(Failed|Not Run|Timeout)|Skipped" "$OUT/ctest-gl.log" | head -20 | tee -a "$summary"

# The seed's example loop ran as the test sample_gpa_example_opengl_csv: its CSV kept.
cp "$build/samples/opengl/GPUPerfAPI-Example-OpenGL.csv" "$OUT/" 2>/dev/null
# The description the library reports (GL_RENDERER) and its device id.
"$build/tests/backends/gl/opengl_backend_tests" --gtest_filter='*DescribesTheRenderer*' > "$OUT/renderer.txt" 2>&1
record "DescribesTheRenderer" "rc=$?"
grep -F "[ renderer ]" "$OUT/renderer.txt" | tee -a "$summary"

# The sampled counters (issue 36): full-screen draws into an 8192x8192 RGBA8 framebuffer, WriteSize within 5% of the
# bytes written (FIGURE gl_pm_write_ratio), GPUBusy >= 80% (FIGURE gl_pm_gpu_busy); skipped with the reason where
# the context offers no sampled counters.
"$build/tests/backends/gl/opengl_backend_tests" --gtest_filter='GpuPmCounters.*:Counters.NoSampled*' > "$OUT/pm-counters.txt" 2>&1
record "GpuPmCounters" "rc=$?"
grep -E "^FIGURE|Skipped|PM sampler|\[  (PASSED|FAILED|SKIPPED) " -A1 "$OUT/pm-counters.txt" | head -20 | tee -a "$summary"
