#!/bin/sh
# SPDX-License-Identifier: MIT
# The manual pages (issue 14): every function the header exports
# (FSH_API) has a page docs/man/NAME.3, its own or a ".so man3/PAGE.3"
# link to a shared page that exists and names it; every page, and
# docs/fairshuf.1, formats with man --warnings (groff) and no message at
# all on standard error (and docs/fairshuf-mpi.1); make install puts the section 3 pages in
# MANDIR/man3 (the fsh_mpi_* pages only by make install-mpi) and make
# uninstall removes them. Skipped when man is absent.
NAME=test_man
. "$(dirname "$0")/lib.sh"
top=$(pwd)
[ -f "$top/include/fairshuf.h" ] || { bad "run from the source tree's top"; finish; exit 1; }
# Every FSH_API function name: the identifier before "(" on an FSH_API line.
sed -n 's/^FSH_API .*[ *]\(fsh_[a-z0-9_]*\)(.*/\1/p' "$top/include/fairshuf.h" | sort -u >"$T/names"
check "the header exports functions" test -s "$T/names"
while IFS= read -r n; do
    p=$top/docs/man/$n.3
    if [ ! -f "$p" ]; then
        bad "no manual page docs/man/$n.3"
        continue
    fi
    first=$(head -n 1 "$p")
    case $first in
    '.so man3/'*)
        target=$top/docs/man/${first#.so man3/}
        if [ -f "$target" ] && sed -n '/^\.SH NAME/,/^\.SH/p' "$target" | grep -qw "$n"; then
            ok
        else
            bad "$n.3 links to ${first#.so } which does not exist or does not name $n"
        fi
        ;;
    *)
        if sed -n '/^\.SH NAME/,/^\.SH/p' "$p" | grep -qw "$n"; then ok; else bad "$n.3 does not name $n"; fi
        ;;
    esac
done <"$T/names"
check "the overview page fairshuf.3 exists" test -f "$top/docs/man/fairshuf.3"
# fairshuf(1) names the version the command prints, under both names.
ver=$("$FAIRSHUF" --version | head -n 1)
check "fairshuf.1's title: $ver" grep -q "^\.TH FAIRSHUF 1 [^ ]* \"$ver\"" "$top/docs/fairshuf.1"
check "fairshuf.1 quotes shuf's --version line" grep -q "\"shuf (fairshuf) ${ver#fairshuf }\"" "$top/docs/fairshuf.1"
sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$top/docs/fairshuf.1" >"$T/synopsis"
for sub in deal verify audit; do
    check "fairshuf.1's synopsis: $sub" grep -q "^\.B fairshuf $sub\$" "$T/synopsis"
done
if ! command -v man >/dev/null 2>&1; then
    skipped "man (man-db) not installed: pages not formatted"
    finish
    exit 0
fi
for p in "$top"/docs/man/*.3 "$top/docs/fairshuf.1" "$top/docs/fairshuf-mpi.1"; do
    # A link page is formatted through its target, as man does once installed.
    case $(head -n 1 "$p") in
    '.so man3/'*) src=$top/docs/man/$(head -n 1 "$p" | sed 's|^\.so man3/||') ;;
    *) src=$p ;;
    esac
    (LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$src" >"$T/out" 2>"$T/err")
    if [ -s "$T/err" ] || [ ! -s "$T/out" ]; then
        sed 's/^/  /' "$T/err" >&2
        bad "$(basename "$p"): man --warnings is not silent"
    else
        ok
    fi
done
# install and uninstall (the pages only; test_install covers the rest).
out=$(dirname "$FAIRSHUF")
case $out in "$top" | .) out=. build=build ;; *) build=$out ;; esac
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
P=$T/prefix
if (cd "$top" && make -s install OUT="$out" BUILD="$build" PREFIX="$P") >"$T/inst.log" 2>&1; then
    # The fsh_mpi_* pages belong to libfairshuf_mpi (make install-mpi).
    nsrc=$(ls "$top"/docs/man/*.3 | grep -v '/fsh_mpi_' | wc -l)
    ninst=$(ls "$P"/share/man/man3/*.3 2>/dev/null | wc -l)
    check "make install puts every core section 3 page in MANDIR/man3 ($nsrc)" test "$nsrc" = "$ninst"
    check "make install leaves the fsh_mpi_* pages to make install-mpi" \
        sh -c "! ls '$P'/share/man/man3/fsh_mpi_* >/dev/null 2>&1"
    check "man finds fsh_shuffle_u32(3) in the installed tree" \
        sh -c "MANPATH='$P/share/man' LC_ALL=C.UTF-8 MANWIDTH=80 man 3 fsh_shuffle_u32 2>/dev/null | grep -q fsh_shuffle_threads"
    (cd "$top" && make -s uninstall OUT="$out" BUILD="$build" PREFIX="$P") >/dev/null 2>&1
    check "make uninstall removes them" test "$(ls "$P"/share/man/man3/ 2>/dev/null | wc -l)" = 0
else
    sed 's/^/  /' "$T/inst.log" >&2
    bad "make install PREFIX=$P"
fi
finish
