#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed headers as a consumer compiles them: include/fairshuf.h
# (and include/fairshuf_mpi.h where mpi.h is found) included twice, every
# FSH_* constant used, with -Wall -Wextra -Wpedantic -Werror, by gcc and
# clang as C99, C11, C17 and C23 (-std=c2x), and by g++ and clang++ as
# C++11, 14, 17 and 20 with -Wold-style-cast too (C-style casts in the
# constants, such as ((uint64_t)65536), failed a C++ build that treats
# them as errors; UINT64_C() needs no cast). Each compiler that is
# installed; a standard it does not know is skipped.
# The same after the object-like macros other headers define (windows.h's
# min, max, small, near, far, interface) and after consumer macros named
# like the attribute arguments the header uses (the header must spell them
# __visibility__ and __warn_unused_result__, reserved names no consumer
# macro takes, as glibc does). Every macro the header defines beyond
# <stddef.h> and <stdint.h> is FSH_* (or the include guard FAIRSHUF_H),
# and every name it declares at file scope is fsh_* or FSH_*.
NAME=test_header
. "$(dirname "$0")/lib.sh"
top=$(pwd)
[ -f "$top/include/fairshuf.h" ] || { bad "run from the source tree's top"; finish; exit 1; }
inc=$top/include
# The sanitizer runs change nothing here: the header is compiled alone.
if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "the header is compiled the same in the sanitizer run"
    finish
    exit 0
fi
W="-Wall -Wextra -Wpedantic -Werror"

# A consumer's translation unit: the header twice, a call, and every
# constant the header defines (object-like FSH_* macros), so that the
# compiler sees their expansions in the consumer's code (C++: as casts).
sed -n 's/^#define \(FSH_[A-Z0-9_]*\) .*/\1/p' "$inc/fairshuf.h" |
    grep -v '^FSH_API$\|^FSH_NODISCARD$' >"$T/consts"
check "the header defines constants" test "$(wc -l <"$T/consts")" -gt 10
{
    printf '#include <fairshuf.h>\n#include <fairshuf.h>\nint main(void)\n{\n'
    printf '    fsh_rng *rng = 0;\n'
    printf '    unsigned v = fsh_version_number() + FSH_VERSION_NUMBER;\n'
    sed 's/.*/    (void)(&);/' "$T/consts"
    printf '    fsh_rng_free(rng);\n    return v == 0 ? FSH_EINVAL : FSH_OK;\n}\n'
} >"$T/use.c"
cp "$T/use.c" "$T/use.cpp"
# Macros a consumer may have defined before the header: windows.h's, and
# two named like the attribute arguments.
cat >"$T/macros.h" <<'EOF'
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define small char
#define near
#define far
#define interface struct
#define visibility +
#define warn_unused_result +
EOF

# knows CC STD LANG: CC accepts -std=STD.
knows() { echo 'int x;' | "$1" -std="$2" -x "$3" -fsyntax-only - >/dev/null 2>&1; }
# compiles CC STD SRC [FLAGS]: CC -std=STD compiles SRC cleanly.
compiles() {
    _cc=$1 _std=$2 _src=$3
    shift 3
    # shellcheck disable=SC2086
    "$_cc" -std="$_std" $W -fsyntax-only -I"$inc" "$@" "$_src" >"$T/cc.err" 2>&1 && return 0
    sed 's/^/  /' "$T/cc.err" | head -n 10 >&2
    return 1
}
n=0
for cc in gcc clang; do
    command -v "$cc" >/dev/null 2>&1 || { skipped "$cc not installed"; continue; }
    for std in c99 c11 c17 c2x; do
        knows "$cc" "$std" c || { skipped "$cc does not know -std=$std"; continue; }
        n=$((n + 1))
        check "$cc -std=$std: fairshuf.h included twice compiles cleanly" compiles "$cc" "$std" "$T/use.c"
    done
    check "$cc -std=c11: fairshuf.h after windows.h-like and attribute-named macros" \
        compiles "$cc" c11 "$T/use.c" -include "$T/macros.h"
done
for cxx in g++ clang++; do
    command -v "$cxx" >/dev/null 2>&1 || { skipped "$cxx not installed"; continue; }
    for std in c++11 c++14 c++17 c++20; do
        knows "$cxx" "$std" c++ || { skipped "$cxx does not know -std=$std"; continue; }
        n=$((n + 1))
        check "$cxx -std=$std: fairshuf.h included twice compiles cleanly" \
            compiles "$cxx" "$std" "$T/use.cpp" -Wold-style-cast
    done
    check "$cxx -std=c++17: fairshuf.h after windows.h-like and attribute-named macros" \
        compiles "$cxx" c++17 "$T/use.cpp" -include "$T/macros.h"
done
[ "$n" -gt 0 ] || bad "no C or C++ compiler found"

# The header's namespace, read off the preprocessor (gcc or clang, C11).
pp=
for cc in gcc clang cc; do command -v "$cc" >/dev/null 2>&1 && { pp=$cc; break; }; done
if [ -n "$pp" ]; then
    printf '#include <stddef.h>\n#include <stdint.h>\n' |
        "$pp" -std=c11 -dM -E -x c - | sed -n 's/^#define \([A-Za-z0-9_]*\).*/\1/p' | sort -u >"$T/base"
    printf '#include <fairshuf.h>\n' |
        "$pp" -std=c11 -dM -E -I"$inc" -x c - | sed -n 's/^#define \([A-Za-z0-9_]*\).*/\1/p' | sort -u >"$T/all"
    comm -13 "$T/base" "$T/all" | grep -v '^FSH_' | grep -vx FAIRSHUF_H >"$T/macros.out"
    check "fairshuf.h defines FSH_* macros only (others: $(tr '\n' ' ' <"$T/macros.out"))" \
        test ! -s "$T/macros.out"
    # File-scope names: what the header's own lines declare, once the
    # standard headers' lines are dropped (linemarkers say whose a line is).
    printf '#include <fairshuf.h>\n' | "$pp" -std=c11 -E -I"$inc" -x c - |
        awk '/^# [0-9]+ "/ { own = index($3, "fairshuf.h\"") > 0; next } own' >"$T/own.c"
    # typedef names, struct/enum tags, enumerators, function names.
    {
        sed -n 's/.*typedef .*[ *]\([A-Za-z_][A-Za-z0-9_]*\) *;.*/\1/p' "$T/own.c"
        grep -o '\(struct\|enum\|union\) [A-Za-z_][A-Za-z0-9_]*' "$T/own.c" | awk '{ print $2 }'
        # enumerators: the first name of each item between an enum's braces
        tr '\n' ' ' <"$T/own.c" | grep -o 'enum[^{};]*{[^}]*}' | sed 's/^[^{]*{//; s/}$//' |
            tr ',' '\n' | sed -n 's/^ *\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p'
        # a name before "(" that is not "(*" (a pointer's declarator) or
        # "((" (an attribute's)
        tr '\n' ' ' <"$T/own.c" | grep -o '[A-Za-z_][A-Za-z0-9_]* *( *[A-Za-z_]' |
            sed 's/ *(.*//'
    } | sort -u >"$T/names"
    grep -v '^fsh_\|^FSH_' "$T/names" >"$T/names.out"
    check "fairshuf.h declares fsh_*/FSH_* names only (others: $(tr '\n' ' ' <"$T/names.out"))" \
        test ! -s "$T/names.out"
    check "the namespace check sees the header's declarations" grep -qx fsh_shuffle "$T/names"
else
    bad "no C compiler for the namespace check"
fi

# fairshuf_mpi.h, where Open MPI's mpi.h is there (its own warnings are
# Open MPI's: its directories are system directories here).
mpiflags=
if command -v mpicc >/dev/null 2>&1; then
    mpiflags=$(mpicc --showme:compile 2>/dev/null | sed 's/-I/-isystem /g')
fi
if [ -n "$mpiflags" ]; then
    sed 's/fairshuf\.h/fairshuf_mpi.h/' "$T/use.c" >"$T/use_mpi.c"
    cp "$T/use_mpi.c" "$T/use_mpi.cpp"
    for cc in gcc clang; do
        command -v "$cc" >/dev/null 2>&1 || continue
        for std in c99 c11; do
            # shellcheck disable=SC2086
            check "$cc -std=$std: fairshuf_mpi.h included twice compiles cleanly" \
                compiles "$cc" "$std" "$T/use_mpi.c" $mpiflags
        done
    done
    for cxx in g++ clang++; do
        command -v "$cxx" >/dev/null 2>&1 || continue
        # shellcheck disable=SC2086
        check "$cxx -std=c++17: fairshuf_mpi.h included twice compiles cleanly" \
            compiles "$cxx" c++17 "$T/use_mpi.cpp" $mpiflags
    done
else
    skipped "no mpicc: fairshuf_mpi.h not compiled"
fi
finish
