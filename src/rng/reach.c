/* SPDX-License-Identifier: MIT */
/* Reachability beyond the key: the group cut of an operation's draws, the
   reach policy (FSH_REACH_*, hardware cap), the hardware reseed, and the
   bit counts. */
#include "rng/rng.h"

#include "common/wide.h"
#include "rng/chacha.h"
#include "rng/hwrand.h"

#include <errno.h>
#include <math.h>
#include <sodium.h>
#include <stdlib.h>

void fsh_reach_acc_init(fsh_reach_acc *acc)
{
    memset(acc, 0, sizeof *acc);
    acc->l[0] = 1;
}

int fsh_reach_acc_take(fsh_reach_acc *acc, uint64_t m1)
{
    uint64_t p[6];
    if (m1 == UINT64_MAX) { /* the range 2^64: one limb up */
        p[0] = 0;
        memcpy(p + 1, acc->l, sizeof acc->l);
    } else {
        uint64_t f = m1 + 1, carry = 0;
        for (int j = 0; j < 5; j++) {
            uint64_t lo, hi = fsh_mul128(acc->l[j], f, &lo);
            lo += carry;
            hi += lo < carry;
            p[j] = lo;
            carry = hi;
        }
        p[5] = carry;
    }
    /* p <= 2^256: nothing above limb 4, and limb 4 is 0, or 1 over zeros. */
    if (p[5] != 0 || p[4] > 1 ||
        (p[4] == 1 && (p[0] | p[1] | p[2] | p[3]) != 0))
        return 0;
    memcpy(acc->l, p, sizeof acc->l);
    return 1;
}

uint64_t fsh_reach_groups(uint64_t last, uint64_t k, uint64_t max)
{
    fsh_reach_acc acc;
    fsh_reach_acc_init(&acc);
    uint64_t g = k > 0;
    for (uint64_t i = 0; i < k && g <= max; i++) {
        if (!fsh_reach_acc_take(&acc, last - i)) {
            g++;
            fsh_reach_acc_init(&acc);
            (void)fsh_reach_acc_take(&acc, last - i);
        }
    }
    return g;
}

/* The groups a call may have within the cap: 256 hardware bits per group
   after the first. */
static uint64_t max_groups(const fsh_rng *rng)
{
    uint64_t cap = fsh_rng_hw_cap(rng);
    return cap / 256 + 1;
}

/* Beyond the key, for a mixing rng: accept bounded by the key? over: the
   call needs more than the cap; hw: mixing is possible (FULL and a
   source). Returns FSH_OK (run plain), or the refusal. */
static int key_bound_or(const fsh_rng *rng, int over)
{
    unsigned fl = fsh_rng_reach_flags(rng);
    if (over)
        return fl & (FSH_REACH_KEY | FSH_REACH_KEY_LARGE) ? FSH_OK
                                                         : FSH_EENTROPY;
    if (fl & FSH_REACH_KEY)
        return FSH_OK;
    return fl & FSH_REACH_FULL ? FSH_ENOHWRAND : FSH_EENTROPY;
}

/* A prefix (or Algorithm R stream) already run bounded by the key, for
   the reason kb (KEYBOUND_NO_HW or KEYBOUND_OVER), asked about again under
   rng's policy: FSH_OK if it accepts the key bound, else the refusal. A
   prefix bound for want of hardware is FSH_ENOHWRAND only while no source
   is there; once one is, mixing it in can no longer make the prefix reach
   every outcome, so the refusal is FSH_EENTROPY (what strict FULL says of
   any call it cannot make reach them). */
static int keybound_again(const fsh_rng *rng, int kb)
{
    int rc = key_bound_or(rng, kb == KEYBOUND_OVER);
    return rc == FSH_ENOHWRAND && fsh_hw_available() ? FSH_EENTROPY : rc;
}

/* 1 when the k draws over last + 1 items surely need more than max groups:
   their product is at least 2^lb and each group holds at most 2^256, so
   lb > 256 max means more than max groups. lb: n! >= sqrt(2 pi n)
   (n/e)^n for a shuffle (k >= last), else (last + 2 - k)^k. One bit of
   margin absorbs rounding; near the boundary the exact count decides. Keeps the count
   (a walk over the draws) off large calls above the cap. */
static int surely_over(uint64_t last, uint64_t k, uint64_t max)
{
    double lb;
    if (k >= last) {
        lb = fsh_log2_factorial_lb((double)last + 1);
    } else {
        lb = (double)k * log2((double)(last - k) + 2);
    }
    return lb > 256.0 * (double)max + 1;
}

int fsh_rng_plan_ordered(const fsh_rng *rng, uint64_t last, uint64_t k,
                         uint64_t *groups)
{
    *groups = 1;
    if (rng->max_fair_n == SIZE_MAX || k == 0)
        return FSH_OK;
    if (!fsh_rng_mixable(rng))
        return fsh_ordered_fits(last, k, rng->entropy_bits) ? FSH_OK
                                                             : FSH_EENTROPY;
    /* A shuffle (k >= last) of more than 57 never fits: skip the walk. */
    if ((k < last || last < 57) && fsh_ordered_fits(last, k, 256))
        return FSH_OK;
    int can_mix = (fsh_rng_reach_flags(rng) & FSH_REACH_FULL) &&
                  fsh_hw_available();
    if (!can_mix && (fsh_rng_reach_flags(rng) & FSH_REACH_KEY))
        return FSH_OK; /* bounded by the key, whatever the count */
    uint64_t maxg = max_groups(rng);
    uint64_t g = surely_over(last, k, maxg) ? maxg + 1
                                            : fsh_reach_groups(last, k, maxg);
    int over = g > maxg;
    if (!over && can_mix) {
        *groups = g;
        return FSH_OK;
    }
    return key_bound_or(rng, over);
}

void fsh_rng_reseed(fsh_rng *rng, const uint64_t hw[4])
{
    /* Left unkeyed during the operation (a forked child's rekey failed):
       it stays without a key; the operation fails with FSH_ESYSRAND. */
    if (FSH_UNLIKELY(rng->src != FSH_SRC_CHACHA))
        return;
    static const char dom[] = "fairshuf/reach/v1"; /* 17 bytes + NUL */
    uint8_t in[sizeof dom + 64], key[32];
    memcpy(in, dom, sizeof dom);
    for (size_t w = 0; w < 4; w++) {
        uint64_t x = fsh_next_word(rng), h = hw[w];
        for (size_t b = 0; b < 8; b++) {
            in[sizeof dom + 8 * w + b] = (uint8_t)(x >> (8 * b));
            in[sizeof dom + 32 + 8 * w + b] = (uint8_t)(h >> (8 * b));
        }
    }
    crypto_hash_sha256(key, in, sizeof in);
    /* The unread words of the old key are dropped, never handed out (and
       not counted as used). */
    rng->words_made -= FSH_BUF_WORDS - rng->pos;
    sodium_memzero(rng->buf, sizeof rng->buf);
    rng->pos = FSH_BUF_WORDS;
    fsh_chacha_key(rng->key, key);
    rng->counter = 0;
    rng->stream = 0;
    rng->hw_bits += 256;
    rng->key_id = fsh_rng_new_key_id();
    sodium_memzero(key, sizeof key);
    sodium_memzero(in, sizeof in);
}

static void mix_init(fsh_mix *m)
{
    fsh_reach_acc_init(&m->acc);
    m->groups = 1;
    m->heap = NULL;
    m->hw = m->stack;
    m->nwords = 0;
    m->track = 0;
    m->left = 0;
    m->failed = FSH_OK;
}

int fsh_mix_prepare(fsh_rng *rng, fsh_mix *m, uint64_t groups)
{
    mix_init(m);
    m->groups = groups;
    if (groups <= 1)
        return FSH_OK;
    uint64_t words = 4 * (groups - 1);
    if (words > sizeof m->stack / sizeof m->stack[0]) {
        if (words > SIZE_MAX / sizeof(uint64_t))
            return FSH_ENOMEM;
        m->heap = malloc((size_t)words * sizeof(uint64_t));
        if (m->heap == NULL)
            return FSH_ENOMEM;
        m->hw = m->heap;
    }
    m->nwords = (size_t)words;
    int rc = fsh_hw_words(m->hw, (size_t)words);
    if (rc != FSH_OK) {
        fsh_mix_done(m);
        m->groups = 1;
        return fsh_rng_reach_flags(rng) & FSH_REACH_KEY ? FSH_OK : rc;
    }
    return FSH_OK;
}

int fsh_mix_prepare_pieces(fsh_rng *rng, fsh_mix *m, uint64_t groups)
{
    const uint64_t piece = sizeof m->stack / sizeof m->stack[0];
    uint64_t words = 4 * (groups - 1);
    if (words <= piece)
        return fsh_mix_prepare(rng, m, groups);
    mix_init(m);
    m->groups = groups;
    m->nwords = (size_t)piece;
    m->left = words - piece;
    int rc = fsh_hw_words(m->hw, (size_t)piece);
    if (rc != FSH_OK) {
        fsh_mix_done(m);
        m->groups = 1;
        m->left = 0;
        return fsh_rng_reach_flags(rng) & FSH_REACH_KEY ? FSH_OK : rc;
    }
    return FSH_OK;
}

int fsh_mix_refill(fsh_mix *m)
{
    const uint64_t piece = sizeof m->stack / sizeof m->stack[0];
    size_t n = (size_t)(m->left < piece ? m->left : piece);
    sodium_memzero(m->stack, m->nwords * sizeof m->stack[0]);
    m->hw = m->stack;
    m->nwords = n;
    m->left -= n;
    int rc = fsh_hw_words(m->stack, n);
    if (rc != FSH_OK) {
        m->failed = rc;
        m->track = 0;
        m->groups = 1;
        return 0;
    }
    return 1;
}

int fsh_mix_refused(const fsh_rng *rng, int rc)
{
    return fsh_rng_reach_flags(rng) & FSH_REACH_KEY ? FSH_OK : rc;
}

void fsh_mix_done(fsh_mix *m)
{
    uint64_t *base = m->heap != NULL ? m->heap : m->stack;
    if (m->nwords > 0)
        sodium_memzero(base, m->nwords * sizeof(uint64_t));
    free(m->heap);
    m->heap = NULL;
    m->nwords = 0;
    m->hw = m->stack;
}

void fsh_reach_state_init(fsh_reach_state *st)
{
    fsh_reach_acc_init(&st->acc);
    st->reseeds = 0;
    st->keybound = 0;
}

int fsh_rng_reach_check(const fsh_rng *rng, const fsh_reach_state *st,
                        uint64_t last, uint64_t k0, uint64_t k,
                        fsh_reach_plan *plan)
{
    plan->action = REACH_PLAIN;
    plan->groups = 1;
    if (k == 0 || rng->max_fair_n == SIZE_MAX)
        return FSH_OK;
    if (!fsh_rng_mixable(rng))
        return fsh_rng_check_ordered(rng, last, k0 + k);
    /* A prefix already run bounded by the key stays so: each batch is
       accepted only if the rng's policy now accepts that (another rng, or
       the policy changed since: strict FULL refuses it, as it would have
       refused the batch that went key bound). */
    if (st->keybound)
        return keybound_again(rng, st->keybound);
    /* Surely past the cap: the walk below would end there (r + 1 groups
       hold the prefix's product, at least 2^lb, so r + 1 > maxg - reseeds
       and r >= 1). Keeps the walk, about 100 instructions a draw, off
       large batches (fsh_rangeperm_next_n), as fsh_rng_plan_ordered does
       for one-shot calls; the outcome is the walk's. */
    uint64_t maxg = max_groups(rng);
    if (st->reseeds < maxg && surely_over(last - k0, k, maxg - st->reseeds)) {
        int rc = key_bound_or(rng, 1);
        if (rc == FSH_OK)
            plan->action = REACH_KEYBOUND_OVER;
        return rc;
    }
    /* The group boundaries among these k draws. */
    fsh_reach_acc a = st->acc;
    uint64_t r = 0;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t m1 = last - (k0 + i);
        if (!fsh_reach_acc_take(&a, m1)) {
            r++;
            fsh_reach_acc_init(&a);
            (void)fsh_reach_acc_take(&a, m1);
        }
    }
    if (r == 0) {
        plan->action = REACH_TRACK;
        return FSH_OK;
    }
    int over = st->reseeds + r + 1 > maxg;
    if (!over && (fsh_rng_reach_flags(rng) & FSH_REACH_FULL) &&
        fsh_hw_available()) {
        plan->action = REACH_MIX;
        plan->groups = r + 1;
        return FSH_OK;
    }
    int rc = key_bound_or(rng, over);
    if (rc == FSH_OK)
        plan->action = over ? REACH_KEYBOUND_OVER : REACH_KEYBOUND_NO_HW;
    return rc;
}

int fsh_rng_reach_start(fsh_rng *rng, fsh_reach_state *st, fsh_mix *m,
                        const fsh_reach_plan *plan, int pieces)
{
    mix_init(m);
    switch (plan->action) {
    case REACH_TRACK:
        m->track = 1;
        return FSH_OK;
    case REACH_KEYBOUND_NO_HW:
        st->keybound = KEYBOUND_NO_HW;
        return FSH_OK;
    case REACH_KEYBOUND_OVER:
        st->keybound = KEYBOUND_OVER;
        return FSH_OK;
    case REACH_MIX: {
        int rc = pieces ? fsh_mix_prepare_pieces(rng, m, plan->groups)
                        : fsh_mix_prepare(rng, m, plan->groups);
        if (rc != FSH_OK)
            return rc;
        if (m->groups > 1)
            m->track = 1;
        else /* the source failed; the key bound is accepted */
            st->keybound = KEYBOUND_NO_HW;
        return FSH_OK;
    }
    default:
        return FSH_OK;
    }
}

static int reach_begin(fsh_rng *rng, fsh_reach_state *st, fsh_mix *m,
                       uint64_t last, uint64_t k0, uint64_t k, int pieces)
{
    fsh_reach_plan plan;
    mix_init(m);
    int rc = fsh_rng_reach_check(rng, st, last, k0, k, &plan);
    if (rc != FSH_OK)
        return rc;
    return fsh_rng_reach_start(rng, st, m, &plan, pieces);
}

int fsh_rng_reach_begin(fsh_rng *rng, fsh_reach_state *st, fsh_mix *m,
                        uint64_t last, uint64_t k0, uint64_t k)
{
    return reach_begin(rng, st, m, last, k0, k, 0);
}

int fsh_rng_reach_begin_pieces(fsh_rng *rng, fsh_reach_state *st, fsh_mix *m,
                               uint64_t last, uint64_t k0, uint64_t k)
{
    return reach_begin(rng, st, m, last, k0, k, 1);
}

int fsh_rng_reach_refused(const fsh_rng *rng, fsh_reach_state *st, int rc)
{
    if ((rc = fsh_mix_refused(rng, rc)) == FSH_OK)
        st->keybound = KEYBOUND_NO_HW;
    return rc;
}

int fsh_rng_reach_next(fsh_rng *rng, fsh_reach_state *st, fsh_mix *m,
                       uint64_t m1)
{
    if (!m->track || fsh_reach_acc_take(&st->acc, m1))
        return 0;
    /* Drawn in pieces: the last piece's words are used up. */
    if (m->left > 0 && m->hw == m->stack + m->nwords && !fsh_mix_refill(m))
        return 0;
    fsh_rng_reseed(rng, m->hw);
    m->hw += 4;
    st->reseeds++;
    fsh_reach_acc_init(&st->acc);
    (void)fsh_reach_acc_take(&st->acc, m1);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Public: policy, counters, plans, bit counts                              */

int fsh_rng_reach_subset(fsh_rng *rng, uint64_t last, uint64_t k)
{
    if (rng->max_fair_n == SIZE_MAX || k == 0)
        return FSH_OK;
    if (!fsh_rng_mixable(rng))
        return fsh_rng_check_subset(rng, last, k);
    if (last == k || k != rng->res_k) { /* a new stream */
        rng->res_reseeds = rng->res_next = 0;
        rng->res_k = k;
        rng->res_keybound = 0;
    }
    /* Bounded by the key from here, while the policy accepts that (as an
       incremental object's prefix, reach_begin). */
    if (rng->res_keybound)
        return keybound_again(rng, rng->res_keybound);
    if (last < rng->res_next)
        return FSH_OK;
    /* Reseeds due: one per 256 bits of C(last + 1, k) beyond the key. Each
       step adds log2((last + 2) / (last + 2 - k)) <= 64 bits, so at most
       one is due per draw. */
    double bits = fsh_subset_bits(last + 1, k);
    uint64_t need = bits <= 256 ? 0 : (uint64_t)ceil((bits - 256) / 256);
    if (need > rng->res_reseeds) {
        int over = need > max_groups(rng) - 1;
        int can_mix = (fsh_rng_reach_flags(rng) & FSH_REACH_FULL) &&
                      fsh_hw_available();
        uint64_t hw[4];
        int rc = !over && can_mix ? fsh_hw_words(hw, 4) : FSH_ENOHWRAND;
        if (rc != FSH_OK) {
            if ((rc = key_bound_or(rng, over)) != FSH_OK)
                return rc;
            rng->res_keybound = over ? KEYBOUND_OVER : KEYBOUND_NO_HW;
            return FSH_OK;
        }
        fsh_rng_reseed(rng, hw);
        sodium_memzero(hw, sizeof hw);
        rng->res_reseeds++;
    }
    /* The increments shrink as the stream grows: the next reseed is at
       least gap / inc draws away. */
    double inc = log2(((double)last + 2) / ((double)last + 2 - (double)k));
    double gap = 256.0 * (double)(rng->res_reseeds + 1) - bits;
    double steps = inc > 0 ? floor(gap / inc) - 1 : 0;
    rng->res_next = steps >= 1 && steps < 1e18 ? last + 1 + (uint64_t)steps
                                               : last + 1;
    return FSH_OK;
}

int fsh_rng_set_reach(fsh_rng *rng, unsigned flags)
{
    if (rng == NULL || rng->in_cb ||
        (flags & ~(FSH_REACH_FULL | FSH_REACH_KEY | FSH_REACH_KEY_LARGE)) != 0)
        return FSH_EINVAL;
    rng->reach_x = flags ^ FSH_REACH_DEFAULT;
    return FSH_OK;
}

unsigned fsh_rng_get_reach(const fsh_rng *rng)
{
    return rng == NULL ? 0 : fsh_rng_reach_flags(rng);
}

int fsh_rng_set_hw_cap(fsh_rng *rng, uint64_t bits)
{
    if (rng == NULL || rng->in_cb)
        return FSH_EINVAL;
    rng->hw_cap_x = bits ^ FSH_HW_CAP_DEFAULT;
    return FSH_OK;
}

uint64_t fsh_rng_get_hw_cap(const fsh_rng *rng)
{
    return rng == NULL ? 0 : fsh_rng_hw_cap(rng);
}

int fsh_rng_set_direct(fsh_rng *rng, int on)
{
    if (rng == NULL || rng->in_cb)
        return FSH_EINVAL;
    rng->direct = on != 0;
    return FSH_OK;
}

int fsh_rng_set_stream_version(fsh_rng *rng, unsigned version)
{
    if (rng == NULL || rng->in_cb || version > FSH_STREAM_LATEST)
        return FSH_EINVAL;
    rng->stream_v = version;
    return FSH_OK;
}

unsigned fsh_rng_stream_version(const fsh_rng *rng)
{
    return rng == NULL ? 0 : fsh_rng_stream_v(rng);
}

int fsh_rng_entropy_drawn(const fsh_rng *rng, uint64_t *os_bits,
                          uint64_t *hw_bits)
{
    if (rng == NULL)
        return FSH_EINVAL;
    if (os_bits != NULL)
        *os_bits = rng->os_bits;
    if (hw_bits != NULL)
        *hw_bits = rng->hw_bits;
    return FSH_OK;
}

int fsh_hw_entropy_available(void)
{
    return fsh_hw_available();
}

int fsh_rng_reach_plan(const fsh_rng *rng, uint64_t *hw_bits, uint64_t last,
                       uint64_t k)
{
    if (rng == NULL || hw_bits == NULL || (k > 0 && k - 1 > last))
        return FSH_EINVAL;
    if (rng->src == FSH_SRC_NONE) {
        errno = rng->sys_errno; /* as every call refused for it */
        return FSH_ESYSRAND;
    }
    uint64_t g;
    int rc = fsh_rng_plan_ordered(rng, last, k, &g);
    if (rc == FSH_OK)
        *hw_bits = 256 * (g - 1);
    return rc;
}

/* Largest n whose shuffle (n - 1 draws) the cap covers with mixing; the
   group count grows with n (a greedy cut is optimal, and prepending a
   range never lowers the optimum), so bisect. */
static size_t max_mixed_n(const fsh_rng *rng)
{
    uint64_t maxg = max_groups(rng);
    size_t lo = 57, hi = 64; /* lo fits; find hi that does not */
    while (fsh_reach_groups(hi - 1, hi - 1, maxg) <= maxg) {
        lo = hi;
        if (hi > SIZE_MAX / 2)
            return SIZE_MAX;
        hi *= 2;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (fsh_reach_groups(mid - 1, mid - 1, maxg) <= maxg)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

size_t fsh_rng_max_fair_n(const fsh_rng *rng)
{
    if (rng == NULL)
        return 0;
    if (rng->max_fair_n != SIZE_MAX && fsh_rng_mixable(rng) &&
        (fsh_rng_reach_flags(rng) & FSH_REACH_FULL) && fsh_hw_available())
        return max_mixed_n(rng);
    return rng->max_fair_n;
}

#define TWO_PI_L 6.283185307179586476925286766559005768L

/* Stirling's correction ln x! - (x ln x - x + ln(2 pi x) / 2) for x >= 20
   (7 terms of its series: relative error below 1e-21). */
static long double stirling_tail(long double x)
{
    static const long double c[] = {
        1.0L / 12,   -1.0L / 360,      1.0L / 1260, -1.0L / 1680,
        1.0L / 1188, -691.0L / 360360, 1.0L / 156,
    };
    long double ix = 1 / x, ix2 = ix * ix, t = 0;
    for (int i = (int)(sizeof c / sizeof c[0]) - 1; i >= 0; i--)
        t = t * ix2 + c[i];
    return t * ix;
}

/* ln x! for an integer x >= 0 (a long double: multiset totals pass 2^64):
   a sum below 20, Stirling's formula beyond. lgamma is avoided: it writes
   the global signgam. */
static long double ln_fact(long double x)
{
    if (x < 20) {
        long double s = 0;
        for (long double i = 2; i <= x; i++)
            s += logl(i);
        return s;
    }
    return x * logl(x) - x + 0.5L * logl(TWO_PI_L * x) + stirling_tail(x);
}

/* ln(n! / (n-k)!) for integers 0 <= k <= n, to a relative error of a few
   long double ulps whatever n and k: a direct sum for k < 20; ln n! -
   ln (n-k)! where n - k < k (the difference is at least half of ln n!);
   otherwise (20 <= k <= n - k) Stirling's formula for both, rearranged so
   nothing of size n ln n cancels:
   k ln n - k - (n-k) ln(1 - k/n) - ln(1 - k/n) / 2 + tail(n) - tail(n-k),
   every term of order k ln n or less. */
static long double ln_ordered(long double n, long double k)
{
    if (k < 20) {
        long double s = 0;
        for (long double i = 0; i < k; i++)
            s += logl(n - i);
        return s;
    }
    long double m = n - k;
    if (m < k)
        return ln_fact(n) - ln_fact(m);
    long double l1 = log1pl(-k / n);
    return k * logl(n) - k - m * l1 - 0.5L * l1 + stirling_tail(n) -
           stirling_tail(m);
}

/* ln C(n, k), 0 <= k <= n: the smaller side; log C(n, k) / ln((n!/(n-k)!)
   is at least about 1 / log2(n), so the subtraction keeps the accuracy. */
static long double ln_choose(long double n, long double k)
{
    if (n - k < k)
        k = n - k;
    return ln_ordered(n, k) - ln_fact(k);
}

#define INV_LN2 1.442695040888963407359924681001892137L

double fsh_ordered_bits(uint64_t n, uint64_t k)
{
    if (k > n)
        return 0;
    int e = errno;
    double r = (double)(ln_ordered((long double)n, (long double)k) * INV_LN2);
    errno = e;
    return r;
}

double fsh_subset_bits(uint64_t n, uint64_t k)
{
    if (k > n)
        return 0;
    int e = errno;
    double r = (double)(ln_choose((long double)n, (long double)k) * INV_LN2);
    errno = e;
    return r;
}

/* log2 of (sum c)! / prod c! as sum_i log2 C(c_0 + ... + c_i, c_i): every
   term non-negative (no cancellation), and the running total is a long
   double, exact below 2^64 and within one part in 2^64 above (the total of
   m counts can pass 2^64). */
double fsh_multiset_bits(const uint64_t *counts, size_t m)
{
    if (counts == NULL)
        return 0;
    int e = errno;
    long double s = 0, bits = 0;
    for (size_t i = 0; i < m; i++) {
        if (counts[i] == 0)
            continue;
        long double c = (long double)counts[i];
        s += c;
        bits += ln_choose(s, c);
    }
    errno = e;
    return (double)(bits * INV_LN2);
}
