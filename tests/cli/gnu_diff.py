#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Randomized differential test of the shuf command against GNU shuf 9.1.

Usage: gnu_diff.py MINE GNU [--seed S] [--cases N] [--case K] [--show]

MINE and GNU are the two programs (each called with argv[0] "shuf", so
their messages carry the same name). Case K of seed S is always the same
command line, input and environment (random.Random("S:K")), so a
difference found in a long run is replayed alone with --case K (--show
prints it). The fixed regression cases (REGRESSIONS, below) run first,
then N random cases.

Each case is a command line from a grammar over every option GNU shuf 9.1
has (-e, -i, -n, -o, -r, -z, --random-source, --help, --version, their
long names and GNU's abbreviations of them, bundled short options,
attached values, repeated options, options after operands, --, unknown
options, missing arguments, POSIXLY_CORRECT), an input (files with odd
bytes, no final newline, NUL, CRLF, long and duplicate lines; standard
input as /dev/null, closed, a pipe or a file; `-`, two files, a directory,
a FIFO, a missing file), an output (a pipe, a regular file, /dev/full,
closed, a reader that stops early with SIGPIPE at its default action or
ignored) and a locale (C or C.UTF-8). Both programs run in identical
directories; the exit status, standard error, standard output and every
file -o names are compared, and nothing else in the directory may change.

Where fairshuf differs from GNU on purpose, the rule is here, with the
document that states it:
  * without --random-source the random choices differ (docs/fairshuf.1,
    DIFFERENCES FROM GNU SHUF): outputs are compared as multisets of
    records, or by their number of records with -n or -r;
  * --help and --version describe fairshuf (docs/fairshuf.1: the first
    line of --version is "shuf (fairshuf) VERSION", --help lists the
    extensions): only their exit status and standard error are compared;
  * a failed run leaves -o FILE as it was where GNU shuf truncates it
    (docs/fairshuf.1, DIFFERENCES FROM GNU SHUF): after an error, FILE
    must be unchanged instead of equal to GNU's;
  * -o naming the --random-source file with -r (or the input FILE, with
    --random-source=/dev/stdin): GNU truncates the source before its draws
    and fails with "end of file"; fairshuf draws from the file as it was
    (docs/fairshuf.1, DIFFERENCES FROM GNU SHUF): such cases are not
    generated;
  * the extension options (--seed, --memory, -T, ...) and any abbreviation
    that is a prefix of one (docs/fairshuf.1: "the extensions to any prefix
    that is unique among all options") are never generated as "unknown
    options", since fairshuf accepts them.
"""
import argparse
import errno
import os
import random
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

GNU_LONG = ["echo", "input-range", "head-count", "output", "random-source",
            "repeat", "zero-terminated", "help", "version"]
EXT_LONG = ["seed", "memory", "temporary-directory", "header", "shards",
            "output-prefix", "progress", "no-progress", "threads", "generator"]
CAP = 4 << 20        # bytes of a pipe's output read before closing it
TIMEOUT = 30         # seconds a run may take

# ---------------------------------------------------------------------------
# Fixtures: the same files in each program's directory.


PREFIXES = list(range(0, 25)) + [31, 32, 33, 63, 64, 65, 255, 256, 257,
                                 4095, 4096, 4097]


def fixtures():
    r = random.Random("fixtures")
    f = {
        "e0": b"",
        "e1": b"x\n",
        "nl3": b"\n\n\n",
        "nofinal": b"a\nb\nc",
        "odd": b"a\x00b\nc\r\n\n\n\xff\xfe\n\xe2\x80\x98q\ndup\ndup\n",
        "crlf": b"one\r\ntwo\r\nthree\r\nfour",
        "dups": b"same\n" * 300 + b"other\n" * 3 + b"\n" * 5,
        "long": b"L" * 70000 + b"\nshort\n" + b"M" * 5000,
        "s2": b"1\n2\n",
        "s10": b"".join(b"%d\n" % i for i in range(1, 11)),
        "s100": b"".join(b"%d\n" % i for i in range(1, 101)),
        "s3000": b"".join(b"%d\n" % i for i in range(1, 3001)),
        "z3": b"a\x00b\x00c\x00",
        "znofinal": b"p\x00q\x00r",
        "zmix": b"a\nb\x00c\nd\x00\x00",
        "nul1": b"\x00",
        "bin": bytes(r.randrange(256) for _ in range(3000)),
        "a b": b"space\nname\n",
        "it's": b"q1\nq2\nq3\n",
        "oexist": b"old\n",
        "ro": b"old\n",
        # random sources
        "rs0": b"",
        "rs1": bytes([r.randrange(256)]),
        "rs2": bytes(r.randrange(256) for _ in range(2)),
        "rs3": bytes(r.randrange(256) for _ in range(3)),
        "rs7": bytes(r.randrange(256) for _ in range(7)),
        "rs16": bytes(r.randrange(256) for _ in range(16)),
        "rs33": bytes(r.randrange(256) for _ in range(33)),
        "rs100": bytes(r.randrange(256) for _ in range(100)),
        "rs257": bytes(r.randrange(256) for _ in range(257)),
        "rs4097": bytes(r.randrange(256) for _ in range(4097)),
        "rs70k": bytes(r.randrange(256) for _ in range(70000)),
        "rszero": bytes(5000),
        "rsff": b"\xff" * 5000,
    }
    # Prefixes of one stream: a run that needs exactly L bytes succeeds
    # with rpL and ends in "end of file" with rp(L-1).
    stream = bytes(r.randrange(256) for _ in range(4097))
    for n in PREFIXES:
        f["rp%d" % n] = stream[:n]
    return f


FIX = fixtures()
MODES = {"ro": 0o444}
INPUTS = ["e0", "e1", "nl3", "nofinal", "odd", "crlf", "dups", "long", "s2",
          "s10", "s100", "s3000", "z3", "znofinal", "zmix", "nul1", "bin",
          "a b", "it's"]
SOURCES = ["rs0", "rs1", "rs2", "rs3", "rs7", "rs16", "rs33", "rs100",
           "rs257", "rs4097", "rs70k", "rszero", "rsff"]
SOURCES_ALL = SOURCES + ["rp%d" % n for n in PREFIXES]
FIFO = "fifo"


def make_dir(d):
    os.makedirs(d)
    for name, data in FIX.items():
        p = os.path.join(d, name)
        with open(p, "wb") as fh:
            fh.write(data)
        os.chmod(p, MODES.get(name, 0o644))
    os.mkdir(os.path.join(d, "adir"))
    os.mkfifo(os.path.join(d, FIFO))


def restore(d, before):
    """Put d back as make_dir left it; returns the names that were new."""
    new = []
    for name in os.listdir(d):
        if name not in before:
            new.append(name)
            p = os.path.join(d, name)
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p)
            else:
                os.unlink(p)
    return new


def stamp(d, name):
    try:
        st = os.lstat(os.path.join(d, name))
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode)


def restore_fixtures(d, stamps):
    """Rewrite the fixtures a run changed (-o naming one)."""
    for name in FIX:
        if stamp(d, name) == stamps[name]:
            continue
        p = os.path.join(d, name)
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass
        with open(p, "wb") as fh:
            fh.write(FIX[name])
        os.chmod(p, MODES.get(name, 0o644))
        stamps[name] = stamp(d, name)

# ---------------------------------------------------------------------------
# The grammar.


def abbrev(r, name, others=GNU_LONG):
    """NAME or a prefix of it (ambiguous ones too: GNU's error). fairshuf
    resolves GNU's own names among GNU's options, as GNU does."""
    if r.random() < 0.6:
        return name
    return name[:r.randint(1, len(name))]


UNKNOWN_LONG = ["bogus", "foo", "x", "echoo", "zero-terminatedx", "help-me",
                "verbose", "random-sourcex", "repeatt", "a", "e-", "ver=1",
                "-", "bogus=1", "outputx=y"]
# Never a prefix of an extension's name (module comment).
assert not [u for u in UNKNOWN_LONG
            if any(e.startswith(u.split("=")[0]) for e in EXT_LONG)]
UNKNOWN_SHORT = "xaQEvhR05"   # never T: fairshuf's -T (an extension)

COUNTS_SMALL = ["0", "1", "2", "3", "5", "7", "10"]
COUNTS = COUNTS_SMALL + [
    "100", "1000", "2999", "3000", "3001", "18446744073709551615",
    "18446744073709551616", "99999999999999999999999", "05", "+3", " 4",
    "\t2", "000"]
COUNTS_BAD = ["abc", "-1", "5k", "1e3", "0x10", "", "5 ", "3b", "-0",
              "1.5", "2K", "1k", "\u2018q\u2019", "a'b", "18446744073709551616x"]
RANGES = ["1-10", "0-0", "5-4", "1-1", "1-2", "0-9", "1-100", "3-3000",
          "01-03", "+1-+3", " 1-3", "18446744073709551610-18446744073709551615"]
RANGES_HUGE = ["0-18446744073709551614", "1-18446744073709551615",
               "1000-1999999999", "1-131072", "5-18446744073709551615"]
RANGES_BAD = ["5-3", "x", "1-", "-5", "1-2-3", "3", "1--5", "x-3", "1-x",
              "0-18446744073709551615", "99999999999999999999-3",
              "1-99999999999999999999", "1- 3", "1 -3", "", "-", "a b",
              "1-3x", "18446744073709551615-18446744073709551613"]
WORDS = ["a", "b", "c", "a", "", "x y", "-", "--", "-n", "line\nbreak",
         "\xe9", "it's", "dup", "dup", "dup", "\t", "z\x01"]
MISSING = ["missing", "nodir/x", "a\nb", "x\udcffy", "it's gone", "--"]


class Case:
    def __init__(self):
        self.argv = []
        self.stdin = ("null", None)   # null, closed, pipe NAME, file NAME
        self.stdout = "pipe"          # pipe, file, full, closed, sigpipe, epipe
        self.cap = CAP
        self.locale = "C"
        self.posix = False
        self.fifo = None              # what a writer feeds the FIFO
        self.rs = False               # --random-source given: exact output
        self.z = False
        self.n = False
        self.r = False
        self.outs = []                # -o values
        self.label = ""

    def show(self):
        env = "LC_ALL=%s" % self.locale
        if self.posix:
            env += " POSIXLY_CORRECT=1"
        s = "%s shuf %s" % (env, " ".join(shlex.quote(a) for a in self.argv))
        kind, name = self.stdin
        if kind == "closed":
            s += " <&-"
        elif kind == "file":
            s += " <%s" % shlex.quote(name)
        elif kind == "fileoff":
            s += " <%s (at byte %d)" % (shlex.quote(name), len(FIX[name]) // 3)
        elif kind == "pipe":
            s = "cat %s | %s" % (shlex.quote(name), s)
        s += {"pipe": "", "file": " >FILE", "full": " >/dev/full",
              "closed": " >&-", "sigpipe": " | head -c %d" % self.cap,
              "epipe": " | head -c %d (SIGPIPE ignored)" % self.cap}[self.stdout]
        if self.fifo is not None:
            s += "   [fifo fed %s]" % self.fifo
        return s


def opt_chunks(r, kind, val=None):
    """The argv words of one option, in one of its spellings."""
    short = {"e": "e", "r": "r", "z": "z", "n": "n", "i": "i", "o": "o"}
    long_ = {"e": "echo", "r": "repeat", "z": "zero-terminated",
             "n": "head-count", "i": "input-range", "o": "output",
             "rs": "random-source", "help": "help", "version": "version"}
    if kind in ("rs", "help", "version") or r.random() < 0.35:
        name = abbrev(r, long_[kind])
        if val is None:
            return ["--" + name]
        if r.random() < 0.6:
            return ["--%s=%s" % (name, val)]
        return ["--" + name, val]
    if val is None:
        return ["-" + short[kind]]
    if r.random() < 0.4 and val != "":
        return ["-" + short[kind] + val]
    return ["-" + short[kind], val]


def bundle(r, flags, tail=None):
    """Short flags in one word, an option with a value last."""
    w = "-" + "".join(flags)
    if tail is None:
        return [w]
    k, v = tail
    if r.random() < 0.5 and v != "":
        return [w + k + v]
    return [w + k, v]


def in_force(c):
    """Set c's flags from the options getopt will see (GNU's rules:
    permutation unless POSIXLY_CORRECT, -- ends the options, unique
    prefixes of long names, clusters of short options)."""
    c.rs = c.z = c.n = c.r = False
    c.outs = []
    short_arg = {"i": "i", "n": "n", "o": "o"}
    long_kind = {"echo": "e", "input-range": "i", "head-count": "n",
                 "output": "o", "random-source": "rs", "repeat": "r",
                 "zero-terminated": "z", "help": "help", "version": "version"}
    seen = []
    argv = c.argv
    i = 0
    while i < len(argv):
        w = argv[i]
        i += 1
        if w == "--":
            break
        if not w.startswith("-") or w == "-":
            if c.posix:
                break
            continue
        if w.startswith("--"):
            name, eq, val = w[2:].partition("=")
            hits = [x for x in GNU_LONG if x.startswith(name)]
            if name in GNU_LONG:
                hits = [name]
            if len(hits) != 1:
                continue
            k = long_kind[hits[0]]
            if k in ("i", "n", "o", "rs") and not eq:
                if i >= len(argv):
                    continue
                val = argv[i]
                i += 1
            seen.append((k, val))
            continue
        for j, ch in enumerate(w[1:]):
            if ch in short_arg:
                val = w[j + 2:]
                if val == "":
                    if i >= len(argv):
                        break
                    val = argv[i]
                    i += 1
                seen.append((ch, val))
                break
            seen.append((ch, None))
    for k, v in seen:
        if k == "rs":
            c.rs = True
        elif k == "z":
            c.z = True
        elif k == "n":
            c.n = True
        elif k == "r":
            c.r = True
        elif k == "o":
            c.outs.append(v)


def gen_case(r):
    c = Case()
    c.locale = r.choice(["C", "C", "C.UTF-8"])
    c.posix = r.random() < 0.04
    mode = r.choices(["file", "echo", "range"], [5, 3, 3])[0]
    opts = []      # list of (kind, val)
    operands = []
    if mode == "echo":
        opts.append(("e", None))
        operands = [r.choice(WORDS) for _ in range(r.choice([0, 1, 2, 3, 5, 8]))]
    elif mode == "range":
        x = r.random()
        if x < 0.7:
            rng = r.choice(RANGES)
        elif x < 0.85:
            rng = r.choice(RANGES_HUGE)
        else:
            rng = r.choice(RANGES_BAD)
        opts.append(("i", rng))
        if r.random() < 0.05:
            operands.append(r.choice(INPUTS))
        if r.random() < 0.04:
            opts.append(("i", r.choice([rng, "1-3"])))
        huge = rng in RANGES_HUGE
    else:
        x = r.random()
        if x < 0.55:
            operands = [r.choice(INPUTS)]
        elif x < 0.7:
            operands = []
            c.stdin = (r.choice(["pipe", "file", "fileoff"]), r.choice(INPUTS))
        elif x < 0.75:
            operands = [r.choice(["-", "-", "/dev/stdin", "/dev/null"])]
            c.stdin = (r.choice(["pipe", "file", "closed"]), r.choice(INPUTS))
        elif x < 0.8:
            operands = [r.choice(INPUTS), r.choice(INPUTS + MISSING)]
        elif x < 0.85:
            operands = ["adir"]
        elif x < 0.9:
            operands = [FIFO]
            c.fifo = r.choice(INPUTS)
        elif x < 0.95:
            operands = [r.choice(MISSING)]
        else:
            operands = []
            c.stdin = (r.choice(["null", "closed"]), None)
    if mode != "file" and r.random() < 0.2:
        c.stdin = (r.choice(["pipe", "closed"]), r.choice(INPUTS))
    if c.stdin[0] == "null" and r.random() < 0.05:
        # for --random-source=/dev/stdin
        c.stdin = ("pipe", r.choice(SOURCES_ALL))
    huge = mode == "range" and opts[0][1] in RANGES_HUGE
    # -n
    for _ in range(r.choices([0, 1, 2], [5, 5, 1])[0]):
        x = r.random()
        v = (r.choice(COUNTS_SMALL) if x < 0.6 else
             r.choice(COUNTS) if x < 0.9 else r.choice(COUNTS_BAD))
        opts.append(("n", v))
    if r.random() < 0.3:
        opts.append(("r", None))
    if r.random() < 0.25:
        opts.append(("z", None))
    if r.random() < 0.7:
        x = r.random()
        src = (r.choice(SOURCES) if x < 0.5 else
               r.choice(SOURCES_ALL) if x < 0.85 else
               r.choice(["missing", "adir", "/dev/null", "/dev/zero", FIFO,
                         "/dev/stdin", "", "-", "rs3/",
                         r.choice(INPUTS)]))
        if src == "/dev/stdin" and c.fifo is not None:
            # The FIFO operand becomes standard input: a second open of
            # it would wait for a writer for ever.
            src = "rs3"
        if src == FIFO:
            if c.fifo is not None:
                src = "rs70k"
            else:
                c.fifo = r.choice(SOURCES)
        opts.append(("rs", src))
        if r.random() < 0.05:
            opts.append(("rs", r.choice([src, "rs3"])))
    if r.random() < 0.25:
        tgt = r.choice(["out", "oexist", "oexist", "/dev/full", "adir",
                        "nodir/x", "ro", "", "/dev/null", "it's",
                        "/dev/stdout", "/dev/stderr", "/dev/stdin",
                        operands[0] if operands else "out2",
                        dict(opts).get("rs", "rs3")])
        if tgt == FIFO:  # no reader: both would wait for ever
            tgt = "out"
        opts.append(("o", tgt))
        if r.random() < 0.08:
            opts.append(("o", r.choice([tgt, "out3"])))
    if r.random() < 0.03:
        opts.append((r.choice(["help", "version"]), None))
    if r.random() < 0.06:
        opts.append(("e", None))
    if r.random() < 0.04 and mode != "range":
        opts.append(("i", r.choice(RANGES)))

    kinds = [k for k, _ in opts]
    c.r = "r" in kinds
    c.z = "z" in kinds
    c.n = "n" in kinds
    c.rs = "rs" in kinds
    c.outs = [v for k, v in opts if k == "o"]
    srcs = [v for k, v in opts if k == "rs"]
    if c.r and c.outs and (any(o in srcs for o in c.outs) or
                           "/dev/stdin" in srcs):
        # Not generated: the documented difference (module comment); a
        # source /dev/stdin is the input FILE (GNU reopens it there), which
        # -o may name.
        c.outs = []
        opts = [(k, v) for k, v in opts if k != "o"]
    if "/dev/stdin" in c.outs and c.stdin[0] == "pipe":
        # Written to, a pipe our feeder fills would block both for ever.
        c.stdin = ("file", c.stdin[1])

    # Spell the options: some bundled, the rest one by one.
    chunks = []
    flags = [o for o in opts if o[1] is None and o[0] in "erz"]
    rest = [o for o in opts if not (o[1] is None and o[0] in "erz")]
    if len(flags) >= 2 and r.random() < 0.5 or flags and r.random() < 0.3:
        tail = None
        cand = [o for o in rest if o[0] in ("n", "i", "o")]
        if cand and r.random() < 0.5:
            t = r.choice(cand)
            rest.remove(t)
            tail = (t[0], t[1])
        chunks.append(("opt", bundle(r, [k for k, _ in flags], tail)))
    else:
        rest += flags
    for k, v in rest:
        chunks.append(("opt", opt_chunks(r, k, v)))
    # Noise: unknown options, arguments to flags, a missing argument.
    if r.random() < 0.05:
        if r.random() < 0.5:
            chunks.append(("opt", ["--" + r.choice(UNKNOWN_LONG)]))
        else:
            chunks.append(("opt", ["-" + r.choice(UNKNOWN_SHORT)]))
    if r.random() < 0.02:
        chunks.append(("opt", ["--%s=1" % abbrev(r, r.choice(["echo", "repeat", "zero-terminated", "help", "version"]))]))
    if r.random() < 0.5:
        r.shuffle(chunks)
    words = [("arg", [w]) for w in operands]
    if r.random() < 0.4:
        allc = chunks + words
        r.shuffle(allc)
    else:
        allc = chunks + words
    if r.random() < 0.15:
        allc.insert(r.randint(0, len(allc)), ("dd", ["--"]))
    if r.random() < 0.03:
        allc.append(("opt", [r.choice(["-n", "-i", "-o", "--random-source",
                                       "--head-count", "--input", "--output"])]))
    argv = [w for _, ws in allc for w in ws]

    x = r.random()
    if x < 0.72:
        c.stdout = "pipe"
    elif x < 0.82:
        c.stdout = "file"
    elif x < 0.9:
        c.stdout = "full"
    else:
        c.stdout = "closed"
    # Runs that could write without end to a file, or a range too large
    # to list, get a small -n first (always in force: the smallest -n
    # wins). Endless output to a pipe is read up to CAP bytes.
    if huge or (c.r and (c.outs or c.stdout == "file" or r.random() < 0.7)):
        argv = ["-n", r.choice(COUNTS_SMALL)] + argv
    c.argv = argv
    in_force(c)
    return c


def gen_pipe_case(r):
    """A run that writes without end into a reader that stops early:
    SIGPIPE at its default action (killed), or ignored (EPIPE: GNU's
    write error)."""
    c = Case()
    c.locale = r.choice(["C", "C.UTF-8"])
    c.stdout = r.choice(["sigpipe", "epipe"])
    c.cap = r.choice([0, 1, 100, 4096, 70000])
    what = r.choice(["e", "i", "f"])
    if what == "e":
        args = ["-e"] + [r.choice(WORDS) for _ in range(r.randint(1, 4))]
    elif what == "i":
        args = ["-i", r.choice(["1-1", "1-10", "0-18446744073709551614"])]
    else:
        args = [r.choice(["s10", "s3000", "long", "odd", "e1", "bin"])]
    opts = [[r.choice(["-r", "--repeat", "--rep"])]]
    if r.random() < 0.3:
        opts.append(["-z"])
    if r.random() < 0.3:
        opts.append(["-o", "/dev/stdout"])
    r.shuffle(opts)
    c.argv = [w for o in opts for w in o] + args
    in_force(c)
    return c

# ---------------------------------------------------------------------------
# Running.


class Result:
    pass


def feed_fifo(path, data, stop):
    """Open the FIFO for writing once a reader has it, write data."""
    fd = -1
    while not stop.is_set():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:
            if e.errno != errno.ENXIO:
                return
            time.sleep(0.0005)
    if fd < 0:
        return
    os.set_blocking(fd, True)
    feed_pipe(fd, data)


def feed_pipe(fd, data):
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError:
        pass
    os.close(fd)


def run(prog, d, c, scratch):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "LC_ALL": c.locale, "TMPDIR": scratch}
    if c.posix:
        env["POSIXLY_CORRECT"] = "1"
    res = Result()
    errp = os.path.join(scratch, "err")
    outp = os.path.join(scratch, "out")
    errf = open(errp, "wb")
    kind, name = c.stdin
    stdin_w = None
    wrap = []  # closing a descriptor or ignoring SIGPIPE: through sh
    if kind == "null":
        stdin = subprocess.DEVNULL
    elif kind == "closed":
        stdin = subprocess.DEVNULL
        wrap.append("exec 0<&-")
    elif kind in ("file", "fileoff"):
        stdin = open(os.path.join(d, name), "rb")
        if kind == "fileoff":
            stdin.seek(len(FIX[name]) // 3)
    else:
        rfd, stdin_w = os.pipe()
        stdin = rfd
    outf = None
    if c.stdout in ("pipe", "sigpipe", "epipe"):
        stdout = subprocess.PIPE
    elif c.stdout == "file":
        outf = open(outp, "wb")
        stdout = outf
    elif c.stdout == "full":
        outf = open("/dev/full", "wb")
        stdout = outf
    else:
        stdout = subprocess.DEVNULL
        wrap.append("exec 1>&-")
    if c.stdout == "epipe":
        wrap.insert(0, "trap '' PIPE")
    if wrap:
        env["PATH"] = os.path.dirname(prog) + ":" + env["PATH"]
        cmd = ["sh", "-c", "; ".join(wrap) + '; exec shuf "$@"', "sh"] + c.argv
        exe = None
    else:
        cmd = ["shuf"] + c.argv
        exe = prog
    stop = threading.Event()
    th = []
    if c.fifo is not None:
        t = threading.Thread(target=feed_fifo,
                             args=(os.path.join(d, FIFO), FIX[c.fifo], stop))
        t.start()
        th.append(t)
    p = subprocess.Popen(cmd, executable=exe, cwd=d, env=env, stdin=stdin,
                         stdout=stdout, stderr=errf)
    res.timed_out = False

    def kill():
        res.timed_out = True
        p.kill()
    watchdog = threading.Timer(TIMEOUT, kill)
    watchdog.start()
    if stdin_w is not None:
        os.close(stdin)
        t = threading.Thread(target=feed_pipe, args=(stdin_w, FIX[name]))
        t.start()
        th.append(t)
    elif kind in ("file", "fileoff"):
        stdin.close()
    if outf is not None:
        outf.close()
    out = b""
    res.truncated = False
    if p.stdout is not None:
        cap = c.cap if c.stdout != "pipe" else CAP
        chunks = []
        got = 0
        while got < cap:
            b = os.read(p.stdout.fileno(), min(65536, cap - got))
            if not b:
                break
            chunks.append(b)
            got += len(b)
        out = b"".join(chunks)
        res.truncated = got >= cap
        p.stdout.close()
    res.rc = p.wait()
    watchdog.cancel()
    if res.timed_out:
        res.rc = "timeout"
    stop.set()
    for t in th:
        t.join()
    errf.close()
    with open(errp, "rb") as fh:
        res.err = fh.read()
    if c.stdout == "file":
        with open(outp, "rb") as fh:
            out = fh.read()
    res.out = out
    os.unlink(errp)
    if os.path.exists(outp):
        os.unlink(outp)
    res.files = {}
    for o in c.outs:
        rel = o if o and not o.startswith("/") else None
        if rel is None:
            continue
        path = os.path.join(d, rel)
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                res.files[rel] = fh.read()
        else:
            res.files[rel] = None
    return res

# ---------------------------------------------------------------------------
# Comparing.


def records(data, delim):
    parts = data.split(delim)
    if parts and parts[-1] == b"":
        parts.pop()
    return parts


def same_output(c, g, m, what):
    """None when m's output g matches GNU's under the case's rule."""
    if g == m:
        return None
    if c.rs:
        return "%s differs (%d vs %d bytes)" % (what, len(g), len(m))
    delim = b"\0" if c.z else b"\n"
    # Random output (module comment): as multisets, or record counts.
    if not g.endswith(delim) and g or not m.endswith(delim) and m:
        return "%s: no final delimiter" % what
    rg, rm = records(g, delim), records(m, delim)
    if c.n or c.r:
        if not c.z and any("\n" in w for w in c.argv):
            return None  # an -e operand's newline: records are not lines
        if len(rg) == len(rm):
            return None
        return "%s: %d vs %d records" % (what, len(rg), len(rm))
    if sorted(rg) == sorted(rm):
        return None
    return "%s: multisets differ (%d vs %d records)" % (what, len(rg), len(rm))


def err_rule(c, err):
    """Without --random-source the output's size is random, and with it
    whether a write error shows mid-stream (GNU's second, bare "write
    error" line): compare the first write error only."""
    if c.rs:
        return err
    lines = err.split(b"\n")
    for i, line in enumerate(lines):
        if line.startswith(b"shuf: write error"):
            return b"\n".join(lines[:i + 1] +
                              [x for x in lines[i + 1:]
                               if not x.startswith(b"shuf: write error")])
    return err


def is_info(res):
    return res.rc == 0 and (res.out.startswith(b"Usage: ") or
                            res.out.startswith(b"shuf (GNU coreutils)"))


def compare(c, g, m, new_g, new_m):
    why = []
    if g.rc == "timeout" or m.rc == "timeout":
        why.append("timeout (gnu %s, mine %s)" % (g.rc, m.rc))
        return why
    trunc = g.truncated or m.truncated
    if c.stdout in ("sigpipe", "epipe") or not trunc:
        if g.rc != m.rc:
            why.append("exit status %s vs %s" % (g.rc, m.rc))
        if "/dev/stderr" in c.outs and not c.rs:
            # The random output went to standard error.
            w = same_output(c, g.err, m.err, "stderr (-o /dev/stderr)")
            if w:
                why.append(w)
        elif err_rule(c, g.err) != err_rule(c, m.err):
            why.append("stderr differs:\n      gnu : %r\n      mine: %r"
                       % (g.err[:400], m.err[:400]))
    if c.stdout in ("sigpipe", "epipe"):
        pass  # the bytes before the reader stopped: random (no source)
    elif is_info(g):
        # --help/--version: fairshuf's own text (module comment).
        head = b"Usage: shuf " if g.out.startswith(b"Usage") else b"shuf (fairshuf) "
        if not m.out.startswith(head):
            why.append("--help/--version output starts %r" % m.out[:40])
    elif trunc:
        n = min(len(g.out), len(m.out))
        if c.rs and g.out[:n] != m.out[:n]:
            why.append("stdout prefixes differ")
    else:
        w = same_output(c, g.out, m.out, "stdout")
        if w:
            why.append(w)
    for rel in m.files:
        gf, mf = g.files.get(rel), m.files[rel]
        if m.rc != 0:
            # A failed run leaves FILE as it was (module comment).
            orig = FIX.get(rel) if rel not in new_m else None
            if rel in new_m and mf is not None:
                why.append("-o %s: created by a failed run" % rel)
            elif mf != orig and not (orig is None and mf is None):
                why.append("-o %s: changed by a failed run" % rel)
        elif g.rc == 0 and gf is not None and mf is not None:
            w = same_output(c, gf, mf, "-o " + rel)
            if w:
                why.append(w)
        elif (gf is None) != (mf is None):
            why.append("-o %s: %s by GNU, %s by mine" % (
                rel, "absent" if gf is None else "written",
                "absent" if mf is None else "written"))
    extra = [x for x in new_m if x not in m.files]
    if extra:
        why.append("left in the directory: %r" % extra)
    return why


REGRESSIONS = [
    # (argv, stdin, stdout, locale)
]


def regression_case(spec):
    c = Case()
    argv, stdin, stdout, loc = spec
    c.argv = list(argv)
    c.stdin = stdin
    c.stdout = stdout
    c.locale = loc
    in_force(c)
    return c


# ---------------------------------------------------------------------------
# Output errors on a full file system (--fullfs DIR: a small tmpfs that
# test_gnu_diff.sh mounted): the old FILE, free space, the output and how
# FILE is written vary; exit status and messages must be GNU's, FILE
# GNU's after a success and its old contents after a failure.


def fs_free(d):
    st = os.statvfs(d)
    return st.f_bavail * st.f_frsize


def fs_clear(d):
    for name in os.listdir(d):
        os.unlink(os.path.join(d, name))


def fs_case(r, fsize):
    c = {"old": r.choice([None, 0, 1000, 6000, 30000, 90000, 150000]),
         "free": r.choice([0, 4096, 8192, 20000, 40000, 70000, 120000]),
         "link": r.random() < 0.15, "stdout": r.random() < 0.15,
         "fsize": None, "xfsz": False}
    if fsize:
        # A file size limit (ulimit -f, bytes), SIGXFSZ ignored (EFBIG,
        # "File too large") or not (killed by it).
        c["fsize"] = r.choice([0, 1000, 4096, 10000, 50000, 100000])
        c["xfsz"] = r.random() < 0.7
    k = r.choice([1, 10, 800, 1000, 3000, 6000, 12000, 25000, 40000])
    what = r.choice(["range", "range", "self", "repeat", "echo"])
    if what == "range":
        args = ["-i", "1-%d" % k]
    elif what == "self":
        args = ["f"]
        if c["old"] is None:
            c["old"] = 1000
    elif what == "repeat":
        args = ["-r", "-n", str(k), "-e", "a line of text"]
    else:
        args = ["-e"] + ["w%d" % i for i in range(min(k, 3000))]
    if r.random() < 0.3:
        args += ["-n", str(r.choice([0, 5, k // 2 or 1]))]
    c["args"] = args
    return c


def fs_old(c):
    if c["old"] is None:
        return None
    return b"".join(b"old %d\n" % i for i in range(c["old"] // 7 + 1))[:c["old"]]


def fs_show(args):
    if len(args) <= 12:
        return " ".join(args)
    return " ".join(args[:6]) + " ... (%d words) " % (len(args) - 9) + \
        " ".join(args[-3:])


def fs_run(prog, d, c, rs):
    fs_clear(d)
    old = fs_old(c)
    if old is not None:
        with open(os.path.join(d, "f"), "wb") as fh:
            fh.write(old)
        if c["link"]:
            os.link(os.path.join(d, "f"), os.path.join(d, "f2"))
    fill = fs_free(d) - c["free"]
    if fill > 0 and c["fsize"] is None:
        with open(os.path.join(d, "fill"), "wb") as fh:
            fh.write(bytes(fill))
    argv = ["shuf", "--random-source=" + rs] + c["args"]
    stdout = subprocess.DEVNULL
    if c["stdout"]:
        stdout = open(os.path.join(d, "g"), "wb")
    else:
        argv += ["-o", "f"]
    def limit():
        if c["fsize"] is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (c["fsize"], c["fsize"]))
            if c["xfsz"]:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    p = subprocess.run(argv, executable=prog, cwd=d, stdout=stdout,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
                       preexec_fn=limit)
    if c["stdout"]:
        stdout.close()
    res = Result()
    res.rc, res.err = p.returncode, p.stderr
    name = "g" if c["stdout"] else "f"
    path = os.path.join(d, name)
    res.out = open(path, "rb").read() if os.path.exists(path) else None
    res.names = sorted(os.listdir(d))
    return res


def fullfs(a, top):
    """--fullfs DIR: a full file system at DIR; --fullfs "": a file size
    limit instead, in a directory of our own."""
    d = a.fullfs
    fsize = d == ""
    if fsize:
        d = os.path.join(top, "fsize")
        os.mkdir(d)
    rs = os.path.join(top, "rs")
    with open(rs, "wb") as fh:
        fh.write(FIX["rs70k"] * 20)
    ndiff = 0
    cases = range(a.cases) if a.case is None else [a.case]
    for i in cases:
        r = random.Random("%s:%s:%d" % ("fsize" if fsize else "fullfs",
                                        a.seed, i))
        c = fs_case(r, fsize)
        g = fs_run(a.gnu, d, c, rs)
        m = fs_run(a.mine, d, c, rs)
        why = []
        if g.rc != m.rc:
            why.append("exit status %s vs %s" % (g.rc, m.rc))
        if g.err != m.err:
            why.append("stderr: gnu %r, mine %r" % (g.err, m.err))
        if m.rc == 0 and g.rc == 0 and g.out != m.out:
            why.append("output differs")
        if m.rc != 0 and not c["stdout"] and m.out != fs_old(c):
            # A failed run leaves FILE as it was (module comment).
            why.append("-o f changed by a failed run")
        if m.names != g.names and not (m.rc != 0 and c["old"] is None):
            why.append("files left: gnu %r, mine %r" % (g.names, m.names))
        if why:
            ndiff += 1
            if ndiff <= a.max_report:
                print("DIFF fullfs case %d (seed %s): old %s %s%s%s: "
                      "shuf %s" % (i, a.seed, c["old"],
                                   "free %s" % c["free"] if not fsize else
                                   "ulimit -f %d bytes%s" % (
                                       c["fsize"], ", SIGXFSZ ignored"
                                       if c["xfsz"] else ""),
                                   " hard-linked" if c["link"] else "",
                                   " stdout" if c["stdout"] else " -o f",
                                   fs_show(c["args"])))
                for w in why:
                    print("    " + w)
    fs_clear(d)
    print("gnu_diff: %d cases, %d differences" % (len(cases), ndiff))
    return 1 if ndiff else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mine")
    ap.add_argument("gnu")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--case", type=int, default=None)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--max-report", type=int, default=20)
    ap.add_argument("--fullfs", default=None)
    a = ap.parse_args()
    top = tempfile.mkdtemp(prefix="fsh-gnudiff.")
    try:
        if a.fullfs is not None:
            a.mine, a.gnu = os.path.abspath(a.mine), os.path.abspath(a.gnu)
            return fullfs(a, top)
        return drive(a, top)
    finally:
        for root, dirs, _ in os.walk(top):
            for x in dirs:
                os.chmod(os.path.join(root, x), 0o755)
        shutil.rmtree(top, ignore_errors=True)


def drive(a, top):
    dirs = {"gnu": os.path.join(top, "gnu"), "mine": os.path.join(top, "mine")}
    scratch = {k: os.path.join(top, "s-" + k) for k in dirs}
    progs = {"gnu": os.path.abspath(a.gnu), "mine": os.path.abspath(a.mine)}
    for k in dirs:
        make_dir(dirs[k])
        os.mkdir(scratch[k])
    # argv[0] "shuf" for both: symlinks named shuf (the sh wrapper finds
    # them in PATH).
    for k in progs:
        ln = os.path.join(top, "bin-" + k)
        os.mkdir(ln)
        os.symlink(progs[k], os.path.join(ln, "shuf"))
        progs[k] = os.path.join(ln, "shuf")
    before = {k: set(os.listdir(dirs[k])) for k in dirs}
    stamps = {k: {n: stamp(dirs[k], n) for n in FIX} for k in dirs}
    cases = []
    if a.case is None:
        cases += [(-1 - i, regression_case(s)) for i, s in enumerate(REGRESSIONS)]
        ids = range(a.cases)
    else:
        ids = [a.case]
    ndiff = 0
    nrun = 0

    def one(cid, c):
        nonlocal ndiff, nrun
        if a.show:
            print("case %s: %s" % (cid, c.show()))
        res = {}
        new = {}
        for k in ("gnu", "mine"):
            res[k] = run(progs[k], dirs[k], c, scratch[k])
            new[k] = restore(dirs[k], before[k])
            restore_fixtures(dirs[k], stamps[k])
            left = restore(scratch[k], set())
            if left and k == "mine":
                new[k].append("TMPDIR: %r" % left)
        why = compare(c, res["gnu"], res["mine"], new["gnu"], new["mine"])
        nrun += 1
        if why:
            ndiff += 1
            if ndiff <= a.max_report:
                print("DIFF case %s (seed %s): %s" % (cid, a.seed, c.show()))
                for w in why:
                    print("    " + w)
                sys.stdout.flush()
    for cid, c in cases:
        one(cid, c)
    for i in ids:
        r = random.Random("%s:%d" % (a.seed, i))
        c = gen_pipe_case(r) if r.random() < 0.04 else gen_case(r)
        one(i, c)
    print("gnu_diff: %d cases, %d differences" % (nrun, ndiff))
    return 1 if ndiff else 0


if __name__ == "__main__":
    sys.exit(main())
