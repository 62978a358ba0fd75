#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every test program in BUILD/tests and every CLI test script in
# tests/cli; print each one's output, then the total of individual checks:
#   "N checks passed, N failed, N skipped (P programs)".
# Usage: tests/run.sh BUILD_DIR FAIRSHUF_BINARY
#
# Every program ends its standard output with one summary line:
#   C tests (tests/check.h)   "NAME: N checks passed, N failed"
#                             (or "NAME: SKIP: why", one skipped check)
#   CLI scripts (lib.sh)      "NAME: N passed, N failed, N skipped"
#   fuzz replays              "fuzz replay TARGET: N inputs ok"
# where NAME is the program's own name. A program that prints no summary,
# names another program, or exits non-zero without a failed check counts
# one failed check more. Test names are unique across the C tests, the fuzz
# replays and the CLI scripts: a duplicate fails the run before anything
# runs. Binaries in BUILD/tests without a source in the tree (left over from
# a renamed test) are not run.
#
# FSH_JOBS=N (default 1; make check and make sanitize pass 2): up to N
# programs at once.
# Each one's standard error and output are then kept in files and printed
# together when it ends (standard error first, so the summary line stays
# last), in the order they end; the totals are the same. Its standard input
# is /dev/null and SIGINT and SIGQUIT have their default actions, as in a
# serial run. A program whose source has a line containing "run.sh: alone"
# (one that measures time or memory) runs by itself, after the others.
# The others start longest first: a line "run.sh: weight N" gives a
# program's usual wall time in seconds (the larger of make check's and make
# sanitize's), 0 without one; equal weights keep the order below. Two long
# programs started last would otherwise leave one core idle at the end.
# FSH_TIMES=1: before the totals, each program's wall time, longest first.
build=${1:-build}
FAIRSHUF=$(cd "$(dirname "${2:-./fairshuf}")" && pwd)/$(basename "${2:-./fairshuf}")
export FAIRSHUF
jobs=${FSH_JOBS:-1}
case $jobs in
'' | *[!0-9]* | 0 | 0*)
    echo "run.sh: FSH_JOBS must be a positive number, not '$jobs'"
    echo "0 checks passed, 1 failed, 0 skipped (0 programs)"
    exit 1 ;;
esac
d=$(mktemp -d "${TMPDIR:-/tmp}/fsh-run.XXXXXX") || exit 1
out=$d/out
# On exit: stop the programs still running (parallel runs), then clean up.
cleanup() {
    for _p in "$d"/*.pid; do
        [ -f "$_p" ] && kill "$(cat "$_p")" 2>/dev/null
    done
    rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The programs, as "KIND NAME ALONE WEIGHT PATH" lines (ALONE: 1 or 0).
list() {
    for t in "$build"/tests/test_*; do
        [ -f "$t" ] && [ -x "$t" ] || continue
        n=$(basename "$t")
        case $n in
        test_fuzz_*) src=tests/fuzz/fuzz_${n#test_fuzz_}.c kind=fuzz ;;
        *) src=tests/$n.c kind=c ;;
        esac
        if [ -f "$src" ]; then
            echo "$kind $n $(alone "$src") $(weight "$src") $t"
        else
            echo "run.sh: not running $t: no $src (left from a renamed test)" >&2
        fi
    done
    for t in tests/cli/test_*.sh tests/fair/test_*.sh tests/mpi/test_*.sh tests/python/test_*.sh; do
        [ -f "$t" ] && echo "cli $(basename "$t" .sh) $(alone "$t") $(weight "$t") $t"
    done
}
alone() { if grep -q 'run\.sh: alone' "$1"; then echo 1; else echo 0; fi; }
weight() {
    _w=$(sed -n 's/.*run\.sh: weight \([0-9][0-9]*\).*/\1/p' "$1" | head -n 1)
    echo "${_w:-0}"
}
list >"$d/list"
dups=$(awk '{ print $2 }' "$d/list" | sort | uniq -d)
if [ -n "$dups" ]; then
    echo "run.sh: test names used twice (rename one):" $dups
    echo "0 checks passed, 1 failed, 0 skipped (0 programs)"
    exit 1
fi

passed=0
failed=0
skipped=0
programs=0
failures=""
now() { date +%s.%N; }

# tally KIND NAME RC OUTPUT: add the program's counts (from its summary
# line in the file OUTPUT, its exit status RC) to the totals.
tally() {
    programs=$((programs + 1))
    # The last line that looks like a summary; its counts as "P F S".
    counts=$(awk -v name="$2" -v kind="$1" '
        kind == "c" && $0 ~ /^[^ ]+: SKIP: / {
            s = ($1 == name ":") ? "0 0 1" : "badname " $1 }
        kind == "c" && $0 ~ /^[^ ]+: [0-9]+ checks passed, [0-9]+ failed$/ {
            s = ($1 == name ":") ? $2 " " $5 " 0" : "badname " $1 }
        kind == "cli" && $0 ~ /^[^ ]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
            s = ($1 == name ":") ? $2 " " $4 " " $6 : "badname " $1 }
        kind == "fuzz" && $0 ~ /^fuzz replay [^ ]+: [0-9]+ inputs ok$/ {
            s = ("test_fuzz_" substr($3, 1, length($3) - 1) == name) ? $4 " 0 0" : "badname " $3 }
        END { print s }' "$4")
    p=0 f=0 s=0 extra=""
    case $counts in
    "") extra="no summary line" ;;
    badname*) extra="summary names ${counts#badname }, not $2" ;;
    *)
        set -- "$1" "$2" "$3" "$4" $counts
        p=$5 f=$6 s=$7
        if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
            extra="exit status $3 without a failed check"
        fi ;;
    esac
    if [ -n "$extra" ]; then
        echo "run.sh: $2: $extra" >&2
        f=$((f + 1))
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    [ "$f" -gt 0 ] && failures="$failures $2"
}

# One program at a time: its standard error goes straight to ours.
serial() {
    while read -r kind name _ _ path <&3; do
        t0=$(now)
        if [ "$kind" = cli ]; then
            sh "$path" >"$out" 3<&-
        else
            "$path" >"$out" 3<&-
        fi
        rc=$?
        echo "$name $t0 $(now)" >>"$d/times"
        cat "$out"
        tally "$kind" "$name" "$rc" "$out"
    done 3<"$1"
}

# Up to $jobs programs at once. Program I writes $d/I.err, $d/I.out,
# $d/I.rc and $d/I.pid (while it runs); its job writes I to the FIFO $d/done
# (held open read-write on fd 4: never an end of file) when it ends.
if env --default-signal=INT,QUIT true 2>/dev/null; then
    dflt="env --default-signal=INT,QUIT"
else
    dflt=
fi
start() {
    (
        t0=$(now)
        if [ "$2" = cli ]; then
            $dflt sh "$4" </dev/null >"$d/$1.out" 2>"$d/$1.err" 3<&- 4>&- &
        else
            $dflt "$4" </dev/null >"$d/$1.out" 2>"$d/$1.err" 3<&- 4>&- &
        fi
        echo $! >"$d/$1.pid"
        wait $!
        echo $? >"$d/$1.rc"
        echo "$3 $t0 $(now)" >"$d/$1.time"
        rm -f "$d/$1.pid"
        echo "$1" >&4
    ) 3<&- &
}
# finished: wait for one program to end, print its output, count it.
finished() {
    read -r _j <&4
    eval "wait \$job_$_j"
    running=$((running - 1))
    _line=$(sed -n "${_j}p" "$d/plist") # "KIND NAME ALONE WEIGHT PATH"
    _kind=${_line%% *}
    _name=${_line#* }
    _name=${_name%% *}
    cat "$d/$_j.err" >&2
    cat "$d/$_j.out"
    cat "$d/$_j.time" >>"$d/times"
    tally "$_kind" "$_name" "$(cat "$d/$_j.rc")" "$d/$_j.out"
}
parallel() {
    mkfifo "$d/done" || exit 1
    exec 4<>"$d/done"
    cp "$1" "$d/plist"
    running=0
    i=0
    while read -r kind name _ _ path <&3; do
        i=$((i + 1))
        [ "$running" -ge "$jobs" ] && finished
        start "$i" "$kind" "$name" "$path"
        eval "job_$i=\$!"
        running=$((running + 1))
    done 3<"$1"
    while [ "$running" -gt 0 ]; do finished; done
    exec 4>&-
}

if [ "$jobs" = 1 ]; then
    serial "$d/list"
else
    awk '$3 == 0' "$d/list" | sort -s -k4,4nr >"$d/many"
    awk '$3 == 1' "$d/list" >"$d/alone"
    parallel "$d/many"
    serial "$d/alone"
fi
if [ -n "${FSH_TIMES:-}" ]; then
    echo "run.sh: wall time of each program (s), longest first:"
    awk '{ printf "%8.2f %s\n", $3 - $2, $1 }' "$d/times" | sort -rn
fi
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed checks passed, $failed failed, $skipped skipped ($programs programs)"
[ "$failed" -eq 0 ]
