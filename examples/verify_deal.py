#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Verify a provably fair fairshuf deal ("fairshuf-deal-v1") with nothing but
the Python standard library.

Written from the specification in docs/FAIRNESS.md ("Provably fair rounds"),
independently of the C library, so that a player can check a round without
trusting fairshuf's code:

  python3 verify_deal.py --server-seed HEX --commitment HEX \\
      --client-seed 'my seed' --nonce 3 [--decks 1] [--jokers 0] [CARD...]
  python3 verify_deal.py --server-seed-file seed.hex --json deal.json

It checks that SHA-256(server seed) is the commitment, recomputes the deal
order from (server seed, client seed, nonce, decks, jokers), prints it in
poker notation, and compares it with the cards given (in deal order) or with
the JSON that `fairshuf deal --format json` printed. Exit status 0 when
everything matches (VALID), 1 when something does not (NOT VALID, with what
differs) or the input is bad.

--faces M --copies C deals a set of M numbered faces x C copies and prints
the face numbers (the cross-check with the C library uses it).

An option given twice must have the same value both times, as fairshuf
verify requires (numbers, the server seed's bytes and the commitment by
value; file names and the client seed as spelled): "multiple nonces
specified" and so on, exit status 1.
"""

import argparse
import hashlib
import hmac
import json
import math
import sys

ALGORITHM = "fairshuf-deal-v1"
DOMAIN = b"fairshuf-deal-v1"  # 16 ASCII bytes
CLIENT_MAX = 256
RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"  # the same suits: clubs, diamonds, hearts, spades
JOKERS = ["RJ", "BJ"]  # faces 52 and 53
GROUPS = 2 ** 32  # group numbers are u32be(g): g = 0 .. 2^32 - 1


class BadInput(Exception):
    pass


def card_name(face):
    """Poker notation of a standard-set face: suit*13 + rank-2; 52/53 jokers."""
    if face >= 52:
        return JOKERS[face - 52]
    return RANKS[face % 13] + SUITS[face // 13]


def card_parse(name, faces):
    """The face of a dealt card named as fairshuf verify's CARD operands
    (docs/CARDS.md): poker notation (a rank letter and a lowercase suit
    letter: As Th 2c), the suit symbols after 10 or a rank letter other
    than T (A\u2660 10\u2665), RJ, BJ; exactly, nothing else."""
    rank = suit = None
    if name in JOKERS:
        face = 52 + JOKERS.index(name)
    else:
        if len(name) == 2 and name[0] in RANKS and name[1] in SUITS:
            rank, suit = name[0], SUITS.index(name[1])
        elif len(name) >= 2 and name[-1] in SUIT_SYMBOLS:
            r = name[:-1]
            if r == "10":
                rank = "T"
            elif len(r) == 1 and r in RANKS and r != "T":
                rank = r
            suit = SUIT_SYMBOLS.index(name[-1])
        if rank is None:
            raise BadInput("unknown card %r" % name)
        face = suit * 13 + RANKS.index(rank)
    if face >= faces:
        raise BadInput("card %r is not in this shoe" % name)
    return face


def seed_min(faces, copies):
    """Shortest server seed in bytes: max(32, ceil(ceil(log2 N) / 8)),
    N = n! / (c!)^m, the number of distinct orders of the set."""
    n = faces * copies
    orders = math.factorial(n) // math.factorial(copies) ** faces
    bits = (orders - 1).bit_length()  # ceil(log2 N), 0 for N = 1
    return max(32, (bits + 7) // 8)


def reduce_word(x, r):
    """Lemire's multiply with the exact rejection: j in [0, r) for the 64-bit
    word x, or None when the word is rejected (the low half of x * r is
    below 2^64 mod r) and the next word must be drawn."""
    p = x * r
    if p % 2 ** 64 < 2 ** 64 % r:
        return None
    return p >> 64


def deal_order(seed, client, nonce, faces, copies, first_group=0):
    """The deal order d[0..n) of the round, as face numbers. A deal whose
    steps need more than 2^32 groups is refused (BadInput) rather than
    wrap the group number. first_group is 0 in every round; the tests
    start at the last group numbers with it."""
    n = faces * copies
    if len(client) > CLIENT_MAX:
        raise BadInput("client seed longer than %d bytes" % CLIENT_MAX)
    if not 0 <= nonce < 2 ** 64:
        raise BadInput("nonce out of range")
    need = seed_min(faces, copies)
    if len(seed) < need:
        raise BadInput("server seed too short for this game: %d bytes, "
                       "need at least %d" % (len(seed), need))
    segments = [seed[k:k + 32] for k in range(0, len(seed), 32)]
    prefix = DOMAIN + len(client).to_bytes(4, "big") + client \
        + nonce.to_bytes(8, "big")

    a = [k % faces for k in range(n)]  # canonical order: copy by copy
    group, product = first_group, 1
    words, block = [], 0

    def next_word():
        nonlocal block
        if not words:
            key = segments[group % len(segments)]
            msg = prefix + group.to_bytes(4, "big") + block.to_bytes(8, "big")
            out = hmac.new(key, msg, hashlib.sha256).digest()
            words.extend(int.from_bytes(out[8 * t:8 * t + 8], "big")
                          for t in range(4))
            block += 1
        return words.pop(0)

    for i in range(n - 1, 0, -1):
        r = i + 1
        if product * r >= 2 ** 256:  # this step starts the next group
            if group + 1 == GROUPS:
                raise BadInput("the deal needs more than 2^32 groups (group "
                               "numbers are 32 bits in %s)" % ALGORITHM)
            group, product = group + 1, 1
            words.clear()
            block = 0
        product *= r
        j = reduce_word(next_word(), r)
        while j is None:
            j = reduce_word(next_word(), r)
        a[i], a[j] = a[j], a[i]
    return a[::-1]


_HEX_BLANKS = " \t\n\v\f\r"  # the ASCII blanks fsh_fair_hex_decode skips
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def parse_hex(text, what):
    """The bytes of hex text (str, or bytes as read from a file), exactly
    as fsh_fair_hex_decode reads it: hex digits of either case in pairs,
    the ASCII blanks skipped wherever they are, anything else refused.
    (str.split and str.strip would drop Unicode spaces too, and
    bytes.fromhex's blanks are Python's to choose; fairshuf verify
    refuses a no-break or an em space.)"""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("latin-1")  # one char a byte: non-ASCII is no digit
    digits = "".join(c for c in text if c not in _HEX_BLANKS)
    if len(digits) % 2 or not _HEX_DIGITS.issuperset(digits):
        raise BadInput("malformed hex in %s" % what)
    return bytes.fromhex(digits)


def parse_commitment(text, what):
    """A commitment as fairshuf verify reads it: exactly 64 hex digits,
    either case, nothing around or between them (no blank of any kind);
    returned in lower case."""
    if len(text) != 64 or not _HEX_DIGITS.issuperset(text):
        raise BadInput("malformed commitment in %s: %r (64 hex digits)" % (what, text))
    return text.lower()


def _is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def order_from_json(doc):
    """(params, deal order as names) from `fairshuf deal --format json`."""
    if doc.get("schema") != "fairshuf-deal/1":
        raise BadInput("not a fairshuf-deal/1 document")
    fair = doc.get("fair")
    if not isinstance(fair, dict):
        raise BadInput("the deal is not a provably fair round (\"fair\" is null)")
    if fair.get("algorithm") != ALGORITHM:
        raise BadInput("unknown algorithm %r" % fair.get("algorithm"))
    # JSON's types as the schema gives them: integers are never booleans or
    # floats, strings are strings (as fairshuf verify reads them)
    for key in ("decks", "jokers", "cards_in_shoe", "players", "cards_per_hand"):
        if not _is_count(doc.get(key)):
            raise BadInput("malformed deal JSON: %s is not a non-negative integer" % key)
    if not _is_count(fair.get("nonce")):
        raise BadInput("malformed deal JSON: nonce is not a non-negative integer")
    for key in ("commitment", "client_seed"):
        if not isinstance(fair.get(key), str):
            raise BadInput("malformed deal JSON: %s is not a string" % key)
    if doc.get("layout") not in ("round-robin", "blocks"):
        raise BadInput("malformed deal JSON: unknown layout %r" % doc.get("layout"))
    if doc["jokers"] not in (0, 1, 2) or doc["cards_in_shoe"] != (52 + doc["jokers"]) * doc["decks"]:
        raise BadInput("malformed deal JSON: cards_in_shoe is not (52 + jokers) * decks")
    for key in ("burn", "hands", "rest"):
        if not isinstance(doc.get(key), list):
            raise BadInput("malformed deal JSON: %s is not an array" % key)
    for name in list(doc["burn"]) + [c for h in doc["hands"] for c in (h if isinstance(h, list) else [h])] + list(doc["rest"]):
        if not isinstance(name, str):
            raise BadInput("malformed deal JSON: a card is not a string")
        # The schema's cards are poker notation, ASCII: the suit symbols the
        # CARD operands also take are not in it (as fairshuf verify --json).
        if not name.isascii():
            raise BadInput("malformed deal JSON: card %r is not in poker notation "
                           "(fairshuf-deal/1 cards are ASCII: As Th 2c RJ BJ)" % name)
    players, cards = doc["players"], doc["cards_per_hand"]
    if players == 0:  # fairshuf deal always deals a hand
        raise BadInput("zero players")
    hands = doc["hands"]
    if len(hands) != players or any(len(h) != cards for h in hands):
        raise BadInput("hands do not match players and cards_per_hand")
    dealt = [None] * (players * cards)
    for p, hand in enumerate(hands):
        for c, name in enumerate(hand):
            if doc["layout"] == "blocks":
                dealt[p * cards + c] = name
            else:
                dealt[c * players + p] = name
    order = list(doc["burn"]) + dealt + list(doc["rest"])
    return doc, fair, order


def decimal(what, choices=None):
    """A reader for once(): a number written as fairshuf verify reads one,
    ASCII digits and nothing else (Python's int() would also take blanks
    around it, a sign, underscores and other scripts' digits)."""
    def read(text):
        if not text or any(c not in "0123456789" for c in text):
            raise BadInput("invalid %s: '%s' (decimal digits only)" % (what, text))
        value = int(text)
        if choices is not None and value not in choices:
            raise BadInput("invalid %s: '%s' (%s)" % (what, text, ", ".join(map(str, choices))))
        return value
    return read


def once(values, many, read=lambda v: v):
    """The value of an option given as many times as it was (values: the
    list argparse collected, None if not given): each is read (read raises
    BadInput on an invalid one), then they must all be the same."""
    if values is None:
        return None
    read_values = [read(v) for v in values]
    if any(v != read_values[0] for v in read_values[1:]):
        raise BadInput("multiple %s specified" % many)
    return read_values[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description="Verify a fairshuf provably fair deal.")
    # Each option that takes a value collects every value it is given:
    # run() refuses two different ones, as fairshuf verify does.
    ap.add_argument("--server-seed", action="append", help="revealed server seed, hex")
    ap.add_argument("--server-seed-file", action="append", help="file holding the seed in hex")
    ap.add_argument("--commitment", action="append",
                    help="published SHA-256 of the server seed, hex")
    ap.add_argument("--client-seed", action="append", help="client seed (UTF-8)")
    ap.add_argument("--nonce", action="append")
    ap.add_argument("--decks", action="append")
    ap.add_argument("--jokers", action="append", help="0, 1 or 2")
    ap.add_argument("--faces", action="append",
                    help="numbered set: faces (prints numbers)")
    ap.add_argument("--copies", action="append",
                    help="numbered set: copies (default 1)")
    ap.add_argument("--json", action="append",
                    help="JSON printed by `fairshuf deal --format json` (- = stdin)")
    ap.add_argument("--order", action="store_true", help="print only the deal order")
    ap.add_argument("cards", nargs="*", help="dealt cards in deal order: poker notation "
                    "(As Th 2c RJ BJ) or suit symbols (A\u2660 10\u2665)")
    args = ap.parse_args(argv)
    try:
        return run(args)
    except BadInput as e:
        print("verify_deal.py: %s" % e, file=sys.stderr)
        return 1


def run(args):
    seed_file = once(args.server_seed_file, "server seed files")
    json_file = once(args.json, "JSON files")
    client = once(args.client_seed, "client seeds")
    if args.server_seed is not None and seed_file is not None:
        raise BadInput("give --server-seed or --server-seed-file, not both")
    if seed_file is not None:
        try:
            with open(seed_file, "rb") as f:  # bytes, as fairshuf reads it
                seed = parse_hex(f.read(), seed_file)
        except OSError as e:
            raise BadInput("%s: %s" % (seed_file, e.strerror))
    elif args.server_seed is not None:
        seed = once(args.server_seed, "server seeds",
                    lambda v: parse_hex(v, "--server-seed"))
    else:
        seed = None  # may come from the JSON (a deal printed with --reveal)

    commitment = once(args.commitment, "commitments",
                      lambda v: parse_commitment(v, "--commitment"))
    nonce = once(args.nonce, "nonces", decimal("nonce"))
    decks = once(args.decks, "deck counts", decimal("number of decks"))
    jokers = once(args.jokers, "joker counts", decimal("number of jokers", (0, 1, 2)))
    faces = once(args.faces, "face counts", decimal("number of faces"))
    copies = once(args.copies, "copy counts", decimal("number of copies"))
    given = [c for c in args.cards]
    if json_file is not None:
        try:
            if json_file == "-":
                doc = json.load(sys.stdin)
            else:
                with open(json_file) as f:
                    doc = json.load(f)
        except (OSError, ValueError) as e:
            raise BadInput("%s: cannot read JSON: %s" % (json_file, e))
        try:
            doc, fair, given = order_from_json(doc)
            fair = dict(fair)
            fair["commitment"] = parse_commitment(fair["commitment"], "the JSON")
            # the command line overrides nothing silently: it must agree
            # (both commitments in lower case, as fairshuf verify compares them)
            for opt, key, val in (("--commitment", "commitment", commitment),
                                  ("--client-seed", "client_seed", client),
                                  ("--nonce", "nonce", nonce)):
                if val is not None and val != fair[key]:
                    raise BadInput("%s differs from the JSON's %s" % (opt, key))
            commitment, client, nonce = fair["commitment"], fair["client_seed"], fair["nonce"]
            if "server_seed" in fair:
                revealed = parse_hex(fair["server_seed"], "the JSON's server_seed")
                if seed is None:
                    seed = revealed
                elif revealed != seed:
                    print("NOT VALID: server seed mismatch: the JSON's server_seed "
                          "is not the seed given")
                    return 1
            decks, jokers = doc["decks"], doc["jokers"]
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            raise BadInput("malformed deal JSON (%s)" % e)
    if seed is None:
        raise BadInput("the revealed server seed is required")
    client = (client or "").encode("utf-8")
    nonce = nonce or 0

    if faces is not None:
        copies = 1 if copies is None else copies
        if faces < 1 or copies < 1:
            raise BadInput("faces and copies must be positive")
        order = deal_order(seed, client, nonce, faces, copies)
        print(" ".join(str(f) for f in order))
        return 0

    decks = 1 if decks is None else decks
    jokers = 0 if jokers is None else jokers
    if decks < 1 or jokers not in (0, 1, 2):
        raise BadInput("decks must be positive and jokers 0, 1 or 2")
    faces = 52 + jokers
    order = [card_name(f) for f in deal_order(seed, client, nonce, faces, decks)]
    if args.order:
        print(" ".join(order))
        return 0

    if commitment is None:
        raise BadInput("the commitment is required (--commitment or --json): "
                       "without it the deal is not tied to what the operator published")
    problems = []
    digest = hashlib.sha256(seed).hexdigest()
    print("commitment:  %s" % digest)
    if commitment is not None:
        if commitment != digest:
            problems.append("commitment mismatch: SHA-256 of the server seed is %s, "
                            "the published commitment is %s" % (digest, commitment))
    print("deal order:  %s" % " ".join(order))
    # Compared as faces, named in poker notation (A\u2660 is As), as fairshuf verify.
    given = [card_name(card_parse(name, faces)) for name in given]
    if len(given) > len(order):
        problems.append("%d cards given, the shoe holds %d" % (len(given), len(order)))
    wrong = [t for t, (want, got) in enumerate(zip(order, given)) if want != got]
    if wrong:
        t = wrong[0]
        problems.append("card %d differs: dealt %s, the server seed gives %s; "
                        "%d of %d cards differ" % (t + 1, given[t], order[t],
                                                   len(wrong), len(given)))
    if problems:
        for p in problems:
            print("NOT VALID: %s" % p)
        return 1
    print("VALID: %d of %d cards checked, commitment matches"
          % (len(given), len(order)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
