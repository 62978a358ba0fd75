#!/bin/sh
# SPDX-License-Identifier: MIT
# Property tests: for random inputs (0 to 100000 bytes of random bytes, with
# newline or NUL terminators at random densities, with or without a final
# terminator), every mode outputs a permutation of the input records (-n: a
# sub-multiset of the right size; -r: records of the input).
NAME=test_properties
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1

cases=40
[ "$slow" = 1 ] && cases=20
head -c 200000 /dev/urandom >rs

# Case parameters from awk's seeded generator: size, delimiter, density.
awk -v n="$cases" 'BEGIN {
    srand(20240611)
    split("0 1 2 3 17 100 1000 4096 4097 65536 100000", fixed, " ")
    for (i = 1; i <= n; i++) {
        size = i <= 11 ? fixed[i] : int(rand() * 100001)
        z = rand() < 0.35 ? 1 : 0
        hi = int(rand() * 40)          # bytes 0..hi become terminators
        k = int(rand() * 50)
        print i, size, z, hi, k
    }
}' >params

while read -r i size z hi k; do
    if [ "$z" = 1 ]; then d='\000'; zf=-z; else d='\n'; zf=; fi
    # Random bytes; bytes \000..\$hi become the terminator (octal range).
    hio=$(printf '%03o' "$hi")
    head -c "$size" /dev/urandom | tr "\\000-\\$hio" "$d" >in
    # Expected records: the input with a final terminator added if missing.
    cp in exp
    if [ "$z" = 1 ]; then dv=0; else dv=10; fi
    if [ -s in ] && [ "$(tail -c 1 in | od -An -tu1 | tr -d ' ')" != "$dv" ]; then
        printf "$d" >>exp
    fi
    nrec=$(if [ "$z" = 1 ]; then tr -cd '\000' <exp | wc -c; else wc -l <exp; fi)
    nrec=$((nrec + 0))
    tag="case $i (size $size, ${zf:-nl}, terminators 0-$hi, $nrec records)"

    "$FAIRSHUF" $zf in >out 2>err
    check "$tag: file is a permutation" is_perm_of exp out $zf
    check "$tag: no stderr" test ! -s err
    "$FAIRSHUF" $zf <in >out
    check "$tag: stdin file" is_perm_of exp out $zf
    cat in | "$FAIRSHUF" $zf >out
    check "$tag: pipe" is_perm_of exp out $zf
    "$FAIRSHUF" $zf --seed="s$i" in >out
    check "$tag: --seed" is_perm_of exp out $zf
    cat in | "$FAIRSHUF" $zf --seed="s$i" >out2
    check "$tag: --seed file = pipe" cmp -s out out2
    "$FAIRSHUF" $zf --random-source=rs in >out 2>err
    if [ -s err ]; then
        check "$tag: --random-source end of file" grep -q 'end of file' err
    else
        check "$tag: --random-source" is_perm_of exp out $zf
    fi
    "$FAIRSHUF" $zf -o outf in
    check "$tag: -o" is_perm_of exp outf $zf

    # -n k: min(k, n) records, all from the input (as a multiset).
    for src in file pipe; do
        if [ $src = file ]; then "$FAIRSHUF" $zf -n "$k" in >out
        else cat in | "$FAIRSHUF" $zf -n "$k" >out; fi
        want=$((k < nrec ? k : nrec))
        got=$(if [ "$z" = 1 ]; then tr -cd '\000' <out | wc -c; else wc -l <out; fi)
        check "$tag: -n $k $src count" test "$((got + 0))" = "$want"
        sort $zf out >o.s
        sort $zf exp >e.s
        check "$tag: -n $k $src subset" test -z "$(comm $zf -23 o.s e.s | head -c 1)"
    done
    # -r: every record is an input record.
    if [ "$nrec" -gt 0 ]; then
        "$FAIRSHUF" $zf -r -n 30 in >out
        sort -u $zf out >o.s
        sort -u $zf exp >e.s
        check "$tag: -r records" test -z "$(comm $zf -23 o.s e.s | head -c 1)"
    fi
done <params

# Many lines: 100000 numbered lines in every mode.
seq 100000 >s
for args in "" "--seed=x" "-n 100000" "-n 200000" "--random-source=rs"; do
    # shellcheck disable=SC2086
    "$FAIRSHUF" $args s >out 2>err
    if grep -q 'end of file' err; then
        ok
    else
        check "seq 100000 $args" is_perm_of s out
    fi
    # shellcheck disable=SC2086
    cat s | "$FAIRSHUF" $args >out 2>err
    grep -q 'end of file' err || check "seq 100000 pipe $args" is_perm_of s out
done
"$FAIRSHUF" -i 1-100000 >out
check "-i 1-100000" is_perm_of s out
"$FAIRSHUF" -i 1-100000 -n 99999 >out
check "-i 1-100000 -n 99999 distinct" test "$(sort -u out | wc -l)" = 99999
check "-i 1-100000 -n 99999 subset" test -z "$(sort out | comm -23 - "$(sort s >ss; echo ss)" | head -c 1)"
"$FAIRSHUF" -i 18446744073709451616-18446744073709551615 -n 100000 >out
check "-i top of range, all values" test "$(sort -u out | wc -l)" = 100000
check "-i top of range, in range" test "$(sort out | head -n 1)" = 18446744073709451616

finish
