/* SPDX-License-Identifier: MIT */
/* The seed rule: a seed of any length to a 256-bit key. */
#include "rng/rng.h"

#include <sodium.h>

/* SHA-256("fairshuf/seed/v1" || 0x00 || seed): the documented seed rule. */
int fsh_seed_digest(const void *seed, size_t len, uint8_t out[32])
{
    static const char domain[] = "fairshuf/seed/v1"; /* NUL included */
    crypto_hash_sha256_state st;
    /* No sodium_init(): SHA-256 needs none, and it would read the OS
       random source (and abort the process if that is gone). */
    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, (const unsigned char *)domain,
                              sizeof domain);
    if (len > 0)
        crypto_hash_sha256_update(&st, seed, len);
    crypto_hash_sha256_final(&st, out);
    sodium_memzero(&st, sizeof st);
    return FSH_OK;
}

