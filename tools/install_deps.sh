#!/usr/bin/env bash
# Installs what OpenGPA needs to build and test on a Debian/Ubuntu machine; skips what is already there.
set -euo pipefail
packages=(build-essential cmake ninja-build libgtest-dev pocl-opencl-icd ocl-icd-opencl-dev ocl-icd-libopencl1
          opencl-headers clinfo python3 chromium
          libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
          libegl-dev libopengl-dev libgl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
          pkgconf python3-venv python3-pyopencl python3-numpy python3-pandas python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
