/* SPDX-License-Identifier: MIT */
/* Hardware entropy: RDSEED (x86-64, CPUID.(EAX=7,ECX=0):EBX bit 18).
   RDSEED returns conditioned entropy (NIST SP 800-90B/C "full entropy"
   output of the on-chip conditioner); it may report "not ready" (carry
   clear) when drained, so each word is retried with a pause. */
#include "rng/hwrand.h"

#include <stdatomic.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define FSH_HAVE_RDSEED 1
#endif

static _Atomic(fsh_hw_fn) hook_fn;
static atomic_int hook_present;
static void *_Atomic hook_ctx;

void fsh_hw_set_hook(fsh_hw_fn fn, int present, void *ctx)
{
    atomic_store(&hook_ctx, ctx);
    atomic_store(&hook_present, present);
    atomic_store(&hook_fn, fn);
}

#ifdef FSH_HAVE_RDSEED
/* 0 unknown, 1 present, 2 absent: the CPUID answer never changes. */
static atomic_int cpu_has;

static int rdseed_present(void)
{
    int v = atomic_load_explicit(&cpu_has, memory_order_relaxed);
    if (v == 0) {
        unsigned a, b, c, d;
        v = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 18)) ? 1
                                                                          : 2;
        atomic_store_explicit(&cpu_has, v, memory_order_relaxed);
    }
    return v == 1;
}

/* Tries per word before giving up: RDSEED refills within microseconds, so
   this is far beyond any transient shortage (about 10 ms of pauses). */
#define RDSEED_TRIES 4096

__attribute__((target("rdseed"))) static int rdseed_words(uint64_t *out,
                                                           size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned long long v;
        int t = 0;
        while (!_rdseed64_step(&v)) {
            if (++t == RDSEED_TRIES)
                return FSH_ENOHWRAND;
            _mm_pause();
        }
        out[i] = (uint64_t)v;
    }
    return FSH_OK;
}
#endif

int fsh_hw_available(void)
{
    if (atomic_load(&hook_fn) != NULL)
        return atomic_load(&hook_present);
#ifdef FSH_HAVE_RDSEED
    return rdseed_present();
#else
    return 0;
#endif
}

int fsh_hw_words(uint64_t *out, size_t n)
{
    fsh_hw_fn fn = atomic_load(&hook_fn);
    if (fn != NULL)
        return atomic_load(&hook_present) ? fn(atomic_load(&hook_ctx), out, n)
                                          : FSH_ENOHWRAND;
#ifdef FSH_HAVE_RDSEED
    if (rdseed_present())
        return rdseed_words(out, n);
#endif
    (void)out, (void)n;
    return FSH_ENOHWRAND;
}
