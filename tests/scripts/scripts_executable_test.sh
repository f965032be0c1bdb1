#!/usr/bin/env bash
# Every script of the tree that has a `#!` line is executable: the device scripts run them directly
# (tools/device/gpu_gpaprof_tests.sh's launch-bound step stopped with "Permission denied" on a bench script that
# was not, 2026-11-29). Sourced files have no `#!` line and are left alone.
#
# Usage: scripts_executable_test.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: scripts_executable_test.sh SOURCE_DIR}" || exit 2
# The mode git records is the one a fresh clone gets; outside a checkout of this tree (a source archive, perhaps
# unpacked inside another repository), the files' own modes.
scripts=()
if [ -e .git ]; then
  mapfile -t scripts < <(git ls-files -s -- '*.sh' '*.py' 2> /dev/null | awk '{ print $1 " " $4 }')
fi
if [ ${#scripts[@]} -eq 0 ]; then
  mapfile -t scripts < <(find . -path './build*' -prune -o \( -name '*.sh' -o -name '*.py' \) -type f \
                           \( -perm -u+x -printf '100755 %P\n' -o -printf '100644 %P\n' \))
fi
checked=0 bad=0
for entry in "${scripts[@]}"; do
  mode=${entry%% *} path=${entry#* }
  [ "$(head -c 2 "$path" 2> /dev/null)" = '#!' ] || continue
  checked=$((checked + 1))
  if [ "$mode" != 100755 ]; then
    echo "not executable: $path (it has a #! line; run: git update-index --chmod=+x $path && chmod +x $path)"
    bad=$((bad + 1))
  fi
done
echo "$checked scripts with a #! line, $bad not executable"
[ "$checked" -gt 0 ] && [ "$bad" -eq 0 ]
