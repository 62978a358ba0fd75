/* SPDX-License-Identifier: MIT */
/* --random-source: integers drawn exactly as GNU shuf 9.1 draws them.
 *
 * Written from the description of gnulib's randint/randread. The state is a number randnum uniform in
 * [0, randmax]. To choose in [0, n): while randmax < n - 1, append source
 * bytes big-endian (randnum = randnum * 256 + byte, randmax = randmax * 256
 * + 255, both modulo 2^64 as in gnulib). If randmax == n - 1 the draw is
 * randnum and the state empties. Otherwise, when randnum falls within the
 * largest multiple of n that fits in randmax + 1 values, the draw is
 * randnum mod n and the quotient stays as leftover entropy; if not, the
 * excess (randnum mod n within the last partial block) is kept and the draw
 * is retried.
 */
#include "shuf/gnurand.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct gnurand {
    int fd;
    const char *name;
    unsigned char buf[4096];
    size_t pos, len, bufsize;
    uint64_t randnum, randmax;
};

uint64_t gnurand_perm_bound(uint64_t h, uint64_t n)
{
    /* floor(log2 n) + 1 bits per element (0 for n = 0), h elements, in
       bytes; unsigned arithmetic wraps as gnulib's uintmax_t does. */
    uint64_t lg = 0;
    for (uint64_t m = n; m != 0; m >>= 1)
        lg++;
    uint64_t bits = lg * h;
    return (bits + 7) / 8;
}

gnurand *gnurand_new(const char *name, uint64_t bound)
{
    gnurand *g = xmalloc(sizeof *g);
    memset(g, 0, sizeof *g);
    g->fd = -1;
    g->name = name;
    if (bound == 0)
        return g; /* GNU does not even open the file */
    int fd = open_safer(name, O_RDONLY, 0);
    if (fd < 0) {
        int e = errno;
        free(g);
        errno = e;
        return NULL;
    }
    g->fd = fd;
    /* stdio reads the file through a buffer of min(bound, buffer) bytes;
       only a FIFO could tell the difference, but keep it the same. */
    g->bufsize = bound < sizeof g->buf ? (size_t)bound : sizeof g->buf;
    return g;
}

void gnurand_free(gnurand *g)
{
    if (g == NULL)
        return;
    if (g->fd >= 0)
        close(g->fd);
    free(g);
}

static void read_bytes(gnurand *g, unsigned char *out, size_t n)
{
    while (n > 0) {
        if (g->pos == g->len) {
            if (g->fd < 0) /* bound 0 promised no draws */
                die(0, "%s: end of file", quote(g->name));
            ssize_t r = read_retry(g->fd, g->buf, g->bufsize);
            if (r < 0)
                die(errno, "%s: read error", quote(g->name));
            if (r == 0)
                die(0, "%s: end of file", quote(g->name));
            g->pos = 0;
            g->len = (size_t)r;
        }
        size_t c = g->len - g->pos < n ? g->len - g->pos : n;
        memcpy(out, g->buf + g->pos, c);
        g->pos += c;
        out += c;
        n -= c;
    }
}

uint64_t gnurand_choose(gnurand *g, uint64_t n)
{
    uint64_t genmax = n - 1, choices = n;
    uint64_t randnum = g->randnum, randmax = g->randmax;
    for (;;) {
        if (randmax < genmax) {
            /* Count the bytes first and read them in one go, as gnulib
               does; the shifts wrap modulo 2^64 exactly as there. */
            unsigned char b[8];
            const unsigned char *p = b;
            size_t k = 0;
            uint64_t rmax = randmax;
            do {
                rmax = (rmax << 8) + 255;
                k++;
            } while (rmax < genmax);
            if (g->len - g->pos >= k) { /* in the buffer: no copy */
                p = g->buf + g->pos;
                g->pos += k;
            } else {
                read_bytes(g, b, k);
            }
            size_t i = 0;
            do {
                randnum = (randnum << 8) + p[i];
                randmax = (randmax << 8) + 255;
                i++;
            } while (randmax < genmax);
        }
        if (randmax == genmax) {
            g->randnum = g->randmax = 0;
            return randnum;
        }
        uint64_t excess = randmax - genmax;
        uint64_t unusable = excess % choices;
        uint64_t last_usable = randmax - unusable;
        uint64_t reduced = randnum % choices;
        if (randnum <= last_usable) {
            g->randnum = randnum / choices;
            g->randmax = excess / choices;
            return reduced;
        }
        randnum = reduced;
        randmax = unusable - 1;
    }
}
