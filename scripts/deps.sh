#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what fairshuf needs to build and test, on Debian-like systems.
# Uses apt-get when it can (root, or sudo without a password); otherwise
# prints the exact command to run. With --fuzz, also clang and its
# sanitizer/libFuzzer runtimes (make fuzz, make tsan with clang).
set -u
PKGS="build-essential g++ libsodium-dev pkg-config time"
missing=""
if [ "${1:-}" = --fuzz ]; then
    PKGS="$PKGS clang libclang-rt-14-dev"
    printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' |
        clang -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1 ||
        missing="$missing clang libclang-rt-14-dev"
fi
have_hdr() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1; }
command -v ${CC:-cc} >/dev/null 2>&1 || missing="$missing build-essential"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
have_hdr sodium.h || missing="$missing libsodium-dev"
command -v make >/dev/null 2>&1 || missing="$missing make"
[ -z "$missing" ] && exit 0
echo "deps: missing:$missing" >&2
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
    if [ "$SUDO" != none ]; then
        $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $PKGS >/dev/null && exit 0
    fi
    echo "deps: run: sudo apt-get update && sudo apt-get install -y $PKGS" >&2
else
    echo "deps: install a C compiler, g++, make and libsodium (headers) with your package manager" >&2
fi
exit 1
