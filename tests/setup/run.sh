#!/usr/bin/env bash
# tools/main.sh, tools/test.sh and tools/install_deps.sh where packages cannot be installed (no package mirror,
# not root): apt-get is a stand-in on PATH that fails as apt-get does without a mirror ("Unable to locate
# package", exit 100), and dpkg-query a stand-in that calls some installed packages missing (as on a GPU server
# whose CMake, Ninja or drivers did not come from apt). Cases:
#   main       main.sh with the build's requirements present: exit 0, the missing packages named, the job's files
#   no-cmake   main.sh with cmake hidden from PATH: exit 1, "cmake not found", the missing packages named
#   no-cxx     main.sh whose configure fails (no C++ compiler, a fresh build directory): exit 1, the reason
#   no-sudo    install_deps.sh as a user without sudo: named and exit 0 with --best-effort, exit 1 without;
#              as a user with sudo: apt-get runs through "sudo -n" and its failure is named
#   test       test.sh -R (two tests) with Chromium and the Vulkan validation layer hidden: exit 0, both tests
#              skipped with their reasons; with OPENGPA_VK_VALIDATION=1 (CI) the Vulkan test fails instead
#   configure  the configure without Vulkan, OpenGL or GoogleTest: it succeeds, its summary names each part left
#              out, their tests are not in the build; GoogleTest missing under OPENGPA_REQUIRE_TESTS=ON (test.sh) fails
# Usage: tests/setup/run.sh BUILD_DIR [case...]   BUILD_DIR: a build tools/test.sh has made (CI: build-ci); it is
#        reused (nothing is rebuilt), so that the whole check takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${1:?usage: tests/setup/run.sh BUILD_DIR [case...]}
shift
cases=${*:-main no-cmake no-cxx no-sudo test configure}
case $build in /*) ;; *) build=$root/$build ;; esac
[ -f "$build/CMakeCache.txt" ] || { echo "FAIL: $build is not a build directory (run tools/test.sh first)"; exit 1; }

work=$(mktemp -d /tmp/opengpa-setup-test.XXXXXX)
failures=0
trap '[ "$failures" -gt 0 ] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok    $*"; }
expect_in() {  # expect_in FILE TEXT WHAT
  if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3: '$2' not in the output:"; tail -30 "$1"; fi
}

# The stand-ins.
shims=$work/shims
mkdir -p "$shims" "$work/empty"
real_dpkg_query=$(command -v dpkg-query) || { echo "FAIL: no dpkg-query (this check runs on Debian/Ubuntu)"; exit 1; }
cat >"$shims/apt-get" <<'EOF'
#!/bin/sh
# apt-get on a machine without a package mirror
echo "apt-get $*" >>"$OPENGPA_SETUP_TEST_LOG"
case $1 in
  update) echo "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Could not resolve 'deb.debian.org'" >&2 ;;
  *) for argument in "$@"; do
       case $argument in -*|install) ;; *) echo "E: Unable to locate package $argument" >&2 ;; esac
     done ;;
esac
exit 100
EOF
cat >"$shims/dpkg-query" <<EOF
#!/bin/sh
# dpkg-query that calls the packages of \$OPENGPA_SETUP_TEST_NOT_INSTALLED not installed
for argument in "\$@"; do
  case " \$OPENGPA_SETUP_TEST_NOT_INSTALLED " in
    *" \$argument "*) echo "dpkg-query: no packages found matching \$argument" >&2; exit 1 ;;
  esac
done
exec "$real_dpkg_query" "\$@"
EOF
# sudo that runs the command as it is, without its options (so that the apt-get stand-in is what runs, as root
# or not).
write_sudo() {
  printf '#!/bin/sh\nwhile [ "${1#-}" != "$1" ]; do shift; done\nexec "$@"\n' >"$shims/sudo"
  chmod +x "$shims/sudo"
}
write_sudo
chmod +x "$shims"/*
export OPENGPA_SETUP_TEST_LOG=$work/apt-get.log

# PATH without some programs: a folder of links to every program on PATH but those.
path_without() {  # path_without DIR NAME... -> prints DIR, the PATH to use
  local dir=$1 d f name
  shift
  local -A hidden=() seen=()
  for name in "$@"; do hidden[$name]=1; done
  local files=()
  local dirs
  IFS=: read -ra dirs <<<"$PATH"
  for d in "${dirs[@]}"; do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
      name=${f##*/}
      [ -x "$f" ] && [ -z "${seen[$name]:-}" ] && [ -z "${hidden[$name]:-}" ] || continue
      seen[$name]=1
      files+=("$f")
    done
  done
  mkdir -p "$dir"
  ln -s "${files[@]}" "$dir/"
  echo "$dir"
}

# run NAME [VAR=VALUE...] -- COMMAND...: runs with the stand-ins first on PATH; output in $work/NAME.out, status in $rc.
run() {
  local name=$1
  shift
  local vars=()
  while [ "$1" != "--" ]; do vars+=("$1"); shift; done
  shift
  : >"$OPENGPA_SETUP_TEST_LOG"
  rc=0
  env PATH="$shims:$PATH" "${vars[@]}" "$@" >"$work/$name.out" 2>&1 </dev/null || rc=$?
}

for case_name in $cases; do
  echo
  echo "== $case_name"
  case $case_name in
    main)
      # The job on the CI machine's build, with packages the build can do without (they are there, but not as
      # packages) called missing, and nothing installable.
      run main OPENGPA_SETUP_TEST_NOT_INSTALLED="cmake ninja-build pocl-opencl-icd vulkan-validationlayers" \
        BUILD_DIR="$build" -- bash tools/main.sh "$work/out"
      out=$work/main.out
      [ "$rc" -eq 0 ] && ok "tools/main.sh exits 0" || { fail "tools/main.sh exited $rc"; tail -40 "$out"; }
      expect_in "$OPENGPA_SETUP_TEST_LOG" "install -y -q --no-install-recommends cmake ninja-build pocl-opencl-icd" \
        "apt-get was asked for the missing packages of the main job"
      grep -q "vulkan-validationlayers" "$OPENGPA_SETUP_TEST_LOG" && fail "apt-get was asked for a package the main job does not use" \
        || ok "only the main job's packages were asked for"
      expect_in "$out" "Unable to locate package" "apt-get's failure is shown"
      expect_in "$out" "could not install (apt-get failed): cmake ninja-build pocl-opencl-icd" "the missing packages are named"
      expect_in "$out" "Done without the packages that could not be installed: cmake ninja-build pocl-opencl-icd" \
        "the job says it was done without them"
      for file in image_pipeline.csv image_pipeline.atp image_pipeline.occupancy image_pipeline.html image_pipeline.json; do
        [ -s "$work/out/$file" ] && ok "$file written" || fail "no $file"
      done
      rows=$(grep -vc '^#' "$work/out/image_pipeline.csv" || true)
      [ "$rows" -gt 1 ] && ok "image_pipeline.csv: $((rows - 1)) dispatches" || fail "image_pipeline.csv has no dispatch row"
      ;;
    no-cmake)
      path=$(path_without "$work/bin-no-cmake" cmake)
      run no-cmake OPENGPA_SETUP_TEST_NOT_INSTALLED="cmake" PATH="$shims:$path" BUILD_DIR="$build" -- bash tools/main.sh "$work/out-no-cmake"
      out=$work/no-cmake.out
      [ "$rc" -eq 1 ] && ok "tools/main.sh exits 1" || { fail "tools/main.sh exited $rc"; tail -20 "$out"; }
      expect_in "$out" "tools/main.sh: error: cmake not found" "it says cmake is missing"
      expect_in "$out" "tools/main.sh: packages that could not be installed: cmake" "and that its package could not be installed"
      ;;
    no-cxx)
      run no-cxx OPENGPA_SETUP_TEST_NOT_INSTALLED="build-essential" CXX=/nonexistent/c++ CC=/nonexistent/cc \
        BUILD_DIR="$work/build-no-cxx" -- bash tools/main.sh "$work/out-no-cxx"
      out=$work/no-cxx.out
      [ "$rc" -eq 1 ] && ok "tools/main.sh exits 1" || { fail "tools/main.sh exited $rc"; tail -20 "$out"; }
      expect_in "$out" "/nonexistent/c" "CMake's error names the compiler"
      expect_in "$out" "tools/main.sh: error: the configure failed" "main.sh says the configure failed"
      expect_in "$out" "tools/main.sh: packages that could not be installed: build-essential" "and names the missing package"
      [ ! -e "$work/out-no-cxx" ] && ok "no output directory" || fail "an output directory was made"
      ;;
    no-sudo)
      # A user who is not root, on a machine without sudo.
      path=$(path_without "$work/bin-no-sudo" sudo id)
      printf '#!/bin/sh\n[ "$1" = -u ] && { echo 1000; exit 0; }\nexec /usr/bin/id "$@"\n' >"$work/bin-no-sudo/id"
      chmod +x "$work/bin-no-sudo/id"
      rm -f "$shims/sudo"
      missing=$work/missing.txt
      run no-sudo OPENGPA_SETUP_TEST_NOT_INSTALLED="chromium clinfo" PATH="$shims:$path" -- \
        bash tools/install_deps.sh --best-effort --missing-file "$missing" all
      out=$work/no-sudo.out
      [ "$rc" -eq 0 ] && ok "install_deps.sh --best-effort exits 0" || { fail "it exited $rc"; cat "$out"; }
      expect_in "$out" "could not install (not root and no sudo): clinfo chromium" "it names the packages and why"
      [ "$(tr '\n' ' ' <"$missing")" = "clinfo chromium " ] && ok "--missing-file lists them" || fail "--missing-file: $(cat "$missing")"
      [ ! -s "$OPENGPA_SETUP_TEST_LOG" ] && ok "apt-get was not run" || fail "apt-get was run: $(cat "$OPENGPA_SETUP_TEST_LOG")"
      run no-sudo-strict OPENGPA_SETUP_TEST_NOT_INSTALLED="chromium" PATH="$shims:$path" -- bash tools/install_deps.sh
      [ "$rc" -eq 1 ] && ok "without --best-effort (CI) it exits 1" || { fail "it exited $rc"; cat "$work/no-sudo-strict.out"; }
      expect_in "$work/no-sudo-strict.out" "install_deps: error: packages missing" "with an error"
      # The same user with sudo: apt-get is run through it (sudo -n without a terminal) and fails as before.
      write_sudo
      run with-sudo OPENGPA_SETUP_TEST_NOT_INSTALLED="chromium" PATH="$shims:$path" -- bash tools/install_deps.sh --best-effort all
      [ "$rc" -eq 0 ] && ok "with sudo: exits 0" || { fail "with sudo: it exited $rc"; cat "$work/with-sudo.out"; }
      expect_in "$work/with-sudo.out" "installing with sudo -n apt-get: chromium" "with sudo: apt-get runs through sudo -n"
      expect_in "$work/with-sudo.out" "could not install (apt-get failed): chromium" "with sudo: the package is named"
      ;;
    test)
      # The README's test command on two tests whose dependencies are hidden: Chromium (off PATH) and the
      # Khronos validation layer (VK_LAYER_PATH names only the build's own layers).
      path=$(path_without "$work/bin-no-chromium" chromium chromium-browser google-chrome google-chrome-stable)
      layers=$build/share/vulkan/explicit_layer.d:$build/tests/layers/vulkan/fixture_performance_query/explicit_layer.d
      tests='^(gpaprof_report_chromium|BadHandles\.NullAndUnknownDevice)$'
      run test OPENGPA_SETUP_TEST_NOT_INSTALLED="chromium vulkan-validationlayers python3-pandas" PATH="$shims:$path" \
        VK_LAYER_PATH="$layers" OPENGPA_VK_VALIDATION= BUILD_DIR="$build" -- bash tools/test.sh -R "$tests"
      out=$work/test.out
      [ "$rc" -eq 0 ] && ok "tools/test.sh exits 0" || { fail "tools/test.sh exited $rc"; tail -60 "$out"; }
      expect_in "$out" "could not install (apt-get failed): chromium vulkan-validationlayers python3-pandas" \
        "the missing packages are named"
      expect_in "$out" "gpaprof_report_chromium ." "the Chromium test ran"
      grep -qE "gpaprof_report_chromium .*Skipped" "$out" && ok "the Chromium test was skipped" || fail "the Chromium test was not skipped"
      grep -qE "BadHandles.NullAndUnknownDevice .*Skipped" "$out" && ok "the Vulkan test was skipped" || fail "the Vulkan test was not skipped"
      expect_in "$out" "Why tests were skipped" "the reasons are listed"
      expect_in "$out" "no headless Chromium (apt-get install chromium" "Chromium's reason"
      expect_in "$out" "the Khronos validation layer is not installed (apt-get install vulkan-validationlayers)" "the validation layer's reason"
      # CI requires the layer: there the same test fails.
      rc=0
      (cd "$build" && env VK_LAYER_PATH="$layers" OPENGPA_VK_VALIDATION=1 ctest -R 'BadHandles\.NullAndUnknownDevice' \
         --output-on-failure >"$work/test-required.out" 2>&1) || rc=$?
      [ "$rc" -ne 0 ] && ok "with OPENGPA_VK_VALIDATION=1 the Vulkan test fails" || fail "with OPENGPA_VK_VALIDATION=1 the Vulkan test passed"
      expect_in "$work/test-required.out" "OPENGPA_VK_VALIDATION=1 requires it" "saying why"
      ;;
    configure)
      # Configure only (a fresh directory each): what decides what is built.
      cfg=$work/cfg-no-vulkan-gl
      rc=0
      cmake -S . -B "$cfg" -G Ninja -DCMAKE_DISABLE_FIND_PACKAGE_Vulkan=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenGL=ON \
        >"$work/configure1.out" 2>&1 || rc=$?
      [ "$rc" -eq 0 ] && ok "without Vulkan and OpenGL: the configure succeeds" || { fail "it failed"; tail -30 "$work/configure1.out"; }
      expect_in "$work/configure1.out" "SKIPPED:  libGPUPerfAPIVK.so (Vulkan backend): Vulkan headers/loader not found" "it names the Vulkan backend"
      expect_in "$work/configure1.out" "SKIPPED:  libVkLayer_opengpa_gpa_interface.so (Vulkan layer)" "and the Vulkan layer"
      expect_in "$work/configure1.out" "SKIPPED:  libGPUPerfAPIGL.so (OpenGL backend)" "and the OpenGL backend"
      targets=$(ninja -C "$cfg" -t targets all 2>/dev/null | cut -d: -f1)
      if grep -qE "^(tests/layers/vulkan|tests/backends/vulkan|tests/backends/gl)/" <<<"$targets"; then
        fail "Vulkan or OpenGL tests are in the build: $(grep -E '^tests/(layers/vulkan|backends/(vulkan|gl))/' <<<"$targets" | head -3)"
      else
        ok "no Vulkan or OpenGL test is built"
      fi
      grep -q "gpaprof_end_to_end_tests" <<<"$targets" && ok "the other tests are" || fail "gpaprof_end_to_end_tests is not in the build"

      cfg=$work/cfg-no-gtest
      rc=0
      cmake -S . -B "$cfg" -G Ninja -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DOPENGPA_GTEST_SOURCE_DIR="$work/empty" \
        >"$work/configure2.out" 2>&1 || rc=$?
      [ "$rc" -eq 0 ] && ok "without GoogleTest: the configure succeeds (tools/main.sh needs no tests)" \
        || { fail "it failed"; tail -30 "$work/configure2.out"; }
      expect_in "$work/configure2.out" "SKIPPED:  the tests (ctest): GoogleTest not found (apt-get install libgtest-dev)" "it says the tests are left out"
      targets=$(ninja -C "$cfg" -t targets all 2>/dev/null | cut -d: -f1)
      grep -q "^gpaprof:" <(ninja -C "$cfg" -t targets all 2>/dev/null) && ok "gpaprof is in the build" || fail "gpaprof is not in the build"
      grep -q "gpaprof_end_to_end_tests" <<<"$targets" && fail "tests are in the build" || ok "no test is"
      rc=0
      cmake -S . -B "$work/cfg-no-gtest-required" -G Ninja -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
        -DOPENGPA_GTEST_SOURCE_DIR="$work/empty" -DOPENGPA_REQUIRE_TESTS=ON >"$work/configure3.out" 2>&1 || rc=$?
      [ "$rc" -ne 0 ] && ok "with OPENGPA_REQUIRE_TESTS=ON (tools/test.sh) the configure fails" || fail "it succeeded"
      expect_in "$work/configure3.out" "GoogleTest not found: the tests cannot be built" "saying why"
      ;;
    *) fail "unknown case '$case_name' (cases: main no-cmake no-cxx no-sudo test configure)" ;;
  esac
done

echo
if [ "$failures" -gt 0 ]; then
  echo "== setup test: $failures check(s) failed (outputs were in $work)"
  exit 1
fi
echo "== setup test passed: $cases"
