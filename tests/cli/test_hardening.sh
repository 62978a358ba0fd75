#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed binaries are hardened (issue 14): with readelf (binutils),
# ./fairshuf built by plain make is a PIE (ELF type DYN), has a GNU_RELRO
# segment and immediate binding (BIND_NOW or FLAGS_1 NOW), calls the stack
# protector (__stack_chk_fail) and fortified libc functions (__*_chk);
# libfairshuf.so beside it has RELRO and BIND_NOW too. Sanitizer builds
# (FSH_SANITIZE set) drop fortify: skipped there.
NAME=test_hardening
. "$(dirname "$0")/lib.sh"
F=$FAIRSHUF
if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "sanitizer build (no fortify)"
    finish
    exit 0
fi
command -v readelf >/dev/null 2>&1 || { bad "readelf not found (binutils)"; finish; exit 1; }
readelf -hW "$F" >"$T/h" 2>&1 && readelf -lW "$F" >"$T/l" 2>&1 &&
    readelf -dW "$F" >"$T/d" 2>&1 ||
    { bad "readelf cannot read $F"; finish; exit 1; }
# A static PIE (no INTERP segment: what plain make links when it can, see
# the Makefile's CLI_STATIC) has no dynamic symbols; its own symbol table
# names the same functions.
if grep -q INTERP "$T/l"; then syms=--dyn-syms; else syms=--syms; fi
readelf $syms -W "$F" >"$T/s" 2>&1 || { bad "readelf cannot read $F"; finish; exit 1; }
check "fairshuf is PIE (type DYN)" grep -q 'Type:[[:space:]]*DYN' "$T/h"
check "fairshuf has a GNU_RELRO segment" grep -q 'GNU_RELRO' "$T/l"
check "fairshuf binds now (BIND_NOW or FLAGS_1 NOW)" \
    grep -Eq '\(BIND_NOW\)|\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' "$T/d"
check "fairshuf has FLAGS_1 PIE" grep -Eq '\(FLAGS_1\).*PIE' "$T/d"
if [ $syms = --syms ] && ! grep -q 'main' "$T/s"; then
    skipped "static fairshuf is stripped: no symbols to find the stack protector and fortify in"
else
    check "fairshuf calls __stack_chk_fail (stack protector)" grep -q '__stack_chk_fail' "$T/s"
    check "fairshuf calls fortified libc functions (__*_chk)" \
        grep -Eq '__(memcpy|memset|memmove|snprintf|vsnprintf|fprintf|vfprintf|printf|read|fgets|strcpy|explicit_bzero)_chk' "$T/s"
fi
so=$(dirname "$F")/libfairshuf.so
if [ -f "$so" ]; then
    readelf -lW "$so" >"$T/sl" 2>&1 && readelf -dW "$so" >"$T/sd" 2>&1
    check "libfairshuf.so has a GNU_RELRO segment" grep -q 'GNU_RELRO' "$T/sl"
    check "libfairshuf.so binds now" grep -Eq '\(BIND_NOW\)|\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' "$T/sd"
    check "libfairshuf.so calls __stack_chk_fail" sh -c "readelf --dyn-syms -W '$so' | grep -q __stack_chk_fail"
else
    skipped "no libfairshuf.so beside $F"
fi
finish
