#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Words for the reduction checks of the verifiers: "X R" lines where X is
the 64-bit word and R the range, chosen so that an implementation without
the exact rejection (or with the threshold off by one) gets some wrong:
for odd R the words whose low product half is 2^64 mod R - 1 (rejected)
and 2^64 mod R (accepted), the word 0 (rejected unless R is a power of
two), the largest word, and a few fixed pseudo-random words."""
import random

M = 2 ** 64
rnd = random.Random(11)
ranges = [2, 3, 5, 7, 13, 52, 53, 54, 104, 416, 432, 1000, 65537, 2 ** 32 + 1,
          2 ** 63 + 1, M - 1, M - 3, 3000000019]
for r in ranges:
    t = M % r
    words = [0, M - 1] + [rnd.randrange(M) for _ in range(3)]
    if r % 2:
        inv = pow(r, -1, M)
        words += [((t - 1) % M) * inv % M, t * inv % M]
    for x in words:
        print(x, r)
