/*
 * rendezvous.c — highest random weight (HRW) hashing: the owner of a
 * position is the member with the highest score(position, member).
 * Source: D. Thaler, C. Ravishankar, "Using Name-Based Mappings to Increase
 * Hit Rates", IEEE/ACM ToN 6(1), 1998. Weights by the logarithmic method:
 * score = -w / ln(u), u in (0,1) uniform from the hash (J. Resch, "New
 * Hashing Algorithms for Data Storage", 2015; Schindelhauer & Schomaker,
 * "Weighted Distributed Hash Tables", SPAA 2005), which gives member i the
 * share w_i / sum(w).
 *
 * score input: u64 = fmix64(position XOR member_key), member_key =
 * fmix64(ring_hash(id, seed)) for a 64-bit ring hash and fmix64(xxh3(id,
 * seed)) for a 32-bit one (see member_key). Unweighted memberships compare the 64-bit
 * values directly (same order as the logarithm, no floating point). Equal
 * scores go to the member first in id order, so the owner does not depend on
 * list order. O(N) per lookup. Replicas (owners_k): the k highest scores,
 * O(N k).
 */
#include <stdlib.h>

#include "hrw.h"
#include "ring_impl.h"

typedef struct {
    rb_ring hdr;
    uint64_t *member_key; /* per member, in id order */
    uint32_t *member_idx; /* member index of member_key[i] */
    double *weight;       /* per member in id order; NULL when all are 1 */
} hrw_ring;

/* A member's key: fmix64 of a 64-bit hash of its id. Under a 32-bit ring hash
 * two ids can collide (mlpfs and m4vja under fnv1a32, both 3706980687); they
 * would tie at every position and one of them would own nothing. Such ids are
 * keyed by xxh3 instead: a function of the id alone, so a member's key never
 * depends on who else is a member, and a join or leave moves positions only
 * to or from the changed member. */
static uint64_t member_key(const rb_ring *hdr, const rb_member *m) {
    const rb_hash *h = hdr->cfg.ring_hash->bits < 64 ? &rb_hash_xxh3 : hdr->cfg.ring_hash;
    return rb_hash_fmix64(h->fn(m->id, m->id_len, hdr->cfg.seed));
}

static int build(const rb_ring *hdr, rb_ring **out) {
    uint32_t n = hdr->n_members;
    hrw_ring *r = calloc(1, sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    r->member_key = malloc(n * sizeof *r->member_key);
    r->member_idx = malloc(n * sizeof *r->member_idx);
    int weighted = 0;
    for (uint32_t i = 0; i < n; i++)
        weighted |= hdr->members[i].weight != 1;
    if (weighted) r->weight = malloc(n * sizeof *r->weight);
    if (!r->member_key || !r->member_idx || (weighted && !r->weight)) {
        free(r->member_key), free(r->member_idx), free(r->weight), free(r);
        return rb_set_error(RB_ENOMEM, "out of memory for %u members", n);
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = hdr->id_order[k];
        const rb_member *m = &hdr->members[i];
        r->member_key[k] = member_key(hdr, m);
        r->member_idx[k] = i;
        if (weighted) r->weight[k] = m->weight;
    }
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const hrw_ring *r = (const hrw_ring *)ring;
    uint32_t n = ring->n_members, best = 0;
    if (!r->weight) {
        uint64_t top = rb_hash_fmix64(pos ^ r->member_key[0]);
        for (uint32_t k = 1; k < n; k++) {
            uint64_t s = rb_hash_fmix64(pos ^ r->member_key[k]);
            if (s > top) top = s, best = k; /* strict: ties stay with the first in id order */
        }
    } else {
        double top = rb_hrw_score(r->weight[0], pos, r->member_key[0]);
        for (uint32_t k = 1; k < n; k++) {
            double s = rb_hrw_score(r->weight[k], pos, r->member_key[k]);
            if (s > top) top = s, best = k;
        }
    }
    return r->member_idx[best];
}

/* Does member a (id order) score higher than member b for pos? Ties go to
 * the member first in id order, as in owner_position. */
static inline int scores_higher(const hrw_ring *r, uint32_t a, uint32_t b, uint64_t pos) {
    if (r->weight) {
        double sa = rb_hrw_score(r->weight[a], pos, r->member_key[a]);
        double sb = rb_hrw_score(r->weight[b], pos, r->member_key[b]);
        return sa > sb || (sa == sb && a < b);
    }
    uint64_t ua = rb_hash_fmix64(pos ^ r->member_key[a]),
             ub = rb_hash_fmix64(pos ^ r->member_key[b]);
    return ua > ub || (ua == ub && a < b);
}

/* Replicas: the k highest scores in descending order, by insertion into
 * out[0 .. k) (scores recomputed, no scratch memory); out[0] is the owner.
 * O(N k). */
static uint32_t owners_k(const rb_ring *ring, uint32_t b, uint32_t *out, uint32_t k) {
    const hrw_ring *r = (const hrw_ring *)ring;
    uint64_t pos = ring->bucket_pos[b];
    uint32_t n = ring->n_members, got = 0;
    if (k > n) k = n;
    for (uint32_t m = 0; m < n && k; m++) {
        uint32_t at = got; /* below every entry that scores higher */
        while (at > 0 && scores_higher(r, m, out[at - 1], pos))
            at--;
        if (at >= k) continue;
        for (uint32_t j = got < k ? got : k - 1; j > at; j--)
            out[j] = out[j - 1];
        out[at] = m;
        if (got < k) got++;
    }
    for (uint32_t j = 0; j < got; j++)
        out[j] = r->member_idx[out[j]];
    return got;
}

static size_t bytes_held(const rb_ring *ring) {
    const hrw_ring *r = (const hrw_ring *)ring;
    size_t n = ring->n_members;
    return sizeof *r - sizeof(rb_ring) + n * (sizeof *r->member_key + sizeof *r->member_idx) +
           (r->weight ? n * sizeof *r->weight : 0);
}

static void destroy(rb_ring *ring) {
    hrw_ring *r = (hrw_ring *)ring;
    free(r->member_key), free(r->member_idx), free(r->weight), free(r);
}

const rb_algo rb_algo_rendezvous = {
    .name = "rendezvous",
    .description = "highest random weight; weighted by the logarithmic method",
    .source = "Thaler & Ravishankar, ToN 1998; weights: Schindelhauer & Schomaker, SPAA 2005",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_MONOTONE | RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .owners_k = owners_k,
    .bytes_held = bytes_held,
    .destroy = destroy,
    /* a bucket moves iff the added member's score is the highest: 1/(N+1) */
    .movement_bound = 1.5,
};
