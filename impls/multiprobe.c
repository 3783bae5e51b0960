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
 */
#include <stdlib.h>

#include "ring_impl.h"
#include "vnode_ring.h"

#define MULTIPROBE_DEFAULT_K 21u       /* probes: the paper's example (PTM ~1.05) */
#define MULTIPROBE_MAX_K 1024u         /* k binary searches per lookup */
#define PROBE_GAMMA 0x9e3779b97f4a7c15ULL /* SplitMix64's increment: probe spacing */

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr; /* one point per unit of weight */
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
    unsigned bits = hdr->cfg.ring_hash->bits;
    r->k = (uint32_t)rb_ring_param(hdr, "probes");
    r->drop = 64u - bits;
    r->mask = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
    *out = &r->hdr;
    return 0;
}

static inline uint64_t probe_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
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

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const multiprobe_ring *r = (const multiprobe_ring *)ring;
    uint64_t best_dist = UINT64_MAX;
    uint32_t best = 0;
    for (uint32_t i = 0; i < r->k; i++) {
        uint64_t probe = i ? probe_mix(pos + i * PROBE_GAMMA) >> r->drop : pos;
        uint32_t s = successor(&r->vr, probe);
        if (s == r->vr.n) s = 0;
        uint64_t dist = (r->vr.pos[s] - probe) & r->mask;
        if (dist < best_dist) {
            best_dist = dist;
            best = s;
        }
    }
    return r->vr.owner[best];
}

static uint32_t owner_bucket(const rb_ring *ring, uint32_t b) {
    return owner_position(ring, ring->bucket_pos[b]);
}

static size_t bytes_held(const rb_ring *ring) {
    const multiprobe_ring *r = (const multiprobe_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_vnode_ring_bytes(&r->vr);
}

static void destroy(rb_ring *ring) {
    multiprobe_ring *r = (multiprobe_ring *)ring;
    rb_vnode_ring_free(&r->vr);
    free(r);
}

static const rb_param_spec params[] = {
    {"probes", "k, probes per key; more probes, less spread (21: peak-to-mean ~1.05)",
     MULTIPROBE_DEFAULT_K, 1, MULTIPROBE_MAX_K, NULL},
};

const rb_algo rb_algo_multiprobe = {
    .name = "multiprobe",
    .description = "multi-probe consistent hashing: 1 point per member, k probes per key (--param probes, 21)",
    .source = "Appleton & O'Reilly, Multi-probe consistent hashing, arXiv:1505.00062, 2015, sec. 2",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_MONOTONE,
    .build = build,
    .owner_position = owner_position,
    .owner_bucket = owner_bucket,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
};
