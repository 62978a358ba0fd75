#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 48 (its usual wall time in s: longest first)
# Part B: --memory and external mode, the seeded permutation defined by the
# record count only (same output in memory and external, for any --memory,
# --threads, contents), --header, --shards, --progress, abbreviations of
# our options, temp-directory faults and signals, and a uniformity audit of
# external mode with a tiny memory limit.
NAME=test_big
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
groups_of() { tr '\r' '\n' <"$1" | sed -n 's/.* records, \([0-9]*\) groups.*/\1/p'; }
seen_groups=""
# ext_same FILE SEED MEM [extra...]: external output equals the in-memory
# one and is a permutation; records the group count.
ext_same() {
    _f=$1 _s=$2 _m=$3
    shift 3
    "$F" --seed="$_s" "$@" "$_f" >mem.out || return 1
    "$F" --seed="$_s" --memory="$_m" --progress "$@" "$_f" >ext.out 2>ext.err || return 1
    _g=$(groups_of ext.err)
    seen_groups="$seen_groups ${_g:-0}"
    cmp -s mem.out ext.out || { echo "  $_f mem=$_m: differs from in-memory (groups ${_g:-none})" >&2; return 1; }
    is_perm_of "$_f.exp" ext.out "${Z:-}"
}

# --- Properties: random bytes and terminators, sizes 0..1e5, memory limits
# giving 1, 2 and many groups (small inputs: position groups).
cases=12
[ "$slow" = 1 ] && cases=6
awk -v n="$cases" 'BEGIN { srand(31337)
    split("0 1 100 100000", fixed, " ")
    for (i = 1; i <= n; i++) {
        size = i <= 4 ? fixed[i] : int(rand() * 100001)
        print i, size, (rand() < 0.3), int(rand() * 6) }
}' >params
while read -r i size z hi; do
    if [ "$z" = 1 ]; then d='\000'; Z=-z; else d='\n'; Z=; fi
    hio=$(printf '%03o' "$hi")
    head -c "$size" /dev/urandom | tr "\\000-\\$hio" "$d" >in$i
    cp in$i in$i.exp
    if [ "$z" = 1 ]; then dv=0; else dv=10; fi
    if [ -s in$i ] && [ "$(tail -c 1 in$i | od -An -tu1 | tr -d ' ')" != "$dv" ]; then
        printf "$d" >>in$i.exp
    fi
    # need = bytes + 24 * records; budget = 0.9 * memory.
    n=$(if [ "$z" = 1 ]; then tr -cd '\000' <in$i.exp | wc -c; else wc -l <in$i.exp; fi)
    need=$(( $(wc -c <in$i.exp) + 24 * n ))
    for m in $(( need * 10 / 9 + 20 )) $(( need * 10 / 18 + 20 )) $(( need / 20 + 1 )) 1; do
        # shellcheck disable=SC2086
        check "case $i ($size bytes, ${Z:-nl}), --memory=${m}b" ext_same in$i "p$i" "${m}b" $Z
    done
    # shellcheck disable=SC2086
    cat in$i | "$F" --memory=1b $Z >pipe.out
    check "case $i: external from a pipe, unseeded" is_perm_of in$i.exp pipe.out $Z
done <params
Z=
check "small inputs: 1, 2 and many groups seen ($seen_groups)" \
    sh -c 'case " $1 " in *" 1 "*) ;; *) exit 1;; esac; case " $1 " in *" 2 "*) ;; *) exit 1;; esac
           for g in $1; do [ "$g" -ge 10 ] && exit 0; done; exit 1' sh "$seen_groups"

# --- Large inputs (more than 2^20 records: the bucket scatter), 40-byte
# lines so that one group can hold the whole input in external mode.
awk 'BEGIN { for (i = 1; i <= 1100000; i++) printf "%08d abcdefghijklmnopqrstuvwxyz0123\n", i }' >big
cp big big.exp
seen_groups=""
check "big: 1 group" ext_same big g 80M
check "big: 2 groups" ext_same big g 40M
check "big: many groups" ext_same big g 4M
check "big: groups seen 1 2 32 ($seen_groups)" test "$seen_groups" = " 1 2 32"
"$F" --seed=g big >t1.out
for t in 1 2 7; do
    "$F" --seed=g --threads=$t big >t.out
    check "big: --threads=$t in memory" cmp -s t1.out t.out
    "$F" --seed=g --threads=$t --memory=4M big >t.out
    check "big: --threads=$t external" cmp -s t1.out t.out
done
cat big | "$F" --seed=g --memory=4M >t.out
check "big: external from a pipe" cmp -s t1.out t.out
# A corpus and its translation: same record count, same order.
sed 's/^\([0-9]*\) .*/\1 une autre langue/' big >tr
"$F" --seed=align --memory=4M big | cut -c1-8 >a1
"$F" --seed=align tr | cut -c1-8 >a2
check "big: corpus (external) and translation (memory) aligned" cmp -s a1 a2
check "big: not the identity" test -n "$(cmp a1 big.exp 2>&1)"
"$F" --seed=g -i 1-1100000 >r.out
cut -c1-8 t1.out | sed 's/^0*//' >t1.num
check "big: -i 1-N gives the same order as N lines" cmp -s t1.num r.out
rm -f big.exp tr a1 a2

# Small corpora too.
seq 5000 >c1
sed 's/$/ translated/' c1 >c2
"$F" --seed=align --memory=1K c1 >a1
"$F" --seed=align c2 | sed 's/ translated$//' >a2
check "small corpus (external) and translation (memory) aligned" cmp -s a1 a2

# --- --header, --shards
printf 'id,name\n' >csv
seq 100 | sed 's/$/,x/' >>csv
for mem in 1G 1b; do
    "$F" --header=1 --memory=$mem csv >h.out
    check "--header=1 ($mem): first line kept" test "$(head -n 1 h.out)" = id,name
    tail -n +2 csv >h.body
    tail -n +2 h.out >h.obody
    check "--header=1 ($mem): rest is a permutation" is_perm_of h.body h.obody
done
cat csv | "$F" --header=1 -n 3 >h.out
check "--header with -n: header plus 3" test "$(head -n 1 h.out),$(wc -l <h.out)" = "id,name,4"
# -n does not count the header (fairshuf(1)): -n 0 writes the header lines
# (it wrote nothing), in every mode, drawing nothing.
for m in "" "-r" "--random-source=/dev/null" "--random-source=/dev/null -r"; do
    # shellcheck disable=SC2086
    cat csv | "$F" --header=1 -n 0 $m >h.out 2>h.err
    check "--header=1 -n 0 $m: the header alone" test "$(cat h.out)" = id,name
done
"$F" --header=2 -n 0 -e a b c d >h.out
check "--header=2 -n 0 -e: the two header operands" test "$(paste -sd' ' h.out)" = "a b"
"$F" --header=2 -e a b c d >h.out
check "--header with -e" test "$(head -n 2 h.out | paste -sd' ' -)" = "a b"
"$F" --header=500 csv >h.out
check "--header beyond the input: unchanged" cmp -s csv h.out
run mine err -i 1-3 --header=1
check "--header with -i: error" test "$(cat err.rc)" = 1

"$F" --seed=s --shards=11 --output-prefix=part. -i 1-100
check "--shards=11: files part.00..part.10" test -f part.00 -a -f part.10 -a ! -f part.11
cat part.* | sort -n >all
seq 100 >exp100
check "--shards: union is the input" cmp -s all exp100
"$F" --seed=s -i 1-100 >whole
check "--shards: round-robin of the shuffled order" \
    test "$(sed -n '1p;12p' whole | paste -sd' ' -)" = "$(sed -n '1,2p' part.00 | paste -sd' ' -)"
"$F" --shards=3 --output-prefix=hs --header=1 csv
check "--shards with --header: header in each shard" \
    test "$(head -qn 1 hs0 hs1 hs2 | sort -u)" = id,name
check "--shards: no temporaries left" test -z "$(ls -A | grep fairshuf-tmp)"
run mine err --shards=2 -i 1-3
check "--shards without --output-prefix: error" test "$(cat err.rc)" = 1

# --- --progress: forced writes to stderr; default with stderr a pipe
# writes nothing; a terminal (script) gets a bar on long runs.
"$F" --progress --memory=1K c1 2>p.err >/dev/null
check "--progress writes to stderr" grep -q 'groups' p.err
"$F" c1 2>&1 >/dev/null | cat >p2.err
check "no progress into a pipe" test ! -s p2.err
# Slow input: the bar says it is reading, with the bytes so far (it said
# nothing until the end, then "write ... 100%" with the wait in its time).
(sleep 1.5; printf 'a\nb\n'; sleep 0.5; printf 'c\n') |
    "$F" --progress 2>p4.err >/dev/null
check "--progress while reading a pipe: read and bytes" \
    sh -c "tr '\\r' '\\n' <p4.err | grep -q '^fairshuf: read  *4.0 B '"
# More than --memory from a pipe: the rest goes to a spool file, still the
# read phase, and the bytes go on counting (they stopped where the
# in-memory read gave up, tens of kB, through the wait until "count").
(seq 200000; sleep 1; printf 'x\n') |
    "$F" --progress --memory=64K 2>p5.err >/dev/null
check "--progress while spooling a pipe: read and bytes" \
    sh -c "tr '\\r' '\\n' <p5.err | grep -q '^fairshuf: read  *1\\.3 MB '"
# Before the first byte: the bar is there from the start, its time going
# on while the pipe sends nothing (it appeared with the first byte).
(sleep 1.5; printf 'a\n') | "$F" --progress 2>p6.err >/dev/null
check "--progress: read 0 B, the time going on, before the first byte" \
    sh -c "tr '\\r' '\\n' <p6.err | grep -q '^fairshuf: read  *0\\.0 B  *\\(0\\.[5-9]\\|1\\.[0-9]\\)s'"
# -n and -r read and write with a bar too (they had none), and so does
# --random-source; -r with -n counts its lines, -r alone its bytes; -i and
# -e have a write phase only. The output does not depend on --progress.
# bar FILE PHASE PCT: FILE's bar reached PHASE at PCT %.
bar() { tr '\r' '\n' <"$1" | grep -q "^fairshuf: $2  *\[[#.]*\] *$3% "; }
for args in "-n 5 c1" "-r -n 9000 c1" "--random-source=c1 c1" "--random-source=c1 -n 3 c1" \
    "--random-source=c1 -r -n 9000 c1"; do
    case $args in --random-source*) set -- ;; *) set -- --seed=p ;; esac
    # shellcheck disable=SC2086
    "$F" "$@" $args >pn1.out 2>/dev/null
    # shellcheck disable=SC2086
    "$F" "$@" --progress $args >pn2.out 2>pn.err
    check "--progress $args: read 100 %" bar pn.err read 100
    check "--progress $args: write 100 %" bar pn.err write 100
    check "--progress $args: the same output" sh -c "test -s pn1.out && cmp -s pn1.out pn2.out"
done
(sleep 1; cat c1) | "$F" --progress -n 3 >/dev/null 2>pn.err
check "--progress -n from a pipe: read and bytes before the first" \
    sh -c "tr '\\r' '\\n' <pn.err | grep -q '^fairshuf: read  *0\\.0 B  *0\\.[2-9]s'"
check "--progress -n from a pipe: write 100 %" bar pn.err write 100
"$F" --progress -r -i 1-9 2>pr.err | head -n 200000 >/dev/null
check "--progress -r without -n: the bytes written" \
    sh -c "tr '\\r' '\\n' <pr.err | grep -q '^fairshuf: write  *[0-9.]* [kM]*B '"
for args in "-i 1-20000" "-n 5000 -i 1-1000000" "-r -n 9000 -i 1-3" "-e a b c" "-r -n 9000 -e a b"; do
    # shellcheck disable=SC2086
    "$F" --progress $args >/dev/null 2>pi.err
    check "--progress $args: write 100 %" bar pi.err write 100
    check "--progress $args: nothing read" sh -c "! grep -q read pi.err"
done
"$F" --no-progress --memory=1K c1 2>p3.err >/dev/null
check "--no-progress: silent" test ! -s p3.err
if command -v script >/dev/null 2>&1 && [ "$slow" = 0 ]; then
    script -qec "(cat big; sleep 1.5) | $F --memory=1M >/dev/null" /dev/null >tty.out 2>&1 </dev/null
    check "terminal: progress bar on a long run" grep -q 'write' tty.out
    # Run as shuf it is GNU shuf: no bar unless asked.
    script -qec "(cat big; sleep 1.5) | $T/mine/shuf --memory=1M >/dev/null" /dev/null >tty2.out 2>&1 </dev/null
    check "terminal, run as shuf: no progress bar" test ! -s tty2.out
    script -qec "(cat big; sleep 1.5) | $T/mine/shuf --progress --memory=1M >/dev/null" /dev/null >tty3.out 2>&1 </dev/null
    check "terminal, run as shuf: --progress still draws" grep -q 'write' tty3.out
    # A pipe that sends nothing for 2 s: the bar shows after a second,
    # while it waits (it showed at the first byte).
    script -qec "(sleep 2; printf 'a\\n') | $F >/dev/null" /dev/null >tty4.out 2>&1 </dev/null
    check "terminal: a bar while a pipe sends nothing" \
        sh -c "tr '\\r' '\\n' <tty4.out | grep -q '^fairshuf: read  *0\\.0 B  *1\\.'"
    # The output on the terminal too: no bar among the records.
    script -qec "(sleep 2; printf 'a\\n') | $F" /dev/null >tty5.out 2>&1 </dev/null
    check "terminal: no bar when the output is on it" \
        sh -c "grep -q '^a' tty5.out && ! grep -q 'read\\|write' tty5.out"
elif [ "$slow" != 0 ]; then
    skipped "terminal progress (its timed waits are not run under the sanitizers)"
else
    skipped "terminal progress (no script command)"
fi

# --- Abbreviations: GNU's options resolve as in GNU shuf; ours only when
# unambiguous among all options.
printf 'a\nb\nc\n' >in3
gcheck "--head=2 as GNU" same_count --head=2 in3
gcheck "--he ambiguous as GNU" same_errors --he in3
gcheck "--he=3 ambiguous as GNU" same_errors --he=3 in3
gcheck "--hea=1 as GNU" same_count --hea=1 in3
gcheck "--r ambiguous as GNU" same_errors --r in3
gcheck "--o=x as GNU (--output)" same_errors --o=x in3
gcheck "--bogus as GNU" same_errors --bogus
"$F" --heade=1 in3 >ab.out
check "--heade abbreviates --header" test "$(head -n 1 ab.out)" = a
run mine ab --s=1 in3
check "--s ambiguous (seed, shards)" grep -q "option '--s=1' is ambiguous; possibilities: '--seed' '--shards'" ab.err
"$F" --se=x -i 1-5 >ab1
"$F" --seed=x -i 1-5 >ab2
check "--se abbreviates --seed" cmp -s ab1 ab2
run mine ab --t=1 in3
check "--t ambiguous (temporary-directory, threads)" test "$(cat ab.rc)" = 1
"$F" --output-p=op --shards=1 -i 1-3
check "--output-p abbreviates --output-prefix" test -f op0
"$F" -T . --memory=1K c1 >tt.out
check "-T DIR" is_perm_of c1 tt.out
run mine m --memory=12Q c1
check "bad --memory: error" test "$(cat m.rc)" = 1

# --- Faults in the temporary directory.
no_left() { [ -z "$(ls -A "$1")" ]; }
mkdir tmpd
run mine e -T "$PWD/nodir" --memory=1K c1
check "missing temp dir: exit 1" test "$(cat e.rc)" = 1
check "missing temp dir: message" grep -q 'cannot create temporary file in' e.err
if [ "$(id -u)" = 0 ] && mkdir mnt && mount -t tmpfs -o size=256k tmpfs mnt 2>/dev/null; then
    echo precious >keep
    cp keep keep.orig
    "$F" -T mnt --memory=64K -o keep big 2>full.err
    rc=$?
    check "full temp dir: exit 1" test $rc = 1
    check "full temp dir: message" grep -q 'write error on temporary file in mnt: No space left on device' full.err
    check "full temp dir: no temp files" no_left mnt
    check "full temp dir: -o file untouched" cmp -s keep keep.orig
    check "full temp dir: no output temporary" test -z "$(ls -A | grep fairshuf-tmp)"
    check "full temp dir: input untouched" test "$(wc -l <big)" = 1100000
    umount mnt
    mount -t tmpfs -o ro,size=256k tmpfs mnt
    run mine e -T mnt --memory=1K c1
    check "read-only temp dir: exit 1" test "$(cat e.rc)" = 1
    check "read-only temp dir: message" grep -q 'cannot create temporary file in mnt: Read-only file system' e.err
    umount mnt
elif [ "$(id -u)" != 0 ]; then
    mkdir ro
    chmod 555 ro
    run mine e -T ro --memory=1K c1
    check "read-only temp dir: exit 1" test "$(cat e.rc)" = 1
    check "read-only temp dir: message" grep -q 'cannot create temporary file in ro: Permission denied' e.err
    skipped "full temp dir (needs root for a tmpfs)"
else
    skipped "full / read-only temp dir (cannot mount tmpfs)"
fi
# SIGTERM in the middle of an external run: temp files are unlinked at
# creation, the -o temporary is removed, the output file is untouched.
echo precious >keep
(sleep 2; echo late) | cat big - | "$F" -T "$PWD/tmpd" --memory=1M -o keep &
pid=$!
sleep 1
kill -s TERM $pid 2>/dev/null
{ wait $pid; } 2>/dev/null
check "SIGTERM mid external run: temp dir empty" no_left tmpd
check "SIGTERM mid external run: output untouched" test "$(cat keep)" = precious
check "SIGTERM mid external run: no output temporary" test -z "$(ls -A | grep fairshuf-tmp)"
"$F" -T "$PWD/tmpd" --memory=1K c1 >/dev/null
check "success: temp dir empty" no_left tmpd

# --- The kernel's pseudo files in external mode: /proc/self/maps and
# /proc/self/status are made at each read, with a size of 0, and differ
# from one read to the next (our own mappings and memory); read twice, as
# a regular file is, they were "file changed as we read it". Read once, as
# a pipe: the shuffle of what that read returned, as GNU shuf gives.
if [ -r /proc/self/maps ] && [ -r /proc/self/status ]; then
    run mine pm --memory=1b /proc/self/maps
    check "--memory=1b /proc/self/maps: exit 0, no message ($(cat pm.err))" \
        sh -c '[ "$(cat pm.rc)" = 0 ] && [ ! -s pm.err ]'
    check "--memory=1b /proc/self/maps: distinct mapping lines" sh -c \
        '[ "$(wc -l <pm.out)" -ge 5 ] && [ -z "$(sort pm.out | uniq -d)" ] &&
         ! grep -qv "^[0-9a-f]*-[0-9a-f]* [-rwxps]* " pm.out'
    # Standard input: the shell opens /proc/PID/status of the process it
    # becomes (exec), so that the file is fairshuf's own.
    sh -c 'exec "$0" --memory=1b </proc/$$/status' "$F" >ps.out 2>ps.err
    echo $? >ps.rc
    cut -d: -f1 /proc/self/status | sort >ps.keys
    check "--memory=1b </proc/self/status: exit 0, no message ($(cat ps.err))" \
        sh -c '[ "$(cat ps.rc)" = 0 ] && [ ! -s ps.err ]'
    check "--memory=1b </proc/self/status: each field once" sh -c \
        'cut -d: -f1 ps.out | sort | cmp -s - ps.keys'
else
    skipped "pseudo files in external mode (no /proc/self/maps)"
fi

# --- Uniformity of external mode with a tiny memory limit (one record per
# group): position by value over 6 lines, 600 seeded runs, 100 expected per
# cell. The statistic of a permutation table is n/(n-1) chi-square with
# (n-1)^2 df (see test_cli_uniform.sh): limit 1.2 * 73.90 = 88.67, which a
# correct shuffle exceeds with probability about 1e-6.
seq 6 >six
runs=600
# Under the sanitizers 30 runs (600 ASan starts were 47 s there): their
# memory errors, not their law, which make check tests.
[ "$slow" = 1 ] && runs=30
i=1
while [ $i -le $runs ]; do
    "$F" --seed="e$i" --memory=1b six | paste -sd' ' -
    i=$((i + 1))
done >pv
check "external mode: 6 groups for 6 lines" sh -c '"$1" --memory=1b --progress six 2>&1 >/dev/null | grep -q " 6 groups"' sh "$F"
check "external mode, --memory=1b: each of the $runs runs a permutation of 6 lines" awk '
    { n = split($0, f, " "); delete s; for (i = 1; i <= n; i++) s[f[i]]++
      for (v = 1; v <= 6; v++) if (s[v] != 1) bad = 1
      if (n != 6) bad = 1 }
    END { exit bad || NR != '"$runs"' }' pv
if [ "$slow" = 1 ]; then
    skipped "external position-by-value chi-square (30 runs under the sanitizers: make check's)"
else
    check "external position-by-value chi-square" awk -v runs=$runs '
    { for (p = 1; p <= NF; p++) c[p, $p]++ }
    END { e = runs / 6; x = 0
          for (p = 1; p <= 6; p++) for (v = 1; v <= 6; v++) x += (c[p, v] - e) ^ 2 / e
          printf "external position by value: chi2 = %.2f (limit 88.67)\n", x
          exit !(x <= 88.67) }' pv
fi

# The group files against the open-file limit: 524 groups under a soft
# limit of 256 ran out of descriptors ("cannot create temporary file:
# Too many open files"); the soft limit is raised toward the hard one, and
# when the hard one is too low the message says what to do.
seq 1000000 >m6
"$F" --seed=fd m6 >fd.mem
mkdir fdtmp
(ulimit -Sn 256 && exec "$F" --seed=fd --memory=64K -T fdtmp m6) >fd.ext 2>fd.err
check "external mode, 524 groups under a soft limit of 256 files" cmp -s fd.mem fd.ext
(ulimit -n 256 && exec "$F" --seed=fd --memory=64K -T fdtmp m6) >fd.ext2 2>fd.err2
echo $? >fd.rc2
check "... under a hard limit of 256: says so, exit 1" sh -c \
    '[ "$(cat fd.rc2)" = 1 ] && grep -q "external mode needs 540 open files for its 524 groups, but the limit is 256 (ulimit -n)" fd.err2'
check "... and leaves no temporary file" sh -c '[ -z "$(ls -A fdtmp)" ]'

finish
