# SPDX-License-Identifier: MIT
"""Tests of the fairshuf Python package (issue 16).

Statistical tests use fixed seeds, so they are deterministic; their
thresholds are the chi-square upper quantile at alpha = 1e-6 (so a correct
library fails one with probability at most 1e-6 on a fresh seed), and each
has a known-bad variant that the same check rejects.
"""
import array
import errno
import gc
import hashlib
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest

import fairshuf
from conftest import ROOT, run_lines

SEED = "fairshuf-python-tests"


def gen(seed=SEED, **kw):
    return fairshuf.Generator(seed=seed, simulation=True, **kw)


def ref_perm(n, seed=SEED):
    """The order fsh_shuffle gives n rows (any row size in cache): the
    shuffle of 0..n-1 with the same seeded generator."""
    idx = np.arange(n, dtype=np.int64)
    gen(seed).shuffle(idx)
    return idx


# ------------------------------------------------------------------ README

def test_readme_example():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    sec = text.split("\n## Python", 1)
    assert len(sec) == 2, "README.md has no '## Python' section"
    m = re.search(r"```python\n(.*?)```", sec[1], re.S)
    assert m, "no python example in README's Python section"
    code = m.group(1)
    assert len(code.strip().splitlines()) <= 6
    exec(compile(code, "README.md", "exec"), {})


# ------------------------------------------------------------------ dtypes

DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", ">i4", ">f8",
          "float16", "float32", "float64", "longdouble", "complex64", "complex128",
          "bool", "datetime64[s]", "timedelta64[ms]", "U3", "S5", "V7",
          [("a", "i4"), ("b", "f8"), ("c", "S3")], "object"]


def distinct_array(dtype, n):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.arange(n) % 2 == 0
    if dt.kind == "O":
        return np.array([("o", i) for i in range(n)] + [None], dtype=object)[:n]
    if dt.kind == "V" and dt.names is None:
        raw = np.zeros((n, dt.itemsize), np.uint8)
        raw[:, 0] = np.arange(n)
        return raw.view(dt).reshape(n)
    if dt.names is not None:
        a = np.zeros(n, dt)
        a["a"] = np.arange(n)
        a["b"] = np.arange(n) * 0.5
        a["c"] = [str(i).encode() for i in range(n)]
        return a
    if dt.kind in "US":
        return np.array([str(i) for i in range(n)], dtype=dt)
    if dt.kind in "mM":
        return np.arange(n).astype(dt)
    return np.arange(n).astype(dt)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", [0, 1, 2, 100])
def test_shuffle_dtype(dtype, n):
    a = distinct_array(dtype, n)
    b = a.copy()
    gen().shuffle(b)
    expect = a[ref_perm(n)] if n else a
    assert b.dtype == a.dtype
    assert (b == expect).all() if n else b.shape == (0,)


@pytest.mark.parametrize("dtype", ["int8", "float16", "complex128", "int64", "object"])
def test_permutation_and_choice_dtype(dtype):
    a = distinct_array(dtype, 50)
    p = gen().permutation(a)
    assert (p == a[ref_perm(50)]).all() and (a == distinct_array(dtype, 50)).all()
    c = gen().choice(a, size=10, replace=False)
    idx = gen().choice(50, size=10, replace=False)
    assert (c == a[idx]).all()
    assert len(set(idx.tolist())) == 10


def test_object_refcounts():
    objs = [object() for _ in range(200)]
    before = [sys.getrefcount(o) for o in objs]
    a = np.array(objs + [None], dtype=object)[:200]
    for _ in range(50):
        gen().shuffle(a)
        fairshuf.Generator().shuffle(a)
    lst = list(objs)
    fairshuf.Generator().shuffle(lst)
    assert sorted(map(id, a)) == sorted(map(id, objs)) == sorted(map(id, lst))
    del a, lst
    gc.collect()
    assert [sys.getrefcount(o) for o in objs] == before


# ----------------------------------------------------------------- layouts

def rows_reference(a, axis, seed=SEED):
    rows = np.ascontiguousarray(np.moveaxis(a, axis, 0))
    gen(seed).shuffle(rows)
    return np.moveaxis(rows, 0, axis)


LAYOUTS = {
    "C": lambda: np.arange(60).reshape(6, 10),
    "F": lambda: np.asfortranarray(np.arange(60).reshape(6, 10)),
    "slice-rows": lambda: np.arange(120).reshape(12, 10)[::2],
    "slice-cols": lambda: np.arange(180).reshape(6, 30)[:, ::3],
    "negative": lambda: np.arange(60).reshape(6, 10)[::-1, ::-1],
    "transposed": lambda: np.arange(60).reshape(10, 6).T,
    "3d": lambda: np.arange(210, dtype=np.int16).reshape(5, 6, 7),
    "3d-F-slices": lambda: np.asfortranarray(np.arange(840.0).reshape(10, 12, 7))[::2, 1::2, ::-1],
    "1d-strided": lambda: np.arange(100)[::3],
    "1d-negative": lambda: np.arange(100)[::-1],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_shuffle_layouts(layout):
    base = LAYOUTS[layout]()
    for axis in range(-base.ndim, base.ndim):
        a = LAYOUTS[layout]()
        orig = a.copy()
        gen().shuffle(a, axis=axis)
        assert (a == rows_reference(orig, axis)).all(), (layout, axis)


@pytest.mark.parametrize("dtype", ["u1", "i2", "f4", "i8", "c16", "S3", "V12"])
@pytest.mark.parametrize("step", [2, -3])
def test_shuffle_1d_strided_row_sizes(dtype, step):
    """A 1-d view with a step, rows of every size the copy has its own loop
    for (1, 2, 4, 8, 16 bytes) and two it has not (3, 12): the order of the
    contiguous copy, and the elements between the rows untouched."""
    base = np.frombuffer(bytes(range(256)) * 48, dtype=dtype).copy()
    view = base[::step]
    gaps = np.ones(base.shape, dtype=bool)
    gaps[::step] = False
    others = base[gaps].tobytes()
    ref = view.copy()
    gen("rows").shuffle(view)
    gen("rows").shuffle(ref)
    assert view.tobytes() == ref.tobytes()  # bytes: the floats hold NaNs
    assert base[gaps].tobytes() == others


def test_shuffle_large_strided_matches_contiguous():
    """4 M int64 rows (32 MB, the scatter shuffle) seen through a stride:
    the same order as the contiguous copy."""
    big = np.arange(8_000_000, dtype=np.int64)
    view = big[::2]
    ref = view.copy()
    gen("big").shuffle(view)
    gen("big").shuffle(ref)
    assert (view == ref).all()
    assert (big[1::2] == np.arange(1, 8_000_000, 2)).all()


def test_shuffle_empty_and_zero_d():
    g = gen()
    for shape in [(0,), (0, 5), (5, 0), (1,), (1, 3)]:
        a = np.zeros(shape)
        g.shuffle(a)
        g.shuffle(a, axis=-1)
    with pytest.raises(ValueError):
        g.shuffle(np.array(5))


def test_shuffle_other_buffers():
    n = 40
    expect = ref_perm(n)
    b = bytearray(range(n))
    gen().shuffle(b)
    assert list(b) == expect.tolist()
    for code in "bBhHiIlLqQfd":
        arr = array.array(code, range(n))
        gen().shuffle(arr)
        assert list(map(int, arr)) == expect.tolist(), code
    m = memoryview(bytearray(range(n)))
    gen().shuffle(m)
    assert list(m) == expect.tolist()
    m2 = memoryview(bytearray(range(n * 3))).cast("B", (n, 3))
    gen().shuffle(m2)
    assert [m2[i, 0] // 3 for i in range(n)] == expect.tolist()
    lst = list(range(n))
    gen().shuffle(lst)
    assert lst == expect.tolist()
    assert gen().permutation(list(range(n))) == expect.tolist()


def test_threads_same_result():
    for n in (10, 100_000, 4_000_000):
        a = np.arange(n)
        gen("t").shuffle(a)
        for t in (0, 1, 2, 3):
            b = np.arange(n)
            gen("t").shuffle(b, threads=t)
            assert (a == b).all(), (n, t)


# ----------------------------------------------- agreement with the C library

@pytest.mark.parametrize("n,size", [(2, 8), (10, 8), (1000, 8), (1000, 24), (100_000, 8),
                                    (4_000_000, 8), (2_000_000, 16)])
def test_shuffle_matches_c(chelper, n, size):
    ref = run_lines([chelper, SEED, "shuffle", str(n), str(size)])
    if size == 8:
        a = np.arange(n, dtype=np.uint64)
        gen().shuffle(a)
        got = a
    else:
        a = np.zeros((n, size // 8), dtype=np.uint64)
        a[:, 0] = np.arange(n)
        gen().shuffle(a)
        got = a[:, 0]
        f = np.asfortranarray(np.zeros((n, size // 8), dtype=np.uint64))
        f[:, 0] = np.arange(n)
        gen().shuffle(f)  # gathered through a copy
        assert (f[:, 0] == np.array(ref, dtype=np.uint64)).all()
    assert got.tolist() == ref


def test_threaded_matches_c(chelper):
    n = 4_000_000
    ref = run_lines([chelper, SEED, "shuffle", str(n), "8", "2"])
    a = np.arange(n, dtype=np.uint64)
    gen().shuffle(a, threads=2)
    assert a.tolist() == ref


@pytest.mark.parametrize("n", [0, 1, 2, 57, 1000, 3_500_000])
def test_permutation_matches_c(chelper, n):
    p = gen().permutation(n)
    assert p.dtype == np.int64 and p.shape == (n,)
    assert p.tolist() == run_lines([chelper, SEED, "perm", str(n)])


@pytest.mark.parametrize("k,n", [(0, 5), (1, 1), (5, 5), (3, 10), (100, 10**6), (20_000, 100_000),
                                 (100_000, 10**7), (1000, 2**40), (1000, 2**64 - 1)])
def test_choice_matches_c(chelper, k, n):
    got = gen().choice(n, size=k, replace=False)
    ref = run_lines([chelper, SEED, "sample", str(k), "0", str(n - 1)])
    assert got.dtype == (np.int64 if n <= 2**63 else np.uint64)
    assert [int(x) for x in got] == ref


def test_integers_and_words_match_c(chelper):
    ref = run_lines([chelper, SEED, "uniform", "1000", "6"])
    assert gen().integers(0, 7, size=1000).tolist() == ref
    assert gen().integers(10, 17, size=1000).tolist() == [r + 10 for r in ref]
    assert gen().integers(-3, 4, size=1000).tolist() == [r - 3 for r in ref]
    assert gen().choice(7, size=1000, replace=True).tolist() == ref
    full = run_lines([chelper, SEED, "uniform", "10", str(2**64 - 1)])
    assert gen().integers(0, 2**64, size=10, dtype=np.uint64).tolist() == full
    assert gen().integers(-(2**63), 2**63, size=10).tolist() == [
        (x - 2**63) for x in full]
    words = run_lines([chelper, SEED, "words", "20"])
    assert gen().random_raw(20).tolist() == words
    assert gen().random_raw() == words[0]
    assert gen().bytes(16) == b"".join(w.to_bytes(8, "little") for w in words[:2])


@pytest.mark.parametrize("n", [1, 2, 10, 1000, 50_000])
def test_matches_command_seed(command, n):
    for seed, pyseed in (("42", 42), ("42", "42"), ("héllo", "héllo")):
        out = run_lines([command, "--seed=" + seed, "-i", "1-%d" % n])
        assert (fairshuf.Generator(seed=pyseed, simulation=True).permutation(n) + 1).tolist() == out


def test_deal_matches_command(command):
    out = subprocess.run([command, "deal", "--seed=42", "--players=3", "--cards=4",
                          "--burn=2", "--decks=2", "--jokers=1", "--format=json"],
                         check=True, stdout=subprocess.PIPE).stdout
    j = json.loads(out)
    g = fairshuf.Generator(seed=42, simulation=True)
    hands = g.deal(3, 4, burn=2, decks=2, jokers=1, notation="poker")
    assert hands == j["hands"]
    out = subprocess.run([command, "deal", "--seed=7", "-n", "5", "--format=json"],
                         check=True, stdout=subprocess.PIPE).stdout
    j = json.loads(out)
    got = fairshuf.Generator(seed=7, simulation=True).deal(cards=5, notation="poker")
    assert [got] == j["hands"]
    whole = fairshuf.Generator(seed=7, simulation=True).deal(notation="poker")
    assert whole == j["hands"][0] + j["rest"]


def test_fair_round_matches_command(command, tmp_path):
    seed = bytes(range(70))  # a 2-deck shoe needs 63 bytes
    (tmp_path / "s").write_text(seed.hex())
    out = subprocess.run([command, "deal", "--server-seed-file=%s" % (tmp_path / "s"),
                          "--client-seed=player one", "--nonce=9", "--decks=2",
                          "--format=json"], check=True, stdout=subprocess.PIPE).stdout
    j = json.loads(out)
    r = fairshuf.fair_round(seed, "player one", 9, decks=2, names=True, notation="poker")
    assert r.commitment == j["fair"]["commitment"]
    dealt = [c for h in j["hands"] for c in h] + j["rest"]
    assert r.order == dealt
    assert fairshuf.fair_verify(seed, r.commitment.upper(), r.order, "player one", 9, decks=2,
                                notation="poker")
    assert fairshuf.fair_verify(seed, r.commitment, fairshuf.fair_order(seed, "player one", 9,
                                                                        decks=2),
                                "player one", 9, decks=2)
    assert not fairshuf.fair_verify(seed, r.commitment, r.order, "player two", 9, decks=2,
                                    notation="poker")
    assert not fairshuf.fair_verify(seed[:-1] + b"x", r.commitment, r.order, "player one", 9,
                                    decks=2, notation="poker")
    # The seed as the command reveals it (hex text, from the seed file or
    # --reveal's JSON) is the same seed, in either case; it was taken as
    # its UTF-8 bytes, and the honest round did not verify.
    revealed = (tmp_path / "s").read_text()
    for text in (revealed, revealed.upper()):
        assert fairshuf.fair_verify(text, r.commitment, r.order, "player one", 9, decks=2,
                                    notation="poker")
        assert fairshuf.fair_round(text, "player one", 9, decks=2, names=True,
                                   notation="poker") == r
        assert fairshuf.fair_order(text, "player one", 9, decks=2) == \
            fairshuf.fair_order(seed, "player one", 9, decks=2)
    for bad in (revealed[:-1], revealed + " ", " " + revealed, revealed[:-2] + "zz",
                revealed[:-2] + "\u0661\u0662", "player one"):
        with pytest.raises(ValueError, match="hex digits"):
            fairshuf.fair_verify(bad, r.commitment, r.order, "player one", 9, decks=2)
        with pytest.raises(ValueError, match="hex digits"):
            fairshuf.fair_order(bad, decks=2)
    assert fairshuf.fair_seed_min() == 32 and fairshuf.fair_seed_min(decks=8) == 279  # the library: ceil(2229.6.../8)
    s = fairshuf.fair_server_seed(decks=8)
    assert len(s) == 279


def test_fair_verify_one_hand_or_the_rest_as_the_command(command, tmp_path):
    """hand=H checks hand H's cards alone (fairshuf verify --hand), and
    rest=True the cards after the burn cards and hands (--rest): the same
    verdict as the command on each case, honest or with a card changed, in
    both layouts; the whole hand or rest unless partial=True. fair_verify
    had neither keyword."""
    seed = bytes(range(40))
    c = fairshuf.fair_commit(seed)
    (tmp_path / "s").write_text(seed.hex())
    shape = ["--burn=1", "--players=3", "--cards=2"]
    for layout, cl in (("round_robin", "round-robin"), ("blocks", "blocks")):
        out = subprocess.run([command, "deal", "--server-seed-file=%s" % (tmp_path / "s"),
                              "--client-seed=me", "--nonce=4", "--layout=" + cl,
                              "--format=json"] + shape, check=True, stdout=subprocess.PIPE).stdout
        j = json.loads(out)
        kw = dict(notation="poker", burn=1, players=3, cards=2, layout=layout)
        cases = []
        for h, hand in enumerate(j["hands"], 1):
            other = ["As" if hand[0] != "As" else "Ks", hand[1]]
            cases += [(hand, dict(hand=h), True), (hand[:1], dict(hand=h, partial=True), True),
                      (other, dict(hand=h), False), (hand[::-1], dict(hand=h), False)]
        rest = j["rest"]
        changed = rest[:4] + [rest[5]]
        cases += [(rest, dict(rest=True), True), (rest[:5], dict(rest=True, partial=True), True),
                  (changed, dict(rest=True, partial=True), False), ([], dict(rest=True, partial=True), True)]
        for cards, extra, want in cases:
            got = fairshuf.fair_verify(seed, c, cards, "me", 4, **kw, **extra)
            opt = ["--hand=%d" % extra["hand"]] if "hand" in extra else ["--rest"]
            p = subprocess.run([command, "verify", "--server-seed=" + seed.hex(), "--commitment=" + c,
                                "--client-seed=me", "--nonce=4", "--layout=" + cl] + shape + opt +
                               ["--"] + cards, capture_output=True)
            assert got is want, (layout, cards, extra)
            assert p.returncode == (0 if got else 1) and p.stdout.startswith(
                b"VALID" if got else b"NOT VALID"), (layout, cards, extra, got, p)
        # The whole hand or rest unless partial; no more than it holds.
        hand2 = j["hands"][1]
        assert not fairshuf.fair_verify(seed, c, hand2[:1], "me", 4, hand=2, **kw)
        with pytest.raises(ValueError, match=r"^3 cards given, more than hand 2 holds \(2\)$"):
            fairshuf.fair_verify(seed, c, hand2 + [rest[0]], "me", 4, hand=2, partial=True, **kw)
        assert not fairshuf.fair_verify(seed, c, rest[:3], "me", 4, rest=True, **kw)
        assert not fairshuf.fair_verify(seed, "0" * 64, hand2, "me", 4, hand=2, **kw)
        codes = fairshuf.card_names(notation="poker")
        assert fairshuf.fair_verify(seed, c, [codes.index(x) for x in hand2], "me", 4, hand=2,
                                    burn=1, players=3, cards=2, layout=layout)
    # The rest after burn cards alone.
    order = fairshuf.fair_order(seed, "me", 4, names=True, notation="poker")
    assert fairshuf.fair_verify(seed, c, order[2:], "me", 4, notation="poker", burn=2, rest=True)
    assert fairshuf.fair_verify(seed, c, order[2:9], "me", 4, notation="poker", burn=2, rest=True,
                                partial=True)
    # What the command refuses raises.
    for kw, what in ((dict(players=3, cards=2, hand=0), "hand must be in 1..3"),
                     (dict(players=3, cards=2, hand=4), "hand must be in 1..3"),
                     (dict(burn=1, hand=1), "hand needs players"),
                     (dict(rest=True), "rest needs burn or players"),
                     (dict(players=3, cards=2, hand=1, rest=True), "cannot combine hand and rest")):
        with pytest.raises(ValueError, match=what):
            fairshuf.fair_verify(seed, c, order[:1], "me", 4, notation="poker", partial=True, **kw)
    with pytest.raises(TypeError, match="hand must be an int"):
        fairshuf.fair_verify(seed, c, order[:1], "me", 4, notation="poker", partial=True, players=3,
                             cards=2, hand="2")


def test_fair_verify_bad_input_raises_as_the_command_refuses(command):
    """Every input `fairshuf verify` calls bad (a message, exit status 1)
    is a ValueError from fair_verify, never False: the same check of the
    same case, and for the cards (too many for the shoe, the hand or the
    rest; a name that is no card; a card the shoe does not hold) the
    command's message. fair_verify said False for the cards, and for a
    seed too short when the commitment did not match it: a caller could
    not tell a forged deal from a wrong call. The honest call next to each
    case is True, and a forged deal (a card changed, the wrong
    commitment) still False, not an error."""
    seed = bytes(range(40))
    c = fairshuf.fair_commit(seed)
    order = fairshuf.fair_order(seed, "me", 4, names=True, notation="poker")
    short = bytes(31)
    R = ["--server-seed=" + seed.hex(), "--commitment=" + c, "--client-seed=me", "--nonce=4"]
    P = dict(burn=1, players=3, cards=2)
    p3 = ["--burn=1", "--players=3", "--cards=2"]
    hand2 = [order[2], order[5]]  # hand 2 of 3, round-robin, after one burn card
    cases = [  # (package call, command arguments, the command's message; None: the package's own)
        (dict(order=order + ["As"]), R + order + ["As"], "53 cards given, more than the shoe holds (52)"),
        (dict(order=order + ["As"], partial=True, **P), R + p3 + order + ["As"],
         "53 cards given, more than the shoe holds (52)"),
        (dict(order=hand2 + ["As"], hand=2, partial=True, **P), R + p3 + ["--hand=2"] + hand2 + ["As"],
         "3 cards given, more than hand 2 holds (2)"),
        (dict(order=hand2 + ["As"], hand=2, **P), R + p3 + ["--hand=2"] + hand2 + ["As"],
         "3 cards given, more than hand 2 holds (2)"),
        (dict(order=order[:4], burn=50, rest=True), R + ["--burn=50", "--rest"] + order[:4],
         "4 cards given, more than the rest holds (2)"),
        (dict(order=order[:1], burn=52, rest=True), R + ["--burn=52", "--rest"] + order[:1],
         "1 card given, more than the rest holds (0)"),
        (dict(order=order[:2] + ["Xs"], partial=True), R + order[:2] + ["Xs"], "unknown card: 'Xs'"),
        (dict(order=["it's"], partial=True), R + ["it's"], "unknown card: 'it\\'s'"),
        (dict(order=["1\u2660"], partial=True), R + ["1\u2660"], "unknown card: '1\\342\\231\\240'"),
        (dict(order=["RJ"], partial=True), R + ["RJ"], "card 'RJ' is not in this shoe (0 jokers per deck)"),
        (dict(order=["BJ"], partial=True, jokers=1), R + ["--jokers=1", "BJ"],
         "card 'BJ' is not in this shoe (1 joker per deck)"),
        (dict(order=[52], partial=True), None, "card 52 is not in this shoe (0 jokers per deck)"),
        (dict(order=[-1], partial=True), None, "card -1 is not in this shoe (0 jokers per deck)"),
        # a seed too short, whatever the commitment (the command checks it first)
        (dict(server_seed=short, commitment="0" * 64), ["--server-seed=" + short.hex(),
                                                        "--commitment=" + "0" * 64], None),
        (dict(server_seed=short), ["--server-seed=" + short.hex(), "--commitment=" + c], None),
        (dict(server_seed="0g" * 32), ["--server-seed=" + "0g" * 32, "--commitment=" + c], None),
        (dict(commitment=c + "0"), ["--server-seed=" + seed.hex(), "--commitment=" + c + "0"], None),
        (dict(commitment=" " + c[1:]), ["--server-seed=" + seed.hex(), "--commitment= " + c[1:]], None),
        (dict(client_seed="x" * 257), R + ["--client-seed=" + "x" * 257], None),
        (dict(nonce=2 ** 64), R + ["--nonce=18446744073709551616"], None),
        (dict(nonce=-1), R + ["--nonce=-1"], None),
        (dict(decks=0), R + ["--decks=0"], None),
        (dict(jokers=3), R + ["--jokers=3"], None),
        (dict(burn=53), R + ["--burn=53"], None),
        (dict(players=0, cards=1), R + ["--players=0", "--cards=1"], None),
        (dict(players=53, cards=1), R + ["--players=53", "--cards=1"], None),
        (dict(players=2), R + ["--players=2"], None),
        (dict(cards=2), R + ["--cards=2"], None),
        (dict(burn=1, players=3, cards=18), R + ["--burn=1", "--players=3", "--cards=18"], None),
        (dict(players=3, cards=2, layout="diagonal"), R + ["--players=3", "--cards=2", "--layout=diagonal"],
         None),
        (dict(players=3, cards=2, hand=0), R + ["--players=3", "--cards=2", "--hand=0"], None),
        (dict(players=3, cards=2, hand=4), R + ["--players=3", "--cards=2", "--hand=4"], None),
        (dict(burn=1, hand=1), R + ["--burn=1", "--hand=1"], None),
        (dict(rest=True), R + ["--rest"], None),
        (dict(players=3, cards=2, hand=1, rest=True), R + ["--players=3", "--cards=2", "--hand=1",
                                                           "--rest"], None),
    ]
    env = dict(os.environ, LC_ALL="C")
    for call, args, message in cases:
        kw = dict(dict(server_seed=seed, commitment=c, order=order[:1], client_seed="me", nonce=4,
                       partial=True, notation="poker"), **call)
        with pytest.raises(ValueError) as e:
            fairshuf.fair_verify(kw.pop("server_seed"), kw.pop("commitment"), kw.pop("order"), **kw)
        if message is not None:
            assert str(e.value) == message, (call, str(e.value))
        if args is not None:
            p = subprocess.run([command, "verify"] + args, capture_output=True, env=env)
            assert p.returncode == 1 and not p.stdout, (args, p)
            assert p.stderr.startswith(b"fairshuf verify: "), (args, p)
            if message is not None:
                assert p.stderr.decode().splitlines()[0] == "fairshuf verify: " + message, (args, p)
    # Next to them, the honest calls are True and forged deals False.
    other = order[:1] + [order[2], order[1]] + order[3:]
    assert fairshuf.fair_verify(seed, c, order, "me", 4)
    assert fairshuf.fair_verify(seed, c, [fairshuf.card_names(notation="poker").index(x) for x in order[:5]],
                                "me", 4, partial=True)  # face codes
    assert fairshuf.fair_verify(seed, c, hand2, "me", 4, hand=2, **P)
    assert fairshuf.fair_verify(seed, c, order[-2:], "me", 4, burn=50, rest=True)
    assert fairshuf.fair_verify(seed, c, fairshuf.fair_order(seed, "me", 4, names=True)[:3], "me", 4,
                                partial=True)  # the suit symbols, as the command takes them too
    assert fairshuf.fair_verify(seed, c, fairshuf.fair_order(seed, "me", 4)[:3], "me", 4, partial=True)
    assert fairshuf.fair_verify(seed, c, order[:3], "me", 4, partial=True)  # poker, notation unicode
    assert fairshuf.fair_verify(seed, c, order, "me", 4, notation="poker") is True
    assert fairshuf.fair_verify(seed, c, other, "me", 4, notation="poker") is False
    assert fairshuf.fair_verify(seed, "0" * 64, order, "me", 4, notation="poker") is False
    assert fairshuf.fair_verify(seed, c, order[:51], "me", 4, notation="poker") is False  # not the whole
    assert fairshuf.fair_verify(seed, c, [order[3], order[5]], "me", 4, hand=2, **P) is False
    with pytest.raises(ValueError, match="unknown card"):  # custom faces: their names only
        fairshuf.fair_verify(bytes(32), fairshuf.fair_commit(bytes(32)), ["As"], faces=["a", "b"],
                             partial=True)
    with pytest.raises(ValueError, match="^card 2 is not in this shoe"):
        fairshuf.fair_verify(bytes(32), fairshuf.fair_commit(bytes(32)), [2], faces=["a", "b"],
                             partial=True)


def test_fair_verify_partial_deal_as_the_command(command, tmp_path):
    """fair_verify takes the cards as `fairshuf verify` takes its CARDs:
    burn, players, cards and layout lay them out as deal prints them (burn
    cards, hand 1, hand 2, ..., the rest), and partial=True checks the first
    cards only (a player often has only the first hands, or the first k
    cards); the same verdict as the command on each case. fair_verify
    took the whole deal order only."""
    seed = bytes(range(40))
    c = fairshuf.fair_commit(seed)
    (tmp_path / "s").write_text(seed.hex())
    shape = ["--burn=1", "--players=3", "--cards=2"]
    for layout, cl in (("round_robin", "round-robin"), ("blocks", "blocks"), ("round-robin", "round-robin")):
        out = subprocess.run([command, "deal", "--server-seed-file=%s" % (tmp_path / "s"),
                              "--client-seed=me", "--nonce=4", "--jokers=1", "--layout=" + cl,
                              "--format=json"] + shape, check=True, stdout=subprocess.PIPE).stdout
        j = json.loads(out)
        laid = j["burn"] + [x for h in j["hands"] for x in h] + j["rest"]
        kw = dict(jokers=1, notation="poker", burn=1, players=3, cards=2, layout=layout)
        other = laid[:2] + ["As" if laid[2] != "As" else "Ks"] + laid[3:]
        cases = [(laid, {}), (laid[:3], dict(partial=True)), (laid[:7], dict(partial=True)),
                 ([], dict(partial=True)), (other, {}), (other[:3], dict(partial=True)),
                 (other[:2], dict(partial=True))]
        for cards, extra in cases:
            got = fairshuf.fair_verify(seed, c, cards, "me", 4, **kw, **extra)
            p = subprocess.run([command, "verify", "--server-seed=" + seed.hex(), "--commitment=" + c,
                                "--client-seed=me", "--nonce=4", "--jokers=1", "--layout=" + cl] +
                               shape + ["--"] + cards, capture_output=True)
            assert p.returncode == (0 if got else 1) and p.stdout.startswith(
                b"VALID" if got else b"NOT VALID"), (layout, cards, extra, got, p)
        assert fairshuf.fair_verify(seed, c, laid, "me", 4, **kw)
        assert not fairshuf.fair_verify(seed, c, laid[:3], "me", 4, **kw)  # not the whole shoe
        with pytest.raises(ValueError, match=r"^54 cards given, more than the shoe holds \(53\)$"):
            fairshuf.fair_verify(seed, c, laid + ["As"], "me", 4, partial=True, **kw)
        assert not fairshuf.fair_verify(seed, "0" * 64, laid[:3], "me", 4, partial=True, **kw)
        codes = fairshuf.card_names(jokers=1, notation="poker")
        assert fairshuf.fair_verify(seed, c, [codes.index(x) for x in laid[:5]], "me", 4, partial=True,
                                    jokers=1, burn=1, players=3, cards=2, layout=layout)
    # Round-robin hands are not in deal order; blocks are.
    order = fairshuf.fair_order(seed, "me", 4, jokers=1, names=True, notation="poker")
    assert fairshuf.fair_verify(seed, c, order, "me", 4, jokers=1, notation="poker")
    assert fairshuf.fair_verify(seed, c, order, "me", 4, jokers=1, notation="poker", burn=1,
                                players=3, cards=2, layout="blocks")
    assert not fairshuf.fair_verify(seed, c, order, "me", 4, jokers=1, notation="poker", burn=1,
                                    players=3, cards=2)
    assert fairshuf.fair_verify(seed, c, order[:9], "me", 4, jokers=1, notation="poker", burn=9,
                                partial=True)
    # What the command refuses raises.
    for kw, what in ((dict(burn=54), "burn"), (dict(burn=-1), "burn"), (dict(players=0, cards=1), "players"),
                     (dict(players=2), "needs cards"), (dict(cards=2), "needs players"),
                     (dict(burn=1, players=54, cards=1), "players"),
                     (dict(burn=1, players=2, cards=27), "more cards than the shoe"),
                     (dict(players=2, cards=2, layout="diagonal"), "layout")):
        with pytest.raises(ValueError, match=what):
            fairshuf.fair_verify(seed, c, order, "me", 4, jokers=1, notation="poker", **kw)
    with pytest.raises(TypeError):
        fairshuf.fair_verify(seed, c, order, "me", 4, jokers=1, notation="poker", players=True, cards=2)


def test_fair_verify_reads_commitments_as_the_command(command):
    """fair_verify accepts exactly the commitments `fairshuf verify` accepts:
    64 hex digits of either case and nothing else. A blank around or inside
    (ASCII or Unicode: str.strip took an em space, a no-break space, a NEL)
    is a malformed commitment there, so a ValueError here; the right
    digits in any case verify."""
    seed = bytes(range(32))
    order = fairshuf.fair_order(seed)
    c = fairshuf.fair_commit(seed)
    cases = [c, c.upper(), c[:32].upper() + c[32:], c[:-1], c + "0", "", " " + c, c + " ",
             "\t" + c, c + "\n", c + "\r\n", c[:32] + " " + c[32:], c[:-1] + "\uff10"]
    for u in ("\u2003", "\u00a0", "\u0085", "\u3000", "\u1680", "\u2028", "\ufeff", "\x1c", "\x1f"):
        cases += [u + c, c + u, c[:32] + u + c[32:]]
    for x in cases:
        rc = subprocess.run([command, "verify", "--server-seed=" + seed.hex(), "--commitment=" + x,
                             "--print-order"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE).returncode
        assert rc in (0, 1), (x, rc)
        if rc == 0:
            assert fairshuf.fair_verify(seed, x, order), repr(x)
        else:
            with pytest.raises(ValueError, match="malformed commitment"):
                fairshuf.fair_verify(seed, x, order)
    # a well-formed commitment of another seed is no error: False
    assert not fairshuf.fair_verify(seed, "0" * 64, order)
    with pytest.raises(TypeError):
        fairshuf.fair_verify(seed, c.encode(), order)


# -------------------------------------------------------------- uniformity
# -------------------------------------------------------------- uniformity

def enumerate_shuffles(n, shuffle):
    """Every draw sequence of a [1, k] source for a shuffle of n (k = n,
    n-1, ..., 2): the multiset of resulting orders."""
    counts = {}
    for seq in itertools.product(*[range(1, k + 1) for k in range(n, 1, -1)]):
        order = tuple(shuffle(list(seq), n))
        counts[order] = counts.get(order, 0) + 1
    return counts


def ours(seq, n):
    g = fairshuf.Generator._from_randint(seq)
    x = np.arange(n)
    g.shuffle(x)
    assert g._asked() == list(range(n, 1, -1))
    return x.tolist()


def uniform_counts(counts, total):
    return len(counts) == total and len(set(counts.values())) == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_enumeration_shuffle(n):
    counts = enumerate_shuffles(n, ours)
    assert uniform_counts(counts, math.factorial(n))
    assert sorted(counts) == sorted(itertools.permutations(range(n)))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_enumeration_naive_is_caught(n):
    counts = {}
    for seq in itertools.product(range(n), repeat=n):
        x = list(range(n))
        for i in range(n):
            x[i], x[seq[i]] = x[seq[i]], x[i]
        counts[tuple(x)] = counts.get(tuple(x), 0) + 1
    assert not uniform_counts(counts, math.factorial(n))


@pytest.mark.parametrize("k,n", [(1, 5), (2, 5), (3, 6), (4, 4)])
def test_enumeration_choice(k, n):
    counts = {}
    ks = [n - i for i in range(k)]
    for seq in itertools.product(*[range(1, m + 1) for m in ks]):
        g = fairshuf.Generator._from_randint(list(seq))
        got = tuple(g.choice(n, size=k, replace=False).tolist())
        assert [a for a in g._asked() if a > 1] == [m for m in ks if m > 1]
        counts[got] = counts.get(got, 0) + 1
    assert uniform_counts(counts, math.perm(n, k))


def test_enumeration_integers_and_deal():
    for lo, hi in [(0, 7), (-3, 2), (5, 6)]:
        got = []
        for r in range(1, hi - lo + 1):
            g = fairshuf.Generator._from_randint([r])
            got.append(g.integers(lo, hi))
            assert g._asked() in ([hi - lo], [])
        assert sorted(got) == list(range(lo, hi))
    faces = ["a", "b", "c", "d"]
    counts = {}
    for seq in itertools.product(*[range(1, k + 1) for k in range(4, 1, -1)]):
        g = fairshuf.Generator._from_randint(list(seq))
        order = tuple(g.deal(faces=faces))
        assert [k for k in g._asked() if k > 1] == [4, 3, 2]
        counts[order] = counts.get(order, 0) + 1
    assert uniform_counts(counts, 24)


def chi2_threshold(df, z=4.753424):
    """Upper quantile of chi-square(df) at alpha = 1e-6 (z = the normal
    1e-6 upper quantile), Wilson-Hilferty; within 1 % for df >= 5."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def test_chi2_shuffle_and_known_bad():
    n, per = 5, 200
    trials = math.factorial(n) * per
    perms = {p: i for i, p in enumerate(itertools.permutations(range(n)))}
    g = gen("chi2-shuffle")
    counts = [0] * len(perms)
    a = np.arange(n)
    for _ in range(trials):
        g.shuffle(a)  # the permutation of a permutation is uniform too
        counts[perms[tuple(a.tolist())]] += 1
    assert chi2(counts, per) < chi2_threshold(len(perms) - 1)
    # known bad: the naive shuffle driven by the same generator's integers
    counts = [0] * len(perms)
    draws = g.integers(0, n, size=(trials, n))
    for row in draws:
        x = list(range(n))
        for i in range(n):
            x[i], x[row[i]] = x[row[i]], x[i]
        counts[perms[tuple(x)]] += 1
    assert chi2(counts, per) > chi2_threshold(len(perms) - 1)


def test_chi2_integers_choice_and_known_bad():
    g = gen("chi2-int")
    v = g.integers(0, 7, size=700_000)
    c = np.bincount(v, minlength=7)
    assert chi2(c, 100_000) < chi2_threshold(6)
    bad = np.frombuffer(g.bytes(700_000), np.uint8) % 7  # modulo bias: known bad
    assert chi2(np.bincount(bad, minlength=7), 100_000) > chi2_threshold(6)
    # choice: the first of 3 of 10, and positions of a value
    firsts = np.array([g.choice(10, 3, replace=False)[0] for _ in range(20_000)])
    assert chi2(np.bincount(firsts, minlength=10), 2_000) < chi2_threshold(9)
    a = np.arange(1000)
    pos = []
    for _ in range(5_000):
        g.shuffle(a)
        pos.append(int(np.nonzero(a == 0)[0][0]) // 100)
    assert chi2(np.bincount(pos, minlength=10), 500) < chi2_threshold(9)


# ---------------------------------------------------------------- bad input

def test_bad_inputs():
    g = fairshuf.Generator()
    with pytest.raises(TypeError):
        g.shuffle(5)
    with pytest.raises(TypeError):
        g.shuffle("abc")
    with pytest.raises(TypeError):
        g.shuffle((1, 2, 3))
    with pytest.raises(ValueError):
        g.shuffle(b"abc")
    ro = np.arange(10)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        g.shuffle(ro)
    with pytest.raises(ValueError):
        g.shuffle(memoryview(b"abcd"))
    a = np.arange(10)
    for axis in (1, -2, 99):
        with pytest.raises(ValueError):
            g.shuffle(a, axis=axis)
    with pytest.raises(ValueError):
        g.shuffle([1, 2], axis=1)
    with pytest.raises(TypeError):
        g.shuffle(a, axis="0")
    with pytest.raises(ValueError):
        g.shuffle(a, threads=-1)
    with pytest.raises(ValueError):
        g.permutation(-1)
    with pytest.raises(TypeError):
        g.permutation(True)
    with pytest.raises(ValueError):
        g.permutation(np.array(3.5))
    with pytest.raises(ValueError):
        g.choice(5, 6, replace=False)
    with pytest.raises(ValueError):
        g.choice(-1)
    with pytest.raises(ValueError):
        g.choice(5, size=-1)
    with pytest.raises(ValueError):
        g.choice([], 1)
    with pytest.raises(TypeError):
        g.choice(5, size="3")
    with pytest.raises(NotImplementedError):
        g.choice(5, p=[0.2] * 5)
    with pytest.raises(ValueError):
        g.integers(5, 5)
    with pytest.raises(ValueError):
        g.integers(0)
    with pytest.raises(ValueError):
        g.integers(0, 2**64 + 1, dtype=np.uint64)
    with pytest.raises(ValueError):
        g.integers(-1, 2**64 - 1, dtype=np.uint64)
    with pytest.raises(ValueError):
        g.integers(0, 300, dtype=np.int8)
    with pytest.raises(TypeError):
        g.integers(0, 3, dtype=np.float64)
    with pytest.raises(TypeError):
        g.integers("a")
    with pytest.raises(TypeError):
        g.integers(1.5)
    with pytest.raises(ValueError):
        g.integers(0, 5, size=(2, -1))
    with pytest.raises(ValueError):
        g.bytes(-1)
    for seed in (1.5, [1], object()):
        with pytest.raises(TypeError):
            fairshuf.Generator(seed=seed)
    with pytest.raises(TypeError):
        fairshuf.Generator(seed=True)
    with pytest.raises(ValueError):
        fairshuf.Generator(seed=-1)
    with pytest.raises(ValueError):
        fairshuf.Generator(generator="md5")
    with pytest.raises(ValueError):
        fairshuf.Generator(reach=8)
    with pytest.raises(TypeError):
        fairshuf.Generator(42, True)  # simulation is keyword-only


def test_reachability_messages_name_the_cause():
    """ReachabilityError says which of FSH_EENTROPY's two causes it met
    (fsh_strerror names both, "seed too short, or beyond the hardware
    entropy cap"): an OS-keyed generator has no seed, so its refusal
    under a strict reach policy names the cap or the policy and never a
    seed; a seeded generator's names its seed's bits and not the cap."""
    strict = fairshuf.Generator(reach=fairshuf.REACH_FULL)
    for call in (lambda: strict.shuffle(np.arange(6000)),
                 lambda: strict.shuffle(list(range(6000))),
                 lambda: strict.shuffle(np.zeros((6000, 3)), axis=0),
                 lambda: strict.permutation(6000),
                 lambda: strict.choice(10**6, 10**4, replace=False)):
        with pytest.raises(fairshuf.ReachabilityError) as e:
            call()
        msg = str(e.value)
        assert "seed" not in msg, msg
        assert "beyond the hardware entropy cap (65536 bits a call" in msg, msg
        assert "REACH_KEY" in msg, msg
    if fairshuf.hw_entropy_available():
        assert "shuffles of up to 5808 items" in msg, msg
    # no REACH_FULL and no REACH_KEY: refused beyond the key, the policy named
    with pytest.raises(fairshuf.ReachabilityError) as e:
        fairshuf.Generator(reach=0).shuffle(np.arange(100))
    msg = str(e.value)
    assert "seed" not in msg and "cap" not in msg, msg
    assert "beyond the 256-bit key" in msg and "REACH_FULL" in msg and "REACH_KEY" in msg, msg
    # seeded: the seed's bits, and no hardware
    for g, call, bits, most in ((fairshuf.Generator(seed=42), lambda g: g.shuffle(np.arange(9)), 16, 8),
                                (fairshuf.Generator(seed=bytes(32)), lambda g: g.deal(decks=2), 256, 57),
                                (fairshuf.Generator(seed=bytes(32)), lambda g: g.permutation(58), 256, 57)):
        with pytest.raises(fairshuf.ReachabilityError) as e:
            call(g)
        msg = str(e.value)
        assert "seed too short" in msg and "%d bits credited" % bits in msg, msg
        assert "shuffles of up to %d items" % most in msg and "hardware" not in msg, msg


def test_memory_error():
    try:
        with open("/proc/sys/vm/overcommit_memory") as f:
            mode = f.read().strip()
    except OSError:
        mode = "?"
    if mode != "0" and mode != "2":
        pytest.skip("overcommit mode %s would grant 8 TiB" % mode)
    with pytest.raises(MemoryError):
        fairshuf.Generator().permutation(2**40)
    with pytest.raises(MemoryError):
        fairshuf.Generator().choice(2**50, 2**40, replace=False)


def test_reachability_errors():
    assert issubclass(fairshuf.ReachabilityError, ValueError)
    g = fairshuf.Generator(seed=42)  # 2 bytes: 16 bits, 8! < 2**16 < 9!
    x = np.arange(9)
    with pytest.raises(fairshuf.ReachabilityError, match="seed too short"):
        g.shuffle(x)
    # An OS-keyed generator under strict REACH_FULL beyond its hardware cap
    # (5,808 items by default) is refused with the same status; the message
    # names the cap, not a seed (it has none: see the next test).
    if fairshuf.hw_entropy_available():
        s = fairshuf.Generator(reach=fairshuf.REACH_FULL)
        with pytest.raises(fairshuf.ReachabilityError,
                           match="beyond the hardware entropy cap"):
            s.shuffle(np.arange(6000))
    assert x.tolist() == list(range(9))
    g.shuffle(x[:8])
    with pytest.raises(fairshuf.ReachabilityError):
        g.permutation(9)
    with pytest.raises(fairshuf.ReachabilityError):
        g.choice(10**6, 5, replace=False)
    g.integers(0, 10**18)  # single integers are never refused
    s32 = fairshuf.Generator(seed=bytes(32))
    s32.shuffle(np.arange(57))
    with pytest.raises(fairshuf.ReachabilityError):
        s32.shuffle(np.arange(58))
    s32.deal(jokers=2)  # 54 cards: log2 54! = 237.9 bits fit in 256
    with pytest.raises(fairshuf.ReachabilityError):
        s32.deal(decks=2)  # 104 cards, 2 copies: about 500 bits
    fairshuf.Generator(seed=bytes(32), simulation=True).shuffle(np.arange(58))
    fairshuf.Generator(seed=42, generator="xoshiro256++").shuffle(np.arange(100))
    strict = fairshuf.Generator(reach=fairshuf.REACH_FULL)
    big = np.arange(10_000)
    with pytest.raises(fairshuf.ReachabilityError):
        strict.shuffle(big)
    fairshuf.Generator().shuffle(big)  # default: never fails for entropy


def test_callback_errors():
    g = fairshuf.Generator._from_randint([1, 1])
    with pytest.raises(ValueError, match="callback"):
        g.shuffle(np.arange(5))
    g = fairshuf.Generator._from_randint([9])
    with pytest.raises(ValueError):
        g.shuffle(np.arange(3))


def test_deal_and_cards():
    g = fairshuf.Generator()
    hands = g.deal(4, 13)
    flat = [c for h in hands for c in h]
    assert sorted(flat) == sorted(fairshuf.card_names())
    assert len(set(g.deal(names=False))) == 52
    assert len(g.deal(decks=8, jokers=2, names=False)) == 8 * 54
    assert g.deal(2, layout="blocks", burn=2, notation="poker")[0][0][-1] in "cdhs"
    assert sorted(g.deal(faces=["x", "y"], decks=3)) == ["x"] * 3 + ["y"] * 3
    with pytest.raises(ValueError):
        g.deal(53, 1)
    with pytest.raises(ValueError):
        g.deal(jokers=3)
    with pytest.raises(ValueError):
        g.deal(decks=0)
    with pytest.raises(ValueError):
        g.deal(2, 5, burn=50)
    with pytest.raises(ValueError):
        g.deal(layout="spiral")
    with pytest.raises(ValueError):
        g.deal(faces=["a", "a"])
    with pytest.raises(TypeError):
        g.deal(faces=[1, 2])
    with pytest.raises(ValueError):
        fairshuf.card_names(notation="morse")


def test_deal_counts_past_the_shoe_say_what_is_wrong_as_the_command(command):
    """A burn, card or player count the shoe cannot give names the bad
    value and the shoe's limit, as fairshuf deal does ("invalid burn
    count: '53' (0 to 52)"); burn=53 said "nothing left to deal or draw"
    and too many cards "more cards asked for than the shoe holds". The
    command refuses the same calls; the limits themselves are dealt."""
    g = fairshuf.Generator(seed=b"deal-counts" * 3)
    cases = [  # (deal's arguments, the command's options, what the message says)
        (dict(burn=53), ["--burn=53"], "burn must be in 0..52 (the shoe's cards), not 53"),
        (dict(burn=109, decks=2, jokers=1), ["--burn=109", "--decks=2", "--jokers=1"],
         "burn must be in 0..106 (the shoe's cards), not 109"),
        (dict(cards=53), ["-n", "53"], "cards must be in 0..52 (the cards left after 0 burned), not 53"),
        (dict(cards=3, burn=50), ["-n", "3", "--burn=50"],
         "cards must be in 0..2 (the cards left after 50 burned), not 3"),
        (dict(players=53), ["--players=53"], "players must be in 1..52 (the shoe's cards), not 53"),
        (dict(players=53, cards=1), ["--players=53", "--cards=1"],
         "players must be in 1..52 (the shoe's cards), not 53"),
        (dict(players=1, cards=53), ["--players=1", "--cards=53"],
         "cards must be in 0..52 (the shoe's cards), not 53"),
        (dict(players=27, cards=2), ["--players=27", "--cards=2"],
         "27 hands of 2 cards need 54 cards; the shoe holds 52"),
        (dict(players=2, cards=2, burn=50), ["--players=2", "--cards=2", "--burn=50"],
         "2 hands of 2 cards and the burn need 54 cards; the shoe holds 52"),
        (dict(players=1, cards=52, burn=1), ["--players=1", "--cards=52", "--burn=1"],
         "1 hand of 52 cards and the burn need 53 cards; the shoe holds 52"),
        (dict(players=2, cards=1, burn=51), ["--players=2", "--cards=1", "--burn=51"],
         "2 hands of 1 card and the burn need 53 cards; the shoe holds 52"),
        (dict(players=3, cards=1, burn=50, faces=list("AKQ"), decks=17), None,
         "3 hands of 1 card and the burn need 53 cards; the shoe holds 51"),
    ]
    for kw, opts, says in cases:
        with pytest.raises(ValueError) as e:
            g.deal(**kw)
        assert str(e.value) == says
        if opts is not None:
            p = subprocess.run([command, "deal", "--seed=1"] + opts, capture_output=True)
            assert p.returncode == 1 and not p.stdout, (opts, p)
    # the limits are dealt
    assert g.deal(burn=52) == []
    assert len(g.deal(cards=2, burn=50)) == 2
    assert len(g.deal(52, 1)) == 52
    assert len(g.deal(1, 51, burn=1)[0]) == 51


def test_deal_checks_memory_before_it_allocates(tmp_path, monkeypatch):
    """deal refuses a shoe the system cannot hold with MemoryError before
    anything is allocated, as fairshuf deal does ("memory exhausted"): the
    deck (8 bytes a card of the shoe), the cards dealt (4) and the lists
    returned (8 a card each: the face codes, the names, the hands) against
    MemAvailable + SwapFree and the room under the cgroup's memory limits.
    Read here from a fake /proc (fairshuf._PROC), as test_deal.sh's shim
    fakes them for the command; nothing is ever allocated to find out."""
    g = fairshuf.Generator(seed=b"deal-memory" * 3, simulation=True)
    fake = tmp_path / "proc"
    (fake / "self").mkdir(parents=True)
    monkeypatch.setattr(fairshuf, "_PROC", str(fake))

    def meminfo(avail_kb, swap_kb):
        (fake / "meminfo").write_text("MemTotal: 1000000 kB\nMemAvailable: %d kB\n"
                                      "SwapTotal: 4000 kB\nSwapFree: %d kB\n" % (avail_kb, swap_kb))
    # 2,000 decks: 104,000 cards; names=False, one list: 20 bytes a card,
    # 2,080,000 bytes; with the names, 28 (2,912,000); in 4 hands, 36.
    for avail, swap, kw, dealt in (
            (2000, 0, dict(names=False), False),          # 2,048,000 bytes
            (2000, 100, dict(names=False), True),         # 2,150,400
            (2000, 100, dict(), False),
            (2900, 0, dict(), True),                      # 2,969,600
            (2900, 0, dict(players=4), False),
            (2000, 0, dict(names=False, cards=5), True)):  # 832,000 + 60
        meminfo(avail, swap)
        if dealt:
            g.deal(decks=2000, **kw)
        else:
            with pytest.raises(MemoryError, match="memory exhausted"):
                g.deal(decks=2000, **kw)
    # A deal of at most 1 MiB is not checked (reading /proc would cost
    # more than it): dealt whatever meminfo says.
    meminfo(0, 0)
    assert len(g.deal(4, 13)) == 4 and len(g.deal(decks=1000, names=False)) == 52000
    # The cgroup's room: its limit less what it holds less its inactive
    # page cache, the least over it and its ancestors (v2 and v1).
    meminfo(100000, 0)
    cg2 = tmp_path / "cg2"
    (cg2 / "a" / "b").mkdir(parents=True)
    (fake / "self" / "cgroup").write_text("0::/a/b\n")
    (fake / "self" / "mountinfo").write_text("30 20 0:26 / %s rw - cgroup2 cgroup2 rw\n" % cg2)
    (cg2 / "a" / "b" / "memory.max").write_text("max\n")

    def cg(what):
        with pytest.raises(MemoryError, match="memory exhausted"):
            g.deal(decks=2000, names=False)               # 2,080,000 bytes
        g.deal(decks=1900, names=False)                   # 1,976,000
    (cg2 / "a" / "memory.max").write_text("2000000\n")
    cg("v2 parent memory.max 2,000,000")
    (cg2 / "a" / "memory.max").write_text("3000000\n")
    (cg2 / "a" / "memory.current").write_text("1100000\n")
    (cg2 / "a" / "memory.stat").write_text("anon 1000000\ninactive_file 100000\n")
    cg("v2 parent memory.max 3,000,000 holding 1,000,000 besides its inactive cache")
    cg1 = tmp_path / "cg1"
    (cg1 / "x" / "y").mkdir(parents=True)
    (fake / "self" / "cgroup").write_text("5:cpu:/x\n4:memory:/x/y\n0::/\n")
    (fake / "self" / "mountinfo").write_text("32 20 0:28 / %s rw - cgroup cgroup rw,memory\n" % cg1)
    (cg1 / "x" / "y" / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    (cg1 / "x" / "memory.limit_in_bytes").write_text("3000000\n")
    (cg1 / "x" / "memory.usage_in_bytes").write_text("1100000\n")
    (cg1 / "x" / "memory.stat").write_text("total_inactive_file 100000\n")
    cg("v1 parent limit 3,000,000 holding 1,000,000 besides its inactive cache")
    # No /proc to read: no check (the allocations alone can fail).
    monkeypatch.setattr(fairshuf, "_PROC", str(tmp_path / "none"))
    assert len(g.deal(decks=2000, names=False)) == 104000
    # The real /proc: the largest shoe, 2**32 - 1 cards at most, needs about
    # 120 GB for the whole of it; refused at once where that is not there.
    monkeypatch.setattr(fairshuf, "_PROC", "/proc")
    d = (2 ** 32 - 1) // 52
    need = 8 * 52 * d + 28 * 52 * d
    with open("/proc/meminfo") as f:
        kb = dict((l.split(":")[0], int(l.split()[1])) for l in f if l.split()[1:2])
    if (kb.get("MemAvailable", 0) + kb.get("SwapFree", 0)) * 1024 < need:
        with pytest.raises(MemoryError, match="memory exhausted"):
            g.deal(decks=d)


def _fake_meminfo(tmp_path, monkeypatch):
    """A fake /proc for the package's memory checks (fairshuf._PROC):
    returns meminfo(avail_kb), which writes MemAvailable (no swap)."""
    fake = tmp_path / "proc"
    (fake / "self").mkdir(parents=True)
    monkeypatch.setattr(fairshuf, "_PROC", str(fake))

    def meminfo(avail_kb):
        (fake / "meminfo").write_text("MemTotal: 1000000 kB\nMemAvailable: %d kB\n"
                                      "SwapFree: 0 kB\n" % avail_kb)
    return meminfo


def test_fair_rounds_check_memory_before_they_allocate(tmp_path, monkeypatch):
    """fair_order, fair_round and fair_verify refuse a set the system cannot
    hold with MemoryError ("memory exhausted", as deal and fairshuf deal
    say it) before anything is allocated: 12 bytes a card (the library's
    cells and the order's list), 16 with names, 32 more a card whose face
    code is above 256, and 16 a card given to fair_verify. One face of
    2**32 - 1 copies needs only a 32-byte seed and about 51 GB: it was
    allocated (17 GB filled, for minutes) before a MemoryError or the
    kernel's kill. Read from a fake /proc, as the deal test does."""
    meminfo = _fake_meminfo(tmp_path, monkeypatch)
    seed = bytes(range(32))
    one = ["x"]
    # 10**6 cards of one face: 12,000,000 bytes; 16,000,000 with names
    for avail, call, fits in (
            (11700, lambda: fairshuf.fair_order(seed, faces=one, decks=10 ** 6), False),
            (11800, lambda: fairshuf.fair_order(seed, faces=one, decks=10 ** 6), True),
            (11800, lambda: fairshuf.fair_order(seed, faces=one, decks=10 ** 6, names=True), False),
            (15700, lambda: fairshuf.fair_order(seed, faces=one, decks=10 ** 6, names=True), True),
            (11700, lambda: fairshuf.fair_round(seed, faces=one, decks=10 ** 6), False),
            # fair_verify: 16 bytes a card given besides the order
            (11800, lambda: fairshuf.fair_verify(seed, "0" * 64, [0] * 10 ** 5, faces=one,
                                                 decks=10 ** 6, partial=True), False),
            (13400, lambda: fairshuf.fair_verify(seed, "0" * 64, [0] * 10 ** 5, faces=one,
                                                 decks=10 ** 6, partial=True), True)):
        meminfo(avail)
        if fits:
            call()
        else:
            with pytest.raises(MemoryError, match="memory exhausted"):
                call()
    # The face codes above 256 are ints of their own: 300 faces x 4000
    # copies (1,200,000 cards) need 14,400,000 + 32 * 4000 * 43 bytes.
    faces = ["f%d" % k for k in range(300)]
    seed = bytes(fairshuf.fair_seed_min(decks=4000, faces=faces))
    meminfo((14400000 + 32 * 4000 * 43) // 1024 - 1)
    with pytest.raises(MemoryError, match="memory exhausted"):
        fairshuf.fair_order(seed, faces=faces, decks=4000)
    meminfo((14400000 + 32 * 4000 * 43) // 1024 + 1)
    assert len(fairshuf.fair_order(seed, faces=faces, decks=4000)) == 1200000


def test_fair_server_seed_checks_memory_before_it_allocates(tmp_path, monkeypatch):
    """fair_server_seed refuses a seed the system cannot hold with
    MemoryError before allocating it (it allocated fair_seed_min bytes and
    filled them from the OS: gigabytes for billions of cards of many
    faces, which the kernel's overcommit grants and then kills for). Read
    from a fake /proc, as the deal test does."""
    meminfo = _fake_meminfo(tmp_path, monkeypatch)
    least = fairshuf.fair_seed_min(decks=40000)  # 2,080,000 cards: about 1.5 MB
    assert least > 1 << 20
    meminfo(least // 1024 - 1)
    with pytest.raises(MemoryError, match="memory exhausted"):
        fairshuf.fair_server_seed(decks=40000)
    meminfo(least // 1024 + 1)
    assert len(fairshuf.fair_server_seed(decks=40000)) == least


def test_fair_verify_looks_names_up_in_a_table():
    """fair_verify of a round of many named faces takes time linear in the
    cards: each name was looked up with list.index, O(faces) a card (40,000
    named faces: about 8e8 comparisons, tens of seconds; 100,000: minutes)."""
    import time
    faces = ["c%05d" % k for k in range(40000)]
    seed = bytes(fairshuf.fair_seed_min(faces=faces))
    r = fairshuf.fair_round(seed, "me", 1, faces=faces, names=True)
    order = ["".join(list(x)) for x in r.order]  # new str objects: no identity shortcut
    t = time.monotonic()
    assert fairshuf.fair_verify(seed, r.commitment, order, "me", 1, faces=faces)
    assert time.monotonic() - t < 5, time.monotonic() - t
    order[-1] = "nope"
    with pytest.raises(ValueError, match="unknown card: 'nope'"):
        fairshuf.fair_verify(seed, r.commitment, order, "me", 1, faces=faces)


def test_fair_bad_inputs():
    with pytest.raises(ValueError):
        fairshuf.fair_order(bytes(31))
    # A set whose steps need more than 2^32 groups (group numbers are 32
    # bits): refused by the library before the n cells are allocated
    # (2^35 cards: 128 GiB, which gave MemoryError).
    with pytest.raises(ValueError, match="invalid argument"):
        fairshuf._fairshuf.fair_seed_min(2 ** 32, 8)
    with pytest.raises(ValueError, match="invalid argument"):
        fairshuf._fairshuf.fair_order(2 ** 32, 8, bytes(32), b"", 0)
    with pytest.raises(ValueError):
        fairshuf.fair_order(bytes(32), decks=8)
    with pytest.raises(ValueError):
        fairshuf.fair_order(bytes(32), b"x" * 257)
    with pytest.raises(ValueError):
        fairshuf.fair_order(bytes(32), nonce=-1)
    with pytest.raises(TypeError):
        fairshuf.fair_order(42)
    with pytest.raises(ValueError, match="hex digits"):
        fairshuf.fair_commit("abc")  # a str is hex, as fair_order takes it
    assert fairshuf.fair_commit(b"") == fairshuf.fair_commit("") == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")


# ------------------------------------------------------- leaks, GIL, threads

def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_no_leaks():
    g = fairshuf.Generator()
    s = gen()
    a = np.arange(64)
    lst = list(range(16))
    ro = np.arange(4)
    ro.flags.writeable = False

    def body(i):
        g.shuffle(a)
        g.shuffle(a[::-3])
        g.shuffle(lst)
        g.permutation(8)
        g.choice(100, 3, replace=False)
        g.integers(0, 10, size=4)
        s.random_raw(2)
        p = g.range_permutation(10**9)
        p.next_n(3)
        next(p)
        if i % 8 == 0:
            try:
                g.shuffle(ro)
            except ValueError:
                pass
            try:
                fairshuf.Generator(seed=1).shuffle(a)
            except fairshuf.ReachabilityError:
                pass
            g.deal(2, 2)

    for i in range(2000):
        body(i)
    gc.collect()
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    r0 = rss_kib()
    for i in range(100_000 // 8):
        body(i)
    gc.collect()
    r1 = rss_kib()
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(st.size_diff for st in snap1.compare_to(snap0, "filename"))
    assert grown < 256 * 1024, grown
    assert r1 - r0 < 4096, (r0, r1)


def test_gil_released_during_long_shuffle():
    n = 20_000_000
    a = np.arange(n, dtype=np.int64)
    g = fairshuf.Generator()
    count = [0]
    done = threading.Event()

    def counter():
        while not done.is_set():
            count[0] += 1

    t = threading.Thread(target=counter)
    t.start()
    time.sleep(0.01)
    c0 = count[0]
    t0 = time.perf_counter()
    g.shuffle(a)
    dt = time.perf_counter() - t0
    c1 = count[0]
    done.set()
    t.join()
    # With the GIL held the counter could not move at all while the
    # shuffle (about 0.1 to 1 s) ran; released, it runs millions of times.
    assert c1 - c0 > 1000, (c1 - c0, dt)


def test_one_generator_two_threads():
    g = fairshuf.Generator()
    arrays = [np.arange(2_000_000) for _ in range(4)]
    ts = [threading.Thread(target=g.shuffle, args=(x,)) for x in arrays]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for x in arrays:
        assert np.array_equal(np.sort(x), np.arange(2_000_000))
        assert not np.array_equal(x, np.arange(2_000_000))


def test_stubs_cover_api():
    import ast

    pyi = os.path.join(os.path.dirname(fairshuf.__file__), "__init__.pyi")
    tree = ast.parse(open(pyi).read())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets}
    assert set(fairshuf.__all__) <= names, set(fairshuf.__all__) - names
    gcls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Generator")
    methods = {n.name for n in gcls.body if isinstance(n, ast.FunctionDef)}
    for m in ("shuffle", "permutation", "choice", "integers", "random_raw", "bytes", "deal",
              "range_permutation"):
        assert m in methods
        assert getattr(fairshuf.Generator, m).__doc__
    pcls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RangePermutation")
    pmethods = {n.name for n in pcls.body if isinstance(n, ast.FunctionDef)}
    for m in ("__iter__", "__next__", "next_n", "close", "__enter__", "__exit__", "drawn",
              "remaining", "size", "start", "stop", "dtype", "closed"):
        assert m in pmethods, m
        assert getattr(fairshuf.RangePermutation, m).__doc__ or m.startswith("__"), m
    for name in fairshuf.__all__:
        obj = getattr(fairshuf, name)
        if callable(obj):
            assert obj.__doc__, name


def test_without_numpy():
    """The package works without numpy: array.array and lists come back."""
    code = r'''
import sys, array
sys.modules["numpy"] = None  # import numpy fails
import fairshuf
g = fairshuf.Generator(seed=b"x" * 32, simulation=True)
p = g.permutation(10)
assert isinstance(p, array.array) and p.typecode == "q" and sorted(p) == list(range(10))
c = g.choice(100, 5, replace=False)
assert isinstance(c, array.array) and len(set(c)) == 5
assert g.choice(["a", "b", "c"], 2, replace=False)[0] in "abc"
i = g.integers(-5, 5, size=20)
assert isinstance(i, array.array) and all(-5 <= v < 5 for v in i)
assert len(g.random_raw(3)) == 3
b = bytearray(range(20)); g.shuffle(b); assert sorted(b) == list(range(20))
p = g.range_permutation(-5, 5)
r = p.next_n(4)
assert isinstance(r, array.array) and r.typecode == "q" and p.dtype == "int64"
assert sorted(list(r) + list(p)) == list(range(-5, 5))
u = g.range_permutation(2**64).next_n(3)
assert u.typecode == "Q" and len(set(u)) == 3
assert sorted(g.permutation(bytearray(range(9)))) == list(range(9))
print("ok")
'''
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.stdout.strip() == b"ok"


def test_stream_versions():
    # fsh_rng_set_stream_version: the newest for an OS-keyed generator,
    # version 1 for a seeded one (seeds keep their orders), or pinned.
    assert fairshuf.STREAM_LATEST == fairshuf.STREAM_V3 == 3
    assert fairshuf.STREAM_V2 == 2
    assert fairshuf.Generator().stream_version == fairshuf.STREAM_LATEST
    assert fairshuf.Generator(seed=42).stream_version == fairshuf.STREAM_V1
    assert fairshuf.Generator(seed=42, stream_version=2).stream_version == 2
    assert fairshuf.Generator(stream_version=1).stream_version == 1
    assert fairshuf.Generator(seed=42, stream_version=3).stream_version == 3
    assert fairshuf.Generator(seed=42, stream_version=2)._generator_id() == 0
    for bad in (0, 4, -1, 2**40):
        with pytest.raises(ValueError):
            fairshuf.Generator(stream_version=bad)
    with pytest.raises(TypeError):
        fairshuf.Generator(stream_version="2")
    # 1,600,000 u64 (12.8 MB): Fisher-Yates in version 1, the scatter
    # shuffle in version 2, with forward leaves in version 3; 900,000 u64
    # (7.2 MB): the forward Fisher-Yates in version 3. The digests are
    # tests/test_scatter_stream.c's (v1_u64_1600000, v2_u64_1600000,
    # v3_u64_1600000, v3_u64_900000), which an independent Python
    # implementation of docs/STREAMS.md reproduces.
    want = {(1, 1600000, b"scatter-stream-7"): "b93045768ae9d7033393f51b098e9176c3fdaf1107a6b85a8cbd18006bdea5cb",
            (2, 1600000, b"scatter-stream-7"): "d8eb91635d6b9e0699c8257a85238fe94b71a3e068b29c804c83847382134112",
            (3, 1600000, b"scatter-stream-7"): "2e40332c69758662d2215da7a2a4576c27494934473ae7ca4aa6c12303da1be4",
            (3, 900000, b"scatter-stream-9"): "781625ee2bb7850aec6f47c28b3866dd55c16002933198d5250ec0fc615a99c0"}
    for (v, n, seed), digest in want.items():
        g = fairshuf.Generator(seed=seed, simulation=True, stream_version=v)
        a = np.arange(n, dtype=np.uint64)
        g.shuffle(a)
        assert hashlib.sha256(a.tobytes()).hexdigest() == digest


def test_default_generators():
    # The OS-keyed default is ChaCha8, a seeded one stays ChaCha20 (its
    # stream is fsh_rng_seed's and never changes); an explicit generator
    # wins either way. fsh_gen numbers: 0 ChaCha20, 1 ChaCha12, 2 ChaCha8,
    # 3 xoshiro256++.
    assert fairshuf.Generator()._generator_id() == 2
    assert fairshuf.Generator(reach=fairshuf.REACH_KEY)._generator_id() == 2
    assert fairshuf.Generator(seed=42)._generator_id() == 0
    assert fairshuf.Generator(seed=b"x" * 32)._generator_id() == 0
    for name, num in (("chacha20", 0), ("chacha12", 1), ("chacha8", 2), ("xoshiro256++", 3)):
        assert fairshuf.Generator(generator=name)._generator_id() == num
        assert fairshuf.Generator(seed=7, generator=name, simulation=True)._generator_id() == num
    with pytest.raises(ValueError):
        fairshuf.Generator(generator=2)


# ------------------------------------------------- hostile review, session 12

def test_list_shrunk_while_waiting_for_the_generator():
    """A list shuffle that waits for a Generator another thread holds reads
    the list's size once it has the Generator (it read it before, then
    shuffled the old length over a shrunk list: a segfault)."""
    g = fairshuf.Generator()
    lst = list(range(300_000))
    t1 = threading.Thread(target=g.integers, args=(0, 10**9, 20_000_000))
    t1.start()
    time.sleep(0.05)
    t2 = threading.Thread(target=g.shuffle, args=(lst,))
    t2.start()
    time.sleep(0.05)
    del lst[3:]
    t1.join()
    t2.join()
    # [0, 1, 2] in some order when the shuffle waited (the race); three
    # distinct items of the range if the host let it run first
    assert len(lst) == 3 and len(set(lst)) == 3
    assert all(0 <= v < 300_000 for v in lst)


def test_shuffle_ctypes_array():
    """ctypes arrays export no strides (C order, as the buffer protocol
    allows); shuffle read them as if they had (a segfault)."""
    import ctypes
    c = (ctypes.c_int * 10)(*range(10))
    gen().shuffle(c)
    assert sorted(c) == list(range(10))
    ref = np.arange(10, dtype=np.int32)
    gen().shuffle(ref)
    assert list(c) == ref.tolist()
    m = (ctypes.c_double * 3 * 4)()
    for i in range(4):
        for j in range(3):
            m[i][j] = 10 * i + j
    gen().shuffle(m)
    rows = sorted(tuple(r) for r in m)
    assert rows == [tuple(10.0 * i + j for j in range(3)) for i in range(4)]


def test_fork_while_another_thread_holds_the_generator():
    """A child forked while another thread held the Generator's lock must
    not wait for it forever (the thread does not exist in the child)."""
    g = fairshuf.Generator()
    big = np.arange(15_000_000)
    t = threading.Thread(target=g.shuffle, args=(big,))
    t.start()
    time.sleep(0.03)
    pid = os.fork()
    if pid == 0:
        import signal
        signal.alarm(10)
        try:
            g.random_raw()
            os._exit(0)
        except BaseException:
            os._exit(3)
    t.join()
    _, st = os.waitpid(pid, 0)
    assert os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0


def test_ranges_beyond_the_c_types_refused():
    """Integers past what the C call takes raise; they were wrapped."""
    g = gen()
    with pytest.raises(ValueError):
        g.choice(2**64 + 5, size=8)
    with pytest.raises(ValueError):
        g.choice(2**65, 4, replace=False)
    assert g.choice(2**64, 4, replace=False).dtype == np.uint64
    with pytest.raises((ValueError, OverflowError)):
        g.deal(decks=2**32 + 1)
    with pytest.raises(ValueError, match="jokers must be 0, 1 or 2"):
        fairshuf.card_names(jokers=2**32 + 2)
    with pytest.raises(ValueError):
        fairshuf.fair_seed_min(decks=2**32 + 1)
    s = bytes(range(40))
    for j in (-1, 3, 10):
        with pytest.raises(ValueError):
            fairshuf.fair_order(s, jokers=j)
    c = fairshuf.fair_commit(s)
    order = fairshuf.fair_order(s)
    with pytest.raises(ValueError):
        fairshuf.fair_verify(s, c, order, jokers=3)


def test_bools_are_not_counts():
    """True is no stream version, thread count, length or deck count: a
    bool where an int is asked raises TypeError (stream_version=True was
    STREAM_V1, bytes(True) one byte, threads=True one thread)."""
    with pytest.raises(TypeError):
        fairshuf.Generator(seed=b"x" * 32, stream_version=True)
    with pytest.raises(TypeError):
        fairshuf.Generator(reach=True)
    g = gen()
    for call in (lambda: g.shuffle(np.arange(10), threads=True),
                 lambda: g.bytes(True),
                 lambda: g.integers(True),
                 lambda: g.deal(players=True),
                 lambda: g.deal(decks=True),
                 lambda: fairshuf.card_names(jokers=True),
                 lambda: fairshuf.fair_order(bytes(40), nonce=False)):
        with pytest.raises(TypeError):
            call()
    assert len(g.bytes(1)) == 1


def test_bools_are_not_ints_anywhere():
    """Every integer argument refuses a bool (and numpy's bool scalar) with
    TypeError, not only the counts above: axes, the entries of a size
    tuple, a fair order's face codes, and the C core's own arguments
    (these read True as 1, or as axis 1)."""
    g = gen()
    x2 = np.zeros((2, 3))
    faces = fairshuf.fair_order(bytes(32))
    c = fairshuf.fair_commit(bytes(32))
    core = fairshuf._fairshuf
    for b in (True, np.True_):
        for call in (lambda: g.shuffle(x2, axis=b),
                     lambda: g.shuffle([1, 2, 3], axis=b),
                     lambda: g.permutation(x2, axis=b),
                     lambda: g.choice(x2, 1, axis=b),
                     lambda: g.integers(10, size=(b, 2)),
                     lambda: g.random_raw((2, b)),
                     lambda: g.choice(5, size=(b,)),
                     lambda: g.integers(10, size=b),
                     lambda: g.bytes(b),
                     lambda: g.shuffle(np.arange(10), threads=b),
                     lambda: g.permutation(b),
                     lambda: g.choice(b),
                     lambda: fairshuf.Generator(stream_version=b),
                     lambda: fairshuf.Generator(reach=b),
                     lambda: fairshuf.fair_order(bytes(32), nonce=b),
                     lambda: fairshuf.fair_verify(bytes(32), c,
                                                  [b if f == 1 else f for f in faces]),
                     # the C core, under the Python layer's checks
                     lambda: core._Generator(None, b),
                     lambda: core._Generator(None, -1, False, b),
                     lambda: core._Generator(None, -1, False, -1, b),
                     lambda: g._deal(1, 0, None, b),
                     lambda: g._deal(1, 0, None, 0, b),
                     lambda: g._deal(1, 0, None, 0, 1, b),
                     lambda: g._deal(1, 0, None, 0, 1, -1, b),
                     lambda: g._permutation_bytes(b),
                     lambda: g._permutation_bytes(3, b),
                     lambda: g._sample_bytes(b, 0, 9),
                     lambda: g._integers_bytes(1, 0, b),
                     lambda: core.fair_seed_min(b, 1),
                     lambda: core.fair_seed_min(52, b),
                     lambda: core.fair_order(b, 1, bytes(32), b"", 0),
                     lambda: core.card_names(jokers=b),
                     lambda: core.entropy(b),
                     lambda: core.strerror(b)):
            with pytest.raises(TypeError):
                call()
    with pytest.raises(TypeError):
        g._set_words([1, True])
    with pytest.raises(TypeError):
        g._set_randint([True])
    # the ints themselves still work
    g.shuffle(x2, axis=1)
    assert g.permutation(x2, axis=1).shape == (2, 3)
    assert g.choice(x2, 1, axis=1).shape == (2, 1)
    assert g.integers(10, size=(1, 2)).shape == (1, 2)
    assert len(g._deal(1, 0, None, 0, 1, -1, 1)) == 52
    assert core.strerror(2**32 - 3) == "unknown error"  # was wrapped to -3
    assert core.strerror(-3).startswith("cannot reach every outcome")


def test_records_with_datetime_fields():
    """numpy exports no buffer for records with datetime64 fields: they are
    moved as opaque records, whole, in the order of any other record."""
    dt = [("t", "M8[s]"), ("v", "i4")]
    x = np.zeros(50, dtype=dt)
    x["t"] = np.arange(50).astype("M8[s]")
    x["v"] = np.arange(50)
    gen().shuffle(x)
    assert (x["t"].astype(np.int64) == x["v"]).all()
    assert x["v"].tolist() == ref_perm(50).tolist()
    y = gen().permutation(np.zeros((4, 3), dtype=dt))
    assert y.shape == (4, 3)


def test_uninitialized_generator_raises():
    g = fairshuf.Generator.__new__(fairshuf.Generator)
    with pytest.raises(RuntimeError):
        g._generator_id()
    with pytest.raises(RuntimeError):
        g._stream_version()


def test_failed_calls_draw_nothing():
    """A deal with a bad notation fails before dealing, and permutation(0)
    draws nothing: the seeded stream goes on as if neither was called."""
    a, b = gen(), gen()
    with pytest.raises(ValueError):
        a.deal(2, 2, notation="bogus")
    assert a.permutation(0).size == 0
    assert a.integers(0, 2**63, 16).tolist() == b.integers(0, 2**63, 16).tolist()


def test_deal_faces_from_an_iterator():
    """faces is read once: an iterator deals its faces (the argument checks
    must not use it up first)."""
    names = ["a", "b", "c", "d"]
    assert sorted(gen().deal(faces=iter(names))) == names
    assert gen().deal(faces=(f for f in names)) == gen().deal(faces=names)


def test_memory_error_is_clean():
    """An array too large to allocate raises MemoryError and nothing else.
    CPython 3.11's PyByteArray_FromStringAndSize drops its half-made object
    with ob_exports unset when the allocation fails, so the extension used
    to print "SystemError: deallocated bytearray object has exported
    buffers" beside the MemoryError (seen under an address-space limit).
    The child runs with RLIMIT_AS at 3 GiB so the failure is the
    allocator's, as on a machine short of memory."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "import fairshuf\n"
        "rng = fairshuf.Generator(seed=b'x' * 32)\n"
        "calls = [lambda: rng.permutation(10**12),\n"
        "         lambda: rng.choice(10**18, size=10**11, replace=False),\n"
        "         lambda: rng.choice(10**9, size=5 * 10**8, replace=False),\n"
        "         lambda: rng.integers(0, 10, size=10**12),\n"
        "         lambda: rng.random_raw(10**12)]\n"
        "for f in calls:\n"
        "    try:\n"
        "        f()\n"
        "    except MemoryError:\n"
        "        print('MemoryError')\n"
        "    else:\n"
        "        print('no error')\n"
        "print(rng.permutation(5).tolist() == fairshuf.Generator(seed=b'x' * 32).permutation(5).tolist())\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], env=env, timeout=120,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["MemoryError"] * 5 + ["True"]
    assert r.stderr == ""


def test_refused_strided_shuffle_copies_nothing():
    """A shuffle the generator cannot reach is refused before the rows of a
    non-contiguous array are copied aside (a 256-bit seed reaches every
    order of at most 57 rows): nothing allocated, nothing moved. The same
    array contiguous, and a reachable strided one, for contrast."""
    base = np.arange(2_000_000, dtype=np.int64)
    strided = base[::2]  # 1e6 rows, 8 MB: gathered into a copy to shuffle
    before = base.copy()
    rng = fairshuf.Generator(seed=b"k" * 32)
    tracemalloc.start()
    try:
        with pytest.raises(fairshuf.ReachabilityError):
            rng.shuffle(strided)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    assert np.array_equal(base, before)
    # still refused, still unchanged, in the other layouts
    with pytest.raises(fairshuf.ReachabilityError):
        rng.shuffle(base)
    assert np.array_equal(base, before)
    small = np.arange(100, dtype=np.int64)[::2]  # 50 rows: reachable
    fairshuf.Generator(seed=b"k" * 32).shuffle(small)
    assert sorted(small.tolist()) == list(range(0, 100, 2))
    # the refusal drew nothing: the same seed's stream is where it began
    assert rng.random_raw(2).tolist() == fairshuf.Generator(seed=b"k" * 32).random_raw(2).tolist()


# ------------------------------------------- range permutations (session 18)

def draw_batches(p, batches):
    """The values of p drawn batch by batch: next(p) for a batch of 1,
    p.next_n(b) otherwise, as chelper's rangeperm does in C."""
    got = []
    for b in batches:
        if b == 1:
            got.append(next(p))
        else:
            a = p.next_n(b)
            assert a.dtype == p.dtype and a.shape == (b,)
            got += [int(x) for x in a]
    return got


@pytest.mark.parametrize("lo,hi,hint,batches", [
    (0, 9, 0, [1] * 10),                               # whole, one at a time
    (0, 999, 1000, [1, 500, 499]),                     # whole, array storage
    (5, 10**6, 0, [3, 1, 1, 100]),
    (5, 10**6, 1000, [3, 1, 1, 100]),                  # a hint changes nothing
    (10**12, 10**12 + 2**40, 10**5, [1, 99_999]),      # map of a hint's size
    (0, 2**64 - 1, 0, [1, 1000, 1]),                   # all 2**64 values
    (2**63 - 5, 2**63 + 4, 0, [10]),                   # past int64: uint64
    (2**64 - 10, 2**64 - 1, 3, [4, 1, 5]),
])
def test_range_permutation_matches_c(chelper, lo, hi, hint, batches):
    """The values of fsh_rangeperm_new(lo, hi, hint) and of
    fsh_rangeperm_next / next_n for the same seed and the same calls, and
    the status of one more draw: FSH_EEMPTY (-4) after the last value is
    StopIteration, FSH_OK a value."""
    ref = run_lines([chelper, SEED, "rangeperm", str(lo), str(hi), str(hint),
                     ",".join(map(str, batches))])
    status = ref.pop()
    p = gen().range_permutation(lo, hi, endpoint=True, hint=hint)
    assert p.dtype == (np.int64 if hi < 2**63 else np.uint64)
    assert (p.start, p.stop, p.size) == (lo, hi + 1, hi - lo + 1)
    assert draw_batches(p, batches) == ref
    assert p.drawn == len(ref) and p.remaining == hi - lo + 1 - len(ref)
    if status == -4:
        with pytest.raises(StopIteration):
            next(p)
    else:
        assert status == 0
        assert lo <= next(p) <= hi


def test_range_permutation_negative_and_default_bounds(chelper):
    """range(low, high) with a negative low: the library's permutation of
    [0, high - low - 1] moved by low (the library adds lo itself); one
    bound is range(0, n); endpoint=True includes high."""
    ref = run_lines([chelper, SEED, "rangeperm", "0", "99", "0", "40"])[:-1]
    p = gen().range_permutation(-50, 50)
    assert p.dtype == np.int64 and (p.start, p.stop) == (-50, 50)
    assert p.next_n(40).tolist() == [r - 50 for r in ref]
    assert gen().range_permutation(100).next_n(40).tolist() == ref
    assert gen().range_permutation(0, 99, endpoint=True).next_n(40).tolist() == ref
    q = gen().range_permutation(-(2**63), -(2**63) + 99, endpoint=True)
    assert [next(q) for _ in range(40)] == [r - 2**63 for r in ref]


@pytest.mark.parametrize("seed", ["42", "héllo"])
def test_range_permutation_matches_command(command, seed):
    """fairshuf --seed=S -i LO-HI -n K (fewer than the range: its
    fsh_rangeperm) prints the first K values of
    Generator(seed=S, simulation=True).range_permutation(LO, HI + 1)."""
    for lo, hi, k in ((5, 10**6, 1000), (1, 2**40, 30), (0, 99, 99)):
        out = run_lines([command, "--seed=" + seed, "-i", "%d-%d" % (lo, hi), "-n", str(k)])
        g = fairshuf.Generator(seed=seed, simulation=True)
        assert g.range_permutation(lo, hi + 1).next_n(k).tolist() == out
        g = fairshuf.Generator(seed=seed, simulation=True)
        assert list(itertools.islice(g.range_permutation(lo, hi, endpoint=True), k)) == out


def test_range_permutation_exhaustion():
    """Every value once, then StopIteration on every later next(); next_n
    past the values left is refused (ValueError) and draws nothing, as the
    library refuses it; next_n(0) draws nothing."""
    p = gen().range_permutation(10, 17)
    assert operator_length_hint(p) == 7
    vals = list(p)
    assert sorted(vals) == list(range(10, 17))
    for _ in range(2):
        with pytest.raises(StopIteration):
            next(p)
    with pytest.raises(ValueError, match="every value has been drawn"):
        p.next_n(1)
    assert p.next_n(0).tolist() == []
    assert (p.drawn, p.remaining, operator_length_hint(p)) == (7, 0, 0)
    # part-way: the refused batch draws nothing, the rest follows as before
    whole = gen().range_permutation(10).next_n(10).tolist()
    q = gen().range_permutation(10)
    assert q.next_n(4).tolist() == whole[:4]
    with pytest.raises(ValueError, match="only 6 values are left"):
        q.next_n(7)
    assert (q.drawn, q.remaining) == (4, 6)
    assert q.next_n(0).tolist() == []
    assert list(q) == whole[4:]
    # a generator whose next_n went past the end drew nothing from its rng
    a, b = gen(), gen()
    pa = a.range_permutation(3)
    pa.next_n(3)
    with pytest.raises(ValueError):
        pa.next_n(1)
    b.range_permutation(3).next_n(3)
    assert a.random_raw(4).tolist() == b.random_raw(4).tolist()


def operator_length_hint(p):
    import operator
    return operator.length_hint(p)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_enumeration_range_permutation(n):
    """Through a [1, k] source, every draw sequence of a whole permutation
    of range(n) gives a distinct order: all n! appear exactly once, by
    next() and by next_n alike; and every ordered pair of range(5)."""
    for how in ("next", "next_n"):
        counts = {}
        for seq in itertools.product(*[range(1, k + 1) for k in range(n, 1, -1)]):
            g = fairshuf.Generator._from_randint(list(seq))
            p = g.range_permutation(100, 100 + n)
            got = tuple(list(p) if how == "next" else p.next_n(n).tolist())
            assert [k for k in g._asked() if k > 1] == list(range(n, 1, -1))
            counts[got] = counts.get(got, 0) + 1
        assert uniform_counts(counts, math.factorial(n))
        assert sorted(counts) == sorted(itertools.permutations(range(100, 100 + n)))
    counts = {}
    for seq in itertools.product(range(1, 6), range(1, 5)):
        g = fairshuf.Generator._from_randint(list(seq))
        pair = tuple(g.range_permutation(5).next_n(2).tolist())
        counts[pair] = counts.get(pair, 0) + 1
    assert uniform_counts(counts, 20)


def test_chi2_range_permutation_and_known_bad():
    """Fixed seeds, alpha = 1e-6 each (so a correct library fails one in a
    million fresh seeds): the 120 orders of a whole permutation of range(5)
    (24,000 permutations, by next_n and by next()), and the first value of
    range(10**9) in ten deciles (20,000 permutations). Known bad: the same
    permutations with their first two values sorted (still permutations,
    every value once) fail the first test."""
    n, per = 5, 200
    trials = math.factorial(n) * per
    perms = {q: i for i, q in enumerate(itertools.permutations(range(n)))}
    g = gen("chi2-rangeperm")
    counts, bad = [0] * len(perms), [0] * len(perms)
    for t in range(trials):
        p = g.range_permutation(n)
        v = p.next_n(n).tolist() if t % 2 else list(p)
        counts[perms[tuple(v)]] += 1
        if v[0] > v[1]:
            v[0], v[1] = v[1], v[0]
        bad[perms[tuple(v)]] += 1
    limit = chi2_threshold(len(perms) - 1)
    assert chi2(counts, per) < limit
    assert chi2(bad, per) > limit
    firsts = [next(g.range_permutation(10**9)) // 10**8 for _ in range(20_000)]
    assert chi2(np.bincount(firsts, minlength=10), 2_000) < chi2_threshold(9)


def test_range_permutation_bad_arguments():
    g = gen()
    for call in (lambda: g.range_permutation(True),
                 lambda: g.range_permutation(np.True_),
                 lambda: g.range_permutation(0, True),
                 lambda: g.range_permutation(10, hint=True),
                 lambda: g.range_permutation(1.5),
                 lambda: g.range_permutation("10"),
                 lambda: g.range_permutation(10, hint=2.0),
                 lambda: g.range_permutation(10).next_n(True),
                 lambda: g.range_permutation(10).next_n(2.0),
                 lambda: g.range_permutation(10).next_n("2"),
                 lambda: fairshuf.RangePermutation(g, 0, 9),
                 lambda: fairshuf._fairshuf._RangePermutation(object(), 0, 9),
                 lambda: fairshuf._fairshuf._RangePermutation(g, 0, True)):
        with pytest.raises(TypeError):
            call()
    for call in (lambda: g.range_permutation(0),            # empty, as the library's lo > hi
                 lambda: g.range_permutation(5, 5),
                 lambda: g.range_permutation(5, 3),
                 lambda: g.range_permutation(5, 4, endpoint=True),
                 lambda: g.range_permutation(-1),
                 lambda: g.range_permutation(2**64 + 1),     # more than 2**64 values
                 lambda: g.range_permutation(-1, 2**63 + 1),  # neither int64 nor uint64
                 lambda: g.range_permutation(-(2**63) - 1, 0),
                 lambda: g.range_permutation(0, 2**64 + 1),
                 lambda: g.range_permutation(10, hint=-1),
                 lambda: g.range_permutation(10).next_n(-1)):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(RuntimeError):
        fairshuf.Generator.__new__(fairshuf.Generator).range_permutation(10)
    # nothing above drew: the stream is where a fresh one starts
    assert g.random_raw(2).tolist() == gen().random_raw(2).tolist()
    assert g.range_permutation(2**64).size == 2**64
    assert g.range_permutation(-(2**63), 2**63).dtype == np.int64
    assert g.range_permutation(10, hint=2**80).next_n(10).size == 10  # past the size: the size


def test_range_permutation_reachability():
    """A seeded generator refuses a draw whose ordered prefix it cannot
    reach (n!/(n-d)! > 2**bits), with ReachabilityError naming its seed,
    and draws nothing: one draw of 2**16 values fits 16 bits, two do not;
    a batch is refused whole. A 32-byte seed reaches d draws of 10**6 as
    long as 10**6 * ... * (10**6 - d + 1) <= 2**256. A strict OS-keyed
    generator is refused beyond its hardware cap."""
    g = fairshuf.Generator(seed=42)  # 16 bits
    p = g.range_permutation(2**16)
    assert 0 <= next(p) < 2**16
    with pytest.raises(fairshuf.ReachabilityError, match="seed too short.*16 bits credited"):
        next(p)
    with pytest.raises(fairshuf.ReachabilityError):
        p.next_n(1)
    assert p.drawn == 1
    with pytest.raises(fairshuf.ReachabilityError):
        next(fairshuf.Generator(seed=42).range_permutation(2**16 + 1))
    q = fairshuf.Generator(seed=42)
    with pytest.raises(fairshuf.ReachabilityError):
        q.range_permutation(2**16).next_n(2)
    assert q.random_raw(2).tolist() == fairshuf.Generator(seed=42).random_raw(2).tolist()
    n, d, prod = 10**6, 0, 1
    while prod * (n - d) <= 2**256:
        prod *= n - d
        d += 1
    s = fairshuf.Generator(seed=bytes(32))
    r = s.range_permutation(n)
    assert len(set(r.next_n(d - 1).tolist() + [next(r)])) == d
    with pytest.raises(fairshuf.ReachabilityError, match="256 bits credited"):
        next(r)
    assert r.drawn == d
    with pytest.raises(fairshuf.ReachabilityError):
        fairshuf.Generator(seed=bytes(32)).range_permutation(n).next_n(d + 1)
    assert fairshuf.Generator(seed=bytes(32), simulation=True).range_permutation(n).next_n(d + 1).size == d + 1
    strict = fairshuf.Generator(reach=fairshuf.REACH_FULL)
    with pytest.raises(fairshuf.ReachabilityError, match="beyond the hardware entropy cap"):
        strict.range_permutation(10**6).next_n(10**4)
    assert fairshuf.Generator().range_permutation(10**6).next_n(10**4).size == 10**4


def test_range_permutation_memory_error():
    """Storage for the hint that a size_t cannot count is FSH_ENOMEM at
    once: MemoryError when the permutation is made, before any draw. Under
    an address-space limit (a child with RLIMIT_AS at 3 GiB) a hint of
    2**33 draws, and a batch of 10**9 values, raise MemoryError alone
    (nothing on stderr), and the permutation goes on."""
    g = gen()
    with pytest.raises(MemoryError):
        g.range_permutation(2**64, hint=2**62)
    assert g.random_raw(2).tolist() == gen().random_raw(2).tolist()
    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "import fairshuf\n"
        "g = fairshuf.Generator(seed=b'x' * 32, simulation=True)\n"
        "for f in (lambda: g.range_permutation(2**40, hint=2**33),\n"
        "          lambda: g.range_permutation(2**40).next_n(10**9)):\n"
        "    try:\n"
        "        f()\n"
        "        print('no error')\n"
        "    except MemoryError:\n"
        "        print('MemoryError')\n"
        "p = g.range_permutation(2**40)\n"
        "print(p.next_n(1000).size, p.drawn)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], env=env, timeout=120,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["MemoryError", "MemoryError", "1000", "1000"]
    assert r.stderr == ""


def test_range_permutation_callback_error():
    """A [1, k] source that fails (FSH_ECALLBACK) raises ValueError; the
    draws before it stand."""
    g = fairshuf.Generator._from_randint([2])
    p = g.range_permutation(5)
    assert next(p) == 1  # r = 2 - 1: position 1's value
    with pytest.raises(ValueError, match="callback"):
        next(p)
    assert p.drawn == 1
    with pytest.raises(ValueError, match="callback"):
        fairshuf.Generator._from_randint([]).range_permutation(5).next_n(3)


def test_range_permutation_os_error(tmp_path):
    """FSH_ESYSRAND is OSError with the failing call's errno: an OS-keyed
    generator in a forked child rekeys from the OS at its first draw, and
    there the OS source fails (tests/shim/noentropy.c preloaded, told to
    fail every call from then on)."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler for the shim")
    shim = str(tmp_path / "libnoentropy.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", shim,
                    os.path.join(ROOT, "tests", "shim", "noentropy.c"), "-ldl"], check=True)
    code = (
        "import errno, os, fairshuf\n"
        "g = fairshuf.Generator()\n"
        "p = g.range_permutation(10**6)\n"
        "next(p)\n"
        "os.environ['FSH_SHIM_AFTER'] = '0'\n"  # the shim reads it at each call
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    try:\n"
        "        next(p)\n"
        "        os._exit(1)\n"
        "    except OSError as e:\n"
        "        os._exit(0 if e.errno == errno.EIO and p.drawn == 1 else 2)\n"
        "    except BaseException:\n"
        "        os._exit(3)\n"
        "_, st = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(st), p.drawn)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), LD_PRELOAD=shim,
               FSH_SHIM_AFTER="1000000", FSH_SHIM_ERRNO=str(errno.EIO))
    r = subprocess.run([sys.executable, "-c", code], env=env, timeout=60,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.stdout.split() == ["0", "1"], (r.stdout, r.stderr)


def heap_bytes():
    """Bytes malloc has handed out and not taken back (glibc's mallinfo2:
    the arenas' and the mmapped blocks'), which sees the library's storage
    (tracemalloc does not); None where there is no mallinfo2."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(f, ctypes.c_size_t) for f in
                    ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                     "fsmblks", "uordblks", "fordblks", "keepcost")]

    try:
        f = ctypes.CDLL(None).mallinfo2
    except (AttributeError, OSError):
        return None
    f.restype = MallInfo2
    m = f()
    return m.uordblks + m.hblkhd


def test_range_permutation_memory():
    """A huge range with a small k does not allocate the range: 2,001
    values of range(2**64), of range(10**9) (its array would be 4 GB) and
    of range(10**7) (40 MB) take under 1 MiB. A hint is honoured: the
    storage for 10**6 draws (a map of 2**21 slots of 16 bytes, 32 MiB) is
    allocated when the permutation is made and freed by close()."""
    if heap_bytes() is None:
        pytest.skip("no mallinfo2 (glibc 2.33 or later)")
    g = fairshuf.Generator()
    for n in (2**64, 10**9, 10**7):
        gc.collect()
        h0 = heap_bytes()
        p = g.range_permutation(n)
        vals = p.next_n(1000)
        vals = [next(p) for _ in range(1001)]
        grown = heap_bytes() - h0
        assert grown < 1 << 20, (n, grown)
        p.close()
        del vals
    h0 = heap_bytes()
    p = g.range_permutation(2**40, hint=10**6)
    assert heap_bytes() - h0 >= 32 << 20
    p.next_n(10**5)
    p.close()
    assert heap_bytes() - h0 < 1 << 20


def test_range_permutation_frees_storage():
    """close(), a with block, del and the cycle collector each free the
    library's storage (fsh_rangeperm_free; _rangeperm_live counts what is
    not freed yet); a closed permutation refuses draws with ValueError and
    keeps its count; 20,000 permutations made and dropped leave nothing."""
    live = fairshuf._fairshuf._rangeperm_live
    gc.collect()
    base = live()
    g = gen()
    p = g.range_permutation(100)
    assert live() == base + 1
    p.next_n(10)
    p.close()
    assert live() == base and p.closed
    p.close()
    for call in (lambda: next(p), lambda: p.next_n(1), lambda: p.next_n(0)):
        with pytest.raises(ValueError, match="closed"):
            call()
    assert (p.drawn, p.remaining) == (10, 90) and "closed" in repr(p)
    with g.range_permutation(10**12, hint=1000) as q:
        q.next_n(1000)
        assert live() == base + 1
    assert live() == base and q.drawn == 1000
    r = g.range_permutation(10)
    del r
    assert live() == base
    gc.disable()
    try:
        h = fairshuf.Generator()
        h.perm = h.range_permutation(10**9, hint=10**4)  # a cycle through the generator
        del h
        assert live() == base + 1  # the cycle waits for the collector
    finally:
        gc.enable()
    gc.collect()
    assert live() == base
    gc.collect()
    h0 = heap_bytes()
    for i in range(20_000):
        s = g.range_permutation(10**9)
        s.next_n(3)
        next(s)
        if i % 2:
            s.close()
    del s
    assert live() == base
    if h0 is not None:
        assert heap_bytes() - h0 < 1 << 20


def test_range_permutation_threads():
    """One permutation drawn from four threads at once (next_n and next()):
    every value distinct, drawn counts them all. close() from another
    thread waits for a batch under way, which completes; the GIL is
    released during a long batch (a counter thread runs meanwhile)."""
    g = fairshuf.Generator()
    p = g.range_permutation(10**9)
    out = [[] for _ in range(4)]

    def work(i):
        for _ in range(25):
            if i == 3:
                out[i] += [next(p) for _ in range(2000)]
            else:
                out[i] += p.next_n(20_000).tolist()

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    allv = [v for o in out for v in o]
    assert len(allv) == 3 * 25 * 20_000 + 25 * 2000 == p.drawn
    assert len(set(allv)) == len(allv)

    big = g.range_permutation(10**12)
    got = {}
    count = [0]
    done = threading.Event()

    def counter():
        while not done.is_set():
            count[0] += 1

    def batch():
        got["a"] = big.next_n(3_000_000)

    c = threading.Thread(target=counter)
    c.start()
    t = threading.Thread(target=batch)
    t.start()
    time.sleep(0.02)
    c0 = count[0]
    big.close()  # waits for the batch
    c1 = count[0]
    t.join()
    done.set()
    c.join()
    a = got["a"]
    assert a.size == 3_000_000 and np.unique(a).size == a.size
    assert big.drawn == 3_000_000 and big.closed
    assert c1 - c0 > 1000, (c0, c1)
    with pytest.raises(ValueError):
        next(big)


# ------------------------------------------- session 20: a hostile user's probes

def test_records_with_datetime_and_object_fields():
    """Records with both datetime64 and object fields export no buffer
    (numpy refuses 'M' in one) and numpy makes no opaque view of a dtype
    with objects: shuffle raised "cannot include dtype 'M' in a buffer".
    They are shuffled in the order of any other rows of their size (the
    same records without the objects), along any axis, references kept."""
    dt = [("t", "M8[s]"), ("o", "O"), ("d", "m8[D]", (2,))]
    plain = [("t", "M8[s]"), ("o", "i8"), ("d", "m8[D]", (2,))]
    objs = [object() for _ in range(60)]
    x = np.zeros(60, dtype=dt)
    x["t"] = np.arange(60).astype("M8[s]")
    x["o"] = objs
    counts = [sys.getrefcount(o) for o in objs]
    y = np.zeros(60, dtype=plain)
    y["t"] = x["t"]
    y["o"] = np.arange(60)
    gen().shuffle(x)
    gen().shuffle(y)
    assert (x["t"] == y["t"]).all()
    assert [objs.index(o) for o in x["o"]] == y["o"].tolist()
    assert x["t"].astype(np.int64).tolist() == ref_perm(60).tolist()
    assert [sys.getrefcount(o) for o in objs] == counts
    # 2-d, each axis, a strided view: as the same rows without objects
    for axis in (0, 1, -1):
        a = np.zeros((5, 7), dtype=dt)[:, ::2]
        a["t"] = np.arange(20).reshape(5, 4).astype("M8[s]")
        a["o"] = np.arange(20).reshape(5, 4)
        b = np.zeros((5, 7), dtype=plain)[:, ::2]
        b["t"] = a["t"]
        gen().shuffle(a, axis=axis)
        gen().shuffle(b, axis=axis)
        assert (a["t"] == b["t"]).all() and (a["o"] == a["t"].astype(np.int64)).all()
    p = gen().permutation(x)
    assert sorted(p["t"].astype(np.int64).tolist()) == list(range(60))
    # refusals and bad arguments still raise, changing nothing
    before = x.copy()
    with pytest.raises(fairshuf.ReachabilityError):
        fairshuf.Generator(seed=42).shuffle(x)
    with pytest.raises(ValueError, match="out of bounds"):
        gen().shuffle(x, axis=1)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gen().shuffle(x)
    assert (x["t"] == before["t"]).all()
    gen().shuffle(np.zeros(0, dtype=dt))
    with pytest.raises(ValueError, match="0-d"):
        gen().shuffle(np.zeros((), dtype=dt))


def test_generators_are_not_pickled_or_copied():
    """A Generator or RangePermutation is never pickled or copied (a copy
    would repeat its stream): TypeError saying so for every pickle
    protocol, copy and deepcopy. Protocols 0 and 1 said "a bytes-like
    object is required, not 'Generator'" (copyreg called the C base with
    the generator as its seed) and "argument 1 must be ..." for a
    permutation; the others "cannot pickle" for a copy too."""
    import copy
    import pickle

    g = gen()
    p = g.range_permutation(100)
    for obj, name in ((g, "Generator"), (p, "RangePermutation")):
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            with pytest.raises(TypeError, match="%s objects cannot be pickled or copied" % name):
                pickle.dumps(obj, protocol=proto)
        for f in (copy.copy, copy.deepcopy):
            with pytest.raises(TypeError, match="%s objects cannot be pickled or copied" % name):
                f(obj)
    # nothing drawn meanwhile
    assert g.random_raw() == gen().random_raw() and p.drawn == 0


def test_size_as_list_or_array():
    """size may be a list or a 1-d integer array, as numpy takes it
    (numpy.random.Generator.integers(5, size=[2, 3])); it was a TypeError.
    The same draws as the tuple; non-integers, bools and negatives are
    refused as in a tuple."""
    for size in ([2, 3], np.array([2, 3]), np.array([2, 3], dtype=np.uint8), [np.int64(2), 3]):
        assert gen().integers(5, size=size).tolist() == gen().integers(5, size=(2, 3)).tolist()
        assert gen().choice(9, size=size, replace=False).tolist() == \
            gen().choice(9, size=(2, 3), replace=False).tolist()
        assert gen().choice(np.arange(9), size=size).shape == (2, 3)
        assert gen().random_raw(size).tolist() == gen().random_raw((2, 3)).tolist()
    assert gen().integers(5, size=[]).shape == ()
    assert gen().integers(5, size=[0]).shape == (0,)
    for bad, exc in (([2.0], TypeError), ([True, 2], TypeError), (np.array([1.5]), TypeError),
                     (np.array([True]), TypeError), ([-1], ValueError), ("ab", TypeError),
                     (np.zeros((2, 2), dtype=int), TypeError)):
        with pytest.raises(exc):
            gen().integers(5, size=bad)


def test_huge_int_seed_is_its_decimal_string():
    """An int seed of any size is its decimal string: one of more than
    4,300 digits raised ValueError ("Exceeds the limit (4300 digits) for
    integer string conversion", Python 3.11's str() limit), though the
    same digits as a str were taken."""
    for digits in ("1" + "0" * 5000, "9" * 4301, "123456789" * 2000 + "7", "5" * 4300,
                   "1" + "0" * 4000 + "1" * 4000):
        n = int(digits) if len(digits) <= 4300 else None
        if n is None:
            n = 0
            for i in range(0, len(digits), 1000):  # without int(str) past the limit
                part = digits[i:i + 1000]
                n = n * 10 ** len(part) + int(part)
        assert gen(n).random_raw(4).tolist() == gen(digits).random_raw(4).tolist()
    assert gen(10**20).random_raw() == gen("100000000000000000000").random_raw()


def test_choice_from_a_0d_integer_array():
    """choice(np.array(5), ...) draws from range(5) as numpy's choice does
    (a 0-d integer array is its integer); it was a ValueError ("a must be
    1-dimensional or an integer"). A 0-d float or bool array is still
    refused."""
    for a in (np.array(5), np.array(5, dtype=np.uint8), np.array(5, dtype=np.uint64)):
        assert gen().choice(a, 3).tolist() == gen().choice(5, 3).tolist()
        assert gen().choice(a, 5, replace=False).tolist() == gen().choice(5, 5, replace=False).tolist()
        assert gen().choice(a) == gen().choice(5)
    with pytest.raises(ValueError):
        gen().choice(np.array(5.0), 3)
    with pytest.raises(TypeError):
        gen().choice(np.array(True), 3)
    with pytest.raises(ValueError):
        gen().choice(np.array(-1), 3)


def test_card_names_negative_jokers():
    """card_names(jokers=-1) is a ValueError as deal's is (a negative count,
    docs/PYTHON.md "Exceptions"); it was an OverflowError ("can't convert
    negative int to unsigned"). 3 says which counts there are (it said
    "invalid argument")."""
    for j in (-1, -2**70, np.int64(-1)):
        with pytest.raises(ValueError, match="jokers must be 0, 1 or 2"):
            fairshuf.card_names(jokers=j)
        with pytest.raises(ValueError):
            gen().deal(jokers=j)
    with pytest.raises(ValueError, match="jokers must be 0, 1 or 2"):
        fairshuf.card_names(jokers=3)
    assert fairshuf.card_names(jokers=np.int64(2))[-2:] == ["RJ", "BJ"]
    assert fairshuf.card_names(faces=["x", "y"]) == ["x", "y"]
    assert len(fairshuf.card_names(jokers=1, notation="poker")) == 53


def test_integers_dtype_bool():
    """integers(0, 2, size=k, dtype=bool) gives a bool array, as numpy's
    integers does for a range within [0, 1]; it was a TypeError ("dtype
    must be an integer dtype"). The same draws as int64; a wider range is
    a ValueError."""
    a = gen().integers(0, 2, size=(3, 40), dtype=bool)
    assert a.dtype == np.bool_ and a.shape == (3, 40)
    assert a.astype(np.int64).tolist() == gen().integers(0, 2, size=(3, 40)).tolist()
    assert gen().integers(2, size=5, dtype=np.bool_).tolist() == \
        gen().integers(0, 1, size=5, endpoint=True, dtype="?").tolist()
    assert gen().integers(1, 2, size=4, dtype=bool).all()
    v = gen().integers(2, dtype=bool)
    assert type(v) is bool and v == bool(gen().integers(2))
    for lo, hi in ((0, 3), (-1, 1)):
        with pytest.raises(ValueError):
            gen().integers(lo, hi, dtype=bool)
    with pytest.raises(TypeError):
        gen().integers(2, dtype=float)


def test_shoe_errors_say_what_is_wrong():
    """A bad shoe raises ValueError naming what is wrong; each said only
    "invalid argument" (the library's FSH_EINVAL): no decks, no faces, a
    face name the library refuses (more than 31 bytes, a blank, a quote,
    a backslash, a control character, a name twice), more than 2**32 - 1
    cards."""
    g = gen()
    shoe_calls = (g.deal, lambda **kw: fairshuf.fair_seed_min(**kw),
                  lambda **kw: fairshuf.fair_order(b"s" * 64, **kw))
    for call in shoe_calls:
        with pytest.raises(ValueError, match="decks must be at least 1"):
            call(decks=0)
        with pytest.raises(ValueError, match="faces must name at least one card"):
            call(faces=[])
        with pytest.raises(ValueError, match="at most 2\\*\\*32 - 1"):
            call(decks=2**32 - 1)
    with pytest.raises(ValueError, match="faces must name at least one card"):
        fairshuf.card_names(faces=[])
    # Unicode white space too (the library took it, as its documented
    # limit, while this message said "without white space"): a deal line
    # is the names joined by spaces, and "A\u00a0B" splits into two cards
    # in Python's str.split() and JavaScript's \s. And C1 controls.
    unicode_blanks = [["a\u00a0b"], ["\u2003"], ["a\u3000"], ["\u2028x"], ["x\ufeff"], ["a\u0085"],
                      ["\u1680"], ["a\u202fb"], ["a\u205f"], ["a\u180e"], ["a\u0080"]]
    for faces in [["x" * 32], ["\u00e9" * 16], ["a b"], ['a"'], ["a\\b"], ["a\x01"], ["a", "a"],
                  [""]] + unicode_blanks:
        with pytest.raises(ValueError, match="faces must be distinct names of 1 to 31 bytes"):
            fairshuf.card_names(faces=faces)
        with pytest.raises(ValueError, match="faces must be distinct names of 1 to 31 bytes"):
            g.deal(faces=faces)
        with pytest.raises(ValueError, match=r"without white space \(ASCII or Unicode\)"):
            fairshuf.fair_order(b"s" * 64, faces=faces)
    # what no reader splits at stays a name: a zero width space, a soft hyphen
    assert fairshuf.card_names(faces=["a\u200bb", "a\u00adb", "\u2060"]) == ["a\u200bb", "a\u00adb", "\u2060"]
    assert fairshuf.card_names(faces=["x" * 31, "\u00e9" * 15]) == ["x" * 31, "\u00e9" * 15]
    assert g.random_raw() == gen().random_raw()  # nothing drawn by the refusals


def test_forked_child_does_not_repeat_the_parent():
    """docs/PYTHON.md: a forked child's OS-keyed generator is rekeyed, so it
    does not repeat its parent's draws (words, a permutation, a shuffle, a
    range permutation's values), whichever generator; a seeded one repeats
    them, as in C."""
    def draws(g, p):
        x = np.arange(64)
        g.shuffle(x)
        return [g.random_raw() for _ in range(4)] + g.permutation(32).tolist() + \
            x.tolist() + p.next_n(8).tolist()

    for kw in ({}, {"generator": "chacha20"}, {"generator": "xoshiro256++"}, {"seed": "s"}):
        g = fairshuf.Generator(simulation=True, **kw) if kw.get("seed") else fairshuf.Generator(**kw)
        g.random_raw()  # words buffered before the fork
        p = g.range_permutation(2**40)
        next(p)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                os.write(w, json.dumps(draws(g, p)).encode())
            finally:
                os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            child = json.load(f)
        os.waitpid(pid, 0)
        mine = draws(g, p)
        if "seed" in kw:
            assert child == mine
        else:
            assert child[:4] != mine[:4] and child[4:36] != mine[4:36]
            assert child[36:100] != mine[36:100] and child[100:] != mine[100:]


def test_fair_verify_order_of_floats_refused():
    """fair_verify reads an order of face codes as ints: a float (1.0 ==
    1, so an order loaded as floats matched) or another non-integer is a
    TypeError, as a bool is; it returned True. Ints, numpy integers and
    names still verify."""
    seed = bytes(range(32))
    r = fairshuf.fair_round(seed, b"c", 3)
    assert fairshuf.fair_verify(seed, r.commitment, r.order, b"c", 3)
    assert fairshuf.fair_verify(seed, r.commitment, np.array(r.order), b"c", 3)
    assert fairshuf.fair_verify(seed, r.commitment, np.array(r.order, dtype=np.uint8), b"c", 3)
    names = fairshuf.fair_order(seed, b"c", 3, names=True)
    assert fairshuf.fair_verify(seed, r.commitment, names, b"c", 3)
    assert fairshuf.fair_verify(seed, r.commitment, np.array(names), b"c", 3)
    for bad in ([float(x) for x in r.order], np.array(r.order, dtype=np.float64),
                [complex(x) for x in r.order], [None] * 52):
        with pytest.raises(TypeError, match="order must hold face codes"):
            fairshuf.fair_verify(seed, r.commitment, bad, b"c", 3)


def test_fair_verify_bad_arguments_raise_whatever_the_commitment():
    """A bad nonce, client seed or server seed raises as fair_order does
    (and ``fairshuf verify`` says bad input) whether or not the seed hashes
    to the commitment: they were checked only after a matching commitment,
    so against a mismatched one they gave False, a verdict on arguments no
    round can have."""
    s = bytes(range(32))
    order = fairshuf.fair_order(s)
    bad_args = [
        (dict(nonce=-1), ValueError, "nonce must be in"),
        (dict(nonce=2 ** 64), ValueError, "nonce must be in"),
        (dict(nonce=True), TypeError, "nonce must be an int"),
        (dict(nonce=1.5), TypeError, "nonce must be an int"),
        (dict(client_seed=b"c" * 257), ValueError, "client_seed must be at most 256"),
        (dict(client_seed=5), TypeError, "client_seed must be bytes or str"),
    ]
    for commitment in (fairshuf.fair_commit(s), "0" * 64):
        for kw, exc, msg in bad_args:
            with pytest.raises(exc, match=msg):
                fairshuf.fair_verify(s, commitment, order, **kw)
        with pytest.raises(ValueError, match="server seed too short"):
            fairshuf.fair_verify(s[:31], commitment, order)
    # good arguments still give the verdict
    assert fairshuf.fair_verify(s, fairshuf.fair_commit(s), order)
    assert not fairshuf.fair_verify(s, "0" * 64, order)


def test_generator_used_inside_its_own_call_raises_instead_of_hanging():
    """Python code that runs inside one of a generator's calls while it
    holds the generator's lock (here numpy's __array_finalize__ of an
    ndarray subclass, run while a masked array's rows are moved) and uses
    the same generator, or closes or reads a permutation drawn from it,
    raises RuntimeError; it waited for the lock its own thread held, for
    ever. The outer shuffle still completes, and the generator and the
    permutation work afterwards. Run in a child with a timeout, so the old
    hang fails the test."""
    code = (
        "import numpy as np, fairshuf\n"
        "g = fairshuf.Generator(seed=b'reentry' * 5)\n"
        "p = g.range_permutation(100)\n"
        "inner = [lambda: g.integers(10), lambda: g.deal(),\n"
        "         lambda: g.shuffle(np.arange(5)), lambda: p.drawn,\n"
        "         lambda: next(p), lambda: p.close()]\n"
        "for f in inner:\n"
        "    seen, armed = [], []\n"
        "    class Sub(np.ndarray):\n"
        "        def __array_finalize__(self, obj):\n"
        "            if armed and not seen:  # the first view the move makes\n"
        "                try:\n"
        "                    f()\n"
        "                    seen.append('no error')\n"
        "                except RuntimeError as e:\n"
        "                    seen.append('RuntimeError')\n"
        "    m = np.ma.array(np.arange(10).view(Sub), mask=[0, 1] * 5)\n"
        "    armed.append(1)\n"
        "    g.shuffle(m)\n"
        "    armed.clear()\n"
        "    d = np.ma.getdata(m)\n"
        "    print(seen[0], sorted(d.tolist()) == list(range(10)),\n"
        "          (m.mask == (d % 2 == 1)).all())\n"
        "print(0 <= g.integers(10) < 10, next(p) in range(100), p.drawn)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], env=env, timeout=30,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:-1] == ["RuntimeError True True"] * 6 + ["True True 1"]


def test_masked_arrays_move_data_and_mask_together():
    """A masked array's data and mask move together, as numpy's shuffle
    moves them; the buffer shuffled was the data alone, so values moved
    under a mask that stayed (masked values shown, others hidden). The
    order is that of rows of the data's size (at least 8 bytes)."""
    data = np.arange(40)
    for dt in (np.int64, np.int8, np.float32, np.bool_):
        vals = data.astype(dt) if dt is not np.bool_ else data % 2 == 0
        m = np.ma.array(vals.copy(), mask=data % 3 == 0)
        gen().shuffle(m)
        assert m.mask.tolist() == [i % 3 == 0 for i in ref_perm(40)]
        assert np.ma.getdata(m).tolist() == vals[ref_perm(40)].tolist()
    a = np.arange(30).reshape(5, 6)
    for axis in (0, 1, -1):
        m = np.ma.array(a.copy(), mask=a % 4 == 0)
        gen().shuffle(m, axis=axis)
        e = a.copy()
        gen().shuffle(e, axis=axis)
        assert (np.ma.getdata(m) == e).all() and (m.mask == (e % 4 == 0)).all()
    m = np.ma.array(np.arange(10))  # no mask
    gen().shuffle(m)
    assert m.tolist() == ref_perm(10).tolist() and m.mask is np.ma.nomask
    m = np.ma.array(np.arange(10), mask=np.arange(10) < 3, hard_mask=True)
    gen().shuffle(m)
    assert (m.mask == (np.ma.getdata(m) < 3)).all() and m.count() == 7
    # numpy's shuffle keeps them together too
    r = np.ma.array(data.copy(), mask=data % 3 == 0)
    np.random.default_rng(5).shuffle(r)
    assert (r.mask == (np.ma.getdata(r) % 3 == 0)).all()
    # refusals change nothing
    m = np.ma.array(np.arange(20), mask=np.arange(20) % 2 == 0)
    with pytest.raises(fairshuf.ReachabilityError):
        fairshuf.Generator(seed=42).shuffle(m)
    assert np.ma.getdata(m).tolist() == list(range(20)) and m.mask.tolist() == [i % 2 == 0 for i in range(20)]
    m.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gen().shuffle(m)
    with pytest.raises(ValueError, match="out of bounds"):
        gen().shuffle(np.ma.array(np.arange(3), mask=[0, 1, 0]), axis=1)


def test_random_raw_too_large_names_size():
    """random_raw's size past what can be allocated is "size is too large"
    (a ValueError, as integers' and choice's); it said "length is too
    large", naming bytes()'s argument, which random_raw does not have."""
    for size in (2**61, 2**70, (2**40, 2**40)):
        for call in (gen().random_raw, lambda s: gen().integers(5, size=s),
                     lambda s: gen().choice(5, size=s)):
            with pytest.raises(ValueError, match="^size is too large$"):
                call(size)


def test_waiting_for_a_busy_generator_is_interruptible():
    """A call waiting for a Generator another thread is using (its lock)
    is interrupted by a signal whose handler raises (Ctrl-C's
    KeyboardInterrupt), as threading.Lock.acquire is; it waited,
    uninterruptibly, until the other thread's call was over (then raised,
    within milliseconds of that end)."""
    import signal

    class Interrupted(Exception):
        pass

    def handler(signum, frame):
        raise Interrupted()

    g = fairshuf.Generator()
    big = np.zeros(4 * 10**8, dtype=np.uint8)[::2]  # 2e8 strided rows: about a second
    done = []

    def work():
        g.shuffle(big)
        done.append(time.monotonic())

    worker = threading.Thread(target=work)
    main = threading.main_thread().ident
    timer = threading.Timer(0.1, signal.pthread_kill, (main, signal.SIGUSR1))
    old = signal.signal(signal.SIGUSR1, handler)
    interrupted = None
    try:
        worker.start()
        time.sleep(0.05)
        timer.start()
        try:
            g.integers(10)  # waits for the shuffle's end
            time.sleep(10)  # (a shuffle over before the signal: it lands here)
        except Interrupted:
            interrupted = time.monotonic()
    finally:
        worker.join()
        timer.join()
        signal.signal(signal.SIGUSR1, old)
    assert interrupted is not None and done
    assert done[0] - interrupted > 0.05, "the wait was not interrupted while the other call ran"
    assert 0 <= g.integers(10) < 10  # the lock is free again
    assert not big.any()  # zeros moved among themselves


# ------------------------------------------------- session 21: loose ends

NO_NUMPY_CHECKS = r'''
import array, json, sys
if "--block" in sys.argv:
    sys.modules["numpy"] = None  # import numpy fails
import fairshuf
assert fairshuf._np is None
want = json.loads(sys.stdin.read())
seed = b"no-numpy-dtypes" * 3
def gen():
    return fairshuf.Generator(seed=seed, simulation=True)
def raises(exc, f, match=""):
    try:
        f()
    except exc as e:
        assert match in str(e), (match, str(e))
        return
    raise AssertionError("%r did not raise %s" % (f, exc.__name__))
# integers: the dtype's array.array type, the values numpy's path gives
for name, lo, hi, code in want["integers"]:
    dt = {"int": int}.get(name, name)
    a = gen().integers(lo, hi, size=50, dtype=dt)
    assert isinstance(a, array.array) and a.typecode == code, (name, a.typecode, code)
    assert a.tolist() == want["values"][name], name
    assert gen().integers(lo, hi, dtype=dt) == want["values"][name][0], name
assert gen().integers(-5, 5, size=20).typecode == "q"  # int64, numpy's default
assert gen().integers(5, size=(4,)).tolist() == gen().integers(5, size=4).tolist()
for dt in (bool, "bool", "?"):
    v = gen().integers(2, dtype=dt)
    assert type(v) is bool and v == want["bool"], dt
raises(TypeError, lambda: gen().integers(2, size=3, dtype=bool), "needs numpy")
raises(TypeError, lambda: gen().integers(2, size=3, dtype="float64"))
raises(TypeError, lambda: gen().integers(2, size=3, dtype=float))
raises(TypeError, lambda: gen().integers(2, size=3, dtype=">i8" if sys.byteorder == "little" else "<i8"))
raises(TypeError, lambda: gen().integers(2, size=3, dtype="int128"))
raises(ValueError, lambda: gen().integers(300, size=3, dtype="uint8"), "does not fit")
raises(ValueError, lambda: gen().integers(-1, 5, size=3, dtype="uint32"), "does not fit")
raises(ValueError, lambda: gen().integers(2**64, size=3), "does not fit")  # int64
assert gen().integers(2**64, size=3, dtype="uint64").typecode == "Q"
raises(ValueError, lambda: gen().integers(-129, 0, dtype="int8"), "does not fit")
# sizes of other than one dimension need numpy: they were flattened
for call in (lambda s: gen().integers(5, size=s), lambda s: gen().random_raw(s),
             lambda s: gen().choice(9, size=s), lambda s: gen().choice(9, size=s, replace=False),
             lambda s: gen().choice(["a", "b", "c"], size=s)):
    for s in ((2, 3), [2, 3], (), []):
        raises(ValueError, lambda: call(s), "need numpy")
    assert len(call((4,))) == 4 and len(call([4])) == 4
assert gen().random_raw((3,)).typecode == "Q"
# choice: sequences only, as numpy takes them, along axis 0
for bad in ("abc", b"abc", {1, 2}, {1: 2}, iter([1, 2]), (x for x in [1])):
    raises(ValueError, lambda: gen().choice(bad, 2), "a must be a sequence")
for ok in ([1, 2, 3], (1, 2, 3), range(1, 4), array.array("q", [1, 2, 3]), bytearray([1, 2, 3])):
    assert set(gen().choice(ok, 5)) <= {1, 2, 3}
raises(ValueError, lambda: gen().choice([[1, 2], [3, 4]], 2, axis=1), "needs numpy")
assert gen().choice([[1, 2], [3, 4]], 1, axis=0)[0] in ([1, 2], [3, 4])
# permutation: a memoryview's copy keeps its format and shape (it was
# its bytes, shuffled one by one), a tuple or range gives a list
ref = list(gen().permutation(3))
q = array.array("q", [10**12, -7, 2**40])
p = gen().permutation(memoryview(q))
assert isinstance(p, memoryview) and p.format == "q" and p.tolist() == [q[i] for i in ref]
m2 = memoryview(bytearray(range(6))).cast("B", (3, 2))
p = gen().permutation(m2)
assert p.shape == (3, 2) and p.tolist() == [m2.tolist()[i] for i in ref]
assert m2.tolist() == [[0, 1], [2, 3], [4, 5]]
assert gen().permutation((7, 8, 9)) == [(7, 8, 9)[i] for i in ref]
assert gen().permutation(range(3)) == ref
raises(ValueError, lambda: gen().choice(m2, 2), "1-d memoryview")
print("ok")
'''


def _no_numpy_expected():
    """The inputs and numpy-path values the no-numpy checks compare with."""
    cases = [("int8", -100, 100, "b"), ("uint8", 0, 256, "B"), ("int16", -3000, 3000, "h"),
             ("uint16", 0, 60000, "H"), ("int32", -2**31, 2**31, "i"), ("uint32", 5, 2**32, "I"),
             ("int64", -2**63, 2**63, "q"), ("uint64", 0, 2**64, "Q"), ("i1", -3, 3, "b"),
             ("u2", 0, 9, "H"), ("<i4", -9, 9, "i"), ("=u8", 1, 2**64, "Q"), ("int", -5, 5, "q")]
    seed = b"no-numpy-dtypes" * 3
    vals = {}
    for name, lo, hi, _ in cases:
        dt = {"int": int}.get(name, name)
        vals[name] = fairshuf.Generator(seed=seed, simulation=True).integers(
            lo, hi, size=50, dtype=dt).tolist()
    b = fairshuf.Generator(seed=seed, simulation=True).integers(2, dtype=bool)
    return json.dumps({"integers": cases, "values": vals, "bool": b})


def _numpy_less_pythons():
    """(argv, label, PYTHONPATH) of interpreters to run the checks in: this one with
    numpy blocked, and the first python3 on PATH when it has no numpy and
    can load this extension (same ABI), as the package runs there."""
    full = os.pathsep.join(sys.path)
    runs = [([sys.executable, "-c", NO_NUMPY_CHECKS, "--block"], "numpy blocked", full)]
    other = shutil.which("python3")
    if other and os.path.realpath(other) != os.path.realpath(sys.executable):
        probe = subprocess.run(
            [other, "-c", "import importlib.util, sysconfig; "
             "print(importlib.util.find_spec('numpy') is None, sysconfig.get_config_var('SOABI'))"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        import sysconfig
        if probe.returncode == 0 and probe.stdout.split() == [b"True",
                                                             sysconfig.get_config_var("SOABI").encode()]:
            # the package alone on its path (not this python's numpy)
            runs.append(([other, "-c", NO_NUMPY_CHECKS], other,
                         os.path.dirname(os.path.dirname(os.path.abspath(fairshuf.__file__)))))
    return runs


def test_without_numpy_dtype_and_size():
    """Without numpy, integers honours dtype (an array.array of its type,
    the values numpy's path gives; bool with a size, non-native byte
    orders and non-integer dtypes are a TypeError saying so) and checks
    the range against it; a size of other than one dimension is a
    ValueError saying numpy is needed (integers, random_raw and choice
    ignored dtype and flattened the shape); choice takes sequences alone,
    along axis 0, as numpy does (it drew a str's characters, a dict's
    keys). Run with numpy blocked and in a numpy-less python3 on PATH when
    there is one."""
    expected = _no_numpy_expected()
    for argv, label, path in _numpy_less_pythons():
        out = subprocess.run(argv, input=expected.encode(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=path))
        assert out.stdout.strip() == b"ok", (label, out.stderr.decode()[-2000:])


def test_info_is_read_under_the_lock():
    """_info() reads the rng under the generator's lock: while another
    thread drew (the GIL released), it read the rng's word count and
    position half-way through a refill, and bits_used went backwards. A
    race: on the old code most draws of 2e7 words showed it (tens of times
    each); up to six draws are watched, about 0.3 s each."""
    g = gen(b"info-lock" * 4)
    reads = back = last = 0
    for _ in range(6):
        t = threading.Thread(target=g.random_raw, args=(2 * 10**7,))
        t.start()
        while t.is_alive():
            u = g._info()["bits_used"]
            reads += 1
            if u < last or u % 64:
                back += 1
            last = max(last, u)
        t.join()
        assert back == 0, (reads, back)
    assert reads > 1000 and g._info()["bits_used"] == 6 * 64 * 2 * 10**7 >= last


def test_counts_and_axes_past_ssize_t_are_value_errors():
    """An int past Py_ssize_t (2**64, 2**100) as a count or an axis is a
    ValueError, as a smaller one out of range is (docs/PYTHON.md
    "Exceptions"; numpy says ValueError for sizes past its limit); deal's
    players, cards and burn, shuffle's axis and threads, permutation's
    axis and card_names' jokers raised OverflowError."""
    g = gen()
    for big in (2**64, 2**100):
        for what, call in (("players", lambda: g.deal(players=big)),
                           ("cards", lambda: g.deal(cards=big)),
                           ("burn", lambda: g.deal(burn=big)),
                           ("axis", lambda: g.shuffle(np.arange(5), axis=big)),
                           ("axis", lambda: g.shuffle(np.arange(5), axis=-big)),
                           ("axis", lambda: g.shuffle([1, 2, 3], axis=big)),
                           ("axis", lambda: g.shuffle(bytearray(5), axis=big)),
                           ("axis", lambda: g.permutation(np.arange(5), axis=big)),
                           ("axis", lambda: g.permutation([1, 2], axis=big)),
                           ("threads", lambda: g.shuffle(np.arange(5), threads=big)),
                           ("jokers", lambda: fairshuf.card_names(jokers=big)),
                           ("size", lambda: g.integers(5, size=big)),
                           ("size", lambda: g.random_raw(big)),
                           ("size", lambda: g.choice(5, size=big))):
            with pytest.raises(ValueError) as e:
                call()
            assert not isinstance(e.value, OverflowError)
            assert what in str(e.value) or "too large" in str(e.value), (what, e.value)
    # jokers is not used with custom faces: any count, as deal takes it
    assert fairshuf.card_names(jokers=2**64, faces=["x", "y"]) == ["x", "y"]
    assert sorted(g.deal(jokers=2**64, faces=["x", "y"], names=True)) == ["x", "y"]
    assert g.random_raw() >= 0  # nothing was drawn or locked


def test_faces_must_be_a_sequence_of_names():
    """faces="AKQ" is refused (TypeError) everywhere faces is taken: it was
    three faces "A", "K", "Q" in deal and card_names (and a str of one name
    the same); one-character faces are list("AKQ"). An iterator of names
    is read once, so fair_order(..., names=True) names its cards (it
    counted them and found none left: "faces must name at least one
    card"), and the rounds check the names as deal does (duplicates gave
    an order)."""
    s = bytes(range(40))
    g = gen()
    for faces in ("AKQ", "A", b"AKQ", bytearray(b"AK")):
        for call in (lambda: g.deal(faces=faces), lambda: fairshuf.card_names(faces=faces),
                     lambda: fairshuf.fair_order(s, faces=faces),
                     lambda: fairshuf.fair_round(s, faces=faces),
                     lambda: fairshuf.fair_verify(s, fairshuf.fair_commit(s), [0], faces=faces),
                     lambda: fairshuf.fair_seed_min(faces=faces),
                     lambda: fairshuf.fair_server_seed(faces=faces)):
            with pytest.raises(TypeError, match="faces must be a sequence of names"):
                call()
    assert sorted(g.deal(faces=list("AKQ"))) == ["A", "K", "Q"]
    assert fairshuf.card_names(faces=list("AKQ")) == ["A", "K", "Q"]
    assert fairshuf.card_names(faces=("A", "K")) == ["A", "K"]
    names = fairshuf.fair_order(s, faces=iter(["ace", "king"]), names=True)
    assert sorted(names) == ["ace", "king"]
    assert names == fairshuf.fair_order(s, faces=["ace", "king"], names=True)
    r = fairshuf.fair_round(s, faces=(x for x in ["ace", "king"]), names=True)
    assert r.order == names
    assert fairshuf.fair_verify(s, r.commitment, names, faces=iter(["ace", "king"]))
    for call in (lambda: fairshuf.fair_order(s, faces=["a", "a"]),
                 lambda: fairshuf.fair_seed_min(faces=["a", "b c"]),
                 lambda: g.deal(faces=["a", "a"])):
        with pytest.raises(ValueError, match="faces must be distinct names"):
            call()


def test_integers_and_random_raw_make_no_second_array():
    """integers writes its values at the dtype's width and random_raw its
    words into the array's own buffer: integers(0, 10, size=n) made an
    uint64 array and converted it (twice the memory, a copy more), a
    uint8 one 9 bytes a value, and random_raw copied the bytes bytes()
    gave. The values are those of the 64-bit path, converted."""
    n = 10**6
    for call, width in ((lambda: gen().integers(0, 10, size=n), 8),
                        (lambda: gen().integers(-5, 5, size=n), 8),
                        (lambda: gen().integers(0, 256, size=n, dtype=np.uint8), 1),
                        (lambda: gen().integers(-10, 10, size=n, dtype=np.int16), 2),
                        (lambda: gen().random_raw(n), 8)):
        call()
        tracemalloc.start()
        try:
            a = call()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert a.size == n and peak < width * n * 1.2, (peak, width * n)
    for dt, lo, hi in ((np.uint8, 0, 256), (np.int8, -128, 128), (np.uint16, 0, 65536),
                       (np.int16, -5, 5), (np.uint32, 7, 2**32), (np.int32, -2**31, 2**31),
                       (np.int64, 0, 10), (np.int64, -2**63, 2**63), (np.uint64, 0, 2**64),
                       (np.bool_, 0, 2), (np.dtype(">i4"), -9, 9), (np.dtype(">u8"), 3, 2**64),
                       (np.intc, -3, 3), (np.uint, 0, 99)):
        want = gen().integers(lo, hi, size=(7, 9), dtype=np.uint64 if lo >= 0 else np.int64)
        got = gen().integers(lo, hi, size=(7, 9), dtype=dt)
        assert got.dtype == np.dtype(dt) and got.shape == (7, 9)
        assert got.tolist() == want.astype(dt).tolist(), dt
    words = gen().random_raw((3, 5))
    assert words.flags.writeable and words.dtype == np.uint64 and words.shape == (3, 5)
    b = gen().bytes(120)
    assert words.tobytes() == b and words.ravel().tolist() == \
        [int.from_bytes(b[i:i + 8], "little") for i in range(0, 120, 8)]


def test_masked_small_rows_get_the_unmasked_order():
    """A masked array of small elements gets the order of the same array
    without a mask: its rows' indices are kept in rows of its own size
    when they fit (n <= 256**rowbytes), else in rows of the index's bytes.
    Rows of 8 bytes at least gave another order wherever the library's
    kernel for n rows of 8 bytes differs from that of the data's size
    (1e6 int8: 8 MB of rows, the forward Fisher-Yates of stream version 3,
    against 1 MB, the backward one)."""
    cases = [(np.int8, 1000, 1), (np.int8, 10**6, 3), (np.int16, 70000, 3),
             (np.float32, 2 * 10**6, 3), (np.float32, 2 * 10**6, 2), (np.int8, 4 * 10**6, 1),
             (np.float16, 2**21, 3), (np.int8, 2**21, 3), (np.uint8, 300, 2)]
    for dt, n, v in cases:
        data = (np.arange(n) % 251).astype(dt)  # the mask is a function of the value
        m = np.ma.array(data.copy(), mask=np.arange(n) % 251 % 3 == 0)
        fairshuf.Generator(seed=b"masked" * 6, simulation=True, stream_version=v).shuffle(m)
        u = data.copy()
        fairshuf.Generator(seed=b"masked" * 6, simulation=True, stream_version=v).shuffle(u)
        assert (u == np.ma.getdata(m)).all(), (dt, n, v)
        assert (m.mask == (np.ma.getdata(m).astype(np.int64) % 256 % 3 == 0)).all(), (dt, n, v)
    # rows of a 2-d array: 3 int8 (3 bytes) a row
    a = np.arange(3 * 70000, dtype=np.int64).reshape(70000, 3).astype(np.int8)
    m = np.ma.array(a.copy(), mask=a % 5 == 0)
    gen().shuffle(m)
    e = a.copy()
    gen().shuffle(e)
    assert (np.ma.getdata(m) == e).all() and (m.mask == (e % 5 == 0)).all()


def test_names_with_a_nul_refused():
    """A face name or notation holding a NUL is refused (ValueError): the
    C string ended there, so the face "a\\0b" was dealt and named "a",
    and notation="poker\\0x" was "poker". A NUL is a control character,
    which the library refuses in a name."""
    s = bytes(range(40))
    for faces in (["a\x00b"], ["x", "a\x00"], ["\x00"]):
        for call in (lambda: gen().deal(faces=faces), lambda: fairshuf.card_names(faces=faces),
                     lambda: fairshuf.fair_order(s, faces=faces),
                     lambda: fairshuf.fair_seed_min(faces=faces)):
            with pytest.raises(ValueError, match="faces must be distinct names"):
                call()
    for notation in ("poker\x00x", "unicode\x00", "\x00"):
        with pytest.raises(ValueError, match="notation must be"):
            fairshuf.card_names(notation=notation)
        with pytest.raises(ValueError, match="notation must be"):
            gen().deal(notation=notation)
    assert fairshuf.card_names(faces=["a", "b"], notation="poker") == ["a", "b"]


def test_faces_as_a_set_refused():
    """faces as a set is a TypeError: face i is the set's i-th name, and a
    set of str is iterated in an order that changes between runs (hash
    randomization), so Generator(seed=S).deal(faces={...}) named its cards
    differently from one run to the next."""
    s = bytes(range(40))
    for faces in ({"a", "b"}, frozenset(["x"])):
        for call in (lambda: gen().deal(faces=faces), lambda: fairshuf.card_names(faces=faces),
                     lambda: fairshuf.fair_order(s, faces=faces, names=True),
                     lambda: fairshuf.fair_seed_min(faces=faces)):
            with pytest.raises(TypeError, match="ordered sequence"):
                call()
    assert sorted(gen().deal(faces=dict.fromkeys(["a", "b"]))) == ["a", "b"]  # dicts are ordered


def test_fair_round_errors_say_what_is_wrong():
    """A client seed past 256 bytes says so (it was the library's "invalid
    argument"), and a short server seed says how long it must be (it said
    only "server seed too short for this game"); 256 bytes and
    fair_seed_min bytes are taken."""
    s = bytes(range(40))
    for call in (lambda c: fairshuf.fair_order(s, c), lambda c: fairshuf.fair_round(s, c),
                 lambda c: fairshuf.fair_verify(s, fairshuf.fair_commit(s), [0], c)):
        with pytest.raises(ValueError, match="client_seed must be at most 256 bytes, not 257"):
            call(b"c" * 257)
        with pytest.raises(ValueError, match="at most 256 bytes, not 300"):
            call("c" * 300)
        call(b"c" * 256)
    for decks, jokers in ((1, 0), (8, 2)):
        least = fairshuf.fair_seed_min(decks, jokers)
        with pytest.raises(ValueError, match="server seed too short for this game: %d bytes, "
                                             "at least %d" % (least - 1, least)):
            fairshuf.fair_order(b"s" * (least - 1), decks=decks, jokers=jokers)
        assert len(fairshuf.fair_order(b"s" * least, decks=decks, jokers=jokers)) == 52 * decks + jokers * decks


def test_fair_client_seed_is_text_as_every_verifier_takes_it(command):
    """A client seed whose bytes are no UTF-8 (or a str with a lone
    surrogate, which has none) is a ValueError in fair_order, fair_round
    and fair_verify, as fairshuf deal and fairshuf verify refuse it, the
    library (FSH_EINVAL) too: the package dealt such a round, and no
    verifier could check it. A NUL and characters of every length are text,
    and their rounds verify through the command."""
    s = bytes(range(32))
    c = fairshuf.fair_commit(s)
    for bad in (b"a\xff", b"Zo\xeb", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\xf0\x9f\x82", b"\x80", bytearray(b"\xfe"), memoryview(b"x\xff"), "a\ud800"):
        for call in (lambda: fairshuf.fair_order(s, bad), lambda: fairshuf.fair_round(s, bad),
                     lambda: fairshuf.fair_verify(s, c, [0], bad, partial=True),
                     lambda: fairshuf.fair_verify(s, "0" * 64, [0], bad, partial=True)):
            with pytest.raises(ValueError, match="client_seed must be UTF-8 text"):
                call()
        with pytest.raises(ValueError, match="invalid argument"):  # the library itself
            fairshuf._fairshuf.fair_order(52, 1, s, bytes(bad) if not isinstance(bad, str)
                                          else b"a\xed\xa0\x80", 0)
        if isinstance(bad, bytes) and b"\0" not in bad:
            p = subprocess.run([command, "verify", "--server-seed=" + s.hex(), "--commitment=" + c,
                                b"--client-seed=" + bad], capture_output=True)
            assert p.returncode == 1 and b"not valid UTF-8" in p.stderr
    for good in (b"", b"a\0b", "Zo\u00eb \U0001f0a1".encode(), "\u4e2d".encode(), "x" * 256):
        r = fairshuf.fair_round(s, good, 3, names=True, notation="poker")
        assert fairshuf.fair_verify(s, c, r.order, good, 3, notation="poker")
        if isinstance(good, str) or b"\0" not in good:
            p = subprocess.run([command, "verify", "--server-seed=" + s.hex(), "--commitment=" + c,
                                b"--client-seed=" + (good.encode() if isinstance(good, str) else good),
                                "--nonce=3"] + r.order, capture_output=True)
            assert p.returncode == 0 and p.stdout.startswith(b"VALID"), p


def test_fair_seeds_one_input_rule():
    """Every fair function takes a seed the same way (docs/PYTHON.md): bytes,
    bytearray or any buffer of single bytes (memoryview, array('B'), a
    uint8 or int8 numpy array) of any layout, read in its logical order (a
    strided view, a Fortran-order array: as .tobytes() gives it); a server
    seed also as a str of hex digits. A buffer of wider items (an int32
    array, array('i')) is a TypeError everywhere: its bytes depend on the
    machine's byte order. fair_commit hashed an int32 array's raw bytes and
    refused a strided memoryview, a Fortran-order array and a hex str,
    all of which fair_order and fair_verify took (or refused) otherwise."""
    import array
    raw = bytes((7 * k + 1) % 256 for k in range(64))
    u8 = np.frombuffer(raw, dtype=np.uint8)
    fortran = np.asfortranarray(u8.reshape(8, 8))
    views = [raw, bytearray(raw), memoryview(raw), u8, u8.view(np.int8), array.array("B", raw),
             memoryview(raw + raw)[::2], u8.reshape(8, 8)[:, ::1], fortran, memoryview(fortran),
             raw.hex(), raw.hex().upper()]
    for v in views:
        want = bytes(memoryview(v).tobytes()) if not isinstance(v, str) else raw
        assert fairshuf.fair_commit(v) == fairshuf.fair_commit(want), type(v)
        assert fairshuf.fair_order(v) == fairshuf.fair_order(want)
        r = fairshuf.fair_round(v, "p", 1)
        assert r.commitment == fairshuf.fair_commit(want) and r.order == fairshuf.fair_order(want, "p", 1)
        assert fairshuf.fair_verify(v, r.commitment, r.order, "p", 1)
    text = b"player one, seat 3"
    t8 = np.frombuffer(text, dtype=np.uint8)
    for v in (bytearray(text), memoryview(text), t8, array.array("B", text),
              memoryview(bytes(x for c in text for x in (c, 0)))[::2],
              np.asfortranarray(t8.reshape(2, 9)).T.T):
        assert fairshuf.fair_order(raw, v, 2) == fairshuf.fair_order(raw, memoryview(v).tobytes(), 2)
        assert fairshuf.fair_round(raw, v, 2).client_seed == memoryview(v).tobytes()
    # A strided view and a Fortran-order array are read in logical order.
    assert fairshuf.fair_commit(memoryview(raw + raw)[::2]) == fairshuf.fair_commit((raw + raw)[::2])
    assert fairshuf.fair_commit(fortran) == fairshuf.fair_commit(fortran.tobytes(order="C"))
    wide = [u8.view(np.int32), np.arange(16, dtype=np.int32), u8.view(np.uint16),
            array.array("i", range(16)), memoryview(raw).cast("I"), u8.astype(bool)]
    for v in wide:
        for call in (lambda: fairshuf.fair_commit(v), lambda: fairshuf.fair_order(v),
                     lambda: fairshuf.fair_round(v), lambda: fairshuf.fair_order(raw, v),
                     lambda: fairshuf.fair_verify(v, "0" * 64, [0], partial=True),
                     lambda: fairshuf.fair_verify(raw, "0" * 64, [0], v, partial=True)):
            with pytest.raises(TypeError, match="single bytes"):
                call()
    for v in (5, 1.5, None, ["a"]):
        with pytest.raises(TypeError):
            fairshuf.fair_commit(v)
    with pytest.raises(ValueError, match="hex digits"):
        fairshuf.fair_commit("abc")


def test_generator_seed_follows_the_fair_seed_rule():
    """Generator(seed=...) reads bytes and buffers by the fair functions'
    rule (docs/PYTHON.md): bytes, bytearray or any buffer of single bytes
    (memoryview, array('B'), a uint8 or int8 numpy array) of any layout,
    read in logical order; a buffer of wider items is a TypeError, since
    its bytes depend on the machine's byte order. It took a memoryview of
    int32 items as its raw bytes (another stream on a big-endian machine),
    refused array('B') and a uint8 array, and read no other buffer; ints,
    numpy integers (their decimal string) and str keep their meaning."""
    import array
    raw = bytes((11 * k + 5) % 256 for k in range(40))
    u8 = np.frombuffer(raw, dtype=np.uint8)

    def words(seed):
        return fairshuf.Generator(seed=seed, simulation=True).random_raw(4).tolist()
    want = words(raw)
    for v in (bytearray(raw), memoryview(raw), u8, u8.view(np.int8), array.array("B", raw),
              memoryview(bytes(x for c in raw for x in (c, 0)))[::2], u8.reshape(5, 8),
              np.asfortranarray(u8.reshape(5, 8)).T.T,
              memoryview(raw).cast("c")):
        assert words(v) == want, type(v)
    # a Fortran-order array, read in its logical (C) order as .tobytes() gives it
    f = np.asfortranarray(u8.reshape(5, 8))
    assert words(f) == words(f.tobytes(order="C")) == want
    for v in (memoryview(raw).cast("I"), memoryview(bytearray(raw)).cast("H"), u8.view(np.int32),
              array.array("i", range(10)), np.arange(4, dtype=np.uint16), u8.astype(bool)):
        with pytest.raises(TypeError, match="single bytes"):
            fairshuf.Generator(seed=v, simulation=True)
    # ints and numpy integers are their decimal strings, not their bytes
    assert words(42) == words(np.int64(42)) == words(np.uint8(42)) == words("42") == words(b"42")
    for v in (True, np.bool_(True), 1.5, ["a"], object()):
        with pytest.raises(TypeError, match="seed must be None, bytes, str or int"):
            fairshuf.Generator(seed=v, simulation=True)


def test_fair_verify_reads_card_names_in_either_notation_as_the_command(command):
    """fair_verify reads names of the standard set in either notation, as
    fairshuf verify reads its CARDs ("As" or "A\u2660", "Th" or "10\u2665",
    mixed in one order), whatever notation says: a round printed in poker
    notation and checked with the default notation="unicode" (or the
    other way round) gave a silent False."""
    s = bytes(range(40))
    c = fairshuf.fair_commit(s)
    for jokers in (0, 2):
        poker = fairshuf.fair_order(s, "p", 4, jokers=jokers, names=True, notation="poker")
        uni = fairshuf.fair_order(s, "p", 4, jokers=jokers, names=True)
        mixed = [u if k % 2 else p for k, (p, u) in enumerate(zip(poker, uni))]
        for order in (poker, uni, mixed):
            for notation in ("unicode", "poker"):
                assert fairshuf.fair_verify(s, c, order, "p", 4, jokers=jokers, notation=notation)
                assert fairshuf.fair_verify(s, c, order[:5], "p", 4, jokers=jokers,
                                            notation=notation, partial=True)
            p = subprocess.run([command, "verify", "--server-seed=" + s.hex(), "--commitment=" + c,
                                "--client-seed=p", "--nonce=4", "--jokers=%d" % jokers, "--"] + order,
                               capture_output=True)
            assert p.returncode == 0 and p.stdout.startswith(b"VALID"), p
        # a card changed is still False, in either notation
        bad = [poker[1]] + poker[1:]
        assert not fairshuf.fair_verify(s, c, bad, "p", 4, jokers=jokers)
        assert not fairshuf.fair_verify(s, c, [uni[1]] + uni[1:], "p", 4, jokers=jokers,
                                        notation="poker")


def test_masked_shuffles_from_two_threads_keep_every_value():
    """Two threads shuffling one masked array through one generator run
    one at a time, as every call on a generator does: the keys' shuffle
    took the lock but numpy's move of the rows came after it, outside,
    and with the GIL released by numpy two moves interleaved: values were
    lost and the mask parted from the data."""
    g = gen(b"masked-threads" * 3)
    n = 2 * 10**6
    m = np.ma.array(np.arange(n, dtype=np.int64), mask=np.arange(n) % 2 == 0)

    def work():
        for _ in range(8):
            g.shuffle(m)

    ts = [threading.Thread(target=work) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    d = np.ma.getdata(m)
    assert (np.sort(d) == np.arange(n)).all()
    assert (m.mask == (d % 2 == 0)).all()
    # 16 shuffles in some order: the result of 16 in a row
    e = np.arange(n, dtype=np.int64)
    h = gen(b"masked-threads" * 3)
    for _ in range(16):
        h.shuffle(e)
    assert (d == e).all()
