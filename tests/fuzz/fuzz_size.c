/* SPDX-License-Identifier: MIT */
/* Target size: parse_size (--memory=SIZE) against a reference parser:
   digits, then at most one suffix b, K/k (default), M/m, G/g, T/t or %
   (0..100 % of physical memory); anything else, or a value beyond 2^64 - 1
   bytes, is invalid. */
#include "fuzz.h"
#include "shuf/options.h"

#include <string.h>
#include <unistd.h>

static int ref_size(const char *s, uint64_t *out)
{
    size_t i = 0;
    uint64_t v = 0;
    if (s[0] < '0' || s[0] > '9')
        return -1;
    for (; s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    unsigned shift = 10;
    if (s[i] != '\0') {
        const char *sfx = strchr("bkKmMgGtT%", s[i]);
        if (sfx == NULL || s[i + 1] != '\0')
            return -1;
        if (s[i] == '%') {
            long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
            if (v > 100)
                return -1;
            *out = (uint64_t)pages / 100 * v * (uint64_t)ps;
            return 0;
        }
        static const unsigned shifts[] = {0, 10, 10, 20, 20, 30, 30, 40, 40};
        shift = shifts[sfx - "bkKmMgGtT%"];
    }
    if (v > UINT64_MAX >> shift)
        return -1;
    *out = v << shift;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64)
        return 0;
    char s[65];
    memcpy(s, data, size);
    s[size] = '\0';
    uint64_t got = 0, want = 0;
    int rc = parse_size(s, &got);
    int ref = ref_size(s, &want);
    FZ_CHECK(rc == ref);
    if (rc == 0)
        FZ_CHECK(got == want);
    return 0;
}
