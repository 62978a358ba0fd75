#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 37 (its usual wall time in s: longest first)
# examples/verify_deal.py (Python standard library, written from the text of
# docs/FAIRNESS.md) against the C library (fsh_fair_order through
# `test_fair order`) and `fairshuf verify`: random sets (numbered faces,
# decks with 0-2 jokers, shoes up to 8 decks), seed lengths at and above the
# minimum (several segments, a short last one), random client seeds (UTF-8,
# up to 256 bytes), random nonces up to 2^64 - 1; short seeds refused by
# both; hostile deal JSON and options at their limits, on which both give
# one verdict. Skipped without python3.
NAME=test_verify_py
. "$(dirname "$0")/../cli/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=$ROOT/examples/verify_deal.py
helper=
for h in "$(dirname "$FAIRSHUF")/tests/test_fair" "$(dirname "$FAIRSHUF")/build/tests/test_fair"; do
    [ -x "$h" ] && { helper=$h; break; }
done
if ! command -v python3 >/dev/null 2>&1; then
    skipped "python3 not installed"
    finish
    exit $?
fi
if [ -z "$helper" ]; then
    bad "no test_fair helper beside $FAIRSHUF"
    finish
    exit $?
fi

# 1. Many random inputs, one Python process; prints "ok N" or failures.
cases=300
[ "$slow" = 1 ] && cases=60
python3 - "$PY" "$helper" "$cases" >"$T/py.out" 2>&1 <<'PYEOF'
import importlib.util, random, subprocess, sys
spec = importlib.util.spec_from_file_location("verify_deal", sys.argv[1])
v = importlib.util.module_from_spec(spec); spec.loader.exec_module(v)
helper, cases = sys.argv[2], int(sys.argv[3])
rnd = random.Random(20261123)
alphabet = "abcXYZ 019-_é€🂡"
ok = bad = 0
for case in range(cases):
    kind = rnd.randrange(4)
    if kind == 0:
        faces, copies = rnd.randint(1, 70), rnd.randint(1, 3)
    elif kind == 1:
        faces, copies = 52 + rnd.randint(0, 2), 1
    elif kind == 2:
        faces, copies = 52 + rnd.randint(0, 2), rnd.randint(2, 8)
    else:
        faces, copies = rnd.randint(1, 6), rnd.randint(1, 4)
    need = v.seed_min(faces, copies)
    r = rnd.random()
    if r < 0.1:
        L = need - rnd.randint(1, min(need, 5))
    elif r < 0.3:
        L = need
    else:
        L = need + rnd.randint(0, 100)
    seed = bytes(rnd.randrange(256) for _ in range(L))
    client = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 40)))
    if rnd.random() < 0.05:
        client = "x" * 256
    cb = client.encode()
    if len(cb) > 256:
        client = client[:60]; cb = client.encode()
    nonce = rnd.choice([0, 1, 2**64 - 1, rnd.randrange(2**64), rnd.randrange(1000)])
    out = subprocess.run([helper, "order", str(faces), str(copies), seed.hex(), client, str(nonce)],
                         capture_output=True, text=True).stdout.strip()
    try:
        want = " ".join(map(str, v.deal_order(seed, cb, nonce, faces, copies)))
    except v.BadInput as e:
        want = "refused"
        out = "refused" if out.startswith("error -7") else out
    if out == want:
        ok += 1
    else:
        bad += 1
        print("MISMATCH faces=%d copies=%d L=%d client=%r nonce=%d\n  C:  %s\n  py: %s"
              % (faces, copies, L, client, nonce, out[:200], want[:200]))
print("ok", ok, "bad", bad)
PYEOF
if grep -q "^ok $cases bad 0$" "$T/py.out"; then ok; else bad "C and Python differ: $(head -c 2000 "$T/py.out")"; fi

# The exact rejection, word by word, against fsh_fair_reduce (the random
# rounds above almost never reject: 2^64 mod r is tiny next to 2^64).
python3 "$ROOT/tests/fair/reduce_cases.py" >"$T/words"
"$helper" reduce <"$T/words" >"$T/want"
python3 - "$PY" "$T/words" >"$T/got" <<'PYEOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("verify_deal", sys.argv[1])
v = importlib.util.module_from_spec(spec); spec.loader.exec_module(v)
for line in open(sys.argv[2]):
    x, r = map(int, line.split())
    j = v.reduce_word(x, r)
    print("reject" if j is None else j)
PYEOF
check "python reduction = C on $(wc -l <"$T/words") words ($(grep -c reject "$T/want") rejected)" cmp -s "$T/want" "$T/got"

# 2. The script as a player runs it: vector 3 of docs/FAIRNESS.md.
S3=0b30557a9fc4e90e33587da2c7ec11365b80a5caef14395e83a8cdf2173c6186abd0f51a3f6489aed3f81d42678cb1d6fb20456a8fb4d9fe23486d92b7dc0126
C3=94eb5de4943613fd048dc93393ab06877405faa39c11f53e9386083339833e7e
python3 "$PY" --server-seed "$S3" --commitment "$C3" --client-seed alice --nonce 42 --decks 2 \
    Jd 8s 4s Qc 7h >"$T/o" 2>"$T/e"
check "py: vector 3 VALID" grep -q "^VALID: commitment $C3 matches; 5 of 104 cards checked (2 decks, 0 jokers, nonce 42)$" "$T/o"
python3 "$PY" --server-seed "$S3" --commitment "$C3" --client-seed alice --nonce 42 --decks 2 \
    Jd 8s 4s Qc 7d >"$T/o" 2>"$T/e"
rc=$?
check "py: wrong card exit 1" [ "$rc" = 1 ]
check "py: wrong card named" grep -q "^NOT VALID: card 5 (deal position 5) differs: dealt 7d, the server seed gives 7h; 1 of 5 cards differ" "$T/o"
python3 "$PY" --server-seed "$S3" --commitment "${C3%?}0" --client-seed alice --nonce 42 --decks 2 >"$T/o" 2>"$T/e"
rc=$?
check "py: commitment mismatch" sh -c "[ $rc = 1 ] && grep -q '^NOT VALID: commitment mismatch' '$T/o'"
python3 "$PY" --server-seed "$S3" --client-seed alice --nonce 42 --decks 2 --order >"$T/o"
check "py: order line sha256" sh -c "printf %s \"\$(cat '$T/o')\" | sha256sum | grep -q ^8323cdf4b0b7a807"
python3 "$PY" --server-seed 00ff --decks 1 --print-order >"$T/o" 2>"$T/e"
rc=$?
check "py: short seed refused" sh -c "[ $rc = 1 ] && grep -q 'too short' '$T/e'"
python3 "$PY" --server-seed 0g --decks 1 >"$T/o" 2>"$T/e"
rc=$?
check "py: malformed hex" sh -c "[ $rc = 1 ] && grep -q 'malformed hex' '$T/e'"

# The deal JSON (blocks, jokers, the revealed seed inside), and tampered.
python3 - "$T/deal.json" <<'PYEOF'
import json, sys
d = "8s Qd RJ 9d 8c Ks 4c Tc Js 6h 9c Ac 8h Kd 6d 7s As Qc 4h BJ 8d Ad 2c Kc Th 3d 2d Ts 4d 7c Jh Jc Ah 6c 3s Jd 9s 9h Qh 3h 6s 5h 2s Qs 7d Td 5c 7h 4s 3c 5d Kh 5s 2h".split()
P, K, B = 3, 5, 3
hands = [[d[B + p * K + c] for c in range(K)] for p in range(P)]
json.dump({"schema": "fairshuf-deal/1", "decks": 1, "jokers": 2, "cards_in_shoe": 54, "players": P,
           "cards_per_hand": K, "layout": "blocks", "burn": d[:B], "hands": hands, "rest": d[B + P * K:],
           "penetration": None, "mode": "fair",
           "fair": {"algorithm": "fairshuf-deal-v1",
                    "commitment": "6dde9e258487f14ccf87ea63efc2327dcbc912c12eb04544c292fea94731f059",
                    "server_seed": "f0e1d2c3b4a59687" * 4, "client_seed": "Zo\u00eb \U0001f0a1", "nonce": 1}},
          open(sys.argv[1], "w"))
PYEOF
python3 "$PY" --json "$T/deal.json" >"$T/o" 2>"$T/e"
rc=$?
check "py: deal JSON VALID" sh -c "[ $rc = 0 ] && grep -q '^VALID: commitment 6dde9e25.* matches; 54 of 54 cards' '$T/o'"
sed 's/"Qd"/"Kd"/' "$T/deal.json" >"$T/deal2.json"
python3 "$PY" --json "$T/deal2.json" >"$T/o" 2>"$T/e"
check "py: tampered JSON NOT VALID" grep -q "^NOT VALID: burn card 2 (deal position 2) differs: dealt Kd, the server seed gives Qd" "$T/o"
"$FAIRSHUF" verify --json="$T/deal.json" >"$T/o" 2>"$T/e"
check "fairshuf verify: the same JSON VALID" grep -q "^VALID: commitment 6dde9e25" "$T/o"
# The schema's cards are poker notation, ASCII: a suit symbol in the JSON is
# refused by both (escaped or raw), though the CARD operands take it.
for e in 's/"Qd"/"Q\\u2666"/' 's/"Qd"/"Q♦"/'; do
    sed "$e" "$T/deal.json" >"$T/deal3.json"
    python3 "$PY" --json "$T/deal3.json" >"$T/o" 2>"$T/e"
    rc=$?
    check "py: a suit symbol in the JSON refused ($e)" sh -c "[ $rc = 1 ] && grep -q 'malformed deal JSON: card .* is not in poker notation' '$T/e' && ! grep -q VALID '$T/o'"
    "$FAIRSHUF" verify --json="$T/deal3.json" >"$T/o" 2>"$T/e"
    check "fairshuf verify: the same JSON refused ($e)" grep -q 'is not in poker notation' "$T/e"
done

# Group numbers are 32 bits (u32be(g)): started at group 2^32 - 2 (the
# seam the tests have, first_group), 58 cards (two groups) are dealt and
# 104 (three) refused with a message, never dealt from a wrapped group 0
# (to_bytes(4) raised OverflowError, a traceback).
python3 - "$PY" >"$T/wrap.out" 2>&1 <<'PYEOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("verify_deal", sys.argv[1])
v = importlib.util.module_from_spec(spec); spec.loader.exec_module(v)
seed = bytes(range(80))  # 104 distinct cards need 69 bytes
print("58:", len(v.deal_order(seed, b"", 0, 58, 1, first_group=2**32 - 2)))
try:
    v.deal_order(seed, b"", 0, 104, 1, first_group=2**32 - 2)
    print("104: dealt")
except v.BadInput as e:
    print("104: refused:", e)
PYEOF
check "py: group numbers stop at 2^32 - 1" sh -c "grep -q '^58: 58\$' '$T/wrap.out' && grep -q '^104: refused: the deal needs more than 2^32 groups' '$T/wrap.out'"

# The largest sets: at most 2^32 - 1 cards, as the library
# (FSH_FAIR_CARDS_MAX) and the Python package take them, and no more
# memory than the system has. verify_deal.py computed the factorial of
# every set's card count first: one face of 2^32 - 1 copies (a 32-byte
# seed) ran for hours, its memory growing, and so did 65537 x 65537.
# Now: a message and exit 1 at once. The seed rule of a set of more than
# 100,000 cards comes from O(n) bounds (the factorials grow faster than
# n): the bounds give the factorials' count wherever they answer, and
# the library's minimum (test_fair order: a seed of that length is
# dealt, one byte less refused) on sets of 120,000 and 140,000 cards.
S32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
for c in "1 4294967295 memory exhausted: 4294967295 cards need about" \
    "65537 65537 65537 faces x 65537 copies are 4295098369 cards, more than a set holds (4294967295)" \
    "4294967296 1 4294967296 faces x 1 copies are 4294967296 cards, more than a set holds (4294967295)"; do
    set -- $c
    m=$1 k=$2
    shift 2
    timeout 30 python3 "$PY" --server-seed $S32 --faces "$m" --copies "$k" >"$T/big.o" 2>"$T/big.e"
    rc=$?
    check "py: --faces $m --copies $k refused at once (exit $rc: $(head -c 200 "$T/big.e"))" \
        sh -c "[ $rc = 1 ] && [ ! -s '$T/big.o' ] && grep -qF 'verify_deal.py: $*' '$T/big.e'"
done
python3 - "$PY" "$helper" >"$T/bounds.out" 2>&1 <<'PYEOF'
import importlib.util, math, subprocess, sys
spec = importlib.util.spec_from_file_location("verify_deal", sys.argv[1])
v = importlib.util.module_from_spec(spec); spec.loader.exec_module(v)
wrong = unsure = 0
for m in range(1, 41):
    for c in range(1, 31):
        exact = (math.factorial(m * c) // math.factorial(c) ** m - 1).bit_length()
        b = v.orders_bits_bounded(m, c)
        wrong += b is not None and b != exact
        unsure += b is None and m * c >= 3
print("bounds: %d wrong, %d unsure" % (wrong, unsure))
for m, c in ((2, 60000), (3, 40000), (7, 20000)):  # hex seeds under the 128 KiB of one argument
    need = v.seed_min(m, c)
    seed = bytes((13 * k + 1) % 256 for k in range(need))
    got = []
    for s in (seed, seed[:-1]):
        out = subprocess.run([sys.argv[2], "order", str(m), str(c), s.hex(), "", "0"],
                             capture_output=True, text=True).stdout
        got.append(out.split(":")[0] if out.startswith("error") else "dealt %d" % len(out.split()))
    print("%d x %d: %d bytes: %s" % (m, c, need, ", ".join(got)))
PYEOF
check "py: the seed rule's bounds agree with the factorials ($(head -1 "$T/bounds.out"))" \
    grep -q '^bounds: 0 wrong, 0 unsure$' "$T/bounds.out"
for set in "2 x 60000: [0-9]* bytes: dealt 120000" "3 x 40000: [0-9]* bytes: dealt 120000" \
    "7 x 20000: [0-9]* bytes: dealt 140000"; do
    check "py: seed rule of $set, error -7 one byte short ($(grep "^${set%%:*}" "$T/bounds.out"))" \
        grep -q "^$set, error -7\$" "$T/bounds.out"
done

# 3. verify_deal.py and `fairshuf verify --print-order` agree.
# A client seed that starts with "-", or is "--", is the option's value
# (getopt's reading; argparse took "-x" for an option and refused it).
for c in "1 2 7 bob" "3 1 0 -" "8 0 18446744073709551615 z" "2 2 99 é🂡" "1 0 5 -x" "1 0 5 --" \
    "1 0 5 --order"; do
    set -- $c
    cs=$4
    [ "$cs" = - ] && cs=
    seed=$(python3 -c 'import os; print(os.urandom(300).hex())')
    py=$(python3 "$PY" --server-seed "$seed" --decks "$1" --jokers "$2" --nonce "$3" \
        --client-seed "$cs" --order 2>&1)
    cc=$("$FAIRSHUF" verify --server-seed="$seed" --decks="$1" --jokers="$2" \
        --nonce="$3" --client-seed="$cs" --print-order 2>&1)
    check "verify and python agree ($c)" [ "$py" = "$cc" ]
done

# The reader of --order gone (a pipe closed): no traceback.
python3 "$PY" --server-seed "$S3" --decks 2 --order 2>"$T/pipe.err" | true
check "py: --order into a closed pipe: no traceback" sh -c "! grep -q Traceback '$T/pipe.err'"

# 4. What counts as hex: verify_deal.py accepts exactly what fairshuf verify
# accepts (fsh_fair_hex_decode for a seed: hex digits in pairs, the ASCII
# blanks space, \t \n \v \f \r skipped anywhere; parse_commitment: 64 hex
# digits, either case, nothing else). Each case goes to both, through
# --server-seed, --server-seed-file (raw bytes), --commitment and a deal
# JSON's server_seed and commitment (\u escapes and raw UTF-8), and must get
# the same verdict, VALID or refused, and the one the rule gives
# (verify_deal.py took Unicode spaces around a commitment: str.strip).
python3 - "$PY" "$FAIRSHUF" "$T" >"$T/hex.out" 2>&1 <<'PYEOF'
import hashlib, json, os, subprocess, sys
py, fs, tmp = sys.argv[1:4]
S = bytes(range(32))
H = S.hex()
C = hashlib.sha256(S).hexdigest()
first = subprocess.run([fs, "verify", "--server-seed=" + H, "--print-order"],
                       capture_output=True, text=True).stdout.split()[0]
U = {"em space": "\u2003", "no-break space": "\u00a0", "NEL": "\u0085",
     "ideographic space": "\u3000", "ogham space": "\u1680", "BOM": "\ufeff",
     "line separator": "\u2028", "file separator": "\x1c", "unit separator": "\x1f",
     "NUL": "\x00", "DEL": "\x7f"}
seeds = [  # (name, text, accepted)
    ("plain", H, True), ("upper case", H.upper(), True),
    ("ASCII blanks around", " \t" + H + "\n\v\f\r", True),
    ("ASCII blanks inside", " ".join(H[k:k + 2] for k in range(0, 64, 2)), True),
    ("a blank inside a byte", H[:1] + "\t" + H[1:], True),
    ("odd digits", H + "0", False), ("0x prefix", "0x" + H, False), ("empty", "", False),
    ("fullwidth digit", H[:-1] + "\uff10", False), ("arabic-indic digit", H[:-1] + "\u0660", False)]
for name, u in U.items():
    seeds.append((name + " around", u + H + u, False))
    seeds.append((name + " inside", H[:2] + u + H[2:], False))
commits = [
    ("plain", C, True), ("upper case", C.upper(), True),
    ("mixed case", C[:32].upper() + C[32:], True),
    ("63 digits", C[:-1], False), ("65 digits", C + "0", False), ("empty", "", False),
    ("space around", " " + C, False), ("tab after", C + "\t", False), ("newline after", C + "\n", False),
    ("space inside", C[:32] + " " + C[32:], False), ("fullwidth digit", C[:-1] + "\uff10", False)]
for name, u in U.items():
    commits.append((name + " before", u + C, False))
    commits.append((name + " after", C + u, False))
sf = os.path.join(tmp, "seed.txt")
subprocess.run([fs, "deal", "--server-seed-file=-", "--format=json", "--reveal"],
               input=H.encode(), stdout=open(os.path.join(tmp, "base.json"), "wb"), check=True)
base = json.load(open(os.path.join(tmp, "base.json")))

def both(cargs, pargs):
    """(C exit status, Python exit status); a traceback is no refusal."""
    c = subprocess.run([fs, "verify"] + cargs, capture_output=True).returncode
    p = subprocess.run([sys.executable, py] + pargs, capture_output=True)
    return c, "traceback" if b"Traceback" in p.stderr else p.returncode

def verdict(rc):
    return {0: True, 1: False}.get(rc, "%s" % rc)

bad = n = 0
def case(what, name, want, cargs, pargs):
    global bad, n
    n += 1
    c, p = both(cargs, pargs)
    if not (verdict(c) == verdict(p) == want):
        bad += 1
        print("DISAGREE %s %r: want %s, fairshuf verify %s, verify_deal.py %s"
              % (what, name, want, verdict(c), verdict(p)))

def seed_json(field, text, ascii_escapes):
    d = json.loads(json.dumps(base))
    d["fair"][field] = text
    f = os.path.join(tmp, "case.json")
    with open(f, "w", encoding="utf-8") as o:
        json.dump(d, o, ensure_ascii=ascii_escapes)
    return f

for name, text, want in seeds:
    if "\x00" not in text:  # argv cannot hold a NUL
        case("--server-seed", name, want, ["--server-seed=" + text, "--commitment=" + C, first],
             ["--server-seed", text, "--commitment", C, first])
    with open(sf, "wb") as o:
        o.write(text.encode("utf-8"))
    case("--server-seed-file", name, want, ["--server-seed-file=" + sf, "--commitment=" + C, first],
         ["--server-seed-file", sf, "--commitment", C, first])
    for esc in (True, False):
        f = seed_json("server_seed", text, esc)
        case("JSON server_seed" + (" (\\u)" if esc else " (UTF-8)"), name, want,
             ["--json=" + f], ["--json", f])
# bytes that are no UTF-8 at all, in a seed file: refused by both
for name, raw in (("Latin-1 no-break space", b"\xa0"), ("0xff", b"\xff")):
    with open(sf, "wb") as o:
        o.write(H[:2].encode() + raw + H[2:].encode())
    case("--server-seed-file", name, False, ["--server-seed-file=" + sf, "--commitment=" + C, first],
         ["--server-seed-file", sf, "--commitment", C, first])
for name, text, want in commits:
    if "\x00" not in text:
        case("--commitment", name, want, ["--server-seed=" + H, "--commitment=" + text, first],
             ["--server-seed", H, "--commitment", text, first])
    for esc in (True, False):
        f = seed_json("commitment", text, esc)
        case("JSON commitment" + (" (\\u)" if esc else " (UTF-8)"), name, want,
             ["--json=" + f], ["--json", f])
        if want:  # --commitment in another case than the JSON's: the same round
            case("JSON commitment and --commitment", name, want,
                 ["--json=" + f, "--commitment=" + C.upper()], ["--json", f, "--commitment", C.upper()])
print("cases", n, "disagree", bad)
PYEOF
if grep -q "^cases [0-9]* disagree 0$" "$T/hex.out"; then
    ok
else
    bad "verify_deal.py and fairshuf verify read hex differently: $(head -c 3000 "$T/hex.out")"
fi

# 5. Card names (the CARD operands, docs/CARDS.md and fairshuf.1): poker
# notation (As Th 2c), the suit symbols after 10 or a rank letter other than
# T (A♠ 10♥), RJ and BJ, exactly. Both verifiers get the same names and
# must give the same verdict, the one the rule gives: the whole deal in
# each notation is VALID, a name of the other notation at a card's place
# is NOT VALID, anything else is refused (verify_deal.py refused every
# suit symbol).
python3 - "$PY" "$FAIRSHUF" >"$T/cards.out" 2>&1 <<'PYEOF'
import subprocess, sys
py, fs = sys.argv[1:3]
S = bytes(range(32)).hex()
C = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
SYM = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
common = ["--client-seed=player-1", "--jokers=2"]
order = subprocess.run([fs, "verify", "--server-seed=" + S, "--print-order"] + common,
                       capture_output=True, text=True, check=True).stdout.split()
uni = lambda n: n if n in ("RJ", "BJ") else ("10" if n[0] == "T" else n[0]) + SYM[n[1]]
other = "Qs" if order[0] != "Qs" else "Ks"
cases = [  # (name, cards, verdict)
    ("the whole deal, poker notation", order, "VALID"),
    ("the whole deal, suit symbols", [uni(n) for n in order], "VALID"),
    ("both notations mixed", [uni(n) if k % 2 else n for k, n in enumerate(order)], "VALID"),
    ("a symbol name for another card", [uni(other)], "NOT VALID"),
]
for bad in ["T\u2660", "\u2660A", "10s", "1\u2660", "0\u2660", "11\u2660", "1O\u2660", "A\u2660\ufe0f",
            "a\u2660", "As\u2660", "10\u2660\u2660", "A\u2664", "A\u2661", "A\u2662", "A\u2667",
            "\uff21\u2660", "10 \u2660", "A\u2660 ", " A\u2660", "\u2660", "A", "", "Rj", "RJ\u2660",
            "A\u00a0\u2660", "AS", "tH"]:
    cases.append(("refused: %r" % bad, [bad], "bad"))

def verdict(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode == 0 and "VALID: " in p.stdout and "NOT VALID" not in p.stdout:
        return "VALID"
    if p.returncode == 1 and "NOT VALID: " in p.stdout:
        return "NOT VALID"
    if p.returncode == 1 and p.stderr.strip() and "Traceback" not in p.stderr:
        return "bad"
    return "? %d %r %r" % (p.returncode, p.stdout[-200:], p.stderr[-200:])

n = disagree = 0
for name, cards, want in cases:
    n += 1
    c = verdict([fs, "verify", "--server-seed=" + S, "--commitment=" + C] + common + cards)
    p = verdict([sys.executable, py, "--server-seed", S, "--commitment", C, "--client-seed", "player-1",
                 "--jokers", "2", "--"] + cards)
    if not c == p == want:
        disagree += 1
        print("DISAGREE %s: want %s, fairshuf verify %s, verify_deal.py %s" % (name, want, c, p))
print("cases", n, "disagree", disagree)
PYEOF
if grep -q "^cases [0-9]* disagree 0$" "$T/cards.out"; then
    ok
else
    bad "verify_deal.py and fairshuf verify read card names differently: $(head -c 3000 "$T/cards.out")"
fi
# 6. The deal JSON and the options as fairshuf verify reads them: one
# verdict (VALID, NOT VALID, bad input) from both, and never a traceback.
# verify_deal.py used Python's json module as it is (the last of duplicate
# names, NaN, lone surrogates that crashed it, any nesting but 100,000
# levels (RecursionError), any number of members, no 8 MiB cap, numbers
# over 4,300 digits refused), took --decks and cards beside --json
# silently, had no 1000-deck limit, read "-" as a file name for the seed,
# called a disagreeing --nonce bad input instead of NOT VALID, and crashed
# on a client seed whose bytes are not UTF-8 and on 5000-digit numbers.
python3 - "$PY" "$FAIRSHUF" "$T" >"$T/strict.out" 2>&1 <<'PYEOF'
import hashlib, json, os, subprocess, sys
py, fs, tmp = sys.argv[1:4]
S = bytes(range(32)).hex()
C = hashlib.sha256(bytes(range(32))).hexdigest()
order = subprocess.run([fs, "verify", "--server-seed=" + S, "--print-order", "--client-seed=p"],
                       capture_output=True, text=True, check=True).stdout.split()
base = json.dumps({"schema": "fairshuf-deal/1", "decks": 1, "jokers": 0, "cards_in_shoe": 52,
                   "players": 1, "cards_per_hand": 2, "layout": "round-robin", "burn": [],
                   "hands": [order[:2]], "rest": order[2:], "penetration": None, "mode": "fair",
                   "fair": {"algorithm": "fairshuf-deal-v1", "commitment": C, "server_seed": S,
                            "client_seed": "p", "nonce": 0}})
def sub(old, new):
    assert old in base, old
    return base.replace(old, new, 1)
cases = [  # (name, JSON, extra options, verdict)
    ("as dealt", base, [], "VALID"),
    ("duplicate nonce", sub('"nonce": 0', '"nonce": 5, "nonce": 0'), [], "bad"),
    ("duplicate unknown member", sub('"mode"', '"x": 1, "x": 2, "mode"'), [], "bad"),
    ("NaN", sub('"penetration": null', '"penetration": NaN'), [], "bad"),
    ("Infinity", sub('"penetration": null', '"penetration": Infinity'), [], "bad"),
    ("a lone surrogate", sub('"client_seed": "p"', '"client_seed": "\\ud800"'), [], "bad"),
    ("a NUL in a member name", sub('"mode"', '"m\\u0000ode"'), [], "bad"),
    ("nesting 65 deep", sub('"penetration": null', '"penetration": ' + "[" * 64 + "]" * 64), [], "bad"),
    ("nesting 100000 deep", sub('"penetration": null', '"penetration": ' + "[" * 99999 + "]" * 99999), [], "bad"),
    ("65 members", sub('"mode"', "".join('"x%d": 0, ' % k for k in range(52)) + '"mode"'), [], "bad"),
    ("a number of 5000 digits unused", sub('"penetration": null', '"penetration": 1' + "0" * 4999), [], "VALID"),
    ("a nonce of 5000 digits", sub('"nonce": 0', '"nonce": 1' + "0" * 4999), [], "bad"),
    ("1001 decks", sub('"decks": 1, "jokers": 0, "cards_in_shoe": 52', '"decks": 1001, "jokers": 0, "cards_in_shoe": 52052'), [], "bad"),
    ("a card more than the shoe", sub('"rest": [', '"rest": ["As", '), [], "bad"),
    ("over 8 MiB", base + " " * ((8 << 20) + 1 - len(base)), [], "bad"),
    ("--nonce disagrees", base, ["--nonce", "1"], "NOT VALID"),
    ("--client-seed disagrees", base, ["--client-seed", "q"], "NOT VALID"),
    ("--commitment disagrees", base, ["--commitment", "0" * 64], "NOT VALID"),
    ("--decks beside it", base, ["--decks", "1"], "bad"),
    ("a card beside it", base, ["--", order[0]], "bad"),
]
def verdict(cmd, stdin=None):
    p = subprocess.run(cmd, capture_output=True, input=stdin)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if "Traceback" in err:
        return "traceback"
    if p.returncode == 0 and "\nVALID: " in "\n" + out:
        return "VALID"
    if p.returncode == 1 and "NOT VALID: " in out:
        return "NOT VALID"
    if p.returncode == 1 and err and "VALID" not in out:
        return "bad"
    return "exit %d" % p.returncode
n = disagree = 0
f = os.path.join(tmp, "strict.json")
for name, text, extra, want in cases:
    open(f, "w").write(text)
    c = verdict([fs, "verify", "--json=" + f] + extra)
    p = verdict([sys.executable, py, "--json", f] + extra)
    n += 1
    if not c == p == want:
        disagree += 1
        print("DISAGREE %s: want %s, fairshuf verify %s, verify_deal.py %s" % (name, want, c, p))
seedf = os.path.join(tmp, "strict.hex")
open(seedf, "w").write(S)
for name, args, stdin, want in (
        ("the seed file on standard input", ["--server-seed-file", "-", "--commitment", C, "--client-seed", "p"] + order[:3],
         S.encode(), "VALID"),
        ("--json and the seed file both on standard input", ["--json", "-", "--server-seed-file", "-"], base.encode(), "bad"),
        ("a client seed that is not UTF-8", [b"--server-seed", S.encode(), b"--commitment", C.encode(), b"--client-seed", b"a\xff"], None, "bad"),
        ("a nonce of 5000 digits", ["--server-seed", S, "--commitment", C, "--nonce", "1" + "0" * 4999], None, "bad"),
        ("a nonce of 5000 zeros", ["--server-seed", S, "--commitment", C, "--client-seed", "p", "--nonce", "0" * 5000, order[0]], None, "VALID"),
        ("1001 decks", ["--server-seed", S * 2000, "--commitment", C, "--decks", "1001"], None, "bad"),
        ("an unknown option", ["--server-seed", S, "--bogus"], None, "bad"),
        ("53 cards for 52", ["--server-seed", S, "--commitment", C, "--client-seed", "p", "--"] + order + ["As"], None, "bad")):
    c = verdict([fs, "verify"] + args, stdin)  # getopt takes "--nonce 1" too
    p = verdict([sys.executable, py] + args, stdin)
    n += 1
    if not c == p == want:
        disagree += 1
        print("DISAGREE %s: want %s, fairshuf verify %s, verify_deal.py %s" % (name, want, c, p))
print("cases", n, "disagree", disagree)
PYEOF
if grep -q "^cases [0-9]* disagree 0$" "$T/strict.out"; then
    ok
else
    bad "verify_deal.py and fairshuf verify disagree on the JSON or the options: $(head -c 3000 "$T/strict.out")"
fi
finish
