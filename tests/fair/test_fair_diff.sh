#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 66 (its usual wall time in s: longest first)
# Differential and hostile tests of fairshuf-deal-v1's five implementations:
# the library (through `fairshuf deal` and the test_fair helper), the
# command (`fairshuf deal`, JSON and text, and `fairshuf verify`),
# examples/verify_deal.py, the Python package (fair_order, fair_verify) and
# web/verify.html (headless Chromium, for a subset: it is slow). Rounds with
# a fixed seed (tests/fair/fair_diff.py): random ones and edge cases (seeds
# at the minimum and at segment boundaries, 4 KiB and 38 KiB seeds, client
# seeds empty, of exactly 256 bytes in 1- to 4-byte characters, with JSON
# escapes, control bytes, Unicode spaces, a NUL; nonces 0, 2^53 + 1, 2^63,
# 2^64 - 1; 1 to 8 and 1000 decks, 0-2 jokers, every card burned or in
# hands, both layouts). For each: the deal order four ways, deal's JSON
# and text against the text of docs/FAIRNESS.md, VALID from every verifier
# (JSON with and without the revealed seed, options and cards), then
# tampered rounds (a bit of the seed, a digit of the commitment, a card
# changed, two swapped, the nonce, the client seed, the decks, the jokers),
# which all must reject with the same verdict, and three random one-byte
# changes of the JSON, on which all must agree; one hand alone (--hand:
# honest, a card changed, past the last hand) and the rest alone (--rest),
# where the command and verify_deal.py give the same lines and messages. Then hostile JSON (strict
# reading: duplicate names, NaN, numbers as 1.0, 1e1, -0, 5000 digits,
# surrogates, NUL, BOM, trailing data, nesting and member limits, bytes
# that are no UTF-8, the 8 MiB cap), the options at their limits (client
# seeds of 256/257 bytes and not UTF-8, nonces and decks past their range,
# seeds one byte short), the round's shape (--burn, --players, --cards,
# --layout, --hand, --rest) and getopt's reading, where fairshuf verify and verify_deal.py
# must give the same lines and messages, and custom faces (package,
# library, Python text). Every comparison of the lines and messages of
# fairshuf verify and verify_deal.py is made in the C locale and in a
# UTF-8 one (C.UTF-8, else en_US.UTF-8): quote()'s 'x' and ‘x’, quotef's
# file names, printable multibyte characters, and every refusal of a deal
# JSON (the reader's reason and byte offset, the member it names).
# The page gets about 130 of the rounds and documents, each with what
# `fairshuf verify` says of the same input in a UTF-8 locale: its problem
# lines must be the command's NOT VALID lines, or "bad input: " and its
# message, word for word (not under the sanitizers).
# A verdict is VALID, NOT VALID or bad input; a traceback, a signal or
# another exit status never agrees. Parts are skipped, with the reason,
# without the package build (make python-ext), node or chromium.
NAME=test_fair_diff
. "$(dirname "$0")/../cli/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=${FSH_PYTHON:-/usr/bin/python3}
if [ ! -x "$PY" ]; then
    skipped "no $PY"
    finish
    exit $?
fi
top=$(dirname "$FAIRSHUF")
helper=-
for h in "$top/tests/test_fair" "$top/build/tests/test_fair"; do
    [ -x "$h" ] && { helper=$h; break; }
done
# The package make check builds (mk/python.mk); not under the sanitizers.
pkg=-
for d in "$top/build/python/lib" "$top/python/lib"; do
    if [ -z "${FSH_SANITIZE:-}" ] && ls "$d"/fairshuf/_fairshuf*.so >/dev/null 2>&1; then
        pkg=$d
        break
    fi
done
rounds=80
[ "$slow" = 1 ] && rounds=30

"$PY" "$ROOT/tests/fair/fair_diff.py" "$FAIRSHUF" "$ROOT/examples/verify_deal.py" "$T" "$pkg" \
    "$helper" "$rounds" "$T/vectors.json" >"$T/diff.out" 2>"$T/diff.err"
rc=$?
check "fair_diff.py ran to its end (exit $rc: $(tail -c 1500 "$T/diff.err"))" \
    sh -c "[ $rc = 0 ] && grep -q '^summary ' '$T/diff.out'"
while IFS= read -r line; do
    case $line in
    "ok "*) ok ;;
    "not ok "*) bad "${line#not ok }" ;;
    "skip "*) skipped "${line#skip }" ;;
    esac
done <"$T/diff.out"

# The page, on the vectors every other verifier agreed on.
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
pw=
for d in "$ROOT/tests/fair/node_modules/playwright-core" \
    "$(npm root -g 2>/dev/null)/playwright-core"; do
    [ -f "$d/package.json" ] && { pw=$d; break; }
done
if ! command -v node >/dev/null 2>&1; then
    skipped "web/verify.html: node is not installed"
elif [ ! -x "$CHROMIUM" ]; then
    skipped "web/verify.html: chromium is not installed"
elif [ -z "$pw" ]; then
    bad "playwright-core not found: npm install --prefix tests/fair playwright-core"
elif [ -s "$T/vectors.json" ]; then
    FSH_FAST_FILL=1 node "$ROOT/tests/fair/browser.mjs" "$pw" "${FSH_VERIFY_HTML:-$ROOT/web/verify.html}" \
        "$T/vectors.json" "$T/shot.png" >"$T/browser.out" 2>"$T/browser.err"
    rc=$?
    check "browser.mjs ran (exit $rc: $(head -c 600 "$T/browser.err"))" [ "$rc" = 0 ]
    while IFS= read -r line; do
        case $line in
        "ok "*) ok ;;
        "not ok "*) bad "web/verify.html: ${line#not ok }" ;;
        esac
    done <"$T/browser.out"
    check "at least 100 browser checks ran" [ "$(grep -c '^ok ' "$T/browser.out")" -ge 100 ]
fi
finish
