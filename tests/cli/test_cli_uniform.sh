#!/bin/sh
# SPDX-License-Identifier: MIT
# Uniformity audit of the command itself (the whole path: options, input,
# draws, output), by chi-square over many seeded runs:
#   full permutations    fairshuf -i 1-4             24 orders, 2400 runs
#   reservoir (-n, pipe) 4 records | fairshuf -n 2   12 ordered pairs, 1200 runs
#   sparse range         fairshuf -i 1-4 -n 2        12 ordered pairs, 1200 runs
#   position by value    fairshuf FILE (6 lines)     6x6 cells, 600 runs
# Seeds are fixed, so the test is deterministic; for a correct shuffle a
# seed set fails an audit with probability at most 1e-6. Thresholds are the
# 1 - 1e-6 quantiles of chi-square, from the regularized upper incomplete
# gamma function Q(df/2, x/2) = 1e-6:
#   df = 11: 48.87      df = 23: 70.55      df = 25: 73.90
# Position by value is not a multinomial: each run is a permutation matrix,
# whose cells have covariance (C (x) C)/(n-1) with C = I - J/n, so the
# statistic is n/(n-1) times chi-square with (n-1)^2 df: the limit for n = 6
# is 1.2 * 73.90 = 88.67. Expected counts are 100 per cell everywhere.
NAME=test_cli_uniform
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF

# chi2 CELLS THRESHOLD LABEL < lines: each input line is one outcome.
chi2() {
    awk -v cells="$1" -v limit="$2" -v label="$3" '
        { c[$0]++; n++ }
        END {
            e = n / cells; x = 0; k = 0
            for (o in c) { x += (c[o] - e) ^ 2 / e; k++ }
            x += (cells - k) * e      # outcomes never seen
            printf "%s: %d runs, %d of %d outcomes seen, chi2 = %.2f (limit %s)\n", label, n, k, cells, x, limit
            exit !(k == cells && x <= limit)
        }'
}

i=1
while [ $i -le 2400 ]; do
    "$F" --seed="u$i" -z -i 1-4
    echo
    i=$((i + 1))
done | tr '\000' ' ' >perm4
check "full permutations of 4 (-i 1-4)" chi2 24 70.55 "-i 1-4" <perm4

printf '1\0002\0003\0004\000' >four
i=1
while [ $i -le 1200 ]; do
    cat four | "$F" --seed="r$i" -z -n 2
    echo
    i=$((i + 1))
done | tr '\000' ' ' >res2
check "reservoir -n 2 of 4 lines (pipe)" chi2 12 48.87 "pipe -n 2" <res2

i=1
while [ $i -le 1200 ]; do
    "$F" --seed="s$i" -z -i 1-4 -n 2
    echo
    i=$((i + 1))
done | tr '\000' ' ' >rng2
check "sparse -i 1-4 -n 2" chi2 12 48.87 "-i 1-4 -n 2" <rng2

# Position by value over 6 lines: 36 cells, 600 runs, 100 per cell.
seq 6 >six
i=1
while [ $i -le 600 ]; do
    "$F" --seed="p$i" six | awk '{ print NR ":" $0 }'
    i=$((i + 1))
done >pos6
check "position by value, 6 lines" chi2 36 88.67 "positions of 6" <pos6

finish
