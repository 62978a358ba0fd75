#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 16 (its usual wall time in s: longest first)
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
# Under the sanitizer build (FSH_SANITIZE; 5400 starts of an ASan binary
# took 90 s there) each audit makes a tenth of its runs, through the same
# paths, and checks that every outcome is a valid one (the right number of
# distinct values of the range or file); the chi-square tests need the full
# counts and run in make check.
NAME=test_cli_uniform
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
div=1
[ "$slow" = 1 ] && div=10

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
# valid FIELDS MAX LABEL < lines: (sanitizer runs) each line is FIELDS
# distinct numbers of 1..MAX.
valid() {
    awk -v m="$1" -v max="$2" -v label="$3" '
        { n++; delete s
          if (NF != m) bad++
          for (i = 1; i <= NF; i++) {
              if ($i !~ /^[0-9]+$/ || $i < 1 || $i > max || ($i in s)) bad++
              s[$i] } }
        END { printf "%s: %d runs, %d invalid outcomes (chi-square left to make check)\n", label, n, bad
              exit !(n > 0 && bad == 0) }'
}
# audit CELLS LIMIT FIELDS MAX LABEL < lines: chi2, or valid in sanitizer runs.
audit() {
    if [ "$div" = 1 ]; then chi2 "$1" "$2" "$5"; else valid "$3" "$4" "$5"; fi
}

i=1
while [ $i -le $((2400 / div)) ]; do
    "$F" --seed="u$i" -z -i 1-4
    echo
    i=$((i + 1))
done | tr '\000' ' ' >perm4
check "full permutations of 4 (-i 1-4)" audit 24 70.55 4 4 "-i 1-4" <perm4

printf '1\0002\0003\0004\000' >four
i=1
while [ $i -le $((1200 / div)) ]; do
    cat four | "$F" --seed="r$i" -z -n 2
    echo
    i=$((i + 1))
done | tr '\000' ' ' >res2
check "reservoir -n 2 of 4 lines (pipe)" audit 12 48.87 2 4 "pipe -n 2" <res2

i=1
while [ $i -le $((1200 / div)) ]; do
    "$F" --seed="s$i" -z -i 1-4 -n 2
    echo
    i=$((i + 1))
done | tr '\000' ' ' >rng2
check "sparse -i 1-4 -n 2" audit 12 48.87 2 4 "-i 1-4 -n 2" <rng2

# Position by value over 6 lines: 36 cells, 600 runs, 100 per cell.
seq 6 >six
i=1
while [ $i -le $((600 / div)) ]; do
    "$F" --seed="p$i" six | awk '{ print NR ":" $0 }'
    i=$((i + 1))
done >pos6
if [ "$div" = 1 ]; then
    check "position by value, 6 lines" chi2 36 88.67 "positions of 6" <pos6
else
    # Valid: each run's lines are positions 1..6 with 6 distinct values.
    check "position by value, 6 lines" awk -F: '
        { g = int((NR - 1) / 6)
          if ($1 != (NR - 1) % 6 + 1 || $2 !~ /^[1-6]$/ || ((g, $2) in s)) bad++
          s[g, $2] }
        END { printf "positions of 6: %d runs, %d invalid lines (chi-square left to make check)\n", NR / 6, bad
              exit !(NR > 0 && NR % 6 == 0 && bad == 0) }' pos6
fi

finish
