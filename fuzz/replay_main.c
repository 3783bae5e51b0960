/*
 * replay_main.c — a main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every file named (directories: every file
 * in them), so the gcc and ASan/UBSan builds replay the committed corpora and
 * regression inputs as the ctest `fuzz_replay` (no clang needed). A broken
 * contract aborts (FUZZ_CHECK) and fails the test. Prints "N inputs".
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t n_inputs;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return perror(path), -1;
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) buf = realloc(buf, cap *= 2);
    fclose(f);
    if (!buf) return fprintf(stderr, "%s: out of memory\n", path), -1;
    /* an exact-size copy, so ASan sees a read past the input */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    n_inputs++;
    return 0;
}

static int run_path(const char *path) {
    struct stat st;
    if (stat(path, &st)) return perror(path), -1;
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (!d) return perror(path), -1;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        rc |= run_path(child);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv) {
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= run_path(argv[i]);
    printf("%zu inputs\n", n_inputs);
    return rc ? 1 : 0;
}
