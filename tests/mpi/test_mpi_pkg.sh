#!/bin/sh
# SPDX-License-Identifier: MIT
# libfairshuf_mpi as a consumer uses it installed: make install-mpi writes
# fairshuf_mpi.pc and a CMake package (LIBDIR/cmake/fairshuf_mpi) from that
# install's PREFIX, LIBDIR and INCLUDEDIR, as make install writes
# fairshuf's (there were neither). tests/pkg/mpi_consumer/mpi_shuffle.c
# (1..20 split over the ranks, shuffled under a seed, printed by rank 0)
# is built with plain cc through "pkg-config --cflags --libs fairshuf_mpi"
# (which brings fairshuf's and MPI's flags) against the installed shared
# and static libraries, and through find_package(fairshuf_mpi 0.2)
# (fairshuf::fairshuf_mpi, fairshuf::fairshuf_mpi_static); each runs as a
# singleton MPI process and gives one permutation of 1..20, the same on
# two ranks. Then a DESTDIR staging tree (PREFIX=/usr, a Debian-style
# LIBDIR): the .pc names the final directories and builds through
# PKG_CONFIG_SYSROOT_DIR, the CMake package is found and used from the
# stage. make uninstall-mpi removes both. Skipped without mpicc or
# make mpi's libraries; the CMake part without cmake.
NAME=test_mpi_pkg
. "$(dirname "$0")/../cli/lib.sh"
F=$FAIRSHUF
top=$(pwd)
CC=${CC:-cc}
[ -f "$top/Makefile" ] && [ -f "$top/tests/pkg/mpi_consumer/mpi_shuffle.c" ] || {
    bad "run from the source tree's top (tests/run.sh does)"
    finish
    exit 1
}
out=$(dirname "$F")
case $out in "$top" | .) out=. build=build ;; *) build=$out ;; esac
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1 ||
    [ ! -f "$out/libfairshuf_mpi.a" ]; then
    skipped "no mpicc, mpirun or libfairshuf_mpi (make mpi)"
    finish
    exit 0
fi
command -v pkg-config >/dev/null 2>&1 || { bad "pkg-config not found"; finish; exit 1; }
xflags=
[ -n "${FSH_SANITIZE:-}" ] && xflags="-fsanitize=address,undefined"
version=$(sed -n 's/^#define FSH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
    "$top/include/fairshuf.h" | paste -sd. -)
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
SRC=$top/tests/pkg/mpi_consumer/mpi_shuffle.c
# The environment test_mpi.sh gives its runs; no leak report under ASan
# (what Open MPI never frees; test_mpi.sh checks leaks, with suppressions).
MPIRUN="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
OMPI_MCA_btl_base_warn_component_unused=0
OMPI_MCA_btl_vader_single_copy_mechanism=none
OMPI_MCA_pml=ob1
export OMPI_MCA_btl_base_warn_component_unused OMPI_MCA_btl_vader_single_copy_mechanism OMPI_MCA_pml
if [ -n "${FSH_SANITIZE:-}" ]; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    export ASAN_OPTIONS
fi
seq 1 20 >"$T/seq20"
syspc=$(pkg-config --variable=pc_path pkg-config 2>/dev/null)

# runs BIN LIBDIR KIND: BIN needs libfairshuf_mpi.so or not (KIND shared
# or static); run alone (LD_LIBRARY_PATH=LIBDIR) it prints a permutation
# of 1..20, and on two ranks the same line.
runs() {
    if readelf -d "$1" | grep -q 'NEEDED.*libfairshuf_mpi'; then _dyn=1; else _dyn=0; fi
    [ "$3" = shared ] && [ "$_dyn" = 0 ] && { echo "  $1 does not need libfairshuf_mpi.so" >&2; return 1; }
    [ "$3" = static ] && [ "$_dyn" = 1 ] && { echo "  $1 needs libfairshuf_mpi.so" >&2; return 1; }
    LD_LIBRARY_PATH=$2 $TO "$1" </dev/null >"$T/one.out" 2>"$T/run.err" &&
        tr ' ' '\n' <"$T/one.out" | sort -n | cmp -s - "$T/seq20" || {
        sed 's/^/  /' "$T/run.err" | head -n 5 >&2
        return 1
    }
    # shellcheck disable=SC2086
    $TO $MPIRUN -x LD_LIBRARY_PATH=$2 -np 2 "$1" </dev/null >"$T/two.out" 2>"$T/run.err" &&
        cmp -s "$T/one.out" "$T/two.out" && return 0
    echo "  two ranks: $(cat "$T/two.out"); one: $(cat "$T/one.out")" >&2
    sed 's/^/  /' "$T/run.err" | head -n 5 >&2
    return 1
}
# pc_build PCDIR SYSROOT KIND COMPILER: mpi_shuffle.c built by COMPILER
# with pkg-config's flags for fairshuf_mpi (KIND static: --static, both
# libraries as archives) into $T/pc_KIND.
pc_build() {
    _opt=
    [ "$3" = static ] && _opt=--static
    _flags=$(PKG_CONFIG_PATH=$1 PKG_CONFIG_LIBDIR=$1${syspc:+:$syspc} PKG_CONFIG_SYSROOT_DIR=$2 \
        pkg-config --cflags --libs $_opt fairshuf_mpi) || return 1
    [ "$3" = static ] && _flags=$(echo "$_flags" |
        sed 's/-lfairshuf_mpi\b/-l:libfairshuf_mpi.a/; s/-lfairshuf\b/-l:libfairshuf.a/')
    # shellcheck disable=SC2086
    "$4" $xflags -o "$T/pc_$3" "$SRC" $_flags 2>"$T/cc.err" && return 0
    echo "  $4 ... $_flags" >&2
    sed 's/^/  /' "$T/cc.err" | head -n 5 >&2
    return 1
}

# 1. PREFIX.
P=$T/prefix
if (cd "$top" && make -s install install-mpi OUT="$out" BUILD="$build" PREFIX="$P") \
    >"$T/install.log" 2>&1; then
    ok
else
    sed 's/^/  /' "$T/install.log" | tail -n 10 >&2
    bad "make install install-mpi PREFIX=$P"
    finish
    exit 1
fi
pc=$P/lib/pkgconfig
pcvar() { PKG_CONFIG_PATH=$1 PKG_CONFIG_LIBDIR=$1${syspc:+:$syspc} pkg-config --variable="$2" fairshuf_mpi; }
check "fairshuf_mpi.pc installed in LIBDIR/pkgconfig" test -f "$pc/fairshuf_mpi.pc"
check "fairshuf_mpi.pc: prefix, libdir and includedir of the install" sh -c \
    "[ \"\$(PKG_CONFIG_PATH='$pc' PKG_CONFIG_LIBDIR='$pc${syspc:+:$syspc}' pkg-config --variable=prefix fairshuf_mpi)\" = '$P' ] &&
     [ \"\$(PKG_CONFIG_PATH='$pc' PKG_CONFIG_LIBDIR='$pc${syspc:+:$syspc}' pkg-config --variable=libdir fairshuf_mpi)\" = '$P/lib' ] &&
     [ \"\$(PKG_CONFIG_PATH='$pc' PKG_CONFIG_LIBDIR='$pc${syspc:+:$syspc}' pkg-config --variable=includedir fairshuf_mpi)\" = '$P/include' ]"
check "fairshuf_mpi.pc: version $version, requires fairshuf = $version" sh -c \
    "[ \"\$(PKG_CONFIG_PATH='$pc' PKG_CONFIG_LIBDIR='$pc${syspc:+:$syspc}' pkg-config --modversion fairshuf_mpi)\" = '$version' ] &&
     PKG_CONFIG_PATH='$pc' PKG_CONFIG_LIBDIR='$pc${syspc:+:$syspc}' pkg-config --print-requires fairshuf_mpi |
         grep -qx 'fairshuf = $version'"
if pc_build "$pc" "" shared "$CC"; then
    check "cc through pkg-config (shared): runs, 1 and 2 ranks" runs "$T/pc_shared" "$P/lib" shared
else
    bad "cc \$(pkg-config --cflags --libs fairshuf_mpi) against $P"
fi
if pc_build "$pc" "" static "$CC"; then
    check "cc through pkg-config --static (archives): runs, 1 and 2 ranks" runs "$T/pc_static" "" static
else
    bad "cc \$(pkg-config --static --cflags --libs fairshuf_mpi) against $P"
fi
HAVE_CMAKE=0
command -v cmake >/dev/null 2>&1 && HAVE_CMAKE=1
# cm_build DIR ROOT WANT: configure and build the consumer against ROOT.
cm_build() {
    cmake -S "$top/tests/pkg/mpi_consumer" -B "$1" -DCMAKE_PREFIX_PATH="$2" \
        -DFSH_WANT="$3" -DCMAKE_C_FLAGS="$xflags" -DCMAKE_EXE_LINKER_FLAGS="$xflags" \
        >"$T/cmake.log" 2>&1 && cmake --build "$1" >>"$T/cmake.log" 2>&1
}
if [ $HAVE_CMAKE = 1 ]; then
    check "fairshuf_mpiConfig.cmake and its version file in LIBDIR/cmake/fairshuf_mpi" \
        test -f "$P/lib/cmake/fairshuf_mpi/fairshuf_mpiConfig.cmake" \
        -a -f "$P/lib/cmake/fairshuf_mpi/fairshuf_mpiConfigVersion.cmake"
    if cm_build "$T/cm" "$P" 0.2; then
        ok
        check "CMake fairshuf::fairshuf_mpi: runs, 1 and 2 ranks" \
            runs "$T/cm/mpi_shuffle_shared" "" shared
        check "CMake fairshuf::fairshuf_mpi_static: runs, 1 and 2 ranks" \
            runs "$T/cm/mpi_shuffle_static" "" static
    else
        sed 's/^/  /' "$T/cmake.log" | tail -n 15 >&2
        bad "cmake configure/build with find_package(fairshuf_mpi 0.2) against $P"
    fi
    check "find_package(fairshuf_mpi 1.0) is refused by a 0.x install" sh -c \
        "! cmake -S '$top/tests/pkg/mpi_consumer' -B '$T/cm1' -DCMAKE_PREFIX_PATH='$P' \
            -DFSH_WANT=1.0 >/dev/null 2>&1"
else
    skipped "cmake not installed: the CMake package is not tried"
fi

# 2. A DESTDIR staging tree, as a package build makes it.
S=$T/stage
ma=$(cc -print-multiarch 2>/dev/null)
ma=lib${ma:+/$ma}
if (cd "$top" && make -s install install-mpi OUT="$out" BUILD="$build" PREFIX=/usr \
    LIBDIR=/usr/$ma DESTDIR="$S") >"$T/install.log" 2>&1; then
    ok
    spc=$S/usr/$ma/pkgconfig
    check "DESTDIR: fairshuf_mpi.pc names the final prefix and LIBDIR" sh -c \
        "grep -qx 'prefix=/usr' '$spc/fairshuf_mpi.pc' &&
         grep -qx 'libdir=/usr/$ma' '$spc/fairshuf_mpi.pc' &&
         grep -qx 'includedir=/usr/include' '$spc/fairshuf_mpi.pc'"
    # mpicc: MPI's own flags (pkg-config would put its -I under the sysroot).
    if pc_build "$spc" "$S" shared mpicc; then
        check "DESTDIR: mpicc through pkg-config (sysroot): runs" \
            runs "$T/pc_shared" "$S/usr/$ma" shared
    else
        bad "mpicc through pkg-config with PKG_CONFIG_SYSROOT_DIR=$S"
    fi
    if [ $HAVE_CMAKE = 1 ]; then
        if cm_build "$T/cms" "$S/usr" 0.2; then
            ok
            check "DESTDIR: CMake links the staged libfairshuf_mpi.so and libfairshuf.so" sh -c \
                "grep -qF -- '$S/usr/$ma/libfairshuf_mpi.so' '$T/cms/CMakeFiles/mpi_shuffle_shared.dir/link.txt' &&
                 grep -qF -- '$S/usr/$ma/libfairshuf.so' '$T/cms/CMakeFiles/mpi_shuffle_shared.dir/link.txt'"
            check "DESTDIR: CMake fairshuf::fairshuf_mpi_static: runs" \
                runs "$T/cms/mpi_shuffle_static" "" static
        else
            sed 's/^/  /' "$T/cmake.log" | tail -n 15 >&2
            bad "cmake configure/build against the staging tree $S/usr"
        fi
    fi
else
    sed 's/^/  /' "$T/install.log" | tail -n 10 >&2
    bad "make install install-mpi DESTDIR=$S PREFIX=/usr LIBDIR=/usr/$ma"
fi
(cd "$top" && make -s uninstall-mpi OUT="$out" BUILD="$build" PREFIX="$P") >/dev/null 2>&1
check "make uninstall-mpi removes fairshuf_mpi.pc and the CMake package" sh -c \
    "[ ! -e '$pc/fairshuf_mpi.pc' ] && [ ! -e '$P/lib/cmake/fairshuf_mpi' ]"
finish
