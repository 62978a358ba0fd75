#!/bin/sh
# SPDX-License-Identifier: MIT
# Peak resident memory of the small runs against GNU shuf on the same
# machine (issue 13: "peak RSS no higher than GNU's"): -n 1000 of
# `seq 1 2000000` on standard input and as a named file, -n 100000 of
# 400000 lines of 100 bytes on standard input, and -i 1-100 -n 5. Each command runs ROUNDS times, alternating with GNU's,
# under /usr/bin/time -f %M (no shell between time and the command: a
# shell's own pages would count); the medians are compared. Tolerance: the
# median of fairshuf may exceed GNU's by at most 5 % (the spread of one
# command's peak from run to run is 5-10 %, its median's a few %; the
# static build is 7-25 % below GNU here, the tree before the fix 57-120 %
# above; with stream version 3's forward kernels in the middle of .text,
# 97-103 %: fy.c now puts them in a section of their own). A dynamically linked fairshuf (CLI_STATIC=, see the Makefile)
# maps ld.so, libm and libsodium at start and would fail it: skipped there
# (the README promises the low start-up memory for the static command
# only), as under the sanitizer build (shadow memory), without
# /usr/bin/time and without GNU shuf 9.x.
# run.sh: alone (peak RSS beside GNU shuf's: nothing else running).
NAME=test_rss
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
G=$GNU_SHUF
ROUNDS=5
TOL=105 # percent of GNU's median

if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "sanitizer build (ASan's shadow memory is part of the RSS)"
    finish
    exit $?
fi
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    skipped "no /usr/bin/time (Debian: apt-get install time)"
    finish
    exit $?
fi
if command -v readelf >/dev/null 2>&1 && readelf -lW "$F" | grep -q INTERP; then
    skipped "dynamically linked fairshuf (CLI_STATIC=): the promise is the static command's"
    finish
    exit $?
fi
if [ "$have_gnu" != 1 ]; then
    skipped "no GNU shuf 9.x to compare with"
    finish
    exit $?
fi

seq 1 2000000 >in

# peak WHO ARGS...: the peak RSS (KB) of one run of WHO (fairshuf or GNU)
# with ARGS; standard input is $STDIN (default /dev/null).
peak() {
    _b=$1
    shift
    /usr/bin/time -f %M -o rss "$_b" "$@" <"${STDIN:-/dev/null}" >/dev/null 2>err ||
        { echo 0; return 1; }
    tail -n 1 rss
}
# median N...: the median of the numbers.
median() {
    printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}
# row NAME ARGS...: both commands ROUNDS times, alternating; fairshuf's
# median must be at most TOL % of GNU's.
row() {
    _n=$1
    shift
    _m= _g=
    _k=0
    while [ $_k -lt $ROUNDS ]; do
        _g="$_g $(peak "$G" "$@")" || { bad "$_n: GNU shuf failed: $(cat err)"; return; }
        _m="$_m $(peak "$F" "$@")" || { bad "$_n: fairshuf failed: $(cat err)"; return; }
        _k=$((_k + 1))
    done
    # shellcheck disable=SC2086
    _mm=$(median $_m)
    # shellcheck disable=SC2086
    _gm=$(median $_g)
    echo "$NAME: $_n: fairshuf $_mm KB (runs:$_m), GNU shuf $_gm KB (runs:$_g)"
    check "$_n: peak RSS $_mm KB <= $TOL % of GNU's $_gm KB" \
        test $((_mm * 100)) -le $((_gm * TOL))
}

# The link order behind these rows (the Makefile's CLI_HOT and LIB_HOT):
# the library functions every shuffle runs lie before the subcommands a
# shuffle never runs. Linked from libfairshuf.a, or with fsh_swap_bytes
# back in fy.c among the kernels, they did not (peak RSS of the first row
# 3-7 % higher, within this test's tolerance, so checked here).
if command -v nm >/dev/null 2>&1 && nm "$F" >syms 2>/dev/null && [ -s syms ]; then
    addr() { awk -v s="$1" '$3 == s { print toupper($1); exit }' syms; }
    _cold=$(for s in cmd_audit cmd_deal cmd_verify; do addr $s; done | sort | head -n 1)
    for s in fsh_shuffle fsh_swap_bytes fsh_uniform fsh_reservoir_slot fsh_rng_new \
        fsh_chacha_blocks; do
        _a=$(addr $s)
        check "link order: $s ($_a) lies before deal, verify and audit ($_cold)" \
            test -n "$_a" -a -n "$_cold" -a "$(printf '%s\n%s\n' "$_a" "$_cold" | sort | head -n 1)" = "$_a"
    done
else
    skipped "link order: no nm or no symbols in $F"
fi

STDIN=in
row "-n 1000 <FILE" -n 1000
# A large sample of long lines: GNU keeps about 170 bytes a slot; the
# reservoir's arena, doubled or copied to a fresh one as it filled with
# replaced records, held 28.6 MB here against GNU's 18.9 (now 17.0).
awk 'BEGIN { for (i = 0; i < 400000; i++) printf "%010d%089d\n", i, i }' >long
STDIN=long
row "-n 100000 of 100-byte lines <FILE" -n 100000
STDIN=/dev/null
row "-n 1000 FILE" -n 1000 in
row "-i 1-100 -n 5" -i 1-100 -n 5
finish
