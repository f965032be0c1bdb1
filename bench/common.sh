# Shared by the bench/*.sh scripts: the build directory, timing, medians and the device line.
# Usage in a script: source "$(dirname "$0")/common.sh" "$@"
set -uo pipefail
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-${1:-$BENCH_ROOT/build-gpu}}
BIN=$BUILD/bench
GPAPROF=$BUILD/bin/gpaprof
# The run's files: BENCH_TMP, or a folder of its own that goes at exit (CI's bench test left about 0.9 GB in /tmp a
# run) unless the script keeps them for the reader (BENCH_KEEPS_FILES=1 before sourcing this: it prints "files in")
# or KEEP_BENCH_TMP=1.
if [ -z "${BENCH_TMP:-}" ]; then
  BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/opengpa-bench-XXXXXX")
  if [ "${BENCH_KEEPS_FILES:-0}" != 1 ] && [ "${KEEP_BENCH_TMP:-0}" != 1 ]; then
    trap 'rm -rf "$BENCH_TMP"' EXIT
  fi
fi
mkdir -p "$BENCH_TMP"

# Wall seconds of a command (its output goes to $BENCH_TMP/last.out).
wall() {
  local start end
  start=$(date +%s.%N)
  "$@" > "$BENCH_TMP/last.out" 2>&1
  local rc=$?
  end=$(date +%s.%N)
  WALL=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}')
  return $rc
}

median() {  # median of the arguments
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f", a / b}'; }
per_kernel_ms() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {printf "%.3f", (a - b) * 1000 / n}'; }

device_line() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1
}

bench_header() {  # bench_header NAME
  echo "== $1 — $(date -u +%Y-%m-%dT%H:%MZ) — $(device_line)"
}

# PIN (a command prefix that pins a run to cores): "taskset -c 2-5" on machines of 8 cores or more, unless set (PIN=
# runs unpinned). The launch-bound benchmarks pin every contender to the same cores.
bench_default_pin() {
  if [ -z "${PIN+set}" ]; then
    PIN=$(command -v taskset > /dev/null && [ "$(nproc)" -ge 8 ] && echo "taskset -c 2-5")
  fi
}

# A GPAPROF_VARIANTS item "name:VAR=value,--option ...": gpaprof -t with that environment and those options (items
# starting with "-" are gpaprof's options, the others the environment). Sets VARIANT_NAME and VARIANT_COMMAND (the
# command up to gpaprof's own options; the caller adds -o and the program).
gpaprof_variant() {  # gpaprof_variant ITEM
  local item items variant_env=() variant_args=()
  IFS=',' read -r -a items <<< "${1#*:}"
  for item in "${items[@]}"; do
    case $item in -*) variant_args+=("$item") ;; ?*) variant_env+=("$item") ;; esac
  done
  VARIANT_NAME=${1%%:*}
  VARIANT_COMMAND="env ${variant_env[*]} $GPAPROF -t ${variant_args[*]}"
}

# The number after KEY= in the last run's output ($BENCH_TMP/last.out, from wall), in FIGURE. Without one, says so
# with the output's last lines (LABEL names the run) and returns 1.
last_figure() {  # last_figure KEY LABEL
  FIGURE=$(grep -o "$1=[0-9.]*" "$BENCH_TMP/last.out" | head -1 | cut -d= -f2)
  [ -n "$FIGURE" ] && return 0
  echo "   $2: no loop time; its output:"
  sed 's/^/     /' "$BENCH_TMP/last.out" | tail -20
  return 1
}
