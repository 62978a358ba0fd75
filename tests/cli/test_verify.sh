#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 16 (its usual wall time in s: longest first)
# fairshuf verify: the vectors of docs/FAIRNESS.md, hands and burns in both
# layouts, the deal JSON (file, stdin, with the revealed seed, tampered),
# and every bad input (GNU-style "fairshuf verify: ..." message, exit 1).
NAME=test_verify
VD=$(cd "$(dirname "$0")/../.." && pwd)/examples/verify_deal.py
. "$(dirname "$0")/lib.sh"

S1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
C1=630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd
D1="5h 7c 2d 5s 7h Td Jc 3s Qs Qd Jd Th 3d Ks Ad 3h 9h 4c 3c 8s Jh 7d Kc 4s 7s 6d 5c 8c Kd 2c 5d 2s 9s 9c 6h Js 4d Ah Tc 4h As 8d Ts 6s 6c 2h Qh Kh Ac Qc 8h 9d"
S2=f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687
C2=6dde9e258487f14ccf87ea63efc2327dcbc912c12eb04544c292fea94731f059
D2="8s Qd RJ 9d 8c Ks 4c Tc Js 6h 9c Ac 8h Kd 6d 7s As Qc 4h BJ 8d Ad 2c Kc Th 3d 2d Ts 4d 7c Jh Jc Ah 6c 3s Jd 9s 9h Qh 3h 6s 5h 2s Qs 7d Td 5c 7h 4s 3c 5d Kh 5s 2h"
S3=0b30557a9fc4e90e33587da2c7ec11365b80a5caef14395e83a8cdf2173c6186abd0f51a3f6489aed3f81d42678cb1d6fb20456a8fb4d9fe23486d92b7dc0126
C3=94eb5de4943613fd048dc93393ab06877405faa39c11f53e9386083339833e7e
S4=$(awk 'BEGIN { for (k = 0; k < 280; k++) printf "%02x", (131 * k + 7) % 256 }')
C4=c6561263ef0a9cd07c57206526e45240a75f3e6ddaef92a37e5dde0996c2d0a2

# v ARGS...: fairshuf verify ARGS; $T/v.out, $T/v.err, $T/v.rc.
v() {
    "$FAIRSHUF" verify "$@" >"$T/v.out" 2>"$T/v.err" </dev/null
    echo $? >"$T/v.rc"
}
rc() { [ "$(cat "$T/v.rc")" = "$1" ]; }
out_has() { grep -q -- "$1" "$T/v.out"; }
err_is() { [ "$(cat "$T/v.err")" = "$1" ] || { echo "  stderr: $(cat "$T/v.err")" >&2; return 1; }; }
sha() { printf %s "$1" | sha256sum | cut -d' ' -f1; }

# --help, --version.
v --help
check "--help exits 0" rc 0
check "--help lists --server-seed-file" out_has "--server-seed-file=F"
for opt in server-seed server-seed-file commitment client-seed nonce decks jokers \
    burn players cards layout hand rest json print-order; do
    check "--help lists --$opt" out_has "--$opt"
    check "man page documents verify --$opt" sh -c "sed 's/\\\\-/-/g' '$(dirname "$0")/../../docs/fairshuf.1' | grep -q -e '--$opt'"
done
v --version
check "--version" sh -c "rc() { [ \$(cat '$T/v.rc') = 0 ]; }; rc && grep -q '^fairshuf ' '$T/v.out'"

# Vectors 1-4: the order, VALID with every card.
v --server-seed=$S1 --client-seed=player-1 --nonce=0 --print-order
check "vector 1 order" [ "$(cat "$T/v.out")" = "$D1" ]
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 $D1
check "vector 1 VALID" sh -c "[ \$(cat '$T/v.rc') = 0 ] && grep -q '^VALID: commitment $C1 matches; 52 of 52 cards checked' '$T/v.out'"
v --server-seed=$S2 --commitment=$C2 --client-seed="Zoë 🂡" --nonce=1 --jokers=2 $D2
check "vector 2 (jokers) VALID" rc 0
v --server-seed=$S3 --client-seed=alice --nonce=42 --decks=2 --print-order
check "vector 3 (2-deck shoe) order sha256" [ "$(sha "$(cat "$T/v.out")")" = 8323cdf4b0b7a80778e3a3a23064b783f276ebae5b015504d79c88c786ac76a8 ]
D3=$(cat "$T/v.out")
v --server-seed=$S3 --commitment=$C3 --client-seed=alice --nonce=42 --decks=2 $D3
check "vector 3 VALID" rc 0
v --server-seed=$S4 --nonce=18446744073709551615 --decks=8 --print-order
check "vector 4 (8-deck shoe, 280-byte seed) order sha256" [ "$(sha "$(cat "$T/v.out")")" = 71256382aaa68b130f9cbafca01e227c0ce37536292e10cccbe2a14bbaf0d710 ]
D4=$(cat "$T/v.out")
v --server-seed=$S4 --commitment=$C4 --nonce=18446744073709551615 --decks=8 $D4
check "vector 4 VALID (416 cards)" sh -c "[ \$(cat '$T/v.rc') = 0 ] && grep -q '416 of 416 cards checked' '$T/v.out'"
v --server-seed=$S4 --commitment=$(echo $C4 | tr a-f A-F) --nonce=18446744073709551615 --decks=8 5d 8h
check "upper-case commitment accepted" rc 0

# Not valid: a wrong card, a wrong commitment, a wrong nonce or client seed.
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 5h 7c 2d 5s 7d
check "wrong card: exit 1" rc 1
check "wrong card: position and both cards" out_has "^NOT VALID: card 5 (deal position 5) differs: dealt 7d, the server seed gives 7h; 1 of 5 cards differ$"
check "wrong card: no VALID line" sh -c "! grep -q '^VALID' '$T/v.out'"
v --server-seed=$S1 --commitment=$C2 --client-seed=player-1 5h
check "commitment mismatch: exit 1" rc 1
check "commitment mismatch: both hashes" out_has "^NOT VALID: commitment mismatch: SHA-256 of the server seed is $C1, the commitment is $C2$"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-2 5h 7c 2d
check "other client seed: NOT VALID" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^NOT VALID: card' '$T/v.out'"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --nonce=1 5h 7c 2d
check "other nonce: NOT VALID" rc 1
# Swapped two cards: the first differing deal position is named.
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 5h 7c 5s 2d
check "swap: first position" out_has "card 3 (deal position 3) differs: dealt 5s, the server seed gives 2d; 2 of 4"

# Burn and hands. Deal order (vector 1): 5h | 7c 2d 5s 7h Td Jc | ...
# round-robin, 2 players x 3 cards after 1 burn: hand 1 = 7c 5s Td,
# hand 2 = 2d 7h Jc; blocks: hand 1 = 7c 2d 5s, hand 2 = 7h Td Jc.
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 5h 7c 5s Td 2d 7h Jc 3s
check "round-robin hands VALID" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --layout=blocks 5h 7c 2d 5s 7h Td Jc 3s
check "blocks hands VALID" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 5h 7c 2d 5s 7h Td Jc
check "blocks order under round-robin: NOT VALID" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'hand 2 card 1 (deal position 3) differs: dealt 7h, the server seed gives 2d; 4 of 7 cards differ' '$T/v.out'"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=2 5h 7c 2d
check "burn only VALID" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 9d
check "wrong burn card named" out_has "burn card 1 (deal position 1) differs: dealt 9d, the server seed gives 5h"
# One hand alone (--hand=H), the rest alone (--rest): a player checks his
# own cards, or the board, without the other hands. Rest (vector 1, after
# 1 burn and 2 hands of 3): 3s Qs Qd Jd ...
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --hand=2 2d 7h Jc
check "--hand=2 alone VALID" sh -c "[ \$(cat '$T/v.rc') = 0 ] && grep -q '^VALID: .* 3 of 52 cards checked' '$T/v.out'"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --hand=1 7c 5s
check "--hand=1, its first 2 cards VALID" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --layout=blocks --hand=2 7h Td Jc
check "--hand=2 blocks VALID" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --hand=2 2d 7h Jd
check "--hand: changed card NOT VALID" rc 1
check "--hand: the card of the hand named" out_has "^NOT VALID: hand 2 card 3 (deal position 7) differs: dealt Jd, the server seed gives Jc; 1 of 3 cards differ$"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --layout=blocks --hand=2 2d 7h Jc
check "--hand: round-robin hand under blocks NOT VALID" out_has "^NOT VALID: hand 2 card 1 (deal position 5) differs: dealt 2d, the server seed gives 7h; 2 of 3 cards differ$"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --hand=2 --hand=02 2d 7h Jc
check "--hand twice, same value" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --rest 3s Qs Qd Jd
check "--rest VALID" sh -c "[ \$(cat '$T/v.rc') = 0 ] && grep -q '^VALID: .* 4 of 52 cards checked' '$T/v.out'"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=2 --rest 2d 5s
check "--rest after burn cards only VALID" rc 0
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --burn=1 --players=2 --cards=3 --rest --rest 3s Qs Qh
check "--rest: changed card named" out_has "^NOT VALID: rest card 3 (deal position 10) differs: dealt Qh, the server seed gives Qd; 1 of 3 cards differ$"
check "--rest: NOT VALID exit 1" rc 1
while IFS='|' read -r args msg; do
    # shellcheck disable=SC2086
    v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 $args
    check "bad --hand/--rest: $args" err_is "$msg"
    check "bad --hand/--rest: $args: exit 1, no output" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ]"
done <<CASES
--players=2 --cards=3 --hand=3 2d|fairshuf verify: invalid hand number: '3' (1 to 2)
--players=2 --cards=3 --hand=0 2d|fairshuf verify: invalid hand number: '0' (1 to 2)
--players=2 --cards=3 --hand=x 2d|fairshuf verify: invalid hand number: 'x' (1 to 2)
--players=2 --cards=3 --hand=1 --hand=2 2d|fairshuf verify: multiple hand numbers specified
--players=2 --cards=3 --hand=1 --hand=9 2d|fairshuf verify: invalid hand number: '9' (1 to 2)
--burn=1 --hand=1 2d|fairshuf verify: --hand needs --players and --cards
--rest 2d|fairshuf verify: --rest needs --burn or --players (what comes before the rest)
--burn=1 --players=2 --cards=3 --hand=2 2d 7h Jc 3s|fairshuf verify: 4 cards given, more than hand 2 holds (3)
--burn=50 --rest 2d 3d 4d|fairshuf verify: 3 cards given, more than the rest holds (2)
CASES
v --server-seed=$S1 --commitment=$C1 --players=2 --cards=3 --hand=1 --rest 2d
check "--hand and --rest: not both" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ \"\$(head -n 1 '$T/v.err')\" = 'fairshuf verify: cannot combine --hand and --rest options' ]"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 A♥ 7♣
check "unicode names accepted" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'card 1 (deal position 1) differs: dealt Ah, the server seed gives 5h' '$T/v.out'"

# Seed file: hex with whitespace.
printf '%s\n' "$S3" | fold -w 16 | sed 's/^/  /' >"$T/seed.hex"
printf '%s\n' "$S1" | fold -w 10 >"$T/seed1.hex"
v --server-seed-file="$T/seed.hex" --commitment=$C3 --client-seed=alice --nonce=42 --decks=2 $D3
check "seed file with whitespace" rc 0
# What is read how (verify --help, fairshuf.1): a server seed's hex skips the
# ASCII blanks anywhere, even inside a byte, on the command line and from a
# file or standard input; any other blank is malformed hex; everything else
# is exact: the commitment, the numbers (digits only), the CARDs, and the
# client seed, whose blanks are bytes of it.
v --server-seed="$(printf ' 0\t0 01\v02\f03\r%s\n' "${S1#00010203}")" --commitment=$C1 --client-seed=player-1 5h
check "--server-seed: ASCII blanks anywhere skipped" rc 0
printf '%s\302\240\n' "$S1" >"$T/nbsp.hex"
v --server-seed-file="$T/nbsp.hex" --commitment=$C1 --client-seed=player-1 5h
check "seed file: a no-break space is malformed hex" err_is "fairshuf verify: malformed hex in $T/nbsp.hex"
"$FAIRSHUF" verify --server-seed-file=- --commitment=$C1 --client-seed=player-1 5h 7c <"$T/seed1.hex" >"$T/v.out" 2>"$T/v.err"
check "--server-seed-file=- reads standard input" grep -q '^VALID: .* 2 of 52 cards' "$T/v.out"
# Standard input closed: each "-" is named as GNU cat names it (fairshuf.1,
# DIAGNOSTICS), exit 1. A seed file read first must not take descriptor 0
# and be read again as the JSON's "-" (it was: "-: malformed JSON at byte
# 0: unexpected end of input").
printf '{}' >"$T/empty.json"
for args in "--server-seed-file=- --print-order" "--json=-" \
    "--json=- --server-seed-file=$T/seed1.hex" \
    "--server-seed-file=- --json=$T/empty.json"; do
    # shellcheck disable=SC2086 # $args: the options, split
    "$FAIRSHUF" verify $args <&- >"$T/v.out" 2>"$T/v.err"
    echo $? >"$T/v.rc"
    check "standard input closed: verify $args" sh -c \
        "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ] && [ \"\$(cat '$T/v.err')\" = 'fairshuf verify: -: Bad file descriptor' ]"
done
v --server-seed=$S1 --commitment="$C1 " --client-seed=player-1 5h
check "commitment: a blank after it is refused" err_is "fairshuf verify: malformed commitment in --commitment: '$C1 ' (64 hex digits)"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --nonce=' 0' 5h
check "nonce: a blank is refused" err_is "fairshuf verify: invalid nonce: ' 0' (0 to 18446744073709551615)"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --decks=+1 5h
check "decks: a sign is refused" err_is "fairshuf verify: invalid number of decks: '+1' (1 to 1000)"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 ' 5h'
check "CARD: a blank is no part of a name" err_is "fairshuf verify: unknown card: ' 5h'"
v --server-seed=$S1 --commitment=$C1 --client-seed='player-1 ' 5h 7c 2d
check "client seed: a trailing blank is a byte of it (NOT VALID)" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^NOT VALID: card' '$T/v.out'"
# The client seed is text, as fairshuf deal takes it: bytes that are no
# UTF-8 reach no other verifier (the page and verify_deal.py read text)
# nor a deal JSON; they were dealt from as they were, VALID or NOT VALID.
for cs in 'a\377' 'Zo\353' '\200' '\355\240\200' '\300\257' 'x\360\237\202'; do
    v --server-seed=$S1 --commitment=$C1 --client-seed="$(printf "$cs")" 5h
    label=$(printf %s "$cs" | tr '\\' " ")
    check "client seed ($label, no UTF-8): bad input" err_is "fairshuf verify: the client seed is not valid UTF-8 (the verifiers take text)"
    v --server-seed=$S1 --client-seed="$(printf "$cs")" --print-order
    check "client seed ($label, no UTF-8): no order printed" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ]"
done
v --server-seed=$S2 --commitment=$C2 --client-seed="Zoë 🂡" --jokers=2 --nonce=1 8s Qd RJ
check "client seed in UTF-8 (U+00EB, U+1F0A1): VALID" rc 0

# JSON, as `fairshuf deal --format json` prints it (schema fairshuf-deal/1).
# json FILE DECKS JOKERS PLAYERS CARDS LAYOUT BURN ORDER CLIENT NONCE COMMIT [SEED]
json() {
    python3 - "$@" <<'PYEOF'
import json, sys
f, decks, jokers, players, cards, layout, burn, order, client, nonce, commit = sys.argv[1:12]
seed = sys.argv[12] if len(sys.argv) > 12 else None
decks, jokers, players, cards, burn, nonce = map(int, (decks, jokers, players, cards, burn, nonce))
d = order.split()
hands = [[None] * cards for _ in range(players)]
for p in range(players):
    for c in range(cards):
        pos = burn + (p * cards + c if layout == "blocks" else c * players + p)
        hands[p][c] = d[pos]
fair = {"algorithm": "fairshuf-deal-v1", "commitment": commit}
if seed: fair["server_seed"] = seed
fair["client_seed"] = client
fair["nonce"] = nonce
doc = {"schema": "fairshuf-deal/1", "decks": decks, "jokers": jokers,
       "cards_in_shoe": (52 + jokers) * decks, "players": players,
       "cards_per_hand": cards, "layout": layout, "burn": d[:burn],
       "hands": hands, "rest": d[burn + players * cards:], "penetration": None,
       "mode": "fair", "fair": fair}
open(f, "w").write(json.dumps(doc))
PYEOF
}
if command -v python3 >/dev/null 2>&1; then
    json "$T/j1.json" 1 0 4 2 round-robin 1 "$D1" player-1 0 $C1
    v --server-seed=$S1 --json="$T/j1.json"
    check "JSON round-robin VALID" sh -c "[ \$(cat '$T/v.rc') = 0 ] && grep -q '52 of 52 cards checked' '$T/v.out'"
    json "$T/j2.json" 1 2 3 5 blocks 3 "$D2" "Zoë 🂡" 1 $C2 $S2
    v --json="$T/j2.json"
    check "JSON with jokers, blocks, the revealed seed inside" rc 0
    "$FAIRSHUF" verify --json=- <"$T/j2.json" >"$T/v.out" 2>"$T/v.err"
    check "JSON from standard input" [ $? = 0 ]
    json "$T/j3.json" 8 0 7 2 round-robin 1 "$D4" "" 18446744073709551615 $C4
    v --server-seed=$S4 --json="$T/j3.json"
    check "JSON 8-deck shoe, nonce 2^64-1" rc 0
    # Tampered: two cards of hand 1 swapped.
    sed 's/"hands": \[\["7c", "Td"/"hands": [["Td", "7c"/' "$T/j1.json" >"$T/j1t.json"
    v --server-seed=$S1 --json="$T/j1t.json"
    check "tampered JSON: NOT VALID, first position" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^NOT VALID: hand 1 card 1 (deal position 2) differs: dealt Td, the server seed gives 7c; 2 of 52 cards differ' '$T/v.out'"
    v --server-seed=$S1 --commitment=$C2 --json="$T/j1.json"
    check "JSON: --commitment disagrees" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^NOT VALID: commitment mismatch: the JSON says' '$T/v.out'"
    v --server-seed=$S1 --nonce=3 --json="$T/j1.json"
    check "JSON: --nonce disagrees" out_has "^NOT VALID: nonce mismatch"
    v --server-seed=$S1 --json="$T/j2.json"
    check "JSON: the revealed seed is not the seed given" out_has "^NOT VALID: server seed mismatch"
    v --server-seed=$S1 --json="$T/j1.json" 5h
    check "JSON and CARDs: usage error" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q \"Try 'fairshuf verify --help'\" '$T/v.err'"
    # The JSON holds every hand and the rest: --hand and --rest do not
    # combine with it (the whole deal is checked).
    for opt in --hand=1 --rest; do
        v --server-seed=$S1 --json="$T/j1.json" $opt
        check "JSON and $opt: usage error" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ] && grep -q '^fairshuf verify: --json gives the deal: no --decks, --jokers, --burn, --players, --cards, --layout, --hand, --rest or CARD arguments$' '$T/v.err'"
    done
    printf '{"schema":"fairshuf-deal/1","decks":1' >"$T/bad.json"
    v --server-seed=$S1 --json="$T/bad.json"
    check "malformed JSON" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^fairshuf verify: .*bad.json: malformed JSON at byte' '$T/v.err'"
    sed 's/"fair": {[^}]*}/"fair": null/; s/"mode": "fair"/"mode": "os"/' "$T/j1.json" >"$T/os.json"
    v --server-seed=$S1 --json="$T/os.json"
    check "JSON of a non-fair deal" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'not a provably fair deal' '$T/v.err'"
    sed 's/"Ad"/"Zz"/' "$T/j1.json" >"$T/unk.json"
    v --server-seed=$S1 --json="$T/unk.json"
    check "JSON with an unknown card" err_is "fairshuf verify: unknown card: 'Zz'"
    # The schema's cards are poker notation, ASCII (docs/CARDS.md): a name
    # with a suit symbol, which the CARD operands take, verified VALID from
    # a JSON. Escaped or raw UTF-8, in the rest or in a hand, it is refused.
    sed 's/"Ad"/"A\\u2666"/' "$T/j1.json" >"$T/uni.json"
    v --server-seed=$S1 --json="$T/uni.json"
    check "JSON with a suit symbol (\\u2666): refused" err_is \
        "fairshuf verify: $T/uni.json: malformed deal JSON: card 'A\\342\\231\\246' in 'rest' is not in poker notation (fairshuf-deal/1 cards are ASCII: As Th 2c RJ BJ)"
    sed 's/"7c"/"7♣"/' "$T/j1.json" >"$T/uni.json"
    v --server-seed=$S1 --json="$T/uni.json"
    check "JSON with a suit symbol (raw UTF-8): refused" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ] && grep -q \"^fairshuf verify: .*uni.json: malformed deal JSON: card '7.*' in 'hands' is not in poker notation\" '$T/v.err'"
    sed 's/"Ad"/"A\\u00e0"/' "$T/j1.json" >"$T/uni.json"
    v --server-seed=$S1 --json="$T/uni.json"
    check "JSON with a non-ASCII name: refused" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'is not in poker notation' '$T/v.err'"
    # A \u0000 inside a string would hide what follows it from every
    # comparison: each tampered copy is refused (they verified VALID).
    for what in card schema algorithm commitment layout; do
        case $what in
        card) expr='s/"Ad"/"Ad\\u0000zz"/' ;;
        schema) expr='s/"fairshuf-deal\/1"/"fairshuf-deal\/1\\u0000v2"/' ;;
        algorithm) expr='s/"fairshuf-deal-v1"/"fairshuf-deal-v1\\u0000x"/' ;;
        commitment) expr="s/\"$C1\"/\"$C1\\\\u0000junk\"/" ;;
        layout) expr='s/"round-robin"/"round-robin\\u0000"/' ;;
        esac
        sed "$expr" "$T/j1.json" >"$T/nul.json"
        check "JSON with a NUL in the $what: changed" sh -c "! cmp -s '$T/j1.json' '$T/nul.json'"
        v --server-seed=$S1 --json="$T/nul.json"
        check "JSON with a NUL in the $what: refused" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'malformed deal JSON: a NUL in' '$T/v.err'"
    done
    # The duplicate-member check is quadratic: objects are capped at 64
    # members (a deal's have at most 13), so 160,000 keys fail at once.
    python3 -c "import sys; sys.stdout.write('{' + ','.join('\"k%d\":0' % i for i in range(160000)) + '}')" >"$T/keys.json"
    v --server-seed=$S1 --json="$T/keys.json"
    check "JSON object of 160,000 members: refused" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'too many members in an object' '$T/v.err'"
    # The file cap is 8 MiB (the check came before the buffer doubled, so
    # 16 MiB - 1 was read): 8 MiB of a valid deal verify, one byte more is
    # refused.
    for size in 8388608 8388609 12582912; do
        python3 -c "import sys; t = open(sys.argv[1]).read().rstrip(); sys.stdout.write(t[:-1] + ' ' * ($size - len(t.encode())) + '}')" \
            "$T/j1.json" >"$T/big.json"
        v --server-seed=$S1 --json="$T/big.json"
        if [ "$size" = 8388608 ]; then
            check "JSON file of 8 MiB: read" sh -c "[ \$(cat '$T/v.rc') = 0 ] && [ \$(wc -c <'$T/big.json') = 8388608 ]"
        else
            check "JSON file of $size bytes: too large" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q 'big.json: file too large' '$T/v.err'"
        fi
    done
    # Zero players (with no hands) was VALID; deal never deals it and the
    # man page lists it as bad input.
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['rest'] = sum(d['hands'], []) + d['rest']; d['players'] = 0; d['hands'] = []; print(json.dumps(d))" \
        "$T/j1.json" >"$T/zero.json"
    v --server-seed=$S1 --json="$T/zero.json"
    check "JSON with zero players: bad input" err_is "fairshuf verify: $T/zero.json: zero players"
    python3 "$VD" --json="$T/zero.json" >"$T/vp.out" 2>&1
    echo $? >"$T/vp.rc"
    check "verify_deal.py: zero players, bad input too" sh -c "[ \$(cat '$T/vp.rc') = 1 ] && grep -q 'zero players' '$T/vp.out'"
    # Hostile JSON: every one is a message and exit 1, never a crash.
    i=0
    for doc in '' '[' '{"a":1,"a":2}' '"\ud800"' '"\x"' '{"schema":"fairshuf-deal/1"} x' \
        "$(python3 -c 'print("[" * 100 + "]" * 100)')" '01' '-' '1e' '{"schema":7}' \
        '{"schema":"fairshuf-deal/2"}' \
        "$(sed 's/"nonce": 0/"nonce": 18446744073709551616/' "$T/j1.json")" \
        "$(sed 's/"nonce": 0/"nonce": -1/' "$T/j1.json")" \
        "$(sed 's/"nonce": 0/"nonce": 1.5/' "$T/j1.json")" \
        "$(sed 's/"decks": 1/"decks": 0/' "$T/j1.json")" \
        "$(sed 's/"players": 4/"players": 5/' "$T/j1.json")" \
        "$(sed 's/"layout": "round-robin"/"layout": "spiral"/' "$T/j1.json")" \
        "$(sed 's/"cards_in_shoe": 52/"cards_in_shoe": 53/' "$T/j1.json")" \
        "$(sed 's/"fairshuf-deal-v1"/"fairshuf-deal-v0"/' "$T/j1.json")"; do
        i=$((i + 1))
        printf '%s' "$doc" >"$T/h.json"
        v --server-seed=$S1 --json="$T/h.json"
        check "hostile JSON $i: message, exit 1" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^fairshuf verify: ' '$T/v.err' && [ ! -s '$T/v.out' ]"
    done
    # JSON text is UTF-8 (RFC 8259, 8.1). A string's bytes that are no
    # UTF-8 were taken as they were: a client seed "Zo\xeb" (Latin-1) was
    # dealt from those bytes and VALID here, while verify_deal.py, which
    # decodes the file, refused it and the page (which reads text) could
    # not be given it. Raw UTF-8 is read as it is.
    python3 -c "import json, sys; sys.stdout.write(json.dumps(json.load(open(sys.argv[1])), ensure_ascii=False))" \
        "$T/j2.json" >"$T/raw.json"
    v --json="$T/raw.json"
    check "JSON in raw UTF-8 (U+00EB, U+1F0A1): VALID" rc 0
    for bytes in 'Zo\353' 'Zo\377' 'Z\300\257' 'Z\355\240\200' 'Z\360\237\202' 'Z\364\220\200\200' 'Zo\303'; do
        python3 -c "import os, sys; t = open(sys.argv[1], 'rb').read(); sys.stdout.buffer.write(t.replace('Zo\u00eb'.encode(), os.fsencode(sys.argv[2])))" \
            "$T/raw.json" "$(printf "$bytes")" >"$T/nu.json"
        label=$(printf %s "$bytes" | tr '\\' " ")
        check "JSON client seed ($label): changed" sh -c "! cmp -s '$T/raw.json' '$T/nu.json'"
        v --json="$T/nu.json"
        check "JSON client seed ($label, no UTF-8): refused" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ] && grep -q '^fairshuf verify: .*nu.json: malformed JSON at byte [0-9]*: invalid UTF-8 in a string' '$T/v.err'"
    done
    sed 's/"mode": "fair"/"mode": "f\o377ir"/' "$T/raw.json" >"$T/nu.json"
    v --json="$T/nu.json"
    check "JSON with a byte 0xff in a member the deal does not use: refused" \
        err_is "fairshuf verify: $T/nu.json: malformed JSON at byte $(($(grep -bo '"mode": "f' "$T/nu.json" | cut -d: -f1) + 10)): invalid UTF-8 in a string"
else
    skipped "JSON checks need python3 to write the documents"
fi

# An option that takes a value, given twice with different values, is bad
# input ("multiple ... specified", exit 1, nothing on standard output), as in
# fairshuf deal; the last value was taken (--nonce=5 --nonce=0 verified
# nonce 0). Each row: what, then the options; the rest of the command is
# the vector 1 round, VALID.
printf '%s\n' "$S2" >"$T/seed2.hex"
# The rows examples/verify_deal.py takes too (its own loop, below).
REPEATED_BOTH=$(cat <<CASES
nonces|--server-seed=$S1 --client-seed=player-1 --nonce=5 --nonce=0
server seeds|--server-seed=$S2 --server-seed=$S1 --client-seed=player-1
server seed files|--server-seed-file=$T/seed2.hex --server-seed-file=$T/seed1.hex --client-seed=player-1
commitments|--server-seed=$S1 --client-seed=player-1 --commitment=$C2
client seeds|--server-seed=$S1 --client-seed=player-2 --client-seed=player-1
deck counts|--server-seed=$S4 --client-seed=player-1 --decks=2 --decks=1
joker counts|--server-seed=$S1 --client-seed=player-1 --jokers=1 --jokers=0
CASES
)
while IFS='|' read -r what args; do
    # shellcheck disable=SC2086
    v --commitment=$C1 $args 5h 7c 2d
    check "two different $what" err_is "fairshuf verify: multiple $what specified"
    check "two different $what: exit 1, no output" sh -c "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ]"
done <<CASES
$REPEATED_BOTH
nonces|--server-seed=$S1 --client-seed=player-1 --nonce=0 --nonce=5
burn counts|--server-seed=$S1 --client-seed=player-1 --burn=1 --burn=2
player counts|--server-seed=$S1 --client-seed=player-1 --players=1 --cards=1 --players=3
card counts|--server-seed=$S1 --client-seed=player-1 --players=1 --cards=1 --cards=2
layouts|--server-seed=$S1 --client-seed=player-1 --players=1 --cards=1 --layout=blocks --layout=round-robin
JSON files|--server-seed=$S1 --json=$T/a.json --json=$T/b.json
CASES
# The same value again is accepted and checks what the option given once
# checks: numbers by value, the server seed by its bytes (blanks and case
# aside), the commitment by its digits (either case), names byte for byte.
S1UP=$(printf %s "$S1" | tr a-f A-F)
C1UP=$(printf %s "$C1" | tr a-f A-F)
while IFS='|' read -r once again; do
    # shellcheck disable=SC2086
    v --commitment=$C1 --client-seed=player-1 $once $again 5h 7c 2d
    check "same value twice: $once $again" sh -c "[ \$(cat '$T/v.rc') = 0 ] && [ ! -s '$T/v.err' ]"
    cp "$T/v.out" "$T/twice.out"
    # shellcheck disable=SC2086
    v --commitment=$C1 --client-seed=player-1 $once 5h 7c 2d
    check "same value twice: $once $again: as given once" cmp -s "$T/v.out" "$T/twice.out"
done <<CASES
--server-seed=$S1 --nonce=0|--nonce=00
--server-seed=$S1|--server-seed=$S1UP
--server-seed=$S1|--server-seed=$S1
--server-seed-file=$T/seed1.hex|--server-seed-file=$T/seed1.hex
--server-seed=$S1 --commitment=$C1UP|--commitment=$C1
--server-seed=$S1 --client-seed=player-1|--client-seed=player-1
--server-seed=$S1 --decks=1|--decks=01
--server-seed=$S1 --jokers=0|--jokers=000
--server-seed=$S1 --burn=1|--burn=1
--server-seed=$S1 --players=1 --cards=1|--players=01 --cards=1
--server-seed=$S1 --players=1 --cards=2 --layout=blocks|--layout=blocks
CASES
v --server-seed="00 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" --server-seed=$S1 --commitment=$C1 --client-seed=player-1 5h
check "same server seed, spaced apart and not: accepted" rc 0
"$FAIRSHUF" verify --server-seed-file=- --server-seed-file=- --commitment=$C1 --client-seed=player-1 5h 7c <"$T/seed1.hex" >"$T/v.out" 2>"$T/v.err"
check "--server-seed-file=- twice: standard input read once" grep -q '^VALID: .* 2 of 52 cards' "$T/v.out"
v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --print-order --print-order
check "--print-order twice: the order" [ "$(cat "$T/v.out")" = "$D1" ]
# Every value is checked: an invalid one is reported as such, first or last.
v --server-seed=$S1 --commitment=$C1 --nonce=0 --nonce=x 5h
check "invalid second nonce: its own message" err_is "fairshuf verify: invalid nonce: 'x' (0 to 18446744073709551615)"
v --server-seed=$S1 --commitment=$C1 --decks=0 --decks=1 5h
check "invalid first deck count: its own message" err_is "fairshuf verify: invalid number of decks: '0' (1 to 1000)"
v --server-seed=$S1 --commitment=$C1 --players=1 --cards=1 --layout=blocks --layout=spiral 5h
check "invalid second layout: its own message" err_is "fairshuf verify: invalid layout: 'spiral' (round-robin or blocks)"
v --server-seed=$S1 --commitment=$C1 --commitment=abc 5h
check "invalid second commitment: its own message" err_is "fairshuf verify: malformed commitment in --commitment: 'abc' (64 hex digits)"
v --server-seed=$S1 --server-seed=0g --commitment=$C1 5h
check "invalid second server seed: its own message" err_is "fairshuf verify: malformed hex in --server-seed"
v --server-seed=$S1 --commitment=$C1 --client-seed=a --client-seed="$(printf '%0257d' 0)" 5h
check "client seed over 256 bytes, second: its own message" err_is "fairshuf verify: client seed longer than 256 bytes"
# examples/verify_deal.py keeps the same rule (argparse took the last
# value: --nonce 5 --nonce 0 was VALID where fairshuf verify refuses it).
if command -v python3 >/dev/null 2>&1; then
    vp() {
        python3 "$VD" "$@" >"$T/vp.out" 2>"$T/vp.err" </dev/null
        echo $? >"$T/vp.rc"
    }
    while IFS='|' read -r what args; do
        # shellcheck disable=SC2086
        vp --commitment=$C1 $args 5h 7c 2d
        check "verify_deal.py: two different $what" sh -c \
            "[ \$(cat '$T/vp.rc') = 1 ] && [ ! -s '$T/vp.out' ] && [ \"\$(cat '$T/vp.err')\" = 'verify_deal.py: multiple $what specified' ]"
    done <<CASES
$REPEATED_BOTH
JSON files|--server-seed=$S1 --json=$T/a.json --json=$T/b.json
CASES
    while IFS='|' read -r once again; do
        # shellcheck disable=SC2086
        vp --commitment=$C1 --client-seed=player-1 $once $again 5h 7c 2d
        cp "$T/vp.out" "$T/twice.out"
        check "verify_deal.py: same value twice: $once $again" sh -c \
            "[ \$(cat '$T/vp.rc') = 0 ] && [ ! -s '$T/vp.err' ] && grep -q '^VALID' '$T/vp.out'"
        # shellcheck disable=SC2086
        vp --commitment=$C1 --client-seed=player-1 $once 5h 7c 2d
        check "verify_deal.py: same value twice: $once $again: as given once" cmp -s "$T/vp.out" "$T/twice.out"
    done <<CASES
--server-seed=$S1 --nonce=0|--nonce=00
--server-seed=$S1|--server-seed=$S1UP
--server-seed-file=$T/seed1.hex|--server-seed-file=$T/seed1.hex
--server-seed=$S1 --commitment=$C1UP|--commitment=$C1
--server-seed=$S1 --client-seed=player-1|--client-seed=player-1
--server-seed=$S1 --decks=1|--decks=01
--server-seed=$S1 --jokers=0|--jokers=000
CASES
    vp --server-seed=$S1 --server-seed=0g --commitment=$C1 5h
    check "verify_deal.py: invalid second server seed: malformed hex" sh -c \
        "[ \$(cat '$T/vp.rc') = 1 ] && grep -q 'malformed hex' '$T/vp.err'"
    # Numbers as fairshuf verify reads them: ASCII digits only (Python's
    # int() took ' 0', '+1', '0_0' and other scripts' digits).
    for arg in "--nonce= 0" "--nonce=+1" "--nonce=0_0" "--nonce=٣" \
        "--nonce=" "--decks=1 " "--decks=0x1" "--jokers=-0"; do
        v --server-seed=$S1 --commitment=$C1 --client-seed=player-1 "$arg" 5h
        vp --server-seed=$S1 --commitment=$C1 --client-seed=player-1 "$arg" 5h
        check "'$arg' refused by both verifiers" sh -c \
            "[ \$(cat '$T/v.rc') = 1 ] && [ \$(cat '$T/vp.rc') = 1 ] && [ ! -s '$T/vp.out' ] && grep -q '^verify_deal.py: invalid ' '$T/vp.err'"
    done
    vp --server-seed=$S1 --commitment=$C1 --client-seed=player-1 --jokers=3 5h
    check "verify_deal.py: three jokers refused" sh -c \
        "[ \$(cat '$T/vp.rc') = 1 ] && grep -q \"^verify_deal.py: invalid number of jokers: '3'\" '$T/vp.err'"
else
    skipped "verify_deal.py's repeated options need python3"
fi
# The two sources of the server seed exclude each other, even holding the
# same seed (verify --help, fairshuf.1).
v --server-seed=$S1 --server-seed-file="$T/seed1.hex" --commitment=$C1 5h
check "--server-seed and --server-seed-file, the same seed: usage error" sh -c \
    "[ \$(cat '$T/v.rc') = 1 ] && [ ! -s '$T/v.out' ] && [ \"\$(cat '$T/v.err')\" = \"fairshuf verify: cannot combine --server-seed and --server-seed-file options
Try 'fairshuf verify --help' for more information.\" ]"
if command -v python3 >/dev/null 2>&1; then
    v --server-seed=$S1 --json="$T/j1.json" --json="$T/j1.json"
    check "the same --json twice: VALID" sh -c "[ \$(cat '$T/v.rc') = 0 ] && grep -q '52 of 52 cards checked' '$T/v.out'"
    # With --json, the command line's repeats are options all the same:
    # refused, not compared with the JSON (where one of them agreed).
    v --server-seed=$S1 --json="$T/j1.json" --nonce=3 --nonce=0
    check "--json, two nonces" err_is "fairshuf verify: multiple nonces specified"
    v --server-seed=$S1 --json="$T/j1.json" --commitment=$C1 --commitment=$C2
    check "--json, two commitments" err_is "fairshuf verify: multiple commitments specified"
    v --server-seed=$S1 --json="$T/j1.json" --commitment=$C1UP --commitment=$C1 --nonce=0 --nonce=0
    check "--json, the same commitment and nonce twice: VALID" rc 0
else
    skipped "repeated options with --json need python3 to write the documents"
fi

# Bad input: message and exit 1.
v --server-seed=0g$S1 --commitment=$C1
check "malformed hex" err_is "fairshuf verify: malformed hex in --server-seed"
v --server-seed=${S1}0 --commitment=$C1
check "odd hex digits" err_is "fairshuf verify: malformed hex in --server-seed"
v --server-seed=00112233 --commitment=$C1
check "seed shorter than 32 bytes" err_is "fairshuf verify: server seed too short: 4 bytes (at least 32)"
v --server-seed=$S1 --commitment=$C1 --decks=2
check "seed too short for the game" err_is "fairshuf verify: server seed too short for this game: 32 bytes, 2 decks with 0 jokers need at least 63"
v --server-seed=$S1 --commitment=abc
check "malformed commitment" err_is "fairshuf verify: malformed commitment in --commitment: 'abc' (64 hex digits)"
v --server-seed=$S1 --commitment=$C1 5h Xs
check "unknown card" err_is "fairshuf verify: unknown card: 'Xs'"
v --server-seed=$S1 --commitment=$C1 RJ
check "joker not in the shoe" err_is "fairshuf verify: card 'RJ' is not in this shoe (0 jokers per deck)"
v --server-seed=$S1 --commitment=$C1 --players=0 --cards=2
check "zero players" err_is "fairshuf verify: invalid number of players: '0' (1 to 52)"
# The counts in fairshuf deal's words for the same options.
v --server-seed=$S1 --commitment=$C1 --burn=53
check "burn over the shoe: deal's words" err_is "fairshuf verify: invalid burn count: '53' (0 to 52)"
v --server-seed=$S1 --commitment=$C1 --players=2 --cards=x
check "bad --cards: deal's words" err_is "fairshuf verify: invalid card count: 'x' (0 to 52)"
v --server-seed=$S1 --commitment=$C1 --players=9 --cards=6
check "more cards than the shoe (hands)" err_is "fairshuf verify: more cards than the shoe holds: 0 burned and 9 hands of 6, the shoe holds 52"
v --server-seed=$S1 --commitment=$C1 $D1 5h
check "more cards than the shoe (arguments)" err_is "fairshuf verify: 53 cards given, more than the shoe holds (52)"
v --server-seed=$S1 --commitment=$C1 --client-seed="$(printf '%0257d' 0)"
check "client seed over 256 bytes" err_is "fairshuf verify: client seed longer than 256 bytes"
v --server-seed=$S1 --commitment=$C1 --client-seed="$(printf '%0256d' 0)"
check "client seed of 256 bytes accepted" rc 0
v --server-seed=$S1 --commitment=$C1 --nonce=18446744073709551616
check "nonce over 2^64-1" err_is "fairshuf verify: invalid nonce: '18446744073709551616' (0 to 18446744073709551615)"
v --server-seed=$S1 --commitment=$C1 --nonce=-1
check "negative nonce" rc 1
v --server-seed=$S1 --commitment=$C1 --jokers=3
check "three jokers" err_is "fairshuf verify: invalid number of jokers: '3' (0 to 2)"
v --server-seed=$S1 --commitment=$C1 --decks=0
check "zero decks" rc 1
v --server-seed=$S1 --commitment=$C1 --players=2 --cards=2 --layout=spiral
check "bad layout" err_is "fairshuf verify: invalid layout: 'spiral' (round-robin or blocks)"
v --server-seed=$S1 --commitment=$C1 --players=2
check "--players without --cards" err_is "fairshuf verify: --players needs --cards (cards per hand)"
v --server-seed=$S1 5h
check "no commitment" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^fairshuf verify: the commitment is required' '$T/v.err'"
v --commitment=$C1 5h
check "no seed" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^fairshuf verify: the revealed server seed is required' '$T/v.err'"
# A missing input is a usage error (GNU's "missing operand", audit's
# "nothing to audit"): the message, then the usage line.
check "no seed: the usage line" sh -c "[ \"\$(tail -n 1 '$T/v.err')\" = \"Try 'fairshuf verify --help' for more information.\" ]"
v --server-seed=$S1 5h
check "no commitment: the usage line" sh -c "[ \"\$(tail -n 1 '$T/v.err')\" = \"Try 'fairshuf verify --help' for more information.\" ]"
v --server-seed=$S1 --server-seed-file="$T/seed.hex" --commitment=$C1
check "both seed options" rc 1
v --server-seed-file="$T/nonexistent" --commitment=$C1
check "missing seed file" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q '^fairshuf verify: .*nonexistent: No such file or directory' '$T/v.err'"
v --bogus
check "unknown option" sh -c "[ \$(cat '$T/v.rc') = 1 ] && grep -q \"^Try 'fairshuf verify --help' for more information.\" '$T/v.err'"
v --server-seed=$S1 --commitment=$C1 --decks=2 --print-order
check "refused seed also for --print-order" rc 1
finish
