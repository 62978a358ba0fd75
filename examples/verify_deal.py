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

The JSON is read as fairshuf verify --json reads it (one rule in every
verifier: what one calls VALID, the others do): a strict reader (UTF-8,
whatever the locale; duplicate member names, NaN and Infinity, lone
surrogates, a NUL in a member name, more than 64 members in an object,
nesting deeper than 64 and files over 8 MiB refused), the same checks of
the deal (at most 1000 decks), the options it is given beside it compared
with it (each difference a NOT VALID line), and no --decks, --jokers or
cards beside it. The client seed is text: bytes that are not UTF-8 are
refused, as by fairshuf deal and verify.
"""

import argparse
import hashlib
import hmac
import json
import math
import os
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
    """A JSON count as fairshuf verify takes one: an integer in
    [0, 2^64 - 1] (never a boolean or a float; -0 is 0)."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2 ** 64


JSON_MAX_FILE = 8 << 20  # fairshuf verify reads files of up to 8 MiB
JSON_MAX_DEPTH = 64      # nesting (cli/verify/json.c)
JSON_MAX_MEMBERS = 64    # members of one object
MAX_DECKS = 1000         # the largest shoe fairshuf deal and verify take


def _json_walk(v, depth=1):
    """Refuse what fairshuf verify's JSON reader refuses and Python's json
    module takes once parsed: nesting deeper than JSON_MAX_DEPTH and a
    lone surrogate (a \\u escape that is half of a pair) in any string."""
    if isinstance(v, (dict, list)):
        if depth > JSON_MAX_DEPTH:
            raise ValueError("nesting too deep")
        for k in v:
            if isinstance(v, dict):
                _json_walk(k, depth)
                k = v[k]
            _json_walk(k, depth + 1)
    elif isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("lone surrogate in \\u escape") from None


def _json_members(pairs):
    """An object as fairshuf verify reads one: at most JSON_MAX_MEMBERS
    members, no NUL in a name, no name twice (json keeps the last)."""
    if len(pairs) > JSON_MAX_MEMBERS:
        raise ValueError("too many members in an object")
    names = set()
    for name, _ in pairs:
        if "\0" in name:
            raise ValueError("NUL in a member name")
        if name in names:
            raise ValueError("duplicate member name")
        names.add(name)
    return dict(pairs)


def _json_constant(word):
    raise ValueError("bad number: %s" % word)  # NaN, Infinity: not JSON


def _json_int(text):
    # Past 20 digits no count (2^64 - 1 has 20); int() of a long one would
    # hit Python's limit on digits, where fairshuf verify reads any number.
    return int(text) if len(text.lstrip("-")) <= 20 else float("inf")


def read_json(data, what):
    """The deal JSON (bytes) as fairshuf verify --json reads it, a strict
    RFC 8259 reader: at most 8 MiB of UTF-8, one value, duplicate member
    names, more than 64 members, nesting deeper than 64, NUL in a member
    name, lone surrogates, NaN and Infinity refused (BadInput)."""
    if len(data) > JSON_MAX_FILE:
        raise BadInput("%s: file too large" % what)
    try:
        text = data.decode("utf-8")  # the bytes, whatever the locale says
        doc = json.loads(text, object_pairs_hook=_json_members,
                         parse_constant=_json_constant, parse_int=_json_int)
        _json_walk(doc)
    except (ValueError, RecursionError) as e:
        raise BadInput("%s: malformed JSON: %s" % (what, e)) from None
    return doc


def order_from_json(doc):
    """(doc, fair, the dealt cards as names in deal order) from the JSON
    `fairshuf deal --format json` printed, checked as fairshuf verify --json
    checks it (read_json in cli/verify/verify.c), BadInput otherwise."""
    def bad(why):
        return BadInput("malformed deal JSON: " + why)

    def need(obj, key, kind, what):
        v = obj.get(key)
        # JSON's types as the schema gives them: integers are never
        # booleans or floats, strings are strings
        if not isinstance(v, kind) or isinstance(v, bool):
            raise bad("no %s %r" % (what, key))
        # a \u0000 would end the string for fairshuf verify's comparisons;
        # only the client seed (compared by length) may hold one
        if kind is str and key != "client_seed" and "\0" in v:
            raise bad("a NUL in %r" % key)
        return v

    def count(obj, key):
        if not _is_count(obj.get(key)):
            raise bad("%s is not a non-negative integer" % key)
        return obj[key]

    if not isinstance(doc, dict):
        raise bad("not an object")
    if need(doc, "schema", str, "string") != "fairshuf-deal/1":
        raise BadInput("unknown schema %r (fairshuf-deal/1 expected)" % doc["schema"])
    fair = doc.get("fair")
    if fair is None:
        raise BadInput("not a provably fair deal (\"fair\" is null)")
    if not isinstance(fair, dict):
        raise bad("\"fair\" is not an object")
    if need(fair, "algorithm", str, "string") != ALGORITHM:
        raise BadInput("unknown algorithm %r (%s expected)" % (fair["algorithm"], ALGORITHM))
    decks, jokers = count(doc, "decks"), count(doc, "jokers")
    if not 1 <= decks <= MAX_DECKS or jokers > 2:
        raise BadInput("decks %d and jokers %d are not a supported shoe" % (decks, jokers))
    in_shoe = count(doc, "cards_in_shoe")
    if in_shoe != (52 + jokers) * decks:
        raise BadInput("cards_in_shoe is %d, but %d decks with %d jokers hold %d"
                       % (in_shoe, decks, jokers, (52 + jokers) * decks))
    players = count(doc, "players")
    if players == 0:  # fairshuf deal always deals a hand
        raise BadInput("zero players")
    cards = count(doc, "cards_per_hand")
    layout = need(doc, "layout", str, "string")
    if layout not in ("round-robin", "blocks"):
        raise bad("unknown layout %r" % layout)
    burn, hands, rest = (need(doc, key, list, "array") for key in ("burn", "hands", "rest"))
    if len(hands) != players:
        raise BadInput("%d hands for %d players" % (len(hands), players))
    for p, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != cards:
            raise BadInput("hand %d does not hold %d cards" % (p + 1, cards))
    if players > in_shoe or cards > in_shoe // players or len(burn) > in_shoe - players * cards:
        raise BadInput("more cards dealt than the shoe holds (%d)" % in_shoe)
    for key, names in [("burn", burn)] + [("hands", h) for h in hands] + [("rest", rest)]:
        for name in names:
            if not isinstance(name, str):
                raise bad("a card in %r is not a string" % key)
            if "\0" in name:
                raise bad("a NUL in a card in %r" % key)
            # The schema's cards are poker notation, ASCII: the suit
            # symbols the CARD operands also take are not in it.
            if not name.isascii():
                raise bad("card %r in %r is not in poker notation "
                          "(fairshuf-deal/1 cards are ASCII: As Th 2c RJ BJ)" % (name, key))
    need(fair, "commitment", str, "string")
    client = need(fair, "client_seed", str, "string")
    count(fair, "nonce")
    if len(client.encode("utf-8")) > CLIENT_MAX:
        raise BadInput("client seed longer than %d bytes" % CLIENT_MAX)
    if "server_seed" in fair and not isinstance(fair["server_seed"], str):
        raise bad("server_seed is not a string")
    dealt = [None] * (players * cards)
    for p, hand in enumerate(hands):
        for c, name in enumerate(hand):
            dealt[p * cards + c if layout == "blocks" else c * players + p] = name
    return doc, fair, list(burn) + dealt + list(rest)


def decimal(what, lo, hi):
    """A reader for once(): a number written as fairshuf verify reads one,
    ASCII digits and nothing else (Python's int() would also take blanks
    around it, a sign, underscores and other scripts' digits), in
    [lo, hi] ("invalid nonce: '...' (0 to 18446744073709551615)")."""
    def read(text):
        if not text or any(c not in "0123456789" for c in text):
            raise BadInput("invalid %s: '%s' (decimal digits only)" % (what, text))
        # int() refuses more than 4300 digits; past hi's digits the number
        # is out of range anyway
        digits = text.lstrip("0") or "0"
        value = int(digits) if len(digits) <= len(str(hi)) else hi + 1
        if not lo <= value <= hi:
            raise BadInput("invalid %s: '%s' (%d to %d)" % (what, text, lo, hi))
        return value
    return read


def once(values, many, read=lambda v: v):
    """The value of an option given as many times as it was (values: the
    list argparse collected, None if not given): each is read (read raises
    BadInput on an invalid one), then they must all be the same."""
    if values is None:
        return None
    read_values = [read("--" if v == DASHES else v) for v in values]
    if any(v != read_values[0] for v in read_values[1:]):
        raise BadInput("multiple %s specified" % many)
    return read_values[0]


VALUE_OPTIONS = ("--server-seed", "--server-seed-file", "--commitment", "--client-seed",
                 "--nonce", "--decks", "--jokers", "--faces", "--copies", "--json")


DASHES = "\0--"  # a value "--" through argparse (which drops "--"); argv has no NUL


def _joined(argv):
    """argv with "--option VALUE" written "--option=VALUE" for the options
    that take a value: argparse takes a VALUE that starts with "-" (a
    client seed "-x", "--") for an option, where fairshuf verify (getopt)
    takes it as the value."""
    out, k = [], 0
    while k < len(argv):
        a = argv[k]
        if a == "--":
            return out + argv[k:]
        name, eq, value = a.partition("=")
        if name in VALUE_OPTIONS and (eq or k + 1 < len(argv)):
            value = value if eq else argv[k + 1]
            out.append(name + "=" + (DASHES if value == "--" else value))
            k += 1 if eq else 2
        else:
            out.append(a)
            k += 1
    return out


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # Bad input is exit status 1, as fairshuf verify's (argparse: 2).
        self.print_usage(sys.stderr)
        print("verify_deal.py: %s" % message, file=sys.stderr)
        sys.exit(1)


def main(argv=None):
    ap = _Parser(description="Verify a fairshuf provably fair deal.")
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
    args = ap.parse_args(_joined(sys.argv[1:] if argv is None else list(argv)))
    try:
        return run(args)
    except BadInput as e:
        print("verify_deal.py: %s" % e, file=sys.stderr)
        return 1


def read_file(name, what):
    """The bytes of file name ("-": standard input), at most 8 MiB, as
    fairshuf verify reads its seed file and JSON."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read(JSON_MAX_FILE + 1)
        else:
            with open(name, "rb") as f:
                data = f.read(JSON_MAX_FILE + 1)
    except OSError as e:
        raise BadInput("%s: %s" % (name, e.strerror))
    if len(data) > JSON_MAX_FILE:
        raise BadInput("%s: file too large" % name)
    return data


def run(args):
    seed_file = once(args.server_seed_file, "server seed files")
    json_file = once(args.json, "JSON files")
    client = once(args.client_seed, "client seeds")
    if client is not None:
        # argv's bytes that are no UTF-8 come as lone surrogates: the
        # client seed is text (fairshuf deal refuses other bytes)
        try:
            client.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput("the client seed is not valid UTF-8 (the verifiers take text)") from None
    if args.server_seed is not None and seed_file is not None:
        raise BadInput("give --server-seed or --server-seed-file, not both")
    if seed_file == "-" and json_file == "-":
        raise BadInput("--json and --server-seed-file cannot both read standard input")
    if json_file is not None and (args.decks or args.jokers or args.faces or args.copies
                                  or args.cards):
        raise BadInput("--json gives the deal: no --decks, --jokers, --faces, --copies "
                       "or CARD arguments")
    if seed_file is not None:
        seed = parse_hex(read_file(seed_file, seed_file), seed_file)
    elif args.server_seed is not None:
        seed = once(args.server_seed, "server seeds",
                    lambda v: parse_hex(v, "--server-seed"))
    else:
        seed = None  # may come from the JSON (a deal printed with --reveal)

    commitment = once(args.commitment, "commitments",
                      lambda v: parse_commitment(v, "--commitment"))
    nonce = once(args.nonce, "nonces", decimal("nonce", 0, 2 ** 64 - 1))
    decks = once(args.decks, "deck counts", decimal("number of decks", 1, MAX_DECKS))
    jokers = once(args.jokers, "joker counts", decimal("number of jokers", 0, 2))
    faces = once(args.faces, "face counts", decimal("number of faces", 1, 2 ** 32))
    copies = once(args.copies, "copy counts", decimal("number of copies", 1, 2 ** 32 - 1))
    given = list(args.cards)
    problems = []
    if json_file is not None:
        doc, fair, given = order_from_json(read_json(read_file(json_file, json_file), json_file))
        # What the command line repeats (what the player noted) must agree
        # with the JSON: each disagreement is a NOT VALID line, as in
        # fairshuf verify; the round is the JSON's.
        jc = parse_commitment(fair["commitment"], "the JSON")
        if commitment is not None and commitment != jc:
            problems.append("commitment mismatch: the JSON says %s, --commitment %s"
                            % (jc, commitment))
        if client is not None and client != fair["client_seed"]:
            problems.append("client seed mismatch: --client-seed differs from the JSON's "
                            "client_seed")
        if nonce is not None and nonce != fair["nonce"]:
            problems.append("nonce mismatch: the JSON says %d, --nonce %d" % (fair["nonce"], nonce))
        commitment, client, nonce = jc, fair["client_seed"], fair["nonce"]
        if "server_seed" in fair:
            revealed = parse_hex(fair["server_seed"], "the JSON's server_seed")
            if seed is None:
                seed = revealed
            elif revealed != seed:
                problems.append("server seed mismatch: the JSON's server_seed is not the "
                                "seed given")
        decks, jokers = doc["decks"], doc["jokers"]
    if seed is None:
        raise BadInput("the revealed server seed is required")
    client = (client or "").encode("utf-8")
    nonce = nonce or 0

    if faces is not None:
        copies = 1 if copies is None else copies
        order = deal_order(seed, client, nonce, faces, copies)
        print(" ".join(str(f) for f in order))
        return 0

    decks = 1 if decks is None else decks
    jokers = 0 if jokers is None else jokers
    faces = 52 + jokers
    if len(seed) < 32:  # fairshuf verify's words for a seed under any game's minimum
        raise BadInput("server seed too short: %d byte%s (at least 32)"
                       % (len(seed), "" if len(seed) == 1 else "s"))
    order = [card_name(f) for f in deal_order(seed, client, nonce, faces, decks)]
    if args.order:
        print(" ".join(order))
        return 0

    if commitment is None:
        raise BadInput("the commitment is required (--commitment or --json): "
                       "without it the deal is not tied to what the operator published")
    if len(given) > len(order):
        raise BadInput("%d cards given, more than the shoe holds (%d)" % (len(given), len(order)))
    # Compared as faces, named in poker notation (A\u2660 is As), as fairshuf verify.
    given = [card_name(card_parse(name, faces)) for name in given]
    digest = hashlib.sha256(seed).hexdigest()
    print("commitment:  %s" % digest)
    if commitment != digest:
        problems.append("commitment mismatch: SHA-256 of the server seed is %s, "
                        "the published commitment is %s" % (digest, commitment))
    print("deal order:  %s" % " ".join(order))
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
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (--order | head): stop as a C program does
        # on SIGPIPE, without a traceback; nothing more can be written.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
