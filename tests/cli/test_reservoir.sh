#!/bin/sh
# SPDX-License-Identifier: MIT
# -n K on a stream keeps a reservoir of K records in one arena
# (cli/shuf/reservoir.c); records replaced in their slot are garbage that
# compactions slide the kept records over, and a record over 1 MiB that
# outweighs the others is taken over from the reader as the arena's start.
# On records of every length (the delimiter alone up to 1.4 MiB), with -z
# too: under --random-source the output is GNU shuf's byte for byte (the
# reservoir behind both paths); seeded, it is K distinct input records (the
# input's records are distinct, so any byte moved wrongly shows). Known-bad
# variants, each caught here: the taken-over record's neighbours copied
# without their slot numbers (4 checks fail), a compaction that leaves the
# moved records' offsets as they were (9 fail).
NAME=test_reservoir
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF

# 30000 records: 1% empty, 5% up to 5000 bytes, 10 of 1-1.4 MiB, the rest
# up to 60 bytes; all distinct but the empty ones.
awk 'BEGIN { srand(5); s = "q"; while (length(s) < 2097152) s = s s;
    for (i = 0; i < 30000; i++) { r = rand();
        n = i % 3000 == 1500 ? 1048576 + (i % 7) * 65536 : r < 0.05 ? int(rand() * 5000) : int(rand() * 60);
        if (r < 0.01) print ""; else print i substr(s, 1, n) } }' >mixed
tr '\n' '\0' <mixed >mixedz
head -c 1000000 /dev/zero | tr '\000' r >rs
sort -u mixed >mixed.set

# subset OUT K: OUT holds K records, distinct (empty ones aside), each an
# input record.
subset() {
    [ "$(wc -l <"$1")" = "$2" ] || return 1
    _d=$(grep -v '^$' "$1" | sort | uniq -d | head -n 1 | cut -c 1-20)
    [ -z "$_d" ] || return 1
    sort -u "$1" | comm -23 - mixed.set | cmp -s - /dev/null
}
for k in 1 40 3000 29000; do
    cat mixed | "$F" --seed=r$k -n $k >out 2>err
    check "seeded -n $k: K distinct input records" subset out $k
    cat mixedz | "$F" --seed=r$k -z -n $k | tr '\0' '\n' >outz 2>err
    check "seeded -n $k -z: K distinct input records" subset outz $k
    check "seeded -n $k -z: the same records as without -z" \
        sh -c "cat mixed | \"$F\" --seed=r$k -n $k | cmp -s - outz"
    if [ "$have_gnu" = 1 ]; then
        for z in "" -z; do
            cat mixed${z:+z} | gnu --random-source=rs $z -n $k >g.out 2>&1
            cat mixed${z:+z} | mine --random-source=rs $z -n $k >m.out 2>&1
            check "--random-source -n $k $z: GNU's output" cmp -s g.out m.out
        done
    fi
done
finish
