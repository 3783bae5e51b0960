/*
 * multiprobe.c — multi-probe consistent hashing.
 * Source: B. Appleton, M. O'Reilly, "Multi-probe consistent hashing",
 * arXiv:1505.00062 (2015), section 2: each member has one point on the ring
 * (per unit of weight); a key is hashed k times and goes to the member whose
 * point follows one of its probes most closely. k = 21 gives a peak-to-mean
 * of about 1.05 (the paper's example), with one point per member instead of
 * hundreds of vnodes. k is the parameter `probes` (--param probes=K, 1..1024,
 * default 21); a lookup costs k binary searches over N points.
 *
 * Points: the vnode ring of `binary` at V = 1 (vnode 0 of each unit of weight:
 * label "id#i", the documented tie order). Probes of a position p: probe 0 is
 * p itself, probe i >= 1 is SplitMix64's mixer of p + i * 0x9e3779b97f4a7c15,
 * reduced to the ring hash's width (its top bits), so with k = 1 the owner is
 * `binary`'s at V = 1. Distances are clockwise on the circle of 2^bits
 * positions (wrapping past the last point to the first); the smallest wins,
 * ties to the earliest probe. Monotone and order-free: a new point can only
 * shorten a probe's distance, so items move only to an added member.
 * Replicas (owners_k): the owner is the member whose points lie closest
 * after some probe; the i-th replica is the member with the i-th smallest
 * such distance (its "score"), so replica sets are monotone too.
 */
#include <stdlib.h>

#include "mix.h"
#include "ring_impl.h"
#include "vnode_ring.h"

#define MULTIPROBE_DEFAULT_K 21u /* probes: the paper's example (PTM ~1.05) */
#define MULTIPROBE_MAX_K 1024u   /* k binary searches per lookup */

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr; /* one point per unit of weight */
    uint64_t *mpos;   /* the points again, grouped by member: member m's */
    uint32_t *moff;   /* are mpos[moff[m] .. moff[m + 1]) (replicas) */
    uint32_t k;       /* probes per lookup */
    unsigned drop;    /* 64 - ring hash bits: probe reduction */
    uint64_t mask;    /* circle size - 1 */
} multiprobe_ring;

static int build(const rb_ring *hdr, rb_ring **out) {
    multiprobe_ring *r = malloc(sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    rb_ring one = *hdr;
    one.cfg.n_vnodes = 1; /* the points: vnode 0 of each unit of weight */
    int rc = rb_vnode_ring_build(&one, &r->vr);
    if (rc) {
        free(r);
        return rc;
    }
    uint32_t n = hdr->n_members;
    r->mpos = malloc((size_t)r->vr.n * sizeof *r->mpos);
    r->moff = calloc((size_t)n + 1, sizeof *r->moff);
    if (!r->mpos || !r->moff) {
        free(r->mpos), free(r->moff), rb_vnode_ring_free(&r->vr), free(r);
        return rb_set_error(RB_ENOMEM, "out of memory for %u points", n);
    }
    for (uint32_t i = 0; i < r->vr.n; i++)
        r->moff[r->vr.owner[i] + 1]++;
    for (uint32_t m = 0; m < n; m++)
        r->moff[m + 1] += r->moff[m];
    for (uint32_t i = 0, *fill = r->moff; i < r->vr.n; i++)
        r->mpos[fill[r->vr.owner[i]]++] = r->vr.pos[i]; /* moff[m] ends at m + 1's start */
    for (uint32_t m = n; m > 0; m--)
        r->moff[m] = r->moff[m - 1];
    r->moff[0] = 0;
    unsigned bits = hdr->cfg.ring_hash->bits;
    r->k = (uint32_t)rb_ring_param(hdr, "probes");
    r->drop = 64u - bits;
    r->mask = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
    *out = &r->hdr;
    return 0;
}

/* Index of the first point >= pos, or n (then the successor is point 0). */
static inline uint32_t successor(const rb_vnode_ring *vr, uint64_t pos) {
    uint32_t lo = 0, hi = vr->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (vr->pos[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the winning point: the closest successor of the k probes. */
static uint32_t winning_point(const multiprobe_ring *r, uint64_t pos) {
    uint64_t best_dist = UINT64_MAX;
    uint32_t best = 0;
    for (uint32_t i = 0; i < r->k; i++) {
        uint64_t probe = i ? rb_splitmix64_mix(pos + i * RB_SPLITMIX64_GAMMA) >> r->drop : pos;
        uint32_t s = successor(&r->vr, probe);
        if (s == r->vr.n) s = 0;
        uint64_t dist = (r->vr.pos[s] - probe) & r->mask;
        if (dist < best_dist) {
            best_dist = dist;
            best = s;
        }
    }
    return best;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const multiprobe_ring *r = (const multiprobe_ring *)ring;
    return r->vr.owner[winning_point(r, pos)];
}

/* A member's multi-probe score: the shortest clockwise distance from any
 * probe to one of its points (the owner has the smallest). */
static uint64_t member_score(const multiprobe_ring *r, const uint64_t *probes, uint32_t m) {
    uint64_t best = UINT64_MAX;
    for (uint32_t i = 0; i < r->k; i++)
        for (uint32_t j = r->moff[m]; j < r->moff[m + 1]; j++) {
            uint64_t d = (r->mpos[j] - probes[i]) & r->mask;
            if (d < best) best = d;
        }
    return best;
}

/* Replicas: the owner, then the other members by ascending score (ties to
 * the first in id order), by insertion into out[1 .. k). Each member's score
 * depends only on its own points, so adding or removing a member changes a
 * replica set only by that member entering or leaving. O(N k points). */
static uint32_t owners_k(const rb_ring *ring, uint32_t b, uint32_t *out, uint32_t k) {
    const multiprobe_ring *r = (const multiprobe_ring *)ring;
    uint64_t pos = ring->bucket_pos[b], probes[MULTIPROBE_MAX_K];
    for (uint32_t i = 0; i < r->k; i++)
        probes[i] = i ? rb_splitmix64_mix(pos + i * RB_SPLITMIX64_GAMMA) >> r->drop : pos;
    uint32_t n = ring->n_members, got = 1;
    if (k > n) k = n;
    out[0] = r->vr.owner[winning_point(r, pos)];
    for (uint32_t t = 0; t < n && k > 1; t++) {
        uint32_t m = ring->id_order[t];
        if (m == out[0]) continue;
        uint64_t s = member_score(r, probes, m);
        uint32_t at = got; /* after every entry scoring <= s (earlier in id order) */
        while (at > 1 && member_score(r, probes, out[at - 1]) > s)
            at--;
        if (at >= k) continue;
        for (uint32_t j = got < k ? got : k - 1; j > at; j--)
            out[j] = out[j - 1];
        out[at] = m;
        if (got < k) got++;
    }
    return got;
}

static size_t bytes_held(const rb_ring *ring) {
    const multiprobe_ring *r = (const multiprobe_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_vnode_ring_bytes(&r->vr) +
           (size_t)r->vr.n * sizeof *r->mpos + ((size_t)ring->n_members + 1) * sizeof *r->moff;
}

static void destroy(rb_ring *ring) {
    multiprobe_ring *r = (multiprobe_ring *)ring;
    rb_vnode_ring_free(&r->vr);
    free(r->mpos), free(r->moff), free(r);
}

static const rb_param_spec params[] = {
    {"probes", "k, probes per key; more probes, less spread (21: peak-to-mean ~1.05)",
     MULTIPROBE_DEFAULT_K, 1, MULTIPROBE_MAX_K, NULL},
};

const rb_algo rb_algo_multiprobe = {
    .name = "multiprobe",
    .description = "multi-probe consistent hashing: 1 point per member, k probes per key",
    .source = "Appleton & O'Reilly, Multi-probe consistent hashing, arXiv:1505.00062, 2015, sec. 2",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_MONOTONE,
    .build = build,
    .owner_position = owner_position,
    .owners_k = owners_k,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
};
