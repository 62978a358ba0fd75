#!/bin/sh
# SPDX-License-Identifier: MIT
# -o FILE keeps the man page's promises: the old file survives an error or
# a signal (also when it must be written in place), its identity (inode,
# owner, group, mode, ACL, extended attributes, hard links, a symlink as the
# -o path) is kept as GNU shuf's in-place write keeps it, errors are GNU's,
# and no temporary file is ever left behind. The two-user cases run as uid
# 65534 with root as the other user (skipped unless run as root).
NAME=test_output
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF

# ident FILE: inode, owner, group, mode and link count.
ident() { stat -c '%i %u:%g %a %h' "$1"; }
# notmp DIR: no temporary of ours in DIR.
notmp() { [ -z "$(ls -A "$1" | grep fairshuf-tmp)" ]; }
# only DIR NAMES...: DIR holds exactly NAMES.
only() {
    _dir=$1
    shift
    [ "$(ls -A "$_dir" | tr '\n' ' ')" = "$(for _n; do printf '%s ' "$_n"; done)" ]
}
seq 20 >in20
printf '%s\n' a b c >abc

# --- As the caller, no second user needed -------------------------------

# The man page: FILE is created (or emptied) even with nothing to output;
# the mode is kept; FILE may be the input; devices are written in place.
printf 'old\n' >e
"$F" -n 0 -o e in20
check "-n 0 empties FILE" test ! -s e
"$F" -n 0 -o created in20
check "-n 0 creates FILE" test -f created -a ! -s created
seq 20 >self
chmod 604 self
"$F" -o self self
check "-o FILE FILE: a permutation" is_perm_of in20 self
check "-o keeps the mode" test "$(stat -c %a self)" = 604
same_errors -o /dev/full -e a b
check "-o /dev/full: GNU's write error" test "$(cat "$T/m.err")" = "shuf: write error: No space left on device" -a "$(cat "$T/m.rc")" = 1
check "-o /dev/full, large output: GNU's errors" same_errors -o /dev/full -i 1-100000
check "-o missing/dir: GNU's error" same_errors -o nodir/f -e a
# -o '' fails when GNU's open would, before any draw: not at the end, after
# a temporary in the current directory took the output (with -r and no -n,
# forever).
check "-o '': GNU's error first" same_errors -o '' --random-source=/dev/null -r -n 5 -e a b
mkdir adir
check "-o DIR: GNU's error" same_errors -o adir -e a
# -o naming standard input (/dev/stdin, /dev/fd/0, /proc/self/fd/0): GNU
# has closed its input when it opens FILE, and gnulib's freopen_safer puts
# /dev/null on a closed descriptor 0 meanwhile. So after reading standard
# input (or a FILE operand, reopened there) the output goes to /dev/null,
# exit 0, and the file on standard input is untouched; so too with
# standard input closed; with -e, -i or -n 0 (nothing read) it is standard
# input's file. fairshuf said "/dev/stdin: No such file or directory"
# (exit 1), or with a full shuffle wrote over standard input's file.
# stdin_out WHO ARGS...: run with standard input a copy of in20 (si.WHO).
stdin_out() {
    _w=$1
    shift
    seq 20 >"si.$_w"
    IN=si.$_w run "$_w" "$T/$_w" "$@"
}
same_stdin_out() {
    [ "$have_gnu" = 1 ] || return 0
    stdin_out gnu "$@"
    stdin_out mine "$@"
    cmp -s si.gnu si.mine && cmp -s "$T/gnu.rc" "$T/mine.rc" &&
        cmp -s "$T/gnu.err" "$T/mine.err" && cmp -s "$T/gnu.out" "$T/mine.out" &&
        return 0
    echo "  args: $*: gnu rc=$(cat "$T/gnu.rc") $(cat "$T/gnu.err") file $(wc -l <si.gnu); mine rc=$(cat "$T/mine.rc") $(cat "$T/mine.err") file $(wc -l <si.mine)" >&2
    return 1
}
for _a in "-o /dev/stdin" "-o /dev/fd/0 -n 2" "-o /proc/self/fd/0 -r -n 3" \
    "-o /dev/stdin in20" "-o /dev/stdin -n 2 in20" "-o /dev/stdin -i 1-3" \
    "-o /dev/stdin -e a b" "-o /dev/stdin -n 0"; do
    # shellcheck disable=SC2086
    check "$_a: as GNU (the file on standard input, status, messages)" \
        same_stdin_out --random-source=/dev/zero $_a
done
closed_same() { IN=closed same_all "$@"; }
for _a in "-o /dev/stdin -i 1-3" "-o /dev/stdin in20" "-o /dev/fd/0 -n 0"; do
    # shellcheck disable=SC2086
    check "$_a, standard input closed: as GNU" \
        closed_same --random-source=/dev/zero $_a
done
# In memory or external, with standard input the input: the output goes
# to /dev/null and the input is read whole (fairshuf only: --memory).
seq 2000 >si.ext
cp si.ext si.ext0
IN=si.ext run mine "$T/ext" --seed=1 --memory=1b -T . -o /dev/stdin
check "-o /dev/stdin in external mode: exit 0, the input untouched" \
    sh -c '[ "$(cat "$1/ext.rc")" = 0 ] && [ ! -s "$1/ext.err" ] && cmp -s si.ext si.ext0' sh "$T"
# Files of the kernel's pseudo file systems are written in place, with
# write(2), as GNU does (a temporary cannot be made there, and pwrite(2)
# failed with "Illegal seek"): the process's own name, and a read-only one.
if [ -w /proc/self/comm ]; then
    run mine "$T/m" -o /proc/self/comm -e fsh-comm
    check "-o /proc/self/comm: written" test "$(cat "$T/m.rc")" = 0 -a ! -s "$T/m.err"
    check "-o /proc/self/comm: GNU's result" same_errors -o /proc/self/comm -e a b
fi
check "-o /proc/version: GNU's error" same_errors -o /proc/version -e a

# An error after FILE was opened (the random source ends) leaves it as it
# was, and no temporary.
printf 'old\n' >keep
head -c 5 /dev/zero >short
run mine r -r -n 100000 --random-source=short -o keep -e a b c
check "error: exit 1" test "$(cat r.rc)" = 1
check "error: old content survives" test "$(cat keep)" = old
check "error: no temporary" notmp .

# A signal while the output is produced: old content, no temporary. The
# output waits on a random source FIFO that was fed a little.
mkfifo rs
# slow_run SIG [ENV-PREFIX...] -- ARGS...: start fairshuf with -r -n 100000
# --random-source=rs ARGS and send SIG once it is writing; sets $sig_rc.
slow_run() {
    _sig=$1
    shift
    _pre=
    while [ "$1" != -- ]; do
        _pre="$_pre $1"
        shift
    done
    shift
    (head -c 64 /dev/urandom; exec sleep 10) >rs &
    _feed=$!
    # shellcheck disable=SC2086
    # Every signal sent below at its default action, whatever the runner
    # ignores (a background job ignores INT and QUIT; a run under nohup,
    # HUP too), so fairshuf installs its handler for each.
    env --default-signal=HUP,INT,QUIT,TERM,USR1,USR2,ALRM $_pre "$F" -r -n 100000 --random-source=rs "$@" 2>/dev/null &
    _pid=$!
    sleep 0.3
    kill -"$_sig" "$_pid"
    # (the shell's "Terminated" goes to the braces' stderr)
    { wait "$_pid"; sig_rc=$?; } 2>/dev/null
    kill "$_feed" 2>/dev/null
    wait "$_feed" 2>/dev/null
}
mkdir sd
printf 'old\n' >sd/f
ulimit -c 0 2>/dev/null # SIGQUIT must not leave a core file
for sig in TERM INT HUP QUIT USR1 USR2 ALRM; do
    slow_run "$sig" -- -o sd/f -e a b c
    check "SIG$sig while writing: killed" test "$sig_rc" -gt 128
    check "SIG$sig while writing: old content survives" test "$(cat sd/f)" = old
    check "SIG$sig while writing: no temporary" only sd f
done

# Failing with a limit on file size (SIGXFSZ) also leaves FILE as it was.
printf 'old\n' >sd/f
# (a shell that waits for it, so its "File size limit exceeded" is hidden)
fsize() { sh -c 'ulimit -f 4 && "$@"; exit 0' sh "$@" 2>/dev/null; }
fsize "$F" -o sd/f -i 1-100000
check "file size limit: old content survives" test "$(cat sd/f)" = old
check "file size limit: no temporary" only sd f

# A read-only file is refused as by GNU (only root may replace it).
if [ "$(id -u)" != 0 ]; then
    printf 'old\n' >ro
    chmod 444 ro
    check "read-only FILE: GNU's error" same_errors -o ro -e a
    check "read-only FILE: untouched" test "$(cat ro)" = old
fi

# A symlink as the -o path stays a link; its target gets the output.
mkdir tdir
printf 'old\n' >tdir/target
ln -s tdir/target link
i0=$(ident tdir/target)
"$F" -o link abc
check "symlink: still a link" test -L link -a "$(readlink link)" = tdir/target
check "symlink: target updated in place" test "$(ident tdir/target)" = "$i0"
check "symlink: target content" is_perm_of abc tdir/target
ln -s dangling.out dl
"$F" -o dl abc
check "dangling symlink: target created, link kept" test -L dl -a -f dangling.out
check "dangling symlink: content" is_perm_of abc dangling.out
# ... and survives a signal.
slow_run TERM -- -o link -e a b c
check "symlink, SIGTERM: target keeps the old content" is_perm_of abc tdir/target

# Hard links: every name sees the new content, the link count is kept, and
# a signal leaves the old content.
printf 'old\n' >h1
ln h1 h2
i0=$(ident h1)
"$F" -o h1 abc
check "hard link: other name sees the output" is_perm_of abc h2
check "hard link: identity kept" test "$(ident h1)" = "$i0"
cp h1 h1.before
slow_run TERM -- -o h1 -e a b c
check "hard link, SIGTERM: old content survives" cmp -s h1.before h2

# Set-id files are written in place: the kernel decides about the bits,
# as for GNU's write (root keeps them).
printf 'old\n' >suid
chmod 4755 suid
i0=$(ident suid)
"$F" -o suid abc
check "set-user-ID file: written in place" test "$(ident suid)" = "$i0"
check "set-user-ID file: content" is_perm_of abc suid

# A regular file under /dev is written in place, never renamed over.
if [ -d /dev/shm ] && [ -w /dev/shm ] && dv=$(mktemp /dev/shm/fsh-out.XXXXXX); then
    printf 'old\n' >"$dv"
    i0=$(ident "$dv")
    "$F" -o "$dv" abc
    check "regular file under /dev: in place" test "$(ident "$dv")" = "$i0"
    check "regular file under /dev: content" is_perm_of abc "$dv"
    check "regular file under /dev: no temporary" notmp /dev/shm
    rm -f "$dv"
else
    skipped "regular file under /dev (no writable /dev/shm)"
fi

# A file's own extended attributes are kept (set with python3's os.setxattr
# where the file system takes user attributes).
if command -v python3 >/dev/null 2>&1 && printf 'old\n' >xa &&
    python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.fsh", b"v1")' xa 2>/dev/null; then
    "$F" -o xa abc
    check "xattr kept" test "$(python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.fsh").decode())' xa 2>/dev/null)" = v1
    check "xattr: content" is_perm_of abc xa
else
    skipped "user extended attributes (no python3 or no fs support)"
fi

# The spool holds the whole output: in memory, it would come on top of an
# explicit --memory, so with one it is the -T directory's or nothing
# (docs/fairshuf.1, -o). The copy a hard-linked FILE needs, no usable -T:
# memory without --memory; with it, "cannot create temporary file in",
# FILE as it was. (It went to memory whatever the cap.)
printf 'old\n' >hm1
ln hm1 hm2
"$F" -T "$PWD/nodir" -o hm1 abc 2>hm.err
check "copy spool, no -T directory, no --memory: memory, content" is_perm_of abc hm2
printf 'old\n' >hm1
"$F" --memory=1M -T "$PWD/nodir" -o hm1 abc 2>hm.err
hm_rc=$?
check "copy spool, no -T directory, --memory: exit 1, GNU-style message ($(cat hm.err))" sh -c \
    "[ $hm_rc = 1 ] && [ \"\$(cat hm.err)\" = \"fairshuf: cannot create temporary file in $PWD/nodir: No such file or directory\" ]"
check "copy spool, no -T directory, --memory: FILE as it was" test "$(cat hm2)" = old
check "copy spool, no -T directory, --memory: no temporary" notmp .
mkdir hmsp
"$F" --memory=1M -T "$PWD/hmsp" -o hm1 abc
check "copy spool, --memory and a -T directory: content" is_perm_of abc hm2
check "copy spool, --memory and a -T directory: left empty" only hmsp
# The temporary beside FILE fills its file system, which FILE's own space
# (110 KiB of 256) makes room enough for (136 KiB of output, as for GNU
# shuf, which empties FILE first); no -T directory: the spool is memory
# without --memory, and with it the write error stands, FILE as it was,
# no temporary left. In a mount namespace of its own, a small tmpfs: root
# only. fullfs.sh prints "ok NAME" or "not ok NAME" a check.
cat >fullfs.sh <<'EOF'
F=$1 fs=$2
mount -t tmpfs -o size=256k tmpfs "$fs" || exit 1
seq 25000 >ref
old() { head -c 112640 /dev/zero | tr '\0' x >"$fs/f"; cp "$fs/f" old.f; }
old
head -c 112640 /dev/zero >"$fs/fill"
res() { if eval "$2"; then echo "ok $1"; else echo "not ok $1"; fi; }
"$F" -T "$PWD/nodir" -o "$fs/f" -i 1-25000 2>a.err
rc=$?
res "full fs, no --memory: exit 0, the output in FILE ($(cat a.err))" \
    '[ $rc = 0 ] && sort -n "$fs/f" | cmp -s - ref'
res "full fs, no --memory: no temporary" '[ "$(ls -A "$fs" | tr "\n" " ")" = "f fill " ]'
old
"$F" --memory=64M -T "$PWD/nodir" -o "$fs/f" -i 1-25000 2>b.err
rc=$?
# (then GNU's bare "write error" of a failure mid-stream, as shuf's close)
res "full fs, --memory: exit 1, the write error ($(head -n 1 b.err))" \
    '[ $rc = 1 ] && [ "$(head -n 1 b.err)" = "fairshuf: write error: No space left on device" ] &&
     ! grep -qv "^fairshuf: write error" b.err'
res "full fs, --memory: FILE as it was" 'cmp -s "$fs/f" old.f'
res "full fs, --memory: no temporary" '[ "$(ls -A "$fs" | tr "\n" " ")" = "f fill " ]'
mkdir -p fsp
"$F" --memory=64M -T "$PWD/fsp" -o "$fs/f" -i 1-25000 2>c.err
rc=$?
res "full fs, --memory and a -T directory elsewhere: exit 0, the output ($(cat c.err))" \
    '[ $rc = 0 ] && sort -n "$fs/f" | cmp -s - ref'
res "full fs, --memory and a -T directory: no temporary" \
    '[ "$(ls -A "$fs" | tr "\n" " ")" = "f fill " ] && [ -z "$(ls -A fsp)" ]'
umount "$fs"
# Output larger than the writer's 1 MiB buffer: the temporary fills after
# a whole buffer went out, so the bytes already written (counted by the
# writer) must move to the spool before the rest follows.
mount -t tmpfs -o size=4m tmpfs "$fs" || exit 1
seq 400000 >ref
head -c 2000000 /dev/zero | tr '\0' x >"$fs/f"
head -c 600000 /dev/zero >"$fs/fill"
"$F" -T "$PWD/nodir" -o "$fs/f" -i 1-400000 2>d.err
rc=$?
res "full fs after the first buffers: exit 0, the whole output in FILE ($(cat d.err))" \
    '[ $rc = 0 ] && sort -n "$fs/f" | cmp -s - ref'
res "full fs after the first buffers: no temporary" '[ "$(ls -A "$fs" | tr "\n" " ")" = "f fill " ]'
umount "$fs"
EOF
mkdir fullfs
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1"' sh "$PWD/fullfs" 2>/dev/null; then
    unshare -m sh fullfs.sh "$F" "$PWD/fullfs" >fullfs.out 2>&1
    check "full file system: the script ran ($(tail -n 3 fullfs.out))" \
        test "$(grep -c '^ok \|^not ok ' fullfs.out)" = 9
    while IFS= read -r line; do
        case $line in
        "ok "*) ok ;;
        "not ok "*) bad "${line#not ok }" ;;
        esac
    done <fullfs.out
else
    skipped "-o FILE on a full file system (needs root, unshare -m and a tmpfs mount)"
fi

# --- Two users: the caller is uid 65534, root the other -----------------

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
    skipped "two-user cases (need root and setpriv)"
    finish
    exit $?
fi
U=65534
chmod 755 "$T" "$T/w"
asu() { setpriv --reuid=$U --regid=$U --clear-groups "$@"; }
umine() { $TO setpriv --reuid=$U --regid=$U --clear-groups env PATH="$T/mine:$PATH" shuf "$@"; }
ugnu() { $TO setpriv --reuid=$U --regid=$U --clear-groups env PATH="$T/gnu:$PATH" shuf "$@"; }
# oldfile PATH MODE [OWNER]: PATH holds "old", owned by OWNER (root).
oldfile() {
    printf 'old\n' >"$1"
    chown "${3:-0:0}" "$1"
    chmod "$2" "$1"
}

# Sticky, world-writable directory (like /tmp), a root file of mode 666:
# GNU shuf writes it in place; so must fairshuf, keeping its identity.
mkdir st
chmod 1777 st
oldfile st/f 666
i0=$(ident st/f)
run umine m -o st/f abc
check "sticky dir, other's file: exit 0, no message" test "$(cat m.rc)" = 0 -a ! -s m.err
check "sticky dir, other's file: identity kept" test "$(ident st/f)" = "$i0"
check "sticky dir, other's file: content" is_perm_of abc st/f
if [ "$have_gnu" = 1 ]; then
    oldfile st/f 666
    run ugnu g -o st/f abc
    check "sticky dir: GNU succeeds too" test "$(cat g.rc)" = 0 -a "$(ident st/f)" = "$i0"
fi
check "sticky dir: no temporary" only st f

# Non-sticky writable directory: owner, group, mode and inode are kept.
mkdir ns
chmod 777 ns
oldfile ns/f 646
i0=$(ident ns/f)
run umine m -o ns/f abc
check "writable dir, other's file: exit 0" test "$(cat m.rc)" = 0
check "writable dir, other's file: identity kept" test "$(ident ns/f)" = "$i0"
check "writable dir, other's file: content" is_perm_of abc ns/f
check "writable dir: no temporary" only ns f

# The caller's own file in the same directory goes through a temporary and
# rename; its mode (an odd one) is kept.
oldfile ns/mine 604 $U:$U
run umine m -o ns/mine abc
check "own file: exit 0, mode and owner kept" test "$(cat m.rc)" = 0 -a "$(stat -c '%u:%g %a' ns/mine)" = "$U:$U 604"
check "own file: content" is_perm_of abc ns/mine
rm ns/mine

# The caller's own set-user-ID file: the bit goes as with GNU's write.
if [ "$have_gnu" = 1 ]; then
    oldfile ns/su 4766 $U:$U
    run ugnu g -o ns/su abc
    gm=$(stat -c %a ns/su)
    oldfile ns/su 4766 $U:$U
    i0=$(ident ns/su)
    run umine m -o ns/su abc
    check "own set-user-ID file: mode as GNU's" test "$(stat -c %a ns/su)" = "$gm"
    check "own set-user-ID file: inode kept" test "$(stat -c %i ns/su)" = "${i0%% *}"
    rm ns/su
fi

# Root writing a file of uid 65534: the owner is kept.
oldfile ns/theirs 640 $U:$U
"$F" -o ns/theirs abc
check "root, other's file: owner and mode kept" test "$(stat -c '%u:%g %a' ns/theirs)" = "$U:$U 640"
rm ns/theirs

# Hard links to another user's file.
oldfile ns/h1 666
ln ns/h1 ns/h2
i0=$(ident ns/h1)
run umine m -o ns/h1 abc
check "hard link, other's file: exit 0, identity kept" test "$(cat m.rc)" = 0 -a "$(ident ns/h1)" = "$i0"
check "hard link, other's file: both names see it" is_perm_of abc ns/h2
rm ns/h1 ns/h2

# A symlink the caller owns, in the caller's directory, to root's file.
mkdir ul
chown $U:$U ul
oldfile ns/t 666
ln -s ../ns/t ul/l
chown -h $U:$U ul/l
i0=$(ident ns/t)
run umine m -o ul/l abc
check "symlink to other's file: exit 0, still a link" test "$(cat m.rc)" = 0 -a -L ul/l
check "symlink to other's file: target identity kept" test "$(ident ns/t)" = "$i0"
check "symlink to other's file: content" is_perm_of abc ns/t
rm -r ul ns/t

# ACLs: root's file the caller may write only through an ACL entry, and
# the caller's own file with an ACL (which a rename must carry over).
if setfacl -m u:$U:rw ns 2>/dev/null; then
    setfacl -b ns
    oldfile ns/acl 640
    setfacl -m u:$U:rw ns/acl
    a0=$(getfacl -c ns/acl 2>/dev/null)
    i0=$(ident ns/acl)
    run umine m -o ns/acl abc
    check "ACL grants the write: exit 0" test "$(cat m.rc)" = 0
    check "ACL grants the write: ACL and identity kept" test "$(getfacl -c ns/acl 2>/dev/null)" = "$a0" -a "$(ident ns/acl)" = "$i0"
    oldfile ns/acl2 640 $U:$U
    setfacl -m u:1234:r,g:1234:rw ns/acl2
    a0=$(getfacl -c ns/acl2 2>/dev/null)
    run umine m -o ns/acl2 abc
    check "own file with an ACL: kept" test "$(cat m.rc)" = 0 -a "$(getfacl -c ns/acl2 2>/dev/null)" = "$a0"
    check "own file with an ACL: content" is_perm_of abc ns/acl2
    rm ns/acl ns/acl2
    # A new file in a directory with a default ACL gets what GNU's gets.
    if [ "$have_gnu" = 1 ]; then
        mkdir da
        setfacl -d -m u:1234:rwx,m::rwx da
        gnu -o da/g -e a
        "$F" -o da/m -e a
        check "new file, default ACL: as GNU's" test "$(getfacl -c da/g | sed 1,2d)" = "$(getfacl -c da/m | sed 1,2d)" -a "$(stat -c %a da/g)" = "$(stat -c %a da/m)"
    fi
else
    skipped "ACLs (setfacl fails here)"
fi

# Directory the caller cannot write, root's file of mode 666: written in
# place, yet correct, and the old content survives errors and signals. The
# spool lives in TMPDIR and is never left there.
mkdir ro
oldfile ro/f 666
mkdir sp
chmod 777 sp
i0=$(ident ro/f)
run umine m --seed=k -o ro/f in20
"$F" --seed=k in20 >exp
check "read-only dir: exit 0" test "$(cat m.rc)" = 0
check "read-only dir: the same output as to stdout" cmp -s exp ro/f
check "read-only dir: identity kept" test "$(ident ro/f)" = "$i0"
oldfile ro/f 666
cp ro/f ro.before
for sig in TERM INT; do
    slow_run "$sig" setpriv --reuid=$U --regid=$U --clear-groups env TMPDIR="$T/w/sp" -- -o ro/f -e a b c
    check "read-only dir, SIG$sig: killed" test "$sig_rc" -gt 128
    check "read-only dir, SIG$sig: old content survives" cmp -s ro.before ro/f
    check "read-only dir, SIG$sig: spool directory empty" only sp
done
run umine m -r -n 100000 --random-source=short -o ro/f -e a b c
check "read-only dir, error: exit 1, old content" test "$(cat m.rc)" = 1 && cmp -s ro.before ro/f
fsize setpriv --reuid=$U --regid=$U --clear-groups "$F" -o ro/f -i 1-100000
check "read-only dir, file size limit: old content survives" cmp -s ro.before ro/f
oldfile ro/f 666
asu env TMPDIR="$T/w/sp" "$F" -o ro/f ro/f
check "read-only dir: -o FILE FILE" test "$(cat ro/f)" = old
check "read-only dir: spool directory empty" only sp
# No usable TMPDIR: the spool goes to memory.
asu env TMPDIR=/nonexistent "$F" -o ro/f abc
check "read-only dir, no TMPDIR: content" is_perm_of abc ro/f
check "read-only dir: nothing left beside FILE" only ro f

# The caller may not write the file (read-only dir or not): GNU's error.
oldfile ro/f 644
run ugnu g -o ro/f -e a
run umine m -o ro/f -e a
check "other's read-only file: GNU's error" cmp -s g.err m.err
check "other's read-only file: exit 1, untouched" test "$(cat m.rc)" = 1 -a "$(cat ro/f)" = old
oldfile ns/ro 444 $U:$U
run ugnu g -o ns/ro -e a
run umine m -o ns/ro -e a
check "own read-only file: GNU's error" cmp -s g.err m.err
check "own read-only file: exit 1, untouched" test "$(cat m.rc)" = 1 -a "$(cat ns/ro)" = old

finish
