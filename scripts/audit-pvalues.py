#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-test calibration of fairshuf audit (docs/AUDIT.md): run RUNS audits
of a correct shuffler from tests/audit/ and check that each test's p-values
are uniform: the fraction below 0.01, 0.05 and 0.1, and the
Kolmogorov-Smirnov distance to the uniform law (a test whose p-values sit
above the diagonal is conservative: the worst row or column and the
duplicate test, by construction).

    scripts/audit-pvalues.py FAIRSHUF AUDIT_DIR RUNS PROGRAM DEALS CARDS
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def main():
    fairshuf, adir, runs, prog, deals, cards = sys.argv[1:7]
    ps = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        for i in range(int(runs)):
            gen = subprocess.Popen([os.path.join(adir, prog), deals, cards,
                                    "pv%d" % i], stdout=subprocess.PIPE)
            rc = subprocess.run([fairshuf, "audit", "--no-progress", "--input",
                                 "-", "--json", out], stdin=gen.stdout,
                                stdout=subprocess.DEVNULL).returncode
            gen.wait()
            if rc not in (0, 1):
                sys.exit("audit exited %d" % rc)
            for t in json.load(open(out))["tests"]:
                if t["result"] != "SKIP":
                    ps[t["name"]].append(t["p"])
    print("%s %s x %s, %s audits" % (prog, deals, cards, runs))
    print("| test | < 0.01 | < 0.05 | < 0.10 | KS distance |")
    print("|---|---|---|---|---|")
    for name, v in ps.items():
        v.sort()
        m = len(v)
        ks = max(max((i + 1) / m - x, x - i / m) for i, x in enumerate(v))
        frac = [sum(x < a for x in v) / m for a in (0.01, 0.05, 0.1)]
        print("| %s | %.3f | %.3f | %.3f | %.3f |" % (name, *frac, ks))
    print("(KS 5 %% critical value for %d audits: %.3f)" % (m, 1.36 / m ** 0.5))


if __name__ == "__main__":
    main()
