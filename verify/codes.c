/* codes.c — the verification-code procedure and the codes file (codes.h). */
#include "codes.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h" /* the inline lookups */

static const uint32_t code_members[] = {1, 2, 3, 4, 7, 16, 64};
static const uint32_t code_vnodes[] = {1, 16, 128};
#define CODE_N_BUCKETS 1024u
#define CODE_N_ORDER_KEYS 1000u
/* Keys beyond ASCII exercise fnv1a32-js (UTF-16 code units) and the empty key. */
static const char *const code_extra_keys[] = {"", "caf\xc3\xa9:1", "\xe6\xb3\xa8\xe6\x96\x87:9182",
                                              "\xf0\x9f\x93\xa6:42"};

#define FNV64_OFFSET 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

static uint64_t fold(uint64_t h, uint32_t owner) {
    for (int i = 0; i < 4; i++) {
        h ^= (owner >> (8 * i)) & 0xFF;
        h *= FNV64_PRIME;
    }
    return h;
}

/* Fold one ring's bucket owners and fixed-key owners into h. */
static uint64_t fold_ring(uint64_t h, const rb_ring *r) {
    for (uint32_t b = 0; b < rb_ring_n_buckets(r); b++)
        h = fold(h, rb_ring_owner_bucket_of(r, b));
    char key[32];
    for (uint32_t k = 0; k < CODE_N_ORDER_KEYS; k++) {
        int len = snprintf(key, sizeof key, "order:%u", k);
        h = fold(h, rb_ring_owner_key_of(r, key, (size_t)len));
    }
    for (size_t k = 0; k < sizeof code_extra_keys / sizeof code_extra_keys[0]; k++)
        h = fold(h, rb_ring_owner_key_of(r, code_extra_keys[k], strlen(code_extra_keys[k])));
    return h;
}

int rb_verification_code(const rb_algo *algo, const rb_hash *hash, uint64_t *code) {
    enum { MAX_N = 64 };
    char ids[MAX_N][16];
    rb_member members[MAX_N];
    for (uint32_t i = 0; i < MAX_N; i++) {
        int len = snprintf(ids[i], sizeof ids[i], "worker-%u", i);
        members[i] = (rb_member){.id = ids[i], .id_len = (size_t)len, .weight = 1};
    }
    uint64_t h = FNV64_OFFSET;
    for (size_t a = 0; a < sizeof code_members / sizeof code_members[0]; a++) {
        for (size_t v = 0; v < sizeof code_vnodes / sizeof code_vnodes[0]; v++) {
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.n_vnodes = code_vnodes[v];
            cfg.n_buckets = CODE_N_BUCKETS;
            cfg.ring_hash = cfg.bucket_hash = hash;
            cfg.seed = 0;
            cfg.table_source = "binary";
            rb_ring *r;
            int rc = rb_ring_build(algo, &cfg, members, code_members[a], &r);
            if (rc) return rc;
            h = fold_ring(h, r);
            rb_ring_destroy(r);
        }
    }
    *code = h;
    return 0;
}

/* "0x" and 1 to 16 hex digits into *code (sscanf's %x would clamp an
 * overflowing value to 2^64 - 1). 0 or -1. */
static int parse_code(const char *s, uint64_t *code) {
    if (s[0] != '0' || s[1] != 'x') return -1;
    size_t n_digits = strspn(s + 2, "0123456789abcdefABCDEF");
    if (n_digits < 1 || n_digits > 16 || s[2 + n_digits] != '\0') return -1;
    *code = strtoull(s + 2, NULL, 16);
    return 0;
}

int rb_codes_load(const char *path, rb_code_entry **entries, size_t *n) {
    *entries = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return rb_set_error(RB_EIO, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 0, line_no = 0;
    char line[512];
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\0') continue;
        rb_code_entry e;
        char code[32], extra[2];
        if (sscanf(p, "%63s %63s %31s %1s", e.algo, e.hash, code, extra) != 3 ||
            parse_code(code, &e.code)) {
            rc = rb_set_error(RB_EINVAL, "%s line %zu: expected 'ALGO HASH 0x<1 to 16 hex digits>'",
                              path, line_no);
            break;
        }
        /* a second line for the same pair would be ignored (the first wins) */
        if (rb_codes_find(*entries, *n, e.algo, e.hash)) {
            rc = rb_set_error(RB_EINVAL, "%s line %zu: a second code for %s %s", path, line_no,
                              e.algo, e.hash);
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            rb_code_entry *grown = realloc(*entries, cap * sizeof *grown);
            if (!grown) {
                rc = rb_set_error(RB_ENOMEM, "out of memory reading %s", path);
                break;
            }
            *entries = grown;
        }
        (*entries)[(*n)++] = e;
    }
    if (!rc && ferror(f)) rc = rb_set_error(RB_EIO, "cannot read %s", path);
    fclose(f);
    if (rc) {
        free(*entries);
        *entries = NULL;
        *n = 0;
    }
    return rc;
}

const rb_code_entry *rb_codes_find(const rb_code_entry *entries, size_t n, const char *algo,
                                   const char *hash) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(entries[i].algo, algo) == 0 && strcmp(entries[i].hash, hash) == 0)
            return &entries[i];
    return NULL;
}
