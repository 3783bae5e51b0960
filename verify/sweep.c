/*
 * sweep.c — movement, monotonicity, load spread and agreement measured on
 * bucket tables (see sweep.h).
 */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Write "worker-" and 12 hex digits of v (no terminator) into buf. */
static void put_id(char *buf, uint64_t v) {
    static const char hex[] = "0123456789abcdef";
    memcpy(buf, "worker-", 7);
    for (int i = 0; i < 12; i++)
        buf[7 + i] = hex[(v >> (44 - 4 * i)) & 0xF];
}

void rb_sweep_ids(uint64_t seed, size_t n, char *storage, rb_member *members) {
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        char *id = storage + i * RB_SWEEP_ID_BYTES;
        /* Redraw on a repeat so the ids are distinct (48 random bits: repeats
         * are rare, but a duplicate id would make the build fail). */
        for (;;) {
            put_id(id, rb_splitmix64(&state));
            size_t j = 0;
            while (j < i && memcmp(storage + j * RB_SWEEP_ID_BYTES, id, RB_SWEEP_ID_BYTES) != 0)
                j++;
            if (j == i) break;
        }
        members[i] = (rb_member){.id = id, .id_len = RB_SWEEP_ID_BYTES, .weight = 1};
    }
}

int rb_sweep_table(const rb_algo *algo, const rb_config *cfg, const rb_member *members, size_t n,
                   uint32_t *owners) {
    rb_ring *r;
    int rc = rb_ring_build(algo, cfg, members, n, &r);
    if (rc) return rc;
    rb_ring_fill_table(r, owners);
    rb_ring_destroy(r);
    return 0;
}

void rb_keys_per_bucket(const rb_config *cfg, char *const *keys, const size_t *len, size_t n_keys,
                        uint32_t *out) {
    memset(out, 0, (size_t)cfg->n_buckets * sizeof *out);
    for (size_t k = 0; k < n_keys; k++)
        out[rb_bucket_of(cfg, keys[k], len[k])]++;
}

const char *rb_change_name(rb_change_kind kind) {
    switch (kind) {
    case RB_CHANGE_ADD:
        return "add";
    case RB_CHANGE_REMOVE_LAST:
        return "remove_last";
    case RB_CHANGE_REMOVE_MIDDLE:
        return "remove_middle";
    }
    return "?";
}

size_t rb_change_member(rb_change_kind kind, size_t n) {
    switch (kind) {
    case RB_CHANGE_ADD:
        return n;
    case RB_CHANGE_REMOVE_LAST:
        return n - 1;
    case RB_CHANGE_REMOVE_MIDDLE:
        return (n - 1) / 2;
    }
    return 0;
}

void rb_sweep_movement(const uint32_t *before, const uint32_t *after, uint32_t n_buckets,
                       size_t n_before, rb_change_kind kind, const uint32_t *keys_per_bucket,
                       uint64_t n_keys, rb_movement *out) {
    memset(out, 0, sizeof *out);
    size_t changed = rb_change_member(kind, n_before);
    int is_add = kind == RB_CHANGE_ADD;
    out->ideal_fraction = is_add ? 1.0 / (double)(n_before + 1) : 1.0 / (double)n_before;
    for (uint32_t b = 0; b < n_buckets; b++) {
        /* Owner after, as an index of the membership before; the added member
         * has no index before and keeps `changed` (== n_before). */
        size_t now = after[b];
        if (!is_add && now >= changed) now++;
        if (now == before[b]) continue;
        uint64_t keys = keys_per_bucket ? keys_per_bucket[b] : 0;
        out->n_moved_buckets++;
        out->n_moved_keys += keys;
        /* add: it may only move to the new member; remove: only the removed
         * member's items may move. */
        int ok = is_add ? now == changed : before[b] == changed;
        if (!ok) {
            out->n_violating_buckets++;
            out->n_violating_keys += keys;
        }
    }
    out->moved_bucket_fraction = (double)out->n_moved_buckets / (double)n_buckets;
    out->moved_key_fraction = n_keys ? (double)out->n_moved_keys / (double)n_keys : 0.0;
}

void rb_sweep_spread(const uint32_t *owners, uint32_t n_buckets, const rb_member *members, size_t n,
                     const uint32_t *keys_per_bucket, rb_spread *out) {
    memset(out, 0, sizeof *out);
    double *load = calloc(n, sizeof *load);
    if (!load) return; /* zeros: the caller sees no spread rather than a crash */
    for (uint32_t b = 0; b < n_buckets; b++)
        load[owners[b]] += keys_per_bucket ? keys_per_bucket[b] : 1.0;
    double sum = 0, max = 0, min = INFINITY;
    for (size_t i = 0; i < n; i++) {
        load[i] /= members[i].weight;
        sum += load[i];
        if (load[i] > max) max = load[i];
        if (load[i] < min) min = load[i];
    }
    double mean = sum / (double)n;
    if (mean > 0) {
        double var = 0;
        for (size_t i = 0; i < n; i++)
            var += (load[i] - mean) * (load[i] - mean);
        out->peak_to_mean = max / mean;
        out->min_to_mean = min / mean;
        out->cv = sqrt(var / (double)n) / mean;
    }
    free(load);
}

double rb_integer_floor(uint32_t n_buckets, uint32_t n_members) {
    double per = (double)n_buckets / (double)n_members;
    uint32_t ceil_per = n_buckets / n_members + (n_buckets % n_members != 0);
    return (double)ceil_per / per;
}

void rb_bucket_positions(const rb_config *cfg, uint64_t *pos) {
    for (uint32_t b = 0; b < cfg->n_buckets; b++) {
        char label[12];
        int len = snprintf(label, sizeof label, "%u", b);
        pos[b] = cfg->ring_hash->fn(label, (size_t)len, cfg->seed);
    }
}

double rb_sampling_peak_to_mean(const uint64_t *pos, uint32_t n_buckets, uint32_t n_members,
                                uint64_t seed, const uint32_t *keys_per_bucket) {
    double *load = calloc(n_members, sizeof *load);
    if (!load) return 0.0;
    uint64_t mix = rb_hash_fmix64(seed ^ 0x5bd1e9955bd1e995ULL), total = 0;
    for (uint32_t b = 0; b < n_buckets; b++) {
        /* a uniform member: the high half of (32-bit draw x N) (Lemire's
         * multiply-shift range reduction) */
        uint32_t draw = (uint32_t)(rb_hash_fmix64(pos[b] ^ mix) >> 32);
        uint32_t m = (uint32_t)(((uint64_t)draw * n_members) >> 32);
        uint64_t w = keys_per_bucket ? keys_per_bucket[b] : 1;
        load[m] += (double)w;
        total += w;
    }
    double max = 0;
    for (uint32_t i = 0; i < n_members; i++)
        if (load[i] > max) max = load[i];
    free(load);
    return total ? max / ((double)total / n_members) : 0.0;
}

static const rb_agreement_variant vnode_ring_variants[] = {
    {"linear", NULL},
    {"binary", NULL},
    {"table", "binary"},
    {"table", "linear"},
};

static const rb_agreement_group groups[] = {
    {"sorted vnode ring (first point >= position, wrap)", vnode_ring_variants,
     sizeof vnode_ring_variants / sizeof vnode_ring_variants[0]},
};

size_t rb_agreement_group_count(void) { return sizeof groups / sizeof groups[0]; }
const rb_agreement_group *rb_agreement_group_at(size_t i) {
    return i < rb_agreement_group_count() ? &groups[i] : NULL;
}

int rb_sweep_agreement(const rb_agreement_group *group, const rb_config *cfg,
                       const rb_member *members, size_t n, uint32_t *scratch,
                       uint64_t *n_disagreeing, size_t *first_bad_variant) {
    uint32_t B = cfg->n_buckets, *ref = scratch, *other = scratch + B;
    *n_disagreeing = 0;
    *first_bad_variant = 0;
    int have_ref = 0;
    uint8_t *bad = calloc(B, 1);
    if (!bad) return rb_set_error(RB_ENOMEM, "out of memory comparing %u buckets", B);
    for (size_t v = 0; v < group->n_variants; v++) {
        const rb_algo *a = rb_algo_by_name(group->variants[v].algo);
        if (!a) continue;
        rb_config c = *cfg;
        if (group->variants[v].table_source) c.table_source = group->variants[v].table_source;
        int rc = rb_sweep_table(a, &c, members, n, have_ref ? other : ref);
        if (rc) {
            free(bad);
            return rc;
        }
        if (!have_ref) {
            have_ref = 1;
            continue;
        }
        for (uint32_t b = 0; b < B; b++) {
            if (other[b] == ref[b]) continue;
            if (!*first_bad_variant) *first_bad_variant = v;
            bad[b] = 1;
        }
    }
    for (uint32_t b = 0; b < B; b++)
        *n_disagreeing += bad[b];
    free(bad);
    return 0;
}

/* The bucket table after one change of `base`'s membership, through
 * rb_ring_derive (the algorithm's incremental add/remove when it has one). */
static int derived_table(const rb_ring *base, const rb_member *members, size_t n,
                         uint32_t *owners) {
    rb_ring *r;
    int rc = rb_ring_derive(base, members, n, &r);
    if (rc) return rc;
    rb_ring_fill_table(r, owners);
    rb_ring_destroy(r);
    return 0;
}

/* The two removes of rb_sweep_case, each derived from `base`. */
static int sweep_removes(const rb_ring *base, const rb_member *members, size_t n,
                         const uint32_t *before, const uint32_t *keys_per_bucket, uint64_t n_keys,
                         uint32_t *after, rb_case *out) {
    uint32_t B = rb_ring_n_buckets(base);
    rb_member *fewer = malloc((n - 1) * sizeof *fewer);
    if (!fewer) return rb_set_error(RB_ENOMEM, "out of memory for %zu members", n);
    int rc = 0;
    for (int k = RB_CHANGE_REMOVE_LAST; k <= RB_CHANGE_REMOVE_MIDDLE && !rc; k++) {
        size_t gone = rb_change_member((rb_change_kind)k, n);
        for (size_t i = 0, j = 0; i < n; i++)
            if (i != gone) fewer[j++] = members[i];
        if ((rc = derived_table(base, fewer, n - 1, after))) break;
        rb_sweep_movement(before, after, B, n, (rb_change_kind)k, keys_per_bucket, n_keys,
                          &out->change[k]);
    }
    free(fewer);
    return rc;
}

int rb_sweep_case(const rb_algo *algo, const rb_config *cfg, const rb_member *members, size_t n,
                  const uint32_t *keys_per_bucket, uint64_t n_keys, uint32_t *scratch,
                  rb_case *out) {
    uint32_t B = cfg->n_buckets, *base = scratch, *after = scratch + B;
    memset(out, 0, sizeof *out);
    rb_ring *r;
    int rc = rb_ring_build(algo, cfg, members, n, &r);
    if (rc) return rc;
    rb_ring_fill_table(r, base);
    rb_sweep_spread(base, B, members, n, NULL, &out->bucket_spread);
    if (keys_per_bucket) rb_sweep_spread(base, B, members, n, keys_per_bucket, &out->key_spread);

    rc = derived_table(r, members, n + 1, after);
    if (!rc)
        rb_sweep_movement(base, after, B, n, RB_CHANGE_ADD, keys_per_bucket, n_keys,
                          &out->change[RB_CHANGE_ADD]);
    if (!rc && n >= 2) {
        out->has_remove = 1;
        rc = sweep_removes(r, members, n, base, keys_per_bucket, n_keys, after, out);
    }
    rb_ring_destroy(r);
    return rc;
}

int rb_seed_example_run(const rb_algo *algo, const rb_hash *hash, size_t n_seeds,
                        uint64_t first_seed, rb_seed_example *out) {
    enum { N = RB_SEED_EXAMPLE_N, B = RB_SEED_EXAMPLE_BUCKETS };
    uint32_t tables[2][B];
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.n_vnodes = RB_SEED_EXAMPLE_VNODES;
    cfg.n_buckets = B;
    cfg.ring_hash = cfg.bucket_hash = hash;
    memset(out, 0, sizeof *out);
    out->n_ideal_buckets = B / (N + 1);
    out->n_seeds = n_seeds;

    static const char *const names[N + 1] = {"worker-1", "worker-2", "worker-3", "worker-4"};
    rb_member members[N + 1];
    for (size_t i = 0; i <= N; i++)
        members[i] = (rb_member){.id = names[i], .id_len = strlen(names[i]), .weight = 1};
    rb_movement mv;
    int rc = rb_sweep_table(algo, &cfg, members, N, tables[0]);
    if (!rc) rc = rb_sweep_table(algo, &cfg, members, N + 1, tables[1]);
    if (rc) return rc;
    rb_sweep_movement(tables[0], tables[1], B, N, RB_CHANGE_ADD, NULL, 0, &mv);
    out->n_moved_buckets = mv.n_moved_buckets;
    out->n_violating_buckets = mv.n_violating_buckets;

    char ids[(N + 1) * RB_SWEEP_ID_BYTES];
    double sum = 0;
    for (size_t s = 0; s < n_seeds; s++) {
        rb_sweep_ids(first_seed + s, N + 1, ids, members);
        if ((rc = rb_sweep_table(algo, &cfg, members, N, tables[0]))) return rc;
        if ((rc = rb_sweep_table(algo, &cfg, members, N + 1, tables[1]))) return rc;
        rb_sweep_movement(tables[0], tables[1], B, N, RB_CHANGE_ADD, NULL, 0, &mv);
        sum += (double)mv.n_moved_buckets;
        if (mv.n_moved_buckets > out->worst_moved_buckets)
            out->worst_moved_buckets = mv.n_moved_buckets;
    }
    out->mean_moved_buckets = n_seeds ? sum / (double)n_seeds : 0.0;
    return 0;
}
