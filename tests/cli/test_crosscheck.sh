#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 20 (its usual wall time in s: longest first)
# The independent Python implementations of the seeded streams agree with
# the values the C tests hold: tests/gen/crosscheck_seed.py (docs/
# STREAMS.md sections 1-6) against tests/gen/golden_seed.h, and
# tests/gen/crosscheck_scatter.py (section 5b, about 30 s with numpy) against
# tests/test_scatter_stream.c. They read the committed files, not the
# build, so the sanitizer run skips them. A value changed on either side
# fails here.
NAME=test_crosscheck
. "$(dirname "$0")/lib.sh"
top=$(pwd)
if [ -n "${FSH_SANITIZE:-}" ]; then
    skipped "the sanitizer run (the check does not depend on the build)"
elif ! command -v python3 >/dev/null 2>&1; then
    skipped "no python3"
elif [ ! -f "$top/tests/gen/crosscheck_scatter.py" ]; then
    skipped "not run from the source tree"
else
    if python3 "$top/tests/gen/crosscheck_seed.py" "$top/tests/gen/golden_seed.h" \
        >"$T/seed.out" 2>&1; then ok; else bad "crosscheck_seed.py: $(tail -n 3 "$T/seed.out")"; fi
    # The scatter check makes its ChaCha blocks with numpy when it can (a
    # fifth of the time): the first python3 on PATH may lack it, Debian's
    # python3-numpy is in /usr/bin/python3; without numpy, pure Python.
    py=python3
    if ! python3 -c 'import numpy' >/dev/null 2>&1 && [ -x /usr/bin/python3 ] &&
        /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1; then
        py=/usr/bin/python3
    fi
    if "$py" "$top/tests/gen/crosscheck_scatter.py" "$top/tests/test_scatter_stream.c" \
        >"$T/scatter.out" 2>&1; then ok; else bad "crosscheck_scatter.py: $(tail -n 3 "$T/scatter.out")"; fi
fi
finish
