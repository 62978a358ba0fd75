#!/bin/sh
# SPDX-License-Identifier: MIT
# Mapped input (issue 13): the in-memory full shuffle maps a regular input
# file instead of reading it. The output must be what the read path gives
# for the same bytes (the read path: the same file through a pipe) in every
# shape of file: empty, no final newline, a size that is a whole number of
# pages (the added newline lands past the file), huge lines, -z, --header,
# a standard input opened mid-file, -o FILE and --shards. And a file that
# changes while mapped (an LD_PRELOAD shim, tests/shim/maprace.c, changes it
# right after the mmap or once output has begun): shrinking is "FILE: file
# changed as we read it", exit 1, -o FILE untouched and, when it happens
# before output, nothing on standard output; growing keeps the first
# snapshot; a moved delimiter is the same error (or, when the record was
# already written, the old content); an edited byte gives one of the two
# contents. Known-bad variant: without the byte-count check in full.c a
# joined record runs into the next one and, with --seed=3, both "join/write"
# checks see duplicated
# bytes with exit 0.
NAME=test_map
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# same NAME FILE ARGS...: mapped FILE and FILE through a pipe, same seed,
# same output and status.
same() {
    _n=$1 _f=$2
    shift 2
    "$F" --seed=13 "$@" "$_f" >m.out 2>m.err
    _a=$?
    cat "$_f" | "$F" --seed=13 "$@" >p.out 2>p.err
    _b=$?
    if [ "$_a" = "$_b" ] && cmp -s m.out p.out && cmp -s m.err p.err; then
        ok
    else
        bad "$_n: mapped ($_a) and piped ($_b) differ"
    fi
}

: >empty
printf 'one line, no newline' >nonl
printf 'a\nb\nc' >tail3
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%07d\n", i }' >lines
# 4096 and 8192 bytes: the file ends on a page boundary.
awk 'BEGIN { for (i = 0; i < 512; i++) printf "%07d\n", i }' >page1
awk 'BEGIN { for (i = 0; i < 1024; i++) printf "%07d\n", i }' | head -c 8191 >page2nonl
printf 'x' >>page2nonl
# Huge lines: 3 MiB and 5 MiB records among short ones, no final newline.
awk 'BEGIN { s = "y"; while (length(s) < 3145728) s = s s; print "short"; print substr(s, 1, 3145728); print "mid"; printf "%s", substr(s, 1, 5242880) }' >huge
printf 'a\0b\0c\0d\0' >zs
check "page1 is 4096 bytes" test "$(wc -c <page1)" = 4096
check "page2nonl is 8192 bytes" test "$(wc -c <page2nonl)" = 8192

for f in empty nonl tail3 lines page1 page2nonl huge; do
    same "$f" $f
done
same "zs -z" zs -z
same "lines --header=1" lines --header=1
same "tail3 --header=2" tail3 --header=2
"$F" --seed=13 --shards=3 --output-prefix=sh. lines && cat sh.* >shm.out && rm -f sh.*
cat lines | "$F" --seed=13 --shards=3 --output-prefix=sh. && cat sh.* >shp.out
check "lines --shards: same shards" cmp -s shm.out shp.out
"$F" --seed=13 empty >e.out
check "empty: no output" test ! -s e.out
"$F" --seed=13 nonl >e.out
check "nonl: the line and a newline" test "$(cat e.out)" = "one line, no newline"
check "page2nonl: the last record ends with a newline" \
    test "$("$F" --seed=13 page2nonl | grep -c x)" = 1

# Standard input opened mid-file (not at a page boundary): the rest.
(dd bs=1000 skip=1 count=0 2>/dev/null; "$F" --seed=13 >mid.out) <lines
tail -c +1001 lines | "$F" --seed=13 >midp.out
check "stdin mid-file: the rest of the file" cmp -s mid.out midp.out

# -o FILE: the same bytes as standard output.
"$F" --seed=13 -o o.out lines
"$F" --seed=13 lines >s.out
check "-o FILE: same output" cmp -s o.out s.out

# Changes while mapped.
if ! RACE=$(shim maprace); then
    bad "no libmaprace.so near $F (make build/tests/libmaprace.so)"
    finish
    exit $?
fi
# The shim needs a dynamically linked binary (lib.sh: dynamic).
if ! FD=$(dynamic); then
    bad "no dynamically linked fairshuf for the shim (make build/dyn/fairshuf)"
    finish
    exit $?
fi
# 300 000 records of 30 bytes (9 MB: output begins long before the end).
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "%06d abcdefghijklmnopqrstuv\n", i }' >big
# mrace AT OP [-o]: run on a copy (od/in) with the shim; sets rc, leaves
# the output in out (standard output, or od/out which held "old").
mrace() {
    rm -rf od
    mkdir od
    cp big od/in
    echo old >od/out
    if [ "${3:-}" = -o ]; then
        env LD_PRELOAD="$RACE" FSH_MAPRACE_FILE="$T/w/od/in" \
            FSH_MAPRACE_AT="$1" FSH_MAPRACE_OP="$2" "$FD" --seed=3 -o od/out od/in 2>err
        rc=$?
        cp od/out out
    else
        env LD_PRELOAD="$RACE" FSH_MAPRACE_FILE="$T/w/od/in" \
            FSH_MAPRACE_AT="$1" FSH_MAPRACE_OP="$2" "$FD" --seed=3 od/in >out 2>err
        rc=$?
    fi
}
changed() {
    [ "$rc" = 1 ] && [ "$(cat err)" = "fairshuf: od/in: file changed as we read it" ]
}
mrace map shrink
check "shrink/map: exit 1 with the message" changed
check "shrink/map: nothing on standard output" test ! -s out
mrace map shrink -o
check "shrink/map -o: exit 1 with the message" changed
check "shrink/map -o: FILE untouched" test "$(cat out)" = old
check "shrink/map -o: no temporaries" test "$(ls -A od | tr '\n' ' ')" = "in out "
mrace write shrink -o
check "shrink/write -o: exit 1 with the message" changed
check "shrink/write -o: FILE untouched" test "$(cat out)" = old
check "shrink/write -o: no temporaries" test "$(ls -A od | tr '\n' ' ')" = "in out "
mrace write shrink
check "shrink/write: exit 1 with the message" changed
for at in map write; do
    mrace $at grow
    check "grow/$at: exit 0" test "$rc" = 0
    check "grow/$at: the first snapshot" is_perm_of big out
    mrace $at edit
    check "edit/$at: exit 0" test "$rc" = 0
    check "edit/$at: one content" eval 'is_perm_of big out || is_perm_of od/in out'
done
mrace map join
check "join/map: exit 0, the joined file" eval '[ "$rc" = 0 ] && is_perm_of od/in out'
mrace write join -o
check "join/write -o: the error, or the old content whole" \
    eval '{ changed && [ "$(cat out)" = old ]; } || { [ "$rc" = 0 ] && is_perm_of big out; }'
mrace write join
check "join/write: the error, or the old content whole" \
    eval 'changed || { [ "$rc" = 0 ] && is_perm_of big out; }'
finish
