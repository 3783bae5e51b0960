/*
 * front.c — the vnode ring of `linear` and `binary` (same points, same
 * owners on every position) behind a direct-mapped front table that answers
 * most lookups with one load and a compare or two.
 *
 * Layout: the sorted points of `binary` (rb_vnode_ring: 8 + 4 bytes per
 * vnode) and a front table of S = 2^k 8-byte slots over the top k bits of
 * the position (of the hash's width w), with S the smallest power of two >=
 * slots_per_point * n points, at most 2^max_bits (the defaults are in
 * `params` below; their measured choice is in bench/README.md, "front").
 * Slot t covers the positions whose top k bits are t. With i(t) the first
 * point at or after the slot's first position, every position of the slot
 * is owned by one of the points i(t) .. i(t + 1) (i(t + 1) = n is the wrap
 * to point 0). A change is a point of the slot whose owner differs from the
 * next point's: a position x of the slot is owned, up to and including the
 * slot's first change q1, by q1's owner, then up to the next change by the
 * owner after q1, and so on. So a slot with at most c changes is answered
 * by c + 1 owners and the c change positions: x <= q means before q.
 * The slot stores the changes' offsets in the slot truncated to their top
 * bits, u(q); u(x) < u(q) means x < q and u(x) > u(q) means x > q, and
 * u(x) == u(q) (rare: 2^-14 or 2^-32 of the lookups per change at 64 bits)
 * falls back to the ring's binary search, so the owners stay exact.
 * Two formats (the layouts are beside FRONT_SEARCH2 / FRONT_SEARCH3):
 *   - three owners, two changes (slot_owners=3, the default, when N <=
 *     4,095 and n < 2^28): 12-bit owners and two 14-bit u;
 *   - two owners, one change (slot_owners=2, or N up to 65,535): 16-bit
 *     owners and a 32-bit u; past 65,535 members every slot searches.
 * A slot with more changes holds i(t), and the lookup steps forward from it
 * (two branch-free steps, then a binary search up to the end of the ring for
 * rare crowded slots).
 * With p = slots_per_point a slot holds about 1/p points, Poisson, and
 * nearly every point is a change when N is large; so about e^(-1/p) (1 +
 * 1/p + 1/(2p^2)) of the slots answer in the table with three owners (92%
 * at p = 1, 99% at 2), e^(-1/p) (1 + 1/p) with two (74%, 91%), where a table
 * of owners alone answers only the slots without a point (37%, 61%). More
 * slots trade bytes (8p per vnode) and cache misses for fewer searches;
 * max_bits caps the bytes.
 * Source: Karger et al., STOC 1997, sec. 4 (the ring); the front table is
 * the classic bucketed address calculation search (Knuth, TAOCP vol. 3,
 * 6.2.1 and 6.4), with slots of few owner changes resolved in the table.
 */
#include <stdlib.h>

#include "ring_impl.h"
#include "vnode_ring.h"

/* Two slot formats, chosen at build (both a uint64_t):
 *   three owners (N <= 4,095 and n < 2^28): bits 0-13 bound1, 14-27
 *     bound2, 28-39 / 40-51 / 52-63 owners o0, o1, o2 (12 bits each); the
 *     bounds are the top 14 bits of the slot offset of the slot's two owner
 *     changes (o0 up to the first, o1 up to the second, o2 after); a slot
 *     with one change has bound1 = bound2 and o1 = o2; a search slot has
 *     o0 = o1 = o2 = 0xFFF and i(t) in bits 0-27;
 *   two owners (larger): bits 0-31 the bound (top 32 offset bits of the one
 *     change), 32-47 / 48-63 owners a, b (16 bits); a search slot has
 *     a = b = 0xFFFF and i(t) in bits 0-31; with N > 65,535 every slot is a
 *     search slot. */
#define FRONT_SEARCH2 0xFFFFu /* two-owner format: search from the point index in bits 0-31 */
#define FRONT_SEARCH3 0xFFFu  /* three-owner format: search from the point index in bits 0-27 */
#define FRONT_MAX_BITS 26     /* at most 2^26 slots (512 MiB) */
#define FRONT_DEFAULT_SPP 2
#define FRONT_DEFAULT_MAX_BITS 18 /* 2 MiB: see max_bits */

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr;
    uint64_t *slot; /* n_slots entries, in one of the two formats */
    size_t n_slots;
    unsigned shift;  /* position >> shift = slot number (top k bits of w) */
    unsigned ushift; /* position << ushift = its slot offset, at the top of 64 bits */
    int three;       /* the three-owner format */
} front_ring;

/* k: the smallest power of two >= spp * n slots, within [1, bits] and
 * max_bits (>= 1 keeps the shift below the hash width). */
static unsigned front_bits(uint64_t spp, uint64_t max_bits, uint32_t n, unsigned bits) {
    unsigned k = 1;
    while (k < max_bits && ((uint64_t)1 << k) < spp * n)
        k++;
    return k < bits ? k : bits;
}

/* u(pos): the top 32 (two-owner) or 14 (three-owner) bits of pos's offset
 * in its slot. */
static inline uint32_t front_u(const front_ring *r, uint64_t pos) {
    return (uint32_t)((pos << r->ushift) >> (r->three ? 50 : 32));
}

static inline uint64_t slot2(uint32_t bound, uint32_t a, uint32_t b) {
    return (uint64_t)bound | (uint64_t)a << 32 | (uint64_t)b << 48;
}

static inline uint64_t slot3(uint32_t b1, uint32_t b2, uint32_t o0, uint32_t o1, uint32_t o2) {
    return (uint64_t)b1 | (uint64_t)b2 << 14 | (uint64_t)o0 << 28 | (uint64_t)o1 << 40 |
           (uint64_t)o2 << 52;
}

/* One slot from its points first .. i - 1 and the next point i (n: the wrap
 * to point 0). A change is a point whose owner differs from the next one's. */
static uint64_t front_slot_of_points(const front_ring *r, uint32_t first, uint32_t i) {
    const rb_vnode_ring *vr = &r->vr;
    uint32_t n = vr->n, max = r->three ? 2 : 1, n_ch = 0, q[3];
    if (!r->three && r->hdr.n_members > FRONT_SEARCH2)
        return slot2(first, FRONT_SEARCH2, FRONT_SEARCH2);
    for (uint32_t j = first; j < i && n_ch <= max; j++)
        if (vr->owner[j] != vr->owner[j + 1 == n ? 0 : j + 1]) q[n_ch++] = j;
    if (n_ch > max)
        return r->three
                   ? slot3(first & 0x3FFF, first >> 14, FRONT_SEARCH3, FRONT_SEARCH3, FRONT_SEARCH3)
                   : slot2(first, FRONT_SEARCH2, FRONT_SEARCH2);
    uint32_t o[3], u[2] = {0, 0};
    o[0] = vr->owner[n_ch ? q[0] : i == n ? 0 : i];
    for (uint32_t c = 0; c < n_ch; c++) {
        u[c] = front_u(r, vr->pos[q[c]]);
        o[c + 1] = vr->owner[q[c] + 1 == n ? 0 : q[c] + 1];
    }
    for (uint32_t c = n_ch + 1; c < 3; c++) /* no more changes: the last owner holds */
        o[c] = o[c - 1];
    if (n_ch == 1) u[1] = u[0];
    return r->three ? slot3(u[0], u[1], o[0], o[1], o[2]) : slot2(u[0], o[0], o[1]);
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
    r->three = rb_ring_param(hdr, "slot_owners") == 3 && hdr->n_members <= FRONT_SEARCH3 &&
               r->vr.n < (1u << 28);
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

/* The rare lookups a slot's compares do not answer: a search slot, a
 * position past a 32-bit hash's range (t >= n_slots: beyond every point, so
 * point 0), or u(pos) equal to a bound of the slot. */
static uint32_t front_slow(const front_ring *r, uint64_t t, uint64_t pos) {
    const rb_vnode_ring *vr = &r->vr;
    if (t >= r->n_slots) return vr->owner[0];
    uint64_t e = r->slot[t];
    uint32_t o0, o1, o2, search, from;
    if (r->three)
        o0 = (uint32_t)(e >> 28) & 0xFFF, o1 = (uint32_t)(e >> 40) & 0xFFF,
        o2 = (uint32_t)(e >> 52), search = FRONT_SEARCH3, from = (uint32_t)e & 0xFFFFFFF;
    else
        o0 = (uint32_t)(e >> 32) & 0xFFFF, o1 = o2 = (uint32_t)(e >> 48), search = FRONT_SEARCH2,
        from = (uint32_t)e;
    if (o0 == search) return vr->owner[rb_vnode_ring_find_from(vr, from, vr->n, pos)];
    if (o0 == o1 && o1 == o2) return o0; /* no change in the slot */
    return vr->owner[rb_vnode_ring_find_from(vr, 0, vr->n, pos)];
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const front_ring *r = (const front_ring *)ring;
    uint64_t t = pos >> r->shift;
    if (t < r->n_slots) {
        uint64_t e = r->slot[t], off = pos << r->ushift;
        if (r->three) {
            uint32_t u = (uint32_t)(off >> 50), b1 = (uint32_t)e & 0x3FFF,
                     b2 = (uint32_t)(e >> 14) & 0x3FFF;
            uint32_t owner = (uint32_t)(e >> (28 + 12 * ((u > b1) + (u > b2)))) & 0xFFF;
            if (u != b1 && u != b2 && owner != FRONT_SEARCH3) return owner;
        } else {
            uint32_t u = (uint32_t)(off >> 32), bound = (uint32_t)e;
            uint32_t owner = (uint32_t)(e >> (u < bound ? 32 : 48)) & 0xFFFF;
            if (u != bound && owner != FRONT_SEARCH2) return owner;
        }
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
    {"slot_owners",
     "owners per slot: 3 (two owner changes answered in the slot; up to 4,095 members) or 2 (one "
     "change; up to 65,535)",
     3, 2, 3, NULL},
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
