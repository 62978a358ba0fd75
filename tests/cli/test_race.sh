#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 18 (its usual wall time in s: longest first)
# Files that change while they are read (issue 9, item 1): a file that
# grows, shrinks or is edited in place between or during the reads, in
# external mode (small --memory; 2^20 records or fewer, and more) and in
# memory, for every reader (full shuffle, -n reservoir, -r,
# --random-source). Never a crash, never a temporary left behind; either a
# permutation of one consistent content or "FILE: file changed as we read
# it" with exit status 1 and -o FILE untouched. The change is made at a
# known point by an LD_PRELOAD shim (tests/shim/race.c, built by make).
NAME=test_race
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
if ! RACE=$(shim race); then
    bad "no librace.so near $F (make build/tests/librace.so)"
    finish
    exit $?
fi
# The shim needs a dynamically linked binary (lib.sh: dynamic).
if ! F=$(dynamic); then
    bad "no dynamically linked fairshuf for the shim (make build/dyn/fairshuf)"
    finish
    exit $?
fi
# An ASan binary wants its runtime first; the shim only wraps read(2).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# small: 200 000 records (position groups); big: 1.1e6 (bucket groups).
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%06d abcdefghijklmnopqrstuv\n", i }' >small
awk 'BEGIN { for (i = 0; i < 1100000; i++) printf "%07d\n", i }' >big

# race NAME FILE AT OP ARGS...: copy FILE to od/in, run fairshuf on it with
# the shim (-T tmp -o od/out, which holds "old" before), then check the
# invariants; leaves rc, out (the output or empty) and od/in (the file as
# the shim left it) for the caller.
race() {
    _n=$1 _f=$2 _at=$3 _op=$4
    shift 4
    rm -rf tmp od
    mkdir tmp od
    cp "$_f" od/in
    echo old >od/out
    env LD_PRELOAD="$RACE" FSH_RACE_FILE="$T/w/od/in" FSH_RACE_AT="$_at" \
        FSH_RACE_OP="$_op" "$F" -T tmp -o od/out "$@" od/in 2>err
    rc=$?
    if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
        bad "$_n: exit status $rc ($(head -c 200 err))"
        return 1
    fi
    if [ -n "$(ls -A tmp)" ] || [ "$(ls -A od | sort | tr '\n' ' ')" != "in out " ]; then
        bad "$_n: temporaries left: $(ls -A tmp od | tr '\n' ' ')"
        return 1
    fi
    if [ "$rc" = 1 ]; then
        if [ "$(cat err)" != "fairshuf: od/in: file changed as we read it" ] ||
            [ "$(cat od/out)" != old ]; then
            bad "$_n: failure without the message or with -o changed: $(head -c 200 err)"
            return 1
        fi
        : >out
    else
        cp od/out out
    fi
    ok
}
# perm_of_one OUT FILE...: OUT is a permutation of one of the FILEs.
perm_of_one() {
    _o=$1
    shift
    for _c in "$@"; do is_perm_of "$_c" "$_o" && return 0; done
    return 1
}
# rc_is N COMMAND...: the last race exited N and COMMAND succeeds.
rc_is() {
    _want=$1
    shift
    [ "$rc" = "$_want" ] && "$@"
}
cat small small >small2
cat big big >big2

for f in small big; do
    # External mode: pass 1 re-reads the file that pass 0 counted.
    race "$f ext: shrinks after the count" $f eof shrink --memory=1M &&
        check "$f ext: shrinks after the count: fails" test "$rc" = 1
    race "$f ext: grows after the count" $f eof grow --memory=1M &&
        check "$f ext: grows after the count: the first snapshot" \
            rc_is 0 cmp -s ${f}2 od/in &&
        check "$f ext: grows after the count: output" is_perm_of $f out
    race "$f ext: edited after the count" $f eof edit --memory=1M &&
        check "$f ext: edited after the count: fails" test "$rc" = 1
    # Changes during the count pass: whatever the outcome, one content.
    for op in shrink grow edit; do
        race "$f ext: $op during the count" $f data $op --memory=1M &&
            if [ "$rc" = 0 ]; then
                check "$f ext: $op during the count: one content" \
                    perm_of_one out $f od/in
            fi
    done
    # In memory: one read to the end of the file.
    for op in shrink grow edit; do
        race "$f mem: $op during the read" $f data $op &&
            check "$f mem: $op during the read: one content" \
                rc_is 0 perm_of_one out $f od/in
    done
done

# Named file as standard input: the message says so.
rm -rf tmp od
mkdir tmp od
cp small od/in
echo old >od/out
env LD_PRELOAD="$RACE" FSH_RACE_FILE="$T/w/od/in" FSH_RACE_AT=eof \
    FSH_RACE_OP=shrink "$F" -T tmp -o od/out --memory=1M <od/in 2>err
check "stdin ext: shrinks: exit 1" test $? = 1
check "stdin ext: shrinks: message" \
    test "$(cat err)" = "fairshuf: standard input: file changed as we read it"

# The other readers read once; they never crash, and print records of the
# file as it was or as the shim left it.
# subset_of OUT A B: every record of OUT is one of A's or B's.
subset_of() {
    sort -u "$1" >"$T/s1"
    sort -u "$2" "$3" >"$T/s2"
    comm -23 "$T/s1" "$T/s2" | cmp -s - /dev/null
}
for args in "-n 3" "-n 300000" "-r -n 1000" "--random-source=small -n 5" \
    "--random-source=small"; do
    for op in shrink grow edit; do
        # shellcheck disable=SC2086
        race "$args: $op during the read" small data $op $args &&
            check "$args: $op: records of the file" rc_is 0 subset_of out small od/in
    done
done

# The everyday case: a log appended to while it is shuffled externally. The
# output is the file as it was when first read to its end: its first K - 1
# lines and the K-th, whole or cut short, with a newline added. Cut short:
# Linux makes a write that crosses a page boundary visible a page at a time
# (the file's size grows after each page is copied), so a reader that gets
# to the end meanwhile sees the appender's line half written (here about
# one run in 400; with 3 KB lines one in 10: the flake "appended log: a
# prefix of the log" of an earlier sanitizer run).
rm -rf tmp od
mkdir tmp od
cp small od/log
(i=0; while [ ! -e stop ]; do i=$((i + 1)); echo "appended line $i" >>od/log; done) &
app=$!
"$F" -T tmp --memory=1M od/log >out 2>err
rc=$?
: >stop
wait $app
check "appended log: exit 0" test "$rc" = 0
# snapshot_of OUT LOG: OUT's K records are LOG's first K - 1 lines and one
# more, a prefix of LOG's line K (or all of it).
snapshot_of() {
    _k=$(wc -l <"$1")
    [ "$_k" -ge 1 ] || return 1
    head -n $((_k - 1)) "$2" | sort >"$T/s1"
    sort "$1" >"$T/s2"
    # Nothing of the first K - 1 lines missing, one record more.
    comm -23 "$T/s1" "$T/s2" | cmp -s - /dev/null || return 1
    comm -13 "$T/s1" "$T/s2" >"$T/s3"
    [ "$(wc -l <"$T/s3")" = 1 ] && [ -n "$(cat "$T/s3")" ] || return 1
    _line=$(sed -n "${_k}p" "$2")
    case $_line in "$(cat "$T/s3")"*) return 0 ;; esac
    return 1
}
check "appended log: a prefix of the log" snapshot_of out od/log
check "appended log: at least the start" test "$(wc -l <out)" -ge 200000
check "appended log: no temporaries" test -z "$(ls -A tmp)"
finish
