#!/bin/sh
# SPDX-License-Identifier: MIT
# Faults: unreadable input, write errors (/dev/full, closed stdout, broken
# pipe, file size limit), memory exhaustion, and signals during -o: the
# messages and exit codes match GNU shuf where it is deterministic, and a
# failed or interrupted run leaves no temporary file and no partial output.
# The signal checks pass however the script is started: they are re-run
# under nohup and with HUP, INT, TERM and PIPE ignored at entry
# (FSH_FAULTS_SIGNALS=1 runs only them).
NAME=test_faults
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
# A signal ignored when this shell started stays ignored in everything it
# runs, and no shell can undo that (POSIX: such traps are silently refused).
# Commands whose checks rely on a signal's default action run under env
# --default-signal (coreutils 9.1), which restores it for them.
sigs=HUP,INT,TERM,PIPE,XFSZ
if env --default-signal=$sigs true 2>/dev/null; then
    dflt="env --default-signal=$sigs"
else
    dflt=
fi

printf 'a\nb\nc\n' >in3
seq 1000 >s1000
seq 2000 >s2000
seq 300000 >big
head -c 4095 /dev/zero | tr '\000' x >l4096
echo >>l4096
no_temps() { [ -z "$(ls -A "$1" | grep 'fairshuf-tmp' | head -n 1)" ]; }

# Checks that rely on signals' default actions.
signal_checks() {
    if [ -z "$dflt" ]; then
        skipped "signal checks (no env --default-signal)"
        return 0
    fi
    (seq 100000 | $dflt "$F" | head -n 1 >/dev/null) 2>pipe.err
    check "SIGPIPE: silent" test ! -s pipe.err
    echo precious >keep
    $dflt sh -c 'ulimit -f 8; exec "$1" -o keep big' sh "$F" 2>/dev/null
    check "SIGXFSZ: FILE untouched" test "$(cat keep)" = precious
    check "SIGXFSZ: no temporary" no_temps .
    # Signals while the temporary is being written. Background jobs of a
    # non-interactive shell start with SIGINT ignored too (and fairshuf
    # keeps ignored signals ignored).
    for sig in TERM INT HUP; do
        echo precious >keep
        $dflt "$F" -r -n 100000000 -i 1-9 -o keep &
        pid=$!
        i=0
        while no_temps . && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
        check "SIG$sig: temporary existed" test $i -lt 200
        kill -s $sig $pid
        { wait $pid; } 2>/dev/null
        rc=$?
        check "SIG$sig: killed by the signal" test $rc -gt 128
        check "SIG$sig: FILE untouched" test "$(cat keep)" = precious
        check "SIG$sig: no temporary" no_temps .
    done
    # SIGTERM while input is still arriving: nothing created at all.
    (sleep 1; echo late 2>/dev/null) | $dflt "$F" -o fresh &
    pid=$!
    sleep 0.3
    kill -s TERM $pid 2>/dev/null
    { wait $pid; } 2>/dev/null
    check "SIGTERM before output: no file" test ! -e fresh
    check "SIGTERM before output: no temporary" no_temps .
}
if [ -n "${FSH_FAULTS_SIGNALS:-}" ]; then
    signal_checks
    finish
    exit
fi

# Unreadable input (EIO from /proc/self/mem works even as root).
gcheck "EIO input" same_errors /proc/self/mem
gcheck "EIO input -n" same_errors -n 2 /proc/self/mem
gcheck "directory input" same_errors .
if [ "$(id -u)" != 0 ]; then
    printf 'x\n' >noperm
    chmod 000 noperm
    gcheck "permission denied" same_errors noperm
    mkdir rodir
    chmod 555 rodir
    gcheck "-o in read-only directory" same_errors -o rodir/x in3
    chmod 755 rodir
else
    skipped "permission tests (running as root)"
fi

# Write errors: one message when stdio would only notice at close, two when
# it notices mid-stream (then a bare "write error" from close_stdout).
for args in "in3" "s1000" "s2000" "l4096" "-n 1 s1000" "-i 1-2000" \
    "-n0 -e a" "-e a" "--random-source=s2000 -i 1-3000"; do
    # shellcheck disable=SC2086
    OUT=/dev/full gcheck "/dev/full: $args" same_errors $args
    # shellcheck disable=SC2086
    gcheck "-o /dev/full: $args" same_errors -o /dev/full $args
    # shellcheck disable=SC2086
    OUT=closed gcheck "closed stdout: $args" same_errors $args
done
# GNU loops forever on an endless -r into a closed stdout; /dev/full is fine.
OUT=/dev/full gcheck "/dev/full: -r -i 1-10" same_errors -r -i 1-10
OUT=closed gcheck "closed stdout, no output" same_errors -n 0
if [ "$have_gnu" = 1 ]; then
    for who in gnu mine; do
        (trap '' PIPE; seq 100000 | "$who" | head -n 1 >/dev/null) 2>"$who.err"
    done
    check "EPIPE when SIGPIPE is ignored" cmp -s gnu.err mine.err
fi

# -o FILE: a failed write leaves FILE as it was and no temporary behind.
echo precious >keep
(ulimit -f 8; trap '' XFSZ; "$F" -o keep big) 2>fsz.err
check "file too large: exit 1" test $? = 1
check "file too large: message" grep -q 'write error: File too large' fsz.err
check "file too large: FILE untouched" test "$(cat keep)" = precious
check "file too large: no temporary" no_temps .

# Memory exhaustion is reported at once, as GNU does, not a crash and not
# a run that grows until the OOM killer ends it: a plan that can never get
# its memory fails before anything is written. Each run is bounded by
# lib.sh's memcap: ulimit -v in a plain build, which refuses the plans
# below; an ASan build cannot run under it, and refuses instead any single
# request over its 1 TiB allocation cap, so the plans run in both builds
# ask for more than that: -i of 2e11 values (1.6 TB of 64-bit values, the
# shuffle's copy as much again); -n 1.5e11 of them (the array, 1.6 TB, or
# the position map for 1.5e11 draws, 8 TiB, which used to grow by
# doubling while the values were written: 400 MB written in 15 s under
# 1 GB of ulimit -v, 24 GB and an OOM kill in 213 s without).
# memx PREFIX ARGS...: fairshuf ARGS under memcap and a 5 s timeout, to
# PREFIX.out, .err, .rc; exhausted PREFIX: exit 1, GNU's message alone,
# nothing written (ASan's warning for each request it refuses aside).
memx() {
    _p=$1
    shift
    (memcap; exec timeout 5 "$F" "$@") >"$_p.out" 2>"$_p.err"
    echo $? >"$_p.rc"
}
exhausted() {
    test "$(cat "$1.rc")" = 1 && test ! -s "$1.out" &&
        test "$(grep -v '^==[0-9]*==WARNING: AddressSanitizer failed to allocate ' "$1.err")" = \
            "fairshuf: memory exhausted"
}
mkdir mx
i=0
for args in "-i 1-200000000000" "-i 1-200000000000 -n 150000000000" \
    "-i 1-200000000000 -n 150000000000 -o mx/out.txt" \
    "--random-source=in3 -i 1-200000000000 -n 150000000000"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    memx mx$i $args
    check "memory exhausted at once: $args" exhausted mx$i
    if [ "$have_gnu" = 1 ]; then
        # shellcheck disable=SC2086
        (ulimit -v 1000000; gnu $args) >/dev/null 2>g.err
        check "memory exhausted: GNU too: $args" \
            test $? = 1 -a "$(cat g.err)" = "shuf: memory exhausted"
    fi
done
check "memory exhausted: -o FILE not created, no temporary" \
    test -z "$(ls -A mx)"
# Plans a large machine could grant need the C library's allocator and
# ulimit -v: an ASan binary has neither (it cannot run under ulimit -v,
# and its runtime keeps malloc and mmap ahead of any preloaded shim).
# -i 1-4000000000 asks for 16 GB of 32-bit values, and as much again for
# the shuffle's copy. A plan made of parts: under Linux's heuristic
# overcommit the kernel refuses only a single request beyond RAM + swap,
# so on 24 GB that run got its 16 GB of values, filled them, then got the
# copy and was ended by the OOM killer. The libovercommit.so shim plays
# such a machine with 200 MB (under memcap as well): -i 1-30000000 is
# 120 MB of values and a 120 MB copy, refused in one request at once; on
# 260 MB it runs.
if [ "$slow" = 1 ]; then
    skipped "-i 1-4000000000 under ulimit -v, and the overcommit shim (an ASan binary cannot run under ulimit -v, and keeps malloc and mmap from the shim)"
else
    memx mx0 -i 1-4000000000
    check "memory exhausted: -i 1-4000000000" exhausted mx0
fi
if [ "$slow" = 1 ]; then
    :
elif OC=$(shim overcommit) && FD=$(dynamic); then
    # oc SECS MAX PREFIX ARGS...: fairshuf on a machine of MAX bytes, ended
    # after SECS; the number of output lines to PREFIX.out. The refusal
    # must come at once (5 s); the run that fits writes 30 million lines,
    # which took over 5 s on a loaded host (60 s).
    oc() {
        _t=$1
        _m=$2
        _p=$3
        shift 3
        ( (memcap; FSH_OVERCOMMIT_MAX=$_m LD_PRELOAD=$OC \
            exec timeout "$_t" "$FD" "$@" 2>"$_p.err")
            echo $? >"$_p.rc") | wc -l >"$_p.out"
    }
    oc 5 200000000 oc1 -i 1-30000000
    check "overcommit: -i 1-30000000 on 200 MB: exit 1 at once, no output" \
        test "$(cat oc1.rc) $(cat oc1.out)" = "1 0"
    check "overcommit: -i 1-30000000 on 200 MB: message" \
        test "$(cat oc1.err)" = "fairshuf: memory exhausted"
    oc 60 260000000 oc2 -i 1-30000000
    check "overcommit: -i 1-30000000 on 260 MB: every value" \
        test "$(cat oc2.rc) $(cat oc2.out)" = "0 30000000"
else
    bad "overcommit: no libovercommit.so or no dynamically linked twin near $F (make build/tests/libovercommit.so build/dyn/fairshuf)"
fi
# Sparse plans that fit still run: -n 10^6 of 10^10 needs a 32 MiB map.
memx sp -i 1-10000000000 -n 1000000
check "-i 1-1e10 -n 1e6 under the limit: 10^6 distinct values" \
    sh -c 'test "$(cat sp.rc)" = 0 && test "$(sort -u sp.out | wc -l)" = 1000000'

# Random source read errors and end of file, with partial -r output as GNU.
gcheck "random source EIO" same_errors --random-source=/proc/self/mem in3
gcheck "random source EOF during -r" same_all --random-source=in3 -r -i 1-1000

signal_checks
# The same checks with the signals ignored at entry, as nohup and some CI
# runners start scripts.
if [ -n "$dflt" ]; then
    FSH_FAULTS_SIGNALS=1 nohup sh "$SELF" >nohup.log 2>&1
    check "signal checks under nohup" test $? = 0 || cat nohup.log >&2
    FSH_FAULTS_SIGNALS=1 sh -c 'trap "" HUP INT TERM PIPE; exec sh "$1"' \
        sh "$SELF" >ign.log 2>&1
    check "signal checks with HUP INT TERM PIPE ignored" test $? = 0 ||
        cat ign.log >&2
fi

finish
