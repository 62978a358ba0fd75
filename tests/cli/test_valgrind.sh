#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 11 (its usual wall time in s: longest first)
# The CLI under valgrind memcheck: no invalid reads or writes, no use of
# uninitialised values, no leaks, on every main path (file, pipe, -e, -i
# sparse, -n reservoir, -r, -z, --seed, -o, external mode, deal, errors).
# Skipped under the sanitizer build (ASan and valgrind do not mix) and when
# valgrind is missing.
NAME=test_valgrind
. "$(dirname "$0")/lib.sh"

if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "sanitizer build"
    finish
    exit
fi
if ! command -v valgrind >/dev/null 2>&1; then
    skipped "valgrind not installed"
    finish
    exit
fi

seq 1 3000 >"$T/in"
printf 'a\0b\0c' >"$T/inz"
head -c 4096 /dev/urandom >"$T/rand"

# vg DESCRIPTION EXPECTED_STATUS COMMAND...: memcheck finds nothing (its
# own exit status 99 marks an error) and the command exits as expected.
vg() {
    _d=$1
    _want=$2
    shift 2
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" >"$T/out" 2>"$T/err"
    _st=$?
    if [ "$_st" -eq "$_want" ]; then
        ok
    else
        bad "$_d: exit $_st (want $_want): $(head -c 600 "$T/err")"
    fi
}

# valgrind replaces malloc only in a dynamically linked binary (lib.sh:
# dynamic).
if ! F=$(dynamic); then
    bad "no dynamically linked fairshuf for valgrind (make build/dyn/fairshuf)"
    finish
    exit $?
fi
vg "file" 0 "$F" "$T/in"
vg "pipe" 0 sh -c '"$1" <"$2"' sh "$F" "$T/in"
vg "echo" 0 "$F" -e a b c d
vg "range" 0 "$F" -i 1-1000
vg "sparse range" 0 "$F" -i 1-18446744073709551615 -n 50
vg "reservoir" 0 sh -c 'cat "$2" | "$1" -n 7' sh "$F" "$T/in"
vg "repeat" 0 "$F" -r -n 100 "$T/in"
vg "zero" 0 "$F" -z "$T/inz"
vg "seed" 0 "$F" --seed=vg "$T/in"
vg "random source" 0 "$F" --random-source="$T/rand" "$T/in"
vg "output file" 0 "$F" -o "$T/o" "$T/in"
vg "external" 0 "$F" --memory=4K -T "$T" "$T/in"
vg "header and shards" 0 "$F" --header=1 --shards=3 --output-prefix="$T/s" "$T/in"
vg "deal" 0 "$F" deal
vg "bad range" 1 "$F" -i 5-3
vg "missing file" 1 "$F" "$T/nope"
vg "write error" 1 "$F" -o /dev/full "$T/in"
finish
