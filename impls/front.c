/*
 * front.c — the vnode ring of `linear` and `binary` (same points, same
 * owners on every position) behind a direct-mapped front table that answers
 * most lookups with one load and a compare or two.
 *
 * Layout: the sorted points of `binary` (rb_vnode_ring: 8 + 4 bytes per
 * vnode) and the front table of front_table.h over the top k bits of the
 * position (of the hash's width): S = 2^k 8-byte slots, S the smallest power
 * of two >= slots_per_point * n points, at most 2^max_bits (the defaults are
 * in `params` below; their measured choice is in bench/README.md, "front").
 * A slot answers every position with at most two owner changes in it (three
 * 12-bit owners, up to 4,095 members) or one (two 16-bit owners, up to
 * 65,535; `slot_owners`), else the lookup searches the ring from the slot's
 * first point; front_table.h has the layout and the shares of one-load
 * lookups.
 * Source: Karger et al., STOC 1997, sec. 4 (the ring); the front table is
 * the classic bucketed address calculation search (Knuth, TAOCP vol. 3,
 * 6.2.1 and 6.4), with slots of few owner changes resolved in the table.
 */
#include <stdlib.h>

#include "front_table.h"
#include "ring_impl.h"
#include "vnode_ring.h"

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr;
    rb_front_table ft;
} front_ring;

static int build(const rb_ring *hdr, rb_ring **out) {
    front_ring *r = malloc(sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    int rc = rb_vnode_ring_build(hdr, &r->vr);
    if (rc) {
        free(r);
        return rc;
    }
    rc = rb_front_table_build(&r->ft, &r->vr, hdr->cfg.ring_hash->bits,
                              rb_ring_param(hdr, "slots_per_point"), rb_ring_param(hdr, "max_bits"),
                              rb_ring_param(hdr, "slot_owners"), hdr->n_members);
    if (rc) {
        rb_vnode_ring_free(&r->vr);
        free(r);
        return rc;
    }
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const front_ring *r = (const front_ring *)ring;
    return rb_front_table_owner(&r->ft, &r->vr, pos);
}

/* Replicas: the ring walk from the bucket's point, the same owners as
 * `binary`'s (a slot need not hold a point index, so search from point 0). */
static uint32_t owners_k(const rb_ring *ring, uint32_t b, uint32_t *out, uint32_t k) {
    const front_ring *r = (const front_ring *)ring;
    return rb_vnode_ring_walk(
        &r->vr, rb_vnode_ring_find_from(&r->vr, 0, r->vr.n, ring->bucket_pos[b]), out, k);
}

static size_t bytes_held(const rb_ring *ring) {
    const front_ring *r = (const front_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_vnode_ring_bytes(&r->vr) + rb_front_table_bytes(&r->ft);
}

static void destroy(rb_ring *ring) {
    front_ring *r = (front_ring *)ring;
    rb_vnode_ring_free(&r->vr);
    rb_front_table_free(&r->ft);
    free(r);
}

static const rb_param_spec params[] = {
    {"slots_per_point",
     "front table slots per vnode (rounded up to a power of two in total; 8 bytes each); more "
     "slots, more one-load lookups",
     RB_FRONT_DEFAULT_SPP, 1, 64, NULL},
    {"max_bits",
     "at most 2^max_bits front table slots; a table past the caches costs more in misses than its "
     "one-load slots save",
     RB_FRONT_DEFAULT_MAX_BITS, 1, RB_FRONT_MAX_BITS, NULL},
    {"slot_owners",
     "owners per slot: 3 (two owner changes answered in the slot; up to 4,095 members) or 2 (one "
     "change; up to 65,535)",
     RB_FRONT_DEFAULT_SLOT_OWNERS, 2, 3, NULL},
};

const rb_algo rb_algo_front = {
    .name = "front",
    .description = "binary's vnode ring behind a direct-mapped front table (one load when a slot "
                   "has at most two owner changes)",
    .source = "Karger et al., Consistent Hashing and Random Trees, STOC 1997, sec. 4; front table: "
              "Knuth, TAOCP vol. 3, 6.2.1",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_USES_VNODES | RB_ALGO_MONOTONE |
             RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .owners_k = owners_k,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
};
