#!/bin/sh
# SPDX-License-Identifier: MIT
# libfairshuf_mpi and fairshuf-mpi under mpirun (issue 15): skipped without
# Open MPI's mpirun or without "make mpi"'s binaries. make sanitize builds
# them under ASan+UBSan too and runs this with fewer rank counts (2 and 3),
# without the statistics, the ulimit runs and the peak RSS (see nosan).
#
# - mpi_lib (tests/mpi/mpi_lib.c) for P = 1..4: fsh_mpi_shuffle equals
#   fsh_shuffle_records on the concatenation for even, empty, one-record
#   and all-on-one-rank splits, below and above 2^20 records; errors and
#   mismatched arguments (arrays unchanged, the caller's error handler
#   kept), a certified-source generator above 2^20 records (refused),
#   a call after MPI_Finalize; the exhaustive enumeration (uniformity and
#   distributed == serial, with two known-bad variants it must catch); a
#   position-by-value chi-square (alpha 1e-6 in all, Bonferroni over the
#   six positions; fixed seeds, so deterministic; its known-bad modulo
#   routing must fail); the chunked exchange with tiny message limits.
# - fairshuf-mpi: byte-identical to ./fairshuf --seed on the same lines for
#   P = 1..4, below and above 2^20 lines (1.2e6), with -n (the first COUNT
#   of the full shuffle), -z, --header, several files, a directory of
#   shards (symlinks in it followed: to a file read, to anything else
#   skipped), -o and shard output (-o a symlink, dangling or not, or a
#   hard-linked file is written through, as fairshuf does; /dev/null in
#   place); edge splits (fewer lines than ranks, a directory without
#   files: no lines, exit 0);
#   external mode (--memory below a rank's share: chunked exchange rounds
#   into per-bucket-group temporary files) with the same outputs;
#   errors: missing file, a dangling symlink in a directory or as FILE
#   (named as one; no output, the old -o file kept), unwritable output
#   (the old file survives, no temporary is left), mismatched arguments (or FSH_MPI_TEST_CHUNK) between ranks, different
#   files at one path on two ranks (two working directories: other sizes,
#   same size, a file only one rank reads), a rank killed
#   by SIGKILL (the others exit non-zero with a message; a timeout guard
#   turns a hang into a failure), SIGTERM and SIGINT of one rank, SIGINT
#   of mpirun (Ctrl-C); -o /dev/full; lines longer than ranks' shares
#   and messages (FSH_MPI_TEST_CHUNK); an
#   input changed between the ranks' looks (FSH_MPI_TEST_PAUSE_AT=plan);
#   GNU usage messages; whole message lines when ranks fail together;
#   ulimit -v 1000000; and the other sentences of fairshuf-mpi(1).
# run.sh: alone (up to 4 ranks on the machine's cores, with time-outs).
NAME=test_mpi
. "$(dirname "$0")/../cli/lib.sh"
ROOT=$(dirname "$FAIRSHUF")
MPIBIN=$ROOT/fairshuf-mpi
# make check's tree (BUILD=build beside OUT=.) or make sanitize's
# (build-san for both).
LIBT=$ROOT/build/mpi/tests/mpi_lib
[ -x "$LIBT" ] || LIBT=$ROOT/mpi/tests/mpi_lib

if [ -n "${FSH_SANITIZE:-}" ]; then
    # Under ASan+UBSan (make sanitize): Open MPI's own allocations that it
    # never frees are left out of the leak report (tests/mpi/lsan.supp
    # names its libraries; a full unwind so that their frames show, and
    # its components kept loaded so that they have names); ours are not.
    OMPI_MCA_mca_base_component_disable_dlclose=1
    LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp"
    export OMPI_MCA_mca_base_component_disable_dlclose LSAN_OPTIONS
    # leaks on|off: the launches after it check leaks or not. The full
    # unwind at each of Open MPI's allocations costs about a second a
    # launch (1.3-2.5 s against 0.45 at 3 ranks; 88 launches were most of
    # test_mpi's 187 s in CI's sanitizer run). So leaks are checked in the
    # library's runs and in every run that succeeds (the paths a
    # long-lived caller repeats); the runs that end in an error exit or a
    # signal run without the leak check, with ASan and UBSan still on.
    _asan_base=${ASAN_OPTIONS:-}
    leaks() {
        if [ "$1" = on ]; then
            ASAN_OPTIONS="${_asan_base:+$_asan_base:}fast_unwind_on_malloc=0"
        else
            ASAN_OPTIONS="${_asan_base:+$_asan_base:}detect_leaks=0"
        fi
        export ASAN_OPTIONS
    }
    leaks on
else
    leaks() { :; }
fi
# nosan DESCRIPTION COMMAND...: check, except under ASan, whose binaries
# cannot run under ulimit -v or -d (its shadow memory is terabytes of
# address space) and whose peak RSS says nothing of the command's.
# The rank counts of the loops: 1 to 4 (or 3); 2 and 3 under ASan, where
# each launch takes seconds (make sanitize's time in CI).
if [ -n "${FSH_SANITIZE:-}" ]; then
    RANKS4="2 3" RANKS3="2 3"
else
    RANKS4="1 2 3 4" RANKS3="1 2 3"
fi
nosan() {
    if [ -n "${FSH_SANITIZE:-}" ]; then
        skipped "$1 (not under ASan: ulimit and peak RSS)"
    else
        check "$@"
    fi
}
if ! command -v mpirun >/dev/null 2>&1; then
    skipped "no mpirun (install openmpi-bin and libopenmpi-dev, then make mpi)"
    finish
    exit $?
fi
if [ ! -x "$MPIBIN" ] || [ ! -x "$LIBT" ]; then
    skipped "no $MPIBIN or $LIBT (run make mpi)"
    finish
    exit $?
fi

MPIRUN="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
# Quiet Open MPI's notices about the VM's network and shared memory, and
# copy through shared memory rather than with process_vm_readv, which
# containers without CAP_SYS_PTRACE refuse (CI runs in one).
OMPI_MCA_btl_base_warn_component_unused=0
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_btl_base_warn_component_unused OMPI_MCA_btl_vader_single_copy_mechanism
# Time (a launch is most of a check's; CI's budget is tight): the ob1
# transport that Open MPI picks on one machine anyway, without probing the
# others (about 0.2 s a launch). When a rank exits non-zero, mpirun sends
# the others SIGCONT, then SIGTERM, then SIGKILL, sleeping
# odls_base_sigkill_timeout (1 s) between them: 0 here, where every rank
# has said what it had to and is exiting anyway; the checks of what ranks
# do on mpirun's SIGTERM keep 1 s ($SIG1), kill_rank 3 s ($SIG3).
OMPI_MCA_pml=ob1
OMPI_MCA_odls_base_sigkill_timeout=0
export OMPI_MCA_pml OMPI_MCA_odls_base_sigkill_timeout
SIG1="--mca odls_base_sigkill_timeout 1"
# kill_rank checks that rank 0's SIGTERM handler removed its temporary:
# under load (6-8 on two cores, niced) 1 s was once too short for it to
# run before mpirun's SIGKILL, and the temporary stayed. 3 s there.
SIG3="--mca odls_base_sigkill_timeout 3"
TO=timeout
command -v timeout >/dev/null 2>&1 || TO=
tmo() { if [ -n "$TO" ]; then timeout "$@"; else shift; "$@"; fi; }

# libs P PART...: one mpi_lib run of the PARTs (PART@BYTES: with
# FSH_MPI_TEST_CHUNK=BYTES), kept for lib; one launch for all, as starting
# the job costs more than most parts. lib P PART: that part's summary line
# reports checks and no failure, and the run exited 0 unless a part
# reported a failure (a crash fails the parts after it through their
# missing lines, and the last through the exit status).
libs() {
    _p=$1
    shift
    # shellcheck disable=SC2086
    tmo 120 $MPIRUN -np "$_p" "$LIBT" "$@" </dev/null >"$T/lib.$_p.out" \
        2>"$T/lib.$_p.err"
    echo $? >"$T/lib.$_p.rc"
}
lib() {
    _rc=$(cat "$T/lib.$1.rc")
    if grep -qx "mpi_lib $2 (P=$1): [1-9][0-9]* checks passed, 0 failed" \
        "$T/lib.$1.out" &&
        { [ "$_rc" = 0 ] || grep -q "checks passed, [1-9]" "$T/lib.$1.out"; }; then
        return 0
    fi
    echo "  mpi_lib $2 P=$1 rc=$_rc" >&2
    tail -n 5 "$T/lib.$1.out" "$T/lib.$1.err" >&2
    return 1
}

if [ -z "${FSH_SANITIZE:-}" ]; then
    libs 1 perm errors enum chi
    libs 2 perm errors enum
    libs 3 perm errors enum chi perm@1000
    libs 4 perm errors enum enum@3
else
    # Under ASan (time: a launch is seconds there): the parts at 2 and 3
    # ranks, the two chunked exchanges; the statistics are make check's.
    libs 2 perm errors enum
    libs 3 perm errors enum perm@1000
    libs 4 enum@3
fi
for p in $RANKS4; do
    check "fsh_mpi_shuffle = fsh_shuffle_records, P=$p" lib $p perm
    check "errors and mismatches, P=$p" lib $p errors
    check "exhaustive enumeration, P=$p" lib $p enum
done
if [ -z "${FSH_SANITIZE:-}" ]; then
    check "chi-square position by value, P=1" lib 1 chi
    check "chi-square position by value, P=3" lib 3 chi
fi
check "chunked exchange (1000-byte messages), P=3" lib 3 perm@1000
check "chunked exchange (3-byte messages), P=4" lib 4 enum@3
# After MPI_Finalize the library refuses (it aborted the process): a run
# of its own. Each rank prints its own summary.
finalized() {
    # shellcheck disable=SC2086
    tmo 120 $MPIRUN -np 2 "$LIBT" finalized </dev/null >"$T/fin.out" 2>"$T/fin.err" &&
        [ "$(grep -c "^mpi_lib finalized (rank [01]): 4 checks passed, 0 failed$" "$T/fin.out")" = 2 ] &&
        return 0
    tail -n 5 "$T/fin.out" "$T/fin.err" >&2
    return 1
}
check "fsh_mpi_shuffle before MPI_Init and after MPI_Finalize: FSH_EINVAL, P=2" finalized

# ---------------------------------------------------------------------------
# The command.
cd "$T/w" || exit 1
seq 1 1000 >a
seq 1001 2500 >b
printf 'x\ny\nz\n' >c
mkdir d
seq 3000 3999 >d/part-0
seq 4000 4100 >d/part-1
printf 'hidden\n' >d/.skip
cat a b c >abc
cat d/part-0 d/part-1 >dd
seq 1 1200000 >big
printf '%s\0' one two three four five six seven >z
mpi() { tmo 120 $MPIRUN -np "$@" </dev/null; }
# shellcheck disable=SC2086
mpi_sig1() { tmo 120 $MPIRUN $SIG1 -np "$@" </dev/null; }

# same P REF ARGS...: fairshuf-mpi's standard output equals file REF.
same() {
    _p=$1 _r=$2
    shift 2
    mpi "$_p" "$MPIBIN" "$@" >"$T/m.out" 2>"$T/m.err" &&
        cmp -s "$T/m.out" "$_r" && return 0
    echo "  P=$_p $*: differs from the single-machine output" >&2
    head -n 5 "$T/m.err" >&2
    return 1
}

"$FAIRSHUF" --seed=s1 abc >ref.abc
"$FAIRSHUF" --seed=s1 big >ref.big
"$FAIRSHUF" --seed=s2 --header=2 abc >ref.hdr
"$FAIRSHUF" --seed=s3 -z z >ref.z
"$FAIRSHUF" --seed=s1 abc | head -n 7 >ref.n7
cat abc dd >abcdd
"$FAIRSHUF" --seed=s4 abcdd >ref.dir
for p in $RANKS4; do
    check "several files = fairshuf --seed, P=$p" same $p ref.abc --seed=s1 a b c
    check "1.2e6 lines = fairshuf --seed, P=$p" same $p ref.big --seed=s1 big
done
chunked_cli() {
    FSH_MPI_TEST_CHUNK=4096
    export FSH_MPI_TEST_CHUNK
    tmo 120 $MPIRUN -x FSH_MPI_TEST_CHUNK -np 3 "$MPIBIN" --seed=s1 big \
        </dev/null >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    unset FSH_MPI_TEST_CHUNK
    [ "$_rc" = 0 ] && cmp -s "$T/m.out" ref.big
}
check "4 KiB messages (exchange and standard output), P=3" chunked_cli
check "--header, P=3" same 3 ref.hdr --seed=s2 --header=2 a b c
check "-z, P=2" same 2 ref.z --seed=s3 -z z
check "-n 7 = first 7 of the full shuffle, P=3" same 3 ref.n7 --seed=s1 -n 7 a b c
# A count beyond 2^64 - 1 is no limit, as in fairshuf and GNU shuf (it was
# refused as an invalid line count).
check "-n 99999999999999999999: no limit, P=2" same 2 ref.abc --seed=s1 -n 99999999999999999999 a b c
check "a directory of shards, P=4" same 4 ref.dir --seed=s4 a b c d
# Symlinks in a directory are followed: a link to a regular file is read
# as that file (in the order of the link's name), links to a directory or
# to a FIFO are skipped like those entries themselves.
mkdir ld ld/sub
cp a ld/1 && cp c ld/4 && ln -s ../b ld/2 && ln -s sub ld/3 && ln -s ../d ld/5
mkfifo ld/6 && ln -s 6 ld/7
cat a b c >ref.ldin
"$FAIRSHUF" --seed=s4 ref.ldin >ref.ld
check "a directory with symlinks: links to files read, others skipped, P=2" \
    same 2 ref.ld --seed=s4 ld
printf 'only\n' >one
check "one line on four ranks" same 4 one --seed=s1 one
: >empty
check "empty input on three ranks" same 3 empty --seed=s1 empty
# A directory without a regular file (empty, or dot files and a FIFO
# only) is no lines, as an empty file is: empty output, exit 0. It was
# exit 1 without a word (rank 0, with no file to list, had no list to
# send, and the ranks agreed that it had failed).
mkdir nodata && printf 'hidden\n' >nodata/.hidden && mkfifo nodata/fifo
check "a directory without files: no lines, exit 0, P=3" same 3 empty --seed=s1 nodata
"$FAIRSHUF" --seed=s5 c >ref.c
check "fewer lines than ranks" same 4 ref.c --seed=s5 c
# Lines longer than several ranks' shares of the bytes (ranks where no
# line starts) and than a message (FSH_MPI_TEST_CHUNK=4096: each record
# goes in many pieces).
long_lines() {
    awk 'BEGIN { for (i = 0; i < 3; i++) { s = sprintf("%c", 65 + i);
        while (length(s) < 300000) s = s s; print substr(s, 1, 300000); print "short" i } }' >long
    "$FAIRSHUF" --seed=s5 long >ref.long
    FSH_MPI_TEST_CHUNK=4096
    export FSH_MPI_TEST_CHUNK
    tmo 120 $MPIRUN -x FSH_MPI_TEST_CHUNK -np 4 "$MPIBIN" --seed=s5 long \
        </dev/null >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    unset FSH_MPI_TEST_CHUNK
    [ "$_rc" = 0 ] && cmp -s "$T/m.out" ref.long
}
check "300 KB lines over 4 ranks and 4 KiB messages = fairshuf --seed" long_lines

# -o and shards. no_temp: no temporary (.fairshuf-tmp-*, the old
# .fairshuf-mpi.*) is left in the working directory.
no_temp() { [ -z "$(ls -a | grep fairshuf)" ]; }
o_file() {
    mpi 3 "$MPIBIN" --seed=s1 -o out.abc a b c 2>"$T/m.err" &&
        cmp -s out.abc ref.abc && no_temp
}
check "-o FILE, P=3" o_file
shards() {
    mpi 3 "$MPIBIN" --seed=s1 --output-prefix=sh. a b c 2>"$T/m.err" &&
        [ "$(ls sh.*)" = "$(printf 'sh.0\nsh.1\nsh.2')" ] &&
        cat sh.0 sh.1 sh.2 | cmp -s - ref.abc
}
check "shard output, P=3: in order they are the output" shards
# -o follows fairshuf's rules (cli/io/outfile.c): through a symlink the
# target gets the output and the link stays; a hard link keeps its links;
# a device is written in place.
o_symlink() {
    rm -f tgt lnk && echo old >tgt && ln -s tgt lnk &&
        mpi 3 "$MPIBIN" --seed=s1 -o lnk a b c 2>"$T/m.err" &&
        [ -L lnk ] && [ "$(readlink lnk)" = tgt ] && cmp -s tgt ref.abc && no_temp
}
check "-o SYMLINK, P=3: the target is written, the link kept" o_symlink
o_hardlink() {
    rm -f hl1 hl2 && echo old >hl1 && ln hl1 hl2 &&
        mpi 3 "$MPIBIN" --seed=s1 -o hl1 a b c 2>"$T/m.err" &&
        cmp -s hl2 ref.abc && cmp -s hl1 ref.abc &&
        [ "$(stat -c %h hl1)" = 2 ] && no_temp
}
check "-o a hard-linked file, P=3: both names get the output" o_hardlink
o_shard_link() {
    rm -f s3.0 s3.1 s3.tgt && echo old >s3.tgt && ln -s s3.tgt s3.1 &&
        mpi 2 "$MPIBIN" --seed=s1 --output-prefix=s3. a b c 2>"$T/m.err" &&
        [ -L s3.1 ] && cat s3.0 s3.tgt | cmp -s - ref.abc && no_temp
}
check "a shard that is a symlink, P=2: written through" o_shard_link
# A dangling symlink as -o or as a shard: its target is created (as by
# fairshuf -o and GNU shuf -o), the link kept.
o_dangling() {
    rm -rf s4.* dtgt dlnk && ln -s s4.tgt s4.1 && ln -s dtgt dlnk &&
        mpi 2 "$MPIBIN" --seed=s1 --output-prefix=s4. a b c 2>"$T/m.err" &&
        [ -L s4.1 ] && cat s4.0 s4.tgt | cmp -s - ref.abc &&
        mpi 2 "$MPIBIN" --seed=s1 -o dlnk a b c 2>"$T/m.err" &&
        [ -L dlnk ] && cmp -s dtgt ref.abc && no_temp
}
check "a dangling symlink as -o or as a shard, P=2: its target created" o_dangling
o_devnull() {
    mpi 3 "$MPIBIN" --seed=s1 -o /dev/null a b c >"$T/m.out" 2>"$T/m.err" &&
        [ ! -s "$T/m.out" ] && no_temp
}
check "-o /dev/null, P=3: written in place" o_devnull
# A write error on a device written in place (rank 0 writes it): exit 1,
# fairshuf's message (fairshuf-mpi(1): "Give -o when the output must be
# known to be complete").
o_devfull() {
    mpi 3 "$MPIBIN" --seed=s1 -o /dev/full a b c >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    [ "$_rc" = 1 ] && grep -qx "fairshuf-mpi: rank 0: /dev/full: write error: No space left on device" \
        "$T/m.err" && no_temp && return 0
    echo "  rc=$_rc" >&2
    grep '^fairshuf-mpi' "$T/m.err" | head -n 3 >&2
    return 1
}
check "-o /dev/full, P=3: exit 1, write error" o_devfull
# Under an address-space limit (ulimit -v, as batch systems set per job):
# rank 0's buffer for the others' output is a few MiB, not the 1 GiB
# message limit (it was: "memory exhausted" for ten lines).
capped() {
    (
        ulimit -v 1000000
        mpi 2 "$MPIBIN" --seed=s1 a b c >"$T/m.out" 2>"$T/m.err"
    ) && cmp -s "$T/m.out" ref.abc && rm -f cap.lnk cap.tgt &&
        ln -s cap.tgt cap.lnk && (
        ulimit -v 1000000
        mpi 2 "$MPIBIN" --seed=s1 -o cap.lnk a b c 2>"$T/m.err"
    ) && cmp -s cap.tgt ref.abc && return 0
    head -n 3 "$T/m.err" >&2
    return 1
}
nosan "standard output and -o SYMLINK under ulimit -v 1000000, P=2" capped
unseeded() {
    # big is seq 1 1200000: a numeric sort of a permutation of it is it.
    mpi 3 "$MPIBIN" big >"$T/u.out" 2>"$T/m.err" &&
        sort -n "$T/u.out" | cmp -s - big && ! cmp -s "$T/u.out" big
}
check "without --seed: a permutation, P=3" unseeded
# --memory's default: half the node's RAM over the ranks on it, and at
# most half the room left under each rank's limits on its address space
# and data (ulimit -v, -d, set here on the ranks alone, as batch systems
# do; FSH_MPI_REPORT says which bound won). It was the RAM's share
# whatever the limits, so a rank under them stayed in memory and failed
# ("memory exhausted", "out of memory") where external mode fits.
# limited P LIMIT ARGS...: fairshuf-mpi ARGS on P ranks, each under the
# ulimit option LIMIT (e.g. "-v 1000000"; "" for none), with FSH_MPI_REPORT.
# With MALLOC_ARENA_MAX=1: Open MPI's threads each reserve a malloc arena
# (64 MiB of address space, a 128 MiB mapping while it is aligned), and
# under a tight limit that reservation fails or not as the threads' timing
# falls, so a rank measured 64 MiB more or less in use from one run to the
# next (in CI: 54 MB of default where the room left 20).
limited() {
    _p=$1 _l=$2
    shift 2
    FSH_MPI_REPORT=1 tmo 120 $MPIRUN -x FSH_MPI_REPORT -np "$_p" sh -c \
        "${_l:+ulimit $_l && }exec env MALLOC_ARENA_MAX=1 \"\$0\" \"\$@\"" \
        "$MPIBIN" "$@" </dev/null
}
# mem_of FILE RANK FROM: the default --memory the report in FILE gave RANK,
# from FROM (empty when the line is not there).
mem_of() {
    sed -n "s/^fairshuf-mpi: rank $2: memory: \([0-9]*\) bytes (the default, from $3)\$/\1/p" "$1"
}
mem_ram() {
    _ram=$(($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) / 2 / 2))
    limited 2 "" --seed=s1 a b c >"$T/m.out" 2>"$T/m.err" &&
        cmp -s "$T/m.out" ref.abc &&
        [ "$(mem_of "$T/m.err" 0 "the node's RAM")" = "$_ram" ] &&
        [ "$(mem_of "$T/m.err" 1 "the node's RAM")" = "$_ram" ] && return 0
    echo "  expected $_ram bytes on each rank" >&2
    grep '^fairshuf-mpi' "$T/m.err" | head -n 3 >&2
    return 1
}
if (ulimit -v unlimited && ulimit -d unlimited) 2>/dev/null; then
    check "--memory's default without limits: half the node's RAM / its 2 ranks" mem_ram
else
    skipped "--memory's default without limits: ulimit -v or -d cannot be lifted here"
fi
# Under ulimit -v 1000000: at most half of it (and half of what the rank
# has not mapped yet); then under that use plus 40 MiB, 1.2e6 lines (about
# 57 MiB in memory on one rank) go external, the same output.
mem_v() {
    limited 1 "-v 1000000" --seed=s1 a b c >"$T/m.out" 2>"$T/m.err" &&
        cmp -s "$T/m.out" ref.abc || { head -n 3 "$T/m.err" >&2; return 1; }
    _m=$(mem_of "$T/m.err" 0 "ulimit -v")
    [ -n "$_m" ] && [ "$_m" -gt 0 ] && [ "$_m" -le 512000000 ] ||
        { grep '^fairshuf-mpi' "$T/m.err" >&2; return 1; }
    _kib=$(((1024000000 - 2 * _m + 40 * 1048576) / 1024))
    limited 1 "-v $_kib" --seed=s1 big >"$T/m.out" 2>"$T/m.err" &&
        cmp -s "$T/m.out" ref.big && grep -q "rank 0: external rounds:" "$T/m.err" &&
        _m=$(mem_of "$T/m.err" 0 "ulimit -v") && [ -n "$_m" ] &&
        [ "$_m" -le $((40 * 1048576)) ] && return 0
    echo "  under ulimit -v $_kib:" >&2
    grep '^fairshuf-mpi' "$T/m.err" | head -n 3 >&2
    return 1
}
nosan "--memory's default under ulimit -v: half the room; 1.2e6 lines external, P=1" mem_v
# Under ulimit -d 50000 (a rank uses about 20 MiB of data): 1.2e6 lines go
# external, the same output.
mem_d() {
    limited 1 "-d 50000" --seed=s1 big >"$T/m.out" 2>"$T/m.err" &&
        cmp -s "$T/m.out" ref.big &&
        grep -q "rank 0: external rounds:" "$T/m.err" &&
        _m=$(mem_of "$T/m.err" 0 "ulimit -d") && [ -n "$_m" ] &&
        [ "$_m" -le 25600000 ] && return 0
    grep '^fairshuf-mpi' "$T/m.err" | head -n 3 >&2
    return 1
}
nosan "--memory's default under ulimit -d 50000: half the room; 1.2e6 lines external, P=1" mem_d

# Sentences of docs/fairshuf-mpi.1 the checks above did not hold to.
# "every file's last line counts as a line even without a final
# delimiter", at every split (P = 1..3), with -z too.
printf 'a\nb' >nf1 && printf 'c\nd\n' >nf2 && printf 'e' >nf3
printf 'a\nb\nc\nd\ne\n' >nf.cat
"$FAIRSHUF" --seed=s7 nf.cat >ref.nf
printf 'a\0b' >nz1 && printf 'c\0d\0' >nz2 && printf 'e' >nz3
printf 'a\0b\0c\0d\0e\0' >nz.cat
"$FAIRSHUF" --seed=s7 -z nz.cat >ref.nz
for p in $RANKS3; do
    check "files without a final newline: each last line a line, P=$p" \
        same $p ref.nf --seed=s7 nf1 nf2 nf3
done
check "files without a final NUL (-z): each last line a line, P=2" \
    same 2 ref.nz --seed=s7 -z nz1 nz2 nz3
# "in bytewise name order": B, a10, a9, b (not a locale's or a number's).
mkdir bo && echo b >bo/b && echo B >bo/B && echo a10 >bo/a10 && echo a9 >bo/a9
printf 'B\na10\na9\nb\n' >bo.cat
"$FAIRSHUF" --seed=s8 bo.cat >ref.bo
check "a directory's files in bytewise name order, P=2" same 2 ref.bo --seed=s8 bo
# --header: "the first file's, then the next's" (the header spans files);
# -n does not count the header lines (in memory; external mode above).
"$FAIRSHUF" --seed=s9 --header=1003 abc >ref.h3
check "--header spanning two files, P=3" same 3 ref.h3 --seed=s9 --header=1003 a b c
"$FAIRSHUF" --seed=s9 --header=2 abc | head -n 7 >ref.h2n5
check "--header=2 -n 5 (in memory): the header and 5 lines, P=2" \
    same 2 ref.h2n5 --seed=s9 --header=2 -n 5 a b c
# The same output for any --threads (as for any number of ranks).
check "--threads=1, P=2 = fairshuf --seed" same 2 ref.big --seed=s1 --threads=1 big
# -o: the temporary is given FILE's mode; a shard too.
o_mode() {
    echo old >om && chmod 640 om && echo old >omsh.1 && chmod 600 omsh.1 &&
        mpi 2 "$MPIBIN" --seed=s1 -o om a b c 2>"$T/m.err" &&
        cmp -s om ref.abc && [ "$(stat -c %a om)" = 640 ] &&
        mpi 2 "$MPIBIN" --seed=s1 --output-prefix=omsh. a b c 2>"$T/m.err" &&
        [ "$(stat -c %a omsh.1)" = 600 ] && cat omsh.0 omsh.1 | cmp -s - ref.abc &&
        no_temp
}
check "-o FILE and a shard keep their mode (640, 600), P=2" o_mode
# "Each shard starts with the header"; without their headers the shards
# in order are the output's body. Numbers are padded to the last's width.
hdr_shards() {
    rm -f hs.* && mpi 3 "$MPIBIN" --seed=s2 --header=2 --output-prefix=hs. a b c \
        2>"$T/m.err" || return 1
    for x in hs.0 hs.1 hs.2; do
        head -n 2 "$x" | cmp -s - ref.hdr.h || return 1
    done
    { cat ref.hdr.h && for x in hs.0 hs.1 hs.2; do tail -n +3 "$x"; done; } |
        cmp -s - ref.hdr
}
head -n 2 ref.hdr >ref.hdr.h
check "--header with shards: each shard starts with the header, P=3" hdr_shards
pad() {
    rm -f pd.* && mpi 11 "$MPIBIN" --seed=s5 --output-prefix=pd. c 2>"$T/m.err" &&
        [ "$(ls pd.* | head -n 2 | tr '\n' ' ')" = "pd.00 pd.01 " ] &&
        [ -f pd.10 ] && cat pd.* | cmp -s - ref.c
}
check "shard numbers padded to the last's width (pd.00 .. pd.10), P=11" pad
# FSH_MPI_REPORT: every rank reports; --memory's default unit is KiB
# (100000 = about 98 MiB: in memory here; as bytes it would go external).
report() {
    FSH_MPI_REPORT=1
    export FSH_MPI_REPORT
    mpi 2 -x FSH_MPI_REPORT "$MPIBIN" --seed=s1 --memory=100000 --threads=3 big \
        >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    unset FSH_MPI_REPORT
    cp "$T/m.err" "$T/report.err"
    [ "$_rc" = 0 ] && cmp -s "$T/m.out" ref.big &&
        grep -q "^fairshuf-mpi: rank 0: done: .* records in, .* sent (.* bytes), peak RSS .* KiB, .* s$" "$T/m.err" &&
        grep -q "^fairshuf-mpi: rank 1: done: " "$T/m.err" &&
        ! grep -q "external" "$T/m.err"
}
check "FSH_MPI_REPORT: each rank reports; --memory=100000 is KiB, P=2" report
# --threads' default: a rank's share of the CPUs it may run on, each CPU
# split evenly among the node's ranks that may run on it (at least 1, at
# most 16); it was all online CPUs on every rank, so ranks sharing a node
# ran more threads than it has. --threads wins (the run above). Seeded
# outputs are the same for any thread count (the checks against fairshuf
# --seed, with the default and with --threads=1 and 3).
thr_of() { sed -n "s/^fairshuf-mpi: rank $2: threads: \(.*\)\$/\1/p" "$1"; }
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
thr_explicit() {
    [ "$(thr_of "$T/report.err" 0)" = "3 (--threads)" ] &&
        [ "$(thr_of "$T/report.err" 1)" = "3 (--threads)" ]
}
check "--threads=3: each rank runs 3 (FSH_MPI_REPORT), P=2" thr_explicit
# Ranks mpirun leaves unbound: the usable CPUs over the ranks.
thr_unbound() {
    for _p in 1 2; do
        FSH_MPI_REPORT=1 tmo 120 $MPIRUN --bind-to none -x FSH_MPI_REPORT \
            -np $_p "$MPIBIN" --seed=s1 a b c </dev/null >"$T/m.out" 2>"$T/m.err" &&
            cmp -s "$T/m.out" ref.abc || return 1
        _w=$((ncpu / _p))
        [ $_w -lt 1 ] && _w=1
        [ $_w -gt 16 ] && _w=16
        _want="$_w (the default: its share of $ncpu usable CPUs, $_p ranks on the node)"
        _r=0
        while [ $_r -lt $_p ]; do
            [ "$(thr_of "$T/m.err" $_r)" = "$_want" ] ||
                { echo "  P=$_p rank $_r: $(thr_of "$T/m.err" $_r); want $_want" >&2; return 1; }
            _r=$((_r + 1))
        done
    done
}
check "--threads' default, unbound ranks: the node's CPUs / its ranks (P=1, 2)" thr_unbound
# Ranks on CPUs of their own (taskset; as mpirun's bindings): each its own
# K CPUs, K = half the usable ones, at most 8 (K / 2 each when every rank
# counted all the ranks on the node).
thr_pinned() {
    _k=$((ncpu / 2))
    [ $_k -gt 8 ] && _k=8
    _cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status |
        tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }' |
        head -n $((2 * _k)))
    _c0=$(echo "$_cpus" | head -n $_k | paste -sd, -)
    _c1=$(echo "$_cpus" | tail -n +$((_k + 1)) | paste -sd, -)
    FSH_MPI_REPORT=1 tmo 120 $MPIRUN --bind-to none -x FSH_MPI_REPORT \
        -np 1 taskset -c "$_c0" "$MPIBIN" --seed=s1 a b c : \
        -np 1 taskset -c "$_c1" "$MPIBIN" --seed=s1 a b c </dev/null \
        >"$T/m.out" 2>"$T/m.err" && cmp -s "$T/m.out" ref.abc &&
        _want="$_k (the default: its share of $((2 * _k)) usable CPUs, 2 ranks on the node)" &&
        [ "$(thr_of "$T/m.err" 0)" = "$_want" ] &&
        [ "$(thr_of "$T/m.err" 1)" = "$_want" ] && return 0
    echo "  CPUs $_c0 and $_c1: $(thr_of "$T/m.err" 0); want ${_want:-?}" >&2
    grep '^fairshuf-mpi' "$T/m.err" | head -n 3 >&2
    return 1
}
if [ "$ncpu" -ge 2 ] && command -v taskset >/dev/null 2>&1 && [ -r /proc/self/status ]; then
    check "--threads' default, ranks on CPUs of their own: those CPUs, P=2" thr_pinned
else
    skipped "--threads' default on pinned ranks: needs 2 CPUs, taskset and /proc"
fi
# From here to external mode's outputs: runs that fail (see leaks).
leaks off
# -T: external mode's temporaries go there (a missing one fails the job).
tdir() {
    mpi 2 "$MPIBIN" --seed=s1 --memory=1M -T "$PWD/no/such" big >"$T/m.out" 2>"$T/m.err"
    [ $? = 1 ] && [ ! -s "$T/m.out" ] &&
        grep -q "^fairshuf-mpi: rank [01]: $PWD/no/such: No such file" "$T/m.err"
}
check "external mode with a missing -T directory: exit 1, named" tdir

# Errors.
echo old >keep
missing() {
    mpi 2 "$MPIBIN" -o keep a nosuch >"$T/m.out" 2>"$T/m.err"
    [ $? = 1 ] && grep -q "^fairshuf-mpi: rank 0: nosuch: No such file" "$T/m.err" &&
        [ "$(cat keep)" = old ] && no_temp
}
check "missing input file: exit 1, message, old output kept" missing
# A dangling symlink in a directory operand (a shard whose target is
# gone) fails the job before any output, named as what it is (ls lists
# it, so "No such file or directory" would puzzle), instead of leaving the
# shard's lines out; a dangling FILE operand too.
mkdir dl
cp a dl/part-0 && ln -s nowhere/part-1 dl/part-1 && cp c dl/part-2
ln -s nowhere/x dlop
# dangling_in NAME TARGET ARGS...: the job on ARGS fails on NAME.
dangling_in() {
    _n=$1 _t=$2
    shift 2
    echo old >dkeep
    mpi 2 "$MPIBIN" --seed=s1 -o dkeep "$@" >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    [ "$_rc" -ne 0 ] && [ ! -s "$T/m.out" ] && [ "$(cat dkeep)" = old ] &&
        no_temp && grep -qx \
        "fairshuf-mpi: rank 0: $_n: dangling symbolic link (to $_t)" \
        "$T/m.err" && return 0
    echo "  rc=$_rc" >&2
    head -n 3 "$T/m.err" >&2
    return 1
}
check "a dangling symlink in a directory: exit 1, named, no output, -o kept" \
    dangling_in dl/part-1 nowhere/part-1 a dl
check "a dangling symlink as FILE: exit 1, named, -o kept" \
    dangling_in dlop nowhere/x a dlop
# Ranks that fail together: each message is one whole line (they were
# written in three pieces, which mpirun interleaved: "fairshuf-mpi: rank
# 0: fairshuf-mpi: rank 1: DIR: No such ..."), and no rank that merely
# exits with the others says "terminated by a signal" (mpirun's SIGTERM to
# the ranks still finalizing after the first exited 1). Two runs of four
# ranks, as the old failures depended on timing.
together() {
    for _k in 1 2; do
        mpi_sig1 4 "$MPIBIN" --seed=s1 --memory=1M -T "$PWD/no/such" big \
            >"$T/m.out" 2>"$T/m.err"
        _rc=$?
        grep '^fairshuf-mpi' "$T/m.err" >"$T/m.msg"
        [ "$_rc" = 1 ] && [ "$(wc -l <"$T/m.msg")" = 4 ] &&
            [ "$(grep -c "^fairshuf-mpi: rank [0-3]: $PWD/no/such: No such file or directory\$" "$T/m.msg")" = 4 ] ||
            { cat "$T/m.msg" >&2; return 1; }
        mpi_sig1 4 "$MPIBIN" nosuch >"$T/m.out" 2>"$T/m.err"
        _rc=$?
        [ "$_rc" = 1 ] && ! grep -q "terminated by a signal" "$T/m.err" ||
            { grep '^fairshuf-mpi' "$T/m.err" >&2; return 1; }
    done
}
check "ranks failing together: whole lines, no 'terminated by a signal', P=4" together
unwritable() {
    mpi 2 "$MPIBIN" -o no/such/dir/out a >"$T/m.out" 2>"$T/m.err"
    [ $? -ne 0 ] && grep -q "rank 0: no/such/dir/out: No such file" "$T/m.err"
}
check "unwritable output: exit 1 and a message" unwritable
mkdir notfile
notreg() {
    mpi 2 "$MPIBIN" -o notfile a >"$T/m.out" 2>"$T/m.err"
    [ $? -ne 0 ] && grep -q "rank 0: notfile: Is a directory" "$T/m.err" && [ -d notfile ]
}
check "output onto a directory refused" notreg
# Usage errors: getopt's GNU messages, once (rank 0), then the hint; exit
# 1. (A valid option missing its argument was "invalid option -- 'n'", an
# ambiguous or unknown long one "unrecognized or bad option '--hea'".)
usage_err() {
    _want=$1
    shift
    mpi 2 "$MPIBIN" "$@" >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    grep '^fairshuf-mpi\|^Try' "$T/m.err" >"$T/m.msg"
    printf '%s\nTry '"'"'fairshuf-mpi --help'"'"' for more information.\n' \
        "fairshuf-mpi: $_want" | cmp -s - "$T/m.msg" && [ "$_rc" = 1 ] &&
        [ ! -s "$T/m.out" ] && return 0
    echo "  rc=$_rc" >&2
    cat "$T/m.msg" >&2
    return 1
}
check "-n without its argument: GNU message, exit 1, P=2" \
    usage_err "option requires an argument -- 'n'" a -n
check "--threads without its argument: GNU message" \
    usage_err "option '--threads' requires an argument" a --threads
check "an ambiguous long option: GNU message" \
    usage_err "option '--hea' is ambiguous; possibilities: '--head-count' '--header'" --hea a
check "an unknown long option: GNU message" \
    usage_err "unrecognized option '--bogus'" --bogus a
check "an unknown short option: GNU message" usage_err "invalid option -- 'x'" -x a
check "--threads=17: refused, exit 1" usage_err "invalid thread count: '17' (1 to 16)" --threads=17 a
# Quoting as fairshuf quotes (cli/common/quote.c, which both link): a
# value 'x' in the C locale and in curly quotes in a UTF-8 one, a file
# name as the shell would read it, its printable multibyte characters
# kept only in a UTF-8 locale: fairshuf-mpi's message is fairshuf's for
# the same arguments, named "fairshuf-mpi" (and the rank). (It quoted
# values '...' in every locale and file names not at all.)
utf8loc=
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if [ "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8 ]; then
        utf8loc=$l
        break
    fi
done
# as_fairshuf LOC ARGS...: fairshuf-mpi's messages for ARGS (exit 1, each
# rank's "rank R: " dropped, lines once) are fairshuf's in locale LOC.
as_fairshuf() {
    _loc=$1
    shift
    LC_ALL=$_loc mpi 2 "$MPIBIN" "$@" >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    LC_ALL=$_loc "$FAIRSHUF" "$@" >/dev/null 2>"$T/f.err"
    grep '^fairshuf-mpi: ' "$T/m.err" | sed 's/^fairshuf-mpi: \(rank [0-9]*: \)\{0,1\}/fairshuf: /' |
        sort -u >"$T/m.msg"
    grep '^fairshuf: ' "$T/f.err" >"$T/f.msg"
    [ "$_rc" = 1 ] && [ -s "$T/f.msg" ] && cmp -s "$T/m.msg" "$T/f.msg" && return 0
    echo "  LC_ALL=$_loc rc=$_rc; fairshuf-mpi, then fairshuf:" >&2
    cat "$T/m.msg" "$T/f.msg" >&2
    return 1
}
for loc in C $utf8loc; do
    check "LC_ALL=$loc: --threads=17 quoted as by fairshuf" as_fairshuf "$loc" --threads=17 a
    check "LC_ALL=$loc: -n x quoted as by fairshuf" as_fairshuf "$loc" -n 'x’' a
    check "LC_ALL=$loc: --memory=é quoted as by fairshuf" as_fairshuf "$loc" --memory=é a
    check "LC_ALL=$loc: a missing file named with a space and é, quoted as by fairshuf" \
        as_fairshuf "$loc" 'no such é'
done
[ -n "$utf8loc" ] || skipped "fairshuf-mpi's quotes in a UTF-8 locale: none installed"
quotes_utf8() {
    LC_ALL=$utf8loc mpi 2 "$MPIBIN" --threads=17 a >"$T/m.out" 2>"$T/m.err"
    grep -qx "fairshuf-mpi: invalid thread count: ‘17’ (1 to 16)" "$T/m.err"
}
[ -z "$utf8loc" ] || check "LC_ALL=$utf8loc: --threads=17 in curly quotes" quotes_utf8
help_version() {
    mpi 2 "$MPIBIN" --help >"$T/m.out" 2>"$T/m.err" &&
        [ "$(grep -c '^Usage: mpirun' "$T/m.out")" = 1 ] &&
        mpi 2 "$MPIBIN" --version >"$T/m.out" 2>"$T/m.err" &&
        [ "$(cat "$T/m.out")" = "fairshuf-mpi (fairshuf) $("$FAIRSHUF" --version | head -n 1 | sed 's/.* //')" ]
}
check "--help and --version: once, on standard output, exit 0" help_version
mismatch() {
    tmo 120 $MPIRUN -np 1 "$MPIBIN" --seed=1 a : -np 1 "$MPIBIN" --seed=2 a \
        </dev/null >"$T/m.out" 2>"$T/m.err"
    [ $? -ne 0 ] && grep -q "different arguments" "$T/m.err" && [ ! -s "$T/m.out" ]
}
check "different arguments on two ranks: detected" mismatch
# Another FSH_MPI_TEST_CHUNK on one rank: its exchange and output messages
# would not match the others' receives (an MPI error on 1.2e6 lines, none
# on a few), so it is checked with the arguments: exit 1 before anything
# is written. (It was not: exit 0 here.)
mismatch_chunk() {
    echo old >mck
    tmo 120 $MPIRUN -np 1 env FSH_MPI_TEST_CHUNK=4096 "$MPIBIN" --seed=s1 -o mck a b c : \
        -np 2 "$MPIBIN" --seed=s1 -o mck a b c </dev/null >"$T/m.out" 2>"$T/m.err"
    _rc=$?
    [ "$_rc" = 1 ] && [ "$(cat mck)" = old ] && no_temp && grep -qx \
        "fairshuf-mpi: rank 0: the ranks were given different FSH_MPI_TEST_CHUNK values" \
        "$T/m.err" && [ "$(grep -c '^fairshuf-mpi' "$T/m.err")" = 1 ] && return 0
    echo "  rc=$_rc" >&2
    grep '^fairshuf-mpi' "$T/m.err" | head -n 3 >&2
    return 1
}
check "another FSH_MPI_TEST_CHUNK on one rank: detected with the arguments, exit 1" mismatch_chunk
# Ranks that see different files under one path (other working
# directories here, node-local disks on a cluster): every rank checks what
# it opens against rank 0's measure; the job fails on every rank with a
# message, writes nothing, and an old -o FILE survives.
# two_dirs ARGS...: rank 0 in wd1, rank 1 in wd2, output in $T/m.out.
mkdir wd1 wd2
two_dirs() {
    tmo 120 $MPIRUN -np 1 --wdir "$PWD/wd1" "$MPIBIN" "$@" : \
        -np 1 --wdir "$PWD/wd2" "$MPIBIN" "$@" </dev/null >"$T/m.out" 2>"$T/m.err"
}
diff_size() {
    seq 5 >wd1/in && seq 6 10 >wd2/in && echo old >keepw &&
        ! two_dirs --seed=1 -o "$PWD/keepw" in && [ ! -s "$T/m.out" ] &&
        grep -q "^fairshuf-mpi: rank 1: in: 11 bytes here, 10 on rank 0: the ranks do not see the same file" "$T/m.err" &&
        [ "$(cat keepw)" = old ] && no_temp && ! two_dirs --seed=1 in &&
        [ ! -s "$T/m.out" ]
}
check "different files at one path (sizes differ): exit 1, message, -o kept" diff_size
diff_content() {
    seq 5 >wd1/in && seq 5 | sort -r >wd2/in && ! two_dirs --seed=1 in &&
        [ ! -s "$T/m.out" ] &&
        grep -q "^fairshuf-mpi: rank 0: in: the ranks do not see the same file" "$T/m.err"
}
check "different files at one path (same size): detected" diff_content
diff_whole() {
    # Each file read whole by one rank; c differs and its mtime too.
    for x in a b c; do cp $x wd1/$x && cp $x wd2/$x; done &&
        sort -r c >wd2/c && touch -d 2001-01-01 wd2/c && ! two_dirs --seed=1 a b c &&
        [ ! -s "$T/m.out" ] &&
        grep -q "^fairshuf-mpi: rank 0: c: the ranks do not see the same file" "$T/m.err"
}
check "a file read by one rank only, different there: detected" diff_whole
staged() {
    # Copies of the same files, with other mtimes: accepted.
    for x in a b c; do cp $x wd1/$x && cp $x wd2/$x; done &&
        touch -d 2001-01-01 wd2/a wd2/c && two_dirs --seed=s1 a b c &&
        cmp -s "$T/m.out" ref.abc
}
check "identical copies at one path (other mtimes): the same output" staged

# An input that changes after the ranks measured and checked it but before
# they read it (FSH_MPI_TEST_PAUSE_AT=plan: every rank pauses there until
# the test has changed it and made pids/go):
# rewritten in place with the same size but other line boundaries, or
# replaced by a rename. Each rank compares what it reads with its first
# look (inode, size, mtime, ctime) and the job fails on every rank with
# a message, no output, the old -o FILE kept. (It read the new bytes at
# the old boundaries: a record without its delimiter crashed the rank
# with SIGSEGV, or a mix of both versions was written with exit 0.)
seq 1 60000 >chg.a
tr '\n5' '5\n' <chg.a >chg.b
tr '\n5' '5\n' <big >big.b
# paused3: wait (up to 30 s) until ranks 0, 1 and 2 have written their
# pids to pids/ (FSH_MPI_TEST_PIDS): all three stand at the test pause.
paused3() {
    _i=0
    while { [ ! -s pids/0 ] || [ ! -s pids/1 ] || [ ! -s pids/2 ]; } &&
        [ $_i -lt 300 ]; do
        sleep 0.1
        _i=$((_i + 1))
    done
}
# changed SRC NEW HOW ARGS...: the job on ARGS chg (chg = SRC at first)
# while chg becomes NEW (HOW: inplace or rename) during the pause.
changed() {
    _src=$1 _new=$2 _how=$3
    shift 3
    rm -rf pids && mkdir pids && cp "$_src" chg && echo old >ckeep
    (
        FSH_MPI_TEST_PIDS=$PWD/pids FSH_MPI_TEST_PAUSE_AT=plan \
            tmo 60 $MPIRUN -x FSH_MPI_TEST_PIDS -x FSH_MPI_TEST_PAUSE_AT \
            -np 3 "$MPIBIN" --seed=c -o ckeep "$@" chg </dev/null \
            >"$T/c.out" 2>"$T/c.err"
        echo $? >"$T/c.rc"
    ) &
    paused3
    if [ "$_how" = inplace ]; then
        cat "$_new" >chg
    else
        cp "$_new" chg.new && mv chg.new chg
    fi
    : >pids/go
    wait
    _rc=$(cat "$T/c.rc")
    [ "$_rc" = 1 ] && [ ! -s "$T/c.out" ] && [ "$(cat ckeep)" = old ] &&
        no_temp && grep -q "^fairshuf-mpi: rank [0-2]: chg: file changed as we read it" \
        "$T/c.err" && return 0
    echo "  rc=$_rc" >&2
    grep -v '^[-[ ]\|^$' "$T/c.err" | head -n 4 >&2
    return 1
}
check "an input rewritten in place between the ranks' looks: exit 1, message, -o kept" \
    changed chg.a chg.b inplace
check "an input replaced by a rename between the ranks' looks: exit 1, message" \
    changed chg.a chg.b rename
check "an input rewritten in place, external mode: exit 1, message, -o kept" \
    changed big big.b inplace --memory=1M

memory() {
    mpi 2 "$MPIBIN" --seed=s1 --memory=1K a >"$T/m.out" 2>"$T/m.err"
    [ $? -ne 0 ] && grep -q "external mode needs more than" "$T/m.err"
}
check "--memory too small for a small input: a clear error" memory

# External mode (a rank's share beyond --memory): the same bytes.
leaks on
for p in $RANKS3; do
    check "external mode (--memory=2M) = fairshuf --seed, P=$p" \
        same $p ref.big --seed=s1 --memory=2M big
done
"$FAIRSHUF" --seed=s1 --header=3 big | head -n 500003 >ref.bighn
check "external mode with --header and -n, P=3" \
    same 3 ref.bighn --seed=s1 --memory=1M --header=3 -n 500000 big
tr '\n' '\0' <big >bigz
"$FAIRSHUF" --seed=s6 -z bigz >ref.bigz
check "external mode with -z, P=4" same 4 ref.bigz --seed=s6 -z --memory=3M bigz
# "with --memory a rank's footprint is bounded whatever N is"
# (docs/PERFORMANCE.md): rank 0's peak RSS (FSH_MPI_REPORT) with
# --memory=2M on 3.6e6 lines stays within 6 MiB of its peak on 1.2e6. The
# line count that decides on external mode read 16 MiB chunks with 8
# bytes per line whatever --memory said: 20 MB against 42 MB on 4e6 lines.
peak_of() {
    FSH_MPI_REPORT=1
    export FSH_MPI_REPORT
    mpi 2 -x FSH_MPI_REPORT "$MPIBIN" --seed=s1 --memory=2M -o /dev/null "$1" \
        2>"$T/p.err"
    _rc=$?
    unset FSH_MPI_REPORT
    [ "$_rc" = 0 ] || return 1
    sed -n 's/^fairshuf-mpi: rank 0: done: .* peak RSS \([0-9]*\) KiB.*/\1/p' "$T/p.err"
}
bounded() {
    cat big big big >big3
    _a=$(peak_of big) && _b=$(peak_of big3) && [ -n "$_a" ] && [ -n "$_b" ] &&
        [ "$_b" -le $((_a + 6144)) ] && return 0
    echo "  peak RSS: ${_a:-?} KiB (1.2e6 lines), ${_b:-?} KiB (3.6e6 lines)" >&2
    return 1
}
nosan "external mode: peak RSS bounded by --memory, not the input (P=2)" bounded
ext_shards() {
    mpi 2 "$MPIBIN" --seed=s1 --memory=1M --output-prefix=xs. big 2>"$T/m.err" &&
        cat xs.0 xs.1 | cmp -s - ref.big && no_temp
}
check "external mode into shards, P=2" ext_shards
# From here on: ranks killed or signalled (see leaks).
leaks off

# kill_rank WHERE [link|file [SIG RANK]]: SIGKILL rank 1 (or send SIG to
# RANK, a rank number or mpirun) while it pauses (after reading, or with
# the output temporary open); mpirun must end non-zero within the
# timeout, the ranks say why,
# the old output survives, no temporary is left. link: -o is a symlink to
# vt (written through, via rank 0's spool), which keeps its old contents.
# The input's size does not matter here (every rank waits at the pause
# until mpirun stops it): abc, not big.
kill_rank() {
    rm -rf pids vt victim && mkdir pids
    if [ "${2:-}" = link ]; then
        echo old >vt && ln -s vt victim
    else
        echo old >victim
    fi
    (
        FSH_MPI_TEST_PIDS=$PWD/pids FSH_MPI_TEST_PAUSE_AT=$1 \
            tmo 60 $MPIRUN $SIG3 -x FSH_MPI_TEST_PIDS -x FSH_MPI_TEST_PAUSE_AT \
            -np 3 "$MPIBIN" --seed=k -o victim abc </dev/null >"$T/k.out" 2>"$T/k.err"
        echo $? >"$T/k.rc"
    ) &
    _i=0
    _sig=${3:-KILL} _r=${4:-1}
    # RANK mpirun: mpirun itself (the ranks' parent), as Ctrl-C at a
    # terminal sends it SIGINT.
    _f=$_r
    [ "$_r" = mpirun ] && _f=0
    while [ ! -s pids/$_f ] && [ $_i -lt 300 ]; do
        sleep 0.1
        _i=$((_i + 1))
    done
    _pid=
    [ -s pids/$_f ] && _pid=$(cat pids/$_f)
    [ "$_r" = mpirun ] && [ -n "$_pid" ] &&
        _pid=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$_pid/status")
    [ -n "$_pid" ] && kill -s "$_sig" "$_pid"
    wait
    _rc=$(cat "$T/k.rc")
    if [ "$_rc" != 0 ] && [ "$_rc" != 124 ] &&
        grep -q "fairshuf-mpi: rank [0-2]: terminated" "$T/k.err" &&
        [ "$(cat victim)" = old ] && no_temp &&
        { [ "${2:-}" != link ] || [ -L victim ]; }; then
        return 0
    fi
    echo "  kill at $1: rc=$_rc, victim: $(head -c 16 victim | tr '\n' ' '), left: $(ls -a | grep fairshuf | tr '\n' ' ')" >&2
    tail -n 8 "$T/k.err" >&2
    # A temporary left here fails this check, not every later no_temp.
    rm -f .fairshuf-tmp-*
    return 1
}
check "a rank killed after reading: others exit non-zero" kill_rank read
check "a rank killed while writing: no output, no temporary" kill_rank write
check "a rank killed while writing through a symlink: the target kept" \
    kill_rank write link
# SIGTERM and SIGINT of one rank (rank 0 holds the temporary): caught,
# the temporary removed, the old file kept, a non-zero exit.
check "SIGTERM to rank 2 while writing: no output, no temporary" \
    kill_rank write file TERM 2
check "SIGINT to rank 0 while writing: no output, no temporary" \
    kill_rank write file INT 0
check "SIGINT to mpirun while writing: no output, no temporary" \
    kill_rank write file INT mpirun

# -o FILE's temporary replaced between rank 0 making it and the other ranks
# opening it by name (FSH_MPI_TEST_PAUSE_AT=temp; a directory others can
# write to): by a symlink to another file, or by another file. The others
# open it without following a symlink and check that it is rank 0's (inode,
# and device on rank 0's node): exit 1, a message, nothing written to -o or
# through the link. (They wrote their parts through the link or into the
# other file, which was then renamed over FILE: exit 0.)
swapped() {
    rm -rf pids swo swt && mkdir pids && echo old >swo && echo theirs >swt
    (
        FSH_MPI_TEST_PIDS=$PWD/pids FSH_MPI_TEST_PAUSE_AT=temp \
            tmo 60 $MPIRUN -x FSH_MPI_TEST_PIDS -x FSH_MPI_TEST_PAUSE_AT \
            -np 3 "$MPIBIN" --seed=s1 -o swo a b c </dev/null >"$T/s.out" \
            2>"$T/s.err"
        echo $? >"$T/s.rc"
    ) &
    paused3
    _tmp=$(ls -a | grep '^\.fairshuf-tmp-')
    if [ -n "$_tmp" ]; then
        rm -f "$_tmp"
        if [ "$1" = link ]; then ln -s swt "$_tmp"; else echo theirs >"$_tmp"; fi
    fi
    : >pids/go
    wait
    _rc=$(cat "$T/s.rc")
    [ -n "$_tmp" ] && [ "$_rc" = 1 ] && [ ! -s "$T/s.out" ] &&
        [ "$(cat swo)" = old ] && [ ! -L swo ] && [ "$(cat swt)" = theirs ] &&
        no_temp && grep -q "^fairshuf-mpi: rank [12]: swo: .*fairshuf-tmp-.* is not rank 0's temporary: $2" \
        "$T/s.err" && return 0
    echo "  rc=$_rc, temporary: '$_tmp', swo: $(head -c 16 swo | tr '\n' ' ')" >&2
    grep '^fairshuf-mpi' "$T/s.err" | head -n 4 >&2
    rm -f .fairshuf-tmp-*
    return 1
}
check "-o's temporary replaced by a symlink before the others open it: exit 1, nothing written" \
    swapped link "a symbolic link"
check "-o's temporary replaced by another file before the others open it: exit 1, nothing written" \
    swapped file "another file"
finish
