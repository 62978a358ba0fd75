#!/bin/sh
# SPDX-License-Identifier: MIT
# Rebuild tests/gen/golden_seed.h from the library, then check it against the
# independent Python implementation. Run from the repository root after
# `make`.
set -e
cc -std=c11 -Wall -Wextra -O2 -Iinclude -o build/gen_seed tests/gen/gen_seed.c \
    libfairshuf.a -lsodium -lm -lpthread
./build/gen_seed > tests/gen/golden_seed.h
python3 tests/gen/crosscheck_seed.py tests/gen/golden_seed.h
