#!/bin/sh
# SPDX-License-Identifier: MIT
# The audit's calibration (make audit-calibrate; results in docs/AUDIT.md):
# run fairshuf audit R times on outputs of correct shufflers and count the
# runs that fail. The family-wise false-failure rate must be at most alpha.
#   scripts/audit-calibrate.sh FAIRSHUF AUDIT_PROGRAMS_DIR [R] [ALPHA]
# Series: fsh_shuffle, 10000 deals of 52 (R runs); fsh_shuffle, 60000 deals
# of 6 (R runs, the full-permutation test runs); fsh_deck, 10000 deals of 52
# (R runs); fsh_deck dealing a 2-deck shoe, 3000 deals of 104 (R runs; the
# audit's tie-break for shoes); GNU shuf -i 1-8, 300 runs per audit (R/5 audits, --per-run
# --jobs 2), when GNU shuf is installed.
set -u
F=${1:?fairshuf binary}
A=${2:?directory of the tests/audit programs}
R=${3:-500}
ALPHA=${4:-0.01}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fsh-cal.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# series NAME RUNS COMMAND...: COMMAND gets the run's seed as $seed.
series() {
    name=$1 runs=$2
    shift 2
    fails=0 i=0
    : >"$tmp/fails"
    start=$(date +%s)
    while [ "$i" -lt "$runs" ]; do
        seed="cal-$name-$i"
        export seed
        sh -c "$*" >"$tmp/out" 2>&1
        rc=$?
        if [ "$rc" -eq 1 ]; then
            fails=$((fails + 1))
            grep '^FAIL' "$tmp/out" | cut -c7-48 | sed 's/ *$//' >>"$tmp/fails"
        elif [ "$rc" -ne 0 ]; then
            echo "$name: run $i: exit $rc" >&2
            cat "$tmp/out" >&2
            return 1
        fi
        i=$((i + 1))
    done
    secs=$(($(date +%s) - start))
    # One-sided 95 % upper bound of the rate (Clopper-Pearson, via awk's
    # bisection on the binomial tail).
    ub=$(awk -v k="$fails" -v n="$runs" 'function tail(p,   s, t, j) {
            s = 0; t = (1 - p) ^ n
            for (j = 0; j <= k; j++) { s += t; t *= (n - j) / (j + 1) * p / (1 - p) }
            return s }
        BEGIN { lo = 0; hi = 1
            for (it = 0; it < 60; it++) { m = (lo + hi) / 2; if (tail(m) > 0.05) lo = m; else hi = m }
            printf "%.4f", hi }')
    printf '%-34s %4d audits  %3d failed  rate %.4f  (95%% upper bound %s; alpha %s)  %ds\n' \
        "$name" "$runs" "$fails" "$(awk -v f="$fails" -v r="$runs" 'BEGIN{printf "%.4f", f/r}')" \
        "$ub" "$ALPHA" "$secs"
    if [ -s "$tmp/fails" ]; then
        sort "$tmp/fails" | uniq -c | sed 's/^/      failed by: /'
    fi
}

echo "fairshuf audit calibration: alpha = $ALPHA, $(date -u +%Y-%m-%d)"
series "fsh_shuffle 10000 x 52" "$R" \
    "'$A/fair' 10000 52 \"\$seed\" | '$F' audit --no-progress --alpha $ALPHA --input -"
series "fsh_shuffle 60000 x 6" "$R" \
    "'$A/fair' 60000 6 \"\$seed\" | '$F' audit --no-progress --alpha $ALPHA --input -"
series "fsh_deck 10000 x 52" "$R" \
    "'$A/deck' 10000 52 \"\$seed\" | '$F' audit --no-progress --alpha $ALPHA --input -"
series "fsh_deck 2-deck shoe 3000 x 104" "$R" \
    "'$A/shoe' 3000 2 \"\$seed\" | '$F' audit --no-progress --alpha $ALPHA --input -"
G=${GNU_SHUF:-/usr/bin/shuf}
if [ -x "$G" ] && "$G" --version 2>/dev/null | head -n 1 | grep -q 'GNU coreutils'; then
    series "GNU shuf -i 1-8, 300 runs" "$((R / 5))" \
        "'$F' audit --no-progress --alpha $ALPHA --per-run --jobs 2 --trials 300 -- '$G' -i 1-8"
else
    echo "GNU shuf: not installed, skipped"
fi
