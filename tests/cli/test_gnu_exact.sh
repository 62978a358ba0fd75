#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 23 (its usual wall time in s: longest first)
# --random-source=FILE gives byte-identical output to GNU shuf 9.1: a
# differential test over files, stdin (regular and pipe), -e, -i, -n, -r, -z,
# the reservoir path (pipes, files over 8 MiB) and many random sources,
# including ones too short (GNU's "end of file" error, same partial output).
NAME=test_gnu_exact
. "$(dirname "$0")/lib.sh"

if [ "$have_gnu" != 1 ]; then
    skipped "no GNU shuf 9.x at $GNU_SHUF"
    finish
    exit $?
fi
cd "$T/w" || exit 1

# Deterministic pseudo-random bytes: a 64-bit LCG's top bytes via awk would
# be slow, so stretch fairshuf's own seeded output (any bytes will do: this
# is a differential test) and keep the files for a failing run's report.
bytes() { # bytes SEED COUNT > file
    "$FAIRSHUF" --seed="$1" -r -n "$2" -i 0-255 |
        awk 'BEGIN { for (i = 0; i < 256; i++) c[i] = sprintf("%c", i) }
             { printf "%s", c[$1] }' 2>/dev/null
}
# awk cannot print NUL bytes everywhere; build sources with od-free tools.
mk_source() { # mk_source NAME SEED COUNT
    bytes "$2" "$3" >"$1"
    if [ "$(wc -c <"$1")" != "$3" ]; then
        head -c "$3" /dev/urandom >"$1"
    fi
}
mk_source rs_a 1 70000
mk_source rs_b 2 70000
head -c 70000 /dev/urandom >rs_u
head -c 70000 /dev/zero >rs_zero
head -c 70000 /dev/zero | tr '\000' '\377' >rs_ff
head -c 6000000 /dev/urandom >rs_big
: >rs_0
head -c 1 /dev/urandom >rs_1
head -c 2 /dev/urandom >rs_2
head -c 3 /dev/urandom >rs_3
head -c 7 /dev/urandom >rs_7
head -c 100 /dev/urandom >rs_100
sources="rs_a rs_b rs_u rs_zero rs_ff rs_0 rs_1 rs_3 rs_7 rs_100"

# Inputs: sizes 0 .. 20000 lines, odd bytes, no final newline.
: >e0
printf 'x\n' >e1
printf 'x\ny\n' >e2
printf 'a\nb\nc' >nofinal
printf 'a\000b\nc\r\n\n\n\377\376\ndup\ndup\n' >odd
seq 10 >s10
seq 100 >s100
seq 1000 >s1000
seq 20000 >s20000
printf 'a\000b\000c\000' >z3
printf 'a\nb\n' >z1

n=0
for rs in $sources; do
    for args in "e0" "e1" "e2" "nofinal" "odd" "s10" "s100" "s1000" \
        "s20000" "-n 1 s1000" "-n 5 s20000" "-n 999 s1000" "-n 1000 s1000" \
        "-n 5000 s1000" "-n 0 s1000" "-z z3" "-z z1" "-zn2 z3" \
        "-i 1-1" "-i 1-2" "-i 0-9" "-i 1-1000" "-i 4-3" "-n 3 -i 1-5" \
        "-i 1-1000000 -n 20" "-i 1-131072 -n 5000" "-i 1-200000 -n 6000" \
        "-i 5-18446744073709551615 -n 10" "-i 0-18446744073709551614 -n 3" \
        "-e a b c d e" "-e" "-e x" "-n 2 -e a b c d e" "-z -e a b c" \
        "-r -n 50 s1000" "-r -n 30 -i 1-1000" "-r -n 20 -e p q r" \
        "-r -n 5 -i 0-18446744073709551614" "-r -n 0 s10" "-r -n 9 e1"; do
        # shellcheck disable=SC2086
        check "--random-source=$rs $args" same_all --random-source="$rs" $args
        n=$((n + 1))
    done
done

# stdin: regular file (read whole when at most 8 MiB) and pipes (always the
# reservoir path with -n, whose output order differs from the file path).
for rs in rs_a rs_zero rs_ff rs_3 rs_100; do
    for k in 1 2 5 999 1000 1001 30000; do
        IN=$T/w/s1000 check "stdin file -n $k $rs" same_all --random-source=$rs -n $k
        for who in gnu mine; do
            cat s1000 | "$who" --random-source=$rs -n $k >"$T/$who.out" 2>"$T/$who.err"
            echo $? >>"$T/$who.err"
        done
        check "pipe -n $k $rs" cmp -s "$T/gnu.out" "$T/mine.out"
        check "pipe -n $k $rs stderr" cmp -s "$T/gnu.err" "$T/mine.err"
    done
    for who in gnu mine; do
        cat odd nofinal | "$who" --random-source=$rs -n 4 >"$T/$who.out" 2>"$T/$who.err"
        echo $? >>"$T/$who.err"
    done
    check "pipe odd bytes $rs" cmp -s "$T/gnu.out" "$T/mine.out"
    check "pipe odd bytes $rs stderr" cmp -s "$T/gnu.err" "$T/mine.err"
done

# Files around GNU's 8 MiB reservoir threshold, and stdin at an offset.
seq 1300000 >big
head -c 8388608 big >at8m
head -c 8388609 big >over8m
for f in at8m over8m big; do
    check "threshold $f -n 3" same_all --random-source=rs_big -n 3 $f
done
check "threshold big -n 100000" same_all --random-source=rs_big -n 100000 big
for who in gnu mine; do
    cat big | "$who" --random-source=rs_big -n 100000 >"$T/$who.out" 2>&1
done
check "pipe -n 100000 of 1.3e6 (reservoir compaction)" cmp -s "$T/gnu.out" "$T/mine.out"
check "big -n 5 short source" same_all --random-source=rs_a -n 5 big
for who in gnu mine; do
    { dd bs=1048576 count=1 of=/dev/null 2>/dev/null
      "$who" --random-source=rs_big -n 4; } <big >"$T/$who.out" 2>&1
done
check "stdin at an offset" cmp -s "$T/gnu.out" "$T/mine.out"
for who in gnu mine; do
    "$who" --random-source=rs_big -n 7 <big >"$T/$who.out" 2>&1
done
check "stdin big file -n 7" cmp -s "$T/gnu.out" "$T/mine.out"

# A source that runs out while -r writes. GNU's error() flushes what stdio
# holds before its message, so the output comes first (2>&1); when that
# flush fails, close_stdout adds "write error" (with close's error when
# stdout is closed); and when stdio had to write before (more than its
# buffer), GNU stopped there with its write error. Draws of 2 take a bit
# each: 3, 100 and 1000 bytes give 48, 1600 and 16000 bytes of output.
head -c 1000 /dev/urandom >rs_1000
for who in gnu mine; do
    "$who" --random-source=rs_3 -r -n 100 -e a b >"$T/$who.both" 2>&1
    echo $? >>"$T/$who.both"
done
check "source ends during -r: the output, then the message" cmp -s "$T/gnu.both" "$T/mine.both"
for rs in rs_3 rs_100 rs_1000; do
    OUT=/dev/full check "source ends during -r, stdout /dev/full ($rs)" \
        same_errors --random-source=$rs -r -n 100000 -e a b
    OUT=closed check "source ends during -r, stdout closed ($rs)" \
        same_errors --random-source=$rs -r -n 100000 -e a b
    check "source ends during -r, -o /dev/full ($rs)" \
        same_errors --random-source=$rs -r -n 100000 -e a b -o /dev/full
done

# -i LO-HI -n K with K below the range: a prefix of GNU's permutation,
# whose draws fsh_rangeperm_next_n makes 16 steps ahead of the steps that
# use them. Counts around that distance and its multiples, K = 1 and
# K = n - 1, small and large ranges, both sides of GNU's own storage
# switch (randperm_new: a hash table when n >= 128 Ki and K <= n / 64,
# else an array; fairshuf switches at n <= 2K), ranges of 2^64 - 1
# values; a source of zeros (no retries), one of 0xff bytes (retries; the
# larger runs end in "end of file") and rs_big.
for rs in rs_big rs_zero rs_ff; do
    for args in "-i 1-40 -n 15" "-i 1-40 -n 16" "-i 1-40 -n 17" \
        "-i 1-40 -n 39" "-i 1-100 -n 33" "-i 1-1000 -n 999" \
        "-i 1-1000 -n 512" "-i 1-1000 -n 513" "-i 1-1000000 -n 1" \
        "-i 1-131071 -n 2047" "-i 1-131072 -n 2048" "-i 1-131072 -n 2049" \
        "-i 1-131072 -n 65537" "-i 1-131072 -n 131071" \
        "-i 1-20000000 -n 300000" "-i 1000000-1999999999 -n 100000" \
        "-i 0-18446744073709551614 -n 20000" \
        "-i 7-18446744073709551615 -n 5000" "-z -i 1-300000 -n 4097"; do
        # shellcheck disable=SC2086
        check "--random-source=$rs $args" same_all --random-source=$rs $args
    done
done

# A source that ends part-way through those draws: GNU makes them all
# before it opens the output, so it writes nothing (an -o FILE is neither
# created nor truncated) and says "'FILE': end of file", exit 1. The
# source is rs_big cut one byte short of what the run needs (the last draw
# fails; found by bisection on GNU), cut at half of that, and at exactly
# that (the run succeeds).
need() { # need ARGS...: the fewest bytes of rs_big with which GNU succeeds
    _lo=0
    _hi=$(wc -c <rs_big)
    while [ $((_hi - _lo)) -gt 1 ]; do
        _mid=$(((_lo + _hi) / 2))
        head -c "$_mid" rs_big >rs_cut
        if gnu --random-source=rs_cut "$@" >/dev/null 2>&1; then
            _hi=$_mid
        else
            _lo=$_mid
        fi
    done
    echo "$_hi"
}
# same_o ARGS...: with -o FILE, where FILE held "keep": FILE the same
# afterwards for GNU and fairshuf (absent if it was absent), and the same
# standard error and exit status.
same_o() {
    for _w in gnu mine; do
        rm -f "o_$_w" "o_$_w.new"
        printf 'keep\n' >"o_$_w"
        "$_w" "$@" -o "o_$_w" >"o_$_w.res" 2>&1
        echo $? >>"o_$_w.res"
        "$_w" "$@" -o "o_$_w.new" >/dev/null 2>&1
        [ -e "o_$_w.new" ] && cat "o_$_w.new" >>"o_$_w"
    done
    cmp -s o_gnu o_mine && cmp -s o_gnu.res o_mine.res
}
for args in "-i 1-1000000 -n 5000" "-i 1-40000 -n 30000" \
    "-i 1-1000000 -n 3" "-i 0-18446744073709551614 -n 1000"; do
    # shellcheck disable=SC2086
    L=$(need $args)
    for c in $((L - 1)) $((L / 2)) "$L"; do
        head -c "$c" rs_big >"rs_cut$c"
        # shellcheck disable=SC2086
        check "source of $c bytes (needs $L): $args" \
            same_all --random-source="rs_cut$c" $args
        # shellcheck disable=SC2086
        check "source of $c bytes (needs $L): $args -o FILE" \
            same_o --random-source="rs_cut$c" $args
    done
done
# shellcheck disable=SC2086
run mine "$T/m" --random-source="rs_cut$((L - 1))" $args
check "one byte short: no output, GNU's message, exit 1" \
    test ! -s "$T/m.out" -a "$(cat "$T/m.rc")" = 1 -a \
    "$(cat "$T/m.err")" = "shuf: 'rs_cut$((L - 1))': end of file"
for rs in . /proc/self/mem; do
    check "source $rs: -i 1-1000000 -n 5000" \
        same_errors --random-source=$rs -i 1-1000000 -n 5000
done

# Sources that are not plain files.
check "source is a directory" same_all --random-source=. s10
check "source /dev/zero" same_all --random-source=/dev/zero s1000
check "source /dev/zero -r" same_all --random-source=/dev/zero -r -n 10 s1000
for who in gnu mine; do
    "$who" --random-source=/dev/stdin -n 5 s1000 <rs_b >"$T/$who.out" 2>&1
done
check "source on stdin" cmp -s "$T/gnu.out" "$T/mine.out"

finish
