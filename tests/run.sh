#!/bin/sh
# Run every test program in BUILD/tests and every CLI test script in
# tests/cli; print each one's output, then "N passed, N failed".
# Usage: tests/run.sh BUILD_DIR FAIRSHUF_BINARY
build=${1:-build}
FAIRSHUF=$(cd "$(dirname "${2:-./fairshuf}")" && pwd)/$(basename "${2:-./fairshuf}")
export FAIRSHUF
passed=0
failed=0
failures=""
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    if "$t"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures="$failures $name"
    fi
done
for t in tests/cli/test_*.sh; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    if sh "$t"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures="$failures $name"
    fi
done
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
