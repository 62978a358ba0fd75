/* SPDX-License-Identifier: MIT */
/* Shuffle an array with the default generator and print it.
   Build: cc -Iinclude examples/shuffle.c libfairshuf.a -lsodium -lm -lpthread */
#include <fairshuf.h>
#include <stdio.h>

int main(void)
{
    fsh_rng *rng;
    int rc = fsh_rng_new(&rng); /* ChaCha8 keyed from the OS */
    if (rc != FSH_OK) {
        fprintf(stderr, "shuffle: %s\n", fsh_strerror(rc));
        return 1;
    }
    uint64_t a[20];
    rc = fsh_permutation(rng, a, 1, 20); /* a uniform order of 1..20 */
    if (rc == FSH_OK)
        rc = fsh_shuffle_u64(rng, a, 20); /* and shuffled again, in place */
    fsh_rng_free(rng);
    if (rc != FSH_OK) {
        fprintf(stderr, "shuffle: %s\n", fsh_strerror(rc));
        return 1;
    }
    for (int i = 0; i < 20; i++)
        printf("%llu%c", (unsigned long long)a[i], i == 19 ? '\n' : ' ');
    return 0;
}
