#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's library example is real code: every ```c block of README.md
# is compiled with -Werror against the tree's header and the static
# library beside the binary under test, and run; it must exit 0 and print
# "first of 1000: N, a card: C" with N in 0..999 and C a card name. The
# shell block of "Cards, shoes and provably fair deals" runs as written
# (fairshuf on PATH, from a copy of examples/): every command succeeds and
# both verifiers say VALID.
NAME=test_readme
. "$(dirname "$0")/lib.sh"
top=$(pwd)
CC=${CC:-cc}
[ -f "$top/README.md" ] || { bad "run from the source tree's top"; finish; exit 1; }
lib=$(dirname "$FAIRSHUF")/libfairshuf.a
xflags=
[ -n "${FSH_SANITIZE:-}" ] && xflags="-fsanitize=address,undefined"
awk -v dir="$T" '
    /^```c$/ { n++; f = dir "/readme" n ".c"; on = 1; next }
    /^```/ { on = 0; next }
    on { print > f }
' "$top/README.md"
set -- "$T"/readme*.c
[ -f "$1" ] || { bad "README.md has no \`\`\`c block"; finish; exit 1; }
for src in "$@"; do
    # shellcheck disable=SC2086
    if "$CC" -std=c11 -Wall -Wextra -Werror $xflags -I"$top/include" \
        -o "$src.bin" "$src" "$lib" -lsodium -lm -lpthread 2>"$T/cc.err"; then
        ok
    else
        sed 's/^/  /' "$T/cc.err" >&2
        bad "$(basename "$src") does not compile"
        continue
    fi
    out=$("$src.bin") && ok || bad "$(basename "$src") exited $?"
    echo "$out" | grep -Eq '^first of 1000: ([0-9]|[1-9][0-9]{1,2}), a card: (10|[2-9JQKA])(♣|♦|♥|♠)$' &&
        ok || bad "$(basename "$src") printed: $out"
done
blk="$T/cards.sh"
awk '/^## Cards, shoes/ { f = 1 } f && /^```sh$/ { on = 1; next }
     on && /^```$/ { exit } on { print }' "$top/README.md" >"$blk"
if [ ! -s "$blk" ]; then
    bad "README.md has no shell block under \"Cards, shoes\""
elif ! command -v python3 >/dev/null 2>&1; then
    skipped "python3 not installed: README's cards block not run"
else
    mkdir "$T/cards" && cp -r "$top/examples" "$T/cards/" &&
        (cd "$T/cards" && PATH="$(dirname "$FAIRSHUF"):$PATH" sh -e "$blk") \
            >"$T/cards.out" 2>&1
    rc=$?
    check "README cards block runs (exit $rc)" test "$rc" = 0
    check "README cards block: two verifiers say VALID" \
        test "$(grep -c '^VALID' "$T/cards.out")" = 2
fi
# docs/CARDS.md's seeded examples ("$ fairshuf ... --seed=..." and the
# lines after it in its block) are what the command prints (the table
# example once showed "... (47 cards)", which the command never printed).
awk -v dir="$T" '
    /^```/ { on = 0 }
    /^\$ fairshuf .*--seed=/ { n++; on = 1; print substr($0, 3) > (dir "/ex" n ".cmd"); next }
    on { print > (dir "/ex" n ".want") }
' "$top/docs/CARDS.md"
set -- "$T"/ex*.cmd
if [ -f "$1" ]; then
    for c in "$@"; do
        w=${c%.cmd}.want
        (PATH="$(dirname "$FAIRSHUF"):$PATH" sh -c "$(cat "$c")") >"$c.out" 2>&1
        check "CARDS.md: $(cat "$c") prints what the page shows" cmp -s "$c.out" "$w"
    done
else
    bad "docs/CARDS.md has no seeded \$ fairshuf example"
fi
finish
