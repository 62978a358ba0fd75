/* SPDX-License-Identifier: MIT */
/* main() for a fuzz harness without libFuzzer: run every input given on the
   command line (files or directories), or by default every file of
   tests/fuzz/corpus/FUZZ_NAME and tests/fuzz/regress/FUZZ_NAME. A failed
   property or a sanitizer report aborts, so the test fails. */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME=\"target\""
#endif

static size_t ran;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay %s: %s: %s\n", FUZZ_NAME, path, strerror(errno));
        exit(1);
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) {
            fprintf(stderr, "replay: out of memory\n");
            exit(1);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    fclose(f);
    if (getenv("FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "replay %s: %s\n", FUZZ_NAME, path);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    ran++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a directory in name order (missing directory: nothing). */
static void run_path(const char *path, int must_exist)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (!must_exist)
            return;
        fprintf(stderr, "replay %s: %s: %s\n", FUZZ_NAME, path, strerror(errno));
        exit(1);
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (d == NULL)
        return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char **nn = realloc(names, (n + 1) * sizeof *names);
        char *p = malloc(len);
        if (nn == NULL || p == NULL)
            exit(1);
        names = nn;
        snprintf(p, len, "%s/%s", path, e->d_name);
        names[n++] = p;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            run_path(argv[i], 1);
    } else {
        run_path("tests/fuzz/corpus/" FUZZ_NAME, 0);
        run_path("tests/fuzz/regress/" FUZZ_NAME, 0);
    }
    printf("fuzz replay %s: %zu inputs ok\n", FUZZ_NAME, ran);
    return 0;
}
