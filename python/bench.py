#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark fairshuf.Generator against numpy.random.Generator (PCG64) side
by side in one run: shuffle, permutation and choice(replace=False) of int64
at 1e3 .. 1e8 (choice: k = n/10 of n), and list shuffles against
random.shuffle. Repetitions are interleaved (ours, numpy, ours, ...);
medians and ratios are printed with the machine and the load.

    /usr/bin/python3 python/bench.py [--max 1e8] [--reps 7] [--quick]

Run from the source tree after building the extension (make bench does:
PYTHONPATH points at the built package), or with fairshuf installed.
"""
import argparse
import os
import platform
import random
import statistics
import sys
import time


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    caches = []
    for idx in range(8):
        base = "/sys/devices/system/cpu/cpu0/cache/index%d/" % idx
        try:
            with open(base + "level") as f:
                lvl = f.read().strip()
            with open(base + "type") as f:
                typ = f.read().strip()
            with open(base + "size") as f:
                size = f.read().strip()
        except OSError:
            continue
        if typ != "Instruction":
            caches.append("L%s%s %s" % (lvl, "d" if typ == "Data" else "", size))
    return cpu, os.cpu_count(), ", ".join(caches)


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def timeit(fn, setup):
    """Seconds one call of fn takes (setup's output is its argument; setup
    not timed). Small calls are repeated to last about 20 ms."""
    arg = setup()
    t0 = time.perf_counter()
    fn(arg)
    t = time.perf_counter() - t0
    if t >= 0.02:
        return t
    reps = max(1, int(0.02 / max(t, 1e-7)))
    args = [setup() for _ in range(min(reps, 64))]
    t0 = time.perf_counter()
    for i in range(reps):
        fn(args[i % len(args)])
    return (time.perf_counter() - t0) / reps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max", type=float, default=1e8, help="largest n (default 1e8)")
    ap.add_argument("--reps", type=int, default=7, help="repetitions per cell (default 7)")
    ap.add_argument("--quick", action="store_true", help="up to 1e6, 3 repetitions")
    a = ap.parse_args()
    if a.quick:
        a.max, a.reps = min(a.max, 1e6), 3
    import numpy as np

    import fairshuf

    cpu, cores, caches = machine()
    print("machine: %s, %s cores, %s" % (cpu, cores, caches))
    print("python %s, numpy %s, fairshuf %s; load average at start: %s"
          % (platform.python_version(), np.__version__, fairshuf.__version__, loadavg()))
    print("median of %d interleaved repetitions; ns per element (choice: per element drawn)" % a.reps)
    print()
    ours = fairshuf.Generator()
    keyonly = fairshuf.Generator(reach=fairshuf.REACH_KEY)
    theirs = np.random.default_rng()
    sizes = [n for n in (10**3, 10**4, 10**5, 10**6, 10**7, 10**8) if n <= a.max]
    print("| operation | n | fairshuf ns/el | numpy ns/el | numpy / fairshuf: median (best) |")
    print("|---|---:|---:|---:|---:|")
    rows = []
    for n in sizes:
        reps = a.reps if n < 10**8 else max(3, a.reps // 2)
        base = np.arange(n, dtype=np.int64)
        k = max(1, n // 10)
        cases = [
            ("shuffle int64", n, lambda x: ours.shuffle(x), lambda x: theirs.shuffle(x),
             lambda: base),
            ("permutation(n)", n, lambda _: ours.permutation(n), lambda _: theirs.permutation(n),
             lambda: None),
            ("choice(n, n/10, replace=False)", k,
             lambda _: ours.choice(n, k, replace=False),
             lambda _: theirs.choice(n, k, replace=False), lambda: None),
        ]
        if n < 5808:
            # the default generator mixes RDSEED into shuffles of up to
            # 5,808 items (full reach); REACH_KEY runs bounded by the key
            cases.insert(1, ("shuffle int64, reach=REACH_KEY", n, lambda x: keyonly.shuffle(x),
                             lambda x: theirs.shuffle(x), lambda: base))
        for name, per, f_ours, f_np, setup in cases:
            to, tn = [], []
            for _ in range(reps):
                to.append(timeit(f_ours, setup))
                tn.append(timeit(f_np, setup))
            mo, mn = statistics.median(to), statistics.median(tn)
            rows.append((name, n, mo, mn))
            print("| %s | %.0e | %.2f | %.2f | %.1f (best %.1f) |"
                  % (name, n, mo / per * 1e9, mn / per * 1e9, mn / mo, min(tn) / min(to)))
            sys.stdout.flush()
        del base
    print()
    print("| list shuffle | n | fairshuf ns/el | random.shuffle ns/el | ratio |")
    print("|---|---:|---:|---:|---:|")
    rnd = random.Random()
    for n in (n for n in (10**3, 10**5, 10**6) if n <= a.max):
        lst = list(range(n))
        to, tr = [], []
        for _ in range(a.reps):
            to.append(timeit(lambda x: ours.shuffle(x), lambda: lst))
            tr.append(timeit(lambda x: rnd.shuffle(x), lambda: lst))
        mo, mr = statistics.median(to), statistics.median(tr)
        print("| list | %.0e | %.2f | %.2f | %.1f |" % (n, mo / n * 1e9, mr / n * 1e9, mr / mo))
    print()
    print("load average at end: %s" % loadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
