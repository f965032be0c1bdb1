#!/usr/bin/env bash
# Installs what OpenGPA needs on a Debian/Ubuntu machine with apt-get; skips what is already there.
# Usage: tools/install_deps.sh [--best-effort] [--missing-file FILE] [main|all|ci]
#   main   what tools/main.sh needs: compiler, CMake, Ninja, OpenCL headers and loader, PoCL (the OpenCL device
#          on the CPU), python3 (the CUDA part's generator)
#   all    (default) main and what the tests need: GoogleTest, Vulkan, OpenGL, Chromium, the Python packages
#   ci     all and what CI adds: Clang 16, a second compiler whose warnings CI builds the tree against
#   --best-effort  when packages cannot be installed (no mirror, not root and no sudo, no apt-get), name them
#          and exit 0: the build's configure then decides whether it can go on (tools/main.sh, tools/test.sh).
#          Without it (CI) that is an error.
#   --missing-file FILE  write the packages still missing, one a line (empty when none)
set -euo pipefail

main_packages=(build-essential cmake ninja-build ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers
               pocl-opencl-icd python3)
test_packages=(libgtest-dev clinfo chromium
               libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
               libegl-dev libopengl-dev libgl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
               pkgconf python3-venv python3-pyopencl python3-numpy python3-pandas python3-pytest)
ci_packages=(clang-16)

best_effort=0 missing_file="" set=all
while [ $# -gt 0 ]; do
  case $1 in
    --best-effort) best_effort=1 ;;
    --missing-file) missing_file=$2; shift ;;
    main|all|ci) set=$1 ;;
    *) echo "usage: tools/install_deps.sh [--best-effort] [--missing-file FILE] [main|all|ci]" >&2; exit 2 ;;
  esac
  shift
done
packages=("${main_packages[@]}")
[ "$set" = main ] || packages+=("${test_packages[@]}")
[ "$set" = ci ] && packages+=("${ci_packages[@]}")

say() { echo "install_deps: $*"; }
record() {
  [ -n "$missing_file" ] || return 0
  if [ $# -eq 0 ]; then : >"$missing_file"; else printf '%s\n' "$@" >"$missing_file"; fi
}

missing_now() {
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

# Ends the script when packages are still missing: a note and exit 0 (--best-effort), an error otherwise.
give_up() {
  local why=$1; shift
  record "$@"
  say "could not install ($why): $*"
  if [ "$best_effort" = 1 ]; then
    say "going on without them: the build's configure decides what can be built, and its summary names what it skipped"
    exit 0
  fi
  say "error: packages missing (tools/main.sh and tools/test.sh go on without them where the build allows)" >&2
  exit 1
}

record
if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian/Ubuntu: nothing to check packages against.
  [ "$best_effort" = 1 ] || { say "error: dpkg-query not found: this script installs Debian/Ubuntu packages" >&2; exit 1; }
  say "dpkg-query not found (not Debian/Ubuntu): packages not checked; the build's configure decides what can be built"
  record "(not checked: no dpkg-query) ${packages[*]}"
  exit 0
fi
mapfile -t missing < <(missing_now)
[ ${#missing[@]} -eq 0 ] && exit 0

say "missing: ${missing[*]}"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || give_up "not root and no sudo" "${missing[@]}"
  SUDO=(sudo)
  [ -t 0 ] || SUDO=(sudo -n)  # no terminal to ask for a password on: fail rather than wait
fi
command -v apt-get >/dev/null 2>&1 || give_up "no apt-get" "${missing[@]}"

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
say "installing with ${SUDO[*]:+${SUDO[*]} }apt-get: ${missing[*]}"
"${SUDO[@]}" apt-get update -q >"$log" 2>&1 || { say "apt-get update failed (the package lists may be old):"; awk '/^(E|W):/ && shown++ < 5' "$log"; }
if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
  # awk alone, no pipe: under pipefail a reader that stops early fails the pipeline with SIGPIPE.
  grep -q "^E:" "$log" && awk '/^E:/ && shown++ < 10' "$log" || tail -5 "$log"
  # One unknown package fails the whole command: install the others one by one, so that only what cannot be
  # installed is left missing.
  if [ ${#missing[@]} -gt 1 ]; then
    say "installing one by one"
    for p in "${missing[@]}"; do
      "${SUDO[@]}" apt-get install -y -q --no-install-recommends "$p" >"$log" 2>&1 || say "  $p: $(awk '/^E:/ && !shown++' "$log")"
    done
  fi
fi
mapfile -t still < <(missing_now)
[ ${#still[@]} -eq 0 ] || give_up "apt-get failed" "${still[@]}"
say "installed: ${missing[*]}"
