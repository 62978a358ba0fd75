#!/bin/sh
# SPDX-License-Identifier: MIT
# make install writes fairshuf.pc from that install's PREFIX, LIBDIR and
# INCLUDEDIR (issue 10, point 7), and an installed fairshuf is usable
# through pkg-config: examples/shuffle.c built with
# "pkg-config --cflags --libs fairshuf" against the installed shared
# library and (with -lfairshuf turned into -l:libfairshuf.a, found on the
# same -L path) the installed static one, and run. Two installs: PREFIX
# alone (the build runs straight from it), and a staged DESTDIR install
# with its own LIBDIR (built through PKG_CONFIG_SYSROOT_DIR, the .pc must
# name the final paths, not the staging directory). fairshuf.pc takes
# libsodium from libsodium.pc (Requires.private): a static link gets the
# -L of a libsodium installed elsewhere. make install reuses the library
# already built (install depends on all).
NAME=test_install
. "$(dirname "$0")/lib.sh"
F=$FAIRSHUF
top=$(pwd)
CC=${CC:-cc}
for tool in make pkg-config "$CC"; do
    command -v "$tool" >/dev/null 2>&1 || { bad "$tool not found"; finish; exit 1; }
done
[ -f "$top/Makefile" ] && [ -f "$top/examples/shuffle.c" ] || {
    bad "run from the source tree's top (tests/run.sh does)"
    finish
    exit 1
}
# The build that produced $FAIRSHUF: ./fairshuf (build/) or OUT/fairshuf
# (BUILD = OUT, as make sanitize does).
out=$(dirname "$F")
case $out in "$top" | .) out=. build=build ;; *) build=$out ;; esac
# An ASan/UBSan library needs the sanitizer runtime in the example too.
xflags=
[ -n "${FSH_SANITIZE:-}" ] && xflags="-fsanitize=address,undefined"
version=$(sed -n 's/^#define FSH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
    "$top/include/fairshuf.h" | paste -sd. -)
# Not the caller's make: no inherited jobserver or command-line variables.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# install LOG VAR=VALUE...: make install with those variables.
install_to() {
    _log=$1
    shift
    (cd "$top" && make -s install OUT="$out" BUILD="$build" "$@") >"$_log" 2>&1 || {
        sed 's/^/  /' "$_log" >&2
        return 1
    }
}
# pcvar PCDIR VAR: a variable of the installed fairshuf.pc.
pcvar() { PKG_CONFIG_PATH=$1 PKG_CONFIG_LIBDIR=$1 pkg-config --variable="$2" fairshuf; }
# The system's pkg-config directories (libsodium.pc, which fairshuf.pc
# requires, is there), after the install's own.
syspc=$(pkg-config --variable=pc_path pkg-config 2>/dev/null)
# build_run PCDIR SYSROOT LIBDIR KIND: build examples/shuffle.c through
# pkg-config (KIND shared or static), run it, check its output is a
# permutation of 1..20 and what it links.
build_run() {
    _pc=$1 _root=$2 _lib=$3 _kind=$4 _opt=
    [ "$_kind" = static ] && _opt=--static
    _flags=$(PKG_CONFIG_PATH=$_pc PKG_CONFIG_LIBDIR=$_pc${syspc:+:$syspc} PKG_CONFIG_SYSROOT_DIR=$_root \
        pkg-config --cflags --libs $_opt fairshuf) || return 1
    [ "$_kind" = static ] && _flags=$(echo "$_flags" | sed 's/-lfairshuf\b/-l:libfairshuf.a/')
    # shellcheck disable=SC2086
    "$CC" $xflags -o "$T/ex_$_kind" "$top/examples/shuffle.c" $_flags 2>"$T/cc.err" || {
        sed 's/^/  /' "$T/cc.err" >&2
        return 1
    }
    if readelf -d "$T/ex_$_kind" | grep -q 'NEEDED.*libfairshuf'; then _dyn=1; else _dyn=0; fi
    [ "$_kind" = shared ] && [ "$_dyn" = 0 ] && { echo "  shared build does not need libfairshuf.so" >&2; return 1; }
    [ "$_kind" = static ] && [ "$_dyn" = 1 ] && { echo "  static build needs libfairshuf.so" >&2; return 1; }
    LD_LIBRARY_PATH=$_root$_lib "$T/ex_$_kind" >"$T/ex.out" || return 1
    tr ' ' '\n' <"$T/ex.out" | sort -n | cmp -s - "$T/seq20"
}
seq 1 20 >"$T/seq20"

# 1. PREFIX only.
P=$T/prefix
if install_to "$T/install1.log" PREFIX="$P"; then
    ok
    pc=$P/lib/pkgconfig
    check "fairshuf.pc installed" test -f "$pc/fairshuf.pc"
    check "prefix is PREFIX" test "$(pcvar "$pc" prefix)" = "$P"
    check "libdir is PREFIX/lib" test "$(pcvar "$pc" libdir)" = "$P/lib"
    check "includedir is PREFIX/include" test "$(pcvar "$pc" includedir)" = "$P/include"
    check "version is the header's ($version)" \
        test "$(PKG_CONFIG_PATH=$pc PKG_CONFIG_LIBDIR=$pc pkg-config --modversion fairshuf)" = "$version"
    check "no /usr/local in fairshuf.pc" sh -c "! grep -q /usr/local '$pc/fairshuf.pc'"
    check "header, libraries and command installed" test -f "$P/include/fairshuf.h" \
        -a -f "$P/lib/libfairshuf.a" -a -f "$P/lib/libfairshuf.so.$version" \
        -a -x "$P/bin/fairshuf"
    check "shared example through pkg-config" build_run "$pc" "" "$P/lib" shared
    check "static example through pkg-config" build_run "$pc" "" "$P/lib" static
    # libsodium comes from its own pkg-config file (Requires.private), so
    # a static link gets its -L when it is installed outside the linker's
    # path; "-lsodium" alone in Libs.private left it to the default path.
    mkdir -p "$T/sodium/lib/pkgconfig"
    printf '%s\n' "libdir=$T/sodium/lib" 'Name: libsodium' 'Description: test' \
        'Version: 1.0.18' 'Libs: -L${libdir} -lsodium' >"$T/sodium/lib/pkgconfig/libsodium.pc"
    check "fairshuf.pc requires libsodium privately" sh -c \
        "PKG_CONFIG_PATH='$pc:$T/sodium/lib/pkgconfig' PKG_CONFIG_LIBDIR= \
            pkg-config --print-requires-private fairshuf | grep -qx 'libsodium'"
    check "pkg-config --static --libs: libsodium's -L and -lsodium after -lfairshuf" sh -c \
        "PKG_CONFIG_PATH='$pc:$T/sodium/lib/pkgconfig' PKG_CONFIG_LIBDIR= \
            pkg-config --static --libs fairshuf |
         grep -q -- '-lfairshuf .*-L$T/sodium/lib -lsodium'"
    check "pkg-config --libs (shared): no libsodium" sh -c \
        "! PKG_CONFIG_PATH='$pc:$T/sodium/lib/pkgconfig' PKG_CONFIG_LIBDIR= \
            pkg-config --libs fairshuf | grep -q sodium"
else
    bad "make install PREFIX=$P"
fi

# 2. DESTDIR staging, its own LIBDIR.
D=$T/stage
if install_to "$T/install2.log" DESTDIR="$D" PREFIX=/opt/fsh-test LIBDIR=/opt/fsh-test/lib64; then
    ok
    pc=$D/opt/fsh-test/lib64/pkgconfig
    check "staged fairshuf.pc in DESTDIR/LIBDIR/pkgconfig" test -f "$pc/fairshuf.pc"
    check "staged prefix is PREFIX" test "$(pcvar "$pc" prefix)" = /opt/fsh-test
    check "staged libdir is LIBDIR" test "$(pcvar "$pc" libdir)" = /opt/fsh-test/lib64
    check "staged includedir is PREFIX/include" \
        test "$(pcvar "$pc" includedir)" = /opt/fsh-test/include
    check "no DESTDIR in fairshuf.pc" sh -c "! grep -q '$D' '$pc/fairshuf.pc'"
    check "shared example through pkg-config (sysroot)" \
        build_run "$pc" "$D" /opt/fsh-test/lib64 shared
    check "static example through pkg-config (sysroot)" \
        build_run "$pc" "$D" /opt/fsh-test/lib64 static
else
    bad "make install DESTDIR=$D PREFIX=/opt/fsh-test"
fi
finish
