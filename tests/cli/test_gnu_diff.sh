#!/bin/sh
# SPDX-License-Identifier: MIT
# A randomized differential test against GNU shuf 9.1: tests/cli/gnu_diff.py
# builds command lines from a grammar over all of GNU shuf's options (and
# its abbreviations, bundles, operands, unknown options, missing values),
# inputs (odd bytes, NUL, CRLF, long lines, stdin as a pipe, a file, closed,
# a FIFO, a directory), outputs (pipe, file, /dev/full, closed, SIGPIPE,
# EPIPE, -o FILE naming the input, the source, a directory...) and locales
# (C, C.UTF-8), runs both programs and compares exit status, standard
# error, standard output and -o's file; the rules where fairshuf differs
# on purpose are written in gnu_diff.py's header.
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
    cases=${GNU_DIFF_CASES:-3000}
    # Under the sanitizers each run starts slowly: a fifth of the cases.
    [ "$slow" = 1 ] && [ -z "${GNU_DIFF_CASES:-}" ] && cases=600
    "$py" "$top/tests/cli/gnu_diff.py" --seed "${GNU_DIFF_SEED:-1}" \
        --cases "$cases" "$FAIRSHUF" "$GNU_SHUF" >"$T/diff.out" 2>&1
    rc=$?
    sed -n '/^DIFF\|^    \|^Traceback\|Error/p' "$T/diff.out" >&2
    line=$(tail -n 1 "$T/diff.out")
    total=$(echo "$line" | sed -n 's/^gnu_diff: \([0-9]*\) cases, \([0-9]*\) differences$/\1/p')
    diffs=$(echo "$line" | sed -n 's/^gnu_diff: \([0-9]*\) cases, \([0-9]*\) differences$/\2/p')
    if [ -z "$total" ]; then
        bad "gnu_diff.py did not finish (exit $rc): $line"
    else
        pass=$((pass + total - diffs))
        fail=$((fail + diffs))
        [ "$diffs" = 0 ] && [ "$rc" != 0 ] && bad "gnu_diff.py exit $rc"
    fi
fi
finish
