#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what fairshuf needs to build and test, on Debian-like systems.
# Uses apt-get when it can (root, or sudo without a password); otherwise
# prints the exact command to run. With --fuzz, also clang and its
# sanitizer/libFuzzer runtimes (make fuzz, make tsan with clang). With
# --test (make check), also what the tests use: python3, Chromium, Node.js
# and npm, and playwright-core from npm in tests/fair/node_modules (the
# browser test of web/verify.html); Debian's Python headers, numpy, pytest
# and setuptools (the Python package, python/); Open MPI (mpicc, mpirun:
# libfairshuf_mpi and fairshuf-mpi).
# FSH_DEPS_ROOT (tests/cli/test_deps.sh): a directory standing for / where
# the script looks for files by path (/usr/bin/python3, chromium, time).
set -u
R=${FSH_DEPS_ROOT:-}
missing=""
if [ "${1:-}" = --fuzz ]; then
    printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' |
        clang -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1 ||
        missing="$missing clang libclang-rt-14-dev"
fi
if [ "${1:-}" = --test ]; then
    command -v python3 >/dev/null 2>&1 || missing="$missing python3"
    [ -x "$R/usr/bin/python3" ] && "$R/usr/bin/python3" -c 'import sysconfig, os, numpy, pytest, setuptools, pip
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' >/dev/null 2>&1 ||
        missing="$missing python3-dev python3-numpy python3-pytest python3-setuptools python3-pip"
    { command -v mpicc && command -v mpirun; } >/dev/null 2>&1 || missing="$missing openmpi-bin libopenmpi-dev"
    [ -x "$R/usr/bin/chromium" ] || missing="$missing chromium"
    command -v node >/dev/null 2>&1 || missing="$missing nodejs"
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi
# playwright-core (npm) for the browser test, once node and npm are there.
npm_deps() {
    [ "${1:-}" = --test ] || return 0
    [ -f tests/fair/node_modules/playwright-core/package.json ] && return 0
    command -v npm >/dev/null 2>&1 || return 1
    npm install --prefix tests/fair --no-save --no-package-lock --no-audit \
        --no-fund playwright-core >/dev/null 2>&1 || {
        echo "deps: run: npm install --prefix tests/fair playwright-core" >&2
        return 1
    }
}
have_hdr() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1; }
command -v ${CC:-cc} >/dev/null 2>&1 || missing="$missing build-essential"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
have_hdr sodium.h || missing="$missing libsodium-dev"
command -v make >/dev/null 2>&1 || missing="$missing make"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
[ -x "$R/usr/bin/time" ] || missing="$missing time"
if [ -z "$missing" ]; then npm_deps "${1:-}"; exit $?; fi
echo "deps: missing:$missing" >&2
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
    if [ "$SUDO" != none ]; then
        # Only what is missing: the whole list asks for Debian's npm, which
        # a Node.js from another source (one that brings its own npm)
        # conflicts with, and apt-get then installs nothing at all ("held
        # broken packages"), chromium included.
        # shellcheck disable=SC2086
        $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null &&
            { npm_deps "${1:-}"; exit $?; }
    fi
    echo "deps: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
else
    echo "deps: install a C compiler, g++, make and libsodium (headers) with your package manager" >&2
fi
exit 1
