#!/bin/sh
# SPDX-License-Identifier: MIT
# Records and files: arbitrary bytes survive, a missing final terminator is
# added, -o replaces files safely (mode kept, symlinks and hard links written
# through, input may be the output), huge ranges and streams need little
# memory and time.
# run.sh: alone (it times the huge ranges and measures peak RSS).
NAME=test_io
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF

# Odd bytes: NUL inside lines, CR, 0x80-0xff, empty and duplicate lines,
# a 3 MB line, no final newline.
printf 'a\000b\nc\r\n\n\n\377\376\200\ndup\ndup\n' >odd
head -c 3000000 /dev/zero | tr '\000' 'L' >>odd
printf '\nlast' >>odd
cp odd exp
printf '\n' >>exp
for args in "" "--seed=1" "-n 100" "--random-source=/dev/zero"; do
    # shellcheck disable=SC2086
    "$F" $args odd >out
    check "odd bytes: $args" is_perm_of exp out
    # shellcheck disable=SC2086
    cat odd | "$F" $args >out
    check "odd bytes, pipe: $args" is_perm_of exp out
done
"$F" --random-source=/dev/zero odd >out
check "all-zero source keeps the order" cmp -s exp out
printf 'x\000y\000z' >zin
printf 'x\000y\000z\000' >zexp
"$F" -z zin >out
check "-z adds the final NUL" is_perm_of zexp out -z
printf 'a\nb\n' | "$F" -z >out
check "-z: newline input is one record" test "$(od -An -c out | tr -d ' \n')" = 'a\nb\n\0'
"$F" -e '' '' x >out
check "-e empty operands are lines" test "$(sort out | tr '\n' .)" = "..x."

# -o may name the input; the mode is kept; no temporary is left.
seq 100 >f
chmod 640 f
"$F" -o f f
check "-o same as input: permutation" is_perm_of "$(seq 100 >f.exp; echo f.exp)" f
check "-o keeps the mode" test "$(stat -c %a f)" = 640
check "-o leaves no temporary" test -z "$(ls -A | grep fairshuf-tmp)"
(umask 027 && "$F" -o newf -e a)
check "-o new file honours umask" test "$(stat -c %a newf)" = 640
seq 10 >target
ln -s target link
"$F" -o link -e q
check "-o through a symlink writes the target" test "$(cat target)" = q
check "-o keeps the symlink" test -L link
seq 10 >h1
ln h1 h2
"$F" -o h1 -e w
check "-o on a hard link writes in place" test "$(cat h2)" = w
"$F" -o /dev/null s 2>/dev/null </dev/null
check "-o /dev/null" test -c /dev/null
mkfifo fifo
cat fifo >fifo.out &
"$F" -o fifo -e p q r
wait
check "-o FIFO written in place" test "$(sort fifo.out | tr -d '\n')" = pqr
check "-o FIFO still a FIFO" test -p fifo

# Reservoir with many replacements (its arena is compacted on the way).
seq 300000 | "$F" -n 100000 >res
check "-n 100000 of 300000: count" test "$(wc -l <res)" = 100000
check "-n 100000 of 300000: distinct" test "$(sort -u res | wc -l)" = 100000
check "-n 100000 of 300000: in range" test "$(sort -n res | sed -n '1p;$p' | awk '$1 >= 1 && $1 <= 300000' | wc -l)" = 2

# Huge ranges: instant, O(k) memory; the full 2^64 range is an error.
s0=$(date +%s)
"$F" -i 1-18446744073709551615 -n 10 >big10
"$F" -i 0-18446744073709551614 -n 100000 >big1e5
"$F" -r -i 1-18446744073709551615 -n 5 >bigr
s1=$(date +%s)
check "-i huge -n 10: 10 distinct" test "$(sort -u big10 | wc -l)" = 10
check "-i huge -n 100000: distinct" test "$(sort -u big1e5 | wc -l)" = 100000
check "-r -i huge" test "$(wc -l <bigr)" = 5
check "huge ranges are fast" test $((s1 - s0)) -le $((slow ? 20 : 5))
"$F" -i 0-18446744073709551615 -n 1 2>full.err
check "full 64-bit range rejected" test "$(cat full.err)" = "fairshuf: invalid input range: '0-18446744073709551615'"
"$F" -r -e a | head -n 1000 >rep
check "-r without -n runs until stopped" test "$(sort -u rep)" = a -a "$(wc -l <rep)" = 1000

# Memory: -n K on a stream and -i -n do not grow with the input.
if [ -x /usr/bin/time ] && [ "$slow" = 0 ]; then
    seq 4000000 | /usr/bin/time -f %M -o rss1 "$F" -n 10 >/dev/null
    check "-n 10 of 4e6 lines: under 16 MB" test "$(cat rss1)" -lt 16384
    /usr/bin/time -f %M -o rss2 "$F" -i 1-18446744073709551615 -n 1000 >/dev/null
    check "-i huge -n 1000: under 16 MB" test "$(cat rss2)" -lt 16384
    /usr/bin/time -f %M -o rss3 "$F" -r -n 1000000 -i 1-18446744073709551615 >/dev/null
    check "-r -i huge: under 16 MB" test "$(cat rss3)" -lt 16384
else
    skipped "memory checks (no /usr/bin/time, or sanitizer build)"
fi

finish
