#!/bin/sh
# SPDX-License-Identifier: MIT
# fairshuf deal: shoes, jokers, burns, hands in both layouts, the cut card,
# JSON (schema fairshuf-deal/1, parsed with Python), replay under --seed,
# the terminal's colours and columns (on a pty through script(1)), NO_COLOR,
# --help/--version, and every bad input (a one-line "fairshuf deal: " message,
# exit status 1).
NAME=test_deal
. "$(dirname "$0")/lib.sh"
VD=$(cd "$(dirname "$0")/../.." && pwd)/examples/verify_deal.py
cd "$T/w" || exit 1
exec </dev/null
F=$FAIRSHUF
PY=/usr/bin/python3
[ -x "$PY" ] || PY=

# d PREFIX ARGS...: run fairshuf deal, to PREFIX.out/.err/.rc.
d() {
    _p=$1
    shift
    $TO "$F" deal "$@" >"$_p.out" 2>"$_p.err"
    echo $? >"$_p.rc"
}
rc_is() { test "$(cat "$1.rc")" = "$2"; }
# py DESCRIPTION SCRIPT FILE...: the Python script (sys.argv[1:] = files)
# must exit 0; skipped without /usr/bin/python3.
py() {
    _d=$1
    _s=$2
    shift 2
    if [ -z "$PY" ]; then skipped "$_d: no /usr/bin/python3"; return; fi
    if "$PY" -c "$_s" "$@"; then ok; else bad "$_d"; fi
}

# bad_in: bad input gets one "fairshuf deal: " line (two for usage errors), exit 1.
try="Try 'fairshuf deal --help' for more information."
bad_in() { # DESCRIPTION MESSAGE ARGS...
    _d=$1
    _m=$2
    shift 2
    d e "$@"
    if rc_is e 1 && [ "$(cat e.err)" = "$_m" ] && [ ! -s e.out ]; then
        ok
    else
        bad "$_d: rc=$(cat e.rc) err=$(cat e.err)"
    fi
}

# --help, --version.
d h --help
check "--help: exit 0" rc_is h 0
for opt in -n --players --cards --layout --decks --jokers --burn \
    --penetration --format --poker --seed --generator --server-seed-file \
    --client-seed --nonce --reveal --help --version; do
    check "--help lists $opt" grep -q -e "$opt" h.out
done
d v --version
"$F" --version >v0.out
check "--version: as fairshuf --version" cmp -s v.out v0.out

# Today's plain deal: 52 names in 4 rows of 13, every card once.
d plain --seed=golden
check "plain: exit 0" rc_is plain 0
check "plain: 4 rows of 13" test "$(wc -w <plain.out) $(wc -l <plain.out)" = "52 4"
check "plain: 52 distinct" test "$(tr ' ' '\n' <plain.out | sort -u | wc -l)" = 52
check "plain: no escapes off a terminal" sh -c '! grep -q "$(printf "\033")" plain.out'

# Replay: the same seed deals the same; another seed does not.
d again --seed=golden
check "--seed: replays" cmp -s plain.out again.out
d other --seed=golden2
check "--seed: another seed differs" sh -c '! cmp -s plain.out other.out'
d tab1 --seed=r --players=3 --cards=4 --burn=2 --decks=2 --jokers=1
d tab2 --seed=r --players=3 --cards=4 --burn=2 --decks=2 --jokers=1
check "--seed: a table round replays" cmp -s tab1.out tab2.out

# -n takes any count up to the shoe: -n 104 from two decks.
d n104 --seed=s -n 104 --decks=2 --poker
check "-n 104 --decks=2: exit 0" rc_is n104 0
check "-n 104 --decks=2: 8 rows of 13" test "$(wc -w <n104.out) $(wc -l <n104.out)" = "104 8"
check "-n 104 --decks=2: every card twice" test \
    "$(tr ' ' '\n' <n104.out | sort | uniq -c | awk '$1 != 2' | wc -l) $(tr ' ' '\n' <n104.out | sort -u | wc -l)" = "0 52"
# The same from the OS-keyed generator (the default fair mode); where the
# library refuses a shoe for want of entropy, that is its documented error.
d os104 -n 104 --decks=2 --poker
if rc_is os104 0; then
    check "-n 104 --decks=2 (OS): every card twice" test \
        "$(tr ' ' '\n' <os104.out | sort | uniq -c | awk '$1 != 2' | wc -l) $(wc -w <os104.out)" = "0 104"
elif grep -qi 'entropy\|reach' os104.err; then
    skipped "-n 104 --decks=2 (OS): $(cat os104.err)"
else
    bad "-n 104 --decks=2 (OS): rc=$(cat os104.rc) $(cat os104.err)"
fi
d n105 --seed=s -n 105 --decks=2
check "-n 105 --decks=2: refused" test "$(cat n105.rc) $(cat n105.err)" = "1 fairshuf deal: invalid card count: '105' (0 to 104)"
# -n K is the first K cards of the deal.
d n7 --seed=s -n 7 --decks=2 --poker
check "-n 7: a prefix of -n 104" test "$(cat n7.out)" = "$(head -n 1 n104.out | cut -d ' ' -f 1-7)"
d poker --seed=s -n 7 --decks=2 --format=text
check "--poker = --format=text" cmp -s n7.out poker.out

# Jokers: RJ with one a deck, RJ and BJ with two.
d j1 --seed=j --jokers=1 --decks=2
check "--jokers=1: 106 cards" test "$(wc -w <j1.out)" = 106
check "--jokers=1: two RJ, no BJ" test "$(tr ' ' '\n' <j1.out | grep -c '^RJ$') $(tr ' ' '\n' <j1.out | grep -c '^BJ$')" = "2 0"
d j2 --seed=j --jokers=2
check "--jokers=2: one RJ, one BJ" test "$(tr ' ' '\n' <j2.out | grep -c '^RJ$') $(tr ' ' '\n' <j2.out | grep -c '^BJ$')" = "1 1"

# A table round, plain text: labels, one line each.
d t --seed=t --players=3 --cards=5 --burn=1 --penetration=40 --poker
check "table: exit 0" rc_is t 0
check "table: labels" test "$(cut -d : -f 1 t.out | tr '\n' '|')" = "Burn|Player 1|Player 2|Player 3|Rest|Cut card|"
check "table: hands of 5" test "$(grep '^Player' t.out | awk '{ print NF - 2 }' | sort -u)" = 5
check "table: 1 burned, 36 left" test "$(grep -c '^Burn: ..$' t.out) $(grep '^Rest:' t.out | awk '{ print NF - 1 }')" = "1 36"
check "table: the cut card not reached" grep -q '^Cut card: after card 40 of 52: 24 more cards before it$' t.out
d t2 --seed=t --players=3 --cards=13 --penetration=39 --poker
check "table: the cut card reached" grep -q '^Cut card: after card 39 of 52: reached, shuffle before the next round$' t2.out
d bridge --seed=t --players=4
check "--players=4: 13 cards each by default" test "$(grep '^Player' bridge.out | awk '{ print NF - 2 }' | sort -u) $(grep -c '^Rest:$' bridge.out)" = "13 1"

# JSON: the schema, key order, counts, and the deal order behind it.
d js --seed=js --format=json --players=3 --cards=4 --burn=2 --decks=2 --jokers=2 --penetration=50
check "json: exit 0" rc_is js 0
py "json: schema and keys" '
import json, sys
o = json.load(open(sys.argv[1]))
keys = ["schema","decks","jokers","cards_in_shoe","players","cards_per_hand",
        "layout","burn","hands","rest","penetration","mode","fair"]
assert list(o) == keys, list(o)
assert o["schema"] == "fairshuf-deal/1"
assert (o["decks"], o["jokers"], o["cards_in_shoe"]) == (2, 2, 108)
assert (o["players"], o["cards_per_hand"], o["layout"]) == (3, 4, "round-robin")
assert len(o["burn"]) == 2 and len(o["hands"]) == 3
assert all(len(h) == 4 for h in o["hands"])
assert len(o["rest"]) == 108 - 2 - 12
assert o["penetration"] == 50 and o["mode"] == "seed" and o["fair"] is None
cards = o["burn"] + sum(o["hands"], []) + o["rest"]
ranks, suits = "23456789TJQKA", "cdhs"
shoe = sorted([r + s for r in ranks for s in suits] * 2 + ["RJ", "BJ"] * 2)
assert sorted(cards) == shoe
' js.out
d jo --format=json -n 0
py "json: mode os, no penetration" '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["mode"] == "os" and o["penetration"] is None
assert o["hands"] == [[]] and len(o["rest"]) == 52 and o["burn"] == []
' jo.out

# One deal order whatever the round: burn, hands by layout, then the rest
# are cut from the same sequence under the same seed.
# The second time a shoe of 156,000 cards: its 150,000 hand cards, dealt
# in one call (fsh_deck_deal_hands lays them out; the command dealt them
# in pieces of 65,536 before session 19, with the same cards).
LAYOUTS='
import json, sys
d = json.load(open(sys.argv[1]))["hands"][0]
rr, bl = (json.load(open(f)) for f in sys.argv[2:4])
P, K, B = map(int, sys.argv[5:8])
assert rr["burn"] == d[:B] and bl["burn"] == d[:B]
for p in range(P):
    for c in range(K):
        assert rr["hands"][p][c] == d[B + c * P + p]
        assert bl["hands"][p][c] == d[B + p * K + c]
assert rr["rest"] == d[B + P * K:] and bl["rest"] == d[B + P * K:]
assert bl["layout"] == "blocks" and rr["layout"] == "round-robin"
assert open(sys.argv[4]).read().split() == d[:5]
'
d seq --seed=L --format=json --decks=2
d rr --seed=L --format=json --decks=2 --burn=3 --players=4 --cards=5
d bl --seed=L --format=json --decks=2 --burn=3 --players=4 --cards=5 --layout=blocks
d n5 --seed=L -n 5 --poker --decks=2
py "layouts: hands cut from the one deal order" "$LAYOUTS" seq.out rr.out bl.out n5.out 4 5 3
d seqL --seed=L --format=json --decks=3000
d rrL --seed=L --format=json --decks=3000 --burn=1000 --players=3 --cards=50000
d blL --seed=L --format=json --decks=3000 --burn=1000 --players=3 --cards=50000 --layout=blocks
d n5L --seed=L -n 5 --poker --decks=3000
py "layouts: hands of 150,000 cards, cut from the one deal order" \
    "$LAYOUTS" seqL.out rrL.out blL.out n5L.out 3 50000 1000
d tx --seed=L --decks=2 --burn=3 --players=4 --cards=5 --poker
py "text and JSON deal the same round" '
import json, sys
o = json.load(open(sys.argv[1]))
lines = dict(l.split(":", 1) for l in open(sys.argv[2]).read().splitlines())
assert lines["Burn"].split() == o["burn"]
for p in range(4):
    assert lines["Player %d" % (p + 1)].split() == o["hands"][p]
assert lines["Rest"].split() == o["rest"]
' rr.out tx.out

# The terminal: colour for red suits, aligned columns, labels; NO_COLOR.
if command -v script >/dev/null 2>&1; then
    tty_run() { # OUT ENV... -- ARGS: fairshuf deal on a pty
        _o=$1
        shift
        env "$@" script -qec "\"$F\" deal --seed=tty --jokers=2 $TTY_ARGS" /dev/null >"$_o" 2>&1
    }
    TTY_ARGS=""
    tty_run c1 TERM=xterm
    check "pty: red in colour" grep -q "$(printf '\033\\[31m')" c1
    tty_run c2 NO_COLOR=1
    check "pty, NO_COLOR=1: no colour" sh -c '! grep -q "$(printf "\033")" c2'
    tty_run c3 NO_COLOR=
    check "pty, NO_COLOR empty: colour" grep -q "$(printf '\033\\[31m')" c3
    py "pty: aligned columns, red exactly for diamonds, hearts, RJ" '
import re, sys
text = open(sys.argv[1], encoding="utf-8").read().replace("\r", "")
rows = [l for l in text.split("\n") if l]
assert len(rows) == 5, rows
red = set()
for row in rows:
    for m in re.finditer("\x1b\\[31m(.*?)\x1b\\[0m", row):
        red.add(m.group(1))
    plain = re.sub("\x1b\\[[0-9]*m", "", row)
    names = plain.split()
    # every name starts on a multiple of 4 columns ("10" is the widest)
    starts = [m.start() for m in re.finditer(r"\S+", plain)]
    assert starts == [4 * i for i in range(len(names))], plain
reds = {n for n in red if n != "RJ"}
assert all(n[-1] in "\u2666\u2665" for n in reds), red
assert len(reds) == 26 and "RJ" in red and "BJ" not in red
' c1
    TTY_ARGS="--players=2 --cards=3 --burn=1 --penetration=20"
    tty_run c4 NO_COLOR=1
    py "pty: labels in one column" '
import sys
rows = [l for l in open(sys.argv[1], encoding="utf-8").read().replace("\r", "").split("\n") if l]
labels = ["Burn:", "Player 1:", "Player 2:", "Rest:"]
for lab, row in zip(labels, rows):
    assert row.startswith(lab), row
    assert row[10] != " " and row[9] == " ", row
assert rows[-1].startswith("Cut card: after card 20 of 54"), rows[-1]
' c4
else
    skipped "no script(1): no pty tests"
fi

# A provably fair round: the commitment, the deal that fairshuf verify and
# examples/verify_deal.py recompute, --reveal, JSON's "fair" object.
printf '%s\n' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >s32.hex
i=0
: >s80.txt
while [ $i -lt 80 ]; do printf '%02x' $((i * 7 % 256)) >>s80.txt; i=$((i + 1)); done
{ cut -c 1-80 s80.txt; echo; cut -c 81- s80.txt; } >s80.hex # white space is ignored
d f1 --server-seed-file=s32.hex --client-seed=alice --nonce=3 --players=2 --cards=2 --burn=1 --poker
d f2 --server-seed-file=s32.hex --client-seed=alice --nonce=3 --players=2 --cards=2 --burn=1 --poker
check "fair: exit 0" rc_is f1 0
check "fair: deterministic" cmp -s f1.out f2.out
$TO "$F" deal --server-seed-file=- --client-seed=alice --nonce=3 --players=2 --cards=2 --burn=1 --poker <s32.hex >f4.out 2>&1
check "fair: the seed from standard input" cmp -s f1.out f4.out
# Standard input closed: "-" is named as GNU cat names it (fairshuf.1,
# DIAGNOSTICS), exit 1, nothing dealt.
$TO "$F" deal --server-seed-file=- --players=2 --cards=2 <&- >fc.out 2>fc.err
echo $? >fc.rc
check "fair: --server-seed-file=- with standard input closed" sh -c \
    '[ "$(cat fc.rc)" = 1 ] && [ "$(cat fc.err)" = "fairshuf deal: -: Bad file descriptor" ] && [ ! -s fc.out ]'
d f3 --server-seed-file=s32.hex --client-seed=alice --nonce=4 --players=2 --cards=2 --burn=1 --poker
check "fair: another nonce deals otherwise" sh -c '! cmp -s f1.out f3.out'
check "fair: labels" test "$(cut -d : -f 1 f1.out | tr '\n' '|')" = "Algorithm|Commitment|Client seed|Nonce|Burn|Player 1|Player 2|Rest|"
py "fair: the commitment is SHA-256 of the seed" '
import hashlib, sys
seed = bytes.fromhex(open(sys.argv[1]).read())
lines = dict(l.split(": ", 1) for l in open(sys.argv[2]).read().splitlines())
assert lines["Commitment"] == hashlib.sha256(seed).hexdigest(), lines
assert lines["Nonce"] == "3" and lines["Algorithm"] == "fairshuf-deal-v1"
' s32.hex f1.out
d fj --server-seed-file=s80.hex --client-seed='a "q" \ b' --nonce=18446744073709551615 --decks=2 --jokers=1 --players=3 --cards=4 --burn=2 --layout=blocks --format=json --reveal
check "fair json: exit 0" rc_is fj 0
py "fair json: the fair object" '
import hashlib, json, sys
o = json.load(open(sys.argv[1]))
seed = "".join(open(sys.argv[2]).read().split())
f = o["fair"]
assert o["mode"] == "fair"
assert list(f) == ["algorithm", "commitment", "server_seed", "client_seed", "nonce"], list(f)
assert f["algorithm"] == "fairshuf-deal-v1" and f["server_seed"] == seed
assert f["commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
assert f["client_seed"] == "a \"q\" \\ b" and f["nonce"] == 2**64 - 1
' fj.out s80.hex
# (The path was relative to the test's directory after its cd: until
# session 12 this block never ran.)
if [ -n "$PY" ] && [ -f "$VD" ]; then
    "$PY" "$VD" --json fj.out >vp.out 2>&1
    check "fair json: verify_deal.py says VALID" grep -q VALID vp.out
    # Types as the schema gives them (fairshuf verify's reading): a boolean
    # or float nonce verified VALID or crashed; an unknown layout was read
    # as round-robin; the commitment in upper case was refused with --json.
    # tampered EXPR: vt.json = fj.out edited by sed EXPR, then verify_deal.py
    # on it (vp.out, vp.err, vp.rc); fails when EXPR changed nothing.
    tampered() {
        sed "$1" fj.out >vt.json
        if cmp -s fj.out vt.json; then bad "verify_deal.py: $1 changed nothing"; return 1; fi
        "$PY" "$VD" --json vt.json >vp.out 2>vp.err
        echo $? >vp.rc
    }
    for e in 's/"nonce": *[0-9]*/"nonce":true/' 's/"nonce": *[0-9]*/"nonce":3.0/' \
        's/"decks": *[0-9]*/"decks":true/' 's/"layout": *"[a-z-]*"/"layout":"zigzag"/' \
        's/"burn": *\[[^]]*\]/"burn":[5]/'; do
        tampered "$e" || continue
        # with fairshuf verify's message (the file named, the member quoted)
        "$F" verify --json=vt.json >v.out 2>v.err
        sed 's/^fairshuf verify: /verify_deal.py: /' v.err >v.want
        check "verify_deal.py refuses $e, as fairshuf verify ($(cat vp.err))" sh -c \
            "[ \$(cat vp.rc) = 1 ] && [ ! -s vp.out ] && cmp -s vp.err v.want && ! grep -q Traceback vp.err"
    done
    # Blanks in a hex seed: the ASCII ones fsh_fair_hex_decode skips, not
    # Unicode spaces (str.split took an em space or a no-break space).
    for e in 's/"server_seed": *"\(..\)/"server_seed":"\1\\u2003/' \
        's/"server_seed": *"\(..\)/"server_seed":"\1\\u00a0/'; do
        tampered "$e" || continue
        check "verify_deal.py refuses a Unicode space in the seed ($e)" sh -c "[ \$(cat vp.rc) = 1 ] && grep -q 'malformed hex' vp.err"
        "$F" verify --json=vt.json >v.out 2>&1
        check "fairshuf verify refuses it too ($e)" test "$?" = 1
    done
    sed 's/"server_seed": *"\(..\)/"server_seed":"\1\\n\\t /' fj.out >vt.json
    "$PY" "$VD" --json vt.json >vp.out 2>&1
    check "verify_deal.py: ASCII blanks in the seed are skipped" grep -q '^VALID' vp.out
    C=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["fair"]["commitment"].upper())' fj.out)
    "$PY" "$VD" --json fj.out --commitment="$C" >vp.out 2>&1
    check "verify_deal.py: --commitment in upper case with --json" grep -q '^VALID' vp.out
fi
if "$F" verify --help >/dev/null 2>&1; then
    "$F" verify --json=fj.out >v.out 2>&1
    check "fair json: fairshuf verify says VALID" test "$?" = 0
    d fn --server-seed-file=s80.hex --decks=2 --jokers=1 --format=json
    "$F" verify --json=fn.out --server-seed-file=s80.hex >v.out 2>&1
    check "fair json, not revealed: verify with the seed file" test "$?" = 0
    py "fair json: no server_seed without --reveal" '
import json, sys
assert "server_seed" not in json.load(open(sys.argv[1]))["fair"]
' fn.out
fi
# What makes a table round (--help, fairshuf(1), docs/CARDS.md): any of
# --players, --burn (even 0), --penetration and --server-seed-file, each
# alone here; without them the cards are in rows of 13, no label.
for t in "--seed=t --players=1|Player 1|Rest|" "--seed=t --burn=0|Player 1|Rest|" \
    "--seed=t --burn=1|Burn|Player 1|Rest|" \
    "--seed=t --penetration=52|Player 1|Rest|Cut card|" \
    "--server-seed-file=s32.hex|Algorithm|Commitment|Client seed|Nonce|Player 1|Rest|"; do
    opts=${t%%|*}
    # shellcheck disable=SC2086 # $opts: the options, split
    d tr $opts -p
    check "a table round: $opts" test "$(cat tr.rc) $(cut -d : -f 1 tr.out | tr '\n' '|')" = "0 ${t#*|}"
done
d tr --seed=t --decks=2 --jokers=1 --layout=blocks -n 20 -p
check "no table option: rows of 13, no label" test "$(cat tr.rc) $(wc -l <tr.out) $(wc -w <tr.out) $(grep -c : tr.out)" = "0 2 20 0"
d trj --seed=t -n 5 --format=json
py "no table option, JSON: the hand, and the rest all the same" '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["burn"] == [] and [len(h) for h in o["hands"]] == [5] and len(o["rest"]) == 47, o
' trj.out
check "--help says what makes a table round" grep -q -e '--players, --burn, --penetration or --server-seed-file make a table' h.out
printf '%s' abc >short.hex
# A bad seed file: fairshuf verify's words for the same file.
bad_in "fair: short seed" "fairshuf deal: server seed too short for this game: 32 bytes, 2 decks with 0 jokers need at least 63" --server-seed-file=s32.hex --decks=2
printf '00112233\n' >s4.hex
bad_in "fair: seed under 32 bytes" "fairshuf deal: server seed too short: 4 bytes (at least 32)" --server-seed-file=s4.hex
bad_in "fair: malformed hex" "fairshuf deal: malformed hex in short.hex" --server-seed-file=short.hex
# deal --help: the seed file's ASCII blanks are ignored (anywhere, even in a
# byte), no other blank: a no-break space is malformed hex.
printf ' 0\t0 01\v02\f03\r\n%s' 0405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >blanks.hex
d f5 --server-seed-file=blanks.hex --client-seed=alice --nonce=3 --players=2 --cards=2 --burn=1 --poker
check "fair: ASCII blanks anywhere in the seed file ignored" cmp -s f1.out f5.out
printf '00\302\240%s\n' 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >nbsp.hex
bad_in "fair: a no-break space in the seed file" "fairshuf deal: malformed hex in nbsp.hex" --server-seed-file=nbsp.hex
bad_in "fair: no such file" "fairshuf deal: nofile: No such file or directory" --server-seed-file=nofile
# The largest seed file deal reads is half of what verify reads (4 MiB of
# 8), so that verify reads both the seed file and the round's JSON with the
# seed revealed; one byte more is refused, in verify's words. Deal took up
# to 16 MiB, and the round of a 10 MB seed file could not be verified.
head -c 2097152 /dev/urandom | od -An -tx1 -v | tr -d ' \n' >max.hex
d fmax --server-seed-file=max.hex --reveal --format=json
check "fair: a seed file of 4 MiB ($(wc -c <max.hex) bytes): dealt" rc_is fmax 0
"$F" verify --json=fmax.out >fmax.v 2>&1
check "fair: verify checks its round from the JSON with the seed revealed" grep -q '^VALID: ' fmax.v
"$F" verify --json=fmax.out --server-seed-file=max.hex >fmax.v 2>&1
check "fair: verify reads its seed file" grep -q '^VALID: ' fmax.v
{ cat max.hex; echo; } >over.hex
bad_in "fair: a seed file of 4 MiB and a byte: verify's words" "fairshuf deal: over.hex: file too large" --server-seed-file=over.hex
rm -f max.hex over.hex fmax.out fmax.v
bad_in "fair: --client-seed alone" "fairshuf deal: --client-seed needs --server-seed-file (a provably fair round)" --client-seed=x
bad_in "fair: --reveal alone" "fairshuf deal: --reveal needs --server-seed-file (a provably fair round)" --reveal
# --generator: each ChaCha variant deals a whole deck (which generator each
# name keys is tests/test_cli_rng.c); not with --seed or a fair round.
for g in chacha8 chacha12 chacha20; do
    d gen --generator=$g --poker
    check "--generator=$g: 52 distinct" test "$(cat gen.rc) $(tr ' ' '\n' <gen.out | sort -u | wc -l)" = "0 52"
done
bad_in "--generator=xoshiro" "fairshuf deal: invalid generator: 'xoshiro' (chacha8, chacha12 or chacha20)" --generator=xoshiro
bad_in "--generator with --seed" "fairshuf deal: --generator chooses the OS-keyed generator: not with --seed" --generator=chacha20 --seed=x
bad_in "--generator in a fair round" "fairshuf deal: --generator chooses the OS-keyed generator: not with --server-seed-file" --generator=chacha20 --server-seed-file=s32.hex
# An option given again with another value is refused, as shuf mode
# refuses two seeds or generators ("multiple ... specified"; deal took the
# last one); the same value again is accepted, as there.
bad_in "two seeds" "fairshuf deal: multiple seeds specified" --seed=a --seed=b
bad_in "two generators" "fairshuf deal: multiple generators specified" --generator=chacha8 --generator=chacha20
bad_in "two deck counts" "fairshuf deal: multiple deck counts specified" --decks=2 --decks=3
bad_in "two joker counts" "fairshuf deal: multiple joker counts specified" --jokers=1 --jokers=2
bad_in "two player counts" "fairshuf deal: multiple player counts specified" --players=2 --players=3
bad_in "two card counts" "fairshuf deal: multiple card counts specified" --players=2 --cards=2 --cards=3
bad_in "-n and --cards, two counts" "fairshuf deal: multiple card counts specified" -n 5 --cards=6
bad_in "two burn counts" "fairshuf deal: multiple burn counts specified" --burn=1 --burn=2
bad_in "two penetrations" "fairshuf deal: multiple penetrations specified" --penetration=10 --penetration=20
bad_in "two layouts" "fairshuf deal: multiple layouts specified" --layout=blocks --layout=round-robin
bad_in "two formats" "fairshuf deal: multiple formats specified" --format=json --format=unicode
bad_in "--format=json and -p" "fairshuf deal: multiple formats specified" --format=json -p
bad_in "two server seed files" "fairshuf deal: multiple server seed files specified" --server-seed-file=s32.hex --server-seed-file=s80.hex
bad_in "two client seeds" "fairshuf deal: multiple client seeds specified" --server-seed-file=s32.hex --client-seed=a --client-seed=b
bad_in "two nonces" "fairshuf deal: multiple nonces specified" --server-seed-file=s32.hex --nonce=1 --nonce=2
# Each value is checked first, as fairshuf verify and shuf mode do: an
# invalid one is reported as invalid wherever it comes (deal said
# "multiple ... specified" of --decks=2 --decks=x).
bad_in "two deck counts, the second invalid" "fairshuf deal: invalid number of decks: 'x' (1 to 82595524)" --decks=2 --decks=x
bad_in "two deck counts, the first invalid" "fairshuf deal: invalid number of decks: 'x' (1 to 82595524)" --decks=x --decks=2
bad_in "two deck counts, one out of range" "fairshuf deal: invalid number of decks: '0' (1 to 82595524)" --decks=2 --decks=0
bad_in "three deck counts, the third invalid" "fairshuf deal: invalid number of decks: 'y' (1 to 82595524)" --decks=2 --decks=3 --decks=y
bad_in "two player counts, one zero" "fairshuf deal: invalid number of players: '0' (1 to 52)" --players=0 --players=2
bad_in "-n and --cards, one over the shoe" "fairshuf deal: invalid card count: '60' (0 to 52)" -n 5 --cards=60
bad_in "two burn counts, one over the shoe" "fairshuf deal: invalid burn count: '99' (0 to 52)" --burn=1 --burn=99
bad_in "two penetrations, one zero" "fairshuf deal: invalid penetration: '0' (1 to 52)" --penetration=10 --penetration=0
bad_in "two joker counts, one invalid" "fairshuf deal: invalid number of jokers: '3' (0 to 2)" --jokers=1 --jokers=3
bad_in "two nonces, the second invalid" "fairshuf deal: invalid nonce: 'x' (0 to 18446744073709551615)" --server-seed-file=s32.hex --nonce=1 --nonce=x
# -n with --players is refused wherever it comes (a --cards after it hid it).
bad_in "-n, then --cards, with --players" "fairshuf deal: -n counts all the cards; with --players, give the cards a hand with --cards" --players=2 -n 2 --cards=2
d once --seed=a --decks=2 --players=3 --cards=4 --burn=1 --layout=blocks --format=json
d twice --seed=a --seed=a --decks=2 --decks=02 --players=3 --players=3 --cards=4 --cards=4 --burn=1 --burn=1 --layout=blocks --layout=blocks --format=json --format=json
check "the same values twice: the same deal" sh -c 'test "$(cat twice.rc)" = 0 && cmp -s once.out twice.out'
d twice --generator=chacha20 --generator=chacha20 --format=text -p -p -n 3 --cards=3
check "the same generator, format and count twice: accepted" sh -c 'test "$(cat twice.rc)" = 0 && test "$(wc -w <twice.out)" = 3'
d once --server-seed-file=s32.hex --client-seed=c --nonce=7 --format=json
d twice --server-seed-file=s32.hex --server-seed-file=s32.hex --client-seed=c --client-seed=c --nonce=7 --nonce=07 --format=json
check "a fair round's options twice: the same round" sh -c 'test "$(cat twice.rc)" = 0 && cmp -s once.out twice.out'
# What fairshuf verify checks, deal makes: at most 1000 decks in a fair
# round, and a nonce of digits only.
bad_in "fair: 1001 decks" "fairshuf deal: invalid number of decks: '1001' (1 to 1000)" --server-seed-file=s32.hex --decks=1001
bad_in "fair: nonce with a sign" "fairshuf deal: invalid nonce: '+5' (0 to 18446744073709551615)" --server-seed-file=s32.hex --nonce=+5
bad_in "fair: nonce with a blank" "fairshuf deal: invalid nonce: ' 5' (0 to 18446744073709551615)" --server-seed-file=s32.hex --nonce=' 5'
d cut1 --seed=r --players=1 --cards=3 --penetration=4
check "cut card: one more card (singular)" grep -q 'after card 4 of 52: 1 more card before it' cut1.out
bad_in "fair: with --seed (GNU's words, as verify's)" "fairshuf deal: cannot combine --seed and --server-seed-file options
$try" --seed=x --server-seed-file=s32.hex
bad_in "fair: bad nonce" "fairshuf deal: invalid nonce: '18446744073709551616' (0 to 18446744073709551615)" --server-seed-file=s32.hex --nonce=18446744073709551616
bad_in "fair: client seed of 257 bytes" "fairshuf deal: client seed longer than 256 bytes" --server-seed-file=s32.hex --client-seed="$(printf '%0257d' 0)"
bad_in "fair: client seed not UTF-8 in JSON" "fairshuf deal: the client seed is not valid UTF-8 (the verifiers take text)" --server-seed-file=s32.hex --client-seed="$(printf 'a\377')" --format=json
# In text too: web/verify.html and verify_deal.py take text, so a round
# dealt from other bytes could not be checked there (FAIRNESS.md).
bad_in "fair: client seed not UTF-8 in text" "fairshuf deal: the client seed is not valid UTF-8 (the verifiers take text)" --server-seed-file=s32.hex --client-seed="$(printf 'a\377')"
bad_in "fair: client seed a lone continuation byte" "fairshuf deal: the client seed is not valid UTF-8 (the verifiers take text)" --server-seed-file=s32.hex --client-seed="$(printf '\200')" --players=2 --cards=2

# Memory (fairshuf(1), deal): 8 bytes a card of the shoe and 4 a card
# dealt, checked against what the system can give before anything is
# dealt; beyond it, or beyond ulimit -v, "fairshuf deal: memory exhausted" at
# once, exit 1, no output.
# mem_is PREFIX: that refusal.
mem_is() {
    test "$(cat "$1.rc") $(cat "$1.err")" = "1 fairshuf deal: memory exhausted" && [ ! -s "$1.out" ]
}
# The check, against a fake /proc/meminfo (MemAvailable + SwapFree: 10000
# + 2000 kB = 12,288,000 bytes): 20,000 decks (1,040,000 cards, 12 bytes
# each: 12,480,000) are refused; dealt with -n 5 (8 bytes a card:
# 8,320,020); 19,000 decks (11,856,000) are dealt, but not without the
# free swap (10,240,000). The shim needs a dynamically linked binary.
if FAKEPROC=$(shim fakeproc) && FD=$(dynamic); then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
    export ASAN_OPTIONS
    mkdir -p fake
    # fake_deal AVAIL_KB SWAP_KB PREFIX ARGS...: deal with that meminfo.
    fake_deal() {
        printf 'MemTotal: 1000000 kB\nMemAvailable: %s kB\nSwapTotal: 4000 kB\nSwapFree: %s kB\n' "$1" "$2" >fake/meminfo
        _p=$3
        shift 3
        env LD_PRELOAD="$FAKEPROC" FSH_FAKE_PROC="$PWD/fake" $TO "$FD" deal "$@" >"$_p.out" 2>"$_p.err"
        echo $? >"$_p.rc"
    }
    fake_deal 10000 2000 m1 --seed=m --decks=20000
    check "memory: 20,000 decks in 12,288,000 bytes: refused" mem_is m1
    fake_deal 10000 2000 m2 --seed=m --decks=20000 -n 5
    check "memory: 5 cards of them: dealt" test "$(cat m2.rc) $(wc -w <m2.out)" = "0 5"
    fake_deal 10000 2000 m3 --seed=m --decks=19000 --format=json
    check "memory: 19,000 decks: dealt" test "$(cat m3.rc)" = 0
    fake_deal 10000 0 m4 --seed=m --decks=19000 --format=json
    check "memory: 19,000 decks without the free swap: refused" mem_is m4
    # In a container the cgroup's room counts too (fairshuf(1)): its limit
    # less what it holds less its inactive page cache, the least over it
    # and its ancestors, in a fake cgroup v2 and v1 (the shim redirects
    # /proc/self/cgroup and /proc/self/mountinfo to fake/, whose mounts
    # are directories here). The machine has 100,000 kB free: only the
    # cgroup can refuse. cg ROOM_LINE...: 20,000 decks (12,480,000 bytes)
    # refused and 19,000 (11,856,000) dealt with the cgroup as set up.
    mkdir -p cg2/a/b cg1/mem/x/y
    cg() {
        fake_deal 100000 0 c1 --seed=m --decks=20000 --format=json
        check "cgroup: $1: 20,000 decks refused" mem_is c1
        fake_deal 100000 0 c2 --seed=m --decks=19000 --format=json
        check "cgroup: $1: 19,000 decks dealt" test "$(cat c2.rc)" = 0
    }
    printf '0::/a/b\n' >fake/cgroup
    printf '30 20 0:26 / %s rw - cgroup2 cgroup2 rw\n' "$PWD/cg2" >fake/mountinfo
    echo max >cg2/a/b/memory.max
    echo 12000000 >cg2/a/memory.max
    cg "v2 parent memory.max 12,000,000, no memory.current"
    echo 20000000 >cg2/a/memory.max
    echo 8000000 >cg2/a/memory.current
    cg "v2 parent memory.max 20,000,000 holding 8,000,000"
    echo 9000000 >cg2/a/memory.current
    printf 'anon 7000000\nfile 2000000\ninactive_file 1000000\n' >cg2/a/memory.stat
    cg "v2 holding 9,000,000, 1,000,000 of it inactive page cache"
    rm cg2/a/memory.max cg2/a/memory.current cg2/a/memory.stat
    echo 30000000 >cg2/a/b/memory.max
    echo 18000000 >cg2/a/b/memory.current
    cg "v2 own memory.max 30,000,000 holding 18,000,000"
    printf '5:cpu:/x\n4:memory:/x/y\n0::/\n' >fake/cgroup
    printf '32 20 0:28 / %s rw - cgroup cgroup rw,memory\n' "$PWD/cg1/mem" >fake/mountinfo
    echo 9223372036854771712 >cg1/mem/x/y/memory.limit_in_bytes
    echo 20000000 >cg1/mem/x/memory.limit_in_bytes
    echo 9000000 >cg1/mem/x/memory.usage_in_bytes
    printf 'cache 2000000\ninactive_file 1000000\ntotal_inactive_file 1000000\n' >cg1/mem/x/memory.stat
    cg "v1 parent limit 20,000,000 holding 9,000,000, 1,000,000 inactive"
    rm -f fake/cgroup fake/mountinfo
else
    bad "memory check: no libfakeproc.so or no dynamically linked twin near $F (make build/tests/libfakeproc.so build/dyn/fairshuf)"
fi
# ulimit -v (an ASan binary cannot run under it at all).
if (ulimit -v 100000 && "$F" deal --seed=m -n 1 >/dev/null 2>&1); then
    # 52 million cards, 624 MB, in 200 MB; the largest shoe, 82,595,524
    # decks (4,294,967,248 cards, 51.5 GB), in 1 GB.
    (ulimit -v 200000 && exec $TO "$F" deal --seed=m --decks=1000000) >m5.out 2>m5.err
    echo $? >m5.rc
    check "ulimit -v 200000: 52 million cards refused" mem_is m5
    s0=$(date +%s)
    (ulimit -v 1000000 && exec $TO "$F" deal --decks=82595524 --format=json) >m6.out 2>m6.err
    echo $? >m6.rc
    s1=$(date +%s)
    check "ulimit -v 1000000: the largest shoe refused at once ($((s1 - s0)) s)" \
        sh -c "[ $((s1 - s0)) -lt 10 ] && [ \"\$(cat m6.rc) \$(cat m6.err)\" = '1 fairshuf deal: memory exhausted' ] && [ ! -s m6.out ]"
    # A shoe mixed with RDSEED holds the deck and the cards and little
    # more: its hardware words are drawn a piece at a time (all of them
    # first took 3 bytes a card more: 14 MB for 100,000 decks). base: what
    # a 2-deck OS deal takes, to the MB; then 100,000 decks (5,200,000
    # cards, 60,938 kB) get 6 MB over their 12 bytes a card.
    if "$F" deal --decks=2 >/dev/null 2>&1; then
        base=2048
        while [ $base -lt 65536 ] &&
            ! (ulimit -v $base && "$F" deal --decks=2 >/dev/null 2>&1
                r=$? # not exec'd: too little memory may kill it by a
                exit $r) 2>/dev/null; do # signal, reported here
            base=$((base + 1024))
        done
        lim=$((base + 60938 + 6144))
        (ulimit -v $lim && exec $TO "$F" deal --decks=100000 --poker) >m7.out 2>m7.err
        echo $? >m7.rc
        check "ulimit -v $lim: 100,000 decks with RDSEED dealt ($(cat m7.err))" \
            test "$(cat m7.rc) $(wc -w <m7.out)" = "0 5200000"
    else
        skipped "memory of a mixed shoe: no RDSEED here ($("$F" deal --decks=2 2>&1 >/dev/null))"
    fi
else
    skipped "ulimit -v: the binary cannot run under it (sanitizer build?)"
fi

# Bad input.
bad_in "unknown option" "fairshuf deal: unrecognized option '--bogus'
$try" --bogus
bad_in "zero players" "fairshuf deal: invalid number of players: '0' (1 to 52)" --players=0
bad_in "too many players" "fairshuf deal: invalid number of players: '53' (1 to 52)" --players=53
bad_in "players not a number" "fairshuf deal: invalid number of players: 'x' (1 to 52)" --players=x
bad_in "more cards than the shoe" "fairshuf deal: 3 hands of 20 cards need 60 cards; the shoe holds 52" --players=3 --cards=20
bad_in "hands and burn over the shoe" "fairshuf deal: 2 hands of 26 cards and the burn need 53 cards; the shoe holds 52" --players=2 --cards=26 --burn=1
# One hand, one card: in the singular.
bad_in "one hand and the burn over the shoe" "fairshuf deal: 1 hand of 52 cards and the burn need 53 cards; the shoe holds 52" --players=1 --cards=52 --burn=1
bad_in "hands of one card and the burn over the shoe" "fairshuf deal: 2 hands of 1 card and the burn need 53 cards; the shoe holds 52" --players=2 --cards=1 --burn=51
bad_in "-n over the shoe" "fairshuf deal: invalid card count: '53' (0 to 52)" -n 53
bad_in "--cards over the shoe less the burn" "fairshuf deal: invalid card count: '52' (0 to 51)" --cards=52 --burn=1
bad_in "-n with --players" "fairshuf deal: -n counts all the cards; with --players, give the cards a hand with --cards" -n 4 --players=2
bad_in "zero decks" "fairshuf deal: invalid number of decks: '0' (1 to 82595524)" --decks=0
bad_in "negative decks" "fairshuf deal: invalid number of decks: '-1' (1 to 82595524)" --decks=-1
bad_in "three jokers" "fairshuf deal: invalid number of jokers: '3' (0 to 2)" --jokers=3
bad_in "burn over the shoe" "fairshuf deal: invalid burn count: '53' (0 to 52)" --burn=53
bad_in "penetration 0" "fairshuf deal: invalid penetration: '0' (1 to 52)" --penetration=0
bad_in "penetration over the shoe" "fairshuf deal: invalid penetration: '105' (1 to 104)" --penetration=105 --decks=2
bad_in "penetration not a number" "fairshuf deal: invalid penetration: '1e3' (1 to 52)" --penetration=1e3
bad_in "unknown layout" "fairshuf deal: invalid layout: 'rows' (round-robin or blocks)" --layout=rows
bad_in "unknown format" "fairshuf deal: invalid format: 'xml' (unicode, text or json)" --format=xml
bad_in "huge number" "fairshuf deal: invalid card count: '99999999999999999999999' (0 to 52)" -n 99999999999999999999999
bad_in "extra operand" "fairshuf deal: extra operand 'x'
$try" x

# Memory: the cards dealt and the deck are asked for in one request before
# either is used, so a shoe that can never fit fails at once with the
# usual message. The largest shoe, 82595524 decks, needs about 51.5 GB,
# the deck alone (-n 5) 34 GB: under ulimit -v (lib.sh's memcap). Under
# Linux's heuristic overcommit each part of a plan was granted (the kernel
# refuses only a single request beyond RAM + swap) and the OOM killer
# ended the deal part-way. The libovercommit.so shim plays such a machine
# with 200 MB (under memcap as well): 384616 decks are a deck of 160 MB
# and 80 MB of cards dealt, each granted, together refused at once; with
# -n 5 the deck alone fits and deals. Plans a large machine could grant
# need the C library's allocator and ulimit -v: an ASan binary has
# neither (it cannot run under ulimit -v, and its runtime keeps malloc
# and mmap ahead of any preloaded shim).
if [ "$slow" = 1 ]; then
    skipped "the largest shoe under ulimit -v, and the overcommit shim (an ASan binary cannot run under ulimit -v, and keeps malloc and mmap from the shim)"
else
    for args in "--decks=82595524" "--decks=82595524 -n 5"; do
        # shellcheck disable=SC2086
        (memcap; exec timeout 5 "$F" deal --seed=m $args) >big.out 2>big.err
        check "largest shoe under ulimit -v: $args: exit 1, at once" test $? = 1
        check "largest shoe under ulimit -v: $args: the message alone" \
            test "$(cat big.err)" = "fairshuf deal: memory exhausted" -a ! -s big.out
    done
    # -n 0 deals no card and makes no deck: nothing to ask for (the
    # deck's 34 GB were asked for and refused, though nothing used them).
    (memcap; exec timeout 5 "$F" deal --seed=m --decks=82595524 -n 0) >n0.out 2>n0.err
    check "largest shoe under ulimit -v: -n 0: exit 0, nothing written" \
        test "$? $(wc -c <n0.out) $(wc -c <n0.err)" = "0 0 0"
fi
if [ "$slow" = 1 ]; then
    :
elif OC=$(shim overcommit) && FD=$(dynamic); then
    # oc PREFIX ARGS...: the deal on the 200 MB machine; the first 100
    # bytes of its output to PREFIX.out.
    oc() {
        _p=$1
        shift
        ( (memcap; FSH_OVERCOMMIT_MAX=200000000 LD_PRELOAD=$OC \
            exec timeout 5 "$FD" deal --seed=m "$@" 2>"$_p.err")
            echo $? >"$_p.rc") | head -c 100 >"$_p.out"
    }
    oc ocall --decks=384616
    check "overcommit: 20000032 cards: exit 1 at once" rc_is ocall 1
    check "overcommit: 20000032 cards: the message alone" \
        test "$(cat ocall.err)" = "fairshuf deal: memory exhausted" -a ! -s ocall.out
    oc oc5 --decks=384616 -n 5 --poker
    check "overcommit: 5 cards of 20000032: dealt" \
        test "$(cat oc5.rc) $(wc -w <oc5.out)" = "0 5"
else
    bad "overcommit: no libovercommit.so or no dynamically linked twin near $F (make build/tests/libovercommit.so build/dyn/fairshuf)"
fi

finish
