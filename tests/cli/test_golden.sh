#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 11 (its usual wall time in s: longest first)
# Seeded outputs of the command that must never change (issue 10, "What
# must not change"): the first 16 hex digits of the sha256 of stdout, as
# the command gave them at 0.1. Covers the sparse range (-i), the dense
# range, -n over a huge range, the record path above 2^20 records in memory
# and in external mode (--memory=1M), deal, and the threaded scatter of a
# 30-million range (the output does not depend on --threads).
NAME=test_golden
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
F=$FAIRSHUF
command -v sha256sum >/dev/null 2>&1 || { bad "sha256sum not found"; finish; exit 1; }

# golden EXPECTED STDIN DESCRIPTION ARGS...: fairshuf ARGS reading the file
# STDIN (through a pipe when written "|FILE") exits 0 and its stdout hashes
# to EXPECTED.
golden() {
    _e=$1 _i=$2 _d=$3
    shift 3
    case $_i in
    "|"*) cat "${_i#|}" | "$F" "$@" >g.out 2>g.err ;;
    *) "$F" "$@" <"$_i" >g.out 2>g.err ;;
    esac
    _rc=$?
    _h=$(sha256sum <g.out | cut -c1-16)
    if [ "$_rc" = 0 ] && [ "$_h" = "$_e" ]; then
        ok
    else
        bad "$_d: exit $_rc, hash $_h, expected $_e ($(head -c 200 g.err))"
    fi
}

golden 65413b8ab455acf4 /dev/null "--seed=abc -i 1-1000000" --seed=abc -i 1-1000000
golden 0884673864247305 /dev/null "--seed=xyz -i 1-10" --seed=xyz -i 1-10
golden 2befa59de415543f /dev/null "--seed=k -n 5 -i 1-1000000000" --seed=k -n 5 -i 1-1000000000
seq 1 2000000 >two_million
for i in "|two_million" two_million; do
    how=file
    [ "$i" = two_million ] || how=pipe
    golden c70004a7dfd05909 "$i" "seq 1 2000000 ($how) --seed=file" --seed=file
    golden c70004a7dfd05909 "$i" "seq 1 2000000 ($how) --seed=file --memory=1M" \
        --seed=file --memory=1M
done
# The record permutation of tests/test_records.c's golden (3,000,000
# records, seed "records-golden"), through the command.
seq 0 2999999 >three_million
golden 48d62e6fe7f5dddf three_million "seq 0 2999999 (file) --seed=records-golden" \
    --seed=records-golden
golden 48d62e6fe7f5dddf "|three_million" \
    "seq 0 2999999 (pipe) --seed=records-golden --memory=2M" \
    --seed=records-golden --memory=2M
golden 79c51fa93f0a2ab8 /dev/null "deal --seed=hello" deal --seed=hello
for t in 1 2 4; do
    golden 7ea4598e58c39297 /dev/null "--seed=big -i 1-30000000 --threads=$t" \
        --seed=big -i 1-30000000 --threads=$t
done
finish
