#!/bin/sh
# SPDX-License-Identifier: MIT
# The threaded write of a full shuffle (cli/shuf/gather.c): from 8 MiB of
# input, threads copy chunks of the shuffled records into buffers and the
# main thread writes them in order. The output must be byte for byte the
# one-thread write's (--threads=1) at every thread count, whatever the
# records' lengths: short ones (thousands a chunk), 20-60 KiB ones (a
# chunk's buffer grows), records of 64 KiB and more (written in place
# between copied runs), -z, a last record without its delimiter, --header,
# -o FILE, standard input. When threads cannot be made (an LD_PRELOAD shim,
# tests/shim/nothread.c, fails pthread_create: none at all, or only the
# second) the output is the same. A write error (-o /dev/full, a closed
# standard output, a reader that stops) ends the run as with one thread:
# the same message and status. Known-bad variants, each caught here: a
# worker that copies the chunk one round after its own (19 checks fail),
# and records of 64 KiB or more left out (6 fail).
NAME=test_gather
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# Short records: 2e6 numbers (15 MB).
seq 2000000 >short
# Half the records 40-65 KB (a chunk of 64 records holds 1.7 MB on average:
# its 512 KiB buffer grows), 21 MB.
awk 'BEGIN { srand(7); s = "z"; while (length(s) < 131072) s = s s;
    for (i = 0; i < 400; i++) { print substr(s, 1, 40000 + int(rand() * 25000)); print i } }' >mid
# 143 records of 64-104 KiB among 1e5 short ones (12 MB).
awk 'BEGIN { srand(8); s = "w"; while (length(s) < 262144) s = s s;
    for (i = 0; i < 100000; i++) { print i; if (i % 700 == 0) print substr(s, 1, 65535 + int(rand() * 40000)) } }' >big
tr '\n' '\0' <short >shortz
head -c -1 short >nonl
check "short is over 8 MiB" test "$(wc -c <short)" -gt 8388608
check "big is over 8 MiB" test "$(wc -c <big)" -gt 8388608

# same NAME FILE ARGS...: FILE shuffled with --threads=2, 3 and 16 gives
# --threads=1's output, exit 0, nothing on standard error.
same() {
    _n=$1 _f=$2
    shift 2
    "$F" --seed=g7 --threads=1 "$@" "$_f" >one.out 2>one.err ||
        { bad "$_n: --threads=1 failed: $(head -n 2 one.err)"; return; }
    for _t in 2 3 16; do
        if "$F" --seed=g7 --threads=$_t "$@" "$_f" >t.out 2>t.err &&
            [ ! -s t.err ] && cmp -s one.out t.out; then
            ok
        else
            bad "$_n: --threads=$_t differs from --threads=1"
        fi
    done
}
same short short
same mid mid
same big big
same "-z" shortz -z
same "no final newline" nonl
same "--header=3" big --header=3
# The one-thread output is a permutation of the input's lines.
check "big: the output is a permutation of the lines" \
    sh -c "\"$F\" --seed=g7 --threads=1 big | sort | cmp -s - \"\$(sort big >big.sorted && echo big.sorted)\""

# -o FILE and standard input.
"$F" --seed=g8 --threads=1 mid >ref.mid
check "-o FILE, --threads=2" \
    sh -c "\"$F\" --seed=g8 --threads=2 -o o.mid mid && cmp -s ref.mid o.mid"
check "standard input, --threads=2" \
    sh -c "\"$F\" --seed=g8 --threads=2 <mid | cmp -s - ref.mid"

# No threads to be had: the same output (the shuffle's own threads are
# refused too).
if NOTHREAD=$(shim nothread) && D=$(dynamic); then
    for _a in 0 1; do
        check "pthread_create failing after $_a threads: the same output" \
            sh -c "env LD_PRELOAD=\"$NOTHREAD\" FSH_NOTHREAD_AFTER=$_a \"$D\" --seed=g8 --threads=3 mid | cmp -s - ref.mid"
    done
else
    skipped "pthread_create failing (no nothread shim or dynamic binary)"
fi

# Write errors, as with one thread.
for _t in 1 2; do
    "$F" --seed=g7 --threads=$_t -o /dev/full short >full$_t.out 2>full$_t.err
    echo $? >full$_t.rc
    (exec >&-; "$F" --seed=g7 --threads=$_t short) 2>closed$_t.err
    echo $? >closed$_t.rc
    # A reader that stops after the first line: SIGPIPE, or with SIGPIPE
    # ignored an EPIPE write error.
    ("$F" --seed=g7 --threads=$_t short 2>pipe$_t.err; echo $? >pipe$_t.rc) |
        head -n 1 >/dev/null
    (trap '' PIPE; "$F" --seed=g7 --threads=$_t short 2>epipe$_t.err | head -n 1 >/dev/null)
done
check "-o /dev/full: status 1" test "$(cat full2.rc)" = 1
check "-o /dev/full: the one-thread message" cmp -s full1.err full2.err
check "-o /dev/full: a message" test -s full2.err
check "closed standard output: the one-thread status" cmp -s closed1.rc closed2.rc
check "closed standard output: the one-thread message" cmp -s closed1.err closed2.err
check "a reader that stops: the one-thread status" cmp -s pipe1.rc pipe2.rc
check "a reader that stops: the one-thread message" cmp -s pipe1.err pipe2.err
check "EPIPE (SIGPIPE ignored): the one-thread message" cmp -s epipe1.err epipe2.err
check "EPIPE (SIGPIPE ignored): a message" test -s epipe2.err

finish
