#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Debian packages and use them as a user would (issue 14): copy
# the tracked tree (and untracked, not ignored files) to a temporary
# directory, dpkg-buildpackage -us -uc -b there (the symbols file check
# runs at -c4: any change of the exported symbols fails), lintian with no
# tag left (overrides carry their reasons), install the four packages with
# apt-get, compile examples/shuffle.c and examples/deal.c against the
# installed package with
# pkg-config and with CMake, shared and static, run each, check the
# manual pages and the command (linked against the packaged
# libfairshuf.so.0, not a copy of the library), check that no ELF file in
# the packages has an RPATH or RUNPATH (Debian forbids them into the
# system's directories; the check is first shown to catch both on
# programs built with one), run fairshuf-mpi (package
# fairshuf-mpi: linked against libfairshuf.so.0 too) on two ranks with
# mpirun, and remove the packages again.
# Not part of make check (it installs into the system): .ci/run runs it.
# Needs root or sudo -n, and debhelper dpkg-dev lintian fakeroot cmake
# pkg-config man-db libopenmpi-dev openmpi-bin. Prints "deb.sh: N passed, N failed"; exit status 0
# only if all passed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
SUDO=
[ "$(id -u)" = 0 ] || SUDO="sudo -n"
W=$(mktemp -d "${TMPDIR:-/tmp}/fsh-deb.XXXXXX") || exit 1
installed=0
cleanup() {
    if [ "$installed" = 1 ]; then
        $SUDO apt-get purge -y -qq fairshuf-mpi fairshuf libfairshuf-dev libfairshuf0 >/dev/null 2>&1 ||
            $SUDO dpkg --purge fairshuf-mpi fairshuf libfairshuf-dev libfairshuf0 >/dev/null 2>&1
    fi
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "deb.sh: ok: $*"; }
bad() { fail=$((fail + 1)); echo "deb.sh: FAIL: $*" >&2; }
check() { _d=$1; shift; if "$@"; then ok "$_d"; else bad "$_d"; fi; }
finish() { echo "deb.sh: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
# dyn BIN: BIN needs libfairshuf.so.0 (NEEDED).
dyn() { readelf -d "$1" | grep -q 'NEEDED.*libfairshuf\.so\.0'; }
# no_rpath DIR MIN: at least MIN ELF files (programs, shared libraries)
# under DIR, and none has an RPATH or RUNPATH in its dynamic section
# (readelf -d); those that do are named with it.
no_rpath() {
    find "$1" -type f | sort >"$W/elf.list"
    _elf=0 _rp=0
    while IFS= read -r _f; do
        [ "$(head -c 4 "$_f" | od -An -c | tr -d ' ')" = 177ELF ] || continue
        _elf=$((_elf + 1))
        readelf -d "$_f" 2>/dev/null | grep -E '\((RPATH|RUNPATH)\)' >"$W/elf.rp"
        if [ -s "$W/elf.rp" ]; then
            _rp=$((_rp + 1))
            echo "  ${_f#"$1"}: $(sed 's/.*(\(R[A-Z]*PATH\)).*\(\[.*\]\)/\1 \2/' "$W/elf.rp")" >&2
        fi
    done <"$W/elf.list"
    [ "$_elf" -ge "$2" ] || echo "  $_elf ELF files under ${1##*/}, expected at least $2" >&2
    [ "$_elf" -ge "$2" ] && [ "$_rp" = 0 ]
}
# The check itself: it must fail on a program with a RUNPATH (what the
# Makefile's CLI_RPATH adds: --enable-new-dtags) and on one with an old
# RPATH, and pass the same program without.
mkdir "$W/rp" "$W/rp/runpath" "$W/rp/rpath" "$W/rp/none"
printf 'int main(void) { return 0; }\n' >"$W/rp/m.c"
if cc -o "$W/rp/runpath/m" "$W/rp/m.c" -Wl,--enable-new-dtags,-rpath,/opt/x/lib &&
    cc -o "$W/rp/rpath/m" "$W/rp/m.c" -Wl,--disable-new-dtags,-rpath,'$ORIGIN/../lib' &&
    cc -o "$W/rp/none/m" "$W/rp/m.c"; then
    check "the RPATH check's programs: --enable-new-dtags gives a RUNPATH" sh -c \
        "! readelf -d '$W/rp/runpath/m' | grep -q '(RPATH)' && readelf -d '$W/rp/runpath/m' | grep -q '(RUNPATH)'"
    if no_rpath "$W/rp/runpath" 1 2>/dev/null; then bad "the RPATH check passes a RUNPATH"; else ok "the RPATH check fails a RUNPATH"; fi
    if no_rpath "$W/rp/rpath" 1 2>/dev/null; then bad "the RPATH check passes an RPATH"; else ok "the RPATH check fails an RPATH"; fi
    check "the RPATH check passes a program without" no_rpath "$W/rp/none" 1
else
    bad "cc a program with an RPATH (for the RPATH check)"
fi

version=$(sed -n 's/^#define FSH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
    "$top/include/fairshuf.h" | paste -sd. -)
src=$W/fairshuf-$version
mkdir "$src"
(cd "$top" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$src" ||
    { bad "copy the tree"; finish; exit 1; }
# 1. Build.
if (cd "$src" && dpkg-buildpackage -us -uc -b) >"$W/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b"
else
    tail -n 40 "$W/build.log" | sed 's/^/  /' >&2
    bad "dpkg-buildpackage -us -uc -b"
    finish
    exit 1
fi
arch=$(dpkg --print-architecture)
for p in libfairshuf0 libfairshuf-dev fairshuf fairshuf-mpi; do
    check "$p package built" test -f "$W/${p}_${version}_$arch.deb"
done
# No RPATH nor RUNPATH in any package's programs and libraries (Debian
# policy 10.2; lintian names only some): libfairshuf0's library, the two
# commands (their CLI_RPATH= in debian/rules is what keeps it out).
for p in libfairshuf0:1 libfairshuf-dev:0 fairshuf:1 fairshuf-mpi:1; do
    mkdir -p "$W/x/${p%:*}"
    dpkg-deb -x "$W/${p%:*}_${version}_$arch.deb" "$W/x/${p%:*}" &&
        check "package ${p%:*}: no RPATH or RUNPATH in its ELF files" no_rpath "$W/x/${p%:*}" "${p#*:}"
done
# 2. lintian: nothing left, info tags included (overrides are justified).
changes=$W/fairshuf_${version}_$arch.changes
if command -v lintian >/dev/null 2>&1; then
    lintian -I --pedantic "$changes" 2>&1 | grep -v 'running with root privileges' >"$W/lintian.log"
    if [ -s "$W/lintian.log" ]; then
        sed 's/^/  /' "$W/lintian.log" >&2
        bad "lintian reports tags"
    else
        ok "lintian -I --pedantic: clean"
    fi
else
    bad "lintian not installed"
fi
# 3. Install.
if $SUDO apt-get install -y -qq "$W/libfairshuf0_${version}_$arch.deb" \
    "$W/libfairshuf-dev_${version}_$arch.deb" "$W/fairshuf_${version}_$arch.deb" \
    "$W/fairshuf-mpi_${version}_$arch.deb" >"$W/apt.log" 2>&1; then
    installed=1
    ok "apt-get install the four packages"
else
    sed 's/^/  /' "$W/apt.log" >&2
    bad "apt-get install"
    finish
    exit 1
fi
# The command uses the packaged library, not a copy of it: a fix in
# libfairshuf0 reaches /usr/bin/fairshuf (debian/rules: CLI_SHARED=1). It
# needs libfairshuf.so.0, loads the one libfairshuf0 installed, imports
# the fsh_* functions it calls and defines none, and its package depends
# on libfairshuf0 (shlibs, from the symbols file).
check "/usr/bin/fairshuf needs libfairshuf.so.0" dyn /usr/bin/fairshuf
check "/usr/bin/fairshuf loads libfairshuf0's libfairshuf.so.0" sh -c \
    "l=\$(ldd /usr/bin/fairshuf | awk '\$1 == \"libfairshuf.so.0\" { print \$3 }') &&
     dpkg -S \"\$(readlink -f \"\$l\")\" | grep -q '^libfairshuf0[:]'"
readelf --dyn-syms -W /usr/bin/fairshuf 2>/dev/null | awk '$8 ~ /^fsh_/' >"$W/fsh_syms"
check "/usr/bin/fairshuf imports fsh_shuffle and defines no fsh_* symbol" sh -c \
    "awk '\$8 == \"fsh_shuffle\" && \$7 == \"UND\" { u = 1 } \$7 != \"UND\" { d = 1 }
         END { exit !(u && !d) }' '$W/fsh_syms'"
check "package fairshuf depends on libfairshuf0" sh -c \
    "dpkg-deb -f '$W/fairshuf_${version}_$arch.deb' Depends | grep -q 'libfairshuf0'"
check "fairshuf --version runs" sh -c "fairshuf --version | grep -q '$version'"
check "fairshuf deal runs" sh -c "fairshuf deal -n 5 --poker >/dev/null"
check "man 3 fsh_shuffle finds the page" sh -c "man -w 3 fsh_shuffle >/dev/null 2>&1"
check "man 3 fsh_shuffle_u32 (a link page) formats" \
    sh -c "LC_ALL=C.UTF-8 MANWIDTH=80 man 3 fsh_shuffle_u32 2>/dev/null | grep -q fsh_shuffle_threads"
check "man 1 fairshuf finds the page" sh -c "man -w 1 fairshuf >/dev/null 2>&1"
# fairshuf-mpi: libfairshuf0's library too (not a copy), Open MPI's
# runtime from its package's dependencies, and a small job on two ranks
# gives fairshuf --seed's bytes.
check "/usr/bin/fairshuf-mpi needs libfairshuf.so.0" dyn /usr/bin/fairshuf-mpi
readelf --dyn-syms -W /usr/bin/fairshuf-mpi 2>/dev/null | awk '$8 ~ /^fsh_/' >"$W/fsh_mpi_syms"
check "/usr/bin/fairshuf-mpi imports fsh_records_buckets from libfairshuf0" sh -c \
    "awk '\$8 == \"fsh_records_buckets\" && \$7 == \"UND\" { u = 1 } END { exit !u }' '$W/fsh_mpi_syms'"
check "package fairshuf-mpi depends on libfairshuf0 and openmpi-bin" sh -c \
    "d=\$(dpkg-deb -f '$W/fairshuf-mpi_${version}_$arch.deb' Depends) &&
     echo \"\$d\" | grep -q 'libfairshuf0' && echo \"\$d\" | grep -q 'openmpi-bin' &&
     echo \"\$d\" | grep -q 'libopenmpi'"
check "man 1 fairshuf-mpi finds the page" sh -c "man -w 1 fairshuf-mpi >/dev/null 2>&1"
seq 1 1000 >"$W/seq1000"
mpi_job() {
    _mr="mpirun --oversubscribe"
    [ "$(id -u)" = 0 ] && _mr="$_mr --allow-run-as-root"
    OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_btl_vader_single_copy_mechanism=none \
        timeout 120 $_mr -np 2 fairshuf-mpi --seed=deb "$W/seq1000" \
        </dev/null >"$W/mpi.out" 2>"$W/mpi.err" &&
        fairshuf --seed=deb "$W/seq1000" | cmp -s - "$W/mpi.out" && return 0
    sed 's/^/  /' "$W/mpi.err" | head -n 10 >&2
    return 1
}
check "mpirun -np 2 fairshuf-mpi --seed = fairshuf --seed" mpi_job
seq 1 20 >"$W/seq20"
perm() { "$1" | tr ' ' '\n' | sort -n | cmp -s - "$W/seq20"; }
# 4. pkg-config.
check "pkg-config --modversion fairshuf is $version" \
    test "$(pkg-config --modversion fairshuf)" = "$version"
if cc -o "$W/ex_pc" "$top/examples/shuffle.c" $(pkg-config --cflags --libs fairshuf) 2>"$W/cc.err"; then
    check "pkg-config shared example needs libfairshuf.so.0" dyn "$W/ex_pc"
    check "pkg-config shared example runs" perm "$W/ex_pc"
else
    sed 's/^/  /' "$W/cc.err" >&2
    bad "cc examples/shuffle.c \$(pkg-config --cflags --libs fairshuf)"
fi
if cc -static-libgcc -o "$W/ex_pcs" "$top/examples/shuffle.c" \
    $(pkg-config --cflags --libs --static fairshuf | sed 's/-lfairshuf\b/-l:libfairshuf.a/') 2>"$W/cc.err"; then
    check "pkg-config static example does not need libfairshuf.so" sh -c "! readelf -d '$W/ex_pcs' | grep -q 'NEEDED.*libfairshuf'"
    check "pkg-config static example runs" perm "$W/ex_pcs"
else
    sed 's/^/  /' "$W/cc.err" >&2
    bad "cc examples/shuffle.c with pkg-config --static"
fi
# shellcheck disable=SC2046
check "pkg-config: examples/deal.c builds and deals cards" sh -c \
    "cc -o '$W/deal_pc' '$top/examples/deal.c' $(pkg-config --cflags --libs fairshuf) &&
     '$W/deal_pc' | grep -q '^[2-9TJQKA][cdhs]\( [2-9TJQKA][cdhs]\)*\$'"
# 5. CMake.
if command -v cmake >/dev/null 2>&1; then
    if cmake -S "$top/tests/pkg/consumer" -B "$W/cb" -DFSH_TOP="$top" \
        -DFSH_WANT="$version" >"$W/cmake.log" 2>&1 && cmake --build "$W/cb" >>"$W/cmake.log" 2>&1; then
        ok "CMake find_package(fairshuf $version) and build"
        check "CMake shared example needs libfairshuf.so.0" dyn "$W/cb/shuffle_shared"
        check "CMake shared example runs" perm "$W/cb/shuffle_shared"
        check "CMake static example does not need libfairshuf.so" \
            sh -c "! readelf -d '$W/cb/shuffle_static' | grep -q 'NEEDED.*libfairshuf'"
        check "CMake static example runs" perm "$W/cb/shuffle_static"
        for k in shared static; do
            check "CMake examples/deal.c ($k) deals cards" sh -c \
                "'$W/cb/deal_$k' | grep -q '^[2-9TJQKA][cdhs]\( [2-9TJQKA][cdhs]\)*\$'"
        done
    else
        sed 's/^/  /' "$W/cmake.log" >&2
        bad "CMake configure and build against the package"
    fi
else
    bad "cmake not installed"
fi
# 6. Remove.
if $SUDO apt-get purge -y -qq fairshuf-mpi fairshuf libfairshuf-dev libfairshuf0 >"$W/apt.log" 2>&1; then
    installed=0
    ok "apt-get purge the packages"
    check "nothing left in /usr/include" test ! -e /usr/include/fairshuf.h
else
    sed 's/^/  /' "$W/apt.log" >&2
    bad "apt-get purge"
fi
finish
