#!/bin/sh
# SPDX-License-Identifier: MIT
# Per-element event counts for fsh_shuffle_u64 and its peers at a few sizes.
#
# Uses `perf stat` (cycles, instructions, cache and TLB misses) when the
# machine exposes hardware counters, else valgrind's callgrind (instructions,
# data refs, simulated D1/LL misses, simulated branch mispredicts). Each
# figure is (run with K operations - run with 0 operations) / (K * n), so
# set-up (allocation, array init, seeding) cancels out.
#
# Usage: sh bench/perf.sh [METHOD ...]        (default: fairshuf batched textbook std_shuffle)
# Environment: FSH_PERF_SIZES (default "1e3 1e5 1e6"),
#              FSH_PERF_GENS (default "xoshiro256pp chacha8 chacha20"),
#              FSH_PERF_TOOL=perf|callgrind to force one,
#              FSH_PERF_ELEMENTS: K * n per measurement (default 4e6 for
#              perf, 1e6 for callgrind).
set -eu
cd "$(dirname "$0")"
BENCH=./bin/bench
[ -x "$BENCH" ] || make -s bin/bench

methods=${*:-"fairshuf batched textbook std_shuffle"}
sizes=${FSH_PERF_SIZES:-"1e3 1e5 1e6"}
gens=${FSH_PERF_GENS:-"xoshiro256pp chacha8 chacha20"}

tool=${FSH_PERF_TOOL:-}
if [ -z "$tool" ]; then
    if perf stat -x, -e instructions true 2>&1 >/dev/null | grep -q '^[0-9]'; then
        tool=perf
    elif command -v valgrind >/dev/null 2>&1; then
        tool=callgrind
    else
        echo "perf.sh: neither perf hardware counters nor valgrind available" >&2
        exit 1
    fi
fi

# Cache geometry for callgrind from sysfs (KVM guests often report an LL
# geometry valgrind cannot simulate, so pass it explicitly).
cache() { # index -> "size,assoc,line" in bytes
    d=/sys/devices/system/cpu/cpu0/cache/index$1
    [ -r "$d/size" ] || return 1
    s=$(cat "$d/size")
    case $s in *K) s=$((${s%K} * 1024)) ;; *M) s=$((${s%M} * 1048576)) ;; esac
    w=$(cat "$d/ways_of_associativity" 2>/dev/null || echo 8)
    l=$(cat "$d/coherency_line_size" 2>/dev/null || echo 64)
    # valgrind needs a power-of-two set count; fall back to a nearby shape.
    sets=$((s / w / l))
    p=1; while [ $p -lt $sets ]; do p=$((p * 2)); done
    [ $p -ne $sets ] && w=$((s / l / p)) && [ $w -lt 1 ] && w=1
    echo "$((p * w * l)),$w,$l"
}

elements=${FSH_PERF_ELEMENTS:-}
if [ "$tool" = perf ]; then
    events=cycles,instructions,cache-references,cache-misses,branch-misses,dTLB-load-misses
    elements=${elements:-4e6}
    echo "tool: perf stat -e $events"
    printf '| method | generator | n | cycles/el | instr/el | IPC | cache-refs/el | cache-misses/el | branch-miss/el | dTLB-miss/el |\n'
    printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
else
    cg_opts="--tool=callgrind --cache-sim=yes --branch-sim=yes --callgrind-out-file=/dev/null"
    d1=$(cache 0 || true); i1=$(cache 1 || true); ll=$(cache 3 || cache 2 || true)
    [ -n "$d1" ] && cg_opts="$cg_opts --D1=$d1"
    [ -n "$i1" ] && cg_opts="$cg_opts --I1=$i1"
    [ -n "$ll" ] && cg_opts="$cg_opts --LL=$ll"
    elements=${elements:-1e6}
    echo "tool: valgrind $cg_opts"
    echo "(hardware counters unavailable; D1/LL misses are simulated, L2 is not modelled)"
    printf '| method | generator | n | instr/el | data reads/el | data writes/el | D1 misses/el | LL misses/el | branches/el | mispredicts/el |\n'
    printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
fi

# Print the counts of one run, space-separated, in the table's order.
counts() { # method gen n k
    if [ "$tool" = perf ]; then
        perf stat -x, -e "$events" "$BENCH" --one "$@" 2>&1 >/dev/null |
            awk -F, '/^[0-9]/ { printf "%s ", $1 } END { print "" }'
    else
        # Collected : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
        # shellcheck disable=SC2086
        valgrind $cg_opts "$BENCH" --one "$@" 2>&1 >/dev/null |
            awk '/Collected :/ { print $4, $5, $6, $8 + $9, $11 + $12, $13 + $15, $14 + $16 }'
    fi
}

for n in $sizes; do
    k=$(awk -v e="$elements" -v n="$n" 'BEGIN { k = int(e / n); print k < 1 ? 1 : k }')
    for m in $methods; do
        for g in $gens; do
            # Skip combinations the bench does not offer (e.g. an
            # xoshiro-only method with chacha20).
            "$BENCH" --one "$m" "$g" 2 0 >/dev/null 2>&1 || continue
            full=$(counts "$m" "$g" "$n" "$k")
            base=$(counts "$m" "$g" "$n" 0)
            label=$g
            case $m in std_shuffle) label=mt19937_64 ;; memcpy) label=none ;;
            batched | batched_clang) label=lehmer64 ;; esac
            echo "$full|$base" | awk -v m="$m" -v g="$label" -v n="$n" -v k="$k" -v tool="$tool" -F'|' '{
                nf = split($1, a, " "); split($2, b, " ");
                per = k * n;
                printf "| %s | %s | %s |", m, g, n;
                for (i = 1; i <= nf; i++) {
                    v = (a[i] - b[i]) / per;
                    if (v < 0 && v > -0.0005) v = 0;
                    printf " %.3f |", v;
                    if (tool == "perf" && i == 2)
                        printf " %.2f |", (a[1] > b[1]) ? (a[2] - b[2]) / (a[1] - b[1]) : 0;
                }
                print "";
            }'
            # Methods with a fixed generator need only one row.
            case $m in std_shuffle | memcpy | batched | batched_clang) break ;; esac
        done
    done
done
