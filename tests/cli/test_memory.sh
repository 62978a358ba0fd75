#!/bin/sh
# SPDX-License-Identifier: MIT
# Memory (issue 9, item 9): the default --memory respects ulimit -v / -d
# (RLIMIT_AS, RLIMIT_DATA) and cgroup limits (v2 memory.max, v1
# memory.limit_in_bytes, faked through the LD_PRELOAD shim libfakeproc.so
# that make builds), so a large input goes external instead of "memory exhausted"; -n 1 on one long
# line peaks at about the line's size, not twice it.
# run.sh: alone (peak RSS, memory limits and 200 MiB inputs).
NAME=test_memory
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
external() { tr '\r' '\n' <"$1" | grep -q 'external shuffle'; }

# An 86 MB file (660 000 records), bigger than the limits below (78 MiB),
# and its first 39 MB for the cgroup tests (limit 64 MiB).
awk 'BEGIN { for (i = 0; i < 660000; i++) printf "%07d %0122d\n", i, i }' >big
head -n 300000 big >mid
sort big >big.sorted
sort mid >mid.sorted

# --- ulimit -v and -d. An ASan binary cannot run under ulimit -v at all.
for opt in v d; do
    if ! (ulimit -$opt 80000 && "$F" -e a >/dev/null 2>&1); then
        skipped "ulimit -$opt: the binary cannot run under it (sanitizer build?)"
        continue
    fi
    (ulimit -$opt 80000 && exec "$F" --progress -T . big) >out 2>err
    rc=$?
    check "ulimit -$opt 80000: file of 86 MB: exit 0 ($(tr '\r' '\n' <err | tail -n 1))" test $rc = 0
    check "ulimit -$opt: went external" external err
    check "ulimit -$opt: a permutation" sh -c 'sort out | cmp -s - big.sorted'
    (ulimit -$opt 80000 && cat big | "$F" --progress -T .) >out 2>err
    check "ulimit -$opt: from a pipe: exit 0" test $? = 0
    check "ulimit -$opt: from a pipe: went external" external err
    check "ulimit -$opt: from a pipe: a permutation" sh -c 'sort out | cmp -s - big.sorted'
    # An explicit --memory still wins (and is too much here).
    (ulimit -$opt 80000 && exec "$F" --memory=1G big) >/dev/null 2>err
    check "ulimit -$opt: --memory=1G: in memory, exhausted" \
        grep -q 'memory exhausted' err
done
"$F" --progress big >/dev/null 2>err
check "no limit: in memory" sh -c '! grep -q external err'

# --- cgroups, through a fake /proc/self/{cgroup,mountinfo}.
# The shim needs a dynamically linked binary (lib.sh: dynamic).
if FAKEPROC=$(shim fakeproc) && FD=$(dynamic); then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
    export ASAN_OPTIONS
    P=$T/w/proc
    mkdir -p "$P" cg2/a/b cg1/mem/x/y cg1/cpu
    # cgroup_run DESCRIPTION EXPECT(ext|mem): run on mid with the fake /proc.
    cgroup_run() {
        env LD_PRELOAD="$FAKEPROC" FSH_FAKE_PROC="$P" \
            "$FD" --progress -T . mid >out 2>err
        check "$1: exit 0" test $? = 0
        if [ "$2" = ext ]; then
            check "$1: external" external err
        else
            check "$1: in memory" sh -c '! grep -q external err'
        fi
        check "$1: a permutation" sh -c 'sort out | cmp -s - mid.sorted'
    }
    # v2: the limit of a parent counts; "max" is no limit.
    printf '0::/a/b\n' >"$P/cgroup"
    printf '30 20 0:26 / %s rw - cgroup2 cgroup2 rw\n' "$T/w/cg2" >"$P/mountinfo"
    echo max >cg2/a/b/memory.max
    echo 67108864 >cg2/a/memory.max
    cgroup_run "cgroup v2 parent memory.max 64M" ext
    echo max >cg2/a/memory.max
    cgroup_run "cgroup v2 memory.max max" mem
    echo 67108864 >cg2/a/b/memory.max
    cgroup_run "cgroup v2 own memory.max 64M" ext
    # v1: the memory controller's hierarchy, not another one's.
    printf '5:cpu,cpuacct:/x\n4:memory:/x/y\n0::/\n' >"$P/cgroup"
    {
        printf '31 20 0:27 / %s rw - cgroup cgroup rw,cpu,cpuacct\n' "$T/w/cg1/cpu"
        printf '32 20 0:28 / %s rw - cgroup cgroup rw,memory\n' "$T/w/cg1/mem"
    } >"$P/mountinfo"
    echo 9223372036854771712 >cg1/mem/x/y/memory.limit_in_bytes
    echo 67108864 >cg1/cpu/memory.limit_in_bytes
    cgroup_run "cgroup v1 unlimited (other hierarchy ignored)" mem
    echo 67108864 >cg1/mem/x/memory.limit_in_bytes
    cgroup_run "cgroup v1 parent limit 64M" ext
    # A container's view: the mount root is our cgroup.
    printf '4:memory:/docker/c1\n' >"$P/cgroup"
    printf '32 20 0:28 /docker/c1 %s rw - cgroup cgroup rw,memory\n' "$T/w/cg1/mem/x/y" >"$P/mountinfo"
    echo 67108864 >cg1/mem/x/y/memory.limit_in_bytes
    cgroup_run "cgroup v1 mount root = our cgroup" ext
else
    bad "cgroup tests: no libfakeproc.so or no dynamically linked twin near $FAIRSHUF (make build/tests/libfakeproc.so build/dyn/fairshuf)"
fi

# --- Short records: the in-memory shuffle holds 4 bytes of offset per
# record and the shuffle's copy of them beside the input, more than the
# input itself for records under 8 bytes. 10^7 records of 2.9 bytes
# (29 MB, under half of --memory=64M) need 109 MB that way: they go
# external, in the order of the in-memory run.
awk 'BEGIN { for (i = 0; i < 10000000; i++) print i % 100 }' >short
"$F" --seed=s --progress short >mem.out 2>err
check "short records, default --memory: in memory" sh -c '! grep -q external err'
"$F" --seed=s --memory=64M --progress -T . short >out 2>err
check "short records: offsets and copy over --memory=64M: external" external err
check "short records: external, the in-memory order" cmp -s out mem.out
cat short | "$F" --seed=s --memory=64M --progress -T . >out 2>err
check "short records from a pipe: external" external err
check "short records from a pipe: the in-memory order" cmp -s out mem.out
rm -f short mem.out

# --- -n with long records among short ones: a long sampled record is taken
# over from the stream, the others are moved behind it.
awk 'BEGIN { for (i = 0; i < 3000; i++) {
        if (i % 1000 == 500) { s = sprintf("%d ", i); while (length(s) < 3000000) s = s s; print s }
        else printf "%d short\n", i } }' >mixed
sort mixed >mixed.sorted
for k in 1 2 3 5 50 3000; do
    for seed in 1 2 3 4 5; do
        "$F" --seed=$seed -n $k mixed >out
        check "-n $k with long records (seed $seed): $k distinct records of the file" \
            sh -c '[ "$(wc -l <out)" = "$1" ] && sort out | uniq -d | cmp -s - /dev/null &&
                   sort out | comm -23 - mixed.sorted | cmp -s - /dev/null' sh $k
    done
done
"$F" --seed=1 -n 3000 mixed >out
check "-n 3000 of 3000 with long records: a permutation" is_perm_of mixed out

# --- Peak resident memory of -n 1 on one 200 MiB line (GNU: about 1x).
if [ "$slow" = 1 ]; then
    skipped "peak RSS (sanitizer build)"
elif ! /usr/bin/time -f %M true 2>/dev/null; then
    skipped "peak RSS (no /usr/bin/time)"
else
    head -c 209715200 /dev/zero | tr '\000' a >line
    echo >>line
    kb=$(( $(wc -c <line) / 1024 ))
    # peak ARGS...: fairshuf ARGS must print exactly the line, with a peak
    # RSS under 1.3 times the line.
    peak() {
        /usr/bin/time -f %M -o rss "$F" "$@" >out 2>err
        check "peak $*: exit 0" test $? = 0
        check "peak $*: the line" cmp -s out line
        check "peak $*: $(cat rss) KiB for a line of $kb KiB (< 1.3x)" \
            test "$(cat rss)" -lt $(( kb * 13 / 10 ))
    }
    peak -n 1 line
    peak -n 1 --random-source=line line
    peak line
    peak -n 1 <line
fi
finish
