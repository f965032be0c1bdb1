#!/usr/bin/env bash
# Installs a built OpenGPA to a temporary prefix and uses it the way a user would (docs/install.md):
#   layout    what `cmake --install` puts where: SONAMEs, headers, package files, docs, layers' manifests
#   cmake     a project outside the tree finds it with find_package (components, version) and builds the
#             installed samples; they run on the default OpenCL device (PoCL in CI); where the GL library
#             was built, COMPONENTS GL too and the OpenGL example on EGL (llvmpipe in CI)
#   pkgconfig a C program linked with `pkg-config --libs opengpa-cl`, and the guide's example with
#             `pkg-config --cflags opengpa` (it dlopens the library); both run; with the GL library, the
#             OpenGL example built with `pkg-config --cflags --libs opengpa-gl` runs too
#   gpaprof   the installed gpaprof profiles a program built outside the tree, with no LD_LIBRARY_PATH
#   python    `pip install ./python` in a virtual environment, then its pytest tests (python/tests), which
#             profile a program with the installed gpaprof and read the files back
#
# Usage: tests/install/run.sh BUILD_DIR [--libdir DIR] [parts...]   (default: all parts)
#   --libdir DIR  reconfigure BUILD_DIR with CMAKE_INSTALL_LIBDIR=DIR first (lib/x86_64-linux-gnu is what
#                 GNUInstallDirs picks for the prefix /usr on Debian), and rebuild what that changes
# Environment: OPENGPA_INSTALL_TEST_DIR (default: a new temporary directory, removed at the end on success).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${1:?usage: tests/install/run.sh BUILD_DIR [--libdir DIR] [parts...]}
build=$(cd "$build" && pwd)
shift
libdir=""
if [ "${1:-}" = "--libdir" ]; then
  libdir=${2:?--libdir needs a directory}
  shift 2
fi
parts=${*:-layout cmake pkgconfig gpaprof python}
work=${OPENGPA_INSTALL_TEST_DIR:-$(mktemp -d /tmp/opengpa-install-test.XXXXXX)}
mkdir -p "$work"
prefix=$work/prefix
# What the user's environment may not have: nothing of the build tree leaks into the checks.
unset LD_LIBRARY_PATH GPAPROF_LIB_DIR OPENGPA_LIBRARY_DIR PKG_CONFIG_PATH CMAKE_PREFIX_PATH || true

fail() { echo "install test FAILED: $*" >&2; exit 1; }
step() { echo; echo "== install test: $*"; }
has_api() { echo " $apis " | grep -q " $1 "; }
# run_gl_example DIR EXAMPLE [options]: runs the OpenGL example in DIR; its CSV must have GPUTime. Without an
# OpenGL device it exits 77 saying "no OpenGL device": said, not failed (the GL library still was checked).
run_gl_example() {
  local dir=$1 example=$2 status=0
  shift 2
  (cd "$dir" && "$example" --csv "$dir/GPUPerfAPI-Example-OpenGL.csv" --frames 2 "$@") > "$dir/gpa_example_opengl.txt" 2>&1 ||
    status=$?
  if [ "$status" = 77 ] && grep -q "no OpenGL device" "$dir/gpa_example_opengl.txt"; then
    echo "--  gpa_example_opengl not run: $(grep -m1 "no OpenGL device" "$dir/gpa_example_opengl.txt")"
    return 0
  fi
  [ "$status" = 0 ] || { cat "$dir/gpa_example_opengl.txt"; fail "gpa_example_opengl ($example)"; }
  grep -q "GPUTime" "$dir/GPUPerfAPI-Example-OpenGL.csv" || fail "gpa_example_opengl wrote no GPUTime to its CSV"
}

if [ -n "$libdir" ]; then
  step "reconfigure $build with CMAKE_INSTALL_LIBDIR=$libdir"
  cmake -S . -B "$build" -DCMAKE_INSTALL_LIBDIR="$libdir" >/dev/null
  cmake --build "$build" -j "$(nproc)" >/dev/null
fi
step "cmake --install $build --prefix $prefix"
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
lib=$prefix/$libdir
apis=$(sed -n 's/^set(OpenGPA_COMPONENTS "\(.*\)")$/\1/p' "$lib/cmake/OpenGPA/OpenGPAConfig.cmake" | tr ';' ' ')
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
echo "libdir $libdir, libraries: $apis, version $version"
[ -n "$apis" ] || fail "the installed package lists no GPA library"

for part in $parts; do
  case $part in
    layout)
      step "layout"
      soversion=$(echo "$version" | awk -F. '$1 == 0 {print "0." $2; next} {print $1}')
      for api in $apis; do
        file=$lib/libGPUPerfAPI$api.so
        [ -L "$file" ] || fail "$file (the link for -lGPUPerfAPI$api) is missing"
        [ -f "$file.$version" ] || fail "$file.$version is missing"
        soname=$(readelf -d "$file.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
        [ "$soname" = "libGPUPerfAPI$api.so.$soversion" ] || fail "SONAME of $file is '$soname', expected libGPUPerfAPI$api.so.$soversion"
        [ -L "$lib/$soname" ] || fail "$lib/$soname is missing"
        pc=$(echo "$api" | tr 'A-Z' 'a-z')
        [ -f "$lib/pkgconfig/opengpa-$pc.pc" ] || fail "opengpa-$pc.pc is missing"
        echo "ok  libGPUPerfAPI$api.so -> $soname -> libGPUPerfAPI$api.so.$version, opengpa-$pc.pc"
      done
      for file in include/opengpa/GPUPerfAPI.h include/opengpa/GPUPerfAPIFunctionTypes.h include/opengpa/gpa/gpa.hpp \
                  include/opengpa/gpa/gpaprof_markers.h "$libdir/cmake/OpenGPA/OpenGPAConfig.cmake" \
                  "$libdir/cmake/OpenGPA/OpenGPAConfigVersion.cmake" "$libdir/cmake/OpenGPA/OpenGPATargets.cmake" \
                  "$libdir/pkgconfig/opengpa.pc" bin/gpaprof bin/gpaprof-report "$libdir/libgpaprof_agent.so" \
                  share/doc/OpenGPA/README.md share/doc/OpenGPA/install.md share/doc/OpenGPA/samples/cpp/gpa_cpp_example.cpp; do
        [ -e "$prefix/$file" ] || fail "$prefix/$file is missing"
      done
      echo "ok  headers, CMake package, pkg-config, tools, docs, samples"
      # Installed programs carry no path of the build tree.
      for file in "$prefix"/bin/* "$lib"/*.so*; do
        [ -L "$file" ] && continue
        if readelf -d "$file" | grep -E "R(UN)?PATH" | grep -q "$build"; then fail "$file has a RUNPATH into the build tree"; fi
      done
      echo "ok  no RUNPATH into $build"
      # The Vulkan layer's manifest names its library relative to itself (where a loader looks: share/vulkan).
      manifest=$prefix/share/vulkan/implicit_layer.d/VkLayer_opengpa_gpa_interface.json
      if [ -f "$manifest" ]; then
        path=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$manifest")
        [ -f "$(dirname "$manifest")/$path" ] || fail "$manifest names $path, which is not there"
        echo "ok  Vulkan layer manifest -> $path"
      fi
      ;;
    cmake)
      step "find_package(OpenGPA) from a project outside the tree"
      consumer=$work/consumer-cmake
      components=CL
      if has_api GL; then components="CL;GL"; fi
      cmake -S tests/install/consumer -B "$consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_OPENGPA_VERSION="$version" \
        -DCONSUMER_COMPONENTS="$components" > "$work/consumer-cmake.log" 2>&1 ||
        { cat "$work/consumer-cmake.log"; fail "find_package(OpenGPA $version COMPONENTS $components)"; }
      grep "OpenGPA $version at" "$work/consumer-cmake.log"
      cmake --build "$consumer" -j "$(nproc)" >> "$work/consumer-cmake.log" 2>&1 || { cat "$work/consumer-cmake.log"; fail "building the consumer"; }
      "$consumer/gpa_cpp_example" --sessions 3 > "$work/gpa_cpp_example.txt" 2>&1 || { cat "$work/gpa_cpp_example.txt"; fail "gpa_cpp_example"; }
      grep -E "session 2 sample 3 .*GPUTime = [0-9]" "$work/gpa_cpp_example.txt" || { cat "$work/gpa_cpp_example.txt"; fail "gpa_cpp_example printed no GPUTime"; }
      (cd "$work" && "$consumer/gpa_example" --library "$(cat "$consumer/gpa_library.txt")" --csv "$work/gpa_example.csv" --frames 2) \
        > "$work/gpa_example.txt" 2>&1 || { cat "$work/gpa_example.txt"; fail "gpa_example (find_package, OpenGPA::headers)"; }
      grep -q "GPUTime" "$work/gpa_example.csv" || fail "gpa_example wrote no GPUTime to its CSV"
      echo "ok  gpa_cpp_example (OpenGPA::CL) and gpa_example (OpenGPA::headers, dlopen) ran"
      if has_api GL; then
        run_gl_example "$work" "$consumer/gpa_example_opengl" --library "$(cat "$consumer/gl_library.txt")"
        echo "ok  COMPONENTS GL: gpa_example_opengl (OpenGPA::headers, dlopen of the file behind OpenGPA::GL)"
      fi
      # What must not be found: a library this installation does not have, a version it is not.
      missing=$(for api in CUDA VK GL CL; do echo " $apis " | grep -q " $api " || { echo "$api"; break; }; done)
      missing=${missing:-NoSuchAPI}
      if cmake -S tests/install/consumer -B "$work/consumer-missing" -DCMAKE_PREFIX_PATH="$prefix" \
           -DCONSUMER_COMPONENTS="$missing" > "$work/consumer-missing.log" 2>&1; then
        fail "find_package(OpenGPA COMPONENTS $missing) succeeded, but this installation has no $missing library"
      fi
      grep -q "has no $missing library" "$work/consumer-missing.log" || { cat "$work/consumer-missing.log"; fail "no reason for the missing component"; }
      if cmake -S tests/install/consumer -B "$work/consumer-version" -DCMAKE_PREFIX_PATH="$prefix" \
           -DCONSUMER_OPENGPA_VERSION=99.0 > "$work/consumer-version.log" 2>&1; then
        fail "find_package(OpenGPA 99.0) accepted version $version"
      fi
      echo "ok  COMPONENTS $missing and version 99.0 are refused"
      ;;
    pkgconfig)
      step "pkg-config"
      export PKG_CONFIG_PATH=$lib/pkgconfig
      pkg-config --modversion opengpa-cl
      [ "$(pkg-config --modversion opengpa-cl)" = "$version" ] || fail "pkg-config's version of opengpa-cl"
      consumer=$work/consumer-pkgconfig
      mkdir -p "$consumer"
      # shellcheck disable=SC2046
      cc -std=c99 -Wall -Wextra -Werror -o "$consumer/gpa_consumer" tests/install/consumer/gpa_consumer.c \
        $(pkg-config --cflags --libs opengpa-cl) -lOpenCL -Wl,-rpath,"$(pkg-config --variable=libdir opengpa-cl)"
      "$consumer/gpa_consumer" | tee "$consumer/gpa_consumer.txt"
      grep -qE "GPUTime = [0-9.]+ ms" "$consumer/gpa_consumer.txt" || fail "gpa_consumer printed no GPUTime"
      # shellcheck disable=SC2046
      cc -std=c99 -o "$consumer/gpa_example" "$prefix/share/doc/OpenGPA/samples/opencl/gpa_example.c" \
        $(pkg-config --cflags opengpa) -lOpenCL -ldl
      (cd "$consumer" && ./gpa_example --library "$lib/libGPUPerfAPICL.so" --frames 2) > "$consumer/gpa_example.txt" 2>&1 ||
        { cat "$consumer/gpa_example.txt"; fail "gpa_example (pkg-config opengpa)"; }
      grep -q "GPUTime" "$consumer/GPUPerfAPI-Example.csv" || fail "gpa_example wrote no GPUTime"
      echo "ok  gpa_consumer (opengpa-cl) and gpa_example (opengpa, dlopen) ran"
      if has_api GL; then
        [ "$(pkg-config --modversion opengpa-gl)" = "$version" ] || fail "pkg-config's version of opengpa-gl"
        # Linked as opengpa-gl says, with its libdir as RUNPATH: the example's default dlopen of
        # libGPUPerfAPIGL.so finds the installed library there.
        # shellcheck disable=SC2046
        cc -std=c99 -Wall -Wextra -Werror -o "$consumer/gpa_example_opengl" \
          "$prefix/share/doc/OpenGPA/samples/opengl/gpa_example_opengl.c" $(pkg-config --cflags --libs opengpa-gl) \
          -lEGL -lOpenGL -ldl -Wl,-rpath,"$(pkg-config --variable=libdir opengpa-gl)"
        run_gl_example "$consumer" "$consumer/gpa_example_opengl"
        echo "ok  gpa_example_opengl (opengpa-gl) ran"
      fi
      unset PKG_CONFIG_PATH
      ;;
    gpaprof)
      step "the installed gpaprof on a program built outside the tree"
      app=$work/app
      mkdir -p "$app"
      cc -std=c99 -D_POSIX_C_SOURCE=200809L -o "$app/image_pipeline_opencl" \
        "$prefix/share/doc/OpenGPA/samples/profiling/image_pipeline_opencl.c" -I"$prefix/include/opengpa" -lOpenCL -ldl -lm
      (cd "$app" && "$prefix/bin/gpaprof" -t -p -O -o "$app/run" -- ./image_pipeline_opencl 2) > "$app/gpaprof.txt" 2>&1 ||
        { cat "$app/gpaprof.txt"; fail "the installed gpaprof"; }
      tail -4 "$app/gpaprof.txt"
      rows=$(grep -vc '^#' "$app/run.csv" || true)
      [ "$rows" -gt 1 ] || fail "run.csv has no dispatch row"
      grep -q "=====ocl API Trace Output=====" "$app/run.atp" || fail "run.atp has no API trace"
      [ -s "$app/run.occupancy" ] || fail "run.occupancy is empty"
      echo "ok  $((rows - 1)) dispatches in run.csv, run.atp, run.occupancy"
      ;;
    python)
      step "pip install \"./python[pandas]\" in a virtual environment, pytest"
      venv=$work/venv
      # Debian's pyopencl, numpy, pandas and pytest (tools/install_deps.sh) are seen through the system site:
      # the system's python3, where apt-get installs them (not a python3 that PATH may find first).
      python=/usr/bin/python3
      [ -x "$python" ] || python=python3
      "$python" -m venv --system-site-packages "$venv"
      "$venv/bin/python" -m pip install -q "./python[pandas]" mypy > "$work/pip.log" 2>&1 || { tail -40 "$work/pip.log"; fail "pip install ./python"; }
      echo "installed: $("$venv/bin/python" -c 'import opengpa; print(opengpa.__version__, opengpa.library_path("CL"))')"
      # The binding is typed: mypy --strict over its sources.
      (cd python && "$venv/bin/python" -m mypy --strict --no-incremental src/opengpa) || fail "mypy --strict src/opengpa"
      # From outside the tree, so that the installed package (with its bundled library) is what is tested.
      # The GL tests too where the GL library was built (the package bundles it; llvmpipe runs them in CI).
      require=opencl,gpaprof
      if has_api GL; then require=$require,opengl; fi
      (cd "$work" && OPENGPA_GPAPROF="$prefix/bin/gpaprof" OPENGPA_TEST_REQUIRE=$require \
         "$venv/bin/python" -m pytest -p no:cacheprovider -rs "$root/python/tests")
      ;;
    *) fail "unknown part '$part' (parts: layout cmake pkgconfig gpaprof python)" ;;
  esac
done
[ -z "${OPENGPA_INSTALL_TEST_DIR:-}" ] && rm -rf "$work"
echo
echo "== install test passed: $parts"
