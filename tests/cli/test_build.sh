#!/bin/sh
# SPDX-License-Identifier: MIT
# The Makefile relinks the command when its link mode changes on a built
# tree (CLI_STATIC= for a dynamic link, CLI_SHARED=1 against libfairshuf.so,
# back to the default), and only then: a second make in the same mode
# links nothing. Run on a copy of the tree's objects and libraries with
# their times kept (cp -p), so make only links, into a directory of its
# own: the binary under test is never touched. The default build only (a
# sanitizer build links with its runtimes; its objects are another tree).
# Then where a CLI_SHARED=1 command, installed, finds libfairshuf.so.0
# (its rpath; below).
NAME=test_build
. "$(dirname "$0")/lib.sh"
top=$(pwd)
if [ -n "${FSH_SANITIZE:-}" ] || [ "$(dirname "$FAIRSHUF")" != "$top" ]; then
    skipped "link-mode relinks (default build only)"
    finish
    exit 0
fi
for f in Makefile build/cli build/src libfairshuf.a libfairshuf.so; do
    [ -e "$top/$f" ] || { bad "run from a built source tree's top ($f missing)"; finish; exit 1; }
done
command -v readelf >/dev/null 2>&1 || { bad "readelf not found (binutils)"; finish; exit 1; }
mkdir "$T/b" "$T/o"
cp -pR "$top/build/cli" "$top/build/src" "$T/b/"
cp -p "$top/libfairshuf.a" "$top/libfairshuf.so" "$T/o/"
bin=$T/o/fairshuf
# mk ARGS: make the command in the copy; prints 1 when it linked, else 0.
mk() {
    env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" --no-print-directory \
        BUILD="$T/b" OUT="$T/o" "$@" "$bin" >"$T/mk.out" 2>&1 || {
        sed 's/^/  /' "$T/mk.out" >&2
        echo fail
        return
    }
    if grep -q -- "-o $bin " "$T/mk.out"; then echo 1; else echo 0; fi
}
# mode: static, dynamic or shared, read off the binary.
mode() {
    if readelf -d "$bin" 2>/dev/null | grep -q 'NEEDED.*libfairshuf\.so'; then
        echo shared
    elif readelf -l "$bin" 2>/dev/null | grep -q 'INTERP'; then
        echo dynamic
    else
        echo static
    fi
}
first=$(mk)
check "first make links the command" test "$first" = 1
def=$(mode)
[ "$def" = static ] || [ "$def" = dynamic ] && ok || bad "default link mode: $def"
check "a second make links nothing" test "$(mk)" = 0
check "CLI_STATIC= relinks" test "$(mk CLI_STATIC=)" = 1
check "CLI_STATIC=: dynamic" test "$(mode)" = dynamic
check "CLI_STATIC= again links nothing" test "$(mk CLI_STATIC=)" = 0
check "CLI_SHARED=1 relinks" test "$(mk CLI_SHARED=1)" = 1
check "CLI_SHARED=1: against libfairshuf.so" test "$(mode)" = shared
check "CLI_SHARED=1 again links nothing" test "$(mk CLI_SHARED=1)" = 0
check "the default mode again relinks" test "$(mk)" = 1
check "the default mode again: $def" test "$(mode)" = "$def"
check "and then links nothing" test "$(mk)" = 0
"$bin" -i 1-5 --seed=1 >"$T/seq.out" 2>&1 && [ "$(wc -l <"$T/seq.out")" = 5 ] &&
    ok || bad "the relinked command does not run: $(cat "$T/seq.out")"

# make CLI_SHARED=1 install: the installed command finds the installed
# libfairshuf.so.0 without LD_LIBRARY_PATH. Into a private PREFIX it has a
# RUNPATH of $ORIGIN/../lib (it had none, so it failed to start: "error
# while loading shared libraries: libfairshuf.so.0"), and still runs when
# the prefix is moved; into the directories the loader searches itself
# (debian/rules: PREFIX=/usr, LIBDIR=/usr/lib/ARCH) it has none, as Debian
# requires. fairshuf-mpi the same, when make mpi built it.
# inst ARGS: make CLI_SHARED=1 ARGS in the copy.
inst() {
    env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" --no-print-directory \
        BUILD="$T/b" OUT="$T/o" CLI_SHARED=1 "$@" >"$T/mk.out" 2>&1 && return 0
    sed 's/^/  /' "$T/mk.out" | tail -n 10 >&2
    return 1
}
# runpath BIN: its RPATH or RUNPATH ("" for none).
runpath() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p'; }
# loads BIN DIR: BIN runs without LD_LIBRARY_PATH and loads DIR's
# libfairshuf.so.0 (ldd names it as found: BIN's directory/../lib/...).
loads() {
    env -u LD_LIBRARY_PATH "$1" -i 1-5 --seed=1 >"$T/seq.out" 2>&1 &&
        [ "$(wc -l <"$T/seq.out")" = 5 ] || {
        sed 's/^/  /' "$T/seq.out" | head -n 3 >&2
        return 1
    }
    _l=$(env -u LD_LIBRARY_PATH ldd "$1" | awk '$1 == "libfairshuf.so.0" { print $3 }')
    [ -n "$_l" ] && [ "$(readlink -f "$_l")" = "$(readlink -f "$2/libfairshuf.so.0")" ] && return 0
    echo "  $1 loads libfairshuf.so.0 from '$_l', not $2" >&2
    return 1
}
P=$T/prefix
if inst PREFIX="$P" install; then
    ok
    check "CLI_SHARED=1 installed in a PREFIX: RUNPATH \$ORIGIN/../lib" \
        test "$(runpath "$P/bin/fairshuf")" = '$ORIGIN/../lib'
    check "CLI_SHARED=1 installed in a PREFIX: runs without LD_LIBRARY_PATH" \
        loads "$P/bin/fairshuf" "$P/lib"
    mv "$P" "$T/moved"
    check "the PREFIX moved elsewhere: still runs, with its own library" \
        loads "$T/moved/bin/fairshuf" "$T/moved/lib"
    mv "$T/moved" "$P"
else
    bad "make CLI_SHARED=1 PREFIX=$P install"
fi
ma=$(cc -print-multiarch 2>/dev/null)
ma=lib${ma:+/$ma}
S=$T/stage
if inst PREFIX=/usr LIBDIR="/usr/$ma" DESTDIR="$S" install; then
    ok
    check "CLI_SHARED=1, PREFIX=/usr LIBDIR=/usr/$ma (debian/rules): no rpath" \
        test -z "$(runpath "$S/usr/bin/fairshuf")"
else
    bad "make CLI_SHARED=1 PREFIX=/usr LIBDIR=/usr/$ma DESTDIR=$S install"
fi
# debian/rules' own variables (MAKE_VARS, with the host's multiarch).
# shellcheck disable=SC2046
if inst $(sed -n 's/^MAKE_VARS = //p' "$top/debian/rules" |
    sed "s|\$(DEB_HOST_MULTIARCH)|$(cc -print-multiarch 2>/dev/null)|g") \
    DESTDIR="$T/deb" install; then
    check "debian/rules' MAKE_VARS: no rpath" test -z "$(runpath "$T/deb/usr/bin/fairshuf")"
else
    bad "make \$(MAKE_VARS of debian/rules) DESTDIR=$T/deb install"
fi
if inst PREFIX=/opt/fsh LIBDIR=/opt/fsh/lib64 DESTDIR="$T/opt" install; then
    check "CLI_SHARED=1, PREFIX=/opt/fsh LIBDIR=/opt/fsh/lib64: RUNPATH \$ORIGIN/../lib64" \
        test "$(runpath "$T/opt/opt/fsh/bin/fairshuf")" = '$ORIGIN/../lib64'
else
    bad "make CLI_SHARED=1 PREFIX=/opt/fsh LIBDIR=/opt/fsh/lib64 DESTDIR=$T/opt install"
fi
if command -v mpicc >/dev/null 2>&1 && [ -d "$top/build/mpi" ] && [ -f "$top/libfairshuf_mpi.a" ]; then
    cp -pR "$top/build/mpi" "$T/b/"
    cp -p "$top/libfairshuf_mpi.a" "$T/o/"
    seq 1 100 >"$T/in"
    "$FAIRSHUF" --seed=m "$T/in" >"$T/want"
    if inst PREFIX="$P" install-mpi-cmd; then
        ok
        check "fairshuf-mpi, CLI_SHARED=1 in a PREFIX: RUNPATH \$ORIGIN/../lib" \
            test "$(runpath "$P/bin/fairshuf-mpi")" = '$ORIGIN/../lib'
        # A singleton MPI process (no mpirun).
        check "fairshuf-mpi, CLI_SHARED=1 in a PREFIX: runs without LD_LIBRARY_PATH" sh -c \
            "env -u LD_LIBRARY_PATH OMPI_MCA_btl_base_warn_component_unused=0 \
                OMPI_MCA_btl_vader_single_copy_mechanism=none $TO '$P/bin/fairshuf-mpi' \
                --seed=m '$T/in' </dev/null 2>'$T/mpi.err' | cmp -s - '$T/want' ||
             { sed 's/^/  /' '$T/mpi.err' | head -n 3 >&2; exit 1; }"
    else
        bad "make CLI_SHARED=1 PREFIX=$P install-mpi-cmd"
    fi
    if inst PREFIX=/usr LIBDIR="/usr/$ma" DESTDIR="$S" install-mpi-cmd; then
        check "fairshuf-mpi, CLI_SHARED=1 for debian/rules: no rpath" \
            test -z "$(runpath "$S/usr/bin/fairshuf-mpi")"
    else
        bad "make CLI_SHARED=1 PREFIX=/usr DESTDIR=$S install-mpi-cmd"
    fi
else
    skipped "no mpicc or make mpi's build: fairshuf-mpi's rpath is not checked"
fi
finish
