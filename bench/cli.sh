#!/bin/bash
# SPDX-License-Identifier: MIT
# fairshuf vs GNU shuf (and terashuf when given), side by side in one run.
# Not part of `make check`; `make bench-cli` runs it (bench/cli.mk).
#
# Every row runs its commands in interleaved rounds (GNU, fairshuf[,
# terashuf], GNU, fairshuf, ...), ROUNDS rounds (default 7), and prints the
# median wall time, the median CPU time (user + system) and the largest
# peak RSS (/usr/bin/time -f %M) of each; the speed-up is GNU's median
# over fairshuf's, from the same rounds. Rows:
#   warm: back to back (the input in the page cache);
#   cold: each run after COLD_IDLE seconds idle (default 10; issue 13's
#         "cold": the page cache still holds the input, the CPU, TLB and
#         the kernel's free-page pools do not), and with DROP=1 the page
#         cache dropped before each run too (root only; slows others).
# Usage: bench/cli.sh [FAIRSHUF] (default ./fairshuf). Data in $BENCH_DIR
# (default /tmp/fsh-bench, ~1.1 GB; 4 GB more with BIG=1). TERASHUF=path
# adds terashuf (github.com/alexandres/terashuf, built by you, outside the
# repository) to the full-shuffle rows and the external-mode row.
# QUICK=1: warm rows only.
set -u
F=$(realpath "${1:-./fairshuf}")
G=${GNU_SHUF:-/usr/bin/shuf}
TS=${TERASHUF:-}
[ -n "$TS" ] && { [ -x "$TS" ] || { echo "TERASHUF=$TS is not executable" >&2; exit 1; }; }
D=${BENCH_DIR:-/tmp/fsh-bench}
R=${ROUNDS:-7}
IDLE=${COLD_IDLE:-10}
mkdir -p "$D"
cd "$D" || exit 1
TIME=/usr/bin/time
[ -x $TIME ] || { echo "install the 'time' package" >&2; exit 1; }

echo "## machine"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
    "(family $(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')," \
    "model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' '))"
echo "cores: $(nproc) online; $(lscpu | grep -E '^(L1d|L2|L3)' | tr -s ' ' | paste -sd';' -)"
echo "isa: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|avx512f|sha_ni|bmi2' | paste -sd' ' -)"
echo "kernel: $(uname -r); THP enabled: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null), defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null)"
echo "ram: $(free -g | awk '/Mem:/ {print $2}') GiB; compiler: $(${CC:-cc} --version | head -1)"
echo "fairshuf: $("$F" --version | head -1); $($G --version | head -1)${TS:+; terashuf: $TS}"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"

[ -f lines100 ] || awk 'BEGIN { srand(1); for (i = 0; i < 10000000; i++) { s = sprintf("%010d", i); while (length(s) < 99) s = s sprintf("%08x", int(rand() * 4294967296)); print substr(s, 1, 99) } }' >lines100
[ -f seq1e7 ] || seq 1 10000000 >seq1e7
mkdir -p tmp

# one CMD: run CMD once (output to /dev/null); prints "wall cpu rss_kb".
one() {
    local s e
    s=$(date +%s.%N)
    # bash applies CMD's redirections, then becomes time, which forks and
    # execs the command: no shell's own pages in its peak RSS (time -f %M
    # of `bash -c CMD` never went below bash's ~3 MB).
    bash -c "exec $TIME -f '%U %S %M' -o rss.$$ $1" >/dev/null 2>/dev/null
    e=$(date +%s.%N)
    read -r u sy m <rss.$$
    echo "$(echo "$e - $s" | bc) $(echo "$u + $sy" | bc) $m"
}
# prep MODE: what runs before each cold run.
prep() {
    [ "$1" = cold ] || return 0
    if [ "${DROP:-0}" = 1 ]; then
        sync
        echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
    fi
    sleep "$IDLE"
}
# stats FILE: "median_wall median_cpu max_rss_mb" of "wall cpu rss_kb" lines
# (MB with one decimal: the small rows differ by tenths).
stats() {
    local n
    n=$(wc -l <"$1")
    printf '%.3f %.3f %.1f' "$(cut -d' ' -f1 "$1" | sort -g | sed -n "$(((n + 1) / 2))p")" \
        "$(cut -d' ' -f2 "$1" | sort -g | sed -n "$(((n + 1) / 2))p")" \
        "$(echo "$(cut -d' ' -f3 "$1" | sort -n | tail -1) / 1024" | bc -l)"
}
# row NAME MODE GNU_CMD MINE_CMD [TERA_CMD]: interleaved rounds.
row() {
    local name=$1 mode=$2 k
    shift 2
    : >r.g; : >r.m; : >r.t
    for ((k = 0; k < R; k++)); do
        prep "$mode"; one "$1" >>r.g
        prep "$mode"; one "$2" >>r.m
        if [ -n "${3:-}" ]; then prep "$mode"; one "$3" >>r.t; fi
    done
    local t=" - | - | - |"
    read -r gw gc gr <<<"$(stats r.g)"
    read -r mw mc mr <<<"$(stats r.m)"
    [ -n "${3:-}" ] && { read -r tw tc tr <<<"$(stats r.t)"; t=" $tw ($tc) | $tr | $(printf '%.2f' "$(echo "$mw / $tw" | bc -l)") |"; }
    printf '| %s | %s | %s (%s) | %s | %s (%s) | %s | %.1fx |%s %s |\n' \
        "$name" "$mode" "$gw" "$gc" "$gr" "$mw" "$mc" "$mr" \
        "$(echo "$gw / $mw" | bc -l)" "$t" "$(cut -d' ' -f1-3 /proc/loadavg)"
}
# tera FILE [VAR=VALUE...]: the terashuf command on FILE, or nothing.
tera() {
    local f=$1
    shift
    [ -n "$TS" ] && echo "env TMPDIR=$D/tmp $* $TS <$f"
}

echo
echo "$R interleaved rounds per row; times are median wall s (median CPU s = user + sys); MB = largest peak RSS."
echo
echo "| workload | mode | GNU s | GNU MB | fairshuf s | fairshuf MB | speed-up | terashuf s | terashuf MB | fairshuf/terashuf time | load after |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
modes="warm cold"
[ "${QUICK:-0}" = 1 ] && modes=warm
for mode in $modes; do
    row "1e7 lines of 100 B (1 GB file)" $mode "$G lines100" "$F lines100" "$(tera lines100)"
    row "seq 1 1e7 (79 MB file)" $mode "$G seq1e7" "$F seq1e7" "$(tera seq1e7)"
done
row "-n 1000 of 1e7 lines on stdin" warm "$G -n 1000 < lines100" "$F -n 1000 < lines100"
row "-i 1-1000000000 -n 1000000" warm "$G -i 1-1000000000 -n 1000000" "$F -i 1-1000000000 -n 1000000"
# Start-up cost (issue 13's peak RSS row): the run itself is a few ms.
row "-i 1-100 -n 5" warm "$G -i 1-100 -n 5" "$F -i 1-100 -n 5"
# External mode at a memory cap: GNU has none (it is the in-memory run);
# terashuf's MEMORY (GB) is its line buffer; its line index (8 B a line)
# comes on top. CAP and TERA_MEM set both.
row "1 GB file, external, fairshuf --memory=${CAP:-80M}, terashuf MEMORY=${TERA_MEM:-0.065}" warm \
    "$G lines100" "$F --memory=${CAP:-80M} -T $D/tmp lines100" \
    "$(tera lines100 MEMORY=${TERA_MEM:-0.065})"

if [ "${BIG:-0}" = 1 ]; then
    [ -f big4g ] || for k in 1 2 3 4; do cat lines100; done >big4g
    echo
    echo "4 GB file ($(stat -c %s big4g) bytes), one run each:"
    for mem in 512M 16G; do
        s=$(date +%s.%N)
        $TIME -f %M -o rss.$$ "$F" --memory=$mem -T "$D/tmp" big4g >out4g
        e=$(date +%s.%N)
        echo "  --memory=$mem: $(echo "$e - $s" | bc | xargs printf '%.1f') s, peak RSS $(( $(cat rss.$$) / 1024 )) MB"
        [ -n "${a:-}" ] || a=$(LC_ALL=C sort -S 4G -T "$D/tmp" big4g | md5sum)
        b=$(LC_ALL=C sort -S 4G -T "$D/tmp" out4g | md5sum)
        [ "$a" = "$b" ] && echo "    output is a permutation (sorted checksums match)" || echo "    OUTPUT IS NOT A PERMUTATION"
    done
    rm -f out4g
fi
rm -f rss.$$ r.g r.m r.t
