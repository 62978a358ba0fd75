#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 23 (its usual wall time in s: longest first)
# A randomized differential test against GNU shuf 9.1: tests/cli/gnu_diff.py
# builds command lines from a grammar over all of GNU shuf's options (and
# its abbreviations, bundles, operands, unknown options, missing values),
# inputs (odd bytes, NUL, CRLF, long lines, stdin as a pipe, a file, closed,
# a FIFO, a directory), outputs (pipe, file, /dev/full, closed, SIGPIPE,
# EPIPE, -o FILE naming the input, the source, a directory...) and locales
# (C, C.UTF-8), runs both programs and compares exit status, standard
# error, standard output and -o's file; the rules where fairshuf differs
# on purpose are written in gnu_diff.py's header. Then the same for output
# errors: -o FILE or standard output on a full file system and under a
# file size limit.
#
#   GNU_DIFF_CASES=N  random cases (default 3000, about a minute)
#   GNU_DIFF_SEED=S   the generator's seed (default 1)
#
# A longer run: GNU_DIFF_CASES=100000 FAIRSHUF=$PWD/fairshuf sh
# tests/cli/test_gnu_diff.sh. A difference is printed with its case number;
# replay it with python3 tests/cli/gnu_diff.py --seed S --case K --show
# ./fairshuf /usr/bin/shuf.
NAME=test_gnu_diff
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if [ "$have_gnu" != 1 ]; then
    skipped "no GNU shuf 9.x at $GNU_SHUF"
elif ! command -v "$py" >/dev/null 2>&1; then
    skipped "no python3"
else
    # tally FILE RC: add gnu_diff.py's cases (FILE holds its output, RC
    # its exit status) to the counts, and print its differences.
    tally() {
        sed -n '/^DIFF\|^    \|^Traceback\|Error/p' "$1" >&2
        _line=$(tail -n 1 "$1")
        _total=$(echo "$_line" | sed -n 's/^gnu_diff: \([0-9]*\) cases, \([0-9]*\) differences$/\1/p')
        _diffs=$(echo "$_line" | sed -n 's/^gnu_diff: \([0-9]*\) cases, \([0-9]*\) differences$/\2/p')
        if [ -z "$_total" ]; then
            bad "gnu_diff.py did not finish (exit $2): $_line"
        else
            pass=$((pass + _total - _diffs))
            fail=$((fail + _diffs))
            [ "$_diffs" = 0 ] && [ "$2" != 0 ] && bad "gnu_diff.py exit $2"
        fi
    }
    cases=${GNU_DIFF_CASES:-3000}
    # Under the sanitizers each run starts slowly: a fifth of the cases.
    [ "$slow" = 1 ] && [ -z "${GNU_DIFF_CASES:-}" ] && cases=600
    seed=${GNU_DIFF_SEED:-1}
    "$py" "$top/tests/cli/gnu_diff.py" --seed "$seed" --cases "$cases" \
        "$FAIRSHUF" "$GNU_SHUF" >"$T/diff.out" 2>&1
    tally "$T/diff.out" $?

    # Output errors: a file size limit (ulimit -f, SIGXFSZ ignored or
    # not), and a full file system (a 256 KiB tmpfs, mounted in a mount
    # namespace of its own: root only). The old -o FILE, the free space,
    # the output's size and how FILE is written vary; a tenth as many
    # cases.
    "$py" "$top/tests/cli/gnu_diff.py" --fullfs "" --seed "$seed" \
        --cases $((cases / 10)) "$FAIRSHUF" "$GNU_SHUF" >"$T/fsize.out" 2>&1
    tally "$T/fsize.out" $?
    mkdir "$T/fs"
    if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
        unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1"' sh "$T/fs" 2>/dev/null; then
        unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" && shift &&
            exec "$@"' sh "$T/fs" "$py" "$top/tests/cli/gnu_diff.py" \
            --fullfs "$T/fs" --seed "$seed" --cases $((cases / 10)) \
            "$FAIRSHUF" "$GNU_SHUF" >"$T/fullfs.out" 2>&1
        tally "$T/fullfs.out" $?
    else
        skipped "a full file system (needs root, unshare -m and a tmpfs mount)"
    fi

    # The documented difference the random cases leave out (gnu_diff.py's
    # header): -r with -o naming the random source draws from the source
    # as it was (GNU shuf has emptied it: "end of file").
    cd "$T/w" || exit 1
    head -c 64 /dev/urandom >src
    cp src gsrc
    printf 'a\nb\nc\n' >in3
    run gnu "$T/g" --random-source=gsrc -r -n 20 -o gsrc in3
    check "GNU: -r -o SOURCE --random-source=SOURCE fails, SOURCE emptied" \
        test "$(cat "$T/g.rc")" = 1 -a ! -s gsrc
    mine --random-source=src -r -n 20 in3 >exp
    run mine "$T/m" --random-source=src -r -n 20 -o src in3
    check "-r -o SOURCE --random-source=SOURCE: exit 0, no message" \
        test "$(cat "$T/m.rc")" = 0 -a ! -s "$T/m.err"
    check "-r -o SOURCE --random-source=SOURCE: the draws of the old source" \
        cmp -s exp src
fi
finish
