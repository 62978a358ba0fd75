/* SPDX-License-Identifier: MIT */
/* --plot (plot.h): hand-written SVG, viewable in any browser. */
#include "audit/plot.h"

#include "fairshuf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blue (below expected) - white - red (above), |z| clamped at 4. */
static void color(double z, char out[8])
{
    double a = fmin(fabs(z) / 4, 1);
    int fade = (int)lround(255 * (1 - a));
    if (z >= 0)
        snprintf(out, 8, "#ff%02x%02x", fade, fade);
    else
        snprintf(out, 8, "#%02x%02xff", fade, fade);
}

/* Bars of observed counts against expected ones (a line per cell). */
static void histogram(FILE *f, double x0, double y0, double w, double h,
                      const char *title, const uint64_t *obs,
                      const double *law, size_t cells, size_t bins,
                      double total, const char *id)
{
    double *o = calloc(bins, sizeof *o), *e = calloc(bins, sizeof *e);
    if (o == NULL || e == NULL) {
        free(o);
        free(e);
        return;
    }
    for (size_t i = 0; i < cells; i++) {
        size_t j = i * bins / cells;
        o[j] += (double)obs[i];
        e[j] += law[i] * total;
    }
    double top = 1;
    for (size_t j = 0; j < bins; j++)
        top = fmax(top, fmax(o[j], e[j]));
    fprintf(f, "<g id=\"%s\">\n<text x=\"%g\" y=\"%g\" font-size=\"14\">%s"
               "</text>\n",
            id, x0, y0 - 8, title);
    fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
               "fill=\"none\" stroke=\"#888\"/>\n",
            x0, y0, w, h);
    double bw = w / (double)bins;
    for (size_t j = 0; j < bins; j++) {
        double bh = h * o[j] / top, eh = h * e[j] / top;
        fprintf(f, "<rect class=\"obs\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                   "height=\"%.2f\" fill=\"#4a7ab5\" data-count=\"%.0f\"/>\n",
                x0 + (double)j * bw + bw * 0.1, y0 + h - bh, bw * 0.8, bh,
                o[j]);
        fprintf(f, "<line class=\"exp\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" "
                   "y2=\"%.2f\" stroke=\"#d33\" stroke-width=\"2\" "
                   "data-expected=\"%.3f\"/>\n",
                x0 + (double)j * bw, x0 + (double)(j + 1) * bw, y0 + h - eh,
                y0 + h - eh, e[j]);
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"11\">bars: observed; "
               "red: exact law x deals</text>\n</g>\n",
            x0, y0 + h + 14);
    free(o);
    free(e);
}

void plot_write(FILE *f, const battery *b, const test_result *r, int k)
{
    size_t n = battery_n(b);
    double t = (double)battery_deals(b), e = t / (double)n;
    /* At most PLOT_GRID x PLOT_GRID cells: above, each cell sums a block
       of s x s (position, value) pairs (a 4096-card deal drew 16.8 million
       rectangles, 2.2 GB of SVG). */
    size_t s = (n + PLOT_GRID - 1) / PLOT_GRID, g = (n + s - 1) / s;
    double cell = g <= 64 ? 8 : 512.0 / (double)g, map = cell * (double)g;
    double W = 40 + map + 60 + 420 + 20, H = 60 + fmax(map, 560) + 40 +
                                                 22.0 * (double)k + 40;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
               "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"20\" y=\"24\" font-size=\"16\">fairshuf audit: "
               "%.0f deals of %zu</text>\n",
            W, H, W, H, t, n);
    /* Heat map. */
    fprintf(f, "<g id=\"heatmap\" data-n=\"%zu\" data-deals=\"%.0f\" "
               "data-block=\"%zu\">\n"
               "<text x=\"40\" y=\"52\" font-size=\"14\">position (row) by "
               "value (column)%s: (count - expected) / sqrt(expected), blue "
               "-4 .. red +4</text>\n",
            n, t, s, s > 1 ? ", in blocks" : "");
    const uint64_t *c = battery_pbv(b);
    for (size_t bp = 0; bp < g; bp++)
        for (size_t bv = 0; bv < g; bv++) {
            size_t p1 = (bp + 1) * s < n ? (bp + 1) * s : n;
            size_t v1 = (bv + 1) * s < n ? (bv + 1) * s : n;
            uint64_t cnt = 0;
            for (size_t p = bp * s; p < p1; p++)
                for (size_t v = bv * s; v < v1; v++)
                    cnt += c[p * n + v];
            double ex = e * (double)((p1 - bp * s) * (v1 - bv * s));
            double z = ex > 0 ? ((double)cnt - ex) / sqrt(ex) : 0;
            char col[8];
            color(z, col);
            fprintf(f, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" "
                       "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                       "data-pos=\"%zu\" data-value=\"%zu\" "
                       "data-count=\"%llu\"/>\n",
                    40 + (double)bv * cell, 60 + (double)bp * cell, cell,
                    cell, col, bp * s, bv * s, (unsigned long long)cnt);
        }
    fputs("</g>\n", f);
    /* Histograms against the exact laws. */
    double hx = 40 + map + 60;
    /* The inversions' law only when they were counted (n <= 1024). */
    const uint64_t *inv = battery_inv_hist(b);
    size_t kmax = n * (n - 1) / 2;
    double *law = malloc((inv != NULL && kmax > n ? kmax + 1 : n + 1) *
                         sizeof *law);
    if (law != NULL && fsh_stats_fixed_points_law(n, law) == FSH_OK) {
        size_t cells = n + 1 < 10 ? n + 1 : 10;
        histogram(f, hx, 80, 400, 200, "fixed points per deal (0..9)",
                  battery_fixed_hist(b), law, cells, cells, t, "fixed");
    }
    if (law != NULL && inv != NULL &&
        fsh_stats_inversions_law(n, law, kmax + 1) == FSH_OK)
        histogram(f, hx, 340, 400, 200, "inversions per deal (binned)", inv,
                  law, kmax + 1, kmax + 1 < 60 ? kmax + 1 : 60, t,
                  "inversions");
    free(law);
    /* p-values: a bar of -log10 p per test, the Holm p beside it. */
    double y = 60 + fmax(map, 560) + 40;
    fprintf(f, "<g id=\"pvalues\">\n<text x=\"40\" y=\"%.0f\" "
               "font-size=\"14\">p-values (bar: -log10 p, to 10)</text>\n",
            y - 10);
    for (int i = 0; i < k; i++, y += 22) {
        const test_result *x = &r[i];
        const char *st = x->status == T_PASS   ? "PASS"
                         : x->status == T_FAIL ? "FAIL"
                         : x->status == T_NONE ? "NONE"
                                               : "SKIP";
        double bar = 0;
        if (x->status == T_PASS || x->status == T_FAIL)
            bar = x->p > 0 ? fmin(10, -log10(x->p)) : 10;
        fprintf(f, "<text x=\"40\" y=\"%.0f\" font-size=\"12\" "
                   "fill=\"%s\">%s %s</text>\n",
                y + 12, x->status == T_FAIL ? "#c00" : "#000", st, x->name);
        fprintf(f, "<rect x=\"340\" y=\"%.0f\" width=\"%.1f\" height=\"14\" "
                   "fill=\"%s\"/>\n",
                y, bar * 30, x->status == T_FAIL ? "#c00" : "#4a7ab5");
        if (x->status == T_NONE)
            fprintf(f, "<text x=\"350\" y=\"%.0f\" font-size=\"12\">p "
                       "unknown (no memory)</text>\n",
                    y + 12);
        else if (x->status != T_SKIP)
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\">p = "
                       "%.3g, Holm %.3g</text>\n",
                    350 + bar * 30, y + 12, x->p, x->p_holm);
    }
    fputs("</g>\n</svg>\n", f);
}
