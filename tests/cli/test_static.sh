#!/bin/sh
# SPDX-License-Identifier: MIT
# The static libraries as a consumer links them: every global symbol
# libfairshuf.a defines is fsh_*, and a program that defines functions of
# its own under the names of the library's static helpers (chacha_block,
# usage_error and every local function name nm finds in the archive)
# links with it and runs. The same for libfairshuf_mpi.a (when Open MPI's
# mpicc and make mpi's libraries are there), the build tree's and the one
# make install-mpi installs: its internals (fshm_*, hidden in
# libfairshuf_mpi.so) were global in the archive, so such a program failed
# to link ("multiple definition of fshm_open"); both archives have them
# local (the build tree's kept them global until session 23). Its
# consumer, linked statically against either and against the installed
# shared libraries, shuffles as a singleton MPI process (no mpirun).
NAME=test_static
. "$(dirname "$0")/lib.sh"
F=$FAIRSHUF
top=$(pwd)
CC=${CC:-cc}
command -v nm >/dev/null 2>&1 || { bad "nm (binutils) not found"; finish; exit 1; }
[ -f "$top/Makefile" ] && [ -f "$top/include/fairshuf.h" ] || {
    bad "run from the source tree's top (tests/run.sh does)"
    finish
    exit 1
}
out=$(dirname "$F")
case $out in "$top" | .) out=. build=build ;; *) build=$out ;; esac
liba=$top/$out/libfairshuf.a
case $out in /*) liba=$out/libfairshuf.a ;; esac
[ -f "$liba" ] || { bad "no libfairshuf.a beside $F"; finish; exit 1; }
xflags=
[ -n "${FSH_SANITIZE:-}" ] && xflags="-fsanitize=address,undefined"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# globals ARCHIVE: the global symbols ARCHIVE defines that are not fsh_*
# (a sanitizer build's instrumentation adds its own __* names).
globals() {
    nm -g --defined-only "$1" | awk 'NF >= 3 { print $3 }' | grep -v '^fsh_' |
        { if [ -n "${FSH_SANITIZE:-}" ]; then grep -v '^__'; else cat; fi; } | sort -u
}
# clash ARCHIVE EXTRA...: a C file defining a function under each local
# function name of ARCHIVE (and each EXTRA name), with a table of them.
clash() {
    _a=$1
    shift
    {
        nm "$_a" | awk '$2 == "t" { print $3 }'
        for _n in "$@"; do echo "$_n"; done
    } | grep '^[A-Za-z_][A-Za-z0-9_]*$' | grep -v '^fsh_\|^main$\|^_' | sort -u >"$T/names"
    {
        while IFS= read -r _n; do
            echo "int $_n(void);"
            echo "int $_n(void) { return 1; }"
        done <"$T/names"
        echo "int (*const consumer_own[])(void) = {"
        sed 's/$/,/' "$T/names"
        echo "};"
    }
}

globals "$liba" >"$T/g"
check "libfairshuf.a defines fsh_* globals only (others: $(tr '\n' ' ' <"$T/g"))" test ! -s "$T/g"
clash "$liba" chacha_block usage_error >"$T/own.c"
check "the clash file names the archive's static helpers" test "$(wc -l <"$T/names")" -gt 10
cat >"$T/main.c" <<'EOF'
#include <fairshuf.h>
#include <stdio.h>
extern int (*const consumer_own[])(void);
int main(void)
{
    fsh_rng *rng;
    unsigned a[6] = {1, 2, 3, 4, 5, 6}, sum = 0;
    if (fsh_rng_new_seeded(&rng, "static", 6) != FSH_OK || fsh_rng_set_simulation(rng, 1) != FSH_OK ||
        fsh_shuffle_u32(rng, a, 6) != FSH_OK)
        return 1;
    for (int i = 0; i < 6; i++)
        sum += a[i];
    fsh_rng_free(rng);
    printf("%u %d\n", sum, consumer_own[0]());
    return 0;
}
EOF
# shellcheck disable=SC2086
if "$CC" $xflags -o "$T/own" "$T/main.c" "$T/own.c" -I"$top/include" "$liba" \
    -lsodium -lm -lpthread 2>"$T/cc.err"; then
    check "a program with functions named like libfairshuf.a's helpers runs" \
        sh -c "'$T/own' | grep -qx '21 1'"
else
    sed 's/^/  /' "$T/cc.err" | head -n 5 >&2
    bad "a program with functions named like libfairshuf.a's helpers links with libfairshuf.a"
fi

# libfairshuf_mpi.a as make mpi builds it and as make install-mpi
# installs it.
mpia=$(dirname "$liba")/libfairshuf_mpi.a
if ! command -v mpicc >/dev/null 2>&1 || [ ! -f "$mpia" ]; then
    skipped "no mpicc or no libfairshuf_mpi.a (make mpi): the MPI archive is not checked"
    finish
    exit 0
fi
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
# The internals' names: mpi/internal.h's FSHM_HIDDEN declarations (not
# the archive's symbols, which are what is checked).
sed -n 's/^FSHM_HIDDEN [^(]*[ *]\(fshm_[a-z0-9_]*\)(.*/\1/p' "$top/mpi/internal.h" >"$T/internal"
check "mpi/internal.h declares the internals (fshm_open, ...)" \
    sh -c "[ \$(wc -l <'$T/internal') -gt 10 ] && grep -qx fshm_open '$T/internal'"
cat >"$T/mpi.c" <<'EOF'
#include <fairshuf_mpi.h>
#include <stdio.h>
extern int (*const consumer_own[])(void);
int main(int argc, char **argv)
{
    fsh_rng *rng;
    uint64_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, sum = 0;
    int st;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    if (fsh_rng_new_seeded(&rng, "static", 6) != FSH_OK || fsh_rng_set_simulation(rng, 1) != FSH_OK)
        return 1;
    st = fsh_mpi_shuffle(MPI_COMM_WORLD, rng, a, 8, sizeof a[0], 1, NULL);
    for (int i = 0; i < 8; i++)
        sum += a[i];
    fsh_rng_free(rng);
    MPI_Finalize();
    printf("%s %u %d\n", fsh_mpi_strerror(st), (unsigned)sum, consumer_own[0]());
    return st != FSH_OK;
}
EOF
# mpirun: a singleton MPI process (Open MPI starts it alone); the same
# environment test_mpi.sh gives its runs.
mpienv="OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1"
# Under ASan, no leak report: what Open MPI never frees would end the run
# before stdout is flushed (test_mpi.sh checks leaks, with suppressions).
[ -n "${FSH_SANITIZE:-}" ] && mpienv="$mpienv ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# mpi_static WHICH MPIA LIBA INC: MPIA defines fsh_* globals only, and the
# program above, with functions named like MPIA's internals and local
# helpers, links with MPIA and LIBA (the headers in INC) and runs.
mpi_static() {
    globals "$2" >"$T/g"
    check "$1 libfairshuf_mpi.a defines fsh_* globals only (others: $(tr '\n' ' ' <"$T/g"))" \
        test ! -s "$T/g"
    # shellcheck disable=SC2046
    clash "$2" $(cat "$T/internal") >"$T/own_mpi.c"
    # shellcheck disable=SC2086
    if mpicc $xflags -o "$T/own_mpi" "$T/mpi.c" "$T/own_mpi.c" -I"$4" \
        "$2" "$3" -lsodium -lm -lpthread 2>"$T/cc.err"; then
        check "$1 libfairshuf_mpi.a: a program with functions named like its internals runs" \
            sh -c "env $mpienv $TO '$T/own_mpi' </dev/null 2>/dev/null | grep -qx 'success 36 1'"
    else
        sed 's/^/  /' "$T/cc.err" | head -n 5 >&2
        bad "$1 libfairshuf_mpi.a: a program with functions named like its internals links with it"
    fi
}
mpi_static "the build tree's" "$mpia" "$liba" "$top/include"
mpi_static "the installed" "$P/lib/libfairshuf_mpi.a" "$P/lib/libfairshuf.a" "$P/include"
# shellcheck disable=SC2086
if mpicc $xflags -o "$T/dyn_mpi" "$T/mpi.c" "$T/own_mpi.c" -I"$P/include" -L"$P/lib" \
    -lfairshuf_mpi -lfairshuf 2>"$T/cc.err"; then
    check "the same program against the installed shared libraries runs" \
        sh -c "env $mpienv LD_LIBRARY_PATH='$P/lib' $TO '$T/dyn_mpi' </dev/null 2>/dev/null |
            grep -qx 'success 36 1'"
else
    sed 's/^/  /' "$T/cc.err" | head -n 5 >&2
    bad "mpicc ... -lfairshuf_mpi -lfairshuf against the installed libraries"
fi
finish
