/*
 * front.c — the vnode ring of `linear` and `binary` (same points, same
 * owners on every position) behind a direct-mapped front table that answers
 * most lookups with one load.
 *
 * Layout: the sorted points of `binary` (rb_vnode_ring: 8 + 4 bytes per
 * vnode) and a front table of S = 2^k 32-bit slots over the top k bits of
 * the position (of the hash's width), with S the smallest power of two >=
 * slots_per_point * n points, at most 2^max_bits (default 2^17 slots, 512
 * KiB: at N 1,024, V 128 a 2 MiB table measured 1.5x slower in latency than
 * 512 KiB on the reference machine, the misses outweighing the extra
 * one-load slots). Slot t covers the
 * positions whose top k bits are t. With i(t) the first point at or after
 * the slot's first position, every position of the slot is owned by one of
 * the points i(t) .. i(t + 1) (i(t + 1) = n is the wrap to point 0):
 *   - if all of them have the same owner, the slot holds that owner with the
 *     top bit set (FRONT_PURE): the lookup is that one load;
 *   - else the slot holds i(t), and the lookup steps forward over the slot's
 *     few points below the position (two branch-free steps, then a binary
 *     search up to the end of the ring for rare crowded slots).
 * With p = slots_per_point a slot holds about 1/p points, so about e^(-1/p)
 * of the slots are pure (78% at the default 4); more slots per point trade
 * bytes (4p per vnode) for fewer searches.
 * Source: Karger et al., STOC 1997, sec. 4 (the ring); the front table is
 * the classic bucketed address calculation search (Knuth, TAOCP vol. 3,
 * 6.2.1 and 6.4), with pure buckets resolved in the table itself.
 */
#include <stdlib.h>

#include "ring_impl.h"
#include "vnode_ring.h"

#define FRONT_PURE 0x80000000u /* slot holds an owner, not a point index */
#define FRONT_MAX_BITS 26      /* at most 2^26 slots (256 MiB) */
#define FRONT_DEFAULT_SPP 4
#define FRONT_DEFAULT_MAX_BITS 17 /* 512 KiB: see max_bits */

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr;
    uint32_t *slot; /* n_slots entries: owner | FRONT_PURE, or a point index */
    size_t n_slots;
    unsigned shift; /* position >> shift = slot number (top k bits) */
} front_ring;

/* k: the smallest power of two >= spp * n slots, within [1, bits] and
 * max_bits (>= 1 keeps the shift below the hash width). */
static unsigned front_bits(uint64_t spp, uint64_t max_bits, uint32_t n, unsigned bits) {
    unsigned k = 1;
    while (k < max_bits && ((uint64_t)1 << k) < spp * n)
        k++;
    return k < bits ? k : bits;
}

/* Fill the slots: i(t) by one sweep over the sorted points, then each slot's
 * owner when every point owning a position of the slot has the same one. */
static void front_fill(front_ring *r) {
    const rb_vnode_ring *vr = &r->vr;
    uint32_t i = 0;
    for (size_t t = 0; t < r->n_slots; t++) {
        uint32_t first = i;                            /* i(t) */
        uint64_t next = (uint64_t)(t + 1) << r->shift; /* first position of slot t + 1 */
        while (i < vr->n && (t + 1 == r->n_slots || vr->pos[i] < next))
            i++;
        /* i = i(t + 1); the slot's positions map to points first .. i (mod n) */
        uint32_t owner = vr->owner[i == vr->n ? 0 : i];
        uint32_t j = first;
        while (j < i && vr->owner[j] == owner)
            j++;
        r->slot[t] = j == i ? owner | FRONT_PURE : first;
    }
}

static int build(const rb_ring *hdr, rb_ring **out) {
    front_ring *r = malloc(sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    int rc = rb_vnode_ring_build(hdr, &r->vr);
    if (rc) {
        free(r);
        return rc;
    }
    unsigned bits = hdr->cfg.ring_hash->bits;
    unsigned k = front_bits(rb_ring_param(hdr, "slots_per_point"), rb_ring_param(hdr, "max_bits"),
                            r->vr.n, bits);
    r->shift = bits - k;
    size_t n_slots = (size_t)1 << k;
    r->n_slots = n_slots;
    r->slot = r->vr.n < FRONT_PURE ? malloc(n_slots * sizeof *r->slot) : NULL;
    if (!r->slot) {
        rb_vnode_ring_free(&r->vr);
        free(r);
        return rb_set_error(RB_ENOMEM, "out of memory for a front table of %zu slots", n_slots);
    }
    front_fill(r);
    *out = &r->hdr;
    return 0;
}

static inline uint32_t slot_of(const front_ring *r, uint64_t pos) {
    uint64_t t = pos >> r->shift;
    return t < r->n_slots ? (uint32_t)t : (uint32_t)(r->n_slots - 1); /* past a 32-bit range */
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const front_ring *r = (const front_ring *)ring;
    uint32_t e = r->slot[slot_of(r, pos)];
    if (e & FRONT_PURE) return e & ~FRONT_PURE;
    return r->vr.owner[rb_vnode_ring_find_from(&r->vr, e, r->vr.n, pos)];
}

/* Replicas: the ring walk from the bucket's point, the same owners as
 * `binary`'s (a pure slot holds no point index, so search from point 0). */
static uint32_t owners_k(const rb_ring *ring, uint32_t b, uint32_t *out, uint32_t k) {
    const front_ring *r = (const front_ring *)ring;
    return rb_vnode_ring_walk(
        &r->vr, rb_vnode_ring_find_from(&r->vr, 0, r->vr.n, ring->bucket_pos[b]), out, k);
}

static size_t bytes_held(const rb_ring *ring) {
    const front_ring *r = (const front_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_vnode_ring_bytes(&r->vr) + r->n_slots * sizeof *r->slot;
}

static void destroy(rb_ring *ring) {
    front_ring *r = (front_ring *)ring;
    rb_vnode_ring_free(&r->vr);
    free(r->slot);
    free(r);
}

static const rb_param_spec params[] = {
    {"slots_per_point",
     "front table slots per vnode (rounded up to a power of two in total; 4 bytes each); more "
     "slots, more one-load lookups",
     FRONT_DEFAULT_SPP, 1, 64, NULL},
    {"max_bits",
     "at most 2^max_bits front table slots; a table past the caches costs more in misses than its "
     "one-load slots save",
     FRONT_DEFAULT_MAX_BITS, 1, FRONT_MAX_BITS, NULL},
};

const rb_algo rb_algo_front = {
    .name = "front",
    .description = "binary's vnode ring behind a direct-mapped front table (one load when a slot "
                   "has one owner)",
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
