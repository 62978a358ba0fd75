/* SPDX-License-Identifier: MIT */
/* Target range: -i LO-HI and -n COUNT parsing, and the seeded output.
   Input: line 1 the range argument, optional line 2 the count. A reference
   parser (gnulib xstrtoumax rules: leading blanks, optional '+', decimal
   digits only; LO > HI + 1, the full 2^64 range or overflow invalid; a
   count beyond 2^64 - 1 means no limit) decides the expected status. On
   success the output must equal the library's: the whole range is a
   Fisher-Yates of the offsets (fsh_shuffle), a shorter head the first
   COUNT draws of fsh_rangeperm, under fsh_rng_seed("fz"). */
#include "fuzz.h"
#include "fairshuf.h"
#include "shuf/shuf.h"

#include <string.h>

FZ_NO_LEAK_CHECK

/* 0 ok, 1 overflow (digits only), 2 invalid. */
static int ref_num(const char *s, uint64_t *v)
{
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    if (*s == '+')
        s++;
    if (*s < '0' || *s > '9')
        return 2;
    uint64_t x = 0;
    int over = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            over = 1;
        else
            x = x * 10 + d;
    }
    *v = x;
    return *s != '\0' ? 2 : over;
}

#define MAX_OUT 10000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 200 || memchr(data, '\0', size) != NULL)
        return 0;
    char text[201];
    memcpy(text, data, size);
    text[size] = '\0';
    char *count = strchr(text, '\n');
    if (count != NULL)
        *count++ = '\0';
    char *range = text;

    /* Reference. */
    int valid = 1;
    uint64_t lo = 0, hi = 0, n = 0, head = UINT64_MAX;
    char *dash = strchr(range, '-');
    if (dash == NULL) {
        valid = 0;
    } else {
        *dash = '\0';
        int a = ref_num(range, &lo);
        int b = ref_num(dash + 1, &hi);
        *dash = '-';
        valid = a == 0 && b == 0 &&
                ((hi >= lo && !(lo == 0 && hi == UINT64_MAX)) ||
                 (lo > 0 && hi == lo - 1));
        n = hi - lo + 1;
    }
    if (count != NULL) {
        uint64_t c;
        int rc = ref_num(count, &c);
        if (rc == 2)
            valid = 0;
        else if (rc == 0)
            head = c;
    }
    uint64_t m = n < head ? n : head;
    if (valid && m > MAX_OUT)
        return 0; /* too slow to check */

    char *argv[8], iarg[220];
    int argc = 0;
    argv[argc++] = "fairshuf";
    argv[argc++] = "--seed=fz";
    if (size % 2) {
        snprintf(iarg, sizeof iarg, "--input-range=%s", range);
        argv[argc++] = iarg;
    } else {
        argv[argc++] = "-i";
        argv[argc++] = range;
    }
    if (count != NULL) {
        argv[argc++] = "-n";
        argv[argc++] = count;
    }
    argv[argc] = NULL;
    const fz_run *r = fz_cli(cmd_shuf, argc, argv, "", 0);
    FZ_CHECK(r->status == (valid ? 0 : 1));
    if (!valid) {
        FZ_CHECK(strstr(r->err, "invalid") != NULL);
        return 0;
    }
    FZ_CHECK(r->err_len == 0);

    fsh_rng *rng;
    FZ_CHECK(fsh_rng_new(&rng) == FSH_OK);
    FZ_CHECK(fsh_rng_seed(rng, "fz", 2) == FSH_OK);
    FZ_CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
    uint64_t *want = malloc((size_t)(m ? m : 1) * sizeof *want);
    FZ_CHECK(want != NULL);
    if (m == n && m > 0) {
        uint32_t *v = malloc((size_t)n * sizeof *v);
        FZ_CHECK(v != NULL);
        for (size_t i = 0; i < (size_t)n; i++)
            v[i] = (uint32_t)i;
        FZ_CHECK(fsh_shuffle(rng, v, (size_t)n, sizeof *v) == FSH_OK);
        for (size_t i = 0; i < (size_t)n; i++)
            want[i] = lo + v[i];
        free(v);
    } else if (m > 0) {
        fsh_rangeperm *rp;
        FZ_CHECK(fsh_rangeperm_new(&rp, 0, n - 1, (size_t)m) == FSH_OK);
        for (size_t i = 0; i < (size_t)m; i++) {
            uint64_t v;
            FZ_CHECK(fsh_rangeperm_next(rng, rp, &v) == FSH_OK);
            want[i] = lo + v;
        }
        fsh_rangeperm_free(rp);
    }
    fsh_rng_free(rng);
    const char *p = r->out;
    for (size_t i = 0; i < (size_t)m; i++) {
        char *e;
        uint64_t v = strtoull(p, &e, 10);
        FZ_CHECK(e != p && *e == '\n');
        FZ_CHECK(v == want[i]);
        FZ_CHECK(v >= lo && v <= hi);
        p = e + 1;
    }
    FZ_CHECK((size_t)(p - r->out) == r->out_len);
    free(want);
    return 0;
}
