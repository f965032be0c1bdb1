# Sourced by the report's script tests that run one of our OpenCL programs: `skip_without_opencl APP OUT_DIR`
# runs APP --probe and exits 77 (CTest: skipped) with the reason when there is no OpenCL device, 1 when the probe
# fails otherwise (its output is in OUT_DIR/probe.log).
skip_without_opencl() {
  local probe
  set +e
  "$1" --probe >"$2/probe.log" 2>&1
  probe=$?
  set -e
  if [ $probe -eq 77 ]; then
    echo "SKIP: no OpenCL device: the OpenCL ICD loader found no platform with a device"
    exit 77
  fi
  [ $probe -eq 0 ] || { echo "the probe failed:"; cat "$2/probe.log"; exit 1; }
}
