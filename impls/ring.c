/*
 * ring.c — what every algorithm shares: validation of a membership and its
 * parameters, the ring header (copied ids, bucket positions), and the lookups
 * defined on top of owner_bucket (by default the owner of the bucket's
 * position).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h"
#include "ringbench/utf8.h"

void rb_config_init(rb_config *cfg) {
    cfg->n_vnodes = RB_DEFAULT_N_VNODES;
    cfg->n_buckets = RB_DEFAULT_N_BUCKETS;
    cfg->ring_hash = &rb_hash_xxh3;
    cfg->bucket_hash = &rb_hash_xxh3;
    cfg->seed = 0;
    cfg->table_source = "binary";
    cfg->n_params = 0;
}

/* Decimal ASCII digits of v into buf (at most 10 bytes); returns the count. */
static size_t put_decimal(char *buf, uint32_t v) {
    char digits[10];
    size_t d = 0, n = 0;
    do {
        digits[d++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (d)
        buf[n++] = digits[--d];
    return n;
}

size_t rb_vnode_label(char *buf, const void *id, size_t id_len, uint32_t i) {
    memcpy(buf, id, id_len);
    buf[id_len] = '#';
    return id_len + 1 + put_decimal(buf + id_len + 1, i);
}

/* Order of ids: memcmp over the common length, then shorter first. */
int rb_member_id_cmp(const rb_member *a, const rb_member *b) {
    size_t n = a->id_len < b->id_len ? a->id_len : b->id_len;
    int c = memcmp(a->id, b->id, n);
    if (c) return c;
    return (a->id_len > b->id_len) - (a->id_len < b->id_len);
}

/* qsort has no context argument; the members being sorted are per thread. */
static _Thread_local const rb_member *sorting;
static int cmp_idx_by_id(const void *a, const void *b) {
    return rb_member_id_cmp(&sorting[*(const uint32_t *)a], &sorting[*(const uint32_t *)b]);
}

static int check_members(const rb_member *m, size_t n, uint64_t *total_weight) {
    if (n == 0) return rb_set_error(RB_EEMPTY, "empty membership: at least one member is needed");
    if (n > RB_MAX_MEMBERS)
        return rb_set_error(RB_ERANGE, "%zu members exceed the limit of %u", n, RB_MAX_MEMBERS);
    uint64_t tw = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].id_len == 0 || m[i].id == NULL)
            return rb_set_error(RB_EINVAL, "member %zu has an empty id", i);
        if (m[i].id_len > RB_MAX_ID_BYTES)
            return rb_set_error(RB_ERANGE, "member %zu id is %zu bytes (limit %u)", i, m[i].id_len,
                                RB_MAX_ID_BYTES);
        if (m[i].weight == 0)
            return rb_set_error(RB_ENOPOINT, "member %zu has weight 0 and would own no point", i);
        if (m[i].weight > RB_MAX_WEIGHT)
            return rb_set_error(RB_ERANGE, "member %zu weight %u exceeds the limit %u", i,
                                m[i].weight, RB_MAX_WEIGHT);
        tw += m[i].weight;
    }
    *total_weight = tw;
    return 0;
}

/* Member ids are hashed by the ring hash (vnode labels, rendezvous scores), so
 * they must be valid input for it: RB_EENCODING for invalid UTF-8 under
 * fnv1a32-js, naming the member. */
static int check_ids_encoding(const rb_hash *h, const rb_member *m, size_t n) {
    if (!h->check) return 0;
    for (size_t i = 0; i < n; i++) {
        int rc = rb_hash_check(h, m[i].id, m[i].id_len);
        if (rc) {
            char why[128];
            snprintf(why, sizeof why, "%s", rb_error_detail());
            return rb_set_error(rc, "member %zu id is not valid input for hash %s: %s", i, h->name,
                                why);
        }
    }
    return 0;
}

/* Sort member indices by id into h->id_order; RB_EDUP when two ids are equal. */
static int order_members(rb_ring *h) {
    uint32_t n = h->n_members, *order = malloc(n * sizeof *order);
    if (!order) return rb_set_error(RB_ENOMEM, "out of memory ordering %u members", n);
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    sorting = h->members;
    qsort(order, n, sizeof *order, cmp_idx_by_id);
    h->id_order = order;
    for (uint32_t i = 1; i < n; i++) {
        const rb_member *a = &h->members[order[i - 1]], *b = &h->members[order[i]];
        if (rb_member_id_cmp(a, b) == 0) {
            size_t len = rb_utf8_cut(b->id, b->id_len, 64);
            return rb_set_error(RB_EDUP, "duplicate member id '%.*s%s' (members %u and %u)",
                                (int)len, (const char *)b->id, len < b->id_len ? "..." : "",
                                order[i - 1], order[i]);
        }
    }
    return 0;
}

static void free_header(rb_ring *h) {
    if (h->members) {
        for (uint32_t i = 0; i < h->n_members; i++)
            free((void *)h->members[i].id);
        free((void *)h->members);
    }
    free(h->bucket_pos);
    free(h->id_order);
}

/* Fill the header: copied ids and, for positional algorithms, bucket positions. */
static int fill_header(rb_ring *h, const rb_algo *algo, const rb_config *cfg, const rb_member *m,
                       size_t n) {
    memset(h, 0, sizeof *h);
    h->algo = algo;
    h->cfg = *cfg;
    h->n_members = (uint32_t)n;
    uint32_t B = cfg->n_buckets;
    h->bucket_mask = (B & (B - 1)) == 0 ? (uint64_t)B - 1 : 0;
    if (B == 1) h->bucket_mask = 0; /* h % 1 == 0 either way; keep the % path simple */
    rb_member *copy = calloc(n, sizeof *copy);
    if (!copy) return rb_set_error(RB_ENOMEM, "out of memory copying %zu members", n);
    h->members = copy;
    size_t bytes = sizeof *h + n * sizeof *copy;
    for (size_t i = 0; i < n; i++) {
        void *id = malloc(m[i].id_len);
        if (!id) return rb_set_error(RB_ENOMEM, "out of memory copying member ids");
        memcpy(id, m[i].id, m[i].id_len);
        copy[i] = (rb_member){.id = id, .id_len = m[i].id_len, .weight = m[i].weight};
        bytes += m[i].id_len;
    }
    int rc = order_members(h);
    if (rc) return rc;
    bytes += n * sizeof *h->id_order;
    if (algo->flags & RB_ALGO_POSITIONAL) {
        h->bucket_pos = malloc((size_t)B * sizeof *h->bucket_pos);
        if (!h->bucket_pos) return rb_set_error(RB_ENOMEM, "out of memory for %u buckets", B);
        for (uint32_t b = 0; b < B; b++) {
            char label[10];
            size_t len = put_decimal(label, b);
            h->bucket_pos[b] = cfg->ring_hash->fn(label, len, cfg->seed);
        }
        bytes += (size_t)B * sizeof *h->bucket_pos;
    }
    h->header_bytes = bytes;
    return 0;
}

/* The values of the parameters `algo` declares (range and check); parameters
 * it does not declare are another algorithm's (a table source's) and pass. */
static int check_param_values(const rb_algo *algo, const rb_config *cfg) {
    if (cfg->n_params > RB_MAX_PARAMS)
        return rb_set_error(RB_EINVAL, "%u parameters exceed the limit %u", cfg->n_params,
                            RB_MAX_PARAMS);
    for (uint32_t i = 0; i < cfg->n_params; i++) {
        const rb_param_spec *sp = rb_algo_param_spec(algo, cfg->params[i].name);
        int rc = sp ? rb_param_check_value(algo, sp, &cfg->params[i]) : 0;
        if (rc) return rc;
    }
    return 0;
}

int rb_ring_build(const rb_algo *algo, const rb_config *cfg, const rb_member *members,
                  size_t n_members, rb_ring **out) {
    *out = NULL;
    if (!algo || !cfg) return rb_set_error(RB_EINVAL, "algorithm and config must not be NULL");
    if (!cfg->ring_hash || !cfg->bucket_hash || !cfg->ring_hash->fn || !cfg->bucket_hash->fn)
        return rb_set_error(RB_EINVAL, "ring and bucket hashes must be set");
    if (cfg->n_vnodes == 0)
        return rb_set_error(RB_ENOPOINT, "0 vnodes per member: members would own no point");
    if (cfg->n_buckets == 0) return rb_set_error(RB_ERANGE, "0 buckets: at least 1 is needed");
    if (cfg->n_buckets > RB_MAX_BUCKETS)
        return rb_set_error(RB_ERANGE, "%u buckets exceed the limit %u", cfg->n_buckets,
                            RB_MAX_BUCKETS);
    if (n_members && !members) return rb_set_error(RB_EINVAL, "members must not be NULL");
    uint64_t total_weight = 0;
    int rc = check_members(members, n_members, &total_weight);
    if (rc) return rc;
    /* points = total weight x V (vnode algorithms): compared by division, since
     * the product of two in-range values can wrap 64 bits (2^33 x 2^31 = 2^64). */
    uint64_t per_weight = (rb_algo_flags(algo, cfg) & RB_ALGO_USES_VNODES) ? cfg->n_vnodes : 1;
    if (total_weight > RB_MAX_POINTS / per_weight)
        return rb_set_error(RB_ERANGE,
                            "%zu members x %llu vnodes (total weight %llu) exceed the limit of "
                            "%u points",
                            n_members, (unsigned long long)per_weight,
                            (unsigned long long)total_weight, RB_MAX_POINTS);
    rc = check_ids_encoding(cfg->ring_hash, members, n_members);
    if (rc) return rc;
    rc = check_param_values(algo, cfg);
    if (rc) return rc;
    rb_ring hdr;
    rc = fill_header(&hdr, algo, cfg, members, n_members);
    if (rc == 0) rc = algo->build(&hdr, out);
    if (rc) {
        free_header(&hdr);
        *out = NULL;
    }
    return rc;
}

void rb_ring_destroy(rb_ring *r) {
    if (!r) return;
    rb_ring hdr = *r;
    r->algo->destroy(r);
    free_header(&hdr);
}

uint32_t rb_bucket_of(const rb_config *cfg, const void *key, size_t len) {
    return (uint32_t)(cfg->bucket_hash->fn(key, len, cfg->seed) % cfg->n_buckets);
}

uint32_t rb_ring_bucket_of_hash(const rb_ring *r, uint64_t h) {
    return (uint32_t)(r->bucket_mask ? (h & r->bucket_mask) : (h % r->cfg.n_buckets));
}

uint32_t rb_ring_owner_bucket(const rb_ring *r, uint32_t b) {
    return rb_ring_owner_bucket_of(r, b);
}

uint32_t rb_ring_owner_position(const rb_ring *r, uint64_t pos) {
    return r->algo->owner_position ? r->algo->owner_position(r, pos) : UINT32_MAX;
}

uint64_t rb_ring_bucket_position(const rb_ring *r, uint32_t b) {
    return r->bucket_pos ? r->bucket_pos[b] : 0;
}

uint32_t rb_ring_owner_hash(const rb_ring *r, uint64_t h) { return rb_ring_owner_hash_of(r, h); }

uint32_t rb_ring_owner_key(const rb_ring *r, const void *key, size_t len) {
    return rb_ring_owner_key_of(r, key, len);
}

void rb_ring_fill_table(const rb_ring *r, uint32_t *owners) {
    for (uint32_t b = 0; b < r->cfg.n_buckets; b++)
        owners[b] = rb_ring_owner_bucket_of(r, b);
}

const void *rb_ring_member_id(const rb_ring *r, uint32_t idx, size_t *len) {
    *len = r->members[idx].id_len;
    return r->members[idx].id;
}

size_t rb_ring_bytes_held(const rb_ring *r) { return r->header_bytes + r->algo->bytes_held(r); }

size_t rb_ring_structure_bytes(const rb_ring *r) { return r->algo->bytes_held(r); }

uint64_t rb_ring_n_points(const rb_ring *r) {
    uint64_t tw = 0;
    for (uint32_t i = 0; i < r->n_members; i++)
        tw += r->members[i].weight;
    return (rb_ring_flags(r) & RB_ALGO_USES_VNODES) ? tw * r->cfg.n_vnodes : tw;
}

int rb_ring_derive(const rb_ring *old, const rb_member *members, size_t n_members, rb_ring **out) {
    if (old->algo->derive) {
        *out = NULL;
        return old->algo->derive(old, members, n_members, out);
    }
    return rb_ring_build(old->algo, &old->cfg, members, n_members, out);
}

const rb_algo *rb_ring_algo(const rb_ring *r) { return r->algo; }
const rb_config *rb_ring_config(const rb_ring *r) { return &r->cfg; }
uint32_t rb_ring_n_members(const rb_ring *r) { return r->n_members; }
uint32_t rb_ring_n_buckets(const rb_ring *r) { return r->cfg.n_buckets; }
const rb_member *rb_ring_member(const rb_ring *r, uint32_t idx) { return &r->members[idx]; }
unsigned rb_ring_flags(const rb_ring *r) { return rb_algo_flags(r->algo, &r->cfg); }
uint64_t rb_ring_param(const rb_ring *r, const char *name) {
    return rb_config_param(r->algo, &r->cfg, name);
}
