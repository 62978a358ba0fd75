#!/bin/sh
# SPDX-License-Identifier: MIT
# make install writes a CMake package (LIBDIR/cmake/fairshuf) from that
# install's PREFIX, LIBDIR and INCLUDEDIR (issue 14): examples/shuffle.c (and
# examples/deal.c) is
# built by CMake (tests/pkg/consumer) with find_package(fairshuf 0.2) against a
# temporary PREFIX install, once linked to fairshuf::fairshuf (shared) and
# once to fairshuf::fairshuf_static, and run; its output must be a
# permutation of 1..20. A request for another major version is refused.
# Skipped when cmake is absent.
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
(cd "$top" && make -s uninstall OUT="$out" BUILD="$build" PREFIX="$P") >/dev/null 2>&1
check "make uninstall removes the CMake files" test ! -e "$P/lib/cmake/fairshuf/fairshufConfig.cmake"
finish
