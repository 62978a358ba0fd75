# SPDX-License-Identifier: MIT
"""Differential and hostile tests of the provably fair scheme's
implementations (run by tests/fair/test_fair_diff.sh, which documents it).

Usage: fair_diff.py FAIRSHUF VERIFY_DEAL_PY TMPDIR PKG_LIB|- HELPER|- ROUNDS BROWSER_VECTORS

Prints one line a check: "ok NAME", "not ok NAME: why" or "skip NAME: why",
and writes the vectors for web/verify.html (tests/fair/browser.mjs's format)
to BROWSER_VECTORS, each with the verdict every other verifier agreed on.

A verdict is VALID, NOT VALID or bad (bad input: a message and exit status
1, nothing on standard output that says VALID); anything else (a traceback,
a signal, another status) is a crash and never agrees with anything.
"""

import contextlib
import functools
import hashlib
import importlib.util
import io
import json
import locale
import os
import random
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside examples/verify_deal.py
FS, VD, TMP, PKG, HELPER, ROUNDS, VECTORS = sys.argv[1:8]
ROUNDS = int(ROUNDS)
# A fixed seed: the same rounds every run (FSH_FAIR_DIFF_SEED picks others).
RND = random.Random(int(os.environ.get("FSH_FAIR_DIFF_SEED", "20261129")))

spec = importlib.util.spec_from_file_location("verify_deal", VD)
vd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vd)
# The seed rule's exact count is the slow part of a 1000-deck round; the
# same answer every time (deal_order looks seed_min up in its module).
vd.seed_min = functools.lru_cache(maxsize=None)(vd.seed_min)

pkg = None
if PKG != "-":
    sys.path.insert(0, PKG)
    try:
        import fairshuf as pkg
    except ImportError as e:
        print("skip the Python package: cannot import it from %s (%s)" % (PKG, e))
else:
    print("skip the Python package: not built beside %s" % FS)

results = {"ok": 0, "not ok": 0}


def report(name, good, why=""):
    results["ok" if good else "not ok"] += 1
    print(("ok %s" % name) if good else ("not ok %s: %s" % (name, why)))


# ---- the verifiers, each giving a verdict ----------------------------------

def c_verify(args, stdin=None):
    p = subprocess.run([FS, "verify"] + args, input=stdin, capture_output=True)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if p.returncode == 0 and out.startswith("VALID: ") and not err:
        return "VALID", out
    if p.returncode == 1 and out.startswith("NOT VALID: ") and not err:
        return "NOT VALID", out
    if p.returncode == 1 and not out and err.startswith("fairshuf verify: "):
        return "bad", err
    return "crash (exit %d)" % p.returncode, (out + err)[-400:]


def py_verdict(rc, out, err):
    if "Traceback" in err:
        return "crash (traceback)", err[-400:]
    lines = out.splitlines()
    if rc == 0 and lines and lines[-1].startswith("VALID: ") and not err:
        return "VALID", out
    if rc == 1 and any(l.startswith("NOT VALID: ") for l in lines) and not err:
        return "NOT VALID", out
    if rc == 1 and err.startswith(("verify_deal.py: ", "usage: verify_deal.py")) and \
            not any("VALID" in l for l in lines):
        return "bad", err
    return "crash (exit %s)" % rc, (out + err)[-400:]


def py_run(args):
    """verify_deal.py's main(argv) in this process (fast, and what a player
    gets for the same arguments): (exit status, stdout, stderr), or a
    crash's description as the status and None."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = vd.main(args)
    except SystemExit as e:
        rc = e.code
    except Exception as e:  # noqa: BLE001 - a crash is what we look for
        return "crash (%s: %s)" % (type(e).__name__, e), None, None
    return rc, out.getvalue(), err.getvalue()


def py_verify(args):
    """verify_deal.py's verdict for args."""
    rc, out, err = py_run(args)
    if out is None:
        return rc, ""
    return py_verdict(rc, out, err)


def py_output(args):
    """What verify_deal.py prints for args (in this process), or why not."""
    rc, out, err = py_run(args)
    if out is None:
        return rc
    return out if rc == 0 else "exit %s: %s" % (rc, err)


def py_verify_process(args, stdin=None):
    """verify_deal.py as a player runs it: argv and files as bytes."""
    p = subprocess.run([sys.executable, VD] + args, input=stdin, capture_output=True)
    return py_verdict(p.returncode, p.stdout.decode("utf-8", "replace"),
                      p.stderr.decode("utf-8", "replace"))


def utf8_locale():
    """A UTF-8 locale this system has (C.UTF-8, else en_US.UTF-8), or None."""
    was = locale.setlocale(locale.LC_ALL)
    for name in ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"):
        try:
            locale.setlocale(locale.LC_ALL, name)
        except locale.Error:
            continue
        locale.setlocale(locale.LC_ALL, was)
        return name
    return None


# The command quotes 'like this' in the C locale, ‘like this’ in a
# UTF-8 one (and keeps the printable multibyte characters there): every
# answer is compared in both.
UTF8 = utf8_locale()
LOCALES = ["C"] + ([UTF8] if UTF8 else [])
# The locales same_answer compares in: both, but in the rounds (their
# lines are VALID, NOT VALID and counts, their messages few) one round in
# 8 in the UTF-8 locale, for the time. Under the sanitizers (a command
# takes about 0.1 s to start there) only quoting() compares in both: it
# still runs the command's quoting in the UTF-8 locale, every value, file
# name and JSON refusal kind once; everything else is compared in C.
SAN = bool(os.environ.get("FSH_SANITIZE"))
answer_locales = LOCALES[:1] if SAN else LOCALES
if not UTF8:
    print("skip verify_deal.py's answers in a UTF-8 locale: none installed (C.UTF-8, en_US.UTF-8)")


def c_answer(args, loc="C"):
    """fairshuf verify's whole answer in locale loc: (exit status, stdout,
    stderr); stdout and stderr as text (bytes that are no UTF-8 as
    surrogate escapes, as Python's own output carries them)."""
    env = dict(os.environ, LC_ALL=loc)
    p = subprocess.run([FS, "verify"] + args, capture_output=True, env=env)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), \
        p.stderr.decode("utf-8", "surrogateescape")


def py_answer(args, loc="C"):
    """verify_deal.py's answer (in this process, in locale loc) as fairshuf
    verify's: its own lines (the commitment and the deal order it shows)
    left out, its name as the command's."""
    old, was = os.environ.get("LC_ALL"), locale.setlocale(locale.LC_ALL)
    os.environ["LC_ALL"] = loc  # main() reads the locale as the command does
    try:
        rc, out, err = py_run(args)
    finally:
        if old is None:
            del os.environ["LC_ALL"]
        else:
            os.environ["LC_ALL"] = old
        locale.setlocale(locale.LC_ALL, was)  # as main() found it
    if out is None:
        return rc, "", ""
    out = "".join(l for l in out.splitlines(True)
                  if not l.startswith(("commitment:  ", "deal order:  ")))
    err = err.replace("verify_deal.py: ", "fairshuf verify: ").replace(
        "Try 'verify_deal.py --help'", "Try 'fairshuf verify --help'")
    return rc, out, err


def same_answer(name, args, want=None, says=None, utf8_says=None):
    """fairshuf verify and verify_deal.py give the same exit status, the
    same VALID or NOT VALID lines and the same message for args, byte for
    byte, in the C locale and in a UTF-8 one (and the verdict want, if
    given; with says, a line of the C locale's answer that starts
    "fairshuf verify: " or "NOT VALID: " then says; utf8_says, the same in
    the UTF-8 locale)."""
    for loc in answer_locales:
        c, p = c_answer(args, loc), py_answer(args, loc)
        rc, out, err = c
        verdict = "VALID" if rc == 0 and out.startswith("VALID: ") and not err else \
            "NOT VALID" if rc == 1 and out.startswith("NOT VALID: ") and not err else \
            "bad" if rc == 1 and not out and err.startswith("fairshuf verify: ") else "exit %d" % rc
        s = [says] if loc == "C" else [utf8_says] if utf8_says is not None else \
            [says, re.sub(r"'([^']*)'", "\u2018\\1\u2019", says or "")]  # quote()'s or getopt's
        good = c == p and (want is None or verdict == want) and \
            (s[0] is None or any(l.startswith(("fairshuf verify: " + x, "NOT VALID: " + x))
                                 for l in (out + err).splitlines() for x in s))
        report(name if loc == "C" else "%s (%s)" % (name, loc), good,
               "want %s, C %r, py %r" % (want, c, p))
    return verdict


def styled(args, rnd):
    """args ("--name=value" each, then the cards) written as a player might
    write them, in the ways getopt_long reads alike: "--name value", the
    name abbreviated to a prefix that names one option, options after the
    cards."""
    names = ["server-seed-file", "server-seed", "commitment", "client-seed", "nonce", "decks",
             "jokers", "burn", "players", "cards", "layout", "hand", "rest", "json"]
    # the shortest prefix of each that no other option of fairshuf verify shares
    short = {"server-seed-file": "server-seed-", "server-seed": "server-seed",
             "commitment": "co", "client-seed": "cl", "nonce": "n", "decks": "d",
             "jokers": "jo", "burn": "b", "players": "pl", "cards": "ca", "layout": "l",
             "hand": "ha", "rest": "r", "json": "js"}
    opts, cards = [], []
    for k, a in enumerate(args):
        if a == "--":
            cards = args[k + 1:]
            break
        name, eq, value = a[2:].partition("=")
        assert name in names, a
        n = name if rnd.random() < 0.5 else name[:rnd.randint(len(short[name]), len(name))]
        if not eq:  # an option without a value (--rest)
            opts.append(["--" + n])
            continue
        opts.append(["--%s=%s" % (n, value)] if rnd.random() < 0.5 else ["--" + n, value])
    if cards and not any(c.startswith("-") for c in cards) and rnd.random() < 0.5:
        cut = rnd.randint(0, len(cards))
        out = cards[:cut]
        for o in opts:
            out += o
        return out + ["--"] + cards[cut:]
    return [x for o in opts for x in o] + ["--"] + cards


def pkg_verify(seed, commitment, order, client, nonce, decks, jokers, **shape):
    """fairshuf.fair_verify: True is VALID, False NOT VALID, ValueError bad.
    shape: its burn, players, cards, layout, hand, rest and partial."""
    try:
        ok = pkg.fair_verify(seed, commitment, order, client, nonce, decks=decks,
                             jokers=jokers, notation="poker", **shape)
    except (ValueError, TypeError) as e:
        return "bad", str(e)
    except Exception as e:  # noqa: BLE001
        return "crash (%s: %s)" % (type(e).__name__, e), ""
    return ("VALID" if ok is True else "NOT VALID" if ok is False else "crash (%r)" % ok), ""


def pkg_exact(name, verdict, want, says=None):
    """The package's verdict is exactly want (its NOT VALID is False, not
    a raise; its bad is a ValueError whose message holds says)."""
    good = verdict[0] == want and (says is None or says in verdict[1])
    report(name, good, "want %s%s, the package: %s %s" % (want, " (%s)" % says if says else "",
                                                           verdict[0], verdict[1][:200]))


# ---- rounds ----------------------------------------------------------------

def names(faces):
    return [vd.card_name(f) for f in faces]


def ref_order(seed, client, nonce, decks, jokers):
    """The deal order by the text of docs/FAIRNESS.md (verify_deal.py's
    deal_order is its Python); None if the seed is refused."""
    try:
        return names(vd.deal_order(seed, client.encode("utf-8"), nonce, 52 + jokers, decks))
    except vd.BadInput:
        return None


def printed(order, burn, players, cards, layout):
    """burn, hands (hand by hand), rest: as deal prints them."""
    pos = (lambda p, c: burn + p * cards + c) if layout == "blocks" else \
        (lambda p, c: burn + c * players + p)
    hands = [[order[pos(p, c)] for c in range(cards)] for p in range(players)]
    return order[:burn], hands, order[burn + players * cards:]


def printed_laid(order, r, layout):
    """The cards as deal prints them for round r dealt in layout, in one
    list: burn, hand 1, hand 2, ..., rest."""
    burn, hands, rest = printed(order, r["burn"], r["players"], r["cards"], layout)
    return burn + [c for h in hands for c in h] + rest


def make_doc(r, order, reveal=True):
    """The JSON fairshuf deal prints for round r (built here, for rounds
    deal cannot make: a NUL in the client seed)."""
    burn, hands, rest = printed(order, r["burn"], r["players"], r["cards"], r["layout"])
    fair = {"algorithm": "fairshuf-deal-v1", "commitment": hashlib.sha256(r["seed"]).hexdigest()}
    if reveal:
        fair["server_seed"] = r["seed"].hex()
    fair["client_seed"] = r["client"]
    fair["nonce"] = r["nonce"]
    return {"schema": "fairshuf-deal/1", "decks": r["decks"], "jokers": r["jokers"],
            "cards_in_shoe": (52 + r["jokers"]) * r["decks"], "players": r["players"],
            "cards_per_hand": r["cards"], "layout": r["layout"], "burn": burn, "hands": hands,
            "rest": rest, "penetration": None, "mode": "fair", "fair": fair}


def escape_client(client, rnd):
    """The client seed in the page's escape form (its field with the
    escapes box ticked): \\n, \\r, \\t, \\\\, \\u{X}; a character now and
    then as its code point."""
    out = []
    for ch in client:
        e = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\0": "\\u{0}"}.get(ch)
        if e is None and ch == "\t" and rnd.random() < 0.5:
            e = "\\t"
        if e is None and rnd.random() < 0.1:
            e = "\\u{%s}" % rnd.choice(["%x", "%X", "%06x"]) % ord(ch)
        out.append(e or ch)
    return "".join(out)


def hexify(seed, rnd):
    """The seed's hex as a player might keep it: either case, ASCII blanks."""
    h = seed.hex()
    if rnd.random() < 0.3:
        h = h.upper()
    if rnd.random() < 0.3:
        h = "\n".join(h[k:k + 64] for k in range(0, len(h), 64)) + "\n"
    if rnd.random() < 0.1:
        h = " \t" + " ".join(h[k:k + 2] for k in range(0, len(h), 2)) + "\r\n"
    return h


CLIENT_ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyz0123456789",
    " -_.:/\\\"'{}[],", "\b\f\n\r\t\x01\x1f\x7f",     # JSON escapes, control bytes
    "éßøЖж中文日本語한국어", "🂡🃑🎲♠♥♦♣", "\u00a0\u2003\u2028\u2029\ufeff\u200d\u0301",
]


def random_client(rnd):
    k = rnd.random()
    if k < 0.1:
        return ""
    if k < 0.2:  # exactly 256 bytes, the last character multi-byte when it can be
        s = "x" * rnd.choice([256, 254, 253, 252])
        return s + {256: "", 254: "é", 253: "中", 252: "🂡"}[len(s)]
    alpha = "".join(rnd.sample(CLIENT_ALPHABETS, rnd.randint(1, 3)))
    s = "".join(rnd.choice(alpha) for _ in range(rnd.randint(1, 60)))
    while len(s.encode()) > 256:
        s = s[:-1]
    return s


def random_round(rnd, k):
    kind = k % 5
    decks = [1, 1, 2, rnd.randint(3, 8), 8][kind]
    jokers = rnd.randint(0, 2)
    need = vd.seed_min(52 + jokers, decks)
    L = rnd.choice([need, need, need + 1, need + rnd.randint(2, 100),
                    (need + 31) // 32 * 32, (need + 31) // 32 * 32 + 1, need + 32 * rnd.randint(1, 4)])
    n = (52 + jokers) * decks
    burn = rnd.choice([0, 0, 1, rnd.randint(0, 5)])
    players = rnd.choice([1, 2, rnd.randint(1, 10)])
    cards = rnd.randint(0, min(13, (n - burn) // players))
    return dict(decks=decks, jokers=jokers, seed=bytes(rnd.randrange(256) for _ in range(L)),
                client=random_client(rnd),
                nonce=rnd.choice([0, 1, 2 ** 53 + 1, 2 ** 63, 2 ** 64 - 1, rnd.randrange(2 ** 64),
                                  rnd.randrange(1000)]),
                burn=burn, players=players, cards=cards,
                layout=rnd.choice(["round-robin", "blocks"]))


def edge_rounds(rnd):
    base = dict(decks=1, jokers=0, seed=bytes(range(32)), client="", nonce=0, burn=0, players=1,
                cards=0, layout="round-robin")
    e = []
    def add(**kw):
        r = dict(base)
        r.update(kw)
        e.append(r)
    add()                                                      # all defaults, 32-byte seed
    add(nonce=2 ** 64 - 1, client="x" * 256)                   # both at their maximum
    add(client="\U0001f0a1" * 64)                              # 256 bytes of 4-byte characters
    add(client="\"\\/\b\f\n\r\t\x00\x01\x1f\x7f" * 3)          # JSON escapes and a NUL (not dealable)
    add(client="\u2028\u2029\ufeff\u00a0 ", nonce=2 ** 53 + 1)
    add(client="--", nonce=5)                                  # an option's value, not "--"
    add(client="-x")
    add(decks=8, jokers=2, seed=bytes(rnd.randrange(256) for _ in range(293)), players=8, cards=5,
        burn=1, layout="blocks")                               # 8 decks, 2 jokers, minimum seed
    add(decks=2, jokers=2, seed=bytes(rnd.randrange(256) for _ in range(66)), players=108, cards=1)
    add(decks=1, jokers=1, burn=53, players=1, cards=0)         # everything burned
    add(decks=3, jokers=1, seed=bytes(rnd.randrange(256) for _ in range(4096)), players=3,
        cards=53, layout="blocks")                              # a long seed, all dealt in hands
    add(decks=1000, jokers=2, seed=bytes(rnd.randrange(256) for _ in range(
        vd.seed_min(54, 1000))), players=10, cards=7, burn=3)   # the largest shoe
    return e


# ---- checks on one round ---------------------------------------------------

def deal_json(r, path, reveal=True):
    """fairshuf deal's JSON for round r (None, and why, if deal refuses)."""
    with open(path, "w") as f:
        f.write(hexify(r["seed"], RND))
    args = [FS, "deal", "--server-seed-file=" + path, "--client-seed=" + r["client"],
            "--nonce=%d" % r["nonce"], "--decks=%d" % r["decks"], "--jokers=%d" % r["jokers"],
            "--players=%d" % r["players"], "--cards=%d" % r["cards"], "--burn=%d" % r["burn"],
            "--layout=" + r["layout"]]
    p = subprocess.run(args + ["--format=json"] + (["--reveal"] if reveal else []),
                       capture_output=True)
    t = subprocess.run(args + ["--format=text", "--reveal"], capture_output=True)
    if p.returncode != 0:
        return None, p.stderr.decode("utf-8", "replace"), None
    return json.loads(p.stdout), p.stdout, t.stdout.decode()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def agree(name, verdicts, want=None):
    """All verdicts equal (and equal to want, if given). The package is a
    function, not a command: it answers True or False, and raises
    ValueError where the command says bad input (a card that is not in the
    shoe, more cards than it holds, too: not False)."""
    vals = {k: v[0] for k, v in verdicts.items()}
    target = want if want is not None else next(iter(vals.values()))

    def same(k, v):
        return v == target
    good = all(same(k, v) for k, v in vals.items())
    why = ", ".join("%s %s" % (k, v) for k, v in vals.items())
    if not good:
        for k, v in verdicts.items():
            if not same(k, v[0]) and v[1]:
                why += " | %s said: %s" % (k, v[1].strip().splitlines()[-1][:200] if v[1].strip() else "")
    report(name, good, ("want %s: " % want if want else "") + why)
    return target if good else None


browser = []          # vectors for web/verify.html


def command_says(args, json_file=None):
    """What `fairshuf verify ARGS` says in a UTF-8 locale, as the page must
    say it for the same input (in its own layout): {"lines": the page's
    problem lines} for NOT VALID (each "NOT VALID: X" line is X) and bad
    input (its one message as "bad input: MESSAGE", without the command's
    name and the JSON file's name before it), {"valid": the VALID line
    without "VALID: "} (one of the page's facts)."""
    # Under the sanitizers (a command starts in about 0.1 s there) the
    # page gets its vectors without the command's lines: the page is
    # JavaScript, and make check compares them.
    if args is None or not UTF8 or SAN:
        return None
    rc, out, err = c_answer(args, UTF8)
    if rc == 0 and out.startswith("VALID: ") and not err:
        return {"valid": out.splitlines()[0][len("VALID: "):]}
    if rc == 1 and out.startswith("NOT VALID: ") and not err:
        return {"lines": [l[len("NOT VALID: "):] for l in out.splitlines()]}
    if rc == 1 and not out and err.startswith("fairshuf verify: "):
        msg = err.splitlines()[0][len("fairshuf verify: "):]
        if json_file is not None and msg.startswith(json_file + ": "):
            msg = msg[len(json_file) + 2:]
        return {"lines": ["bad input: " + msg]}
    return {}


def field_args(fields, client, dealt):
    """fairshuf verify's arguments for the page's fields (the client seed
    as it is, not escaped; an empty field is an option not given)."""
    if "\x00" in client:
        return None  # no argument holds a NUL: the page's escapes alone
    args = []
    for key, opt in (("seed", "server-seed"), ("commitment", "commitment"), ("nonce", "nonce"),
                     ("decks", "decks"), ("jokers", "jokers"), ("burn", "burn"),
                     ("players", "players"), ("per_hand", "cards"), ("layout", "layout"),
                     ("hand", "hand")):
        x = fields.get(key)
        if x is not None and x != "":
            args.append("--%s=%s" % (opt, x))
    if client:
        args.append("--client-seed=" + client)
    if fields.get("rest"):
        args.append("--rest")
    return args + ["--"] + [c for c in re.split("[ \t\n\v\f\r,]+", dealt) if c]  # the page's split


def to_browser(name, verdict, json_text=None, seed="", order=None, says=None, **fields):
    """A vector for the page; says: command_says() of the same input, the
    lines the page must show (its problems, exactly; its VALID fact)."""
    if verdict not in ("VALID", "NOT VALID", "bad"):
        return
    v = dict(name=name, seed=seed, status="NOT VALID" if verdict != "VALID" else "VALID",
             bad=verdict == "bad", problems=[], facts=[])
    if json_text is not None:
        v["json"] = json_text
    if order is not None and verdict != "bad":
        v["order"] = " ".join(order)
    if says:
        v["lines"] = says.get("lines", [])
        if "valid" in says:
            v["facts"] = [says["valid"]]
    v.update(fields)
    browser.append(v)


def meaning(d):
    """What a deal JSON says, as the verifiers read it: the members they
    check (hex digits of either case, blanks in the seed's hex skipped)."""
    f = d["fair"]
    return ({k: d[k] for k in ("schema", "decks", "jokers", "cards_in_shoe", "players",
                               "cards_per_hand", "layout", "burn", "hands", "rest")},
            f["algorithm"], f["commitment"].lower(), vd.parse_hex(f.get("server_seed", ""), "x"),
            f["client_seed"], f["nonce"])


def check_round(k, r, in_browser):
    global answer_locales
    answer_locales = LOCALES if k % 8 == 0 and not SAN else LOCALES[:1]
    tag = "round %d (%d deck%s, %d joker%s, seed %d B, client %d B, nonce %d, %s %dx%d burn %d)" % (
        k, r["decks"], "s" * (r["decks"] != 1), r["jokers"], "s" * (r["jokers"] != 1),
        len(r["seed"]), len(r["client"].encode()), r["nonce"], r["layout"], r["players"],
        r["cards"], r["burn"])
    order = ref_order(r["seed"], r["client"], r["nonce"], r["decks"], r["jokers"])
    assert order is not None, tag
    commit = hashlib.sha256(r["seed"]).hexdigest()
    sf = os.path.join(TMP, "seed%d.hex" % k)
    dealable = "\x00" not in r["client"]
    if dealable:
        doc, raw, text = deal_json(r, sf)
        if doc is None:
            report(tag + ": fairshuf deal deals it", False, raw)
            return
        want_doc = make_doc(r, order)
        report(tag + ": deal's JSON is the specification's deal", doc == want_doc,
               "JSON %s, want %s" % (json.dumps(doc)[:300], json.dumps(want_doc)[:300]))
        # The text output: the same round, the same cards.
        lines = dict(l.split(": ", 1) for l in text.splitlines() if ": " in l)
        burn, hands, rest = printed(order, r["burn"], r["players"], r["cards"], r["layout"])
        good = lines.get("Commitment") == commit and lines.get("Nonce") == str(r["nonce"]) and \
            lines.get("Server seed") == r["seed"].hex() and \
            lines.get("Rest", "").split() == rest and lines.get("Burn", "").split() == burn and \
            all(lines.get("Player %d" % (p + 1), "").split() == h for p, h in enumerate(hands))
        report(tag + ": deal's text output has the same round", good, text[:400])
        undoc, _, _ = deal_json(r, sf, reveal=False)
        jf = write(os.path.join(TMP, "r%d.json" % k), raw)
        jn = write(os.path.join(TMP, "r%d-hidden.json" % k), json.dumps(undoc))
    else:
        doc = make_doc(r, order)
        raw = json.dumps(doc, ensure_ascii=RND.random() < 0.5).encode()
        jf = write(os.path.join(TMP, "r%d.json" % k), raw)
        jn = write(os.path.join(TMP, "r%d-hidden.json" % k), json.dumps(make_doc(r, order, False)))
        write(sf, r["seed"].hex())

    # 1. The deal order, four ways.
    opts = ["--server-seed=" + r["seed"].hex(), "--nonce=%d" % r["nonce"], "--decks=%d" % r["decks"],
            "--jokers=%d" % r["jokers"]]
    if dealable:
        c = subprocess.run([FS, "verify", "--print-order", "--client-seed=" + r["client"]] + opts,
                           capture_output=True, text=True)
        report(tag + ": fairshuf verify --print-order", c.stdout.split() == order, c.stdout[:200] + c.stderr)
        got = py_output(["--order", "--client-seed", r["client"]] + opts)  # "-x" is the value
        report(tag + ": verify_deal.py --order", got.split() == order, got[:200])
    if pkg is not None:
        po = pkg.fair_order(r["seed"], r["client"], r["nonce"], decks=r["decks"], jokers=r["jokers"],
                            names=True, notation="poker")
        report(tag + ": fairshuf.fair_order", po == order, str(po[:10]))

    # 2. The genuine round: VALID everywhere.
    burn, hands, rest = printed(order, r["burn"], r["players"], r["cards"], r["layout"])
    laid = burn + [c for h in hands for c in h] + rest
    v = {"C --json": c_verify(["--json=" + jf]),
         "py --json": py_verify(["--json", jf]),
         "C --json, seed file": c_verify(["--json=" + jn, "--server-seed-file=" + sf]),
         "py --json, seed file": py_verify(["--json", jn, "--server-seed-file", sf])}
    shape = ["--burn=%d" % r["burn"], "--players=%d" % r["players"], "--cards=%d" % r["cards"],
             "--layout=" + r["layout"]]
    if dealable:
        args = styled(opts + ["--client-seed=" + r["client"], "--commitment=" + commit] + shape +
                      ["--"] + laid, RND)
        v["C options"] = c_verify(args)
        v["py options"] = py_verify(args)
    if pkg is not None:
        v["package"] = pkg_verify(r["seed"], commit, order, r["client"], r["nonce"], r["decks"], r["jokers"])
    agree(tag + ": genuine round", v, "VALID")
    if dealable:
        base = opts + ["--client-seed=" + r["client"], "--commitment=" + commit] + shape
        k = RND.randint(0, len(laid))
        pshape = dict(burn=r["burn"], players=r["players"], cards=r["cards"], layout=r["layout"])
        same_answer(tag + ": the first %d cards as laid out, options" % k,
                    styled(base + ["--"] + laid[:k], RND), "VALID")
        if pkg is not None:
            v = {"package": pkg_verify(r["seed"], commit, laid, r["client"], r["nonce"], r["decks"],
                                       r["jokers"], **pshape),
                 "package, partial": pkg_verify(r["seed"], commit, laid[:k], r["client"], r["nonce"],
                                                r["decks"], r["jokers"], partial=True, **pshape)}
            agree(tag + ": fair_verify, laid out, whole and the first %d cards" % k, v, "VALID")
        if r["players"] * r["cards"]:
            t = r["burn"] + RND.randrange(r["players"] * r["cards"])
            other = RND.choice([x for x in names(range(52 + r["jokers"])) if x != laid[t]])
            bad = laid[:t] + [other] + laid[t + 1:]
            same_answer(tag + ": a hand card changed, options", styled(base + ["--"] + bad, RND),
                        "NOT VALID")
            if pkg is not None:
                v = {"package": pkg_verify(r["seed"], commit, bad[:t + 1], r["client"], r["nonce"],
                                           r["decks"], r["jokers"], partial=True, **pshape)}
                agree(tag + ": fair_verify, a hand card changed", v, "NOT VALID")
            # One hand alone (--hand=H): honest, a card of it changed, H
            # past the last hand.
            h = RND.randrange(r["players"])
            hand = hands[h][:RND.randint(1, r["cards"])]
            same_answer(tag + ": hand %d alone (%d cards), options" % (h + 1, len(hand)),
                        styled(base + ["--hand=%d" % (h + 1), "--"] + hand, RND), "VALID")
            c = RND.randrange(len(hand))
            other = RND.choice([x for x in names(range(52 + r["jokers"])) if x != hand[c]])
            same_answer(tag + ": hand %d alone, its card %d changed, options" % (h + 1, c + 1),
                        styled(base + ["--hand=%d" % (h + 1), "--"] + hand[:c] + [other] +
                               hand[c + 1:], RND), "NOT VALID", "hand %d card %d (deal position " % (h + 1, c + 1))
            same_answer(tag + ": hand %d of %d players, options" % (r["players"] + 1, r["players"]),
                        styled(base + ["--hand=%d" % (r["players"] + 1), "--"] + hand, RND), "bad",
                        "invalid hand number: '%d' (1 to %d)" % (r["players"] + 1, r["players"]))
            if pkg is not None:
                whole = hands[h]
                bad_hand = whole[:c] + [other] + whole[c + 1:]
                for what, cards, kw, want in (
                        ("hand %d alone" % (h + 1), whole, dict(hand=h + 1), "VALID"),
                        ("hand %d alone, its first %d cards" % (h + 1, len(hand)), hand,
                         dict(hand=h + 1, partial=True), "VALID"),
                        ("hand %d alone, its card %d changed" % (h + 1, c + 1), bad_hand,
                         dict(hand=h + 1), "NOT VALID"),
                        ("hand %d of %d players" % (r["players"] + 1, r["players"]), whole,
                         dict(hand=r["players"] + 1), "bad")):
                    pkg_exact(tag + ": fair_verify, " + what,
                              pkg_verify(r["seed"], commit, cards, r["client"], r["nonce"], r["decks"],
                                         r["jokers"], **pshape, **kw), want,
                              "hand must be in 1..%d" % r["players"] if want == "bad" else None)
            swapped = r["layout"] == "blocks" and "round-robin" or "blocks"
            same_answer(tag + ": the other layout, options",
                        styled(base[:-1] + ["--layout=" + swapped, "--"] + laid, RND),
                        "VALID" if laid == printed_laid(order, r, swapped) else "NOT VALID")
    if dealable:
        # The rest alone (--rest, the board): honest, a card changed.
        k = RND.randint(0, len(rest))
        same_answer(tag + ": the first %d cards of the rest alone, options" % k,
                    styled(base + ["--rest", "--"] + rest[:k], RND), "VALID")
        if rest:
            c = RND.randrange(len(rest))
            other = RND.choice([x for x in names(range(52 + r["jokers"])) if x != rest[c]])
            same_answer(tag + ": the rest alone, its card %d changed, options" % (c + 1),
                        styled(base + ["--rest", "--"] + rest[:c] + [other] + rest[c + 1:], RND),
                        "NOT VALID", "rest card %d (deal position %d)" % (c + 1, len(order) - len(rest) + c + 1))
        if pkg is not None:
            v = {"package, rest": pkg_verify(r["seed"], commit, rest, r["client"], r["nonce"], r["decks"],
                                             r["jokers"], rest=True, **pshape),
                 "package, rest, partial": pkg_verify(r["seed"], commit, rest[:k], r["client"], r["nonce"],
                                                      r["decks"], r["jokers"], rest=True, partial=True,
                                                      **pshape)}
            agree(tag + ": fair_verify, the rest alone, whole and the first %d cards" % k, v, "VALID")
            if rest:
                pkg_exact(tag + ": fair_verify, the rest alone, a card changed",
                          pkg_verify(r["seed"], commit, rest[:c] + [other] + rest[c + 1:], r["client"],
                                     r["nonce"], r["decks"], r["jokers"], rest=True, **pshape), "NOT VALID")
    text = raw.decode()
    if in_browser:
        to_browser(tag + ": genuine JSON", "VALID", text, order=order,
                   says=command_says(["--json=" + jf], jf))
    if in_browser == "all":
        # The fields as the player fills them: the client seed escaped when
        # it holds a line break or a NUL (the field cannot hold them) or
        # by chance, the hands laid out as deal prints them (or in deal
        # order), the first k cards.
        esc = bool(re.search("[\r\n\0]", r["client"])) or RND.random() < 0.3
        fields = dict(seed=hexify(r["seed"], RND), commitment=commit,
                      client=escape_client(r["client"], RND) if esc else r["client"],
                      client_escapes=esc, nonce=str(r["nonce"]), decks=r["decks"], jokers=r["jokers"])
        if RND.random() < 0.5:
            fields.update(burn=r["burn"], players=r["players"], per_hand=r["cards"],
                          layout=RND.choice([r["layout"], r["layout"] if r["layout"] == "blocks" else ""]))
            cards = laid
        else:
            cards = order
        dealt = " ".join(cards[:RND.randint(0, len(cards))])
        to_browser(tag + ": genuine fields", "VALID", None, order=order, dealt=dealt,
                   says=command_says(field_args(fields, r["client"], dealt)), **fields)
        if r["players"] * r["cards"]:
            t = r["burn"] + RND.randrange(r["players"] * r["cards"])
            other = RND.choice([x for x in names(range(52 + r["jokers"])) if x != laid[t]])
            fields.update(burn=r["burn"], players=r["players"], per_hand=r["cards"], layout=r["layout"])
            dealt = " ".join(laid[:t] + [other] + laid[t + 1:t + 3])
            to_browser(tag + ": fields, hand card %d changed" % (t + 1), "NOT VALID", None, order=order,
                       dealt=dealt, says=command_says(field_args(fields, r["client"], dealt)), **fields)
            # One hand alone (the hand number field), honest and a card changed.
            h = RND.randrange(r["players"])
            hand = hands[h][:RND.randint(1, r["cards"])]
            to_browser(tag + ": fields, hand %d alone" % (h + 1), "VALID", None, order=order,
                       dealt=" ".join(hand), hand=h + 1,
                       says=command_says(field_args(dict(fields, hand=h + 1), r["client"], " ".join(hand))),
                       **fields)
            c = RND.randrange(len(hand))
            other = RND.choice([x for x in names(range(52 + r["jokers"])) if x != hand[c]])
            dealt = " ".join(hand[:c] + [other] + hand[c + 1:])
            to_browser(tag + ": fields, hand %d alone, its card %d changed" % (h + 1, c + 1), "NOT VALID", None,
                       order=order, dealt=dealt, hand=h + 1,
                       says=command_says(field_args(dict(fields, hand=h + 1), r["client"], dealt)), **fields)
        if rest and RND.random() < 0.5:
            fields.update(burn=r["burn"], players=r["players"], per_hand=r["cards"], layout=r["layout"])
            dealt = " ".join(rest[:RND.randint(1, min(len(rest), 20))])
            to_browser(tag + ": fields, the rest alone", "VALID", None, order=order, dealt=dealt, rest=True,
                       says=command_says(field_args(dict(fields, rest=True), r["client"], dealt)), **fields)

    # 3. Tampered: one byte of the seed, the commitment, a card, the
    # nonce, the client seed, the shoe. Never VALID, and all say the same.
    tampers = []
    s2 = bytearray(r["seed"])
    s2[RND.randrange(len(s2))] ^= 1 << RND.randrange(8)
    tampers.append(("a bit of the seed", {"server_seed": bytes(s2).hex()}, None, dict(seed=bytes(s2))))
    c2 = list(commit)
    i = RND.randrange(64)
    c2[i] = "0123456789abcdef"[("0123456789abcdef".index(c2[i]) + RND.randint(1, 15)) % 16]
    tampers.append(("a digit of the commitment", {"commitment": "".join(c2)}, None, dict(commitment="".join(c2))))
    n = len(order)
    pos = RND.randrange(n)
    other = RND.choice([x for x in names(range(52 + r["jokers"])) if x != order[pos]])
    o2 = order[:pos] + [other] + order[pos + 1:]
    tampers.append(("card %d changed" % (pos + 1), None, o2, dict(order=o2)))
    a, b = RND.sample(range(n), 2)
    while order[a] == order[b]:
        a, b = RND.sample(range(n), 2)
    o3 = list(order)
    o3[a], o3[b] = o3[b], o3[a]
    tampers.append(("cards %d and %d swapped" % (a + 1, b + 1), None, o3, dict(order=o3)))
    n2 = r["nonce"] + 1 if r["nonce"] < 2 ** 64 - 1 else r["nonce"] - 1
    tampers.append(("the nonce", {"nonce": n2}, None, dict(nonce=n2)))
    cl = r["client"]
    if cl and len(cl.encode()) >= 256:
        cl2 = cl[:-1] + ("y" if cl[-1] != "y" else "z")
    else:
        cl2 = cl + "x" if RND.random() < 0.5 or not cl else "x" + cl[1:] if cl[0] != "x" else "y" + cl[1:]
    while len(cl2.encode()) > 256:
        cl2 = cl2[1:]
    tampers.append(("the client seed", {"client_seed": cl2}, None, dict(client=cl2)))
    if r["decks"] < 1000:
        tampers.append(("one deck more", "decks", None, dict(decks=r["decks"] + 1)))
    tampers.append(("other jokers", "jokers", None, dict(jokers=(r["jokers"] + 1) % 3)))
    for what, fair_edit, o, pkw in tampers:
        d = json.loads(text)
        if isinstance(fair_edit, dict):
            d["fair"].update(fair_edit)
        elif fair_edit in ("decks", "jokers"):
            d[fair_edit] = pkw[fair_edit]
            d["cards_in_shoe"] = (52 + d["jokers"]) * d["decks"]
        if o is not None:
            b2, h2, r2 = printed(o, r["burn"], r["players"], r["cards"], r["layout"])
            d.update(burn=b2, hands=h2, rest=r2)
        tj = json.dumps(d, ensure_ascii=RND.random() < 0.5)
        tf = write(os.path.join(TMP, "t.json"), tj)
        v = {"C --json": c_verify(["--json=" + tf]), "py --json": py_verify(["--json", tf])}
        if pkg is not None:
            p = dict(seed=r["seed"], commitment=commit, order=order, client=r["client"],
                     nonce=r["nonce"], decks=r["decks"], jokers=r["jokers"])
            p.update(pkw)
            if fair_edit in ("decks", "jokers"):
                p["order"] = order  # the cards dealt, now claimed for another shoe
            v["package"] = pkg_verify(p["seed"], p["commitment"], p["order"], p["client"], p["nonce"],
                                      p["decks"], p["jokers"])
            # The package is a function, not a command: a seed too short
            # for the shoe raises (bad), as the commands refuse it.
        verdict = agree(tag + ": tampered, " + what, v)
        report(tag + ": tampered, " + what + ": rejected", verdict in ("NOT VALID", "bad"),
               "verdict %s" % verdict)
        if in_browser == "all":
            to_browser(tag + ": tampered " + what, verdict, tj, says=command_says(["--json=" + tf], tf))

    # 4. One byte of the JSON changed anywhere: the verifiers must agree
    # (and not crash) on whatever that makes.
    for t in range(3):
        bb = bytearray(raw)
        i = RND.randrange(len(bb))
        bb[i] = RND.choice([RND.randrange(256), bb[i] ^ 1, ord('"'), ord("\\"), ord("}"), ord("0")])
        mf = write(os.path.join(TMP, "m.json"), bytes(bb))
        v = {"C --json": c_verify(["--json=" + mf]), "py --json": py_verify(["--json", mf])}
        verdict = agree(tag + ": byte %d of the JSON set to 0x%02x" % (i, bb[i]), v)
        if verdict == "VALID" and bytes(bb) != raw:
            # Only a change outside what the deal says may keep it VALID.
            try:
                same = meaning(json.loads(bytes(bb))) == meaning(json.loads(raw))
            except (ValueError, KeyError, TypeError):
                same = False
            report(tag + ": a changed byte kept VALID only outside the deal", same, bytes(bb)[:300])
        if in_browser == "all" and t == 0:
            try:
                to_browser(tag + ": byte %d changed" % i, verdict, bytes(bb).decode("utf-8"),
                           says=command_says(["--json=" + mf], mf))
            except UnicodeDecodeError:
                pass  # the page reads a string: no bytes that are no UTF-8


def main():
    rounds = edge_rounds(RND) + [random_round(RND, k) for k in range(ROUNDS)]
    for k, r in enumerate(rounds):
        # The page takes about 0.1 s a vector (a 1000-deck round, 1 s):
        # every check of a few rounds, the genuine JSON of some more (the
        # 1000-deck round's too).
        page = "genuine" if r["decks"] >= 100 else "all" if k < 4 or k % 40 == 0 else \
            "genuine" if k < 12 else False
        check_round(k, r, page)
    global answer_locales
    answer_locales = LOCALES[:1] if SAN else LOCALES
    hostile()
    answer_locales = LOCALES
    quoting()
    answer_locales = LOCALES[:1] if SAN else LOCALES
    cli_edges()
    shape_edges()
    faces()
    json.dump(browser, open(VECTORS, "w", encoding="utf-8"), ensure_ascii=False)
    print("summary %d ok, %d not ok, %d browser vectors" % (results["ok"], results["not ok"], len(browser)))


# ---- hostile JSON ------------------------------------------------------------

def hostile():
    """Documents no honest deal prints, built from one round: every verifier
    must give the verdict the strict reader's rules give (docs/FAIRNESS.md,
    "Verifiers anyone can run"), and the same one."""
    client = "Zo\u00eb \U0001f0a1"
    r = dict(decks=1, jokers=2, seed=bytes((17 * k + 3) % 256 for k in range(40)), client=client,
             nonce=12, burn=2, players=3, cards=2, layout="round-robin")
    order = ref_order(r["seed"], client, r["nonce"], 1, 2)
    base = json.dumps(make_doc(r, order), ensure_ascii=False)
    C = hashlib.sha256(r["seed"]).hexdigest()
    rn = dict(r, client="a\x00b")
    onul = ref_order(rn["seed"], "a\x00b", 12, 1, 2)
    nul = json.dumps(make_doc(rn, onul))
    def sub(old, new, text=base, count=1):
        assert old in text, old
        return text.replace(old, new, count)

    def deep(d):  # the document nested d deep (it is 1 deep)
        return sub('"mode": "fair"', '"mode": "fair", "x": ' + "[" * (d - 1) + "]" * (d - 1))

    def members(m):  # m members at the top (it has 13)
        return sub('"mode": "fair"', '"mode": "fair", ' + ", ".join(
            '"x%d": %d' % (k, k) for k in range(m - 13)))

    def fair_members(m):  # m members in "fair" (it has 5)
        return sub('"nonce": 12', '"nonce": 12, ' + ", ".join('"x%d": 0' % k for k in range(m - 5)))
    n1001 = vd.seed_min(52, 1001)
    d = json.loads(base)
    d["hands"][0] = {c: k for k, c in enumerate(d["hands"][0])}
    hand_object = json.dumps(d, ensure_ascii=False)
    cases = [  # (name, JSON text or bytes, verdict, extra verify options)
        ("as dealt", base, "VALID", []),
        ("all ASCII escapes", json.dumps(json.loads(base)), "VALID", []),
        ("escaped keys (n\\u006fnce, \\u0066air)", sub('"fair"', '"\\u0066air"', sub('"nonce"', '"n\\u006fnce"')), "VALID", []),
        ("the client seed as a surrogate pair", sub("\U0001f0a1", "\\ud83c\\udca1"), "VALID", []),
        ("the client seed with a lone high surrogate", sub("\U0001f0a1", "\\ud83c"), "bad", []),
        ("the client seed with a lone low surrogate", sub("\U0001f0a1", "\\udca1"), "bad", []),
        ("the client seed with a reversed pair", sub("\U0001f0a1", "\\udca1\\ud83c"), "bad", []),
        ("a high surrogate before a non-surrogate escape", sub("\U0001f0a1", "\\ud83c\\u0041"), "bad", []),
        ("a client seed with a NUL", nul, "VALID", []),
        ("a NUL in a member name", sub('"mode"', '"mo\\u0000de"'), "bad", []),
        ("a NUL in a card", sub('"%s"' % order[0], '"%s\\u0000"' % order[0]), "bad", []),
        ("a NUL in the schema", sub('deal/1"', 'deal/1\\u0000"'), "bad", []),
        ("duplicate nonce, the same value", sub('"nonce": 12', '"nonce": 12, "nonce": 12'), "bad", []),
        ("duplicate nonce, another value first", sub('"nonce": 12', '"nonce": 3, "nonce": 12'), "bad", []),
        ("duplicate decks", sub('"decks": 1', '"decks": 2, "decks": 1'), "bad", []),
        ("duplicate key, one escaped", sub('"mode": "fair"', '"mode": "fair", "m\\u006fde": "x"'), "bad", []),
        ("duplicate unknown members", sub('"mode": "fair"', '"mode": "fair", "x": 1, "x": 1'), "bad", []),
        ("NaN in an unknown member", sub('"mode": "fair"', '"mode": "fair", "x": NaN'), "bad", []),
        ("Infinity in an unknown member", sub('"mode": "fair"', '"mode": "fair", "x": Infinity'), "bad", []),
        ("-Infinity in an unknown member", sub('"mode": "fair"', '"mode": "fair", "x": -Infinity'), "bad", []),
        ("nonce 12.0", sub('"nonce": 12', '"nonce": 12.0'), "bad", []),
        ("nonce 1.2e1", sub('"nonce": 12', '"nonce": 1.2e1'), "bad", []),
        ("nonce 12e0", sub('"nonce": 12', '"nonce": 12e0'), "bad", []),
        ("nonce \"12\"", sub('"nonce": 12', '"nonce": "12"'), "bad", []),
        ("nonce +12", sub('"nonce": 12', '"nonce": +12'), "bad", []),
        ("nonce 012", sub('"nonce": 12', '"nonce": 012'), "bad", []),
        ("nonce 0x0c", sub('"nonce": 12', '"nonce": 0x0c'), "bad", []),
        ("nonce -12", sub('"nonce": 12', '"nonce": -12'), "bad", []),
        ("nonce 2^64 + 12", sub('"nonce": 12', '"nonce": 18446744073709551628'), "bad", []),
        ("nonce of 5000 digits", sub('"nonce": 12', '"nonce": 1' + "0" * 4999), "bad", []),
        ("a number of 5000 digits in an unknown member", sub('"mode": "fair"', '"mode": "fair", "x": 1' + "0" * 4999), "VALID", []),
        ("1e400 in an unknown member", sub('"mode": "fair"', '"mode": "fair", "x": 1e400'), "VALID", []),
        ("-0 as penetration", sub('"penetration": null', '"penetration": -0'), "VALID", []),
        ("decks -0", sub('"decks": 1', '"decks": -0'), "bad", []),
        ("decks true", sub('"decks": 1', '"decks": true'), "bad", []),
        ("a BOM before the JSON", "\ufeff" + base, "bad", []),
        ("whitespace around", " \n\t\r" + base + "\r\n\t ", "VALID", []),
        ("a vertical tab after", base + "\v", "bad", []),
        ("a second value after", base + " {}", "bad", []),
        ("a comma after", base + ",", "bad", []),
        ("a comment", base + " // x", "bad", []),
        ("a trailing comma in an object", base[:-1] + ",}", "bad", []),
        ("a trailing comma in an array", sub('"]', '",]'), "bad", []),
        ("single quotes", sub('"mode": "fair"', "'mode': 'fair'"), "bad", []),
        ("a raw tab in a string", sub('"mode": "fair"', '"mode": "fa\tir"'), "bad", []),
        ("a raw DEL in a string", sub('"mode": "fair"', '"mode": "fa\x7fir"'), "VALID", []),
        ("a bad escape \\x41", sub('"mode": "fair"', '"mode": "\\x41"'), "bad", []),
        ("a short \\u escape", sub('"mode": "fair"', '"mode": "\\u41"'), "bad", []),
        ("nesting 64 deep", deep(64), "VALID", []),
        ("nesting 65 deep", deep(65), "bad", []),
        ("nesting 100000 deep", deep(100000), "bad", []),
        ("64 members", members(64), "VALID", []),
        ("65 members", members(65), "bad", []),
        ("64 members in fair", fair_members(64), "VALID", []),
        ("65 members in fair", fair_members(65), "bad", []),
        ("fair null", sub('"fair": {', '"fair": null, "f": {'), "bad", []),
        ("no fair", sub('"fair": {', '"f": {'), "bad", []),
        ("a hand as an object of its cards", hand_object, "bad", []),
        ("a card too many in the rest", sub('"rest": [', '"rest": ["As", '), "bad", []),
        ("1001 decks", json.dumps(make_doc(dict(r, decks=1001, jokers=0, seed=bytes(n1001), client=""),
                                           ["As"] * 8)), "bad", []),
        ("--nonce another", base, "NOT VALID", ["nonce=13"]),
        ("--nonce the same, spelled 012", base, "VALID", ["nonce=012"]),
        ("--client-seed another", base, "NOT VALID", ["client-seed=Zoe"]),
        ("--client-seed the same", base, "VALID", ["client-seed=" + client]),
        ("--commitment another", base, "NOT VALID", ["commitment=" + "0" * 64]),
        ("--commitment the same, upper case", base, "VALID", ["commitment=" + C.upper()]),
        ("--server-seed another", base, "NOT VALID", ["server-seed=" + bytes(40).hex()]),
        ("--server-seed the same", base, "VALID", ["server-seed=" + r["seed"].hex()]),
        ("--decks beside it", base, "bad", ["decks=1"]),
        ("a card beside it", base, "bad", ["-", order[0]]),
    ]
    raw_cases = [  # bytes the page cannot be given (it reads a string)
        ("a raw 0xff in the client seed", base.encode().replace("Zo\u00eb".encode(), b"Zo\xff"), "bad"),
        ("a raw Latin-1 e-acute in the client seed", base.encode().replace("Zo\u00eb".encode(), b"Zo\xeb"), "bad"),
        ("an overlong slash in the client seed", base.encode().replace(b"Zo", b"Z\xc0\xaf"), "bad"),
        ("a raw UTF-8 surrogate in the client seed", base.encode().replace(b"Zo", b"Z\xed\xa0\x80"), "bad"),
        ("a truncated UTF-8 character in the client seed", base.encode().replace(b"Zo", b"Z\xf0\x9f\x82"), "bad"),
        ("U+110000 in the client seed", base.encode().replace(b"Zo", b"Z\xf4\x90\x80\x80"), "bad"),
        ("0xff in an unknown member", base.encode().replace(b'"mode": "fair"', b'"mode": "fair\xff"'), "bad"),
        ("UTF-16", base.encode("utf-16"), "bad"),
        ("exactly 8 MiB", base.encode() + b" " * ((8 << 20) - len(base.encode())), "VALID"),
        ("8 MiB and one byte", base.encode() + b" " * ((8 << 20) + 1 - len(base.encode())), "bad"),
    ]
    for name, text, want, extra in cases:
        f = write(os.path.join(TMP, "h.json"), text)
        cargs = ["--json=" + f]
        pargs = ["--json", f]
        for x in extra:
            if x == "-":
                cargs.append("--")
                pargs.append("--")
            elif "=" in x:
                cargs.append("--" + x)
                pargs.append("--" + x)
            else:
                cargs.append(x)
                pargs.append(x)
        v = {"C": c_verify(cargs), "py": py_verify(pargs)}
        agree("hostile JSON, %s" % name, v, want)
        # and the same lines and message, the reader's byte offset too
        same_answer("hostile JSON, %s: the answer" % name, cargs, want)
        if not extra and len(text) < (1 << 20):
            to_browser("hostile JSON, " + name, want, text, order=onul if text is nul else order,
                       says=command_says(cargs, f))
    for name, data, want in raw_cases:
        f = write(os.path.join(TMP, "h.json"), data)
        v = {"C": c_verify(["--json=" + f]), "py": py_verify(["--json", f]),
             "py (process)": py_verify_process(["--json", f])}
        agree("hostile JSON, %s" % name, v, want)
        same_answer("hostile JSON, %s: the answer" % name, ["--json=" + f], want)
    # Standard input, as a player pipes it.
    v = {"C": c_verify(["--json=-"], stdin=base.encode()),
         "py": py_verify_process(["--json", "-"], stdin=base.encode())}
    agree("hostile JSON: the JSON on standard input", v, "VALID")
    v = {"C": c_verify(["--json=-"], stdin=base.encode().replace("Zo\u00eb".encode(), b"Zo\xff")),
         "py": py_verify_process(["--json", "-"],
                                 stdin=base.encode().replace("Zo\u00eb".encode(), b"Zo\xff"))}
    agree("hostile JSON: bytes that are no UTF-8 on standard input", v, "bad")
    sf = write(os.path.join(TMP, "hs.hex"), r["seed"].hex())
    v = {"C": c_verify(["--json=-", "--server-seed-file=-"], stdin=base.encode()),
         "py": py_verify_process(["--json", "-", "--server-seed-file", "-"], stdin=base.encode())}
    agree("hostile JSON: --json and --server-seed-file both standard input", v, "bad")
    v = {"C": c_verify(["--server-seed-file=-", "--commitment=" + C, "--client-seed=" + client,
                        "--nonce=12", "--jokers=2"] + order[:5], stdin=open(sf, "rb").read()),
         "py": py_verify_process(["--server-seed-file", "-", "--commitment", C, "--client-seed", client,
                                  "--nonce", "12", "--jokers", "2"] + order[:5],
                                 stdin=open(sf, "rb").read())}
    agree("the seed file on standard input", v, "VALID")


# ---- quoting: the C locale and a UTF-8 one -------------------------------------

def quoting():
    """Values and file names in messages, quoted as the command quotes them
    (GNU quote and quotef): 'x' in the C locale, ‘x’ in a UTF-8 one,
    the printable multibyte characters kept there and octal escapes for
    the rest; a deal JSON's every refusal, with its byte offset and the
    member it names. fairshuf verify and verify_deal.py, byte for byte,
    in both locales; one case also as a process (argv's bytes, the
    locale from the environment, as a player runs it)."""
    S = bytes(range(32))
    C = hashlib.sha256(S).hexdigest()
    R = ["--server-seed=" + S.hex(), "--commitment=" + C]
    o = ref_order(S, "", 0, 1, 0)
    good = json.loads(json.dumps(make_doc(dict(decks=1, jokers=0, seed=S, client="", nonce=0, burn=0,
                                                players=2, cards=2, layout="round-robin"), o)))
    d = os.path.join(TMP, "quoting")
    os.makedirs(d, exist_ok=True)

    NULL = object()

    def doc(**change):  # the deal JSON with members changed (None: removed; NULL: null)
        x = json.loads(json.dumps(good))
        for k, v in change.items():
            t = x["fair"] if k.startswith("fair_") else x
            k = k[5:] if k.startswith("fair_") else k
            if v is None:
                del t[k]
            else:
                t[k] = None if v is NULL else v
        return json.dumps(x, ensure_ascii=False)

    def jf(name, text):
        return ["--json=" + write(os.path.join(d, name), text)]
    bad_utf8 = "\udcff"  # the byte 0xff in an argument (a surrogate escape)
    cases = [  # (name, arguments, verdict, the C locale's message, the UTF-8 one's)
        ("a layout with a '", R + ["--layout=it's"], "bad", "invalid layout: 'it\\'s'",
         "invalid layout: \u2018it's\u2019"),
        ("a layout with a \u2019", R + ["--layout=it\u2019s"], "bad",
         "invalid layout: 'it\\342\\200\\231s'", "invalid layout: \u2018it\\\u2019s\u2019"),
        ("a layout with an e-acute", R + ["--layout=bl\u00f6cks"], "bad",
         "invalid layout: 'bl\\303\\266cks'", "invalid layout: \u2018bl\u00f6cks\u2019"),
        ("a layout with a tab and a backslash", R + ["--layout=a\tb\\c"], "bad",
         "invalid layout: 'a\\tb\\\\c'", "invalid layout: \u2018a\\tb\\\\c\u2019"),
        ("a layout with a byte that is no UTF-8", R + ["--layout=x" + bad_utf8], "bad",
         "invalid layout: 'x\\377'", "invalid layout: \u2018x\\377\u2019"),
        ("a layout with a no-break space and U+2028", R + ["--layout=a\u00a0b\u2028"], "bad",
         "invalid layout: 'a\\302\\240b\\342\\200\\250'",
         "invalid layout: \u2018a\u00a0b\\342\\200\\250\u2019"),
        ("a layout cut short in a character", R + ["--layout=x\udce2\udc80"], "bad",
         "invalid layout: 'x\\342\\200'", "invalid layout: \u2018x\\342\\200\u2019"),
        ("an unknown card with a suit symbol", R + ["X\u2660"], "bad",
         "unknown card: 'X\\342\\231\\240'", "unknown card: \u2018X\u2660\u2019"),
        ("a nonce in Arabic digits", R + ["--nonce=\u0663"], "bad",
         "invalid nonce: '\\331\\243'", "invalid nonce: \u2018\u0663\u2019"),
        ("a malformed commitment", ["--server-seed=" + S.hex(), "--commitment=" + "\u00e9" * 64], "bad",
         "malformed commitment in --commitment: '", "malformed commitment in --commitment: \u2018"),
        ("a missing seed file with a space", ["--server-seed-file=" + os.path.join(d, "no such.hex"),
                                              "--commitment=" + C], "bad", "'", "'"),
        ("a seed file named with an e-acute, malformed",
         ["--server-seed-file=" + write(os.path.join(d, "s\u00e9ed"), "xyz"), "--commitment=" + C],
         "bad", "malformed hex in ", "malformed hex in "),
        ("a missing JSON named with a tab", ["--json=" + os.path.join(d, "a\tb")], "bad", None, None),
        ("a JSON named with a ' and a space", jf("it's a deal", "{"), "bad", None, None),
        ("a JSON that is no JSON", jf("x.json", "{\"a\": [1, 2,]}"), "bad", None, None),
        ("a JSON cut short", jf("x.json", doc()[:100]), "bad", None, None),
        ("an unknown schema with a ' and an e-acute", jf("x.json", doc(schema="it's \u00e9")), "bad",
         None, None),
        ("no schema", jf("x.json", doc(schema=None)), "bad", None, None),
        ("decks as a string", jf("x.json", doc(decks="1")), "bad", None, None),
        ("decks -1", jf("x.json", doc(decks=-1)), "bad", None, None),
        ("fair null, mode with a \u2019", jf("x.json", doc(fair=NULL, mode="f\u2019r")),
         "bad", None, None),
        ("fair null, no mode", jf("x.json", doc(fair=NULL, mode=None)), "bad", None, None),
        ("fair a string", jf("x.json", doc(fair="x")), "bad", None, None),
        ("an unknown algorithm", jf("x.json", doc(fair_algorithm="v\u00e9")), "bad", None, None),
        ("an unknown layout", jf("x.json", doc(layout="diagonal\u00e9")), "bad", None, None),
        ("hands not an array", jf("x.json", doc(hands={})), "bad", None, None),
        ("a card with a suit symbol", jf("x.json", doc(burn=["A\u2660"])), "bad", None, None),
        ("a card that is a number", jf("x.json", doc(rest=[1])), "bad", None, None),
        ("a commitment with an e-acute", jf("x.json", doc(fair_commitment="\u00e9" * 64)), "bad",
         None, None),
        ("no client seed", jf("x.json", doc(fair_client_seed=None)), "bad", None, None),
        ("the nonce 1.5", jf("x.json", doc(fair_nonce=1.5)), "bad", None, None),
        ("the server seed a number", jf("x.json", doc(fair_server_seed=7)), "bad", None, None),
        ("a client seed of 257 bytes", jf("x.json", doc(fair_client_seed="\u00e9" * 128 + "x")), "bad",
         None, None),
    ]
    for name, args, want, says, utf8_says in cases:
        same_answer("quoting: %s" % name, args, want, says, utf8_says)
    # As a player runs it: a process, argv's bytes, the locale from the
    # environment (not Python's coercion of the C locale to UTF-8).
    args = R + ["--layout=bl\u00f6cks\u2019"]
    for loc in LOCALES + ["POSIX"]:
        env = dict(os.environ, LC_ALL=loc)
        c = subprocess.run([FS, "verify"] + args, capture_output=True, env=env)
        p = subprocess.run([sys.executable, VD] + args, capture_output=True, env=env)
        report("quoting: verify_deal.py as a process in %s" % loc,
               (c.returncode, c.stderr) == (p.returncode, p.stderr.replace(b"verify_deal.py: ", b"fairshuf verify: ")),
               "C %r, py %r" % (c.stderr, p.stderr))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
    env["LANG"] = "C"  # Python coerces this C locale to C.UTF-8; the command does not
    c = subprocess.run([FS, "verify"] + args, capture_output=True, env=env)
    p = subprocess.run([sys.executable, VD] + args, capture_output=True, env=env)
    report("quoting: verify_deal.py as a process with LANG=C (Python's coercion to UTF-8)",
           (c.returncode, c.stderr) == (p.returncode, p.stderr.replace(b"verify_deal.py: ", b"fairshuf verify: ")),
           "C %r, py %r" % (c.stderr, p.stderr))


# ---- the command line's edges ------------------------------------------------

def cli_edges():
    """Options at and past their limits: fairshuf deal, fairshuf verify,
    verify_deal.py (as a process: argv's bytes) and the package agree."""
    S = bytes(range(32))
    C = hashlib.sha256(S).hexdigest()
    sf = write(os.path.join(TMP, "e.hex"), S.hex())
    o1 = ref_order(S, "", 0, 1, 0)

    def deal_verdict(args):
        p = subprocess.run([FS, "deal", "--server-seed-file=" + sf, "--format=json"] + args,
                           capture_output=True)
        if p.returncode == 0 and p.stdout.startswith(b"{"):
            return "dealt", ""
        if p.returncode == 1 and not p.stdout and p.stderr.startswith(b"fairshuf deal: "):
            return "bad", p.stderr.decode("utf-8", "replace")
        return "crash (exit %d)" % p.returncode, p.stderr.decode("utf-8", "replace")

    # (name, options, deal's verdict, the verifiers' verdict on the first
    # three cards of the default round: NOT VALID when the options change it)
    cases = [
        ("client seed 256 bytes", [b"--client-seed=" + b"q" * 256], "dealt", "NOT VALID"),
        ("client seed 257 bytes", [b"--client-seed=" + b"q" * 257], "bad", "bad"),
        ("client seed 255 bytes and a 2-byte character", [b"--client-seed=" + b"q" * 255 + "é".encode()], "bad", "bad"),
        ("client seed not UTF-8 (0xff)", [b"--client-seed=a\xff"], "bad", "bad"),
        ("client seed Latin-1", [b"--client-seed=Zo\xeb"], "bad", "bad"),
        ("client seed a UTF-8 surrogate", [b"--client-seed=\xed\xa0\x80"], "bad", "bad"),
        ("client seed overlong", [b"--client-seed=\xc0\xaf"], "bad", "bad"),
        ("client seed past U+10FFFF", [b"--client-seed=\xf4\x90\x80\x80"], "bad", "bad"),
        ("client seed cut short", [b"--client-seed=\xf0\x9f\x82"], "bad", "bad"),
        ("client seed a lone continuation byte", [b"--client-seed=\x80"], "bad", "bad"),
        ("client seed of 4-byte characters", [b"--client-seed=" + "\U0001f0a1".encode() * 64], "dealt",
         "NOT VALID"),
        ("nonce 2^64 - 1", [b"--nonce=18446744073709551615"], "dealt", "NOT VALID"),
        ("nonce 2^64", [b"--nonce=18446744073709551616"], "bad", "bad"),
        ("nonce of 5000 digits", [b"--nonce=1" + b"0" * 4999], "bad", "bad"),
        ("nonce 0 of 5000 digits", [b"--nonce=" + b"0" * 5000], "dealt", "VALID"),
        ("nonce -1", [b"--nonce=-1"], "bad", "bad"),
        ("nonce +1", [b"--nonce=+1"], "bad", "bad"),
        ("decks 0", [b"--decks=0"], "bad", "bad"),
        ("decks 1001", [b"--decks=1001"], "bad", "bad"),
        ("decks of 5000 digits", [b"--decks=1" + b"0" * 4999], "bad", "bad"),
        ("jokers 3", [b"--jokers=3"], "bad", "bad"),
        ("nonce twice, the same", [b"--nonce=7", b"--nonce=07"], "dealt", "NOT VALID"),
        ("nonce twice, not the same", [b"--nonce=7", b"--nonce=8"], "bad", "bad"),
    ]
    for name, common, want_deal, want in cases:
        dv = deal_verdict([a.decode("utf-8", "surrogateescape") for a in common])
        report("edge %s: fairshuf deal %s" % (name, want_deal), dv[0] == want_deal, "%s %s" % dv)
        args = [a.decode("utf-8", "surrogateescape") for a in common]
        cargs = ["--server-seed=" + S.hex(), "--commitment=" + C] + args + o1[:3]
        pargs = ["--server-seed", S.hex(), "--commitment", C] + args + ["--"] + o1[:3]
        v = {"C": c_verify(cargs), "py": py_verify_process(pargs)}
        client = [a[len(b"--client-seed="):] for a in common if a.startswith(b"--client-seed=")]
        if client:
            # The round's makers refuse what the verifiers refuse: the
            # package (a client seed as bytes) and the library (the helper).
            if pkg is not None:
                v["package"] = pkg_verify(S, C, o1[:3], client[0], 0, 1, 0, partial=True)
                try:
                    pkg.fair_order(S, client[0])
                    v["package fair_order"] = ("NOT VALID", "") if want == "NOT VALID" else ("dealt", "")
                except ValueError as e:
                    v["package fair_order"] = ("bad", str(e))
            if HELPER != "-":
                p = subprocess.run([HELPER, "order", "52", "1", S.hex(), client[0], "0"],
                                   capture_output=True)
                v["library"] = ("bad", "") if p.stdout.startswith(b"error -1:") else \
                    ("NOT VALID", "") if want == "NOT VALID" and p.returncode == 0 else \
                    ("dealt", p.stdout.decode()[:100])
        agree("edge %s: verifiers" % name, v, want)
    # The seed at its bounds.
    for L, want in ((31, "bad"), (32, "VALID"), (0, "bad")):
        s = bytes(range(L))
        o = ref_order(s, "", 0, 1, 0) if L >= 32 else o1
        v = {"C": c_verify(["--server-seed=" + s.hex(), "--commitment=" + hashlib.sha256(s).hexdigest()] + o[:2]),
             "py": py_verify(["--server-seed", s.hex(), "--commitment", hashlib.sha256(s).hexdigest(), "--"] + o[:2])}
        if pkg is not None:
            v["package"] = pkg_verify(s, hashlib.sha256(s).hexdigest(), o, "", 0, 1, 0)
        agree("edge: a seed of %d bytes for one deck" % L, v, want)
    for decks, jokers in ((2, 0), (8, 0), (8, 2), (6, 1)):
        need = vd.seed_min(52 + jokers, decks)
        for L, want in ((need - 1, "bad"), (need, "VALID")):
            s = bytes((5 * k + 9) % 256 for k in range(L))
            o = ref_order(s, "", 0, decks, jokers) or o1
            sh = write(os.path.join(TMP, "b.hex"), s.hex())
            p = subprocess.run([FS, "deal", "--server-seed-file=" + sh, "--decks=%d" % decks,
                                "--jokers=%d" % jokers], capture_output=True)
            report("edge: deal with a %d-byte seed for %d decks, %d jokers: %s" % (L, decks, jokers, want),
                   (p.returncode == 0) == (want == "VALID"), p.stderr.decode()[:200])
            com = hashlib.sha256(s).hexdigest()
            v = {"C": c_verify(["--server-seed=" + s.hex(), "--commitment=" + com, "--decks=%d" % decks,
                                "--jokers=%d" % jokers] + o[:2]),
                 "py": py_verify(["--server-seed", s.hex(), "--commitment", com, "--decks", str(decks),
                                  "--jokers", str(jokers), "--"] + o[:2])}
            if pkg is not None:
                v["package"] = pkg_verify(s, com, o, "", 0, decks, jokers)
            agree("edge: a %d-byte seed for %d decks, %d jokers" % (L, decks, jokers), v, want)
    # Cards: more than the shoe, and a joker the shoe has not.
    v = {"C": c_verify(["--server-seed=" + S.hex(), "--commitment=" + C] + o1 + ["As"]),
         "py": py_verify(["--server-seed", S.hex(), "--commitment", C, "--"] + o1 + ["As"])}
    if pkg is not None:
        v["package"] = pkg_verify(S, C, o1 + ["As"], "", 0, 1, 0, partial=True)
    agree("edge: 53 cards for a 52-card shoe", v, "bad")
    v = {"C": c_verify(["--server-seed=" + S.hex(), "--commitment=" + C, "RJ"]),
         "py": py_verify(["--server-seed", S.hex(), "--commitment", C, "--", "RJ"])}
    if pkg is not None:
        v["package"] = pkg_verify(S, C, ["RJ"], "", 0, 1, 0, partial=True)
    agree("edge: a joker in a shoe without", v, "bad")
    if pkg is not None:
        for name, cards, extra in (("an unknown card", ["Xs"], {}),
                                   ("3 cards for a hand of 2", o1[:3], dict(players=3, cards=2, hand=1)),
                                   ("3 cards for a rest of 2", o1[:3], dict(burn=50, rest=True))):
            pkg_exact("edge: fair_verify, %s: bad input, not False" % name,
                      pkg_verify(S, C, cards, "", 0, 1, 0, partial=True, **extra), "bad")


# ---- the round's shape and getopt's reading: fairshuf verify = verify_deal.py -

def shape_edges():
    """--burn, --players, --cards and --layout at and past their limits,
    and the command line as getopt_long reads it (abbreviations, a value
    that starts with "-", options after the cards, its error messages):
    fairshuf verify and verify_deal.py give the same exit status, VALID or
    NOT VALID lines and message."""
    S = bytes(range(32))
    C = hashlib.sha256(S).hexdigest()
    o = ref_order(S, "", 0, 1, 0)
    r = dict(burn=1, players=3, cards=2)
    rr = printed_laid(o, r, "round-robin")
    bl = printed_laid(o, r, "blocks")
    jf = write(os.path.join(TMP, "shape.json"), json.dumps(make_doc(dict(
        r, decks=1, jokers=0, seed=S, client="", nonce=0, layout="blocks"), o)))
    sx = ref_order(S, "-x", 0, 1, 0)
    sd = ref_order(S, "--", 3, 1, 0)
    R = ["--server-seed=" + S.hex(), "--commitment=" + C]
    cases = [  # (name, arguments, verdict)
        ("burn 1, 3 hands of 2, round-robin", R + ["--burn=1", "--players=3", "--cards=2"] + rr, "VALID"),
        ("burn 1, 3 hands of 2, blocks", R + ["--burn=1", "--players=3", "--cards=2", "--layout=blocks"] + bl,
         "VALID"),
        ("blocks read as round-robin", R + ["--burn=1", "--players=3", "--cards=2"] + bl, "NOT VALID"),
        ("round-robin read as blocks", R + ["--burn=1", "--players=3", "--cards=2", "--layout=blocks"] + rr,
         "NOT VALID"),
        ("hand 2's first card changed", R + ["--burn=1", "--players=3", "--cards=2", "--layout=blocks"] +
         bl[:3] + ["As" if bl[3] != "As" else "Ks"] + bl[4:], "NOT VALID"),
        ("a burn card and the rest changed", R + ["--burn=1", "--players=3", "--cards=2"] +
         [rr[1]] + rr[1:-1] + [rr[0]], "NOT VALID"),
        ("hands only, the burn card missing", R + ["--players=3", "--cards=2"] + rr[1:7], "NOT VALID"),
        ("the burn card and hand 1 only", R + ["--burn=1", "--players=3", "--cards=2"] + rr[:3], "VALID"),
        ("burn only", R + ["--burn=2"] + o[:5], "VALID"),
        ("burn only, a rest card changed", R + ["--burn=2"] + o[:3] + [o[4], o[3]], "NOT VALID"),
        ("burn 0 and a card changed", R + ["--burn=0", o[1]], "NOT VALID"),
        ("burn 52, every card", R + ["--burn=52"] + o, "VALID"),
        ("burn 53", R + ["--burn=53"], "bad"),
        ("burn x", R + ["--burn=x"], "bad"),
        ("burn -1", R + ["--burn=-1"], "bad"),
        ("burn twice, the same", R + ["--burn=1", "--burn=01", o[0]], "VALID"),
        ("burn twice, not the same", R + ["--burn=1", "--burn=2"], "bad"),
        ("players 0", R + ["--players=0", "--cards=1"], "bad"),
        ("players 53", R + ["--players=53", "--cards=1"], "bad"),
        ("players without cards", R + ["--players=2"], "bad"),
        ("cards without players", R + ["--cards=2"], "bad"),
        ("26 hands of 2", R + ["--players=26", "--cards=2"] + printed_laid(o, dict(burn=0, players=26, cards=2),
                                                                           "round-robin"), "VALID"),
        ("a burn card and 26 hands of 2", R + ["--burn=1", "--players=26", "--cards=2"], "bad"),
        ("hands of 0 cards", R + ["--players=4", "--cards=0"] + o[:3], "VALID"),
        ("cards 53", R + ["--players=1", "--cards=53"], "bad"),
        ("cards twice, not the same", R + ["--players=1", "--cards=2", "--cards=3"], "bad"),
        ("layout diagonal", R + ["--layout=diagonal"], "bad"),
        ("layout Blocks", R + ["--layout=Blocks"], "bad"),
        ("layout twice, the same", R + ["--layout=blocks", "--layout=blocks", o[0]], "VALID"),
        ("layout twice, not the same", R + ["--layout=blocks", "--layout=round-robin"], "bad"),
        ("layout twice, one invalid", R + ["--layout=blocks", "--layout=x"], "bad"),
        ("layout without hands", R + ["--layout=blocks"] + o[:4], "VALID"),
        ("53 cards with hands", R + ["--players=1", "--cards=2"] + o + ["As"], "bad"),
        ("print-order with hands", ["--server-seed=" + S.hex(), "--burn=1", "--players=2", "--cards=3",
                                    "--print-order"], None),
        ("--json with --burn", ["--json=" + jf, "--burn=1"], "bad"),
        ("--json with --players and --cards", ["--json=" + jf, "--players=3", "--cards=2"], "bad"),
        ("--json with --layout", ["--json=" + jf, "--layout=blocks"], "bad"),
        ("--json, blocks", ["--json=" + jf], "VALID"),
        # one hand alone, the rest alone
        ("hand 2 alone, round-robin", R + ["--burn=1", "--players=3", "--cards=2", "--hand=2"] + rr[3:5],
         "VALID"),
        ("hand 3 alone, blocks", R + ["--burn=1", "--players=3", "--cards=2", "--layout=blocks",
                                      "--hand=3"] + bl[5:7], "VALID"),
        ("hand 2 alone, its first card", R + ["--burn=1", "--players=3", "--cards=2", "--hand=2"] + rr[3:4],
         "VALID"),
        ("hand 2 alone, its second card changed", R + ["--burn=1", "--players=3", "--cards=2", "--hand=2"] +
         [rr[3], rr[3]], "NOT VALID", "hand 2 card 2 (deal position 6) differs"),
        ("hand 1's cards as hand 2", R + ["--burn=1", "--players=3", "--cards=2", "--hand=2"] + rr[1:3],
         "NOT VALID", "hand 2 card 1 (deal position 3) differs"),
        ("hand 0", R + ["--players=3", "--cards=2", "--hand=0"], "bad", "invalid hand number: '0' (1 to 3)"),
        ("hand 4 of 3", R + ["--players=3", "--cards=2", "--hand=4"], "bad", "invalid hand number: '4' (1 to 3)"),
        ("hand x", R + ["--players=3", "--cards=2", "--hand=x"], "bad", "invalid hand number: 'x'"),
        ("hand twice, the same", R + ["--burn=1", "--players=3", "--cards=2", "--hand=2", "--hand=02"] +
         rr[3:5], "VALID"),
        ("hand twice, not the same", R + ["--players=3", "--cards=2", "--hand=2", "--hand=1"], "bad",
         "multiple hand numbers specified"),
        ("hand without players", R + ["--burn=1", "--hand=1"], "bad", "--hand needs --players"),
        ("hand, 3 cards of a hand of 2", R + ["--burn=1", "--players=3", "--cards=2", "--hand=1"] + rr[1:4],
         "bad", "3 cards given, more than hand 1 holds (2)"),
        ("the rest alone", R + ["--burn=1", "--players=3", "--cards=2", "--rest"] + rr[7:12], "VALID"),
        ("the rest alone, a card changed", R + ["--burn=1", "--players=3", "--cards=2", "--rest"] +
         rr[7:9] + [rr[6]], "NOT VALID", "rest card 3 (deal position 10) differs"),
        ("the rest after burn cards only", R + ["--burn=2", "--rest"] + o[2:10], "VALID"),
        ("the rest, more cards than it holds", R + ["--burn=50", "--rest"] + o[:3], "bad",
         "3 cards given, more than the rest holds (2)"),
        ("hand, 1 card of a hand of 0", R + ["--players=3", "--cards=0", "--hand=2"] + o[:1], "bad",
         "1 card given, more than hand 2 holds (0)"),
        ("the rest, 1 card when it holds none", R + ["--burn=52", "--rest"] + o[:1], "bad",
         "1 card given, more than the rest holds (0)"),
        ("the rest, 2 cards when it holds 1", R + ["--burn=51", "--rest"] + o[:2], "bad",
         "2 cards given, more than the rest holds (1)"),
        ("the rest without burn or players", R + ["--rest"] + o[:3], "bad", "--rest needs --burn"),
        ("hand and rest", R + ["--players=3", "--cards=2", "--hand=1", "--rest"], "bad",
         "cannot combine --hand and --rest"),
        ("--rest=1", R + ["--burn=1", "--rest=1"], "bad", "option '--rest' doesn't allow an argument"),
        ("--json with --hand", ["--json=" + jf, "--hand=1"], "bad", "--json gives the deal: no --decks, --jokers, --burn, --players, --cards, --layout, --hand, --rest or"),
        ("--json with --rest", ["--json=" + jf, "--rest"], "bad", "--json gives the deal: no --decks, --jokers, --burn, --players, --cards, --layout, --hand, --rest or"),
        ("--h: ambiguous", R + ["--h"], "bad", "option '--h' is ambiguous; possibilities: '--hand' '--help'"),
        ("--ha 2 abbreviated", R + ["--b=1", "--pl=3", "--ca=2", "--ha", "2"] + rr[3:5], "VALID"),
        ("--r abbreviated", R + ["--b=1", "--pl=3", "--ca=2", "--r"] + rr[7:9], "VALID"),
        # getopt_long's reading
        ("--client -x", R + ["--client", "-x"] + sx[:3], "VALID"),
        ("--cl=-x", R + ["--cl=-x"] + sx[:3], "VALID"),
        ("--client-seed -- and --nonce 3", R + ["--client-seed", "--", "--nonce", "3", "--"] + sd[:3], "VALID"),
        ("--co and --se abbreviated", ["--server-seed", S.hex(), "--co", C, o[0]], "VALID"),
        ("--pl, --ca and --l abbreviated", R + ["--b", "1", "--pl", "3", "--ca=2", "--l", "blocks"] + bl,
         "VALID"),
        ("cards before, between and after the options", [o[0]] + R[:1] + [o[1]] + R[1:] + [o[2]], "VALID"),
        ("a card that starts with -", R + ["--", "-x"], "bad"),
        ("- as a card", R + ["-"], "bad"),
        ("--c=x: ambiguous", R + ["--c=x"], "bad"),
        ("--p: ambiguous", R + ["--p"], "bad"),
        ("--j 1: ambiguous", R + ["--j", "1"], "bad"),
        ("--server-see: ambiguous", ["--server-see=" + S.hex()], "bad"),
        ("--print-order=1", R + ["--print-order=1"], "bad"),
        ("--nonce without its value", R + ["--nonce"], "bad"),
        ("-x", R + ["-x"], "bad"),
        ("-h", R + ["-h"], "bad"),
        ("--bogus=1", R + ["--bogus=1"], "bad"),
        ("--decks=2 --decks=x", R + ["--decks=2", "--decks=x"], "bad"),
        ("no commitment", ["--server-seed=" + S.hex(), o[0]], "bad"),
        ("no seed", ["--commitment=" + C, o[0]], "bad"),
        ("both seeds", R + ["--server-seed-file=" + jf], "bad"),
        ("the nonce x", R + ["--nonce=x"], "bad"),
        ("a joker in a shoe without", R + ["RJ"], "bad"),
    ]
    for name, args, want, *says in cases:
        same_answer("shape and options: %s" % name, args, want, *says)


# ---- custom faces: the package, the library and the Python text -------------

def faces():
    for m, c in ((1, 1), (1, 5), (2, 1), (3, 2), (13, 4), (57, 1), (58, 1), (60, 3), (100, 2)):
        need = vd.seed_min(m, c)
        seed = bytes((11 * k + m) % 256 for k in range(need))
        want = vd.deal_order(seed, "c\u00e9".encode(), 99, m, c)
        got = {}
        if pkg is not None:
            fs = ["f%d" % k for k in range(m)]
            got["package"] = pkg.fair_order(seed, "c\u00e9", 99, decks=c, faces=fs)
        if HELPER != "-":
            p = subprocess.run([HELPER, "order", str(m), str(c), seed.hex(), "c\u00e9", "99"],
                               capture_output=True, text=True)
            got["library"] = [int(x) for x in p.stdout.split()]
        out = py_output(["--server-seed", seed.hex(), "--faces", str(m), "--copies", str(c),
                         "--client-seed", "c\u00e9", "--nonce", "99"])
        got["verify_deal.py --faces"] = [int(x) for x in out.split() if x.isdigit()]
        bad = [k for k, v in got.items() if v != want]
        report("custom faces %d x %d: %s give the specification's order" % (m, c, ", ".join(got)),
               not bad, "differ: %s" % bad)
        if pkg is not None and need > 32:
            try:
                pkg.fair_order(seed[:-1], "", 0, decks=c, faces=["f%d" % k for k in range(m)])
                report("custom faces %d x %d: the package refuses a seed one byte short" % (m, c), False,
                       "accepted")
            except ValueError:
                report("custom faces %d x %d: the package refuses a seed one byte short" % (m, c), True)


main()
