/*
 * bench_work.c — the loops the benchmarks time and the gate counts (see
 * bench_work.h). Every loop folds its results into a sum returned to the
 * caller, so the compiler cannot drop the work.
 */
#include "bench_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ring_impl.h" /* the inline lookups (rb_ring_owner_key_of) */
#include "ringbench/common.h"

/* Generated keys as one text buffer "order:0\norder:1\n...", read back through
 * the CLI's key reader so both sources take the same path. */
static int read_generated(size_t n, rb_key_list *out) {
    size_t cap = n * 20 + 1, used = 0;
    char *text = malloc(cap);
    if (!text) return -1;
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, cap - used, "order:%zu\n", i);
    FILE *f = fmemopen(text, used, "r");
    int rc = f ? rb_key_list_read(f, out) : -1;
    if (f) fclose(f);
    free(text);
    return rc;
}

int rb_bench_keys_load(const char *path, size_t n_generated, rb_bench_keys *out) {
    memset(out, 0, sizeof *out);
    rb_key_list *list = calloc(1, sizeof *list);
    char *source = malloc((path ? strlen(path) : 0) + 64);
    if (!list || !source) {
        free(list), free(source);
        fprintf(stderr, "ringbench bench: out of memory for the key set\n");
        return -1;
    }
    int rc;
    if (path && *path) {
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "ringbench bench: cannot open key file '%s'\n", path);
            free(list), free(source);
            return -2;
        }
        rc = rb_key_list_read(f, list);
        fclose(f);
        snprintf(source, strlen(path) + 64, "file:%s", path);
    } else {
        rc = read_generated(n_generated, list);
        snprintf(source, 64, "generated:order:%zu", n_generated);
    }
    if (rc || list->n == 0) {
        fprintf(stderr, "ringbench bench: %s key set from %s\n", rc ? "cannot read the" : "empty",
                source);
        if (!rc) rb_key_list_free(list);
        free(list), free(source);
        return rc ? -1 : -2;
    }
    /* Fisher-Yates with a fixed seed: the same order on every run. */
    uint64_t state = 0x5eedULL;
    for (size_t i = list->n - 1; i > 0; i--) {
        size_t j = (size_t)(rb_splitmix64(&state) % (i + 1));
        char *tk = list->keys[i];
        size_t tl = list->len[i];
        list->keys[i] = list->keys[j], list->len[i] = list->len[j];
        list->keys[j] = tk, list->len[j] = tl;
    }
    /* Repack the key bytes in visiting order: the loops then stream through
     * memory like keys arriving one after another, and the time measured is
     * the hash and the ring, not a cache miss on each cold key. */
    size_t total = 0;
    for (size_t i = 0; i < list->n; i++)
        total += list->len[i];
    char *packed = malloc(total ? total : 1), *p = packed;
    if (!packed) {
        fprintf(stderr, "ringbench bench: out of memory for the key set\n");
        rb_key_list_free(list);
        free(list), free(source);
        return -1;
    }
    for (size_t i = 0; i < list->n; i++) {
        memcpy(p, list->keys[i], list->len[i]);
        list->keys[i] = p;
        p += list->len[i];
    }
    free(list->storage);
    list->storage = packed;
    out->key = (const char **)list->keys;
    out->len = list->len;
    out->n_keys = list->n;
    out->source = source;
    out->storage_ = list;
    return 0;
}

void rb_bench_keys_free(rb_bench_keys *k) {
    if (k->storage_) {
        rb_key_list_free(k->storage_);
        free(k->storage_);
    }
    free(k->source);
    memset(k, 0, sizeof *k);
}

rb_member *rb_bench_members(uint32_t n, char **storage) {
    rb_member *m = malloc((size_t)n * sizeof *m);
    char *ids = malloc((size_t)n * 20);
    if (!m || !ids) {
        free(m), free(ids);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        int len = snprintf(ids + (size_t)i * 20, 20, "worker-%u", i);
        m[i] = (rb_member){.id = ids + (size_t)i * 20, .id_len = (size_t)len, .weight = 1};
    }
    *storage = ids;
    return m;
}

static volatile uint64_t opaque_zero = 0;

void rb_bench_cursor_init(rb_bench_cursor *c) {
    c->i = 0;
    c->zero = opaque_zero;
}

uint64_t rb_bench_owner_key_latency(const rb_ring *r, const rb_bench_keys *k, rb_bench_cursor *c,
                                    size_t n_lookups) {
    RB_BENCH_LOOP(1, k->n_keys, rb_ring_owner_key_of(r, k->key[i], k->len[i]));
}

uint64_t rb_bench_owner_key_throughput(const rb_ring *r, const rb_bench_keys *k, rb_bench_cursor *c,
                                       size_t n_lookups) {
    RB_BENCH_LOOP(0, k->n_keys, rb_ring_owner_key_of(r, k->key[i], k->len[i]));
}

uint64_t rb_bench_hash_latency(const rb_config *cfg, const rb_bench_keys *k, rb_bench_cursor *c,
                               size_t n_lookups) {
    RB_BENCH_LOOP(1, k->n_keys, cfg->bucket_hash->fn(k->key[i], k->len[i], cfg->seed));
}

uint64_t rb_bench_hash_throughput(const rb_config *cfg, const rb_bench_keys *k, rb_bench_cursor *c,
                                  size_t n_lookups) {
    RB_BENCH_LOOP(0, k->n_keys, cfg->bucket_hash->fn(k->key[i], k->len[i], cfg->seed));
}

uint64_t *rb_bench_positions(const rb_config *cfg, const rb_bench_keys *k) {
    uint64_t *pos = malloc(k->n_keys * sizeof *pos);
    if (!pos) return NULL;
    for (size_t i = 0; i < k->n_keys; i++)
        pos[i] = cfg->ring_hash->fn(k->key[i], k->len[i], cfg->seed);
    return pos;
}

uint64_t rb_bench_owner_position_latency(const rb_ring *r, const uint64_t *pos, size_t n_pos,
                                         rb_bench_cursor *c, size_t n_lookups) {
    uint32_t (*search)(const rb_ring *, uint64_t) = rb_ring_algo(r)->owner_position;
    RB_BENCH_LOOP(1, n_pos, search(r, pos[i]));
}

uint64_t rb_bench_owner_position_throughput(const rb_ring *r, const uint64_t *pos, size_t n_pos,
                                            rb_bench_cursor *c, size_t n_lookups) {
    uint32_t (*search)(const rb_ring *, uint64_t) = rb_ring_algo(r)->owner_position;
    RB_BENCH_LOOP(0, n_pos, search(r, pos[i]));
}

int rb_bench_join_refill(const rb_algo *algo, const rb_config *cfg, const rb_member *members,
                         size_t n_members, uint32_t *owners) {
    rb_ring *ring;
    int rc = rb_ring_build(algo, cfg, members, n_members, &ring);
    if (rc) return rc;
    rb_ring_fill_table(ring, owners);
    rb_ring_destroy(ring);
    return 0;
}

void rb_bench_random_u64(uint64_t *unsorted, size_t n) {
    uint64_t state = 0x9051ULL;
    for (size_t i = 0; i < n; i++)
        unsorted[i] = rb_splitmix64(&state);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t rb_bench_qsort_u64(const uint64_t *unsorted, uint64_t *work, size_t n) {
    memcpy(work, unsorted, n * sizeof *work);
    qsort(work, n, sizeof *work, cmp_u64);
    return work[n / 2];
}
