/* SPDX-License-Identifier: MIT */
/* The hardware entropy source (RDSEED on x86-64 with the CPUID bit), and
   a test hook that replaces it. */
#ifndef FSH_HWRAND_H
#define FSH_HWRAND_H

#include "common/common.h"

/* Fill out[0..n) with hardware entropy words. FSH_OK, or FSH_ENOHWRAND
   when the machine has no source or it kept failing (RDSEED may report
   "not ready" under load; it is retried with pauses, then given up). */
FSH_HIDDEN int fsh_hw_words(uint64_t *out, size_t n);

/* 1 if a hardware source is present (CPUID, cached), or the hook says so. */
FSH_HIDDEN int fsh_hw_available(void);

/* Test hook: when set, fsh_hw_words calls fn(ctx, out, n) instead of the
   hardware (fn returns FSH_OK or FSH_ENOHWRAND), and fsh_hw_available
   returns present. NULL restores the hardware. Process-wide: tests only. */
typedef int (*fsh_hw_fn)(void *ctx, uint64_t *out, size_t n);
FSH_HIDDEN void fsh_hw_set_hook(fsh_hw_fn fn, int present, void *ctx);

#endif /* FSH_HWRAND_H */
