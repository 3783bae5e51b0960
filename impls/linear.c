/*
 * linear.c — the seed's lookupOwner: the sorted vnode ring searched by a
 * linear scan for the first point at or after the position, wrapping to the
 * first point. O(N*V) per lookup. The reference oracle the other ring
 * searches must agree with. Source: Karger et al., STOC 1997, section 4;
 * the seed's `lookupOwner`.
 */
#include <stdlib.h>

#include "ring_impl.h"
#include "vnode_ring.h"

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr;
} linear_ring;

static int build(const rb_ring *hdr, rb_ring **out) {
    linear_ring *r = malloc(sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    int rc = rb_vnode_ring_build(hdr, &r->vr);
    if (rc) {
        free(r);
        return rc;
    }
    *out = &r->hdr;
    return 0;
}

/* Index of the first point >= pos; 0 past the last point (wrap around). */
static uint32_t first_point(const rb_vnode_ring *vr, uint64_t pos) {
    for (uint32_t i = 0; i < vr->n; i++)
        if (vr->pos[i] >= pos) return i;
    return 0;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const rb_vnode_ring *vr = &((const linear_ring *)ring)->vr;
    return vr->owner[first_point(vr, pos)];
}

/* Replicas: the ring walk from the bucket's point (rb_vnode_ring_walk). */
static uint32_t owners_k(const rb_ring *ring, uint32_t b, uint32_t *out, uint32_t k) {
    const rb_vnode_ring *vr = &((const linear_ring *)ring)->vr;
    return rb_vnode_ring_walk(vr, first_point(vr, ring->bucket_pos[b]), out, k);
}

static size_t bytes_held(const rb_ring *ring) {
    return sizeof(linear_ring) - sizeof(rb_ring) +
           rb_vnode_ring_bytes(&((const linear_ring *)ring)->vr);
}

static void destroy(rb_ring *ring) {
    linear_ring *r = (linear_ring *)ring;
    rb_vnode_ring_free(&r->vr);
    free(r);
}

const rb_algo rb_algo_linear = {
    .name = "linear",
    .description = "sorted vnode ring, linear scan (the seed's lookupOwner; reference oracle)",
    .source = "Karger et al., Consistent Hashing and Random Trees, STOC 1997, sec. 4",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_USES_VNODES | RB_ALGO_MONOTONE |
             RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .owners_k = owners_k,
    .bytes_held = bytes_held,
    .destroy = destroy,
};
