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
poker notation, and compares it with the cards given (in deal order, or
with --burn, --players, --cards and --layout as burn cards, then hands) or
with the JSON that `fairshuf deal --format json` printed. It takes every
option of `fairshuf verify`, read as getopt_long reads them there
(abbreviations, "--client-seed -x", options after the cards), and prints
its VALID and NOT VALID lines and its messages, byte for byte in the
locale of the environment, as the command (glibc) quotes them: 'x' in
the C locale, \u2018x\u2019 in a UTF-8 one. Exit status 0 when
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
nesting deeper than 64 and files over 8 MiB refused, each with the
command's reason and byte offset), the same checks of
the deal (at most 1000 decks), the options it is given beside it compared
with it (each difference a NOT VALID line), and no --decks, --jokers or
cards beside it. The client seed is text: bytes that are not UTF-8 are
refused, as by fairshuf deal and verify.
"""

import hashlib
import hmac
import math
import os
import re
import sys
import unicodedata

ALGORITHM = "fairshuf-deal-v1"
DOMAIN = b"fairshuf-deal-v1"  # 16 ASCII bytes
CLIENT_MAX = 256
RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"  # the same suits: clubs, diamonds, hearts, spades
JOKERS = ["RJ", "BJ"]  # faces 52 and 53
GROUPS = 2 ** 32  # group numbers are u32be(g): g = 0 .. 2^32 - 1
CARDS_MAX = 2 ** 32 - 1  # the largest set (FSH_FAIR_CARDS_MAX), as every verifier takes it
EXACT_MAX = 100000  # sets up to this many cards are counted with factorials


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
            raise BadInput("unknown card: %s" % quote(name))
        face = suit * 13 + RANKS.index(rank)
    if face >= faces:
        raise BadInput("card %s is not in this shoe (%s per deck)"
                       % (quote(name), plural(faces - 52, "joker")))
    return face


def seed_min(faces, copies):
    """Shortest server seed in bytes: max(32, ceil(ceil(log2 N) / 8)),
    N = n! / (c!)^m, the number of distinct orders of the set."""
    n = faces * copies
    bits = orders_bits_bounded(faces, copies) if n > EXACT_MAX else None
    if bits is None:
        orders = math.factorial(n) // math.factorial(copies) ** faces
        bits = (orders - 1).bit_length()  # ceil(log2 N), 0 for N = 1
    return max(32, (bits + 7) // 8)


def orders_bits_bounded(faces, copies, precision=128):
    """ceil(log2 N), N = n! / (c!)^m, in O(n) small-integer steps, or None
    when this cannot tell: the factorials of a large set take time that
    grows faster than n (hours at 10^8 cards). Bounds lo <= N <= hi are
    kept as precision-bit integers times powers of two, every product and
    quotient rounded outwards. For m >= 2 faces and n >= 3 cards N is no
    power of two (a prime p in (n/2, n] divides n! once and no c!, c <=
    n/2), so ceil(log2 N) = floor(log2 N) + 1, known when lo and hi have
    the same bit length; one face has one order (0 bits)."""
    n = faces * copies
    if faces == 1:
        return 0
    if n < 3:
        return None

    def kept(m, e, up):  # m * 2^e to precision bits, rounded down or up
        s = m.bit_length() - precision
        if s <= 0:
            return m, e
        q = m >> s
        if up and q << s != m:
            q += 1
            if q.bit_length() > precision:  # q = 2^precision exactly
                q, s = q >> 1, s + 1
        return q, e + s
    lo = hi = 1
    elo = ehi = 0
    for k in range(2, n + 1):
        lo, elo = kept(lo * k, elo, False)
        hi, ehi = kept(hi * k, ehi, True)
    for _ in range(faces):
        for k in range(2, copies + 1):
            lo, elo = kept((lo << 64) // k, elo - 64, False)
            q, r = divmod(hi << 64, k)
            hi, ehi = kept(q + (r != 0), ehi - 64, True)
    top_lo, top_hi = lo.bit_length() + elo, hi.bit_length() + ehi
    return top_lo if top_lo == top_hi else None


def check_set(faces, copies, bytes_a_card=120):
    """A set every verifier takes: at most 2^32 - 1 cards (BadInput), and
    what this script holds for it (the list of faces, its reverse, the
    face numbers' ints and their printed text: at most 120 bytes a card)
    within what the system can give, MemAvailable + SwapFree, read before
    anything is allocated (BadInput "memory exhausted"), as fairshuf deal
    and the Python package check it: a set of one face and 2^32 - 1
    copies needs only a 32-byte seed and was hundreds of GB."""
    n = faces * copies
    if n > CARDS_MAX:
        raise BadInput("%d faces x %d copies are %d cards, more than a set holds (%d)"
                       % (faces, copies, n, CARDS_MAX))
    need = n * bytes_a_card
    if need <= 1 << 20:
        return
    room = None
    try:
        with open("/proc/meminfo", "rb") as f:
            info = dict(line.split(b":", 1) for line in f.read().splitlines() if b":" in line)
        room = sum(int(info[k].split()[0]) * 1024 for k in (b"MemAvailable", b"SwapFree")
                   if k in info)
    except (OSError, ValueError):
        pass
    if room is not None and need > room:
        raise BadInput("memory exhausted: %d cards need about %d bytes here, the system "
                       "can give %d (MemAvailable + SwapFree)" % (n, need, room))


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
    check_set(faces, copies)
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
        raise BadInput("malformed commitment in %s: %s (64 hex digits)" % (what, quote(text)))
    return text.lower()


JSON_MAX_FILE = 8 << 20  # fairshuf verify reads files of up to 8 MiB
JSON_MAX_DEPTH = 64      # nesting (cli/verify/json.c)
JSON_MAX_MEMBERS = 64    # members of one object
MAX_DECKS = 1000         # the largest shoe fairshuf deal and verify take


# ---- the deal JSON, read as fairshuf verify --json reads it -----------------

class Number:
    """A JSON number that is no count (a fraction, an exponent, a minus
    sign before a non-zero integer, 2^64 or more): the reader keeps only
    that it is a number, as fairshuf verify does. Counts are ints."""


class _JsonError(Exception):
    def __init__(self, why, at):
        Exception.__init__(self, why)
        self.why, self.at = why, at


_JSON_BLANKS = re.compile(rb"[ \t\n\r]*")
_JSON_PLAIN = re.compile(rb'[^"\\\x00-\x1f\x80-\xff]*')  # string bytes as they are
_JSON_TO_QUOTE = re.compile(rb'(?:[^"\\]|\\[\x00-\xff])*')  # a backslash skips a byte
_JSON_ESCAPES = {ord('"'): '"', ord("\\"): "\\", ord("/"): "/", ord("b"): "\b",
                 ord("f"): "\f", ord("n"): "\n", ord("r"): "\r", ord("t"): "\t"}


def _utf8_char_len(d, i):
    """The length (1 to 4) of the well-formed UTF-8 character (RFC 3629)
    at d[i], or 0: a stray or missing continuation byte, an overlong form,
    a surrogate, past U+10FFFF, or cut short by the end."""
    c = d[i]
    if c < 0x80:
        return 1
    k = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 0
    try:
        if k and len(d[i:i + k].decode("utf-8")) == 1:  # Python's decoder: RFC 3629
            return k
    except UnicodeDecodeError:
        pass
    return 0


class _JsonReader:
    """cli/verify/json.c's reader, step for step, so that it refuses the
    same documents with the same reason at the same byte offset."""

    def __init__(self, data):
        self.d, self.p, self.depth = data, 0, 0

    def fail(self, why):
        raise _JsonError(why, self.p)

    def blanks(self):
        self.p = _JSON_BLANKS.match(self.d, self.p).end()

    def hex4(self):
        v = 0
        for _ in range(4):
            if self.p >= len(self.d):
                self.fail("truncated \\u escape")
            c = chr(self.d[self.p])
            self.p += 1
            if c not in _HEX_DIGITS:
                self.fail("bad \\u escape")
            v = v << 4 | int(c, 16)
        return v

    def string(self):
        """The string at p (after its opening quote), as str."""
        d = self.d
        q = _JSON_TO_QUOTE.match(d, self.p).end()  # the closing quote first
        if q >= len(d) or d[q] != 0x22:
            self.fail("unterminated string")
        out = []
        while d[self.p] != 0x22:
            m = _JSON_PLAIN.match(d, self.p)
            if m.end() > self.p:
                out.append(m.group().decode("ascii"))
                self.p = m.end()
                continue
            c = d[self.p]
            self.p += 1
            if c < 0x20:
                self.fail("control character in a string")
            if c >= 0x80:
                k = _utf8_char_len(d, self.p - 1)
                if k == 0:
                    self.p -= 1
                    self.fail("invalid UTF-8 in a string")
                out.append(d[self.p - 1:self.p - 1 + k].decode("utf-8"))
                self.p += k - 1
                continue
            e = d[self.p]  # after a backslash
            self.p += 1
            if e in _JSON_ESCAPES:
                out.append(_JSON_ESCAPES[e])
                continue
            if e != ord("u"):
                self.fail("bad escape in a string")
            cp = self.hex4()
            if 0xD800 <= cp < 0xDC00:
                if len(d) - self.p < 6 or d[self.p:self.p + 2] != b"\\u":
                    self.fail("lone surrogate in \\u escape")
                self.p += 2
                lo = self.hex4()
                if not 0xDC00 <= lo <= 0xDFFF:
                    self.fail("lone surrogate in \\u escape")
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
            elif 0xDC00 <= cp < 0xE000:
                self.fail("lone surrogate in \\u escape")
            out.append(chr(cp))
        self.p += 1  # the closing quote
        return "".join(out)

    def digits(self):
        start = self.p
        while self.p < len(self.d) and 0x30 <= self.d[self.p] <= 0x39:
            self.p += 1
        return self.d[start:self.p]

    def number(self):
        d = self.d
        neg = self.p < len(d) and d[self.p] == 0x2D
        self.p += neg
        if self.p >= len(d) or not 0x30 <= d[self.p] <= 0x39:
            self.fail("bad number")
        if d[self.p] == 0x30 and self.p + 1 < len(d) and 0x30 <= d[self.p + 1] <= 0x39:
            self.fail("leading zero in a number")
        whole = self.digits().lstrip(b"0")
        frac = False
        for mark, sign in ((b".", False), (b"eE", True)):
            if self.p < len(d) and d[self.p] in mark:
                frac = True
                self.p += 1
                if sign and self.p < len(d) and d[self.p] in b"+-":
                    self.p += 1
                if self.p >= len(d) or not 0x30 <= d[self.p] <= 0x39:
                    self.fail("bad number")
                self.digits()
        # a count: no fraction nor exponent, below 2^64, not negative (-0 is 0)
        u = int(whole or b"0") if len(whole) <= 20 else 2 ** 64
        return u if not frac and u < 2 ** 64 and not (neg and u) else Number()

    def literal(self, word, value):
        if not self.d.startswith(word, self.p):
            self.fail("unexpected character")
        self.p += len(word)
        return value

    def container(self, obj):
        close = 0x7D if obj else 0x5D
        self.depth += 1
        if self.depth > JSON_MAX_DEPTH:
            self.fail("nesting too deep")
        self.blanks()
        v = {} if obj else []
        if self.p < len(self.d) and self.d[self.p] == close:
            self.p += 1
            self.depth -= 1
            return v
        while True:
            if obj:
                self.blanks()
                if self.p >= len(self.d) or self.d[self.p] != 0x22:
                    self.fail("expected a member name")
                self.p += 1
                name = self.string()
                if "\0" in name:
                    self.fail("NUL in a member name")
                if len(v) + 1 > JSON_MAX_MEMBERS:
                    self.fail("too many members in an object")
                if name in v:
                    self.fail("duplicate member name")
                self.blanks()
                if self.p >= len(self.d) or self.d[self.p] != 0x3A:
                    self.fail("expected ':'")
                self.p += 1
                v[name] = self.value()
            else:
                v.append(self.value())
            self.blanks()
            if self.p < len(self.d) and self.d[self.p] == 0x2C:
                self.p += 1
                continue
            if self.p < len(self.d) and self.d[self.p] == close:
                self.p += 1
                self.depth -= 1
                return v
            self.fail("expected ',' or '}'" if obj else "expected ',' or ']'")

    def value(self):
        self.blanks()
        if self.p >= len(self.d):
            self.fail("unexpected end of input")
        c = self.d[self.p]
        if c in b"{[":
            self.p += 1
            return self.container(c == 0x7B)
        if c == 0x22:
            self.p += 1
            return self.string()
        for word, v in ((b"true", True), (b"false", False), (b"null", None)):
            if c == word[0]:
                return self.literal(word, v)
        return self.number()


def read_json(data, file):
    """The deal JSON (bytes of file) as fairshuf verify --json reads it, a
    strict RFC 8259 reader: at most 8 MiB of UTF-8 (whatever the locale),
    one value; duplicate member names, more than 64 members in an object,
    nesting deeper than 64, a NUL in a member name, lone surrogates, NaN
    and Infinity refused (BadInput, with the command's reason and byte
    offset). Objects are dicts, arrays lists, strings str, counts int,
    other numbers Number."""
    if len(data) > JSON_MAX_FILE:
        raise BadInput("%s: file too large" % quotef(file))
    r = _JsonReader(bytes(data))
    try:
        doc = r.value()
        r.blanks()
        if r.p != len(r.d):
            r.fail("extra data after the value")
    except _JsonError as e:
        raise BadInput("%s: malformed JSON at byte %d: %s" % (quotef(file), e.at, e.why)) from None
    return doc


def order_from_json(doc, file):
    """(doc, fair, the JSON's commitment, the dealt cards' names as
    printed: burn, hands hand by hand, rest; and their Shape) from the JSON
    `fairshuf deal --format json` printed, checked as fairshuf verify
    --json checks it, in its order and with its messages (read_json in
    cli/verify/verify.c), BadInput otherwise."""
    f = quotef(file)

    def bad(why):
        return BadInput("%s: malformed deal JSON: %s" % (f, why))

    def need(obj, key, kind):
        v = obj.get(key)
        # JSON's types: booleans are no numbers; counts are ints, other
        # numbers Number
        if not isinstance(v, kind) or isinstance(v, bool):
            what = {list: "array", str: "string", dict: "object"}.get(kind, "value")
            raise bad("no %s %s" % (what, quote(key)))
        # a \u0000 would end the string for fairshuf verify's comparisons;
        # only the client seed (compared by length) may hold one
        if kind is str and key != "client_seed" and "\0" in v:
            raise bad("a NUL in %s" % quote(key))
        return v

    def count(obj, key):
        v = need(obj, key, (int, Number))
        if not isinstance(v, int):
            raise bad("%s is not a non-negative integer" % quote(key))
        return v

    if not isinstance(doc, dict):
        raise bad("not an object")
    schema = need(doc, "schema", str)
    if schema != "fairshuf-deal/1":
        raise BadInput("%s: unknown schema %s (fairshuf-deal/1 expected)" % (f, quote(schema)))
    fair = doc.get("fair")
    if fair is None:
        mode = doc.get("mode")
        raise BadInput("%s: not a provably fair deal (\"fair\" is null: mode %s)"
                       % (f, quote(mode) if isinstance(mode, str) else "unknown"))
    if not isinstance(fair, dict):
        raise bad("\"fair\" is not an object")
    algorithm = need(fair, "algorithm", str)
    if algorithm != ALGORITHM:
        raise BadInput("%s: unknown algorithm %s (%s expected)" % (f, quote(algorithm), ALGORITHM))
    decks, jokers = count(doc, "decks"), count(doc, "jokers")
    if not 1 <= decks <= MAX_DECKS or jokers > 2:
        raise BadInput("%s: decks %d and jokers %d are not a supported shoe" % (f, decks, jokers))
    in_shoe = count(doc, "cards_in_shoe")
    if in_shoe != (52 + jokers) * decks:
        raise BadInput("%s: cards_in_shoe is %d, but %d decks with %d jokers hold %d"
                       % (f, in_shoe, decks, jokers, (52 + jokers) * decks))
    players = count(doc, "players")
    if players == 0:  # fairshuf deal always deals a hand
        raise BadInput("%s: zero players" % f)
    cards = count(doc, "cards_per_hand")
    layout = need(doc, "layout", str)
    if layout not in ("round-robin", "blocks"):
        raise BadInput("%s: unknown layout %s" % (f, quote(layout)))
    burn, hands, rest = (need(doc, key, list) for key in ("burn", "hands", "rest"))
    if len(hands) != players:
        raise BadInput("%s: %d hands for %d players" % (f, len(hands), players))
    for p, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != cards:
            raise BadInput("%s: hand %d does not hold %d cards" % (f, p + 1, cards))
    if players > in_shoe or cards > in_shoe // players or len(burn) > in_shoe - players * cards:
        raise BadInput("%s: more cards dealt than the shoe holds (%d)" % (f, in_shoe))
    for key, names in [("burn", burn)] + [("hands", h) for h in hands] + [("rest", rest)]:
        for name in names:
            if not isinstance(name, str):
                raise bad("a card in %s is not a string" % quote(key))
            if "\0" in name:
                raise bad("a NUL in a card in %s" % quote(key))
            # The schema's cards are poker notation, ASCII: the suit
            # symbols the CARD operands also take are not in it.
            if not name.isascii():
                raise bad("card %s in %s is not in poker notation "
                          "(fairshuf-deal/1 cards are ASCII: As Th 2c RJ BJ)"
                          % (quote(name), quote(key)))
    # fairshuf verify names the file as given here, unquoted
    commitment = parse_commitment(need(fair, "commitment", str), file)
    client = need(fair, "client_seed", str)
    count(fair, "nonce")
    if len(client.encode("utf-8")) > CLIENT_MAX:
        raise BadInput("%s: client seed longer than %d bytes" % (f, CLIENT_MAX))
    shape = Shape(len(burn), players, cards, layout)
    return doc, fair, commitment, list(burn) + [c for hand in hands for c in hand] + list(rest), shape


# ---- quoting, as fairshuf verify quotes values and file names in messages ---

_UTF8 = [False]  # the locale's codeset is UTF-8: set by main() (use_locale)


def use_locale():
    """Quote as fairshuf verify does in this environment's locale: it
    calls setlocale(LC_ALL, "") and, as GNU programs, quotes 'like this'
    unless the codeset is UTF-8, then \u2018like this\u2019. Python
    coerces the C locale to C.UTF-8 at startup (PEP 538; UTF-8 mode, PEP
    540, tells): the command in the same environment sees the C locale."""
    import locale
    forced = "PYTHONUTF8" in os.environ or "utf8" in getattr(sys, "_xoptions", {})
    if sys.flags.utf8_mode and not forced and not os.environ.get("LC_ALL"):
        _UTF8[0] = False  # LC_CTYPE was C or POSIX when Python started
        return
    try:
        locale.setlocale(locale.LC_ALL, "")
        _UTF8[0] = locale.nl_langinfo(locale.CODESET).upper() in ("UTF-8", "UTF8")
    except (locale.Error, AttributeError):  # no such locale: C, as for the command
        _UTF8[0] = False


_C_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}


def _printable(ch):
    """glibc's iswprint in a UTF-8 locale: every assigned character but
    the controls and the line and paragraph separators (Python's
    isprintable also refuses spaces, format characters and private use)."""
    return unicodedata.category(ch) not in ("Cc", "Cn", "Cs") and ch not in "\u2028\u2029"


def _char_at(b, i):
    """(length, printable) of the character at b[i] as the command's
    quoting reads it (cli/common/quote.c, char_at): one byte in the C
    locale (printable if ASCII graphic or space); in a UTF-8 locale what
    glibc's mbrtowc reads: a byte that starts no character, an overlong
    form or a surrogate is one unprintable byte; a character cut short by
    the end runs to the end, unprintable; past U+10FFFF (glibc reads up
    to 6 bytes) unprintable."""
    c = b[i]
    if c < 0x80 or not _UTF8[0]:
        return 1, 0x20 <= c < 0x7F
    k = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF7 \
        else 5 if 0xF8 <= c <= 0xFB else 6 if 0xFC <= c <= 0xFD else 0
    if k == 0:
        return 1, False
    cp = c & 0x7F >> k
    for j in range(1, k):
        if i + j >= len(b):
            return len(b) - i, False
        if b[i + j] & 0xC0 != 0x80:
            return 1, False
        cp = cp << 6 | b[i + j] & 0x3F
    if cp < (0x80, 0x800, 0x10000, 0x200000, 0x4000000)[k - 2] or 0xD800 <= cp < 0xE000:
        return 1, False
    return k, cp <= 0x10FFFF and _printable(chr(cp))


def _bytes(s):
    """s as the command has it: bytes (argv's that are no UTF-8 came as
    surrogate escapes), up to a NUL (it ends a C string)."""
    if isinstance(s, str):
        s = s.encode("utf-8", "surrogateescape")
    return bytes(s).split(b"\0", 1)[0]


def _octal(b):
    return "".join("\\%03o" % c for c in b)


def _text(b):
    return b.decode("utf-8", "surrogateescape")


def quote(s):
    """A value in a message as fairshuf verify quotes it (GNU quote()):
    'like this' in the C locale, \u2018like this\u2019 in a UTF-8 one;
    the backslash, C escapes for controls, octal for other unprintable
    bytes, a backslash before the closing quote inside."""
    b = _bytes(s)
    rq = "\u2019".encode() if _UTF8[0] else b"'"
    out, i = ["\u2018" if _UTF8[0] else "'"], 0
    while i < len(b):
        c = b[i]
        if c == 0x5C:
            out.append("\\\\")
            i += 1
            continue
        if c in _C_ESCAPES:
            out.append("\\" + _C_ESCAPES[c])
            i += 1
            continue
        n, printable = _char_at(b, i)
        if not printable:
            out.append(_octal(b[i:i + n]))
        else:
            if b.startswith(rq, i):
                out.append("\\")
            out.append(_text(b[i:i + n]))
        i += n
    out.append(_text(rq))
    return "".join(out)


_SHELL_SPECIAL = frozenset(b"!\"$&()*;<=>[^`|?\\")


def _shell_char(b, i):
    """(needs quoting, safe inside double quotes) of ASCII byte b[i] of a
    file name (GNU's shell-escape style)."""
    c = b[i]
    if not 0x20 <= c < 0x7F:
        return True, False
    if c in b"{}":
        return len(b) == 1, len(b) == 1
    if c in b"#~":
        return i == 0, i == 0
    if c in b" ':":
        return True, True
    if c in _SHELL_SPECIAL:
        return True, False
    return False, True


def quotef(s):
    """A file name in a message as fairshuf verify quotes it (GNU
    quotef()): as it is when the shell would read it so, else in single
    quotes (double quotes for a name with a ' and nothing else special),
    unprintable bytes as $'\\ooo' segments."""
    b = _bytes(s)
    needs, squote, all_dq, i = len(b) == 0, False, True, 0
    while i < len(b):
        if b[i] < 0x80:
            need, dq = _shell_char(b, i)
            needs, squote, all_dq = needs or need, squote or b[i] == 0x27, all_dq and dq
            i += 1
        else:
            n, printable = _char_at(b, i)
            needs, all_dq = needs or not printable, all_dq and printable
            i += n
    if not needs:
        return _text(b)
    if squote and all_dq:
        return '"%s"' % _text(b)
    out, pending, i = ["'"], False, 0  # pending: inside a $'...' segment
    while i < len(b):
        c = b[i]
        n, printable = (1, 0x20 <= c < 0x7F) if c < 0x80 else _char_at(b, i)
        if not printable:
            if not pending:
                out.append("'$'")
                pending = True
            out.append("\\" + _C_ESCAPES[c] if c in _C_ESCAPES else _octal(b[i:i + n]))
            i += n
            continue
        if c == 0x27:
            out.append("'\\''")
            pending = False
            i += 1
            continue
        if pending:
            out.append("''")
            pending = False
        out.append(_text(b[i:i + n]))
        i += n
    out.append("'")
    return "".join(out)


def plural(k, word):
    return "%d %s%s" % (k, word, "" if k == 1 else "s")


def decimal(what, lo, hi):
    """A reader for once(): a number written as fairshuf verify reads one,
    ASCII digits and nothing else (Python's int() would also take blanks
    around it, a sign, underscores and other scripts' digits), in
    [lo, hi] ("invalid nonce: 'x' (0 to 18446744073709551615)")."""
    def read(text):
        # int() refuses more than 4300 digits; past hi's digits the number
        # is out of range anyway
        digits = text.lstrip("0") or "0"
        ok = text and all(c in "0123456789" for c in text)
        value = int(digits) if ok and len(digits) <= len(str(hi)) else hi + 1
        if not lo <= value <= hi:
            raise BadInput("invalid %s: %s (%d to %d)" % (what, quote(text), lo, hi))
        return value
    return read


def once(values, many, read=lambda v: v):
    """The value of an option given as many times as it was (values: every
    value it was given, in order; None if not given): each is read (read
    raises BadInput on an invalid one), then they must all be the same."""
    if not values:
        return None
    read_values = [read(v) for v in values]
    if any(v != read_values[0] for v in read_values[1:]):
        raise BadInput("multiple %s specified" % many)
    return read_values[0]


# ---- the command line, as fairshuf verify's getopt_long reads it -----------

# fairshuf verify's options (cli/verify/verify.c), name: takes a value.
VERIFY_OPTIONS = {"server-seed": True, "server-seed-file": True, "commitment": True,
                  "client-seed": True, "nonce": True, "decks": True, "jokers": True,
                  "burn": True, "players": True, "cards": True, "layout": True,
                  "hand": True, "rest": False, "json": True,
                  "print-order": False, "help": False, "version": False}
# This script's own: a numbered set, and --order (--print-order's old name).
OWN_OPTIONS = {"faces": True, "copies": True, "order": False}

PROG = "verify_deal.py"

HELP = """\
Usage: {0} [OPTION]... [CARD]...
  or:  {0} --json=FILE [OPTION]...
Check a provably fair deal (fairshuf-deal-v1) from the revealed server
seed, with nothing but the Python standard library: SHA-256 of the seed
must be the commitment published before play, and the CARDs dealt (poker
notation: As Th 2c RJ BJ; or with suit symbols: A\u2660 10\u2665) must be the
deal that the server seed, client seed and nonce give. Prints VALID, or
NOT VALID and exactly what does not match, as 'fairshuf verify' does.

      --server-seed=HEX       the revealed server seed: hex digits in pairs,
                              ASCII blanks (space, \\t \\n \\v \\f \\r)
                              anywhere skipped, anything else refused
      --server-seed-file=F    file holding it, read as --server-seed
                              (- for standard input)
      --commitment=HEX        the published SHA-256 of the server seed:
                              64 hex digits, nothing else, no blank
      --client-seed=S         the client seed (UTF-8 text; default empty)
      --nonce=N               the round's nonce (default 0)
      --decks=D               decks in the shoe (default 1)
      --jokers=J              jokers per deck: 0, 1 or 2 (default 0)
      --burn=B                the first B CARDs are burn cards
      --players=P             then P hands of K cards, hand by hand
      --cards=K               cards per hand (with --players)
      --layout=L              how hands were dealt: round-robin (default)
                              or blocks
      --hand=H                the CARDs are hand H's alone (1 to P; with
                              --players), in the order it got them
      --rest                  the CARDs are the rest alone (the board):
                              the cards after the burn cards and hands
      --json=FILE             read the deal from the JSON that
                              'fairshuf deal --format json' printed
                              (- for standard input)
      --print-order, --order  print the deal order the seed gives, and exit
      --faces=M --copies=C    a set of M numbered faces, C copies of each:
                              print its deal order as face numbers, and exit
      --help                  display this help and exit
      --version               output version information and exit

Options are read as 'fairshuf verify' (GNU getopt_long) reads them: a
long option may be abbreviated to a prefix that names one option, its
value may follow as the next argument even when it starts with '-', and
options and CARDs may come in any order; '--' ends the options.
Without --players, the CARDs are in deal order. With it, they are the
B burn cards, then hand 1's K cards, hand 2's, ..., then the rest in
deal order. Fewer CARDs than the shoe check that prefix.
With --hand=H, the CARDs are hand H's cards (at most K), as that player
received them; with --rest, the cards after the B burn cards and the P
hands, in deal order: a player checks his own hand, or the board, alone.
An option given twice must have the same value both times.
Exit status: 0 if VALID, 1 if NOT VALID or on bad input.
"""


class Usage(Exception):
    """Bad usage: the message, then "Try ... --help", exit status 1."""


def parse_argv(argv):
    """(options, operands) from argv as GNU getopt_long reads fairshuf
    verify's: options (name, value or None) in order, operands anywhere
    (permuted), "--" ends the options, "--name=value" or "--name value"
    (the next argument whatever it is), a name abbreviated to a prefix of
    one option. A prefix is looked up among fairshuf verify's options
    first (so --co is --commitment, as for the command), then among this
    script's own. --help and --version act where they stand, as there."""
    opts, operands, k = [], [], 0
    while k < len(argv):
        a = argv[k]
        k += 1
        if a == "--":
            operands += argv[k:]
            break
        if not a.startswith("-") or a == "-":
            operands.append(a)
            continue
        if not a.startswith("--"):  # fairshuf verify has no short option
            raise Usage("invalid option -- '%s'" % a[1])
        name, eq, value = a[2:].partition("=")
        table = dict(VERIFY_OPTIONS, **OWN_OPTIONS)
        if name not in table:
            for options in (VERIFY_OPTIONS, OWN_OPTIONS):
                found = [o for o in options if o.startswith(name)]
                if found:
                    break
            # getopt_long: matches that mean the same are not ambiguous;
            # no two of these options do
            if len(found) > 1:
                raise Usage("option '%s' is ambiguous; possibilities: %s"
                            % (a, " ".join("'--%s'" % o for o in found)))
            if not found:
                raise Usage("unrecognized option '%s'" % a)
            name = found[0]
        if not table[name]:
            if eq:
                raise Usage("option '--%s' doesn't allow an argument" % name)
            if name == "help":
                sys.stdout.write(HELP.format(PROG))
                raise SystemExit(0)
            if name == "version":
                print("%s (%s, docs/FAIRNESS.md)" % (PROG, ALGORITHM))
                raise SystemExit(0)
            opts.append((name, None))
            continue
        if not eq:
            if k == len(argv):
                raise Usage("option '--%s' requires an argument" % name)
            value = argv[k]
            k += 1
        opts.append((name, value))
    return opts, operands


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    use_locale()
    try:
        opts, operands = parse_argv(argv)
        return run(opts, operands)
    except Usage as e:
        print("%s: %s\nTry '%s --help' for more information." % (PROG, e, PROG),
              file=sys.stderr)
        return 1
    except BadInput as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
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
        raise BadInput("%s: %s" % (quotef(name), e.strerror))
    if len(data) > JSON_MAX_FILE:
        raise BadInput("%s: file too large" % quotef(name))
    return data


class Shape:
    """How the given cards are laid out (fairshuf verify's --burn,
    --players, --cards, --layout, or the JSON's): burn cards, then
    players hands of cards each, then the rest in deal order. None: the
    cards are in deal order, named "card N" (no --burn nor --players)."""

    def __init__(self, burn=0, players=0, cards=0, layout="round-robin"):
        self.burn, self.players, self.cards, self.layout = burn, players, cards, layout
        self.hand = 0     # --hand: the given cards are hand 1 to players alone
        self.rest = False  # --rest: the given cards are the rest alone

    def position(self, t):
        """(deal position, name) of the t-th given card, as fairshuf verify
        names it in a NOT VALID line."""
        hands = self.players * self.cards
        if self.hand:
            c = t
            p = self.hand - 1
            at = p * self.cards + c if self.layout == "blocks" else c * self.players + p
            return self.burn + at, "hand %d card %d" % (self.hand, c + 1)
        if self.rest:
            return self.burn + hands + t, "rest card %d" % (t + 1)
        if t < self.burn:
            return t, "burn card %d" % (t + 1)
        players = self.players
        hands = players * self.cards
        if t < self.burn + hands:
            p, c = divmod(t - self.burn, self.cards)
            at = p * self.cards + c if self.layout == "blocks" else c * players + p
            return self.burn + at, "hand %d card %d" % (p + 1, c + 1)
        return t, "rest card %d" % (t - self.burn - hands + 1)


def client_once(values):
    """--client-seed, the same every time it was given; two different ones,
    one of them too long: that one is reported first (fairshuf verify)."""
    if not values or all(v == values[0] for v in values):
        return values[0] if values else None
    for v in values:
        if len(v.encode("utf-8", "surrogateescape")) > CLIENT_MAX:
            raise BadInput("client seed longer than %d bytes" % CLIENT_MAX)
    raise BadInput("multiple client seeds specified")


def run(opts, operands):
    """fairshuf verify's checks, in its order (cmd_verify in
    cli/verify/verify.c), with its messages."""
    def values(name):
        return [v for n, v in opts if n == name] or None
    given_opts = {n for n, _ in opts}
    print_order = "print-order" in given_opts or "order" in given_opts

    seed_file = once(values("server-seed-file"), "server seed files")
    json_file = once(values("json"), "JSON files")
    client = client_once(values("client-seed"))
    if client is not None:
        # argv's bytes that are no UTF-8 come as lone surrogates: the
        # client seed is text (fairshuf deal refuses other bytes)
        try:
            client.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput("the client seed is not valid UTF-8 (the verifiers take text)") from None
    if values("hand") and "rest" in given_opts:
        raise Usage("cannot combine --hand and --rest options")
    if values("server-seed") and seed_file is not None:
        raise Usage("cannot combine --server-seed and --server-seed-file options")
    if values("server-seed"):
        seed = once(values("server-seed"), "server seeds", lambda v: parse_hex(v, "--server-seed"))
    elif seed_file is not None:
        if json_file == "-" and seed_file == "-":
            raise BadInput("--json and --server-seed-file cannot both read standard input")
        seed = parse_hex(read_file(seed_file, seed_file), quotef(seed_file))
    else:
        seed = None  # may come from the JSON (a deal printed with --reveal)
    nonce = once(values("nonce"), "nonces", decimal("nonce", 0, 2 ** 64 - 1))
    commitment = None
    problems = []

    if json_file is not None:
        if given_opts & {"decks", "jokers", "burn", "players", "cards", "layout", "hand",
                         "rest", "faces", "copies"} or operands:
            raise Usage("--json gives the deal: no --decks, --jokers, --burn, --players, "
                        "--cards, --layout, --hand, --rest or CARD arguments")
        doc, fair, jc, given, shape = order_from_json(
            read_json(read_file(json_file, json_file), json_file), json_file)
        # What the command line repeats (what the player noted) must agree
        # with the JSON: each disagreement is a NOT VALID line, as in
        # fairshuf verify; the round is the JSON's.
        noted = once(values("commitment"), "commitments",
                     lambda v: parse_commitment(v, "--commitment"))
        if noted is not None and noted != jc:
            problems.append("commitment mismatch: the JSON says %s, --commitment %s" % (jc, noted))
        if client is not None and client != fair["client_seed"]:
            problems.append("client seed mismatch: --client-seed differs from the JSON's "
                            "client_seed")
        if nonce is not None and nonce != fair["nonce"]:
            problems.append("nonce mismatch: the JSON says %d, --nonce %d" % (fair["nonce"], nonce))
        commitment, client, nonce = jc, fair["client_seed"], fair["nonce"]
        if "server_seed" in fair and not isinstance(fair["server_seed"], str):
            raise BadInput("%s: malformed deal JSON: server_seed is not a string"
                           % quotef(json_file))
        if "server_seed" in fair:
            revealed = parse_hex(fair["server_seed"], "the JSON's server_seed")
            if seed is None:
                seed = revealed
            elif revealed != seed:
                problems.append("server seed mismatch: the JSON's server_seed is not the "
                                "seed given")
        decks, jokers = doc["decks"], doc["jokers"]
    else:
        faces = once(values("faces"), "face counts", decimal("number of faces", 1, 2 ** 32))
        copies = once(values("copies"), "copy counts",
                      decimal("number of copies", 1, 2 ** 32 - 1))
        if faces is not None:
            if seed is None:
                raise BadInput("the revealed server seed is required")
            order = deal_order(seed, (client or "").encode("utf-8"), nonce or 0, faces,
                               1 if copies is None else copies)
            print(" ".join(str(f) for f in order))
            return 0
        decks = once(values("decks"), "deck counts", decimal("number of decks", 1, MAX_DECKS))
        decks = 1 if decks is None else decks
        jokers = once(values("jokers"), "joker counts", decimal("number of jokers", 0, 2)) or 0
        n = (52 + jokers) * decks
        burn = once(values("burn"), "burn counts", decimal("burn count", 0, n)) or 0
        shape = Shape(burn) if values("burn") else None
        if values("players"):
            players = once(values("players"), "player counts", decimal("number of players", 1, n))
            if not values("cards"):
                raise BadInput("--players needs --cards (cards per hand)")
            cards = once(values("cards"), "card counts", decimal("card count", 0, n))
            if cards > (n - burn) // players:
                raise BadInput("more cards than the shoe holds: %d burned and %d hands of %d, "
                               "the shoe holds %d" % (burn, players, cards, n))
            shape = Shape(burn, players, cards)
        elif values("cards"):
            raise BadInput("--cards needs --players")
        hand = 0
        if values("hand"):
            if not values("players"):
                raise BadInput("--hand needs --players and --cards")
            hand = once(values("hand"), "hand numbers", decimal("hand number", 1, players))
        rest = "rest" in given_opts
        if rest and not values("burn") and not values("players"):
            raise BadInput("--rest needs --burn or --players (what comes before the rest)")
        for v in values("layout") or []:
            if v not in ("round-robin", "blocks"):
                raise BadInput("invalid layout: %s (round-robin or blocks)" % quote(v))
        layout = once(values("layout"), "layouts")
        if shape is not None and layout is not None:
            shape.layout = layout
        if shape is not None:
            shape.hand, shape.rest = hand, rest
        commitment = once(values("commitment"), "commitments",
                          lambda v: parse_commitment(v, "--commitment"))
        given = operands
    if seed is None:
        raise Usage("the revealed server seed is required (--server-seed or "
                    "--server-seed-file%s)" % (", or server_seed in the JSON" if json_file else ""))
    client = (client or "").encode("utf-8")
    nonce = nonce or 0
    if len(client) > CLIENT_MAX:
        raise BadInput("client seed longer than %d bytes" % CLIENT_MAX)
    if commitment is None and not print_order:
        raise Usage("the commitment is required (--commitment or --json): without it the "
                    "deal is not tied to what the operator published")

    faces = 52 + jokers
    n = faces * decks
    need = seed_min(faces, decks)
    if len(seed) < 32:
        raise BadInput("server seed too short: %s (at least 32)" % plural(len(seed), "byte"))
    if len(seed) < need:
        raise BadInput("server seed too short for this game: %d bytes, %s with %s need%s at "
                       "least %d" % (len(seed), plural(decks, "deck"), plural(jokers, "joker"),
                                     "s" if decks == 1 else "", need))
    if len(given) > n:
        raise BadInput("%s given, more than the shoe holds (%d)" % (plural(len(given), "card"), n))
    if shape is not None and shape.hand and len(given) > shape.cards:
        raise BadInput("%s given, more than hand %d holds (%d)"
                       % (plural(len(given), "card"), shape.hand, shape.cards))
    if shape is not None and shape.rest:
        left = n - shape.burn - shape.players * shape.cards
        if len(given) > left:
            raise BadInput("%s given, more than the rest holds (%d)" % (plural(len(given), "card"), left))
    # Compared as faces, named in poker notation (A\u2660 is As), as fairshuf verify.
    given = [card_name(card_parse(name, faces)) for name in given]
    order = [card_name(f) for f in deal_order(seed, client, nonce, faces, decks)]
    if print_order:
        print(" ".join(order))
        return 0

    digest = hashlib.sha256(seed).hexdigest()
    print("commitment:  %s" % digest)
    print("deal order:  %s" % " ".join(order))
    if commitment != digest:
        problems.append("commitment mismatch: SHA-256 of the server seed is %s, "
                        "the commitment is %s" % (digest, commitment))
    # Every given card at its deal position; the first that differs in
    # deal order is named.
    def position(t):
        return shape.position(t) if shape else (t, "card %d" % (t + 1))
    wrong = [(position(t), t) for t in range(len(given)) if given[t] != order[position(t)[0]]]
    if wrong:
        (pos, where), t = min(wrong)
        problems.append("%s (deal position %d) differs: dealt %s, the server seed gives %s; "
                        "%d of %d cards differ" % (where, pos + 1, given[t], order[pos],
                                                   len(wrong), len(given)))
    if problems:
        for p in problems:
            print("NOT VALID: %s" % p)
        return 1
    print("VALID: commitment %s matches; %d of %d cards checked (%s, %s, nonce %d)"
          % (digest, len(given), n, plural(decks, "deck"), plural(jokers, "joker"), nonce))
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
