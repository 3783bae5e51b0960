/*
 * front.c — the vnode ring of `linear` and `binary` (same points, same
 * owners on every position) behind a direct-mapped front table that answers
 * most lookups with one load.
 *
 * Layout: the sorted points of `binary` (rb_vnode_ring: 8 + 4 bytes per
 * vnode) and a front table of S = 2^k 8-byte slots over the top k bits of
 * the position (of the hash's width w), with S the smallest power of two >=
 * slots_per_point * n points, at most 2^max_bits (defaults 2 and 18: at
 * N 1,024, V 128, 2^18 slots, 2 MiB). Slot t covers the positions whose top
 * k bits are t. With i(t) the first point at or after the slot's first
 * position, every position of the slot is owned by one of the points
 * i(t) .. i(t + 1) (i(t + 1) = n is the wrap to point 0). A boundary is a
 * point of the slot whose owner differs from the next point's. A slot holds
 * { bound: 32 bits, a: 16 bits, b: 16 bits } packed in a uint64_t:
 *   - no boundary: a = b = the owner; the lookup is that one load;
 *   - one boundary q: a = q's owner, b = the next point's, bound = u(q),
 *     where u(x) is the top 32 bits of x's offset in the slot (its w - k
 *     low bits; all of them when w - k <= 32). A position x of the slot is
 *     a's when x <= q, so u(x) < bound means a and u(x) > bound means b: one
 *     load and one compare. u(x) == bound (x and q agree on the offset's top
 *     32 bits; about 2^-32 of the lookups at 64 bits) falls back to the
 *     ring's binary search, so the owners stay exact;
 *   - two boundaries or more: a = b = FRONT_SEARCH, bound = i(t): the lookup
 *     steps forward from i(t) (two branch-free steps, then a binary search
 *     up to the end of the ring for rare crowded slots).
 * Owners are 16-bit member indices: with more than 65,535 members every
 * slot is a search slot (still exact, no longer one load).
 * With p = slots_per_point a slot holds about 1/p points, Poisson; nearly
 * every point is a boundary when N is large, so about e^(-1/p) (1 + 1/p) of
 * the slots answer with one load (74% at p = 1, 91% at 2, 97% at 4), where
 * a table of owners alone answers only the slots without a point (37%, 61%,
 * 78%). More slots per point trade bytes (8p per vnode) and cache misses
 * for fewer searches; max_bits caps the bytes (the measured choice is in
 * bench/README.md, "front").
 * Source: Karger et al., STOC 1997, sec. 4 (the ring); the front table is
 * the classic bucketed address calculation search (Knuth, TAOCP vol. 3,
 * 6.2.1 and 6.4), with slots of at most one boundary resolved in the table.
 */
#include <stdlib.h>

#include "ring_impl.h"
#include "vnode_ring.h"

#define FRONT_SEARCH 0xFFFFu /* a slot's owner field: search from the point index in bound */
#define FRONT_MAX_BITS 26    /* at most 2^26 slots (512 MiB) */
#define FRONT_DEFAULT_SPP 2
#define FRONT_DEFAULT_MAX_BITS 18 /* 2 MiB: see max_bits */

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr;
    uint64_t *slot; /* n_slots entries: bound | a << 32 | b << 48 */
    size_t n_slots;
    unsigned shift;  /* position >> shift = slot number (top k bits of w) */
    unsigned ushift; /* (position << ushift) >> 32 = u(position), 64 - shift */
} front_ring;

/* k: the smallest power of two >= spp * n slots, within [1, bits] and
 * max_bits (>= 1 keeps the shift below the hash width). */
static unsigned front_bits(uint64_t spp, uint64_t max_bits, uint32_t n, unsigned bits) {
    unsigned k = 1;
    while (k < max_bits && ((uint64_t)1 << k) < spp * n)
        k++;
    return k < bits ? k : bits;
}

static inline uint64_t front_slot(uint32_t bound, uint32_t a, uint32_t b) {
    return (uint64_t)bound | (uint64_t)a << 32 | (uint64_t)b << 48;
}

/* u(pos): the top 32 bits of pos's offset in its slot. */
static inline uint32_t front_u(const front_ring *r, uint64_t pos) {
    return (uint32_t)((pos << r->ushift) >> 32);
}

/* One slot from its points first .. i - 1 and the next point i (n: the wrap
 * to point 0): no boundary, one, or a search from `first`. */
static uint64_t front_slot_of_points(const front_ring *r, uint32_t first, uint32_t i) {
    const rb_vnode_ring *vr = &r->vr;
    if (r->hdr.n_members > FRONT_SEARCH) return front_slot(first, FRONT_SEARCH, FRONT_SEARCH);
    uint32_t n_bounds = 0, q = first;
    for (uint32_t j = first; j < i && n_bounds < 2; j++)
        if (vr->owner[j] != vr->owner[j + 1 == vr->n ? 0 : j + 1]) n_bounds++, q = j;
    uint32_t next = vr->owner[i == vr->n ? 0 : i];
    if (n_bounds == 0) return front_slot(0, next, next);
    if (n_bounds == 1)
        return front_slot(front_u(r, vr->pos[q]), vr->owner[q],
                          vr->owner[q + 1 == vr->n ? 0 : q + 1]);
    return front_slot(first, FRONT_SEARCH, FRONT_SEARCH);
}

/* Fill the slots: i(t) by one sweep over the sorted points. */
static void front_fill(front_ring *r) {
    const rb_vnode_ring *vr = &r->vr;
    uint32_t i = 0;
    for (size_t t = 0; t < r->n_slots; t++) {
        uint32_t first = i;                            /* i(t) */
        uint64_t next = (uint64_t)(t + 1) << r->shift; /* first position of slot t + 1 */
        while (i < vr->n && (t + 1 == r->n_slots || vr->pos[i] < next))
            i++;
        r->slot[t] = front_slot_of_points(r, first, i); /* i = i(t + 1) */
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
    r->ushift = 64 - r->shift;
    size_t n_slots = (size_t)1 << k;
    r->n_slots = n_slots;
    r->slot = malloc(n_slots * sizeof *r->slot);
    if (!r->slot) {
        rb_vnode_ring_free(&r->vr);
        free(r);
        return rb_set_error(RB_ENOMEM, "out of memory for a front table of %zu slots", n_slots);
    }
    front_fill(r);
    *out = &r->hdr;
    return 0;
}

/* The rare lookups the slot's one compare does not answer: a search slot, a
 * position past a 32-bit hash's range (t >= n_slots: beyond every point, so
 * point 0), or u(pos) equal to the slot's bound. */
static uint32_t front_slow(const front_ring *r, uint64_t t, uint64_t pos) {
    if (t >= r->n_slots) return r->vr.owner[0];
    uint64_t e = r->slot[t];
    uint32_t a = (uint32_t)(e >> 32) & 0xFFFF, b = (uint32_t)(e >> 48);
    if (a == FRONT_SEARCH)
        return r->vr.owner[rb_vnode_ring_find_from(&r->vr, (uint32_t)e, r->vr.n, pos)];
    if (a == b) return a;
    return r->vr.owner[rb_vnode_ring_find_from(&r->vr, 0, r->vr.n, pos)];
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const front_ring *r = (const front_ring *)ring;
    uint64_t t = pos >> r->shift;
    if (t < r->n_slots) {
        uint64_t e = r->slot[t];
        uint32_t u = front_u(r, pos), bound = (uint32_t)e;
        uint32_t owner = (uint32_t)(e >> (u < bound ? 32 : 48)) & 0xFFFF;
        if (u != bound && owner != FRONT_SEARCH) return owner;
    }
    return front_slow(r, t, pos);
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
     "front table slots per vnode (rounded up to a power of two in total; 8 bytes each); more "
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
