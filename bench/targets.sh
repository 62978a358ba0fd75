#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 13's targets, measured on the machine at hand in one run and read
# off as one table: what a session on a machine kind the project has not
# measured yet runs first (`make bench-targets`, about 5 minutes; the
# figures go into docs/PERFORMANCE.md under that machine's name, never as
# general ones).
#
# It runs the programs that already measure each target, side by side with
# their peers, and only reads their output:
#   bench/bin/bench     in cache, n = 1e3..1e5: fsh_shuffle_u64 (xoshiro256++
#                       fast path, ChaCha8 default) beside the batched-index
#                       peer (gcc and clang builds), the textbook loop with
#                       xoshiro inlined, std::shuffle; on a CPU with AVX-512
#                       again with FSH_CHACHA_IMPL=avx2 (the keystream an
#                       AVX2-only CPU runs);
#   bench/perf.sh       instructions per element at 1e4 (callgrind, or perf
#                       where the machine has counters);
#   bench/bin/large     1e8 u64, stream version 3 (what an OS-keyed rng
#                       follows), one thread and two, memcpy beside them;
#   bench/cli.sh        the command against GNU shuf, warm rows (COLD=1: the
#                       cold ones too, 20 minutes more; TERASHUF=path: the
#                       external-mode row against terashuf).
#
# Usage: bash bench/targets.sh (from the top of the tree, after `make`).
# Environment: REPS (in-cache repetitions, default 7), LARGE_REPS (1e8, 5),
# ROUNDS (command rounds, default 5), COLD=1, TERASHUF=path, LARGE_N (1e8).
# A target the run cannot measure is printed as "not measured", never as
# met. Each ratio is one run's medians: rerun in a quiet window before
# calling a target met or missed, and keep every run (PERFORMANCE.md).
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${REPS:-7}
LREPS=${LARGE_REPS:-5}
LN=${LARGE_N:-1e8}
OUT=$(mktemp -d /tmp/fsh-targets.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

[ -x ./fairshuf ] || { echo "targets.sh: run make first" >&2; exit 1; }
make -s -C bench bin/bench >/dev/null
make -s -f bench/large.mk bench/bin/large >/dev/null

has_flag() { grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -qx "$1"; }

# in_cache TAG [ENV...]: the in-cache cells into $OUT/TAG.csv.
in_cache() {
    local tag=$1
    shift
    env "$@" FSH_BENCH_SIZES=1e3,1e4,1e5 FSH_BENCH_GENS=xoshiro256pp,chacha8 \
        FSH_BENCH_METHODS=fairshuf,batched,batched_clang,textbook_inline,std_shuffle \
        FSH_BENCH_REPS="$REPS" FSH_BENCH_CSV="$OUT/$tag.csv" \
        bench/bin/bench >"$OUT/$tag.txt" 2>&1
}
# ratio CSV METHOD_A GEN_A METHOD_B GEN_B: "lo-hi" of A/B over the sizes.
ratio() {
    awk -F, -v ma="$2" -v ga="$3" -v mb="$4" -v gb="$5" '
        NR > 1 { t[$1 "," $2 "," $3] = $6; n[$3] = 1 }
        END {
            lo = 1e9; hi = 0
            for (s in n) {
                a = t[ma "," ga "," s]; b = t[mb "," gb "," s]
                if (a == "" || b == "" || b == 0) continue
                r = a / b; if (r < lo) lo = r; if (r > hi) hi = r
            }
            if (hi == 0) print "-"; else printf "%.2f-%.2f\n", lo, hi
        }' "$1"
}
# status RANGE OP LIMIT: met when every value of the range (its top for
# <=, its bottom for >=) keeps the limit.
status() {
    local v=$1
    [ "$v" = - ] || [ -z "$v" ] && { echo "not measured"; return; }
    awk -v r="$v" -v op="$2" -v lim="$3" 'BEGIN {
        n = split(r, p, "-"); lo = p[1]; hi = p[n]
        ok = (op == "<=") ? (hi + 0 <= lim + 0) : (op == "<") ? (hi + 0 < lim + 0) : (lo + 0 >= lim + 0)
        print ok ? "**met**" : "**not met**" }'
}
row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$(status "$3" "$4" "$5")"; }

echo "# Issue 13 targets on this machine"
echo
in_cache main
sed -n '/^## Machine/,/^- date/p' "$OUT/main.txt" | sed '/^$/d'
echo "- THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown); $(/usr/bin/shuf --version | head -1)"
echo
AVX2=""
if has_flag avx512f; then
    in_cache avx2 FSH_CHACHA_IMPL=avx2
    AVX2=1
fi

echo "## Instructions per element at 1e4" >"$OUT/perf.txt"
FSH_PERF_SIZES=1e4 FSH_PERF_GENS="xoshiro256pp chacha8" \
    sh bench/perf.sh fairshuf batched batched_clang >>"$OUT/perf.txt" 2>&1 || true
ipe() { awk -F'|' -v m="$1" -v g="$2" '$2 ~ "^ " m " $" && $3 ~ "^ " g " $" { gsub(/ /, "", $5); print $5 }' "$OUT/perf.txt"; }
i_fast=$(ipe fairshuf xoshiro256pp)
i_def=$(ipe fairshuf chacha8)
i_gcc=$(ipe batched lehmer64)
i_clang=$(ipe batched_clang lehmer64)

FSH_BENCH_STREAM=3 bench/bin/large "$LN" chacha8 "$LREPS" 1,2 1 0 >"$OUT/large.txt" 2>&1 || true
FSH_BENCH_STREAM=3 bench/bin/large "$LN" xoshiro "$LREPS" 1,2 1 0 >>"$OUT/large.txt" 2>&1 || true
# large_fig GEN: "one-thread/memcpy two-vs-one" (per-repetition ratio).
large_fig() {
    awk -v g="$1" '
        /^n = / { cur = ($0 ~ ", " g ",") }
        function nsel() { match($0, /: [0-9.]+ ns\/el/); return substr($0, RSTART + 2, RLENGTH - 8) + 0 }
        cur && /^ *1 thread\(s\)/ { t1 = nsel(); match($0, /per repetition [0-9.]+x/); r1 = substr($0, RSTART + 15, RLENGTH - 16) }
        cur && /^ *2 thread\(s\)/ { t2 = nsel() }
        END { if (t1 == "" || t2 == "") print "- -"; else printf "%s %.2f\n", r1, t1 / t2 }' "$OUT/large.txt"
}
read -r l8_one l8_two <<<"$(large_fig chacha8)"
read -r lx_one lx_two <<<"$(large_fig xoshiro)"

QUICK=1
[ "${COLD:-0}" = 1 ] && QUICK=0
QUICK=$QUICK ROUNDS=${ROUNDS:-5} TERASHUF=${TERASHUF:-} bash bench/cli.sh ./fairshuf >"$OUT/cli.txt" 2>&1 || true
# cli_fig NAME MODE FIELD: FIELD of the row (speedup, gnu_mb, mine_mb, tera).
cli_fig() {
    awk -F'|' -v name="$1" -v mode="$2" -v f="$3" '
        index($2, name) == 2 && $3 ~ "^ " mode " $" {
            v["speedup"] = $8; v["gnu_mb"] = $5; v["mine_mb"] = $7; v["tera"] = $11
            s = v[f]; gsub(/[ x]/, "", s); print s; exit }' "$OUT/cli.txt"
}
# rss_worst: "ratio|row" of the row whose fairshuf/GNU peak RSS is largest.
rss_worst() {
    awk -F'|' '$3 ~ /warm|cold/ && $5 + 0 > 0 { r = $7 / $5; if (r > w) { w = r; n = $2 } }
        END { gsub(/^ +| +$/, "", n); if (w == 0) print "-|"; else printf "%.2f|%s\n", w, n }' "$OUT/cli.txt"
}

echo "## Targets (ratios of medians from this one run)"
echo
echo "| target | required | measured | status |"
echo "|---|---|---|---|"
row "in cache 1e3-1e5: fast path (xoshiro) / batched peer, gcc build" "<= 1" \
    "$(ratio "$OUT/main.csv" fairshuf xoshiro256pp batched lehmer64)" "<=" 1
row "in cache 1e3-1e5: fast path (xoshiro) / batched peer, clang build" "<= 1" \
    "$(ratio "$OUT/main.csv" fairshuf xoshiro256pp batched_clang lehmer64)" "<=" 1
ipe_r() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }' || echo -; }
row "instructions per element at 1e4: fast path / gcc peer ($i_fast / ${i_gcc:-?})" "<= 1" "$(ipe_r "$i_fast" "$i_gcc")" "<=" 1
row "instructions per element at 1e4: fast path / clang peer ($i_fast / ${i_clang:-?})" "<= 1" "$(ipe_r "$i_fast" "$i_clang")" "<=" 1
row "in cache: default (ChaCha8) / batched peer, gcc build" "<= 1.5" \
    "$(ratio "$OUT/main.csv" fairshuf chacha8 batched lehmer64)" "<=" 1.5
row "in cache: default (ChaCha8) / batched peer, clang build" "<= 1.5" \
    "$(ratio "$OUT/main.csv" fairshuf chacha8 batched_clang lehmer64)" "<=" 1.5
row "in cache: default (ChaCha8) / textbook loop (xoshiro inlined)" "< 1" \
    "$(ratio "$OUT/main.csv" fairshuf chacha8 textbook_inline xoshiro256pp)" "<" 1
echo "| (default: $i_def instructions per element at 1e4; fast path / std::shuffle $(ratio "$OUT/main.csv" fairshuf xoshiro256pp std_shuffle mt19937_64)) | | | |"
if [ -n "$AVX2" ]; then
    row "AVX2 keystream (an AVX2-only CPU's): default / gcc peer" "<= 1.5" \
        "$(ratio "$OUT/avx2.csv" fairshuf chacha8 batched lehmer64)" "<=" 1.5
    row "AVX2 keystream: default / textbook loop" "< 1" \
        "$(ratio "$OUT/avx2.csv" fairshuf chacha8 textbook_inline xoshiro256pp)" "<" 1
fi
row "$LN u64, one thread / memcpy, default (ChaCha8, version 3)" "<= 4" "$l8_one" "<=" 4
row "$LN u64, one thread / memcpy, xoshiro" "<= 4" "$lx_one" "<=" 4
row "$LN u64, two threads / one, default" ">= 1.6" "$l8_two" ">=" 1.6
row "$LN u64, two threads / one, xoshiro" ">= 1.6" "$lx_two" ">=" 1.6
row "command, 1 GB file (1e7 lines of 100 B), warm: GNU / fairshuf" ">= 3" "$(cli_fig '1e7 lines of 100 B' warm speedup)" ">=" 3
if [ "${COLD:-0}" = 1 ]; then
    row "command, 1 GB file, cold: GNU / fairshuf" ">= 3" "$(cli_fig '1e7 lines of 100 B' cold speedup)" ">=" 3
else
    echo "| command, 1 GB file, cold: GNU / fairshuf | >= 3 | - (COLD=1) | not measured |"
fi
row "command, seq 1 10000000, warm: GNU / fairshuf" ">= 5" "$(cli_fig 'seq 1 1e7' warm speedup)" ">=" 5
IFS='|' read -r rss_r rss_row <<<"$(rss_worst)"
row "command, peak RSS: fairshuf / GNU, largest of the rows (${rss_row:-none})" "<= 1" "$rss_r" "<=" 1
if [ -n "${TERASHUF:-}" ]; then
    row "external mode (--memory=80M): fairshuf / terashuf time" "< 1" "$(cli_fig '1 GB file, external' warm tera)" "<" 1
else
    echo "| external mode: fairshuf / terashuf time | < 1 | - (TERASHUF=path) | not measured |"
fi
echo
echo "## The runs behind it"
for f in main.txt avx2.txt perf.txt large.txt cli.txt; do
    [ -f "$OUT/$f" ] || continue
    echo
    echo "### $f"
    echo
    case $f in
    main.txt | avx2.txt) # the tables (the machine block is above)
        sed -n '/^## fsh_shuffle_u64\|^## Against\|^| /p' "$OUT/$f" ;;
    *) grep -v '^$' "$OUT/$f" ;;
    esac
done
