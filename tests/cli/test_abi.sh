#!/bin/sh
# SPDX-License-Identifier: MIT
# The ABI check (issue 14, docs/VERSIONING.md): the dynamic symbols that
# libfairshuf.so (beside the binary under test) defines are exactly the
# symbols of the last release, debian/libfairshuf0.symbols: a symbol that
# disappears fails (an ABI break needs a new SONAME), and so does a new one
# until it is added to the symbols file with the version that adds it.
# Every exported symbol starts with fsh_, every FSH_API function of the
# header is exported, and the SONAME is libfairshuf.so.SOVERSION (Makefile) as the symbols
# file says. The Debian lintian overrides name no version. The public
# types are opaque (no struct layout is part of the ABI); the one public
# enum, fsh_gen, and the status codes are checked by value in test_api.
NAME=test_abi
. "$(dirname "$0")/lib.sh"
top=$(pwd)
so=$(dirname "$FAIRSHUF")/libfairshuf.so
syms=$top/debian/libfairshuf0.symbols
[ -f "$syms" ] || { bad "no debian/libfairshuf0.symbols"; finish; exit 1; }
[ -f "$so" ] || { skipped "no libfairshuf.so beside $FAIRSHUF"; finish; exit 0; }
command -v nm >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 ||
    { bad "nm and readelf (binutils) needed"; finish; exit 1; }
nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u >"$T/all"
grep '^fsh_' "$T/all" >"$T/lib"
sed -n 's/^ \([A-Za-z_][A-Za-z0-9_]*\)@.*/\1/p' "$syms" | sort -u >"$T/release"
check "the symbols file lists symbols" test -s "$T/release"
comm -23 "$T/release" "$T/lib" >"$T/gone"
comm -13 "$T/release" "$T/lib" >"$T/new"
if [ -s "$T/gone" ]; then
    bad "symbols of the release gone from libfairshuf.so (an ABI break): $(tr '\n' ' ' <"$T/gone")"
else
    ok
fi
if [ -s "$T/new" ]; then
    bad "new symbols not in debian/libfairshuf0.symbols (add them with the version that adds them): $(tr '\n' ' ' <"$T/new")"
else
    ok
fi
# Sanitizer runtimes may export their own symbols; plain builds export fsh_* only.
if [ -z "${FSH_SANITIZE:-}" ]; then
    grep -v '^fsh_' "$T/all" >"$T/other"
    check "only fsh_ symbols exported (found: $(tr '\n' ' ' <"$T/other"))" test ! -s "$T/other"
fi
sed -n 's/^FSH_API .*[ *]\(fsh_[a-z0-9_]*\)(.*/\1/p' "$top/include/fairshuf.h" | sort -u >"$T/api"
comm -23 "$T/api" "$T/lib" >"$T/unexported"
check "every FSH_API function is exported (missing: $(tr '\n' ' ' <"$T/unexported"))" test ! -s "$T/unexported"
major=$(sed -n "s/^SOVERSION *:*= *\([0-9]*\).*/\1/p" "$top/Makefile")
soname=$(readelf -dW "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
check "SONAME is libfairshuf.so.$major ($soname)" test "$soname" = "libfairshuf.so.$major"
check "the symbols file is for $soname" sh -c "head -n 1 '$syms' | grep -q '^$soname '"
# The lintian overrides match the library's file at every release: one
# naming libfairshuf.so.0.2.0 no longer matched at 0.3.0, and the package
# build's lintian run (tests/pkg/deb.sh) then failed (the tag unoverridden,
# the override "mismatched").
version=$(sed -n 's/^#define FSH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
    "$top/include/fairshuf.h" | paste -sd. -)
grep -v '^#' "$top"/debian/*.lintian-overrides 2>/dev/null | grep -F "$version" >"$T/pinned"
check "debian/*.lintian-overrides name no version ($(cat "$T/pinned"))" test ! -s "$T/pinned"
finish
