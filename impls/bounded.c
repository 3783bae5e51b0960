/*
 * bounded.c — consistent hashing with bounded loads over any positional
 * algorithm: a bucket table in which no member holds more than its capacity.
 * Source: V. Mirrokni, M. Thorup, M. Zadimoghaddam, "Consistent Hashing with
 * Bounded Loads", SODA 2018, sections 2-3: with capacity ceil((1 + eps) * m/n)
 * per bin, a ball that finds its bin full goes on to its next choice; the
 * expected movement per change stays O(1/eps^2) times the ideal.
 *
 * Here: the balls are the B buckets, placed in bucket order 0 .. B-1; member i
 * of weight w_i has capacity ceil((1 + eps) * B * w_i / W) (W the total
 * weight), so the peak-to-mean load is at most ceil((1+eps)B/N)/(B/N) with
 * equal weights. A bucket's choices are the source's owners of its position,
 * then of SplitMix64's mixer of position + i * 0x9e3779b97f4a7c15 (i = 1,
 * 2, ...): on a ring the paper forwards a ball clockwise; a rehashed
 * sequence does the same over any positional source. After 64 + 4N choices
 * without room (rare: the capacities sum to >= B) the first member in id
 * order with room takes it. The source is `--table-source` (default
 * `binary`); eps is the parameter eps_pct (eps in percent, default 25).
 * Answers for buckets only (a table); build costs B lookups in the source
 * times the expected choices.
 */
#include <stdlib.h>
#include <string.h>

#include "mix.h"
#include "ring_impl.h"

#define BOUNDED_DEFAULT_EPS_PCT 25u /* eps = 0.25: peak-to-mean <= ~1.25 */

typedef struct {
    rb_ring hdr;
    uint32_t *owner; /* B entries */
} bounded_ring;

extern const rb_algo rb_algo_bounded;

/* The member taking bucket b: its first choice with room. */
static uint32_t place(const rb_ring *src, const rb_ring *hdr, uint32_t b, const uint32_t *load,
                      const uint32_t *cap) {
    uint64_t pos = src->bucket_pos[b]; /* the source is positional: it has them */
    uint32_t n = hdr->n_members, limit = 64 + 4 * n;
    for (uint32_t i = 0; i < limit; i++) {
        uint32_t m = src->algo->owner_position(
            src, i ? rb_splitmix64_mix(pos + i * RB_SPLITMIX64_GAMMA) : pos);
        if (load[m] < cap[m]) return m;
    }
    for (uint32_t t = 0; t < n; t++) /* fallback: first in id order with room */
        if (load[hdr->id_order[t]] < cap[hdr->id_order[t]]) return hdr->id_order[t];
    return hdr->id_order[0]; /* unreachable: the capacities sum to >= B */
}

/* Fill owner[0 .. B) from the source ring under the capacities. 0 or
 * RB_ENOMEM. */
static int fill(const rb_ring *src, const rb_ring *hdr, uint32_t *owner) {
    uint32_t n = hdr->n_members;
    uint32_t *load = calloc(n, sizeof *load), *cap = malloc(n * sizeof *cap);
    if (!load || !cap) {
        free(load), free(cap);
        return rb_set_error(RB_ENOMEM, "out of memory for %u members", n);
    }
    uint64_t total_w = 0;
    for (uint32_t i = 0; i < n; i++)
        total_w += hdr->members[i].weight;
    double eps = (double)rb_ring_param(hdr, "eps_pct") / 100.0, b_total = hdr->cfg.n_buckets;
    for (uint32_t i = 0; i < n; i++) {
        double c = (1.0 + eps) * b_total * hdr->members[i].weight / (double)total_w;
        /* ceil, less a hair of rounding (exact multiples stay exact) */
        cap[i] = (uint32_t)(c - (double)(uint32_t)c > 1e-9 ? (uint32_t)c + 1 : (uint32_t)c);
    }
    for (uint32_t b = 0; b < hdr->cfg.n_buckets; b++) {
        uint32_t m = place(src, hdr, b, load, cap);
        owner[b] = m;
        load[m]++;
    }
    free(load), free(cap);
    return 0;
}

static const rb_algo *source_of(const rb_config *cfg) {
    return rb_algo_by_name(cfg->table_source ? cfg->table_source : "binary");
}

static int build(const rb_ring *hdr, rb_ring **out) {
    const rb_algo *src_algo = source_of(&hdr->cfg);
    if (!src_algo) return RB_EUNKNOWN;
    if (!src_algo->owner_position)
        return rb_set_error(RB_EINVAL, "bounded loads need a positional source, not '%s'",
                            src_algo->name);
    rb_ring *src;
    int rc = rb_ring_build(src_algo, &hdr->cfg, hdr->members, hdr->n_members, &src);
    if (rc) return rc;
    bounded_ring *r = malloc(sizeof *r);
    uint32_t *owner = malloc((size_t)hdr->cfg.n_buckets * sizeof *owner);
    if (!r || !owner) {
        free(r), free(owner), rb_ring_destroy(src);
        return rb_set_error(RB_ENOMEM, "out of memory for a table of %u buckets",
                            hdr->cfg.n_buckets);
    }
    r->hdr = *hdr;
    rc = fill(src, hdr, owner);
    rb_ring_destroy(src);
    if (rc) {
        free(r), free(owner);
        return rc;
    }
    r->owner = owner;
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_bucket(const rb_ring *ring, uint32_t b) {
    return ((const bounded_ring *)ring)->owner[b];
}

static size_t bytes_held(const rb_ring *ring) {
    return sizeof(bounded_ring) - sizeof(rb_ring) + (size_t)ring->cfg.n_buckets * sizeof(uint32_t);
}

static void destroy(rb_ring *ring) {
    bounded_ring *r = (bounded_ring *)ring;
    free(r->owner);
    free(r);
}

/* Order-free and vnode-dependent when the source is; never monotone (a full
 * member pushes buckets on, so a change can move buckets between others). */
static unsigned flags_for(const rb_config *cfg) {
    const rb_algo *src = source_of(cfg);
    if (!src || src == &rb_algo_bounded || !src->owner_position) return 0;
    return rb_algo_flags(src, cfg) &
           (RB_ALGO_ORDER_FREE | RB_ALGO_USES_VNODES | RB_ALGO_MAY_REFUSE_WEIGHTS);
}

static const rb_param_spec params[] = {
    {"eps_pct", "eps in percent: capacity ceil((1 + eps) B w / W) per member",
     BOUNDED_DEFAULT_EPS_PCT, 0, 10000, NULL},
};

const rb_algo rb_algo_bounded = {
    .name = "bounded",
    .description = "bounded loads: a bucket table from a ring, no member above (1+eps) B/N",
    .source = "Mirrokni, Thorup, Zadimoghaddam, Consistent Hashing with Bounded Loads, SODA 2018",
    /* as from the default source, binary; the spread is held by eps, not by V
     * (verify/prop_spread.c leaves its V rules to test_bounded.c) */
    .flags = RB_ALGO_ORDER_FREE | RB_ALGO_USES_VNODES | RB_ALGO_READS_SOURCE,
    .build = build,
    .owner_position = NULL,
    .owner_bucket = owner_bucket,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags_for = flags_for,
};
