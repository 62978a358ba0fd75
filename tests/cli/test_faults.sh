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

# Memory exhaustion is reported, not a crash (not under ASan, which needs a
# large address space).
if [ "$slow" = 0 ]; then
    (ulimit -v 300000; "$F" -i 1-4000000000) >/dev/null 2>mem.err
    check "memory exhausted: exit 1" test $? = 1
    check "memory exhausted: message" test "$(cat mem.err)" = "fairshuf: memory exhausted"
    if [ "$have_gnu" = 1 ]; then
        (ulimit -v 300000; gnu -i 1-4000000000) >/dev/null 2>g.err
        (ulimit -v 300000; mine -i 1-4000000000) >/dev/null 2>m.err
        check "memory exhausted: as GNU" cmp -s g.err m.err
    fi
fi

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
