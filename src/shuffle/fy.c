/* SPDX-License-Identifier: MIT */
/* Fisher-Yates kernels (Durstenfeld's backward form, Knuth's Algorithm P). */
#include "shuffle/fy.h"

#include "rng/xoshiro.h"

/* BMI2 MULX for the dice, chosen at run time (fy_use_mulx): x86-64 with
   GNU C inline assembly and 128-bit integers. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(FSH_HAVE_U128)
#define FY_MULX 1
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#else
#define FY_MULX 0
#endif
/* Built with a sanitizer that instruments memory accesses (ASan, TSan,
   MSan), which do not see inside an asm statement: the C paths then. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||   \
    __has_feature(memory_sanitizer)
#define FY_SANITIZED 1
#endif
#endif
#ifndef FY_SANITIZED
#define FY_SANITIZED 0
#endif
/* The 4- and 8-byte swaps as one asm statement (fy_swap): gcc on x86-64,
   not under ASan or TSan. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&       \
    !FY_SANITIZED
#define FY_ASM_SWAP 1
#else
#define FY_ASM_SWAP 0
#endif
/* clang's build keeps MUL for the xoshiro kernel (see fy_draw). */
#if defined(__clang__)
#define FY_MULX_XOSHIRO 0
#else
#define FY_MULX_XOSHIRO 1
#endif

/* Compiler-specific help for the hot loops. gcc -O2 does not fully unroll
   the per-batch loops (k dice, k swaps; k a constant wherever inlined) on
   its own, and widens a bound that counts down into a 128-bit induction
   variable unless it is hidden (FSH_OPAQUE). clang unrolls and multiplies
   well by itself, and both helps cost it: with them its build of the kernel
   executed 24 instructions per element at n = 1e4 against 11.8 for gcc's. */
#if defined(__GNUC__) && !defined(__clang__)
#define FY_UNROLL _Pragma("GCC unroll 8")
#define FY_OPAQUE(x) FSH_OPAQUE(x)
#else
#define FY_UNROLL
#define FY_OPAQUE(x) (x)
#endif


/*
 * One kernel body per element size: for i = n-1 down to 1, swap a[i] with
 * a[j], j uniform in [0, i]. The n-1 draws have 2*3*...*n = n! joint outcomes
 * and each gives a distinct order, so exact draws give exactly 1/n! per order.
 * Elements move by memcpy of a constant size, which compiles to plain loads
 * and stores and tolerates any alignment.
 *
 * Draws are batched (see FSH_DEFINE_BATCH): while the bound b = i+1 is large
 * one word gives one index; as b shrinks one word gives 2..6 indices (the
 * thresholds of Brackett-Rozinsky & Lemire keep each batch product below
 * 2^54..2^60), and from b = 64 down a greedy plan packs as many dice as fit
 * under 2^60 into each word (the rest of a 52-card order in 4 words). A
 * randint source gets one call per position instead.
 */
/* Swap elements x and y of size bytes at a. With any == 0, size is a
   constant (1, 2, 4, 8, 12, 16, 24 or 32) wherever this is inlined: the
   memcpys compile to plain loads and stores of any alignment. With any,
   through fsh_swap_inline's chunks. */
static inline __attribute__((always_inline)) void
fy_swap(unsigned char *a, size_t x, size_t y, size_t size, int any)
{
    if (any) {
        if (x != y)
            fsh_swap_inline(a + x * size, a + y * size, size);
        return;
    }
#if FY_ASM_SWAP
    /* gcc computed a[y]'s address into a register before using it twice
       (one more instruction per swap; 0.7 per element at n = 1e4); as memory
       operands of one asm statement both elements keep their indexed
       addresses. Not under the sanitizers, which do not see inside the
       asm. */
    if (size == 8) {
        uint64_t *p = (uint64_t *)(void *)a, u, v;
        __asm__("movq %2, %0\n\tmovq %3, %1\n\tmovq %1, %2\n\tmovq %0, %3"
                : "=&r"(u), "=&r"(v), "+m"(p[x]), "+m"(p[y]));
        return;
    }
    if (size == 4) {
        uint32_t *p = (uint32_t *)(void *)a, u, v;
        __asm__("movl %2, %0\n\tmovl %3, %1\n\tmovl %1, %2\n\tmovl %0, %3"
                : "=&r"(u), "=&r"(v), "+m"(p[x]), "+m"(p[y]));
        return;
    }
#endif
    unsigned char *px = a + x * size, *py = a + y * size;
    if (size > 16) {
        fsh_swap_inline(px, py, size); /* unrolled for a constant size */
        return;
    }
    if (size == 8 || size == 16) {
        /* Both loaded, then both stored, through 64-bit temporaries: plain
           loads and stores under either compiler (clang kept a byte
           buffer on the stack: two more moves per swap). x == y is fine. */
        uint64_t u0, v0;
        memcpy(&u0, px, 8);
        memcpy(&v0, py, 8);
        if (size == 16) {
            uint64_t u1, v1;
            memcpy(&u1, px + 8, 8);
            memcpy(&v1, py + 8, 8);
            memcpy(px + 8, &v1, 8);
            memcpy(py + 8, &u1, 8);
        }
        memcpy(px, &v0, 8);
        memcpy(py, &u0, 8);
        return;
    }
    if (size == 4) {
        uint32_t u, v;
        memcpy(&u, px, 4);
        memcpy(&v, py, 4);
        memcpy(px, &v, 4);
        memcpy(py, &u, 4);
        return;
    }
    unsigned char t[16];
    memcpy(t, px, size);
    memcpy(px, py, size);
    memcpy(py, t, size);
}

/*
 * Index generation is split from the swaps: fy_fill writes the next indices
 * of the backward Fisher-Yates into a small buffer, batch by batch, and the
 * kernel then swaps from it. The multiply chains of the dice and the
 * element loads then overlap instead of alternating, and the word cursor
 * lives in a local (char-typed element stores could alias rng->pos).
 */
#define FY_CHUNK 256 /* indices per fill; >= FSH_GREEDY_TAIL */

/* A word source with a local cursor (see the fused kernel below for the
   xoshiro fields). */
typedef struct wsrc {
    fsh_rng *rng;
    unsigned pos;
    uint64_t s0, s1, s2, s3; /* xoshiro state */
    uint64_t made;           /* words stepped by the generator here */
    int mulx; /* dice by BMI2 MULX (fy_dice); a constant wherever inlined */
} wsrc;

static inline uint64_t ws_buffered(wsrc *w)
{
    if (FSH_UNLIKELY(w->pos >= FSH_BUF_WORDS)) {
        fsh_rng_refill(w->rng);
        w->pos = w->rng->pos;
    }
    return w->rng->buf[w->pos++];
}

#ifdef FSH_HAVE_U128
FSH_DEFINE_LEMIRE(ws_lemire, uint64_t, fsh_u128, 64, wsrc *, ws_buffered)
FSH_DEFINE_BATCH(ws_batch, uint64_t, fsh_u128, 64, wsrc *, ws_buffered)

/* Digits of four consecutive batches of k dice each, from words w[0..4)
   (batch q has dice b-qk, ..., b-qk-k+1), into out[0..4k), with the four
   multiply chains interleaved. Returns whether every final low half is
   >= cheap (no exact rejection test needed). */
static inline int dice4(const uint64_t *w, uint64_t b, unsigned k,
                        uint64_t cheap, uint64_t *out)
{
    uint64_t r0 = w[0], r1 = w[1], r2 = w[2], r3 = w[3];
    for (unsigned d = 0; d < k; d++) {
        uint64_t b0 = FSH_OPAQUE((uint64_t)(b - d));
        uint64_t b1 = FSH_OPAQUE((uint64_t)(b - k - d));
        uint64_t b2 = FSH_OPAQUE((uint64_t)(b - 2 * k - d));
        uint64_t b3 = FSH_OPAQUE((uint64_t)(b - 3 * k - d));
        fsh_u128 m0 = (fsh_u128)r0 * b0, m1 = (fsh_u128)r1 * b1;
        fsh_u128 m2 = (fsh_u128)r2 * b2, m3 = (fsh_u128)r3 * b3;
        out[d] = (uint64_t)(m0 >> 64);
        out[k + d] = (uint64_t)(m1 >> 64);
        out[2 * k + d] = (uint64_t)(m2 >> 64);
        out[3 * k + d] = (uint64_t)(m3 >> 64);
        r0 = (uint64_t)m0, r1 = (uint64_t)m1;
        r2 = (uint64_t)m2, r3 = (uint64_t)m3;
    }
    return (r0 >= cheap) & (r1 >= cheap) & (r2 >= cheap) & (r3 >= cheap);
}

/*
 * The index schedule's batch phases, one definition for fy_fill and the
 * fused kernel: batches of K dice while the bound i > LOW, the product of
 * K consecutive bounds below 2^C (Brackett-Rozinsky & Lemire's thresholds).
 * Above 2^30 one die per word; at FSH_GREEDY_TAIL and below, the greedy
 * plans. P(..., K, LOW, C) is applied to each phase in order.
 */
#define FY_BATCH_PHASES(P, ...)                                                \
    P(__VA_ARGS__, 2, (size_t)1 << 19, 60)                                     \
    P(__VA_ARGS__, 3, (size_t)1 << 14, 57)                                     \
    P(__VA_ARGS__, 4, (size_t)1 << 11, 56)                                     \
    P(__VA_ARGS__, 5, (size_t)1 << 9, 55)                                      \
    P(__VA_ARGS__, 6, FSH_GREEDY_TAIL, 54)

/* fy_fill's state: the source, the elements still unplaced and the
   indices written so far. */
typedef struct fy_fill_state {
    wsrc cc;
    size_t ii, m;
    uint64_t *ix;
} fy_fill_state;

/*
 * Dice b = i, i-1, ..., i-k+1 while i > low and the buffer has room; 0 (and
 * nothing done) when i <= low. Four batches are computed side by side from
 * four consecutive buffered words, so their multiply chains overlap; when
 * any would need the exact rejection test, they are redone one at a time by
 * ws_batch, so the words consumed and the indices produced are exactly
 * those of the one-at-a-time loop. k, low and cheap are constants wherever
 * this is inlined.
 */
static inline __attribute__((always_inline)) int
fy_fill_phase(fy_fill_state *f, unsigned k, size_t low, uint64_t cheap)
{
    if (f->ii <= low)
        return 0;
    while (f->ii > low + 3 * k && f->m + 4 * k <= FY_CHUNK &&
           f->cc.pos + 4 <= FSH_BUF_WORDS) {
        if (FSH_UNLIKELY(!dice4(f->cc.rng->buf + f->cc.pos, f->ii, k, cheap,
                                f->ix + f->m)))
            break;
        f->cc.pos += 4;
        f->m += 4 * k;
        f->ii -= 4 * k;
    }
    while (f->ii > low && f->m + k <= FY_CHUNK) {
        cheap = ws_batch(&f->cc, f->ii, k, cheap, f->ix + f->m);
        f->m += k;
        f->ii -= k;
    }
    return 1;
}

/* One FY_BATCH_PHASES phase of fy_fill, as a term of an || chain: the
   first phase that applies runs, the rest are skipped. */
#define FY_FILL_PHASE_OR(f, K, LOW, C)                                         \
    fy_fill_phase((f), (K), (LOW), (uint64_t)1 << (C)) ||

/* Next indices for positions *i-1, *i-2, ... (index t of ix swaps position
   *i-1-t on entry); *i counts elements still unplaced, >= 2 on entry.
   Returns how many were written (>= 1) and lowers *i by as many. The
   sequence of dice is fixed by n alone: batches never straddle a phase
   boundary, whatever the buffer size. */
static inline size_t fy_fill(wsrc *c, size_t *i, uint64_t *ix)
{
    /* A local copy, not *c and *i: it stays in registers across the
       stores. */
    fy_fill_state f = {*c, *i, 0, ix};
    if (f.ii > ((size_t)1 << 30)) {
        while (f.ii > ((size_t)1 << 30) && f.m < FY_CHUNK) {
            ix[f.m++] = ws_lemire(&f.cc, f.ii);
            f.ii -= 1;
        }
    } else if (!(FY_BATCH_PHASES(FY_FILL_PHASE_OR, &f) 0)) {
        while (f.ii > 1) {
            uint64_t p;
            unsigned k = fsh_batch_plan(f.ii, FSH_BATCH_CAP, &p);
            (void)ws_batch(&f.cc, f.ii, k, p, ix + f.m);
            f.m += k;
            f.ii -= k;
        }
    }
    *c = f.cc;
    *i = f.ii;
    return f.m;
}

/*
 * The plain kernel fuses the draws with the swaps: each word gives its batch
 * of dice, which are swapped at once, so the multiplies, the generator and
 * the loads and stores of the swaps overlap in the core instead of running
 * as separate passes over a buffer. It draws exactly what fy_fill draws
 * (same phases, same batches, same words), so the prefetching kernel, which
 * needs its indices ahead, gives the same permutation.
 *
 * Words come from a local source (wsrc):
 *   ws_buffered   the rng's buffer, refilled as usual (ChaCha, callbacks);
 *   ws_drain      xoshiro256++: the buffer's unread words, then the
 *                 generator stepped in registers; used only until the buffer
 *                 is empty (the phases stop on ws_more), then
 *   ws_xoshiro    the generator alone, no test per word. Its words are
 *                 counted per phase (ws_count), not per word, to keep the
 *                 counter out of the hot loop.
 * The same stream either way: at the end the buffer is empty and the state
 * and the word count are written back.
 */
static inline uint64_t ws_xoshiro(wsrc *w)
{
    return fsh_xoshiro_next(&w->s0, &w->s1, &w->s2, &w->s3);
}

static inline uint64_t ws_counted(wsrc *w)
{
    w->made++;
    return ws_xoshiro(w);
}

static inline uint64_t ws_drain(wsrc *w)
{
    if (FSH_LIKELY(w->pos < FSH_BUF_WORDS))
        return w->rng->buf[w->pos++];
    return ws_counted(w);
}

/* The word sources of the fused kernel, as constants for its inline
   functions. */
enum { WS_BUFFERED, WS_DRAIN, WS_XOSHIRO };

static inline __attribute__((always_inline)) uint64_t ws_next(wsrc *w,
                                                              int src)
{
    return src == WS_BUFFERED ? ws_buffered(w)
           : src == WS_DRAIN  ? ws_drain(w)
                              : ws_xoshiro(w);
}

/* The phase loops' extra condition: ws_drain runs only while the buffer
   has words. */
static inline int ws_more(const wsrc *w, int src)
{
    return src != WS_DRAIN || w->pos < FSH_BUF_WORDS;
}

/* Count the words nb batches drew, for the source that does not count
   them one by one (ws_xoshiro). */
static inline void ws_count(wsrc *w, int src, uint64_t nb)
{
    if (src == WS_XOSHIRO)
        w->made += nb;
}

/* Digits of the batch b, b-1, ..., b-k+1 from word r into j[0..k); returns
   the final low half. k is a constant wherever this is inlined, so the
   multiply chain unrolls into registers. */
static inline uint64_t fy_dice(uint64_t r, uint64_t b, unsigned k,
                               uint64_t *j, int mulx)
{
FY_UNROLL
    for (unsigned d = 0; d < k; d++) {
#if FY_MULX
        if (mulx) {
            /* MULX (BMI2) writes the high half to any register and the low
               half back to RDX, where the next die's multiplier waits: no
               move per die, and the generator's word goes straight to RDX.
               Same product, same digits. */
            uint64_t hi;
            __asm__("mulxq %2, %0, %1"
                    : "=d"(r), "=r"(hi)
                    : "r"((uint64_t)(b - d)), "0"(r));
            j[d] = hi;
            continue;
        }
#else
        (void)mulx;
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
        /* One MUL with its two halves named: GCC otherwise round-trips the
           last 128-bit product through the stack (two stores per batch,
           and stores are what bounds this loop). */
        uint64_t hi;
        __asm__("mulq %2" : "+a"(r), "=d"(hi) : "r"((uint64_t)(b - d)) : "cc");
        j[d] = hi;
#else
        fsh_u128 m = (fsh_u128)r * FY_OPAQUE((uint64_t)(b - d));
        j[d] = (uint64_t)(m >> 64);
        r = (uint64_t)m;
#endif
    }
    return r;
}

/* The exact test of FSH_DEFINE_BATCH after the cheap one failed: returns
   the first word, r or a redraw, whose final low half is at least
   2^64 mod P. Out of line, on a copy of the source, so the hot loop keeps
   its source and its dice in registers. */
__attribute__((noinline)) static uint64_t
fy_exact_word(wsrc *w, uint64_t (*next)(wsrc *), uint64_t b, unsigned k,
              uint64_t r)
{
    uint64_t j[FSH_GREEDY_TAIL];
    uint64_t p = b;
    for (unsigned d = 1; d < k; d++)
        p *= b - d;
    uint64_t t = FSH_REJECT_BELOW(uint64_t, p);
    while (fy_dice(r, b, k, j, 0) < t)
        r = next(w);
    return r;
}

/* The fused kernel's state: the array and the elements still unplaced
   (i); the word source is a separate local. Locals per kernel call, never escaping its
   inlined functions, so they live in registers. */
typedef struct fy_run {
    unsigned char *a;
    size_t size; /* a constant wherever inlined, unless any */
    int any;     /* an element size without its own kernel: fsh_swap_inline */
    size_t i;
} fy_run;

/* Cheap tests on a batch's final low half lo, true whenever lo < 2^64 mod P:
   below a power of two 2^c >= P (a shift, no 64-bit constant held in a
   register), below the bound itself for single dice, below the product P
   for the greedy tail. */
enum { FY_BELOW_POW2, FY_BELOW_I, FY_BELOW_P };

/* Draw the batch b = i, ..., i-k+1 into j[0..k). The indices are all drawn
   before the first swap: swapping each as it comes (undoing the batch on
   the rare failure) was measured 1.2-1.7x slower. */
static inline __attribute__((always_inline)) void
fy_draw(wsrc *w, int src, size_t i, unsigned k, int test, unsigned c,
        uint64_t p, uint64_t *j)
{
    /* clang's build of the xoshiro kernel got slower with MULX (the
       generator's state then spills: 12.2 instructions per element at
       n = 1e4 against 11.3), so there only the buffered source uses it. */
    int mulx = w->mulx && (src == WS_BUFFERED || FY_MULX_XOSHIRO);
    uint64_t r = ws_next(w, src), lo = fy_dice(r, i, k, j, mulx);
    int fails = test == FY_BELOW_POW2 ? (lo >> c) == 0
                : test == FY_BELOW_I  ? lo < i
                                      : lo < p;
    if (FSH_UNLIKELY(fails)) {
        /* An opaque copy of i: the hot path's bounds i-1, i-2, ... are not
           kept alive (in registers) for this branch. */
        size_t ic = FSH_OPAQUE(i);
        if (src == WS_BUFFERED) {
            /* Only the buffer cursor moves: the xoshiro fields stay dead
               in the buffered kernels. */
            wsrc cw = {w->rng, w->pos, 0, 0, 0, 0, 0, 0};
            r = fy_exact_word(&cw, ws_buffered, ic, k, r);
            w->pos = cw.pos;
        } else {
            wsrc cw = *w;
            int keep = w->mulx; /* kept a constant for the compiler */
            r = fy_exact_word(&cw, src == WS_DRAIN ? ws_drain : ws_counted,
                              ic, k, r);
            *w = cw;
            w->mulx = keep;
        }
        (void)fy_dice(r, ic, k, j, 0);
    }
}

/*
 * The batch phases' hot loop as one asm statement (x86-64, BMI2; both
 * compilers): four batches of k dice per iteration, each one word (an
 * xoshiro256++ step in registers, or a load from the rng's buffer), k MULX
 * (the low half stays in RDX for the next die), the cheap rejection test
 * and k swaps with indexed addresses. Under C, clang kept the generator's
 * state in memory with MULX and gcc and clang each compiled the loop
 * differently; here the state, i and the dice stay in registers under
 * either. Same words, same dice, same swaps in the same order as the C
 * loop (fy_phase), which takes every batch the asm loop does not. Not
 * under the sanitizers (they do not see inside an asm), not without
 * optimisation (k and low are immediates) and not on x32 (64-bit
 * registers for i and the pointers).
 */
#if FY_MULX && defined(__OPTIMIZE__) && defined(__LP64__) && !FY_SANITIZED
#define FY_ASM_LOOP 1
#else
#define FY_ASM_LOOP 0
#endif

/* The buffered asm loop with the next refill made ahead in AVX-512 slices
   (fy_body_ahead): where the asm loop is, with the ChaCha x86 kernels. */
#if FY_ASM_LOOP
#include "rng/chacha_simd.h"
#endif
#if FY_ASM_LOOP && FSH_CHACHA_X86
#define FY_AHEAD 1
#else
#define FY_AHEAD 0
#endif

#if FY_ASM_LOOP
/* One xoshiro256++ step (fsh_xoshiro_next): the word into RDX, the state
   moved on, T a scratch register. */
#define FYA_XO(T)                                                              \
    "lea (%[s0],%[s3]), %%rdx\n\t"                                             \
    "rol $23, %%rdx\n\t"                                                       \
    "add %[s0], %%rdx\n\t"                                                     \
    "mov %[s1], %[" T "]\n\t"                                                  \
    "shl $17, %[" T "]\n\t"                                                    \
    "xor %[s0], %[s2]\n\t"                                                     \
    "xor %[s1], %[s3]\n\t"                                                     \
    "xor %[s2], %[s1]\n\t"                                                     \
    "xor %[s3], %[s0]\n\t"                                                     \
    "xor %[" T "], %[s2]\n\t"                                                  \
    "rol $45, %[s3]\n\t"
/* The die with bound i - O - D (O, D decimal literals) into register H,
   the bound through register T (which may be H). */
#define FYA_DIE(O, D, T, H)                                                    \
    "lea -" O "-" D "(%[i]), %[" T "]\n\t"                                     \
    "mulx %[" T "], %%rdx, %[" H "]\n\t"
/* The first batch's first die: bound i itself. */
#define FYA_DIE0(O, D, T, H) "mulx %[i], %%rdx, %[" H "]\n\t"
/* The cheap rejection test on the final low half (RDX): to FAIL when it is
   below %[pb], the product of the loop's first batch (which is at least
   every later batch's product P, and P > 2^64 mod P). The C path after a
   failure tests against 2^c > P (so it fails too) and then exactly. */
#define FYA_TEST(FAIL) "cmp %[pb], %%rdx\n\t" "jb " FAIL "\n\t"
/* Swap a[i - O - D - 1] with a[H], elements of SZ bytes ("8" or "4"),
   through X (RDX's name, moved by mov MS) and T (moved by mov MT). */
#define FYA_SWAP(SZ, MS, MT, X, T, O, D, H)                                    \
    "mov" MS " -" SZ "*" O "-" SZ "*" D "-" SZ "(%[a],%[i]," SZ "), " X "\n\t" \
    "mov" MT " (%[a],%[" H "]," SZ "), " T "\n\t"                              \
    "mov" MT " " T ", -" SZ "*" O "-" SZ "*" D "-" SZ "(%[a],%[i]," SZ ")\n\t" \
    "mov" MS " " X ", (%[a],%[" H "]," SZ ")\n\t"
#define FYA_SW8(O, D, H) FYA_SWAP("8", "q", "q", "%%rdx", "%q[t]", O, D, H)
#define FYA_SW4(O, D, H) FYA_SWAP("4", "l", "l", "%%edx", "%k[t]", O, D, H)
/* k = 6 has no spare general register: the swaps' second temporary is an
   XMM register (movq/movd; the same number of instructions). */
#define FYA_SW8X(O, D, H) FYA_SWAP("8", "q", "q", "%%rdx", "%[t]", O, D, H)
#define FYA_SW4X(O, D, H) FYA_SWAP("4", "l", "d", "%%edx", "%[t]", O, D, H)

/* The dice and swaps of a batch of k (2..6), first die by D0, the others
   by DI (FYA_DIE; FYA_DIEF forward), bound scratch T (the last die's
   register), swaps by SW. */
#define FYA_DICE2(D0, DI, O, T) D0(O, "0", T, "h0") DI(O, "1", "h1", "h1")
#define FYA_DICE3(D0, DI, O, T)                                                \
    FYA_DICE2(D0, DI, O, T) DI(O, "2", "h2", "h2")
#define FYA_DICE4(D0, DI, O, T)                                                \
    FYA_DICE3(D0, DI, O, T) DI(O, "3", "h3", "h3")
#define FYA_DICE5(D0, DI, O, T)                                                \
    FYA_DICE4(D0, DI, O, T) DI(O, "4", "h4", "h4")
#define FYA_DICE6(D0, DI, O, T)                                                \
    FYA_DICE5(D0, DI, O, T) DI(O, "5", "h5", "h5")
#define FYA_SWAPS2(SW, O) SW(O, "0", "h0") SW(O, "1", "h1")
#define FYA_SWAPS3(SW, O) FYA_SWAPS2(SW, O) SW(O, "2", "h2")
#define FYA_SWAPS4(SW, O) FYA_SWAPS3(SW, O) SW(O, "3", "h3")
#define FYA_SWAPS5(SW, O) FYA_SWAPS4(SW, O) SW(O, "4", "h4")
#define FYA_SWAPS6(SW, O) FYA_SWAPS5(SW, O) SW(O, "5", "h5")

/* The same step with SHLX (BMI2) from a register holding 17: one move
   less, one register more (k <= 4). */
#define FYA_XOB(T)                                                             \
    "lea (%[s0],%[s3]), %%rdx\n\t"                                             \
    "rol $23, %%rdx\n\t"                                                       \
    "add %[s0], %%rdx\n\t"                                                     \
    "shlx %[c17], %[s1], %[" T "]\n\t"                                         \
    "xor %[s0], %[s2]\n\t"                                                     \
    "xor %[s1], %[s3]\n\t"                                                     \
    "xor %[s2], %[s1]\n\t"                                                     \
    "xor %[s3], %[s0]\n\t"                                                     \
    "xor %[" T "], %[s2]\n\t"                                                  \
    "rol $45, %[s3]\n\t"

#define FYA_STR(x) #x
/* One batch of K dice at offset O (bounds i - O, ..., i - O - K + 1), its
   word by WD (the J-th of the iteration). */
#define FYA_BATCH(K, D0, DI, O, SW, HL, WD, J, FAIL)                           \
    WD(HL, J) FYA_DICE##K(D0, DI, O, HL) FYA_TEST(FAIL) FYA_SWAPS##K(SW, O)
/* Words: the xoshiro step, or word J of the four at %[p] (a buffer). */
#define FYA_WXO(HL, J) FYA_XO(HL)
#define FYA_WXOB(HL, J) FYA_XOB(HL)
#define FYA_WBUF(HL, J) "mov " J "*8(%[p]), %%rdx\n\t"
/* The end of an iteration: xoshiro, i alone; the buffer, i and then
   whether four more words are left (%[p] <= %[pe]). */
#define FYA_TAIL_XO                                                            \
    "sub %[kb], %[i]\n\t"                                                      \
    "cmp %[lk], %[i]\n\t"                                                      \
    "ja 1b\n\t"
#define FYA_TAIL_BUF                                                           \
    "add $32, %[p]\n\t"                                                        \
    "sub %[kb], %[i]\n\t"                                                      \
    "cmp %[lk], %[i]\n\t"                                                      \
    "jbe 8f\n\t"                                                               \
    "cmp %[pe], %[p]\n\t"                                                      \
    "jbe 1b\n"                                                                 \
    "8:\n\t"
#define FYA_FIX_BUF "add $8, %[p]\n\t"

/* The loop: four batches per iteration while i > low + 3k (all four inside
   the phase; checked by the caller before the first) and, for a buffer,
   while it has four words. Carry set on exit when a batch failed the cheap
   test: i is then that batch's bound, and the xoshiro generator has
   stepped past its word (the caller steps it back) while the buffer
   pointer is left on it. */
/* FYA_LOOPD: the same in direction DI (FYA_DIE, or FYA_DIEF with bounds
   i + O + D), i moved on to a failed batch by ST ("sub" or "add"). */
#define FYA_LOOPD(K, DI, ST, SW, HL, WD, TAIL, FIX)                            \
    "1:\n\t" FYA_BATCH(K, FYA_DIE0, DI, "0", SW, HL, WD, "0", "3f")            \
        FYA_BATCH(K, DI, DI, "1*" FYA_STR(K), SW, HL, WD, "1", "4f")           \
            FYA_BATCH(K, DI, DI, "2*" FYA_STR(K), SW, HL, WD, "2", "6f")       \
                FYA_BATCH(K, DI, DI, "3*" FYA_STR(K), SW, HL, WD, "3", "7f")   \
                    TAIL                                                       \
    "clc\n\t"                                                                  \
    "jmp 5f\n"                                                                 \
    "7:\n\t" ST " %[k1], %[i]\n\t" FIX                                        \
    "6:\n\t" ST " %[k1], %[i]\n\t" FIX                                        \
    "4:\n\t" ST " %[k1], %[i]\n\t" FIX                                        \
    "3:\n\t"                                                                   \
    "stc\n"                                                                    \
    "5:"
#define FYA_LOOPG(K, SW, HL, WD, TAIL, FIX)                                    \
    FYA_LOOPD(K, FYA_DIE, "sub", SW, HL, WD, TAIL, FIX)
#define FYA_LOOP(K, SW, HL, XO) FYA_LOOPG(K, SW, HL, XO, FYA_TAIL_XO, "")
#define FYA_BATCHES 4

#define FYA_OUT2 [h0] "=&r"(h0), [h1] "=&r"(h1)
#define FYA_OUT3 FYA_OUT2, [h2] "=&r"(h2)
#define FYA_OUT4 FYA_OUT3, [h3] "=&r"(h3)
#define FYA_OUT5 FYA_OUT4, [h4] "=&r"(h4)
#define FYA_OUT6 FYA_OUT5, [h5] "=&r"(h5)
#define FYA_HL2 "h1"
#define FYA_HL3 "h2"
#define FYA_HL4 "h3"
#define FYA_HL5 "h4"
#define FYA_HL6 "h5"
/* One loop for K dice: swaps by SW, second temporary T (an output
   constraint), generator step XO. */
#define FYA_RUN(K, SW, T, XO)                                                  \
    __asm__ volatile(FYA_LOOP(K, SW, FYA_HL##K, XO)                            \
                     : "=@ccc"(fail), [s0] "+r"(s0), [s1] "+r"(s1),            \
                       [s2] "+r"(s2), [s3] "+r"(s3), [i] "+r"(i), "=&d"(x),    \
                       [t] T, FYA_OUT##K                                       \
                     : [a] "r"(a), [pb] "rm"(pb), [k1] "i"(K),                    \
                       [kb] "i"(FYA_BATCHES * (K)),                            \
                       [lk] "i"(low + (FYA_BATCHES - 1) * (K)),                \
                       [c17] "r"((uint64_t)17)                                 \
                     : "memory")
/* k = 5 and 6: no register for 17 (13 general registers at most, so that
   a build keeping the frame pointer still has them). */
#define FYA_RUN_NO17(K, SW, T)                                                 \
    __asm__ volatile(FYA_LOOP(K, SW, FYA_HL##K, FYA_WXO)                        \
                     : "=@ccc"(fail), [s0] "+r"(s0), [s1] "+r"(s1),            \
                       [s2] "+r"(s2), [s3] "+r"(s3), [i] "+r"(i), "=&d"(x),    \
                       [t] T, FYA_OUT##K                                       \
                     : [a] "r"(a), [pb] "rm"(pb), [k1] "i"(K),                    \
                       [kb] "i"(FYA_BATCHES * (K)),                            \
                       [lk] "i"(low + (FYA_BATCHES - 1) * (K))                 \
                     : "memory")

/* The loop for k = 2 ... 6 with the swaps SW (SWX for k = 6, whose
   second temporary is an XMM register). */
#define FYA_SWITCH(SW, SWX)                                                    \
    switch (k) {                                                               \
    case 2:                                                                    \
        FYA_RUN(2, SW, "=&r"(t), FYA_WXOB);                                    \
        break;                                                                 \
    case 3:                                                                    \
        FYA_RUN(3, SW, "=&r"(t), FYA_WXOB);                                    \
        break;                                                                 \
    case 4:                                                                    \
        FYA_RUN(4, SW, "=&r"(t), FYA_WXOB);                                    \
        break;                                                                 \
    case 5:                                                                    \
        FYA_RUN_NO17(5, SW, "=&r"(t));                                         \
        break;                                                                 \
    default:                                                                   \
        FYA_RUN_NO17(6, SWX, "=&x"(tx));                                       \
        break;                                                                 \
    }

/* i (i-1) ... (i-k+1): a batch's product, the loops' cheap bound. */
static inline uint64_t fy_product(size_t i, unsigned k)
{
    uint64_t p = i;
    for (unsigned d = 1; d < k; d++)
        p *= (uint64_t)(i - d);
    return p;
}

/* The k = 5 and 6 loops' asm text runs past 4095 characters, the length
   ISO C requires compilers to support in a string literal (-Wpedantic's
   -Woverlength-strings); every compiler that takes this GNU asm takes it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
/* Batches of k dice while i > low + 3k, for sz-byte elements at a; returns
   1 when one failed the cheap test (see FYA_LOOP). k, low and sz are
   constants wherever this is inlined. */
static inline __attribute__((always_inline)) int
fy_asm_loop(wsrc *w, unsigned char *a, size_t *ip, unsigned k, size_t low,
            size_t sz)
{
    uint64_t s0 = w->s0, s1 = w->s1, s2 = w->s2, s3 = w->s3, x;
    uint64_t h0, h1, h2, h3, h4, h5, t;
    double tx;
    size_t i = *ip;
    int fail = 0;
    uint64_t pb = fy_product(i, k);
    (void)x, (void)t, (void)tx, (void)h0, (void)h1, (void)h2, (void)h3;
    (void)h4, (void)h5;
    if (sz == 8) {
        FYA_SWITCH(FYA_SW8, FYA_SW8X)
    } else {
        FYA_SWITCH(FYA_SW4, FYA_SW4X)
    }
    w->s0 = s0, w->s1 = s1, w->s2 = s2, w->s3 = s3;
    *ip = i;
    return fail;
}

/* The same loop on a buffer of words (ChaCha, callbacks): four words per
   iteration from the buffer, no generator in registers. */
#define FYA_RUN_BUF(K, SW, T)                                                  \
    __asm__ volatile(FYA_LOOPG(K, SW, FYA_HL##K, FYA_WBUF, FYA_TAIL_BUF,       \
                               FYA_FIX_BUF)                                    \
                     : "=@ccc"(fail), [p] "+r"(p), [i] "+r"(i), "=&d"(x),      \
                       [t] T, FYA_OUT##K                                       \
                     : [a] "r"(a), [pe] "r"(pe), [pb] "rm"(pb), [k1] "i"(K),      \
                       [kb] "i"(FYA_BATCHES * (K)),                            \
                       [lk] "i"(low + (FYA_BATCHES - 1) * (K))                 \
                     : "memory")

/* The buffer loop for k = 2 ... 6 with the swaps SW. */
#define FYA_SWITCH_BUF(SW)                                                     \
    switch (k) {                                                               \
    case 2:                                                                    \
        FYA_RUN_BUF(2, SW, "=&r"(t));                                          \
        break;                                                                 \
    case 3:                                                                    \
        FYA_RUN_BUF(3, SW, "=&r"(t));                                          \
        break;                                                                 \
    case 4:                                                                    \
        FYA_RUN_BUF(4, SW, "=&r"(t));                                          \
        break;                                                                 \
    case 5:                                                                    \
        FYA_RUN_BUF(5, SW, "=&r"(t));                                          \
        break;                                                                 \
    default:                                                                   \
        FYA_RUN_BUF(6, SW, "=&r"(t));                                          \
        break;                                                                 \
    }

/* Batches of k dice from the buffer's words while i > low + 3k and at
   least four words are unread before word end (w->pos + 4 <= end <=
   FSH_BUF_WORDS on entry); returns 1 when one failed the cheap test, its
   word left unread. */
static inline __attribute__((always_inline)) int
fy_asm_loop_buf(wsrc *w, unsigned char *a, size_t *ip, unsigned k,
                size_t low, size_t sz, unsigned end)
{
    const uint64_t *buf = w->rng->buf, *p = buf + w->pos;
    const uint64_t *pe = buf + end - FYA_BATCHES;
    uint64_t h0, h1, h2, h3, h4, h5, t, x;
    size_t i = *ip;
    int fail = 0;
    uint64_t pb = fy_product(i, k);
    (void)x, (void)t, (void)h0, (void)h1, (void)h2, (void)h3, (void)h4;
    (void)h5;
    if (sz == 8) {
        FYA_SWITCH_BUF(FYA_SW8)
    } else {
        FYA_SWITCH_BUF(FYA_SW4)
    }
    w->pos = (unsigned)(p - buf);
    *ip = i;
    return fail;
}
#pragma GCC diagnostic pop

/* xoshiro256++ one step back (the inverse of fsh_xoshiro_next's state
   update): after a failed cheap test in fy_asm_loop, so the C path draws
   the same word again. */
static void ws_xoshiro_back(wsrc *w)
{
    uint64_t s3x = (w->s3 >> 45) | (w->s3 << 19); /* s3 ^ s1 */
    uint64_t s0 = w->s0 ^ s3x;
    uint64_t y = w->s1 ^ w->s2; /* s1 ^ (s1 << 17) */
    uint64_t s1 = y ^ (y << 17) ^ (y << 34) ^ (y << 51);
    uint64_t s2 = w->s1 ^ s1 ^ s0;
    w->s0 = s0, w->s1 = s1, w->s2 = s2, w->s3 = s3x ^ s1;
}
#endif

/* Batches of k dice while i > low, each swapped once drawn. */
static inline __attribute__((always_inline)) void
fy_phase(fy_run *f, wsrc *w, int src, unsigned k, size_t low, int test,
         unsigned c)
{
    size_t i0 = f->i;
    while (f->i > low && ws_more(w, src)) {
        uint64_t j[6]; /* k <= 6 */
#if FY_ASM_LOOP
        if (src == WS_XOSHIRO && w->mulx && k >= 2 && !f->any &&
            (f->size == 8 || f->size == 4) &&
            test == FY_BELOW_POW2 &&
            f->i > low + (FYA_BATCHES - 1) * (size_t)k) {
            if (!fy_asm_loop(w, f->a, &f->i, k, low, f->size))
                continue;
            /* A batch failed the cheap test: its word again, by the C
               path below. */
            ws_xoshiro_back(w);
        } else if (src == WS_BUFFERED && w->mulx && k >= 2 && !f->any &&
                   (f->size == 8 || f->size == 4) &&
                   test == FY_BELOW_POW2 &&
                   f->i > low + (FYA_BATCHES - 1) * (size_t)k &&
                   w->pos + FYA_BATCHES <= FSH_BUF_WORDS) {
            /* Failed or not, the C path takes the next batch (the failed
               one, or the one that needs a refill or ends the phase). */
            (void)fy_asm_loop_buf(w, f->a, &f->i, k, low, f->size,
                                  FSH_BUF_WORDS);
            if (f->i <= low)
                continue;
        }
#endif
        fy_draw(w, src, f->i, k, test, c, 0, j);
FY_UNROLL
        for (unsigned d = 0; d < k; d++)
            fy_swap(f->a, f->i - 1 - d, (size_t)j[d], f->size, f->any);
        f->i -= k;
    }
    ws_count(w, src, (i0 - f->i) / k);
}

/* One FY_BATCH_PHASES phase of the fused kernel. */
#define FY_FUSED_PHASE(f, w, src, K, LOW, C)                                   \
    fy_phase((f), (w), (src), (K), (LOW), FY_BELOW_POW2, (C));

/* The backward Fisher-Yates from f->i (elements still unplaced) down, with
   words from src, while ws_more. The phases are FY_BATCH_PHASES, as in
   fy_fill, a function of i alone, so a second run resumes where one
   stopped. The last FSH_GREEDY_TAIL positions take the greedy plans
   (fsh_batch_plan). */
static inline __attribute__((always_inline)) void
fy_fused(fy_run *f, wsrc *w, int src)
{
    fy_phase(f, w, src, 1, (size_t)1 << 30, FY_BELOW_I, 0);
    FY_BATCH_PHASES(FY_FUSED_PHASE, f, w, src)
    while (f->i > 1 && ws_more(w, src)) {
        uint64_t p, j[FSH_GREEDY_TAIL];
        unsigned k = fsh_batch_plan(f->i, FSH_BATCH_CAP, &p);
        fy_draw(w, src, f->i, k, FY_BELOW_P, 0, p, j);
        for (unsigned d = 0; d < k; d++)
            fy_swap(f->a, f->i - 1 - d, (size_t)j[d], f->size, f->any);
        f->i -= k;
        ws_count(w, src, 1);
    }
}

/* The kernel body for any source. */
static inline __attribute__((always_inline)) void
fy_body(fsh_rng *rng, unsigned char *a, size_t n, size_t size, int any,
        int mulx)
{
    if (rng->src == FSH_SRC_RANDINT) {
        for (size_t i = n - 1; i > 0; i--)
            fy_swap(a, i, (size_t)fsh_randint_draw(rng, i + 1), size, any);
        return;
    }
    fy_run f = {a, size, any, n};
    wsrc w = {rng, rng->pos, 0, 0, 0, 0, 0, mulx};
    if (rng->src == FSH_SRC_XOSHIRO) {
        w.s0 = rng->xs[0], w.s1 = rng->xs[1];
        w.s2 = rng->xs[2], w.s3 = rng->xs[3];
        if (w.pos < FSH_BUF_WORDS)
            fy_fused(&f, &w, WS_DRAIN);
        fy_fused(&f, &w, WS_XOSHIRO);
        rng->xs[0] = w.s0, rng->xs[1] = w.s1;
        rng->xs[2] = w.s2, rng->xs[3] = w.s3;
        rng->words_made += w.made;
    } else {
        fy_fused(&f, &w, WS_BUFFERED);
    }
    rng->pos = w.pos;
}
#else
static inline void fy_body(fsh_rng *rng, unsigned char *a, size_t n,
                           size_t size, int any, int mulx)
{
    (void)mulx;
    for (size_t i = n - 1; i > 0; i--)
        fy_swap(a, i, (size_t)fsh_uniform_fast(rng, i + 1), size, any);
}
#endif

/* One plain kernel per element size (n >= 2), and one for any size. */
static void kernel1(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 1, 0, 0);
}

static void kernel2(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 2, 0, 0);
}

static void kernel4(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 4, 0, 0);
}

static void kernel8(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 8, 0, 0);
}

#if FY_MULX
/* The same kernels with the dice multiplied by MULX (fy_use_mulx). */
static void kernel4_mulx(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 4, 0, 1);
}

static void kernel8_mulx(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 8, 0, 1);
}

static pthread_once_t fy_mulx_once = PTHREAD_ONCE_INIT;
static int fy_mulx_on;

static void fy_mulx_init(void)
{
    const char *v = getenv("FSH_FY_IMPL");
    __builtin_cpu_init();
    fy_mulx_on = __builtin_cpu_supports("bmi2") &&
                 !(v != NULL && strcmp(v, "plain") == 0);
}

/* Whether the plain 4- and 8-byte kernels use their MULX versions: the CPU
   has BMI2 (every x86-64 since Haswell and Zen 1) and FSH_FY_IMPL=plain
   does not forbid it (the tests run both). Decided once per process; the
   permutation is the same either way. */
static int fy_use_mulx(void)
{
    (void)pthread_once(&fy_mulx_once, fy_mulx_init);
    return fy_mulx_on;
}
#endif

#if FY_AHEAD
/*
 * The buffered kernel with the next refill made ahead (chacha_simd.h's
 * AHEAD_*): for a ChaCha rng where the AVX-512 ChaCha kernel runs, the
 * batch phases run the asm loop in chunks of a few words, one slice of
 * the next 32 blocks before each, so the refill's vector work
 * overlaps the swaps' loads and stores instead of stopping them (a refill
 * is about 1,000 cycles in which no swap issues). The same words, the same
 * batches and swaps in the same order, and the rng left as the plain
 * kernel leaves it (tests/test_fy_ahead.c).
 */
/* Below this many elements the plain kernel: the slices made for a
   refill the call never reaches are lost work. */
#define FY_AHEAD_MIN 4096

/* One FY_BATCH_PHASES phase: batches of K dice while i > LOW. A chunk of
   the asm loop when four batches fit the phase and four words the buffer,
   else (a failed cheap test, the phase's or the buffer's last batches) one
   batch by fy_draw, whose exact test may refill the rng plainly (the
   slices are then stale: AHEAD_REFILL sees it). */
#define FY_AHEAD_PHASE(f, w, K, LOW, C)                                        \
    while ((f)->i > (LOW)) {                                                   \
        AHEAD_SLICE((w)->rng);                                                 \
        if (FSH_UNLIKELY((w)->pos >= FSH_BUF_WORDS)) {                         \
            if (AHEAD_BUSY((w)->rng))                                          \
                continue;                                                      \
            AHEAD_REFILL((w)->rng);                                            \
            (w)->pos = (w)->rng->pos;                                          \
        }                                                                      \
        if ((f)->i > (LOW) + (FYA_BATCHES - 1) * (size_t)(K) &&                \
            (w)->pos + FYA_BATCHES <= FSH_BUF_WORDS) {                         \
            unsigned e_ = (w)->pos + chunk;                                    \
            e_ = e_ < FSH_BUF_WORDS ? e_ : FSH_BUF_WORDS;                      \
            /* A failure leaves i at its batch, inside the phase. */           \
            if (!fy_asm_loop_buf((w), (f)->a, &(f)->i, (K), (LOW),             \
                                 (f)->size, e_))                               \
                continue;                                                      \
        }                                                                      \
        uint64_t j_[6];                                                        \
        fy_draw((w), WS_BUFFERED, (f)->i, (K), FY_BELOW_POW2, (C), 0, j_);     \
        FY_UNROLL                                                              \
        for (unsigned d_ = 0; d_ < (K); d_++)                                  \
            fy_swap((f)->a, (f)->i - 1 - d_, (size_t)j_[d_], (f)->size, 0);    \
        (f)->i -= (K);                                                         \
    }

FSH_AVX512_FN static inline __attribute__((always_inline)) void
fy_body_ahead(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    fy_run f = {a, size, 0, n};
    wsrc w = {rng, rng->pos, 0, 0, 0, 0, 0, 1};
    /* One die per word above 2^30: not where the time goes. */
    fy_phase(&f, &w, WS_BUFFERED, 1, (size_t)1 << 30, FY_BELOW_I, 0);
    AHEAD_DECL(rng);
    /* Words per chunk: the slices spread over the buffer (12 for ChaCha8,
       8 for ChaCha12 and ChaCha20; at n = 195,312 in cache spreading them
       beat fixed chunks of 8 or 16 words: docs/PERFORMANCE.md). */
    unsigned chunk = (FSH_BUF_WORDS / (unsigned)steps_) & ~3u;
    chunk = chunk < 8 ? 8 : chunk;
    FY_BATCH_PHASES(FY_AHEAD_PHASE, &f, &w)
    AHEAD_END(rng);
    /* The greedy tail (at most FSH_GREEDY_TAIL elements, a few words):
       plainly, a refill it needs too. */
    fy_fused(&f, &w, WS_BUFFERED);
    rng->pos = w.pos;
}

FSH_AVX512_FN static void kernel4_ahead(fsh_rng *rng, unsigned char *a,
                                        size_t n)
{
    fy_body_ahead(rng, a, n, 4);
}

FSH_AVX512_FN static void kernel8_ahead(fsh_rng *rng, unsigned char *a,
                                        size_t n)
{
    fy_body_ahead(rng, a, n, 8);
}

/* Whether the kernel with the refill made ahead takes this call (MULX
   already chosen): a ChaCha rng, the AVX-512 ChaCha kernel running, and
   enough elements. */
static int fy_ahead(const fsh_rng *rng, size_t n)
{
    return rng->src == FSH_SRC_CHACHA && n >= FY_AHEAD_MIN &&
           fsh_chacha_impl_active() == FSH_CHACHA_AVX512;
}
#endif

static void kernel16(fsh_rng *rng, unsigned char *a, size_t n)
{
    fy_body(rng, a, n, 16, 0, 0);
}

static void kernel_any(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    fy_body(rng, a, n, size, 1, 0);
}

/* Record sizes common in C structs (three floats or ints; three doubles;
   four doubles) get their own constant-size kernel: in cache 1.4-1.8x
   faster than kernel_any's chunked swaps (docs/PERFORMANCE.md, issue 13,
   session 11). */
#define KERNEL_CONST(S)                                                        \
    static void kernel##S(fsh_rng *rng, unsigned char *a, size_t n)           \
    {                                                                          \
        fy_body(rng, a, n, S, 0, 0);                                           \
    }
KERNEL_CONST(12)
KERNEL_CONST(24)
KERNEL_CONST(32)

/* ------------------------------------------------------------------------ */
/* The forward Fisher-Yates (stream version 3: 6-12 MiB, scatter leaves)   */

/*
 * For b = 2, 3, ..., n: swap a[b-1] with a[j], j uniform in [0, b): the
 * same n! joint outcomes as the backward kernel, each a distinct order, so
 * exactly 1/n! per order (the order built is another one for the same
 * dice). Its point is memory: position b-1 meets only a[0..b), lines it
 * has touched already, and the next line in sequence, which the
 * prefetcher streams in; the backward kernel meets a cold line at nearly
 * every j of a leaf beyond L2, so each leaf had to be read through once
 * before it (docs/PERFORMANCE.md, issue 13, session 14).
 *
 * Batches (docs/STREAMS.md section 5d): from bound b, K dice b, b+1, ...,
 * b+K-1, K by the batch's first bound (FY_FWD_PHASES: the product stays
 * below 2^64), cut short to n-b+1 at the end; one word each, accepted when
 * the final low half is at least 2^64 mod P (P the batch's product),
 * otherwise the next word. A randint source gets one call per position.
 */
/* The forward kernels' code in a section of its own, which the ELF linkers
   place after .text: the command is a static binary that page faults map
   nearly whole (each fault maps the cached pages around it), and these
   98 KB in the middle of .text raised the peak RSS of `fairshuf -n 1000`,
   which never runs them, by 100-200 KB (tests/cli/test_rss.sh against GNU
   shuf); at the end, where no start-up path touches, they stay out until
   used. */
#if defined(__GNUC__) && defined(__ELF__)
#define FYF_TEXT __attribute__((section("fsh_forward_text")))
#else
#define FYF_TEXT
#endif
#define FY_FWD_PHASES(P, ...)                                                  \
    P(__VA_ARGS__, 6, (size_t)1 << 9, 55)                                      \
    P(__VA_ARGS__, 5, (size_t)1 << 11, 56)                                     \
    P(__VA_ARGS__, 4, (size_t)1 << 14, 57)                                     \
    P(__VA_ARGS__, 3, (size_t)1 << 19, 58)                                     \
    P(__VA_ARGS__, 2, (size_t)1 << 30, 61)

/* b (b+1) ... (b+k-1). */
static inline uint64_t fyf_product(size_t b, unsigned k)
{
    uint64_t p = b;
    for (unsigned d = 1; d < k; d++)
        p *= (uint64_t)(b + d);
    return p;
}

/* Digits of the batch b, b+1, ..., b+k-1 from word r into j[0..k); returns
   the final low half (fy_dice's multiply chain with rising bounds; a twin,
   not a shared helper, so that the backward kernels' code stays as
   measured). */
static inline uint64_t fyf_dice(uint64_t r, uint64_t b, unsigned k,
                                uint64_t *j, int mulx)
{
FY_UNROLL
    for (unsigned d = 0; d < k; d++) {
#if FY_MULX
        if (mulx) {
            uint64_t hi;
            __asm__("mulxq %2, %0, %1"
                    : "=d"(r), "=r"(hi)
                    : "r"((uint64_t)(b + d)), "0"(r));
            j[d] = hi;
            continue;
        }
#else
        (void)mulx;
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
        uint64_t hi;
        __asm__("mulq %2" : "+a"(r), "=d"(hi) : "r"((uint64_t)(b + d)) : "cc");
        j[d] = hi;
#else
        j[d] = fsh_mul128(r, FY_OPAQUE((uint64_t)(b + d)), &r);
#endif
    }
    return r;
}

/* One batch of k dice from bound f->i (C path), swapped. Accepted at
   once when the final low half is at least 2^c (c with 2^c above every
   product of the phase: FY_FWD_PHASES; c = 0: no such shortcut, for the
   short last batch and single dice), else when it is at least the product
   P, else exactly (at least 2^64 mod P, redrawn until it is). k and c are
   constants wherever this is inlined, except for the array's last, short
   batch (fyf_short). */
static inline __attribute__((always_inline)) void
fyf_batch(fy_run *f, wsrc *w, unsigned k, unsigned c)
{
    size_t b = f->i;
    uint64_t j[6]; /* k <= 6 */
    uint64_t r = ws_buffered(w), lo;
    lo = fyf_dice(r, b, k, j, w->mulx);
    if (FSH_UNLIKELY(c == 0 || (lo >> c) == 0)) {
        uint64_t p = fyf_product(b, k);
        if (lo < p) {
            uint64_t t = FSH_REJECT_BELOW(uint64_t, p);
            while (lo < t) {
                lo = ws_buffered(w);
                for (unsigned d = 0; d < k; d++)
                    j[d] = fsh_mul128(lo, b + d, &lo);
            }
        }
    }
    for (unsigned d = 0; d < k; d++)
        fy_swap(f->a, b - 1 + d, (size_t)j[d], f->size, f->any);
    f->i = b + k;
}

/* The last batch, cut short to the n - b + 1 < K bounds left; returns the
   next bound. On copies (the caller's run and source stay constants in
   registers, as for fy_exact_word). */
FYF_TEXT static __attribute__((noinline)) size_t fyf_short(fy_run f, wsrc *w,
                                                  size_t n)
{
    fyf_batch(&f, w, (unsigned)(n - f.i + 1), 0);
    return f.i;
}

/* A batch of K dice from f->i, or the short last one. */
#define FYF_BATCH(f, w, n, K, C)                                               \
    do {                                                                       \
        if ((n) - (f)->i + 1 >= (K)) {                                         \
            fyf_batch((f), (w), (K), (C));                                     \
        } else {                                                               \
            wsrc cw_ = *(w);                                                   \
            int keep_ = (w)->mulx;                                             \
            (f)->i = fyf_short(*(f), &cw_, (n));                               \
            *(w) = cw_;                                                        \
            (w)->mulx = keep_;                                                 \
        }                                                                      \
    } while (0)

#if FY_ASM_LOOP
/* The asm loop forward: bounds i + O + D, positions one below. */
#define FYA_DIEF(O, D, T, H)                                                   \
    "lea " O "+" D "(%[i]), %[" T "]\n\t"                                      \
    "mulx %[" T "], %%rdx, %[" H "]\n\t"
#define FYA_SWAPF(SZ, MS, MT, X, T, O, D, H)                                   \
    "mov" MS " " SZ "*" O "+" SZ "*" D "-" SZ "(%[a],%[i]," SZ "), " X "\n\t"  \
    "mov" MT " (%[a],%[" H "]," SZ "), " T "\n\t"                              \
    "mov" MT " " T ", " SZ "*" O "+" SZ "*" D "-" SZ "(%[a],%[i]," SZ ")\n\t"  \
    "mov" MS " " X ", (%[a],%[" H "]," SZ ")\n\t"
#define FYA_SW8F(O, D, H) FYA_SWAPF("8", "q", "q", "%%rdx", "%q[t]", O, D, H)
#define FYA_SW4F(O, D, H) FYA_SWAPF("4", "l", "l", "%%edx", "%k[t]", O, D, H)
/* Four more words while i <= %[lk] (every batch of the next iteration
   inside the phase and the array). The line 512 bytes past the next
   position (elements of SZ bytes) is prefetched: an untouched leaf comes
   from DRAM in sequence, and at 1e8 this distance was as good as any
   measured (docs/PERFORMANCE.md, issue 13, session 14). */
/* FYF_PF_DIST and FYF_PF_T (the prefetch's distance in bytes and its
   PREFETCHTn level) are overridable for measurement builds only
   (bench/large.mk LARGE_CFLAGS); a hint, the same permutation. */
#ifndef FYF_PF_DIST
#define FYF_PF_DIST 512
#endif
#ifndef FYF_PF_T
#define FYF_PF_T 0
#endif
#define FYF_STR_(x) #x
#define FYF_STR(x) FYF_STR_(x)
#define FYF_PF "prefetcht" FYF_STR(FYF_PF_T) " " FYF_STR(FYF_PF_DIST)
#define FYA_TAIL_BUFF(SZ)                                                      \
    "add $32, %[p]\n\t"                                                        \
    "add %[kb], %[i]\n\t"                                                      \
    FYF_PF "(%[a],%[i]," SZ ")\n\t"                                            \
    "cmp %[lk], %[i]\n\t"                                                      \
    "ja 8f\n\t"                                                                \
    "cmp %[pe], %[p]\n\t"                                                      \
    "jbe 1b\n"                                                                 \
    "8:\n\t"
#define FYA_RUN_BUFF(K, SW, SZ)                                                \
    __asm__ volatile(FYA_LOOPD(K, FYA_DIEF, "add", SW, FYA_HL##K, FYA_WBUF,    \
                               FYA_TAIL_BUFF(SZ), FYA_FIX_BUF)                 \
                     : "=@ccc"(fail), [p] "+r"(p), [i] "+r"(i), "=&d"(x),      \
                       [t] "=&r"(t), FYA_OUT##K                                \
                     : [a] "r"(a), [pe] "r"(pe), [pb] "rm"(pb),               \
                       [lk] "rm"(lim), [k1] "i"(K),                            \
                       [kb] "i"(FYA_BATCHES * (K))                             \
                     : "memory")
#define FYA_SWITCH_BUFF(SW, SZ)                                                \
    switch (k) {                                                               \
    case 2:                                                                    \
        FYA_RUN_BUFF(2, SW, SZ);                                               \
        break;                                                                 \
    case 3:                                                                    \
        FYA_RUN_BUFF(3, SW, SZ);                                               \
        break;                                                                 \
    case 4:                                                                    \
        FYA_RUN_BUFF(4, SW, SZ);                                               \
        break;                                                                 \
    case 5:                                                                    \
        FYA_RUN_BUFF(5, SW, SZ);                                               \
        break;                                                                 \
    default:                                                                   \
        FYA_RUN_BUFF(6, SW, SZ);                                               \
        break;                                                                 \
    }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
/* Batches of k dice from bound *ip up, four per iteration, from the
   buffer's words while *ip <= lim and four words are unread before word
   end (w->pos + 4 <= end and *ip <= lim on entry); returns 1 when one
   failed the cheap test, *ip its first bound and its word left unread. */
static inline __attribute__((always_inline)) int
fyf_asm_loop_buf(wsrc *w, unsigned char *a, size_t *ip, unsigned k,
                 size_t lim, size_t sz, unsigned end)
{
    const uint64_t *buf = w->rng->buf, *p = buf + w->pos;
    const uint64_t *pe = buf + end - FYA_BATCHES;
    uint64_t h0, h1, h2, h3, h4, h5, t, x;
    size_t i = *ip;
    int fail = 0;
    /* The largest product of this run: its last iteration starts at most
       at lim, and at most (end - pos) / 4 - 1 iterations after this one. */
    size_t step = FYA_BATCHES * (size_t)k;
    size_t iters = (lim - i) / step, words = (end - w->pos) / FYA_BATCHES;
    iters = iters < words - 1 ? iters : words - 1;
    uint64_t pb = fyf_product(i + iters * step + step - k, k);
    (void)x, (void)t, (void)h0, (void)h1, (void)h2, (void)h3, (void)h4;
    (void)h5;
    if (sz == 8) {
        FYA_SWITCH_BUFF(FYA_SW8F, "8")
    } else {
        FYA_SWITCH_BUFF(FYA_SW4F, "4")
    }
    w->pos = (unsigned)(p - buf);
    *ip = i;
    return fail;
}
#pragma GCC diagnostic pop

/* The asm loop's limit in a phase of K dice up to bound HI: the last
   first bound from which four batches stay inside the phase and the
   array; 0 when there is none. */
static inline size_t fyf_lim(size_t hi, size_t n, unsigned k)
{
    size_t a = hi >= 3 * (size_t)k ? hi - 3 * (size_t)k : 0;
    size_t b = n + 1 >= 4 * (size_t)k ? n + 1 - 4 * (size_t)k : 0;
    return a < b ? a : b;
}
#define FYF_ASM_OK(f, w)                                                       \
    ((w)->mulx && !(f)->any && ((f)->size == 8 || (f)->size == 4))
#endif

/* One FY_FWD_PHASES phase: batches of K dice while the bound is at most HI
   (and n). */
#if FY_ASM_LOOP
#define FYF_PHASE(f, w, n, K, HI, C)                                           \
    while ((f)->i <= (HI) && (f)->i <= (n)) {                                  \
        size_t lim_ = fyf_lim((HI), (n), (K));                                 \
        if (FYF_ASM_OK(f, w) && (f)->i <= lim_ &&                              \
            (w)->pos + FYA_BATCHES <= FSH_BUF_WORDS) {                         \
            (void)fyf_asm_loop_buf((w), (f)->a, &(f)->i, (K), lim_,           \
                                   (f)->size, FSH_BUF_WORDS);                  \
            if ((f)->i > (HI) || (f)->i > (n))                                 \
                break;                                                         \
        }                                                                      \
        FYF_BATCH((f), (w), (n), (K), (C));                                    \
    }
#else
#define FYF_PHASE(f, w, n, K, HI, C)                                           \
    while ((f)->i <= (HI) && (f)->i <= (n))                                    \
        FYF_BATCH((f), (w), (n), (K), (C));
#endif

static inline __attribute__((always_inline)) void
fyf_body(fsh_rng *rng, unsigned char *a, size_t n, size_t size, int any,
         int mulx)
{
    if (rng->src == FSH_SRC_RANDINT) {
        for (size_t b = 2; b <= n; b++)
            fy_swap(a, b - 1, (size_t)fsh_randint_draw(rng, b), size, any);
        return;
    }
    fy_run f = {a, size, any, 2};
    wsrc w = {rng, rng->pos, 0, 0, 0, 0, 0, mulx};
    FY_FWD_PHASES(FYF_PHASE, &f, &w, n)
    while (f.i <= n)
        fyf_batch(&f, &w, 1, 0);
    rng->pos = w.pos;
}

#if FY_AHEAD
/* The forward kernel with the next refill made ahead (as fy_body_ahead). */
#define FYF_AHEAD_PHASE(f, w, n, K, HI, C)                                     \
    while ((f)->i <= (HI) && (f)->i <= (n)) {                                  \
        AHEAD_SLICE((w)->rng);                                                 \
        if (FSH_UNLIKELY((w)->pos >= FSH_BUF_WORDS)) {                         \
            if (AHEAD_BUSY((w)->rng))                                          \
                continue;                                                      \
            AHEAD_REFILL((w)->rng);                                            \
            (w)->pos = (w)->rng->pos;                                          \
        }                                                                      \
        size_t lim_ = fyf_lim((HI), (n), (K));                                 \
        if ((f)->i <= lim_ && (w)->pos + FYA_BATCHES <= FSH_BUF_WORDS) {       \
            unsigned e_ = (w)->pos + chunk;                                    \
            e_ = e_ < FSH_BUF_WORDS ? e_ : FSH_BUF_WORDS;                      \
            if (!fyf_asm_loop_buf((w), (f)->a, &(f)->i, (K), lim_,            \
                                  (f)->size, e_))                              \
                continue;                                                      \
        }                                                                      \
        FYF_BATCH((f), (w), (n), (K), (C));                                    \
    }

FSH_AVX512_FN static inline __attribute__((always_inline)) void
fyf_body_ahead(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    fy_run f = {a, size, 0, 2};
    wsrc w = {rng, rng->pos, 0, 0, 0, 0, 0, 1};
    AHEAD_DECL(rng);
    unsigned chunk = (FSH_BUF_WORDS / (unsigned)steps_) & ~3u;
    chunk = chunk < 8 ? 8 : chunk;
    FY_FWD_PHASES(FYF_AHEAD_PHASE, &f, &w, n)
    AHEAD_END(rng);
    while (f.i <= n)
        fyf_batch(&f, &w, 1, 0);
    rng->pos = w.pos;
}

FYF_TEXT FSH_AVX512_FN static void fkernel4_ahead(fsh_rng *rng, unsigned char *a,
                                         size_t n)
{
    fyf_body_ahead(rng, a, n, 4);
}

FYF_TEXT FSH_AVX512_FN static void fkernel8_ahead(fsh_rng *rng, unsigned char *a,
                                         size_t n)
{
    fyf_body_ahead(rng, a, n, 8);
}
#endif

/* One forward kernel per element size the library gives it (up to 8
   bytes: stream version 3); any other size (the test hook) through the
   chunked swaps of fsh_swap_inline. */
#define FKERNEL(S)                                                             \
    FYF_TEXT static void fkernel##S(fsh_rng *rng, unsigned char *a, size_t n) \
    {                                                                          \
        fyf_body(rng, a, n, S, 0, 0);                                          \
    }
FKERNEL(1)
FKERNEL(2)
FKERNEL(4)
FKERNEL(8)
#if FY_MULX
FYF_TEXT static void fkernel4_mulx(fsh_rng *rng, unsigned char *a, size_t n)
{
    fyf_body(rng, a, n, 4, 0, 1);
}

FYF_TEXT static void fkernel8_mulx(fsh_rng *rng, unsigned char *a, size_t n)
{
    fyf_body(rng, a, n, 8, 0, 1);
}
#endif

FYF_TEXT void fsh_fy_forward(fsh_rng *rng, unsigned char *a, size_t n,
                             size_t size)
{
    if (n < 2)
        return;
    switch (size) {
    case 4:
    case 8:
#if FY_MULX
        if (fy_use_mulx()) {
#if FY_AHEAD
            if (fy_ahead(rng, n)) {
                (size == 8 ? fkernel8_ahead : fkernel4_ahead)(rng, a, n);
                break;
            }
#endif
            (size == 8 ? fkernel8_mulx : fkernel4_mulx)(rng, a, n);
            break;
        }
#endif
        (size == 8 ? fkernel8 : fkernel4)(rng, a, n);
        break;
    case 1:
        fkernel1(rng, a, n);
        break;
    case 2:
        fkernel2(rng, a, n);
        break;
    default:
        fyf_body(rng, a, n, size, 1, 0);
        break;
    }
}

#ifdef FSH_HAVE_U128
/*
 * Prefetching Fisher-Yates (mid sizes): the draws never depend on the
 * array, so the next chunk of indices is filled by fy_fill while the current
 * one is swapped, and the target PF_AHEAD swaps ahead is prefetched. Same
 * indices, same swaps in the same order: the same permutation as the plain
 * kernel for the same rng state.
 */
#define PF_AHEAD 48

/* Prefetch element j's bytes: its first line, and for a size without its
   own kernel (any) every line of it. */
#define PF_ELEM(a, j, size, any)                                               \
    do {                                                                       \
        const unsigned char *e_ = (a) + (size_t)(j) * (size);                  \
        if (any)                                                               \
            FSH_PREFETCH_ELEMENT(e_, size, 1, 3);                              \
        else                                                                   \
            __builtin_prefetch(e_, 1);                                         \
    } while (0)

static inline __attribute__((always_inline)) void
pf_body(fsh_rng *rng, unsigned char *a, size_t n, size_t size, int any)
{
    wsrc c = {rng, rng->pos, 0, 0, 0, 0, 0, 0};
    uint64_t ix[2][FY_CHUNK];
    size_t cnt[2], top[2], i = n;
    unsigned cur = 0;
    top[0] = i;
    cnt[0] = fy_fill(&c, &i, ix[0]);
    for (size_t t = 0; t < cnt[0] && t < PF_AHEAD; t++)
        PF_ELEM(a, ix[0][t], size, any);
    while (cnt[cur] > 0) {
        unsigned nx = cur ^ 1u;
        top[nx] = i;
        cnt[nx] = i > 1 ? fy_fill(&c, &i, ix[nx]) : 0;
        for (size_t t = 0; t < cnt[cur]; t++) {
            size_t ahead = t + PF_AHEAD;
            if (ahead < cnt[cur])
                PF_ELEM(a, ix[cur][ahead], size, any);
            else if (ahead - cnt[cur] < cnt[nx])
                PF_ELEM(a, ix[nx][ahead - cnt[cur]], size, any);
            fy_swap(a, top[cur] - 1 - t, (size_t)ix[cur][t], size, any);
        }
        cur = nx;
    }
    rng->pos = c.pos;
}

static void pf_kernel4(fsh_rng *rng, unsigned char *a, size_t n)
{
    pf_body(rng, a, n, 4, 0);
}

static void pf_kernel8(fsh_rng *rng, unsigned char *a, size_t n)
{
    pf_body(rng, a, n, 8, 0);
}

static void pf_kernel16(fsh_rng *rng, unsigned char *a, size_t n)
{
    pf_body(rng, a, n, 16, 0);
}

static void pf_kernel_any(fsh_rng *rng, unsigned char *a, size_t n,
                          size_t size)
{
    pf_body(rng, a, n, size, 1);
}
#endif

int fsh_fy_prefetch(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
#ifdef FSH_HAVE_U128
    if (n >= 2 && rng->src != FSH_SRC_RANDINT) {
        switch (size) {
        case 4:
            pf_kernel4(rng, a, n);
            return 1;
        case 8:
            pf_kernel8(rng, a, n);
            return 1;
        case 16:
            pf_kernel16(rng, a, n);
            return 1;
        default:
            pf_kernel_any(rng, a, n, size);
            return 1;
        }
    }
#endif
    (void)rng, (void)a, (void)n, (void)size;
    return 0;
}

int fsh_fy_ahead_on(void)
{
#if FY_AHEAD
    return fy_use_mulx() && fsh_chacha_impl_active() == FSH_CHACHA_AVX512;
#else
    return 0;
#endif
}

void fsh_fy_kernel(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    switch (size) {
    case 1:
        kernel1(rng, a, n);
        break;
    case 2:
        kernel2(rng, a, n);
        break;
    case 4:
#if FY_MULX
        if (fy_use_mulx()) {
#if FY_AHEAD
            if (fy_ahead(rng, n)) {
                kernel4_ahead(rng, a, n);
                break;
            }
#endif
            kernel4_mulx(rng, a, n);
            break;
        }
#endif
        kernel4(rng, a, n);
        break;
    case 8:
#if FY_MULX
        if (fy_use_mulx()) {
#if FY_AHEAD
            if (fy_ahead(rng, n)) {
                kernel8_ahead(rng, a, n);
                break;
            }
#endif
            kernel8_mulx(rng, a, n);
            break;
        }
#endif
        kernel8(rng, a, n);
        break;
    case 16:
        kernel16(rng, a, n);
        break;
    case 12:
        kernel12(rng, a, n);
        break;
    case 24:
        kernel24(rng, a, n);
        break;
    case 32:
        kernel32(rng, a, n);
        break;
    default:
        kernel_any(rng, a, n, size);
        break;
    }
}
