# SPDX-License-Identifier: MIT
"""Fixtures for the fairshuf Python tests.

FAIRSHUF: the command (default: ../../fairshuf from here); FSH_PY_CHELPER:
the reference program tests/chelper.c linked to libfairshuf.a (built here
into a temporary directory when unset, if gcc and ../../libfairshuf.a are
there). Tests that need one skip without it.
"""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope="session")
def chelper(tmp_path_factory):
    path = os.environ.get("FSH_PY_CHELPER")
    if path and os.access(path, os.X_OK):
        return path
    liba = os.path.join(ROOT, "libfairshuf.a")
    cc = shutil.which("gcc") or shutil.which("cc")
    if not cc or not os.path.isfile(liba):
        pytest.skip("no C compiler or no libfairshuf.a (run make)")
    out = str(tmp_path_factory.mktemp("chelper") / "chelper")
    subprocess.run([cc, "-std=c11", "-O2", "-I", os.path.join(ROOT, "include"),
                    os.path.join(HERE, "chelper.c"), liba, "-lsodium", "-lm", "-lpthread",
                    "-o", out], check=True)
    return out


@pytest.fixture(scope="session")
def command():
    path = os.environ.get("FAIRSHUF") or os.path.join(ROOT, "fairshuf")
    if not os.access(path, os.X_OK):
        pytest.skip("no fairshuf command (run make)")
    return path


def run_lines(argv):
    """Run argv; its standard output as a list of ints, one a line."""
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE).stdout
    return [int(x) for x in out.split()]
