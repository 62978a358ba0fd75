#!/bin/sh
# SPDX-License-Identifier: MIT
# web/verify.html in a real headless browser: Debian's chromium driven by
# tests/fair/browser.mjs (playwright-core from npm, installed by .ci/run
# into tests/fair/node_modules). Vectors come from the C library (`fairshuf
# verify --print-order`): one deck, jokers, a 2-deck and an 8-deck shoe, a
# random 3-deck shoe with a joker, the deal JSON, and tampered rounds that
# must show NOT VALID with what differs. Keeps a screenshot in $T (set
# FSH_SCREENSHOT=path to keep it, e.g. docs/img/verify.png). Skipped only
# when chromium or node is not installed.
NAME=test_browser
. "$(dirname "$0")/../cli/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
if ! command -v node >/dev/null 2>&1; then
    skipped "node is not installed (apt-get install nodejs)"
    finish
    exit $?
fi
if [ ! -x "$CHROMIUM" ]; then
    skipped "chromium is not installed (apt-get install chromium)"
    finish
    exit $?
fi
pw=
for d in "$ROOT/tests/fair/node_modules/playwright-core" \
    "$(npm root -g 2>/dev/null)/playwright-core"; do
    [ -f "$d/package.json" ] && { pw=$d; break; }
done
if [ -z "$pw" ]; then
    bad "playwright-core not found: npm install --prefix tests/fair playwright-core"
    finish
    exit $?
fi
if ! command -v python3 >/dev/null 2>&1; then
    bad "python3 is needed to write the vectors"
    finish
    exit $?
fi

S1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
C1=630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd
S2=f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687
C2=6dde9e258487f14ccf87ea63efc2327dcbc912c12eb04544c292fea94731f059
S3=0b30557a9fc4e90e33587da2c7ec11365b80a5caef14395e83a8cdf2173c6186abd0f51a3f6489aed3f81d42678cb1d6fb20456a8fb4d9fe23486d92b7dc0126
C3=94eb5de4943613fd048dc93393ab06877405faa39c11f53e9386083339833e7e
S4=$(awk 'BEGIN { for (k = 0; k < 280; k++) printf "%02x", (131 * k + 7) % 256 }')
C4=c6561263ef0a9cd07c57206526e45240a75f3e6ddaef92a37e5dde0996c2d0a2
S5=$(python3 -c 'import random; r = random.Random(5); print(bytes(r.randrange(256) for _ in range(120)).hex())')
C5=$(printf %s "$S5" | python3 -c 'import sys, hashlib; print(hashlib.sha256(bytes.fromhex(sys.stdin.read())).hexdigest())')
N5=9007199254740993 # 2^53 + 1: not exact as a JavaScript number
order() { "$FAIRSHUF" verify --print-order "$@"; }
O1=$(order --server-seed=$S1 --client-seed=player-1) &&
O2=$(order --server-seed=$S2 --client-seed="Zoë 🂡" --nonce=1 --jokers=2) &&
O3=$(order --server-seed=$S3 --client-seed=alice --nonce=42 --decks=2) &&
O4=$(order --server-seed=$S4 --nonce=18446744073709551615 --decks=8) &&
O5=$(order --server-seed=$S5 --client-seed="ŝeed ♠ 5" --nonce=$N5 --decks=3 --jokers=1) ||
    bad "fairshuf verify --print-order failed"

python3 - "$T/vectors.json" <<PYEOF
import json, sys
O1, O2, O3, O4, O5 = """$O1""", """$O2""", """$O3""", """$O4""", """$O5"""
d1 = O1.split()
tampered = d1[:4] + ["7d"] + d1[5:10]
hands = [[d1[1 + c * 3 + p] for c in range(2)] for p in range(3)]
deal_json = json.dumps({"schema": "fairshuf-deal/1", "decks": 1, "jokers": 0, "cards_in_shoe": 52,
    "players": 3, "cards_per_hand": 2, "layout": "round-robin", "burn": d1[:1], "hands": hands,
    "rest": d1[7:], "penetration": None, "mode": "fair",
    "fair": {"algorithm": "fairshuf-deal-v1", "commitment": "$C1", "client_seed": "player-1", "nonce": 0}})
d4 = O4.split()
h4 = [[d4[1 + p * 2 + c] for c in range(2)] for p in range(7)]
deal_json4 = json.dumps({"schema": "fairshuf-deal/1", "decks": 8, "jokers": 0, "cards_in_shoe": 416,
    "players": 7, "cards_per_hand": 2, "layout": "blocks", "burn": d4[:1], "hands": h4,
    "rest": d4[15:], "penetration": 312, "mode": "fair",
    "fair": {"algorithm": "fairshuf-deal-v1", "commitment": "$C4", "server_seed": "$S4",
             "client_seed": "", "nonce": 18446744073709551615}})
V = [
  dict(name="vector 1 (one deck)", seed="$S1", commitment="$C1", client="player-1", nonce="0",
       decks=1, jokers=0, dealt=" ".join(d1[:10]), status="VALID", order=O1),
  dict(name="vector 3 (2-deck shoe)", seed="$S3", commitment="$C3", client="alice", nonce="42",
       decks=2, jokers=0, dealt=O3, status="VALID", order=O3),
  dict(name="vector 4 (8-deck shoe, nonce 2^64-1)", seed="$S4", commitment="$C4", client="",
       nonce="18446744073709551615", decks=8, jokers=0, dealt=" ".join(O4.split()[:30]), status="VALID", order=O4),
  dict(name="random 3-deck shoe with a joker, nonce 2^53+1", seed="$S5", commitment="$C5", client="ŝeed ♠ 5",
       nonce="$N5", decks=3, jokers=1, dealt=O5, status="VALID", order=O5),
  dict(name="deal JSON", seed="$S1", json=deal_json, status="VALID", order=O1),
  dict(name="deal JSON, 8 decks, blocks, revealed seed inside, nonce 2^64-1", seed="", json=deal_json4,
       status="VALID", order=O4),
  dict(name="tampered card", seed="$S1", commitment="$C1", client="player-1", nonce="0",
       dealt=" ".join(tampered), status="NOT VALID", order=O1,
       problem="card 5 differs: dealt 7d, the server seed gives 7h; 1 of 10 cards differ"),
  dict(name="tampered commitment", seed="$S1", commitment="$C2", client="player-1", nonce="0",
       status="NOT VALID", problem="commitment mismatch: SHA-256 of the server seed is $C1, the commitment is $C2"),
  dict(name="tampered seed", seed="$S1"[:-1] + "e", commitment="$C1", client="player-1", nonce="0",
       dealt=" ".join(d1[:5]), status="NOT VALID", problem="commitment mismatch"),
  dict(name="short seed", seed="$S1", commitment="$C1", decks=2, status="NOT VALID",
       problem="server seed too short for this game: 32 bytes"),
  dict(name="malformed hex", seed="$S1" + "zz", commitment="$C1", status="NOT VALID",
       problem="malformed hex in the server seed"),
  # Last, so the screenshot shows it: jokers, red and black faces, VALID.
  dict(name="vector 2 (one deck, 2 jokers)", seed="$S2", commitment="$C2", client="Zoë 🂡", nonce="1",
       decks=1, jokers=2, dealt=" ".join(O2.split()[:20]), status="VALID", order=O2, screenshot=True),
]
json.dump(V, open(sys.argv[1], "w"), ensure_ascii=False)
PYEOF

# The exact rejection, word by word: fsh_fair_reduce's answers
# (test_fair reduce) for the words of reduce_cases.py.
helper=
for h in "$(dirname "$FAIRSHUF")/tests/test_fair" "$(dirname "$FAIRSHUF")/build/tests/test_fair"; do
    [ -x "$h" ] && { helper=$h; break; }
done
python3 "$ROOT/tests/fair/reduce_cases.py" >"$T/words"
if [ -n "$helper" ]; then
    "$helper" reduce <"$T/words" | paste -d' ' "$T/words" - >"$T/reduce.txt"
else
    bad "no test_fair helper beside $FAIRSHUF"
    : >"$T/reduce.txt"
fi
export REDUCE_CASES="$T/reduce.txt"

shot=${FSH_SCREENSHOT:-$T/verify.png}
case $shot in /*) ;; *) shot=$PWD/$shot ;; esac
node "$ROOT/tests/fair/browser.mjs" "$pw" "$ROOT/web/verify.html" "$T/vectors.json" "$shot" \
    >"$T/browser.out" 2>"$T/browser.err"
rc=$?
check "browser.mjs ran (exit $rc: $(head -c 600 "$T/browser.err"))" [ "$rc" = 0 ]
while IFS= read -r line; do
    case $line in
    "ok "*) ok ;;
    "not ok "*) bad "${line#not ok }" ;;
    esac
done <"$T/browser.out"
check "at least 34 browser checks ran" [ "$(grep -c '^ok ' "$T/browser.out")" -ge 34 ]
check "screenshot written" sh -c "head -c 8 '$shot' | od -An -c | grep -q 'P   N   G'"
finish
