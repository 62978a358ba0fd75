/* SPDX-License-Identifier: MIT */
/* The run's generator: keyed from --seed or the OS, made at first draw. */
#include "common/rng.h"

#include "common/msg.h"
#include "common/quote.h"

#include <string.h>

int parse_generator(const char *arg)
{
    static const struct {
        const char *name;
        fsh_gen gen;
    } names[] = {{"chacha8", FSH_GEN_CHACHA8},
                 {"chacha12", FSH_GEN_CHACHA12},
                 {"chacha20", FSH_GEN_CHACHA20}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(arg, names[i].name) == 0)
            return (int)names[i].gen;
    die(0, "invalid generator: %s (chacha8, chacha12 or chacha20)",
        quote(arg));
}

fsh_rng *rng_make(const char *seed, int gen)
{
    fsh_rng *rng;
    if (seed == NULL) {
        check_status(fsh_rng_new(&rng));
        /* The OS keys it once more, for the generator asked for. */
        if (gen != GEN_DEFAULT)
            check_status(fsh_rng_rekey_gen(rng, (fsh_gen)gen));
        /* Full reach where the machine has hardware entropy, up to the
           library's default cap (shuffles of up to 5,808 lines); beyond
           it, or without RDSEED, the 256-bit key's bound: a shuf drop-in
           never fails for entropy (README, "Fairness"). */
        check_status(fsh_rng_set_reach(rng, FSH_REACH_FULL | FSH_REACH_KEY));
        return rng;
    }
    check_status(fsh_rng_new_seeded(&rng, seed, strlen(seed)));
    check_status(fsh_rng_set_simulation(rng, 1));
    return rng;
}

fsh_rng *rng_make_dealer(const char *seed, int gen)
{
    fsh_rng *rng = rng_make(seed, gen);
    /* The library's default cap (65,536 hardware bits, shuffles of 5,808
       cards) would leave a larger shoe bounded by the 256-bit key; a shoe
       of 10^6 cards takes about 20 Mbit, a fraction of a second of RDSEED. */
    if (seed == NULL) {
        check_status(fsh_rng_set_reach(rng, FSH_REACH_FULL));
        check_status(fsh_rng_set_hw_cap(rng, UINT64_MAX));
    }
    return rng;
}

fsh_rng *lazy_get(lazy_rng *l)
{
    if (l->rng == NULL)
        l->rng = rng_make(l->seed, l->gen);
    return l->rng;
}

void shuffle_records(lazy_rng *l, void *a, size_t n, size_t size,
                     unsigned threads)
{
    if (n > 1)
        check_status(fsh_shuffle_records(lazy_get(l), a, n, size, threads));
}

uint64_t shuffle_records_extra(uint64_t n, size_t size)
{
    if (n <= FSH_RECORDS_SMALL)
        return 0;
    return n > UINT64_MAX / size ? UINT64_MAX : n * size;
}

void lazy_free(lazy_rng *l)
{
    fsh_rng_free(l->rng);
    l->rng = NULL;
}
