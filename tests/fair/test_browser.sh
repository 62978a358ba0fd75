#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 63 (its usual wall time in s: longest first)
# web/verify.html in a real headless browser: Debian's chromium driven by
# tests/fair/browser.mjs (playwright-core from npm, installed by .ci/run
# into tests/fair/node_modules). Vectors come from the C library (`fairshuf
# verify --print-order`): one deck, jokers, a 2-deck and an 8-deck shoe, a
# random 3-deck shoe with a joker, the deal JSON, and tampered rounds that
# must show NOT VALID with what differs; and about 60 rounds and deal JSONs
# (noted fields that differ from the JSON, strict JSON, malformed deals, 101
# decks, the 8 MiB cap), client seeds entered escaped (a line break),
# burn cards and hands through the fields, one hand alone and the rest
# alone (the hand number field and the rest box), and the largest shoe (1000
# decks, fields and JSON) that `fairshuf verify` also answers, where the
# page must say what it says. FSH_VERIFY_HTML=file runs another copy of the page
# (e.g. an older one). Keeps a screenshot in $T (set
# FSH_SCREENSHOT=path to keep it, e.g. docs/img/verify.png). Skipped only
# when chromium or node is not installed.
NAME=test_browser
. "$(dirname "$0")/../cli/lib.sh"
# Not under make sanitize: the page is JavaScript, which ASan and UBSan do
# not see, and its vectors come from `fairshuf verify --print-order`, which
# test_verify and test_fair_diff run there (it was 74 s of the sanitizer
# run in CI for no C code of its own).
if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "the page in a browser (JavaScript: make check runs it)"
    finish
    exit $?
fi
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

export S1 C1 S2 C2 S3 C3 S4 C4 S5 C5 N5 O1 O2 O3 O4 O5 T ROOT
python3 - "$T/vectors.json" "$T/c_disagree" <<'PYEOF'
# The vectors, each with what `fairshuf verify` answers on the same input
# (in a UTF-8 locale, whose quotes the page uses: \u2018x\u2019):
# with a "json", `verify --json=FILE` plus --server-seed, --commitment,
# --client-seed and --nonce for the fields the vector fills (what the player
# noted); without, `verify` with the fields as options and the dealt cards
# as arguments. The page must give the same status (VALID / NOT VALID /
# bad input), its problem lines exactly the command's NOT VALID lines, or
# its one line "bad input: " and the command's message (without the JSON
# file's name), and the VALID line. (The page said "the commitment field",
# "the hands field needs the cards per hand field", 'x' for \u2018x\u2019
# and so on: only up to a "--" and some messages were compared.) "want" is what the vector is meant to show: C must agree with
# it too. Vectors with c=False have no C counterpart (decks or jokers
# fields, or dealt cards, beside a JSON: fairshuf verify refuses those
# options with --json) and state their expectation.
import json, os, re, subprocess, sys
E = os.environ
F, T = E["FAIRSHUF"], E["T"]
S1, C1, S2, C2, S3, C3, S4, C4, S5, C5, N5 = (E[k] for k in "S1 C1 S2 C2 S3 C3 S4 C4 S5 C5 N5".split())
O1, O2, O3, O4, O5 = (E[k] for k in "O1 O2 O3 O4 O5".split())
BL = " \t\n\v\f\r"

def order(seed, client="", nonce=0, decks=1, jokers=0):
    return subprocess.run([F, "verify", "--print-order", "--server-seed=" + seed, "--client-seed=" + client,
                           "--nonce=%d" % nonce, "--decks=%d" % decks, "--jokers=%d" % jokers],
                          capture_output=True, text=True, check=True).stdout.strip()

def deal(o, commitment, client="", nonce=0, decks=1, jokers=0, players=3, cards=2, burn=1,
         layout="round-robin", seed=None, pre=None):
    d = o.split()
    P, K, B = players, cards, burn
    pos = (lambda p, c: B + c * P + p) if layout != "blocks" else (lambda p, c: B + p * K + c)
    doc = {"schema": "fairshuf-deal/1", "decks": decks, "jokers": jokers, "cards_in_shoe": (52 + jokers) * decks,
           "players": P, "cards_per_hand": K, "layout": layout, "burn": d[:B],
           "hands": [[d[pos(p, c)] for c in range(K)] for p in range(P)], "rest": d[B + P * K:],
           "penetration": None, "mode": "fair"}
    doc.update(pre or {})
    doc["fair"] = {"algorithm": "fairshuf-deal-v1", "commitment": commitment, "client_seed": client, "nonce": nonce}
    if seed is not None:
        doc["fair"]["server_seed"] = seed
    return doc

J = lambda doc: json.dumps(doc, ensure_ascii=False)
d1 = O1.split()
deal1 = deal(O1, C1, "player-1")
tampered = d1[:4] + ["7d"] + d1[5:10]
# 101 decks (beyond the 100 the page took): a seed of 3,803+ bytes.
S101 = bytes((97 * k + 13) % 256 for k in range(3900)).hex()
C101 = __import__("hashlib").sha256(bytes.fromhex(S101)).hexdigest()
O101 = order(S101, "big", 7, 101)
O42 = order(S1, "player-1", 42)
OBIG = order(S1, "player-1", int(N5))
OANB = order(S1, "a\nb")
OCARD = order(S1, "\U0001F0A1")
OCRLF = order(S1, "a\r\nb")
OESC = order(S1, "x\ty\\z\U0001F0A1")
OLIT = order(S1, "a\\nb")
def laid(o, burn, players, cards, layout):
    d = o.split()
    pos = (lambda p, c: burn + c * players + p) if layout != "blocks" else (lambda p, c: burn + p * cards + c)
    return d[:burn] + [d[pos(p, c)] for p in range(players) for c in range(cards)] + d[burn + players * cards:]
LAID_RR = laid(O1, 1, 3, 2, "round-robin")
LAID_BL = laid(O1, 1, 3, 2, "blocks")
# 1000 decks with 2 jokers: the largest shoe, with its minimum seed (38,805 bytes)
NBIG = int(subprocess.run(["python3", "-B", "-c", "import sys; sys.path.insert(0, sys.argv[1]); import verify_deal as v; print(v.seed_min(54, 1000))",
                           os.path.join(E["ROOT"], "examples")], capture_output=True, text=True, check=True).stdout)
SBIG = bytes((71 * k + 5) % 256 for k in range(NBIG)).hex()
CBIG = __import__("hashlib").sha256(bytes.fromhex(SBIG)).hexdigest()
OBIGSHOE = order(SBIG, "big \U0001f0a1", 18446744073709551615, 1000, 2)
LAID_BIG = laid(OBIGSHOE, 3, 10, 7, "round-robin")
UNI = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
USYM = lambda n: n if n in ("RJ", "BJ") else ("10" if n[0] == "T" else n[0]) + UNI[n[1]]
ONBSP = S1[:10] + "\u00a0" + S1[10:]

def edit(doc, **kw):
    doc = json.loads(json.dumps(doc))
    for k, v in kw.items():
        if k.startswith("fair_"):
            doc["fair"][k[5:]] = v
        else:
            doc[k] = v
    return doc

V = [
  dict(name="vector 1 (one deck)", seed=S1, commitment=C1, client="player-1", nonce="0",
       decks=1, jokers=0, dealt=" ".join(d1[:10]), want="VALID", order=O1),
  dict(name="vector 3 (2-deck shoe)", seed=S3, commitment=C3, client="alice", nonce="42",
       decks=2, jokers=0, dealt=O3, want="VALID", order=O3),
  dict(name="vector 4 (8-deck shoe, nonce 2^64-1)", seed=S4, commitment=C4, client="",
       nonce="18446744073709551615", decks=8, jokers=0, dealt=" ".join(O4.split()[:30]), want="VALID", order=O4),
  dict(name="random 3-deck shoe with a joker, nonce 2^53+1", seed=S5, commitment=C5, client="ŝeed ♠ 5",
       nonce=N5, decks=3, jokers=1, dealt=O5, want="VALID", order=O5),
  dict(name="deal JSON", seed=S1, json=J(deal1), want="VALID", order=O1),
  dict(name="deal JSON, 8 decks, blocks, revealed seed inside, nonce 2^64-1", seed="",
       json=J(deal(O4, C4, "", 18446744073709551615, 8, players=7, layout="blocks", seed=S4)),
       want="VALID", order=O4),
  dict(name="tampered card", seed=S1, commitment=C1, client="player-1", nonce="0",
       dealt=" ".join(tampered), want="NOT VALID", order=O1,
       problems=["card 5 (deal position 5) differs: dealt 7d, the server seed gives 7h; 1 of 10 cards differ"]),
  dict(name="tampered commitment", seed=S1, commitment=C2, client="player-1", nonce="0",
       want="NOT VALID", problems=["commitment mismatch: SHA-256 of the server seed is %s, the commitment is %s" % (C1, C2)]),
  dict(name="tampered seed", seed=S1[:-1] + "e", commitment=C1, client="player-1", nonce="0",
       dealt=" ".join(d1[:5]), want="NOT VALID", problems=["commitment mismatch"]),
  dict(name="short seed", seed=S1, commitment=C1, decks=2, want="bad", problems=["server seed too short for this game: 32 bytes"]),
  dict(name="malformed hex", seed=S1 + "zz", commitment=C1, want="bad",
       problems=["bad input: malformed hex in --server-seed"]),
  # 1. The fields are what the player noted: a JSON does not overwrite them.
  dict(name="JSON, the commitment noted differs", seed=S1, commitment=C2, json=J(deal1), want="NOT VALID",
       problems=["commitment mismatch: the JSON says %s, --commitment %s" % (C1, C2)]),
  dict(name="JSON, the client seed noted differs", seed=S1, client="player-2", json=J(deal1), want="NOT VALID",
       problems=["client seed mismatch: --client-seed differs from the JSON's client_seed"]),
  dict(name="JSON, the nonce noted differs", seed=S1, nonce="1", json=J(deal1), want="NOT VALID",
       problems=["nonce mismatch: the JSON says 0, --nonce 1"]),
  dict(name="JSON, everything noted agrees", seed=S1, commitment=C1.upper(), client="player-1", nonce="0",
       json=J(deal1), want="VALID", order=O1),
  dict(name="JSON with its seed, another seed in the field", seed=S2, json=J(deal(O1, C1, "player-1", seed=S1)),
       want="NOT VALID", problems=["server seed mismatch: the JSON's server_seed is not the seed given"]),
  dict(name="JSON, the decks noted differ", seed=S1, decks=2, json=J(deal1), want="NOT VALID", c=False,
       problems=["decks mismatch: the JSON says 1, --decks 2"]),
  dict(name="JSON, the jokers noted differ", seed=S1, jokers=1, json=J(deal1), want="NOT VALID", c=False,
       problems=["jokers mismatch: the JSON says 0, --jokers 1"]),
  dict(name="JSON, decks and jokers noted agree", seed=S1, decks=1, jokers=0, json=J(deal1), want="VALID",
       c=False, order=O1),
  dict(name="JSON and dealt cards", seed=S1, dealt=" ".join(d1[:3]), json=J(deal1), want="bad", c=False,
       problems=["bad input: the JSON gives the dealt cards"]),
  # 2. The JSON's client seed is its string, bytes as they are.
  dict(name="JSON, client seed a, newline, b", seed=S1, json=J(deal(OANB, C1, "a\nb")), want="VALID", order=OANB),
  dict(name="JSON, client seed a surrogate pair", seed=S1,
       json=J(deal(OCARD, C1)).replace('"client_seed": ""', '"client_seed": "\\ud83c\\udca1"'), want="VALID", order=OCARD),
  dict(name="JSON, client seed a lone surrogate", seed=S1,
       json=J(deal1).replace('"player-1"', '"\\ud800x"'), want="bad"),
  dict(name="JSON, client seed with a NUL, no cards", seed=S1,
       json=J(edit(deal1, players=1, cards_per_hand=0, burn=[], hands=[[]], rest=[], fair_client_seed="a\0b")),
       want="VALID"),
  dict(name="JSON, client seed 256 bytes", seed=S1, json=J(edit(deal1, fair_client_seed="é" * 128, rest=[])), want="NOT VALID"),
  dict(name="JSON, client seed 257 bytes", seed=S1, json=J(edit(deal1, fair_client_seed="é" * 128 + "x")), want="bad"),
  # 3. A strict JSON reader.
  dict(name="JSON, a nonce decoy before fair", seed=S1,
       json=J(deal(O42, C1, "player-1", 42, pre={"note": {"nonce": 0}})), want="VALID", order=O42),
  dict(name="JSON, escaped key n\\u006fnce = 2^53+1", seed=S1,
       json=J(deal(OBIG, C1, "player-1", int(N5))).replace('"nonce"', '"n\\u006fnce"'), want="VALID", order=OBIG),
  dict(name="JSON, duplicate nonce", seed=S1, json=J(deal1).replace('"nonce": 0', '"nonce": 0, "nonce": 0'), want="bad"),
  dict(name="JSON, nonce -0", seed=S1, json=J(deal1).replace('"nonce": 0', '"nonce": -0'), want="VALID"),
  dict(name="JSON, nonce 0.0", seed=S1, json=J(deal1).replace('"nonce": 0', '"nonce": 0.0'), want="bad"),
  dict(name="JSON, nonce 2^64", seed=S1, json=J(deal1).replace('"nonce": 0', '"nonce": 18446744073709551616'), want="bad"),
  dict(name="JSON, nonce 00", seed=S1, json=J(deal1).replace('"nonce": 0', '"nonce": 00'), want="bad"),
  dict(name="JSON, trailing garbage", seed=S1, json=J(deal1) + " x", want="bad"),
  dict(name="JSON, 64 members", seed=S1, json=J(edit(deal1, **{"x%d" % k: k for k in range(64 - len(deal1))})), want="VALID"),
  dict(name="JSON, 65 members", seed=S1, json=J(edit(deal1, **{"x%d" % k: k for k in range(65 - len(deal1))})), want="bad"),
  dict(name="JSON, nesting 64 deep", seed=S1, json=J(edit(deal1, x="[" * 63 + "]" * 63)).replace('"' + "[" * 63 + "]" * 63 + '"', "[" * 63 + "]" * 63), want="VALID"),
  dict(name="JSON, nesting 65 deep", seed=S1, json=J(edit(deal1, x="[" * 64 + "]" * 64)).replace('"' + "[" * 64 + "]" * 64 + '"', "[" * 64 + "]" * 64), want="bad"),
  dict(name="JSON, a NUL in layout", seed=S1, json=J(edit(deal1, layout="round-robin\0")), want="bad"),
  dict(name="JSON, fair is null", seed=S1, json=J(edit(deal1, fair=None)), want="bad"),
  dict(name="JSON, unknown schema", seed=S1, json=J(edit(deal1, schema="fairshuf-deal/2")), want="bad"),
  # 4. Up to 1000 decks.
  dict(name="101 decks", seed=S101, commitment=C101, client="big", nonce="7", decks=101,
       dealt=" ".join(O101.split()[:20]), want="VALID", order=O101),
  dict(name="JSON, 101 decks", seed=S101, json=J(deal(O101, C101, "big", 7, 101, players=2)), want="VALID", order=O101),
  dict(name="1001 decks", seed=S101, commitment=C101, nonce="0", decks=1001, want="bad"),
  # 5. Accepted but malformed: each checked as fairshuf verify does.
  dict(name="JSON, two cards in one string ('3c Jc')", seed=S1,
       json=J(edit(deal1, rest=deal1["rest"][:3] + [deal1["rest"][3] + " " + deal1["rest"][4]] + deal1["rest"][5:])), want="bad"),
  # The schema's cards are poker notation, ASCII: a suit symbol is refused
  # there (the dealt-cards field takes it, as verify's CARD operands do).
  dict(name="JSON, Unicode card names", seed=S1,
       json=J(edit(deal1, burn=[("10" if d1[0][0] == "T" else d1[0][0]) + UNI[d1[0][1]]])), want="bad",
       problems=["bad input: malformed deal JSON: card \u2018" + ("10" if d1[0][0] == "T" else d1[0][0]) + UNI[d1[0][1]] +
                 "\u2019 in \u2018burn\u2019 is not in poker notation (fairshuf-deal/1 cards are ASCII: As Th 2c RJ BJ)"]),
  dict(name="JSON, unknown layout", seed=S1, json=J(edit(deal1, layout="diagonal")), want="bad"),
  dict(name="JSON, zero players", seed=S1, json=J(edit(deal1, players=0, hands=[], rest=d1[1:])), want="bad",
       problems=["bad input: zero players"]),
  dict(name="JSON, cards_in_shoe 53", seed=S1, json=J(edit(deal1, cards_in_shoe=53)), want="bad"),
  dict(name="JSON, 2 hands for 3 players", seed=S1, json=J(edit(deal1, hands=deal1["hands"][:2])), want="bad"),
  dict(name="JSON, a short hand", seed=S1, json=J(edit(deal1, hands=[deal1["hands"][0][:1]] + deal1["hands"][1:])), want="bad"),
  dict(name="JSON, more cards dealt than the shoe holds", seed=S1, json=J(edit(deal1, burn=d1[:47], rest=[])), want="bad"),
  dict(name="JSON, a rest too long", seed=S1, json=J(edit(deal1, rest=deal1["rest"] + ["As"])), want="bad"),
  dict(name="JSON, a joker in a shoe without", seed=S1, json=J(edit(deal1, rest=["RJ"])), want="bad"),
  dict(name="JSON, burn card changed", seed=S1, json=J(edit(deal1, burn=[d1[1]])), want="NOT VALID"),
  dict(name="JSON, two hand cards swapped (blocks)", seed="",
       json=J(edit(deal(O4, C4, "", 18446744073709551615, 8, players=7, layout="blocks", seed=S4),
                   hands=[list(reversed(h)) if k == 3 else h for k, h in
                          enumerate(deal(O4, C4, "", 0, 8, players=7, layout="blocks")["hands"])])),
       want="NOT VALID"),
  dict(name="JSON, rest card changed", seed=S1, json=J(edit(deal1, rest=deal1["rest"][:5] + [deal1["rest"][0]])), want="NOT VALID"),
  dict(name="no-break space in the seed", seed=ONBSP, commitment=C1, client="player-1", nonce="0", want="bad",
       problems=["bad input: malformed hex in --server-seed"]),
  dict(name="no-break space in the JSON's server_seed", seed="", json=J(deal(O1, C1, "player-1", seed=ONBSP)), want="bad"),
  dict(name="vertical tab, form feed and CR in the seed", seed=S1[:8] + "\v" + S1[8:20] + "\f\r\n\t " + S1[20:], commitment=C1,
       client="player-1", nonce="0", dealt=" ".join(d1[:4]), want="VALID", order=O1),
  # Each field is read as fairshuf verify reads its option: only the seed's
  # hex skips blanks; a blank around the commitment, the nonce, the decks or
  # the jokers is refused there as by the command (the page trimmed them).
  # A field is not filled only when empty (the seed: nothing but blanks).
  dict(name="a blank after the commitment", seed=S1, commitment=C1 + " ", client="player-1", nonce="0",
       want="bad",
       problems=["bad input: malformed commitment in --commitment: \u2018" + C1 + " \u2019 (64 hex digits)"]),
  dict(name="a tab before the commitment", seed=S1, commitment="\t" + C1, client="player-1", nonce="0",
       want="bad",
       problems=["bad input: malformed commitment in --commitment: \u2018\\t" + C1 + "\u2019 (64 hex digits)"]),
  dict(name="a commitment field of one space", seed=S1, commitment=" ", client="player-1", want="bad",
       problems=["bad input: malformed commitment in --commitment: \u2018 \u2019 (64 hex digits)"]),
  dict(name="JSON, a blank around the commitment noted", seed=S1, commitment=" " + C1, json=J(deal1), want="bad",
       problems=["bad input: malformed commitment in --commitment: \u2018 " + C1 + "\u2019 (64 hex digits)"]),
  dict(name="a blank before the nonce", seed=S1, commitment=C1, client="player-1", nonce=" 0", want="bad"),
  dict(name="JSON, a blank after the nonce noted", seed=S1, nonce="0 ", json=J(deal1), want="bad"),
  dict(name="a blank after the decks", seed=S1, commitment=C1, client="player-1", decks="1 ", want="bad"),
  dict(name="a blank before the jokers", seed=S1, commitment=C1, client="player-1", jokers=" 0", want="bad"),
  # Dealt cards: poker notation or the suit symbols (after 10 or a rank
  # letter other than T), RJ, BJ, exactly, as the CARD operands of fairshuf
  # verify (and verify_deal.py) read them.
  dict(name="dealt cards with suit symbols, the whole deal", seed=S1, commitment=C1, client="player-1",
       dealt=" ".join(USYM(n) for n in d1), want="VALID", order=O1),
  dict(name="dealt cards in both notations, jokers", seed=S2, commitment=C2, client="Zo\u00eb \U0001f0a1", nonce="1",
       jokers=2, dealt=" ".join(USYM(n) if k % 2 else n for k, n in enumerate(O2.split())), want="VALID", order=O2),
  dict(name="a suit symbol after T", seed=S1, commitment=C1, client="player-1", dealt="T\u2660", want="bad",
       problems=["bad input: unknown card: \u2018T\u2660\u2019"]),
  dict(name="a suit symbol and a variation selector", seed=S1, commitment=C1, client="player-1",
       dealt="A\u2660\ufe0f", want="bad", problems=["bad input: unknown card: \u2018A\u2660\ufe0f\u2019"]),
  dict(name="a white suit symbol", seed=S1, commitment=C1, client="player-1", dealt="A\u2664", want="bad",
       problems=["bad input: unknown card: \u2018A\u2664\u2019"]),
  dict(name="10 with a poker suit", seed=S1, commitment=C1, client="player-1", dealt="10s", want="bad"),
  # Cards are split at ASCII blanks and commas only, as the command takes
  # its CARD arguments: two names joined by a Unicode space are one
  # unknown card (no card name, custom ones included, holds one:
  # docs/CARDS.md), never two cards read one way here, another there.
  dict(name="two cards joined by a no-break space", seed=S1, commitment=C1, client="player-1",
       dealt=d1[0] + "\u00a0" + d1[1], want="bad",
       problems=["bad input: unknown card: \u2018" + d1[0] + "\u00a0" + d1[1] + "\u2019"]),
  dict(name="two cards joined by an em space", seed=S1, commitment=C1, client="player-1",
       dealt=d1[0] + "\u2003" + d1[1], want="bad"),
  dict(name="two cards joined by a line separator (U+2028)", seed=S1, commitment=C1, client="player-1",
       dealt=d1[0] + "\u2028" + d1[1], want="bad",
       problems=["bad input: unknown card: \u2018" + d1[0] + "\\342\\200\\250" + d1[1] + "\u2019"]),
  dict(name="JSON of exactly 8 MiB", seed=S1, json=J(deal1), pad=(8 << 20) - len(J(deal1).encode()), want="VALID"),
  dict(name="JSON of 8 MiB + 1 byte", seed=S1, json=J(deal1), pad=(8 << 20) + 1 - len(J(deal1).encode()), want="bad",
       problems=["file too large"]),
  # The client seed's escapes (the box ticked): every client seed fairshuf
  # verify takes can be entered, a line break too (the field dropped it).
  dict(name="client seed a, newline, b, escaped", seed=S1, commitment=C1, client="a\\nb", client_escapes=True,
       dealt=" ".join(OANB.split()[:5]), want="VALID", order=OANB),
  dict(name="client seed a, CR LF, b, escaped", seed=S1, commitment=C1, client="a\\r\\nb", client_escapes=True,
       dealt=" ".join(OCRLF.split()[:5]), want="VALID", order=OCRLF),
  dict(name="client seed with a tab, a backslash and a card, escaped", seed=S1, commitment=C1,
       client="x\\ty\\\\z\\u{1F0A1}", client_escapes=True, dealt=" ".join(OESC.split()[:5]), want="VALID",
       order=OESC),
  dict(name="client seed a\\nb, not escaped", seed=S1, commitment=C1, client="a\\nb", dealt=" ".join(OLIT.split()[:5]),
       want="VALID", order=OLIT),
  dict(name="client seed a, newline, b, in the field unescaped", seed=S1, commitment=C1, client="a\nb",
       dealt=" ".join(OANB.split()[:5]), want="NOT VALID", c=False),
  dict(name="a malformed escape", seed=S1, commitment=C1, client="a\\qb", client_escapes=True, want="bad", c=False,
       problems=["bad input: malformed escape in the client seed: \u2018\\\\q\u2019"]),
  dict(name="an escaped surrogate", seed=S1, commitment=C1, client="\\u{d800}", client_escapes=True, want="bad",
       c=False, problems=["bad input: malformed escape in the client seed"]),
  dict(name="a backslash at the end", seed=S1, commitment=C1, client="ab\\", client_escapes=True, want="bad",
       c=False, problems=["bad input: malformed escape in the client seed"]),
  dict(name="JSON, client seed a, newline, b noted escaped", seed=S1, client="a\\nb", client_escapes=True,
       json=J(deal(OANB, C1, "a\nb")), want="VALID", order=OANB),
  # Burn cards and hands, as fairshuf verify's --burn, --players, --cards
  # and --layout take them.
  dict(name="burn 1, 3 hands of 2, round-robin", seed=S1, commitment=C1, client="player-1", burn=1, players=3,
       per_hand=2, dealt=" ".join(LAID_RR), want="VALID", order=O1),
  dict(name="burn 1, 3 hands of 2, blocks", seed=S1, commitment=C1, client="player-1", burn=1, players=3,
       per_hand=2, layout="blocks", dealt=" ".join(LAID_BL), want="VALID", order=O1),
  dict(name="blocks read as round-robin", seed=S1, commitment=C1, client="player-1", burn=1, players=3,
       per_hand=2, dealt=" ".join(LAID_BL), want="NOT VALID"),
  dict(name="hand 2 card 1 changed", seed=S1, commitment=C1, client="player-1", burn=1, players=3,
       per_hand=2, layout="round-robin", dealt=" ".join(LAID_RR[:2] + ["7d" if LAID_RR[2] != "7d" else "8d"]),
       want="NOT VALID"),
  dict(name="burn 2, then the rest", seed=S1, commitment=C1, client="player-1", burn=2, dealt=" ".join(d1[:2] + [d1[3]]),
       want="NOT VALID"),
  dict(name="burn 53", seed=S1, commitment=C1, client="player-1", burn=53, want="bad"),
  dict(name="hands without cards per hand", seed=S1, commitment=C1, client="player-1", players=3, want="bad",
       problems=["bad input: --players needs --cards (cards per hand)"]),
  dict(name="cards per hand without hands", seed=S1, commitment=C1, client="player-1", per_hand=3, want="bad",
       problems=["bad input: --cards needs --players"]),
  dict(name="more cards than the shoe", seed=S1, commitment=C1, client="player-1", burn=2, players=17, per_hand=3,
       want="bad"),
  dict(name="JSON, the hands noted differ", seed=S1, players=2, per_hand=2, layout="blocks", json=J(deal1),
       want="NOT VALID", c=False, problems=["players mismatch: the JSON says 3, --players 2",
                                            "layout mismatch: the JSON says round-robin, --layout blocks"]),
  dict(name="JSON, the hands noted agree", seed=S1, burn=1, players=3, per_hand=2, layout="round-robin", json=J(deal1),
       want="VALID", c=False, order=O1),
  # One hand alone (--hand), the rest alone (--rest): a player checks his
  # own cards, or the board. Round-robin after 1 burn, 3 hands of 2: hand
  # 2 is LAID_RR[3:5]; the rest starts at deal position 8.
  dict(name="hand 2 alone, round-robin", seed=S1, commitment=C1, client="player-1", burn=1, players=3, per_hand=2,
       hand=2, dealt=" ".join(LAID_RR[3:5]), want="VALID", order=O1),
  dict(name="hand 3 alone, blocks", seed=S1, commitment=C1, client="player-1", burn=1, players=3, per_hand=2,
       layout="blocks", hand=3, dealt=" ".join(LAID_BL[5:7]), want="VALID", order=O1),
  dict(name="hand 2 alone, its card 2 changed", seed=S1, commitment=C1, client="player-1", burn=1, players=3,
       per_hand=2, hand=2, dealt=" ".join([LAID_RR[3], "7d" if LAID_RR[4] != "7d" else "8d"]), want="NOT VALID"),
  dict(name="hand 1's cards as hand 2", seed=S1, commitment=C1, client="player-1", burn=1, players=3, per_hand=2,
       hand=2, dealt=" ".join(LAID_RR[1:3]), want="NOT VALID"),
  dict(name="hand 4 of 3", seed=S1, commitment=C1, client="player-1", burn=1, players=3, per_hand=2, hand=4,
       dealt=LAID_RR[3], want="bad"),
  dict(name="hand 0", seed=S1, commitment=C1, client="player-1", players=3, per_hand=2, hand=0, want="bad"),
  dict(name="hand x", seed=S1, commitment=C1, client="player-1", players=3, per_hand=2, hand="x", want="bad"),
  dict(name="hand, 3 cards of a hand of 2", seed=S1, commitment=C1, client="player-1", burn=1, players=3, per_hand=2,
       hand=1, dealt=" ".join(LAID_RR[1:4]), want="bad"),
  dict(name="a hand number without hands", seed=S1, commitment=C1, client="player-1", burn=1, hand=1, want="bad",
       problems=["bad input: --hand needs --players and --cards"]),
  dict(name="the rest alone", seed=S1, commitment=C1, client="player-1", burn=1, players=3, per_hand=2, rest=True,
       dealt=" ".join(LAID_RR[7:12]), want="VALID", order=O1),
  dict(name="the rest alone, a card changed", seed=S1, commitment=C1, client="player-1", burn=1, players=3,
       per_hand=2, rest=True, dealt=" ".join(LAID_RR[7:9] + [LAID_RR[6]]), want="NOT VALID"),
  dict(name="the rest after 2 burn cards", seed=S1, commitment=C1, client="player-1", burn=2, rest=True,
       dealt=" ".join(d1[2:6]), want="VALID", order=O1),
  dict(name="the rest, more cards than it holds", seed=S1, commitment=C1, client="player-1", burn=50, rest=True,
       dealt=" ".join(d1[:3]), want="bad"),
  # One card too many is "1 card given", in the singular, in every verifier.
  dict(name="hand, 1 card of a hand of 0", seed=S1, commitment=C1, client="player-1", players=3, per_hand=0,
       hand=2, dealt=d1[0], want="bad", problems=["bad input: 1 card given, more than hand 2 holds (0)"]),
  dict(name="the rest, 1 card when it holds none", seed=S1, commitment=C1, client="player-1", burn=52, rest=True,
       dealt=d1[0], want="bad", problems=["bad input: 1 card given, more than the rest holds (0)"]),
  dict(name="the rest box without burn cards or hands", seed=S1, commitment=C1, client="player-1", rest=True,
       dealt=d1[0], want="bad",
       problems=["bad input: --rest needs --burn or --players (what comes before the rest)"]),
  dict(name="a hand number and the rest box", seed=S1, commitment=C1, client="player-1", players=3, per_hand=2,
       hand=1, rest=True, want="bad", problems=["bad input: cannot combine --hand and --rest options"]),
  dict(name="JSON and a hand number", seed=S1, hand=1, json=J(deal1), want="bad", c=False,
       problems=["bad input: the JSON gives the whole deal: leave the hand number empty and the rest box unticked"]),
  dict(name="JSON and the rest box", seed=S1, rest=True, json=J(deal1), want="bad", c=False,
       problems=["bad input: the JSON gives the whole deal"]),
  # The largest shoe: 1000 decks with 2 jokers (54,000 cards), fields and JSON.
  dict(name="1000 decks, 2 jokers", seed=SBIG, commitment=CBIG, client="big \\u{1F0A1}", client_escapes=True,
       nonce="18446744073709551615", decks=1000, jokers=2, burn=3, players=10, per_hand=7,
       dealt=" ".join(LAID_BIG[:100]), want="VALID", order=OBIGSHOE),
  dict(name="JSON, 1000 decks, 2 jokers, revealed seed", seed="",
       json=J(deal(OBIGSHOE, CBIG, "big \U0001f0a1", 18446744073709551615, 1000, 2, players=10, cards=7, burn=3,
                   seed=SBIG)), want="VALID", order=OBIGSHOE),
  # Last, so the screenshot shows it: jokers, red and black faces, VALID.
  dict(name="vector 2 (one deck, 2 jokers)", seed=S2, commitment=C2, client="Zoë 🂡", nonce="1",
       decks=1, jokers=2, dealt=" ".join(O2.split()[:20]), want="VALID", order=O2, screenshot=True),
]

# A UTF-8 locale for the command's messages; without one, only the
# status, the facts and the vectors' own problems are compared.
UTF8 = None
for name in ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"):
    if subprocess.run(["sh", "-c", 'test "$(LC_ALL=%s locale charmap 2>/dev/null)" = UTF-8' % name]).returncode == 0:
        UTF8 = name
        break
disagree = []
for k, v in enumerate(V):
    v.setdefault("problems", [])
    v["facts"] = []
    given = lambda f: v.get(f) not in (None, "")
    # The client seed the page reads from its field (escapes: its rule).
    client = v.get("client", "")
    if v.get("client_escapes"):
        client = re.sub(r"\\(u\{([0-9a-fA-F]+)\}|.)", lambda m: chr(int(m.group(2), 16)) if m.group(2) else
                        {"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}.get(m.group(1), m.group(0)), client)
    if v.get("c", True):
        args = [F, "verify"]
        if "json" in v:
            path = "%s/v%d.json" % (T, k)
            with open(path, "wb") as f:
                f.write(v["json"].encode() + b" " * v.get("pad", 0))
            args.append("--json=" + path)
            if v["seed"].strip(BL):
                args.append("--server-seed=" + v["seed"])
            for f in "commitment", "nonce":
                if given(f):
                    args.append("--%s=%s" % (f, v[f]))
            if given("client"):
                args.append("--client-seed=" + client)
        else:
            path = None
            args += ["--server-seed=" + v["seed"], "--client-seed=" + client]
            for f in "commitment", "nonce", "decks", "jokers", "burn", "players", "layout", "hand":
                if given(f):
                    args.append("--%s=%s" % (f, v[f]))
            if given("per_hand"):
                args.append("--cards=%s" % v["per_hand"])
            if v.get("rest"):
                args.append("--rest")
            # the page's split (ASCII blanks and commas), not str.split(),
            # which splits at Unicode spaces too
            args += ["--"] + [c for c in re.split("[ \t\n\v\f\r,]+", v.get("dealt", "")) if c]
        p = subprocess.run(args, capture_output=True, env=dict(E, LC_ALL=UTF8 or "C"))
        out, err = p.stdout.decode(), p.stderr.decode()
        if p.returncode == 0 and out.startswith("VALID: "):
            got = "VALID"
            v["facts"].append(out[len("VALID: "):].strip())
        elif "NOT VALID: " in out:
            got = "NOT VALID"
            v["lines"] = [l[len("NOT VALID: "):] for l in out.splitlines()]
        elif err.startswith("fairshuf verify: "):
            got = "bad"
            msg = err.strip().splitlines()[0][len("fairshuf verify: "):]
            if path and msg.startswith(path + ": "):
                msg = msg[len(path) + 2:]
            v["lines"] = ["bad input: " + msg]
        else:
            got = "? (exit %d: %s %s)" % (p.returncode, out[:100], err[:100])
        if not UTF8:
            v.pop("lines", None)
        if got != v["want"]:
            disagree.append("%s: fairshuf verify says %s, the vector wants %s" % (v["name"], got, v["want"]))
    v["status"] = "VALID" if v["want"] == "VALID" else "NOT VALID"
    v["bad"] = v["want"] == "bad"
json.dump(V, open(sys.argv[1], "w"), ensure_ascii=False)
open(sys.argv[2], "w").write("".join(l + "\n" for l in disagree))
PYEOF
while IFS= read -r line; do bad "$line"; done <"$T/c_disagree"

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
node "$ROOT/tests/fair/browser.mjs" "$pw" "${FSH_VERIFY_HTML:-$ROOT/web/verify.html}" "$T/vectors.json" "$shot" \
    >"$T/browser.out" 2>"$T/browser.err"
rc=$?
check "browser.mjs ran (exit $rc: $(head -c 600 "$T/browser.err"))" [ "$rc" = 0 ]
while IFS= read -r line; do
    case $line in
    "ok "*) ok ;;
    "not ok "*) bad "${line#not ok }" ;;
    esac
done <"$T/browser.out"
check "at least 150 browser checks ran" [ "$(grep -c '^ok ' "$T/browser.out")" -ge 150 ]
check "screenshot written" sh -c "head -c 8 '$shot' | od -An -c | grep -q 'P   N   G'"
finish
