#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent implementation of the scatter shuffle's stream.

Written from docs/STREAMS.md section 5b alone (with section 5's
Fisher-Yates and section 2's words, taken from crosscheck_seed.py), it
recomputes the SHA-256 of the outputs that tests/test_scatter_stream.c
holds:
- fsh_shuffle_u64 of 0..n-1 with a seeded ChaCha20 rng, n = 3,200,000
  (25.6 MB: one level of 16 buckets, four stripes, 16 leaves);
- fsh_shuffle_u32 of 0..n-1 with a seeded ChaCha8 rng, n = 6,400,000
  (25.6 MB: 4-byte elements, leaves of up to 524,288);
- the test hook with fixed parameters (the same stream with k buckets at
  every level, S stripes at the top and leaves of at most `base`
  elements): three levels and their node ids, small and empty stripes;
- stream version 2 (section "Stream versions"): the scatter shuffle from
  12 MiB, with buckets made at most 1 MiB: 1,600,000 and 3,200,000 u64
  (ChaCha20) and 3,200,000 u32 (ChaCha8); and the same 1,600,000 u64 by
  version 1 (Fisher-Yates there);
- stream version 3 (section 5d): the forward Fisher-Yates above 6 MiB
  (900,000 u64, 1,700,000 u32) and the scatter's forward leaves
  (1,600,000 u64, and the test hook on u64 and on u32).
Python with numpy for the ChaCha blocks (checked against the pure-Python
block function first): about 30 s of CPU for the large cases, on two
processes; without numpy, pure Python, about three minutes.

Usage: crosscheck_scatter.py [test_scatter_stream.c]  -- prints the
results, or checks that each appears in the given file and exits 1 if one
does not.
"""
import array
import hashlib
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck_seed import (M32, M64, chacha_block, digest,  # noqa: E402
                             fisher_yates_indices)

try:
    import numpy as np
except ImportError:  # the pure-Python blocks: the same words, 5x the time
    np = None


def chacha_words_np(key, counter, count, stream, rounds):
    """The words of `count` ChaCha blocks from block `counter` on: section
    2's block function (RFC 8439's quarter round, 64-bit counter in words
    12-13, stream id in 14-15), one numpy lane per block. Checked against
    chacha_block below before any case runs."""
    u32 = np.uint32
    ctr = (np.arange(count, dtype=np.uint64) + np.uint64(counter & M64))
    k = [int.from_bytes(key[4 * i:4 * i + 4], "little") for i in range(8)]
    words = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + k
    init = [np.full(count, w, dtype=u32) for w in words]
    init += [(ctr & np.uint64(M32)).astype(u32),
             (ctr >> np.uint64(32)).astype(u32),
             np.full(count, stream & M32, dtype=u32),
             np.full(count, stream >> 32, dtype=u32)]
    s = [x.copy() for x in init]

    def qr(a, b, c, d):
        for x, y, z, r in ((a, b, d, 16), (c, d, b, 12), (a, b, d, 8),
                           (c, d, b, 7)):
            s[x] += s[y]
            t = s[z] ^ s[x]
            s[z] = (t << u32(r)) | (t >> u32(32 - r))

    for _ in range(rounds // 2):
        qr(0, 4, 8, 12)
        qr(1, 5, 9, 13)
        qr(2, 6, 10, 14)
        qr(3, 7, 11, 15)
        qr(0, 5, 10, 15)
        qr(1, 6, 11, 12)
        qr(2, 7, 8, 13)
        qr(3, 4, 9, 14)
    out = np.empty((count, 16), dtype="<u4")
    for i in range(16):
        out[:, i] = s[i] + init[i]
    return out.view("<u8").ravel().tolist()


def check_np():
    """The numpy blocks equal chacha_block: every round count used, the
    counter's carry into its high word and its wrap at 2^64, a stream id
    with both halves set."""
    key = bytes(range(7, 39))
    for rounds in (8, 12, 20):
        for counter, stream in ((0, 0), (M32 - 1, 5 * 64 + 3),
                                (M64 - 1, (3 << 32) | 9)):
            got = chacha_words_np(key, counter, 3, stream, rounds)
            want = []
            for j in range(3):
                blk = chacha_block(key, (counter + j) & M64, stream, rounds)
                want += [int.from_bytes(blk[i:i + 8], "little")
                         for i in range(0, 64, 8)]
            if got != want:
                raise SystemExit("numpy ChaCha differs from chacha_block: "
                                 "rounds %d counter %d" % (rounds, counter))


class Stream:
    """ChaCha words with a given key, rounds and stream id, counter 0."""

    def __init__(self, key, rounds, stream):
        self.key, self.rounds, self.stream = key, rounds, stream
        self.counter, self.buf, self.pos = 0, [], 0
        self.ahead = 1  # blocks made at once with numpy: 1, 2, 4 ... 4096

    def word(self):
        if self.pos == len(self.buf):
            if np is not None:
                self.buf = chacha_words_np(self.key, self.counter, self.ahead,
                                           self.stream, self.rounds)
                self.counter = (self.counter + self.ahead) & M64
                self.ahead = min(2 * self.ahead, 4096)
            else:
                blk = chacha_block(self.key, self.counter, self.stream,
                                   self.rounds)
                self.buf = [int.from_bytes(blk[i:i + 8], "little")
                            for i in range(0, 64, 8)]
                self.counter = (self.counter + 1) & M64
            self.pos = 0
        w = self.buf[self.pos]
        self.pos += 1
        return w


def fy(a, lo, n, rng):
    """Section 5: backward Fisher-Yates of a[lo .. lo+n): position
    lo+n-1-t swaps with lo + the t-th index."""
    for t, j in enumerate(fisher_yates_indices(rng, n)):
        p = lo + n - 1 - t
        a[p], a[lo + j] = a[lo + j], a[p]


def fy_forward(a, lo, n, rng):
    """Section 5d: forward Fisher-Yates of a[lo .. lo+n): for b = 2 .. n,
    position lo+b-1 swaps with lo + a uniform j < b, the dice drawn in
    batches of b, b+1, ... (K by the batch's first bound, cut short at the
    end), one word each, accepted when its final low half is at least
    2^64 mod P."""
    b = 2
    while b <= n:
        K = (6 if b <= 1 << 9 else 5 if b <= 1 << 11 else
             4 if b <= 1 << 14 else 3 if b <= 1 << 19 else
             2 if b <= 1 << 30 else 1)
        k = min(K, n - b + 1)
        P = 1
        for d in range(k):
            P *= b + d
        t = (1 << 64) % P
        while True:
            low, js = rng.word(), []
            for d in range(k):
                m = low * (b + d)
                js.append(m >> 64)
                low = m & M64
            if low >= t:
                break
        for d in range(k):
            p, q = lo + b - 1 + d, lo + js[d]
            a[p], a[q] = a[q], a[p]
        b += k


class Labels:
    """log2(k) bits at a time from the most significant end of each word."""

    def __init__(self, rng, k):
        assert k & (k - 1) == 0 and k >= 2
        self.rng, self.bits = rng, k.bit_length() - 1
        self.per, self.left, self.w = 64 // self.bits, 0, 0

    def next(self):
        if self.left == 0:
            self.w, self.left = self.rng.word(), self.per
        r = self.w >> (64 - self.bits)
        self.w = (self.w << self.bits) & M64
        self.left -= 1
        return r


def cut(n, k, j):
    return (n // k) * j + (n % k) * j // k


class Scatter:
    def __init__(self, key, rounds, base, top_stripes, kfix=0, version=1,
                 size=8):
        self.key, self.rounds, self.base = key, rounds, base
        self.top_stripes, self.kfix = top_stripes, kfix
        # Version 3: forward leaves for elements of up to 8 bytes.
        self.forward = version >= 3 and size <= 8
        # Version 2: a level's buckets are made at most B // 2 (C).
        self.kbase = base if version == 1 else base // 2

    def stream(self, node, task):
        return Stream(self.key, self.rounds, node * 64 + task)

    def node(self, a, lo, n, node, depth):
        if n < 2:
            return
        if n <= self.base or depth >= 5:
            (fy_forward if self.forward else fy)(a, lo, n,
                                                 self.stream(node, 63))
            return
        self.level(a, lo, n, node, depth, self.top_stripes if depth == 0
                   else 1)

    def choose_k(self, n, S):
        if self.kfix:
            return self.kfix
        k = 2
        while k < 512 and n // k > self.kbase and n // (2 * k * S) >= 4096:
            k *= 2
        return k

    def level(self, a, lo, n, node, depth, S):
        k = self.choose_k(n, S)
        R = [cut(n, k, j) for j in range(k + 1)]
        st = [[R[j] + cut(R[j + 1] - R[j], S, s) for j in range(k)]
              for s in range(S)]
        en = [[R[j] + cut(R[j + 1] - R[j], S, s + 1) for j in range(k)]
              for s in range(S)]
        nx = [row[:] for row in st]
        # 2. Rough pass.
        for s in range(S):
            if any(st[s][j] == en[s][j] for j in range(k)):
                continue
            lab = Labels(self.stream(node, s), k)
            nxs, ens = nx[s], en[s]
            while True:
                j = lab.next()
                if j:
                    p, q = lo + nxs[0], lo + nxs[j]
                    a[p], a[q] = a[q], a[p]
                nxs[j] += 1
                if nxs[j] == ens[j]:
                    break
        # 3. Compaction; the stash.
        P, stash = [], []
        for j in range(k):
            P.append(sum(nx[s][j] - st[s][j] for s in range(S)))
            w = nx[0][j]
            for s in range(1, S):
                L = nx[s][j] - st[s][j]
                c = min(st[s][j] - w, L)
                for e in range(c):
                    x, y = lo + w + e, lo + nx[s][j] - c + e
                    a[x], a[y] = a[y], a[x]
                w += L
            stash += a[lo + R[j] + P[j]:lo + R[j + 1]]
        # 4. Stash labels.
        m = len(stash)
        lab = Labels(self.stream(node, 62), k)
        labels = [lab.next() for _ in range(m)]
        cnt = [0] * k
        for j in labels:
            cnt[j] += 1
        # 5. Final regions.
        F = [0]
        for j in range(k):
            F.append(F[j] + P[j] + cnt[j])
        for j in range(k):
            r, f = R[j], F[j]
            if f < r:
                c = min(r - f, P[j])
                a[lo + f:lo + f + c] = a[lo + r + P[j] - c:lo + r + P[j]]
        for j in range(k - 1, -1, -1):
            r, f = R[j], F[j]
            if f > r:
                c = min(f - r, P[j])
                a[lo + f + P[j] - c:lo + f + P[j]] = a[lo + r:lo + r + c]
        nxt = [F[j] + P[j] for j in range(k)]
        for t in range(m):
            j = labels[t]
            a[lo + nxt[j]] = stash[t]
            nxt[j] += 1
        # 6. The buckets.
        for j in range(k):
            self.node(a, lo + F[j], F[j + 1] - F[j], node * 1024 + j,
                      depth + 1)


def key_of(rng):
    return b"".join(rng.word().to_bytes(8, "little") for _ in range(4))


def run(n, size, rounds, seed, base=None, stripes=4, kfix=0, version=1):
    """fsh_shuffle of 0..n-1 (elements of `size` bytes) from the seeded
    rng by stream version `version` (base None), or the scatter shuffle
    with fixed parameters (the test hook): SHA-256 of the output,
    little-endian elements."""
    rng = Stream(digest(seed), rounds, 0)
    a = list(range(n))
    small = version >= 2 and size <= 8  # versions 2, 3: from 12 MiB
    if base is None and n * size <= (12 << 20 if small else 24 << 20):
        # Section 5 (version 3, small elements above 6 MiB: section 5d):
        # Fisher-Yates from the rng itself.
        if version >= 3 and size <= 8 and n * size > 6 << 20:
            fy_forward(a, 0, n, rng)
        else:
            fy(a, 0, n, rng)
    else:
        key = key_of(rng)
        if base is None:
            base = max(64, (1 << 21) // size)
        sc = Scatter(key, rounds, base, stripes, kfix, version, size)
        sc.node(a, 0, n, 1, 0)
    arr = array.array("Q" if size == 8 else "I", a)
    if np is not None:
        assert np.array_equal(np.sort(np.frombuffer(arr, dtype=arr.typecode)),
                              np.arange(n))
    else:
        assert sorted(a) == list(range(n))
    if sys.byteorder != "little":
        arr.byteswap()
    return hashlib.sha256(arr.tobytes()).hexdigest()


CASES = [
    # name, n, size, rounds, seed, base, stripes, kfix, stream version
    ("hook_k8_s2", 20000, 8, 8, b"scatter-stream-1", 300, 2, 8, 1),
    ("hook_k4_s3", 5000, 8, 20, b"scatter-stream-2", 200, 3, 4, 1),
    ("hook_k2_s8", 3000, 4, 12, b"scatter-stream-3", 40, 8, 2, 1),
    ("hook_k16_s1", 70000, 4, 8, b"scatter-stream-4", 64, 1, 16, 1),
    ("u64_3200000", 3200000, 8, 20, b"scatter-stream-5", None, 4, 0, 1),
    ("u32_6400000", 6400000, 4, 8, b"scatter-stream-6", None, 4, 0, 1),
    ("v1_u64_1600000", 1600000, 8, 20, b"scatter-stream-7", None, 4, 0, 1),
    ("v2_u64_1600000", 1600000, 8, 20, b"scatter-stream-7", None, 4, 0, 2),
    ("v2_u64_3200000", 3200000, 8, 20, b"scatter-stream-5", None, 4, 0, 2),
    ("v2_u32_3200000", 3200000, 4, 8, b"scatter-stream-8", None, 4, 0, 2),
    ("hook_k8_s2_v3", 20000, 8, 8, b"scatter-stream-1", 300, 2, 8, 3),
    ("hook_k16_s1_v3", 70000, 4, 8, b"scatter-stream-4", 64, 1, 16, 3),
    ("v3_u64_900000", 900000, 8, 20, b"scatter-stream-9", None, 4, 0, 3),
    ("v3_u32_1700000", 1700000, 4, 8, b"scatter-stream-10", None, 4, 0, 3),
    ("v3_u64_1600000", 1600000, 8, 20, b"scatter-stream-7", None, 4, 0, 3),
]


def one(case):
    name, n, size, rounds, seed, base, stripes, kfix, v = case
    return '%s %s' % (name, run(n, size, rounds, seed, base, stripes, kfix, v))


def main():
    if np is not None:
        check_np()
    # The cases on two processes, largest first (this script is among
    # make check's longest programs); printed in CASES order.
    order = sorted(range(len(CASES)), key=lambda i: -CASES[i][1])
    with multiprocessing.Pool(min(2, os.cpu_count() or 1)) as pool:
        done = pool.map(one, [CASES[i] for i in order], chunksize=1)
    lines = [None] * len(CASES)
    for i, ln in zip(order, done):
        lines[i] = ln
    for ln in lines:
        print(ln, flush=True)
    if len(sys.argv) > 1:
        text = open(sys.argv[1]).read()
        bad = [ln for ln in lines if ln.split()[1] not in text]
        for ln in bad:
            print("not in %s: %s" % (sys.argv[1], ln), file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
