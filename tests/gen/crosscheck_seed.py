#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent implementation of fairshuf's seeded streams.

Recomputes tests/gen/golden_seed.h from the documented rules only:
- key = SHA-256(b"fairshuf/seed/v1" + b"\\0" + seed) (hashlib);
- ChaCha with 8/12/20 rounds written from RFC 8439 section 2.3 in the
  original layout (64-bit block counter in state words 12-13, 64-bit stream
  id in 14-15), counter 0, stream 0; words = keystream bytes, 8 at a time,
  little-endian;
- xoshiro256++ seeded through SplitMix64 from the first 8 digest bytes
  (little-endian);
- Lemire's bounded integers with exact rejection, Fisher-Yates (backward)
  and the lazy deck deal.
Usage: crosscheck_seed.py [golden_seed.h]  -- prints the header, or compares
it with the given file and exits 1 on any difference.
"""
import hashlib
import sys

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


def rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & M32


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & M32
    s[d] = rotl32(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & M32
    s[b] = rotl32(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & M32
    s[d] = rotl32(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & M32
    s[b] = rotl32(s[b] ^ s[c], 7)


def chacha_block(key, counter, stream, rounds):
    const = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    k = [int.from_bytes(key[4 * i:4 * i + 4], "little") for i in range(8)]
    init = const + k + [counter & M32, counter >> 32, stream & M32, stream >> 32]
    s = list(init)
    for _ in range(rounds // 2):
        quarter(s, 0, 4, 8, 12)
        quarter(s, 1, 5, 9, 13)
        quarter(s, 2, 6, 10, 14)
        quarter(s, 3, 7, 11, 15)
        quarter(s, 0, 5, 10, 15)
        quarter(s, 1, 6, 11, 12)
        quarter(s, 2, 7, 8, 13)
        quarter(s, 3, 4, 9, 14)
    return b"".join(((s[i] + init[i]) & M32).to_bytes(4, "little") for i in range(16))


def digest(seed):
    return hashlib.sha256(b"fairshuf/seed/v1\0" + seed).digest()


class ChaCha:
    def __init__(self, key, rounds):
        self.key, self.rounds, self.counter, self.buf = key, rounds, 0, b""

    def word(self):
        if not self.buf:
            self.buf = chacha_block(self.key, self.counter, 0, self.rounds)
            self.counter = (self.counter + 1) & M64
        w, self.buf = self.buf[:8], self.buf[8:]
        return int.from_bytes(w, "little")


class Xoshiro:
    def __init__(self, seed):
        x, self.s = seed, []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            self.s.append(z ^ (z >> 31))

    def word(self):
        s = self.s
        t0 = (s[0] + s[3]) & M64
        r = ((((t0 << 23) | (t0 >> 41)) & M64) + s[0]) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & M64
        return r


def uniform(rng, s):
    """Lemire: high half of w * s; reject low halves below 2^64 mod s."""
    if s == 1:
        return 0
    m = rng.word() * s
    if (m & M64) < s:
        t = (1 << 64) % s
        while (m & M64) < t:
            m = rng.word() * s
    return m >> 64


def batch(rng, b, k, cheap):
    """k dice of bounds b, b-1, ..., b-k+1 from one word (Brackett-Rozinsky &
    Lemire): the digits of floor(w * P / 2^64) in mixed radix, rejecting
    words whose w * P mod 2^64 is below 2^64 mod P. Returns (digits, cheap)."""
    p = 1
    for d in range(k):
        p *= b - d
    assert p < 1 << 64
    while True:
        w = rng.word()
        low = (w * p) & M64
        top = (w * p) >> 64
        digits = []
        for d in range(k - 1, -1, -1):
            digits.append(top % (b - d))
            top //= b - d
        digits.reverse()
        if low >= cheap:
            return digits, cheap
        cheap = p
        if low >= (1 << 64) % p:
            return digits, cheap


def plan(b, cap=1 << 60):
    """Greedy batch: dice b, b-1, ... (each >= 2) while the product <= cap;
    for b <= 20 all the remaining dice at once."""
    p, k = 1, 0
    if b <= 20:
        for d in range(2, b + 1):
            p *= d
        return b - 1, p
    while b - k >= 2 and p * (b - k) <= cap:
        p *= b - k
        k += 1
    return k, p


def fisher_yates_indices(rng, n):
    """The library's index sequence for a backward Fisher-Yates of n: for
    each bound i = n, n-1, ..., 2 the index j in [0, i)."""
    out, i = [], n
    while i > 1 << 30:
        out.append(uniform(rng, i))
        i -= 1
    for k, low, cheap in ((2, 1 << 19, 1 << 60), (3, 1 << 14, 1 << 57),
                          (4, 1 << 11, 1 << 56), (5, 1 << 9, 1 << 55),
                          (6, 64, 1 << 54)):
        while i > low:
            digits, cheap = batch(rng, i, k, cheap)
            out += digits
            i -= k
    while i > 1:
        k, p = plan(i)
        digits, _ = batch(rng, i, k, p)
        out += digits
        i -= k
    return out


def words_c(name, ws):
    lines = ["static const uint64_t %s[%d] = {" % (name, len(ws))]
    lines += ["    0x%016xu," % w for w in ws]
    return "\n".join(lines) + "\n};\n"


def u32_c(name, vs):
    out = "static const uint32_t %s[%d] = {" % (name, len(vs))
    for i, v in enumerate(vs):
        out += ("\n    " if i % 13 == 0 else " ") + "%2d," % v
    return out + "\n};\n"


def main():
    out = "/* SPDX-License-Identifier: MIT */\n"
    out += ("/* Generated by tests/gen/gen_seed.c; cross-checked by "
           "tests/gen/crosscheck_seed.py.\n   Do not edit. */\n")
    out += "/* golden_seed_1000: byte i = (i * 131 + 7) mod 256. */\n"
    seeds = [("golden_seed_empty", b""), ("golden_seed_a", b"a"),
             ("golden_seed_fairshuf", b"fairshuf"),
             ("golden_seed_0_31", bytes(range(32))),
             ("golden_seed_1000", bytes((i * 131 + 7) & 255 for i in range(1000)))]
    for name, seed in seeds:
        r = ChaCha(digest(seed), 20)
        out += words_c(name, [r.word() for _ in range(8)])
    d = digest(b"fairshuf")
    gens = [("golden_gen_chacha12", ChaCha(d, 12)),
            ("golden_gen_chacha8", ChaCha(d, 8)),
            ("golden_gen_xoshiro", Xoshiro(int.from_bytes(d[:8], "little")))]
    for name, r in gens:
        out += words_c(name, [r.word() for _ in range(8)])

    deal_seed = b"fairshuf golden deal seed 000001"
    out += '#define GOLDEN_DEAL_SEED "%s"\n' % deal_seed.decode()
    r = ChaCha(digest(deal_seed), 20)
    bounds = [52, 6, 2, 1000000007, (1 << 63) + 1, M64]
    draws = [uniform(r, b) for b in bounds for _ in range(4)]
    out += ("/* fsh_uniform, 4 draws each for bounds 52, 6, 2, 1000000007, "
            "2^63 + 1, 2^64 - 1. */\n")
    out += words_c("golden_draws", draws)

    r = ChaCha(digest(deal_seed), 20)
    cards, dealt, pending = list(range(52)), [], []
    for rem in range(52, 0, -1):
        if rem > 1 and not pending:
            k, p = plan(rem)
            pending, _ = batch(r, rem, k, p)
        j = pending.pop(0) if rem > 1 else 0
        c = cards[j]
        cards[j] = cards[rem - 1]
        cards[rem - 1] = c
        dealt.append(c)
    out += "/* fsh_deck_deal_n of a new 52-card deck. */\n" + u32_c("golden_deal", dealt)

    r = ChaCha(digest(deal_seed), 20)
    a = list(range(52))
    for i, j in zip(range(51, 0, -1), fisher_yates_indices(r, 52)):
        a[i], a[j] = a[j], a[i]
    out += "/* fsh_shuffle_u32 of 0..51. */\n" + u32_c("golden_shuffle", a)

    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            committed = f.read()
        if committed != out:
            sys.stderr.write("crosscheck_seed: %s differs from the independent "
                             "implementation\n" % sys.argv[1])
            return 1
        print("crosscheck_seed: %s matches the independent implementation"
              % sys.argv[1])
        return 0
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
