#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each libFuzzer target for a bounded time, JOBS at a time.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS JOBS TARGET...
# New inputs go to BUILD_DIR/corpus/<target> (the committed corpus is only
# read); crashes to BUILD_DIR/crash/<target>-*. Exit status 1 on any crash.
build=$1 secs=$2 jobs=$3
shift 3
root=$(pwd)
mkdir -p "$build/logs" "$build/crash"
one() {
    t=$1
    mkdir -p "$build/corpus/$t"
    set -- "$root/$build/corpus/$t" "$root/tests/fuzz/corpus/$t"
    [ -d "tests/fuzz/regress/$t" ] && set -- "$@" "$root/tests/fuzz/regress/$t"
    dict=""
    [ -f "tests/fuzz/$t.dict" ] && dict="-dict=$root/tests/fuzz/$t.dict"
    if "$build/fuzz_$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$root/$build/crash/$t-" $dict \
        "$@" >"$build/logs/$t.log" 2>&1; then
        echo "fuzz $t: ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/logs/$t.log" | grep -o '[0-9]*$') runs, ${secs}s)"
        return 0
    fi
    echo "fuzz $t: FAILED; log: $build/logs/$t.log"
    tail -n 40 "$build/logs/$t.log"
    for c in "$build/crash/$t-"*; do
        [ -f "$c" ] || continue
        echo "  reproduce: $build/fuzz_$t $c   (or: build/tests/test_fuzz_$t $c)"
        echo "  keep it:   cp $c tests/fuzz/regress/$t/   (replayed by make check)"
    done
    return 1
}
failed=0
running=0
pids=""
for t in "$@"; do
    one "$t" &
    pids="$pids $!"
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        for p in $pids; do wait "$p" || failed=1; done
        pids=""
        running=0
    fi
done
for p in $pids; do wait "$p" || failed=1; done
[ "$failed" -eq 0 ] && echo "fuzz: all targets clean"
exit "$failed"
