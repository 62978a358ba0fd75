# SPDX-License-Identifier: MIT
# Helpers for the CLI test scripts (sourced, not run: run.sh runs test_*.sh).
# Each script sets NAME, sources this file, calls check/ok/bad, ends with
# finish. $FAIRSHUF is the absolute path of the binary under test;
# $GNU_SHUF (default /usr/bin/shuf) is the reference, used only if it is
# GNU coreutils 9.x. Both are called as "shuf" through symlinks in PATH, so
# messages carry the same "shuf:" prefix.
set -u
LC_ALL=C
export LC_ALL
unset POSIXLY_CORRECT
# run() reads IN and OUT: never from the environment (make exports its
# command-line variables, and "make sanitize" passes OUT=build-san).
unset IN OUT
: "${FAIRSHUF:?set FAIRSHUF to the fairshuf binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/fsh-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
mkdir "$T/mine" "$T/gnu" "$T/w"
ln -s "$FAIRSHUF" "$T/mine/shuf"
GNU_SHUF=${GNU_SHUF:-/usr/bin/shuf}
have_gnu=0
if [ -x "$GNU_SHUF" ] &&
    "$GNU_SHUF" --version 2>/dev/null | head -n 1 | grep -q 'GNU coreutils) 9\.'; then
    ln -s "$GNU_SHUF" "$T/gnu/shuf"
    have_gnu=1
fi
# Sanitizer builds start slowly: scripts may scale loop counts by this.
if [ -n "${FSH_SANITIZE:-}" ]; then slow=1; else slow=0; fi
# memcap: in a subshell, bound the memory of the commands that follow, for
# runs that ask for more than any machine has and would grow until the OOM
# killer came if that were not refused: ulimit -v 1000000 (about 1 GB of
# address space). An ASan binary cannot run under ulimit -v (its shadow
# memory): there ASan's own hard_rss_limit_mb=1000 ends it instead, and
# allocator_may_return_null=1 makes a request beyond its 1 TiB allocation
# cap fail with NULL rather than abort, as the kernel refuses one.
if [ "$slow" = 1 ]; then
    memcap() {
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:hard_rss_limit_mb=1000"
        export ASAN_OPTIONS
    }
else
    memcap() { ulimit -v 1000000; }
fi
pass=0
fail=0
skip=0

# shim NAME: the LD_PRELOAD shim libNAME.so that make builds beside the
# binary under test (build/tests/ for ./fairshuf, build-san/tests/ for
# build-san/fairshuf); fails when it is not there.
shim() {
    for _s in "$(dirname "$FAIRSHUF")/tests/lib$1.so" \
        "$(dirname "$FAIRSHUF")/build/tests/lib$1.so"; do
        [ -f "$_s" ] && { echo "$_s"; return 0; }
    done
    return 1
}
# dynamic: the binary to run under LD_PRELOAD shims or valgrind: $FAIRSHUF
# when it is dynamically linked, else its dynamic twin, built by make check
# from the same objects (BUILD/dyn/fairshuf: a static binary ignores
# LD_PRELOAD, and valgrind cannot replace its malloc); fails when that
# twin is not there.
dynamic() {
    if command -v readelf >/dev/null 2>&1 &&
        ! readelf -lW "$FAIRSHUF" 2>/dev/null | grep -q INTERP; then
        for _s in "$(dirname "$FAIRSHUF")/dyn/fairshuf" \
            "$(dirname "$FAIRSHUF")/build/dyn/fairshuf"; do
            [ -x "$_s" ] && { echo "$_s"; return 0; }
        done
        return 1
    fi
    echo "$FAIRSHUF"
}
# FSH_CHECK_TIMES=FILE: each check appends "SECONDS NAME: DESCRIPTION" to
# FILE, the time since the one before (or since the script started), to
# find where a slow test spends it (sort -rn FILE); a bare ok has no
# description.
if [ -n "${FSH_CHECK_TIMES:-}" ]; then
    _stamp_t=$(date +%s.%N)
    _stamp() {
        _stamp_n=$(date +%s.%N)
        echo "$(echo "$_stamp_n - $_stamp_t" | bc) $NAME: $*" >>"$FSH_CHECK_TIMES"
        _stamp_t=$_stamp_n
    }
else
    _stamp() { :; }
fi
ok() {
    pass=$((pass + 1))
    _stamp "(a check passed by ok)"
}
bad() {
    fail=$((fail + 1))
    echo "$NAME: FAIL: $*" >&2
    _stamp "FAIL: $*"
}
skipped() {
    skip=$((skip + 1))
    echo "$NAME: skip: $*" >&2
    _stamp "skip: $*"
}
# check DESCRIPTION COMMAND...: pass when COMMAND succeeds.
check() {
    _d=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
        _stamp "$_d"
    else
        bad "$_d"
    fi
}
finish() {
    echo "$NAME: $pass passed, $fail failed, $skip skipped"
    [ "$fail" -eq 0 ]
}

# Run fairshuf / GNU shuf as "shuf" (stdin, stdout, stderr as given), from
# the current directory.
# Every run is bounded by timeout(1) when available.
if command -v timeout >/dev/null 2>&1; then TO="timeout 120"; else TO=; fi
mine() { $TO env PATH="$T/mine:$PATH" shuf "$@"; }
gnu() { $TO env PATH="$T/gnu:$PATH" shuf "$@"; }

# run WHO OUTPREFIX ARGS...: writes OUTPREFIX.out, .err, .rc. Standard
# input is $IN (default /dev/null; "closed" closes it); standard output goes
# to OUTPREFIX.out, or $OUT ("closed" closes it).
run() {
    _who=$1
    _p=$2
    shift 2
    : >"$_p.out"
    (
        case ${IN:-} in
        "") exec </dev/null ;;
        closed) exec <&- ;;
        *) exec <"$IN" ;;
        esac
        case ${OUT:-} in
        "") exec >"$_p.out" ;;
        closed) exec >&- ;;
        *) exec >"$OUT" ;;
        esac
        "$_who" "$@"
    ) 2>"$_p.err"
    echo $? >"$_p.rc"
}

# same_errors ARGS...: exit status and stderr identical to GNU's.
same_errors() {
    [ "$have_gnu" = 1 ] || return 0
    run gnu "$T/g" "$@"
    run mine "$T/m" "$@"
    if cmp -s "$T/g.rc" "$T/m.rc" && cmp -s "$T/g.err" "$T/m.err"; then
        return 0
    fi
    echo "  args: $*" >&2
    echo "  gnu : rc=$(cat "$T/g.rc") $(cat "$T/g.err")" >&2
    echo "  mine: rc=$(cat "$T/m.rc") $(cat "$T/m.err")" >&2
    return 1
}

# same_all ARGS...: exit status, stderr and stdout identical to GNU's.
same_all() {
    [ "$have_gnu" = 1 ] || return 0
    same_errors "$@" || return 1
    if cmp -s "$T/g.out" "$T/m.out"; then return 0; fi
    echo "  args: $*: stdout differs ($(wc -c <"$T/g.out") vs $(wc -c <"$T/m.out") bytes)" >&2
    return 1
}

# same_multiset ARGS...: exit status, stderr, and sorted stdout identical to
# GNU's (for random output). Records split at newlines, or at NULs when
# MSZ=-z is set.
same_multiset() {
    [ "$have_gnu" = 1 ] || return 0
    same_errors "$@" || return 1
    sort ${MSZ:-} "$T/g.out" >"$T/g.sorted"
    sort ${MSZ:-} "$T/m.out" >"$T/m.sorted"
    if cmp -s "$T/g.sorted" "$T/m.sorted"; then return 0; fi
    echo "  args: $*: multisets differ" >&2
    return 1
}

# is_perm_of EXPECTED ACTUAL [-z]: ACTUAL's records are a permutation of
# EXPECTED's (both files).
is_perm_of() {
    sort ${3:-} "$1" >"$T/p1"
    sort ${3:-} "$2" >"$T/p2"
    cmp -s "$T/p1" "$T/p2"
}

# gcheck DESCRIPTION COMMAND...: like check, but skipped without GNU shuf.
gcheck() {
    if [ "$have_gnu" != 1 ]; then
        skipped "$1 (no GNU shuf 9.x)"
        return 0
    fi
    check "$@"
}

# records FILE: number of records (newline-terminated, or NUL with MSZ=-z).
records() {
    if [ "${MSZ:-}" = -z ]; then tr -cd '\000' <"$1" | wc -c; else wc -l <"$1"; fi
}

# same_count ARGS...: exit status, stderr and number of output records
# identical to GNU's (for samples, whose content is random).
same_count() {
    [ "$have_gnu" = 1 ] || return 0
    same_errors "$@" || return 1
    [ "$(records "$T/g.out")" = "$(records "$T/m.out")" ] && return 0
    echo "  args: $*: record counts differ" >&2
    return 1
}
