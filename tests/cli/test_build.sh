#!/bin/sh
# SPDX-License-Identifier: MIT
# The Makefile relinks the command when its link mode changes on a built
# tree (CLI_STATIC= for a dynamic link, CLI_SHARED=1 against libfairshuf.so,
# back to the default), and only then: a second make in the same mode
# links nothing. Run on a copy of the tree's objects and libraries with
# their times kept (cp -p), so make only links, into a directory of its
# own: the binary under test is never touched. The default build only (a
# sanitizer build links with its runtimes; its objects are another tree).
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
finish
