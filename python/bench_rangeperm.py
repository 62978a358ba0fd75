#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time RangePermutation.next_n(k) (fsh_rangeperm_next_n) against numpy's
nearest equivalents for k distinct values of range(n) in random order:
numpy.random.Generator.choice(n, k, replace=False) and permutation(n)[:k]
(skipped when n int64s exceed --perm-max-bytes). Each round times every
contender once, in turn; the median of --rounds rounds, in ms and ns per
value drawn. The permutation's construction (with hint=k, and with no
hint) is included in its time, as numpy's calls include their setup.

    PYTHONPATH=build/python/lib /usr/bin/python3 -P python/bench_rangeperm.py
"""
import argparse
import statistics
import time

import numpy as np

import fairshuf


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--perm-max-bytes", type=float, default=2e9)
    a = ap.parse_args()
    cases = [(10**6, 10**9), (10**6, 2 * 10**6)]
    print("load average:", open("/proc/loadavg").read().split()[:3])
    for k, n in cases:
        fs = fairshuf.Generator()  # OS-keyed ChaCha8, the default reach policy
        npg = np.random.default_rng()
        runs = {
            "range_permutation(n, hint=k).next_n(k)": lambda: fs.range_permutation(n, hint=k).next_n(k),
            "range_permutation(n).next_n(k)": lambda: fs.range_permutation(n).next_n(k),
            "fairshuf choice(n, k, replace=False)": lambda: fs.choice(n, k, replace=False),
            "numpy choice(n, k, replace=False)": lambda: npg.choice(n, k, replace=False),
        }
        if n * 8 <= a.perm_max_bytes:
            runs["numpy permutation(n)[:k]"] = lambda: npg.permutation(n)[:k].copy()
        times = {name: [] for name in runs}
        for f in runs.values():  # warm-up
            f()
        for _ in range(a.rounds):
            for name, f in runs.items():
                t0 = time.perf_counter()
                out = f()
                times[name].append(time.perf_counter() - t0)
                assert len(out) == k
                del out
        print("\nk = %g of n = %g, %d rounds (median; min-max)" % (k, n, a.rounds))
        for name, ts in times.items():
            m = statistics.median(ts)
            print("  %-42s %8.1f ms  %6.1f ns/value  (%.1f-%.1f ms)"
                  % (name, m * 1e3, m * 1e9 / k, min(ts) * 1e3, max(ts) * 1e3))
    print("load average:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
