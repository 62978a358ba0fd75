#!/bin/bash
# SPDX-License-Identifier: MIT
# fairshuf vs GNU shuf, side by side in one run: median of 5 wall times and
# peak RSS (/usr/bin/time -f %M). Not part of `make check`.
# Usage: bench/cli.sh [FAIRSHUF] (default ./fairshuf); data in $BENCH_DIR
# (default /tmp/fsh-bench, ~6 GB). Set BIG=0 to skip the 4 GB run.
set -u
F=$(realpath "${1:-./fairshuf}")
G=/usr/bin/shuf
D=${BENCH_DIR:-/tmp/fsh-bench}
mkdir -p "$D"
cd "$D" || exit 1
TIME=/usr/bin/time
[ -x $TIME ] || { echo "install the 'time' package" >&2; exit 1; }

echo "## machine"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "cores: $(nproc) online; $(lscpu | grep -E '^(L1d|L2|L3)' | tr -s ' ' | paste -sd';' -)"
echo "ram: $(free -g | awk '/Mem:/ {print $2}') GiB; fairshuf $("$F" --version | head -1); $($G --version | head -1)"

[ -f lines100 ] || awk 'BEGIN { srand(1); for (i = 0; i < 10000000; i++) { s = sprintf("%010d", i); while (length(s) < 99) s = s sprintf("%08x", int(rand() * 4294967296)); print substr(s, 1, 99) } }' >lines100
[ -f seq1e7 ] || seq 1 10000000 >seq1e7

# measure LABEL CMD...: prints "median_s max_rss_kb" of 5 runs.
measure() {
    local t=() r=()
    for k in 1 2 3 4 5; do
        local s e
        s=$(date +%s.%N)
        $TIME -f %M -o rss.$$ bash -c "$1" >/dev/null 2>/dev/null
        e=$(date +%s.%N)
        t+=("$(echo "$e - $s" | bc)")
        r+=("$(cat rss.$$)")
    done
    local med rss
    med=$(printf '%s\n' "${t[@]}" | sort -g | sed -n 3p)
    rss=$(printf '%s\n' "${r[@]}" | sort -n | tail -1)
    printf '%.3f %d' "$med" "$rss"
}
row() { # row NAME GNU_CMD MINE_CMD
    local g m
    g=$(measure "$2"); m=$(measure "$3")
    set -- "$1" $g $m
    printf '| %s | %s | %s | %s | %s | %.1fx |\n' "$1" "$2" "$(( $3 / 1024 ))" "$4" "$(( $5 / 1024 ))" "$(echo "$2 / $4" | bc -l)"
}
echo
echo "| workload | GNU s | GNU MB | fairshuf s | fairshuf MB | speed-up |"
echo "|---|---|---|---|---|---|"
row "1e7 lines of 100 B (1 GB file)" "$G lines100" "$F lines100"
row "seq 1 1e7 (file)" "$G seq1e7" "$F seq1e7"
row "-n 1000 of 1e7 lines on stdin" "$G -n 1000 < lines100" "$F -n 1000 < lines100"
row "-i 1-1000000000 -n 1000000" "$G -i 1-1000000000 -n 1000000" "$F -i 1-1000000000 -n 1000000"

if [ "${BIG:-1}" = 1 ]; then
    [ -f big4g ] || for k in 1 2 3 4; do cat lines100; done >big4g
    echo
    echo "4 GB file ($(stat -c %s big4g) bytes), one run each:"
    for mem in 512M 16G; do
        s=$(date +%s.%N)
        $TIME -f %M -o rss.$$ "$F" --memory=$mem -T "$D" big4g >out4g
        e=$(date +%s.%N)
        echo "  --memory=$mem: $(echo "$e - $s" | bc | xargs printf '%.1f') s, peak RSS $(( $(cat rss.$$) / 1024 )) MB"
        [ -n "${a:-}" ] || a=$(LC_ALL=C sort -S 4G -T "$D" big4g | md5sum)
        b=$(LC_ALL=C sort -S 4G -T "$D" out4g | md5sum)
        [ "$a" = "$b" ] && echo "    output is a permutation (sorted checksums match)" || echo "    OUTPUT IS NOT A PERMUTATION"
    done
    rm -f out4g
fi
rm -f rss.$$
