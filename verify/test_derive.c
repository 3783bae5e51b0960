/*
 * test_derive.c — incremental add/remove (rb_ring_derive) of every algorithm
 * that has its own derive (anchor, memento, dx; found through the registry):
 *
 *   - removing ANY member, at every position of a 24-member list, moves only
 *     that member's buckets, and all of them (minimal disruption);
 *   - a sequence of 8 removals at random positions, each derived from the
 *     previous ring, moves only the removed member's buckets at each step;
 *   - adding the removed members back in reverse order (each add reuses the
 *     last removed slot) moves buckets only to the added member, and after
 *     the last add every bucket is back with its first owner;
 *   - a weighted member (weight 3) removed and added back likewise;
 *   - member order of the new list does not matter to a derive (the list
 *     reversed gives the same owner ids);
 *   - the old ring is unchanged by deriving from it (same owners after).
 * B = 1024, both hashes xxh3 and fnv1a32. A failure prints the algorithm,
 * the case, got and expected.
 */
#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"
#include "unit.h"

enum { B = 1024, N = 24, N_REMOVE = 8 };

typedef struct {
    char id[B][32];
} table;

static void snapshot(const rb_ring *r, table *t) {
    for (uint32_t b = 0; b < B; b++)
        snprintf(t->id[b], 32, "%s", rb_unit_member_name(r, rb_ring_owner_bucket(r, b)));
}

/* One change from `before` to `after`: only `changed`'s buckets move (to it
 * on an add, from it on a remove), and on a remove all of them move. */
static void check_change(const char *algo, const char *case_, const table *before,
                         const table *after, const char *changed, int is_add) {
    unsigned long bad = 0, stuck = 0;
    uint32_t first_bad = 0;
    for (uint32_t b = 0; b < B; b++) {
        int moved = strcmp(before->id[b], after->id[b]) != 0;
        const char *side = is_add ? after->id[b] : before->id[b];
        if (moved && strcmp(side, changed) != 0 && bad++ == 0) first_bad = b;
        if (!is_add && strcmp(before->id[b], changed) == 0 && !moved) stuck++;
    }
    if (bad)
        rb_unit_true(algo, case_, 0,
                     "got %lu buckets moved elsewhere than %s %s (first: bucket %u %s -> %s), "
                     "expected 0",
                     bad, is_add ? "to" : "from", changed, first_bad, before->id[first_bad],
                     after->id[first_bad]);
    rb_unit_eq(algo, case_, stuck, 0);
}

static rb_ring *derive(const char *algo, const char *case_, const rb_ring *old, const rb_member *m,
                       size_t n) {
    rb_ring *r = NULL;
    if (rb_ring_derive(old, m, n, &r)) {
        rb_unit_true(algo, case_, 0, "derive failed: %s", rb_error_detail());
        return NULL;
    }
    return r;
}

static void remove_each(const rb_algo *a, const rb_config *cfg, const rb_unit_members *ms) {
    char c[160];
    rb_ring *base = rb_unit_build(a, cfg, ms->m, N, "base");
    if (!base) return;
    static table t0, t1, again;
    snapshot(base, &t0);
    rb_member fewer[N];
    for (size_t gone = 0; gone < N; gone++) {
        for (size_t i = 0, j = 0; i < N; i++)
            if (i != gone) fewer[j++] = ms->m[i];
        snprintf(c, sizeof c, "%s, remove member %zu of %d", cfg->ring_hash->name, gone, N);
        rb_ring *r = derive(a->name, c, base, fewer, N - 1);
        if (!r) continue;
        snapshot(r, &t1);
        check_change(a->name, c, &t0, &t1, ms->ids[gone], 0);
        rb_ring_destroy(r);
    }
    snapshot(base, &again);
    snprintf(c, sizeof c, "%s, the old ring after %d derives", cfg->ring_hash->name, N);
    rb_unit_eq(a->name, c, memcmp(&t0, &again, sizeof t0), 0);
    rb_ring_destroy(base);
}

/* Remove N_REMOVE members at random positions one by one, then add them
 * back in reverse order; every step derived from the previous ring. */
static void remove_then_restore(const rb_algo *a, const rb_config *cfg, rb_unit_members *ms,
                                uint64_t *rng) {
    char c[160];
    rb_member cur[N];
    size_t n = N;
    memcpy(cur, ms->m, sizeof cur);
    rb_member gone[N_REMOVE];
    static table t0, prev, now;
    rb_ring *r = rb_unit_build(a, cfg, cur, n, "sequence base");
    if (!r) return;
    snapshot(r, &t0);
    prev = t0;
    for (int step = 0; step < 2 * N_REMOVE && r; step++) {
        int is_add = step >= N_REMOVE;
        if (!is_add) {
            size_t k = rb_unit_rand_range(rng, 0, (uint32_t)n - 1);
            gone[step] = cur[k];
            memmove(cur + k, cur + k + 1, (n - k - 1) * sizeof *cur);
            n--;
        } else {
            cur[n++] = gone[2 * N_REMOVE - 1 - step]; /* the last removed first */
        }
        const rb_member *changed = is_add ? &cur[n - 1] : &gone[step];
        char id[40];
        snprintf(id, sizeof id, "%.*s", (int)changed->id_len, (const char *)changed->id);
        snprintf(c, sizeof c, "%s, step %d: %s %s (weight %u)", cfg->ring_hash->name, step,
                 is_add ? "add back" : "remove", id, changed->weight);
        rb_ring *next = derive(a->name, c, r, cur, n);
        rb_ring_destroy(r);
        if (!(r = next)) return;
        snapshot(r, &now);
        check_change(a->name, c, &prev, &now, id, is_add);
        prev = now;
    }
    snprintf(c, sizeof c, "%s, every member back: the first table", cfg->ring_hash->name);
    unsigned long differ = 0;
    for (uint32_t b = 0; b < B; b++)
        differ += strcmp(t0.id[b], now.id[b]) != 0;
    rb_unit_eq(a->name, c, differ, 0);
    rb_ring_destroy(r);
}

/* The new list's order does not matter to a derive. */
static void derive_order(const rb_algo *a, const rb_config *cfg, const rb_unit_members *ms) {
    rb_ring *base = rb_unit_build(a, cfg, ms->m, N, "order base");
    if (!base) return;
    rb_member fwd[N - 1], rev[N - 1];
    for (size_t i = 0, j = 0; i < N; i++)
        if (i != 5) fwd[j++] = ms->m[i];
    for (size_t i = 0; i < N - 1; i++)
        rev[i] = fwd[N - 2 - i];
    char c[160];
    snprintf(c, sizeof c, "%s, remove member 5, new list reversed", cfg->ring_hash->name);
    rb_ring *x = derive(a->name, c, base, fwd, N - 1), *y = derive(a->name, c, base, rev, N - 1);
    if (x && y) {
        static table tx, ty;
        snapshot(x, &tx);
        snapshot(y, &ty);
        unsigned long differ = 0;
        for (uint32_t b = 0; b < B; b++)
            differ += strcmp(tx.id[b], ty.id[b]) != 0;
        rb_unit_eq(a->name, c, differ, 0);
    }
    rb_ring_destroy(x), rb_ring_destroy(y), rb_ring_destroy(base);
}

int main(void) {
    static const rb_hash *const hashes[] = {&rb_hash_xxh3, &rb_hash_fnv1a32};
    size_t n_checked = 0;
    uint64_t rng = 0xde51e5;
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        if (!a->derive) continue;
        n_checked++;
        unsigned long before = rb_unit_failures();
        for (size_t h = 0; h < 2; h++) {
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.ring_hash = cfg.bucket_hash = hashes[h];
            cfg.n_buckets = B;
            rb_unit_members ms;
            rb_unit_members_make(&ms, N, "worker-%u");
            remove_each(a, &cfg, &ms);
            derive_order(a, &cfg, &ms);
            remove_then_restore(a, &cfg, &ms, &rng);
            ms.m[3].weight = 3; /* a weighted member among them */
            ms.m[17].weight = 2;
            remove_each(a, &cfg, &ms);
            remove_then_restore(a, &cfg, &ms, &rng);
            rb_unit_members_free(&ms);
        }
        fprintf(stderr, "derive %-10s %s\n", a->name,
                rb_unit_failures() == before ? "ok" : "FAILED");
    }
    rb_unit_true("registry", "algorithms with derive", n_checked >= 3,
                 "got %zu, expected >= 3 (anchor, memento, dx)", n_checked);
    return rb_unit_finish("test_derive");
}
