# Sourced by the device scripts that run graphics APIs on the GPU machine (gpu_vulkan_tests.sh, gpu_gl_tests.sh):
# that machine has NVIDIA's Vulkan and EGL/OpenGL drivers but not their loaders, which are carried as Debian
# packages in .gl/ (the device README's recipe; the run names .gl in `carry`).
#
#   start_summary DIR          $OUT/summary.txt made empty, and record NAME TEXT appending a line to it
#   unpack_loaders LIBRARY     the packages of .gl/*.deb unpacked into / unless LIBRARY is already known to ldconfig
#   unpack_extra DIR PATTERN   the packages of .gl/extra/ matching PATTERN (headers, layers) unpacked into DIR, not /
start_summary() {
  mkdir -p "$1"
  summary=$1/summary.txt
  : > "$summary"
}

record() { printf '%-34s %s\n' "$1" "$2" | tee -a "$summary"; }

unpack_loaders() {
  ldconfig -p | grep -q "$1" && return 0
  [ -n "$(ls .gl/*.deb 2>/dev/null)" ] || { record loader "no $1 and no .gl/*.deb to carry it (device README)"; return 1; }
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
}

unpack_extra() {
  mkdir -p "$1"
  for f in .gl/extra/$2; do [ -e "$f" ] && dpkg -x "$f" "$1"; done
  return 0
}
