#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 42 (its usual wall time in s: longest first)
# The in-cache kernel's two builds give the same permutations: on an x86-64
# CPU with BMI2 the 4- and 8-byte kernels multiply the dice with MULX, and
# FSH_FY_IMPL=plain forces the plain kernels. The seeded golden tests, the
# kernel-path checksums and the batch tests must pass with either, and the command's
# seeded output must not depend on it. Deterministic: no statistical
# tolerance. A broken kernel in either build changes a golden permutation
# (test_seed) or an output checksum below, so this fails.
NAME=test_kernel_impl
. "$(dirname "$0")/lib.sh"

tests=""
for d in "$(dirname "$FAIRSHUF")/tests" "$(dirname "$FAIRSHUF")/build/tests"; do
    [ -x "$d/test_seed" ] && { tests=$d; break; }
done

if [ -z "$tests" ]; then
    skipped "no test_seed beside $FAIRSHUF"
else
    # test_forward and test_stream_version: stream version 3's forward
    # kernel against its reference and its outputs, without MULX too.
    for t in test_seed test_batch test_kernel_paths test_forward \
        test_stream_version; do
        [ -x "$tests/$t" ] || { skipped "no $tests/$t"; continue; }
        last=$(FSH_FY_IMPL=plain "$tests/$t" 2>&1 | tail -n 1)
        case $last in
        "$t: "*" checks passed, 0 failed") ok ;;
        *) bad "FSH_FY_IMPL=plain $t: $last" ;;
        esac
    done
fi

# Where the AVX-512 ChaCha kernel runs (the default on such a CPU, as in
# make check), the scatter shuffle's rough pass and the in-cache kernel
# (also the scatter's leaves) make a ChaCha rng's next buffer in slices
# between their steps; with the others each refill stops them. Their
# locked outputs (test_scatter_wide, test_scatter, test_kernel_paths) and
# test_fy_ahead's comparisons must hold with the AVX2 kernel too (the
# portable one runs the same code as AVX2), and so must test_sysrand's
# forks whose rekey fails inside those kernels (the error returned,
# nothing computed from the wiped key).
if [ -n "$tests" ]; then
    for t in test_scatter_wide test_scatter test_kernel_paths test_fy_ahead \
        test_forward test_scatter_stream test_sysrand; do
        [ -x "$tests/$t" ] || { skipped "no $tests/$t"; continue; }
        # FSH_SCATTER_LOCKED=1: test_scatter's locked and compared parts
        # (its enumerations draw no ChaCha word; its chi-square tests'
        # draws are those its locked outputs show unchanged).
        last=$(FSH_SANITIZE=1 FSH_SCATTER_LOCKED=1 FSH_CHACHA_IMPL=avx2 "$tests/$t" 2>&1 | tail -n 1)
        case $last in
        "$t: "*" checks passed, 0 failed") ok ;;
        *) bad "FSH_CHACHA_IMPL=avx2 $t: $last" ;;
        esac
    done
fi

# The scatter's rough pass prefetches into L2 on Intel CPUs and into L1
# elsewhere (FSH_ROUGH_PREFETCH forces one): test_scatter_wide runs its
# locked cases under both hints in one process and checks that the
# variable sets the choice; run it with each value.
if [ -n "$tests" ] && [ -x "$tests/test_scatter_wide" ]; then
    for h in l1 l2; do
        last=$(FSH_ROUGH_PREFETCH=$h "$tests/test_scatter_wide" 2>&1 | tail -n 1)
        case $last in
        "test_scatter_wide: "*" checks passed, 0 failed") ok ;;
        *) bad "FSH_ROUGH_PREFETCH=$h test_scatter_wide: $last" ;;
        esac
    done
fi

# The command, seeded, with each kernel: 8-byte (u64 indices) and 4-byte
# sizes both go through the kernels under test.
for n in 1000 100000; do
    seq 1 $n >"$T/in"
    a=$("$FAIRSHUF" --seed=kernel-impl "$T/in" | cksum)
    b=$(FSH_FY_IMPL=plain "$FAIRSHUF" --seed=kernel-impl "$T/in" | cksum)
    e=$(seq 1 $n | cksum)
    if [ "$a" = "$b" ] && [ "$a" != "$e" ]; then ok; else bad "seeded output of $n lines differs with FSH_FY_IMPL=plain (or is not shuffled)"; fi
done
finish
