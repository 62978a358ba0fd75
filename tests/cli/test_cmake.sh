#!/bin/sh
# SPDX-License-Identifier: MIT
# make install writes a CMake package (LIBDIR/cmake/fairshuf) from that
# install's PREFIX, LIBDIR and INCLUDEDIR (issue 14): examples/shuffle.c (and
# examples/deal.c) is
# built by CMake (tests/pkg/consumer) with find_package(fairshuf 0.2) against a
# temporary PREFIX install, once linked to fairshuf::fairshuf (shared) and
# once to fairshuf::fairshuf_static, and run; its output must be a
# permutation of 1..20. A request for another major version is refused.
# The package is relocatable: the same consumer builds and runs against a
# DESTDIR staging tree (make install DESTDIR=STAGE PREFIX=/usr with a
# Debian-style LIBDIR, found through CMAKE_PREFIX_PATH=STAGE/usr) and
# against a copy of the PREFIX install moved elsewhere, using the files
# there (its compile and link lines name them); the staged fairshuf.pc
# still names the final prefix. Skipped when cmake is absent.
NAME=test_cmake
. "$(dirname "$0")/lib.sh"
F=$FAIRSHUF
top=$(pwd)
command -v cmake >/dev/null 2>&1 || { skipped "cmake not installed"; finish; exit 0; }
[ -f "$top/Makefile" ] && [ -f "$top/examples/shuffle.c" ] || {
    bad "run from the source tree's top (tests/run.sh does)"
    finish
    exit 1
}
out=$(dirname "$F")
case $out in "$top" | .) out=. build=build ;; *) build=$out ;; esac
xflags=
[ -n "${FSH_SANITIZE:-}" ] && xflags="-fsanitize=address,undefined"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
P=$T/prefix
(cd "$top" && make -s install OUT="$out" BUILD="$build" PREFIX="$P") \
    >"$T/install.log" 2>&1 || {
    sed 's/^/  /' "$T/install.log" >&2
    bad "make install PREFIX=$P"
    finish
    exit 1
}
ok
check "fairshufConfig.cmake installed in LIBDIR/cmake/fairshuf" \
    test -f "$P/lib/cmake/fairshuf/fairshufConfig.cmake"
check "fairshufConfigVersion.cmake installed" \
    test -f "$P/lib/cmake/fairshuf/fairshufConfigVersion.cmake"
check "no /usr/local in the CMake files" \
    sh -c "! grep -q /usr/local '$P/lib/cmake/fairshuf/fairshufConfig.cmake'"
seq 1 20 >"$T/seq20"
# cmake_build DIR WANT: configure and build the project asking for WANT.
cmake_build() {
    cmake -S "$top/tests/pkg/consumer" -B "$1" -DCMAKE_PREFIX_PATH="$P" \
        -DFSH_TOP="$top" -DFSH_WANT="$2" \
        -DCMAKE_C_FLAGS="$xflags" -DCMAKE_EXE_LINKER_FLAGS="$xflags" \
        >"$T/cmake.log" 2>&1 && cmake --build "$1" >>"$T/cmake.log" 2>&1
}
# run_ex BIN KIND: run it, check a permutation of 1..20 and what it links.
run_ex() {
    [ -x "$1" ] || return 1
    if readelf -d "$1" | grep -q 'NEEDED.*libfairshuf'; then _dyn=1; else _dyn=0; fi
    [ "$2" = shared ] && [ "$_dyn" = 0 ] && { echo "  shared build does not need libfairshuf.so" >&2; return 1; }
    [ "$2" = static ] && [ "$_dyn" = 1 ] && { echo "  static build needs libfairshuf.so" >&2; return 1; }
    "$1" >"$T/ex.out" || return 1
    tr ' ' '\n' <"$T/ex.out" | sort -n | cmp -s - "$T/seq20"
}
if cmake_build "$T/b1" 0.2; then
    ok
    # CMake puts the library's directory in the build RPATH.
    check "shared example through CMake (fairshuf::fairshuf)" run_ex "$T/b1/shuffle_shared" shared
    check "static example through CMake (fairshuf::fairshuf_static)" run_ex "$T/b1/shuffle_static" static
    # examples/deal.c: hands in poker notation.
    for k in shared static; do
        check "examples/deal.c through CMake ($k) deals cards" sh -c \
            "'$T/b1/deal_$k' | grep -q '^[2-9TJQKA][cdhs]\( [2-9TJQKA][cdhs]\)*\$'"
    done
else
    sed 's/^/  /' "$T/cmake.log" >&2
    bad "cmake configure/build with find_package(fairshuf 0.2)"
fi
check "find_package(fairshuf 1.0) is refused by a 0.x install" sh -c "! cmake -S '$top/tests/pkg/consumer' -B '$T/b2' \
    -DCMAKE_PREFIX_PATH='$P' -DFSH_TOP='$top' -DFSH_WANT=1.0 >/dev/null 2>&1"

# relocated NAME ROOT INC LIB: the consumer built in $T/NAME against the
# package under ROOT (CMAKE_PREFIX_PATH) runs, shared and static, and its
# compile and link lines use INC and LIB (not the prefix the install was
# made for, where nothing is installed).
relocated() {
    _b=$T/b_$1
    P=$2 cmake_build "$_b" 0.2 || {
        sed 's/^/  /' "$T/cmake.log" >&2
        bad "$1: cmake configure/build against $2"
        return
    }
    ok
    check "$1: shared example runs (fairshuf::fairshuf)" run_ex "$_b/shuffle_shared" shared
    check "$1: static example runs (fairshuf::fairshuf_static)" run_ex "$_b/shuffle_static" static
    check "$1: compiled with $3" sh -c "grep -rqF -- '$3' '$_b/CMakeFiles/shuffle_shared.dir/flags.make'"
    check "$1: linked with $4/libfairshuf.so" sh -c "grep -qF -- '$4/libfairshuf.so' '$_b/CMakeFiles/shuffle_shared.dir/link.txt'"
    check "$1: linked with $4/libfairshuf.a" sh -c "grep -qF -- '$4/libfairshuf.a' '$_b/CMakeFiles/shuffle_static.dir/link.txt'"
}
# A DESTDIR staging tree, as a package build makes it (debian/rules:
# PREFIX=/usr, a multiarch LIBDIR, which find_package searches). Its CMake
# files named the final directories, so find_package failed there
# ("fairshuf.h is not in /usr/include"), or found a system install instead.
S=$T/stage
ma=$(cc -print-multiarch 2>/dev/null)
ma=lib${ma:+/$ma}
(cd "$top" && make -s install OUT="$out" BUILD="$build" PREFIX=/usr LIBDIR=/usr/$ma DESTDIR="$S") \
    >"$T/install.log" 2>&1 || {
    sed 's/^/  /' "$T/install.log" >&2
    bad "make install DESTDIR=$S PREFIX=/usr LIBDIR=/usr/$ma"
}
check "DESTDIR: the CMake files are in the staged LIBDIR" \
    test -f "$S/usr/$ma/cmake/fairshuf/fairshufConfig.cmake"
relocated destdir "$S/usr" "$S/usr/include" "$S/usr/$ma"
# The staged pkg-config file names the final directories (a package's is
# installed there; PKG_CONFIG_SYSROOT_DIR maps it onto the stage).
check "DESTDIR: fairshuf.pc names the final prefix and LIBDIR" sh -c \
    "grep -qx 'prefix=/usr' '$S/usr/$ma/pkgconfig/fairshuf.pc' &&
     grep -qx 'libdir=/usr/$ma' '$S/usr/$ma/pkgconfig/fairshuf.pc' &&
     grep -qx 'includedir=/usr/include' '$S/usr/$ma/pkgconfig/fairshuf.pc'"
if command -v pkg-config >/dev/null 2>&1; then
    check "DESTDIR: pkg-config with PKG_CONFIG_SYSROOT_DIR finds the stage" sh -c \
        "PKG_CONFIG_SYSROOT_DIR='$S' PKG_CONFIG_LIBDIR='$S/usr/$ma/pkgconfig' \
            pkg-config --variable=includedir fairshuf | grep -qx -- '$S/usr/include'"
fi
# The PREFIX install copied elsewhere and the original removed.
mkdir "$T/moved" && cp -R "$P" "$T/moved/" && mv "$P" "$T/gone"
relocated moved "$T/moved/prefix" "$T/moved/prefix/include" "$T/moved/prefix/lib"
mv "$T/gone" "$P"
# Found through a symbolic link that crosses prefixes, as on a merged-/usr
# system (/lib -> usr/lib; CMAKE_PREFIX_PATH=/ finds
# /lib/ARCH/cmake/fairshuf): the install's own prefix, not the one up from
# the link (ROOT/include does not exist).
R=$T/root
(cd "$top" && make -s install OUT="$out" BUILD="$build" PREFIX="$R/usr" LIBDIR="$R/usr/$ma") \
    >"$T/install.log" 2>&1 || {
    sed 's/^/  /' "$T/install.log" >&2
    bad "make install PREFIX=$R/usr LIBDIR=$R/usr/$ma"
}
ln -s usr/lib "$R/lib"
relocated merged-usr "$R" "$R/usr/include" "$R/usr/$ma"
check "merged-usr: found through the link" \
    grep -qx "fairshuf_DIR:PATH=$R/$ma/cmake/fairshuf" "$T/b_merged-usr/CMakeCache.txt"
(cd "$top" && make -s uninstall OUT="$out" BUILD="$build" PREFIX="$P") >/dev/null 2>&1
check "make uninstall removes the CMake files" test ! -e "$P/lib/cmake/fairshuf/fairshufConfig.cmake"
finish
