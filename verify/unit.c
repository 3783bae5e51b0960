/* unit.c — shared helpers of the verify/ unit and contract tests (unit.h). */
#include "unit.h"

#include "ringbench/common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static unsigned long n_passed, n_failed;

int rb_unit_eq(const char *what, const char *case_, uint64_t got, uint64_t expected) {
    return rb_unit_true(what, case_, got == expected, "got %llu (0x%llx), expected %llu (0x%llx)",
                        (unsigned long long)got, (unsigned long long)got,
                        (unsigned long long)expected, (unsigned long long)expected);
}

int rb_unit_true(const char *what, const char *case_, int ok, const char *fmt, ...) {
    if (ok) {
        n_passed++;
        return 1;
    }
    n_failed++;
    fprintf(stderr, "FAIL %s: %s: ", what, case_);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 0;
}

unsigned long rb_unit_failures(void) { return n_failed; }

int rb_unit_finish(const char *name) {
    printf("%s: %lu passed, %lu failed\n", name, n_passed, n_failed);
    if (n_passed + n_failed == 0) fprintf(stderr, "%s: no check ran\n", name);
    return (n_failed || n_passed == 0) ? 1 : 0;
}

FILE *rb_kat_open(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", RINGBENCH_KAT_DIR, name);
    FILE *f = fopen(path, "r");
    rb_unit_true("kat", path, f != NULL, "cannot open the vector file");
    return f;
}

int rb_kat_next(FILE *f, char **fields, int max_fields) {
    static char line[4096];
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || line[0] == '#') continue;
        int n = 0;
        char *p = line;
        while (n < max_fields) {
            fields[n++] = p;
            char *tab = strchr(p, '\t');
            if (!tab) break;
            *tab = '\0';
            p = tab + 1;
        }
        return n;
    }
    return -1;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long rb_hex_decode(const char *hex, unsigned char *out, size_t out_size) {
    size_t len = strlen(hex);
    if (len % 2 || len / 2 > out_size) return -1;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

uint64_t rb_unit_rand(uint64_t *state) { return rb_splitmix64(state); }

uint32_t rb_unit_rand_range(uint64_t *state, uint32_t lo, uint32_t hi) {
    return lo + (uint32_t)(rb_unit_rand(state) % ((uint64_t)hi - lo + 1));
}

void rb_unit_members_make(rb_unit_members *ms, size_t n, const char *fmt) {
    ms->n = n;
    ms->m = calloc(n ? n : 1, sizeof *ms->m);
    ms->ids = calloc(n ? n : 1, sizeof *ms->ids);
    if (!ms->m || !ms->ids) {
        fprintf(stderr, "out of memory for %zu test members\n", n);
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(ms->ids[i], sizeof ms->ids[i], fmt, (unsigned)i);
        ms->m[i] = (rb_member){.id = ms->ids[i], .id_len = (size_t)len, .weight = 1};
    }
}

void rb_unit_members_free(rb_unit_members *ms) {
    free(ms->m);
    free(ms->ids);
    memset(ms, 0, sizeof *ms);
}

rb_ring *rb_unit_build(const rb_algo *a, const rb_config *cfg, const rb_member *m, size_t n,
                       const char *case_) {
    rb_ring *r = NULL;
    int rc = rb_ring_build(a, cfg, m, n, &r);
    rb_unit_true(a->name, case_, rc == 0, "build returned %d (%s: %s), expected 0", rc,
                 rb_strerror(rc), rb_error_detail());
    return rc ? NULL : r;
}

const char *rb_unit_member_name(const rb_ring *r, uint32_t idx) {
    static char buf[4][RB_MAX_ID_BYTES + 1];
    static unsigned next;
    char *out = buf[next++ % 4];
    size_t len;
    const void *id = rb_ring_member_id(r, idx, &len);
    memcpy(out, id, len);
    out[len] = '\0';
    return out;
}
