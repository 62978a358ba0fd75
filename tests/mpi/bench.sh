#!/bin/sh
# SPDX-License-Identifier: MIT
# fairshuf-mpi against fairshuf --seed on one machine (docs/PERFORMANCE.md,
# "Distributed shuffle (issue 15)"): seq lines, 1, 2 and 4 ranks, runs
# interleaved, wall time, per-rank peak RSS and bytes sent (the command
# reports them under FSH_MPI_REPORT=1), single-machine peak RSS from
# /usr/bin/time. Usage: bench.sh FAIRSHUF FAIRSHUF_MPI [LINES [REPS]]...
# (default: 1e7 lines, 3 repetitions).
set -u
FS=$1
FM=$2
shift 2
[ $# -eq 0 ] && set -- 10000000 3
MPIRUN="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
d=$(mktemp -d "${TMPDIR:-/tmp}/fsh-mpibench.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
now() { date +%s.%N; }
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
while [ $# -ge 2 ]; do
    n=$1 reps=$2
    shift 2
    seq 1 "$n" >"$d/in"
    echo "== $n lines ($(wc -c <"$d/in") bytes), load $(cut -d' ' -f1-3 /proc/loadavg)"
    r=1
    while [ "$r" -le "$reps" ]; do
        t0=$(now)
        /usr/bin/time -f "%M" -o "$d/rss" "$FS" --seed=b -o "$d/out1" "$d/in"
        t1=$(now)
        echo "single  rep $r: $(echo "$t1 - $t0" | bc) s, peak RSS $(cat "$d/rss") KiB"
        for p in 1 2 4; do
            t0=$(now)
            FSH_MPI_REPORT=1 $MPIRUN -x FSH_MPI_REPORT -np "$p" "$FM" --seed=b \
                -o "$d/outp" "$d/in" 2>"$d/err"
            t1=$(now)
            cmp -s "$d/out1" "$d/outp" || echo "  P=$p: OUTPUT DIFFERS"
            rss=$(grep ': done:' "$d/err" | sed 's/.*peak RSS \([0-9]*\) KiB.*/\1/' |
                sort -n | tail -n 1)
            sent=$(grep ': shuffled:' "$d/err" |
                sed 's/.*records in, [0-9]* sent (\([0-9]*\) bytes).*/\1/' |
                awk '{ s += $1 } END { print s + 0 }')
            echo "P=$p     rep $r: $(echo "$t1 - $t0" | bc) s, max peak RSS/rank $rss KiB, sent $sent bytes ($(echo "scale=2; $sent / $n" | bc) B/line)"
        done
        r=$((r + 1))
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
