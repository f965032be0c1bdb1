# The bench tests' checks (sourced): check WHAT EXPECTED ACTUAL prints "ok" or "FAIL" and counts the failures;
# checks_done prints the count and exits 1 where any failed.
failures=0
check() {
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: expected '$2', got '$3'"
    failures=$((failures + 1))
  else
    echo "ok: $1: $3"
  fi
}
checks_done() {
  [ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
  exit $((failures > 0))
}
