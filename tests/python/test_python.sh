#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 39 (its usual wall time in s: longest first)
# The Python package's pytest suite (python/tests), run with Debian's
# Python (FSH_PYTHON, default /usr/bin/python3) against the extension make
# builds into build/python/lib (mk/python.mk), or, when that is missing or
# stale, one built here into a temporary directory. pytest's counts become
# this script's one summary line. Skips (with the reason) without Python.h,
# setuptools, numpy or pytest, and under the sanitizers (an ASan library
# cannot be loaded into an uninstrumented python3). Then the README's
# install, `pip install --no-build-isolation ./python` offline from a copy
# of the tree into a private target, imported from another directory.
NAME=test_python
. "$(dirname "$0")/../cli/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
PY=${FSH_PYTHON:-/usr/bin/python3}

if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "sanitizer run: the extension is not built with ASan"
    finish
    exit 0
fi
if [ ! -x "$PY" ]; then
    skipped "no $PY"
    finish
    exit 0
fi
for m in numpy pytest setuptools; do
    if ! "$PY" -c "import $m" 2>/dev/null; then
        skipped "$PY has no $m (Debian: python3-$m)"
        finish
        exit 0
    fi
done
if ! "$PY" -c 'import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null; then
    skipped "no Python.h for $PY (Debian: python3-dev)"
    finish
    exit 0
fi

# The extension: make's build if it is newer than every source, else ours.
lib=$top/build/python/lib
so=$(ls "$lib"/fairshuf/_fairshuf*.so 2>/dev/null | head -n 1)
fresh=0
if [ -n "$so" ]; then
    fresh=1
    for f in "$top"/src/*/*.c "$top"/src/*/*.h "$top"/shared/*.h "$top"/include/fairshuf.h \
        "$top"/python/fairshuf/_fairshuf.c "$top"/python/setup.py; do
        [ "$f" -nt "$so" ] && fresh=0
    done
    for f in "$top"/python/fairshuf/*.py "$top"/python/fairshuf/*.pyi; do
        cmp -s "$f" "$lib/fairshuf/$(basename "$f")" || fresh=0
    done
fi
if [ "$fresh" != 1 ]; then
    lib=$T/lib
    if ! (cd "$top/python" && "$PY" setup.py -q build -j2 --build-lib "$lib" \
        --build-temp "$T/tmp") >"$T/build.log" 2>&1; then
        tail -n 30 "$T/build.log" >&2
        bad "building the extension"
        finish
        exit 1
    fi
fi

(cd "$T/w" && PYTHONPATH=$lib FAIRSHUF=$FAIRSHUF PYTHONDONTWRITEBYTECODE=1 \
    $TO "$PY" -m pytest -q -rs -p no:cacheprovider "$top/python/tests") >"$T/pytest.log" 2>&1
rc=$?
tail_line=$(grep -E '(passed|failed|error|skipped|no tests ran)' "$T/pytest.log" | tail -n 1)
count() { echo "$tail_line" | sed -n "s/.*[^0-9]\([0-9][0-9]*\) $1.*/\1/p;s/^\([0-9][0-9]*\) $1.*/\1/p" | head -n 1; }
p=$(count passed)
f=$(count failed)
e=$(count error)
s=$(count skipped)
pass=${p:-0}
fail=$((${f:-0} + ${e:-0}))
skip=${s:-0}
grep -E '^SKIPPED' "$T/pytest.log" | sed "s/^/$NAME: skip: /" >&2
if [ "$fail" -gt 0 ] || [ "$rc" -ne 0 ]; then
    grep -E '^(FAILED|ERROR)' "$T/pytest.log" | sed "s/^/$NAME: /" >&2
    tail -n 40 "$T/pytest.log" >&2
    [ "$fail" -gt 0 ] || fail=1
fi
[ "$pass" -gt 0 ] || [ "$fail" -gt 0 ] || bad "pytest ran no test"

# exports SO: the extension's dynamic symbols are PyInit__fairshuf alone.
# The library compiled into it keeps its fsh_* functions to itself: it
# exported all of them, and where the interpreter links extensions without
# -Bsymbolic-functions (Debian's does; pyenv's and python.org's builds do
# not), in a process that already has a libfairshuf.so in its global scope
# (a program linked against it that embeds Python, or a module loaded
# RTLD_GLOBAL) the extension's own calls to them bind to that library,
# another version whose internals differ from the ones compiled in.
exports() {
    nm -D --defined-only "$1" | awk 'NF >= 3 { print $3 }' >"$T/exports" &&
        grep -qx PyInit__fairshuf "$T/exports" || return 1
    grep -vx PyInit__fairshuf "$T/exports" >"$T/exports.other"
    [ ! -s "$T/exports.other" ] && return 0
    echo "  also exported: $(head -n 5 "$T/exports.other" | tr '\n' ' ')($(wc -l <"$T/exports.other") in all)" >&2
    return 1
}
if command -v nm >/dev/null 2>&1; then
    check "the extension exports PyInit__fairshuf alone" \
        exports "$(ls "$lib"/fairshuf/_fairshuf*.so | head -n 1)"
else
    skipped "no nm (binutils): the extension's exports are not checked"
fi

# The install path the README gives: pip, offline, without build
# isolation, from a copy of the tree (a fresh checkout: no build outputs),
# into a private target; then the package is imported and used from
# another directory.
if "$PY" -m pip --version >/dev/null 2>&1; then
    mkdir "$T/tree" && cp -R "$top/src" "$top/include" "$top/shared" "$top/python" "$T/tree/" &&
        rm -rf "$T/tree/python/build" "$T/tree/python/"*.egg-info
    if (cd "$T/tree" && PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
        "$PY" -m pip install -q --no-build-isolation --target "$T/pip" ./python) \
        >"$T/pip.log" 2>&1; then
        ok
        check "the pip-installed package imports and shuffles from another directory" \
            sh -c "cd '$T/w' && PYTHONPATH='$T/pip' '$PY' -c 'import fairshuf
g = fairshuf.Generator(seed=\"42\", simulation=True)
assert sorted(g.permutation(10).tolist()) == list(range(10))
print(fairshuf.__file__)' | grep -q '^$T/pip/fairshuf/'"
        if command -v nm >/dev/null 2>&1; then
            check "the pip-installed extension exports PyInit__fairshuf alone" \
                exports "$(ls "$T/pip"/fairshuf/_fairshuf*.so | head -n 1)"
        fi
    else
        tail -n 20 "$T/pip.log" >&2
        bad "pip install --no-build-isolation ./python (offline)"
    fi
else
    skipped "no pip for $PY (Debian: python3-pip): the pip install is not tried"
fi
finish
