#!/bin/sh
# SPDX-License-Identifier: MIT
# --seed=STRING: reproducible output; inputs with the same number of records
# get the same permutation whatever their contents or how they arrive (file,
# stdin, pipe, -e, -i for whole ranges); golden outputs lock the stream.
NAME=test_cli_seed
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF

seq 50 >a
sed 's/^/translation of sentence /' a >b
awk '{ printf "%c%s\n", 65 + NR % 26, $0 "\001\377" }' a >c

"$F" --seed=corpus a >a.out
"$F" --seed=corpus b >b.out
"$F" --seed=corpus c >c.out
check "same seed, same output" cmp -s a.out "$("$F" --seed=corpus a >a2.out; echo a2.out)"
check "aligned corpora stay aligned" cmp -s a.out "$(sed 's/^translation of sentence //' b.out >b.num; echo b.num)"
check "contents do not matter" cmp -s a.out "$(sed 's/^.//; s/\x01\xff$//' c.out >c.num; echo c.num)"
"$F" --seed=other a >o.out
check "another seed, another order" test -n "$(cmp a.out o.out)"
check "seeded output is a permutation" is_perm_of a a.out

# Delivery does not matter: file, stdin, pipe, -e, -i for the whole range.
"$F" --seed=corpus <a >s.out
check "stdin file" cmp -s a.out s.out
cat a | "$F" --seed=corpus >p.out
check "pipe" cmp -s a.out p.out
# shellcheck disable=SC2046
"$F" --seed=corpus -e $(cat a) >e.out
check "-e" cmp -s a.out e.out
"$F" --seed=corpus -i 1-50 >i.out
check "-i 1-50 = 50 lines" cmp -s a.out i.out
"$F" --seed=corpus -i 101-150 | awk '{ print $1 - 100 }' >i2.out
check "-i 101-150 same order" cmp -s a.out i2.out
"$F" --seed=corpus -z -i 1-50 | tr '\000' '\n' >z.out
check "-z" cmp -s a.out z.out
"$F" --seed=corpus -n 50 a >n50.out
check "-n equal to the count = full shuffle" cmp -s a.out n50.out
"$F" --seed=corpus -n 1000 a >n1k.out
check "-n above the count = full shuffle" cmp -s a.out n1k.out

# -n K (reservoir) agrees across contents and delivery too.
"$F" --seed=k -n 7 a >k1
cat b | "$F" --seed=k -n 7 | sed 's/^translation of sentence //' >k2
# shellcheck disable=SC2046
"$F" --seed=k -n 7 -e $(cat a) >k3
check "-n 7 file = pipe (other contents)" cmp -s k1 k2
check "-n 7 file = -e" cmp -s k1 k3
check "-n 7 gives 7" test "$(wc -l <k1)" = 7
check "-n 7 distinct" test "$(sort -u k1 | wc -l)" = 7

# -r and -i -n are reproducible.
"$F" --seed=r -r -n 20 a >r1
"$F" --seed=r -r -n 20 a >r2
check "-r reproducible" cmp -s r1 r2
"$F" --seed=r -i 1-18446744073709551615 -n 5 >h1
"$F" --seed=r -i 1-18446744073709551615 -n 5 >h2
check "-i huge -n reproducible" cmp -s h1 h2
check "short seeds work" "$F" --seed= -i 1-100 >/dev/null

# Golden outputs (ChaCha20 keyed by SHA-256 of the seed; Lemire draws;
# backward Fisher-Yates with batched dice; Algorithm R; forward sparse Fisher-Yates). A change
# here breaks every user's reproducible runs: it must be deliberate.
golden() { # golden NAME EXPECTED COMMAND...
    _n=$1
    _e=$2
    shift 2
    _g=$("$@" | paste -sd' ' -)
    if [ "$_g" = "$_e" ]; then ok; else bad "golden $_n: got '$_g'"; fi
}
golden "full" "16 9 6 7 4 11 15 12 8 17 13 2 3 1 10 19 20 5 14 18" \
    "$F" --seed=fairshuf -i 1-20
golden "reservoir" "73 3 62" sh -c 'seq 100 | "$1" --seed=fairshuf -n 3' sh "$F"
golden "repeat" "885 242 784 177 490" "$F" --seed=fairshuf -r -n 5 -i 1-1000
golden "sparse" "884837031717625515 241593214835465876 783524070881876244" \
    "$F" --seed=fairshuf -i 1-1000000000000000000 -n 3
golden "echo" "f d b e a c" "$F" --seed=golden -e a b c d e f
# -i -n is drawn 512 values a call (fsh_rangeperm_next_n): several calls,
# the last one short, over the map and over the array, must give the
# values of one call a value (the digests of the output before batching).
digest() { "$@" | sha256sum | cut -c1-16; }
golden "sparse in batches" f16ab061e27479b5 \
    digest "$F" --seed=batches -i 1-1000000 -n 1500
golden "dense in batches" 5486750580e4c543 \
    digest "$F" --seed=batches -i 1-3000 -n 2999
golden "far range in batches" 1fef7a1030be5a3c \
    digest "$F" --seed=batches -i 1000000000000-1000000000000000 -n 1025

finish
