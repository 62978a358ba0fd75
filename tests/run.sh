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
build=${1:-build}
FAIRSHUF=$(cd "$(dirname "${2:-./fairshuf}")" && pwd)/$(basename "${2:-./fairshuf}")
export FAIRSHUF
out=$(mktemp "${TMPDIR:-/tmp}/fsh-run.XXXXXX") || exit 1
trap 'rm -f "$out" "$out.list"' EXIT
trap 'exit 130' INT TERM

# The programs, as "KIND NAME PATH" lines.
list() {
    for t in "$build"/tests/test_*; do
        [ -f "$t" ] && [ -x "$t" ] || continue
        n=$(basename "$t")
        case $n in
        test_fuzz_*) src=tests/fuzz/fuzz_${n#test_fuzz_}.c kind=fuzz ;;
        *) src=tests/$n.c kind=c ;;
        esac
        if [ -f "$src" ]; then
            echo "$kind $n $t"
        else
            echo "run.sh: not running $t: no $src (left from a renamed test)" >&2
        fi
    done
    for t in tests/cli/test_*.sh tests/fair/test_*.sh tests/mpi/test_*.sh tests/python/test_*.sh; do
        [ -f "$t" ] && echo "cli $(basename "$t" .sh) $t"
    done
}
list >"$out.list"
dups=$(awk '{ print $2 }' "$out.list" | sort | uniq -d)
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
while read -r kind name path <&3; do
    programs=$((programs + 1))
    if [ "$kind" = cli ]; then
        sh "$path" >"$out" 3<&-
    else
        "$path" >"$out" 3<&-
    fi
    rc=$?
    cat "$out"
    # The last line that looks like a summary; its counts as "P F S".
    counts=$(awk -v name="$name" -v kind="$kind" '
        kind == "c" && $0 ~ /^[^ ]+: SKIP: / {
            s = ($1 == name ":") ? "0 0 1" : "badname " $1 }
        kind == "c" && $0 ~ /^[^ ]+: [0-9]+ checks passed, [0-9]+ failed$/ {
            s = ($1 == name ":") ? $2 " " $5 " 0" : "badname " $1 }
        kind == "cli" && $0 ~ /^[^ ]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
            s = ($1 == name ":") ? $2 " " $4 " " $6 : "badname " $1 }
        kind == "fuzz" && $0 ~ /^fuzz replay [^ ]+: [0-9]+ inputs ok$/ {
            s = ("test_fuzz_" substr($3, 1, length($3) - 1) == name) ? $4 " 0 0" : "badname " $3 }
        END { print s }' "$out")
    p=0 f=0 s=0 extra=""
    case $counts in
    "") extra="no summary line" ;;
    badname*) extra="summary names ${counts#badname }, not $name" ;;
    *)
        set -- $counts
        p=$1 f=$2 s=$3
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            extra="exit status $rc without a failed check"
        fi ;;
    esac
    if [ -n "$extra" ]; then
        echo "run.sh: $name: $extra" >&2
        f=$((f + 1))
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    [ "$f" -gt 0 ] && failures="$failures $name"
done 3<"$out.list"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed checks passed, $failed failed, $skipped skipped ($programs programs)"
[ "$failed" -eq 0 ]
