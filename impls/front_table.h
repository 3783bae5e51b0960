/*
 * front_table.h — internal: a direct-mapped front table over any sorted
 * continuum of positions -> owners (an rb_vnode_ring), answering most
 * lookups "owner of the first point >= pos, wrapping to point 0" with one
 * load and a compare or two. Used by `front` (binary's vnode ring, 64- or
 * 32-bit positions) and `ketama` (libketama's 32-bit MD5 continuum). Not a
 * public header.
 *
 * Layout: S = 2^k 8-byte slots over the top k bits of the position (of
 * width `bits`), with S the smallest power of two >= slots_per_point * n
 * points, at most 2^max_bits. Slot t covers the positions whose top k bits
 * are t. With i(t) the first point at or after the slot's first position,
 * every position of the slot is owned by one of the points i(t) .. i(t + 1)
 * (i(t + 1) = n is the wrap to point 0). A change is a point of the slot
 * whose owner differs from the next point's: a position x of the slot is
 * owned, up to and including the slot's first change q1, by q1's owner,
 * then up to the next change by the owner after q1, and so on. So a slot
 * with at most c changes is answered by c + 1 owners and the c change
 * positions: x <= q means before q. The slot stores the changes' offsets in
 * the slot truncated to their top bits, u(q); u(x) < u(q) means x < q and
 * u(x) > u(q) means x > q, and u(x) == u(q) (rare: 2^-14 or 2^-32 of the
 * lookups per change at 64 bits) falls back to the continuum's binary
 * search, so the owners stay exact.
 * Two formats (the layouts are beside RB_FRONT_SEARCH2 / RB_FRONT_SEARCH3):
 *   - three owners, two changes (slot_owners=3, when N <= 4,095 and
 *     n < 2^28): 12-bit owners and two 14-bit u;
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
 * slots trade bytes (8p per point) and cache misses for fewer searches;
 * max_bits caps the bytes.
 * Source: the classic bucketed address calculation search (Knuth, TAOCP
 * vol. 3, 6.2.1 and 6.4), with slots of few owner changes resolved in the
 * table.
 */
#ifndef RINGBENCH_FRONT_TABLE_H
#define RINGBENCH_FRONT_TABLE_H

#include <stddef.h>
#include <stdint.h>

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
#define RB_FRONT_SEARCH2 0xFFFFu /* two-owner format: search from the point index in bits 0-31 */
#define RB_FRONT_SEARCH3 0xFFFu  /* three-owner format: search from the point index in bits 0-27 */
#define RB_FRONT_MAX_BITS 26     /* at most 2^26 slots (512 MiB) */
#define RB_FRONT_DEFAULT_SPP 2
#define RB_FRONT_DEFAULT_MAX_BITS 18 /* 2 MiB: see bench/README.md, "front" */
#define RB_FRONT_DEFAULT_SLOT_OWNERS 3

typedef struct rb_front_table {
    uint64_t *slot; /* n_slots entries, in one of the two formats */
    size_t n_slots;
    unsigned shift;  /* position >> shift = slot number (top k bits of the width) */
    unsigned ushift; /* position << ushift = its slot offset, at the top of 64 bits */
    int three;       /* the three-owner format */
} rb_front_table;

/*
 * rb_front_table_build — the front table of the sorted continuum `vr`
 * (positions < 2^bits, owners < n_members, n >= 1 points; `vr` must outlive
 * the table and stay unchanged). bits in [1, 64]; slots_per_point in
 * [1, 64], max_bits in [1, RB_FRONT_MAX_BITS], slot_owners 2 or 3 (3 falls
 * back to 2 past 4,095 members or 2^28 points). 0, or RB_ENOMEM with a
 * detail (nothing allocated then). The built table is immutable and safe
 * for concurrent lookups.
 */
int rb_front_table_build(rb_front_table *ft, const rb_vnode_ring *vr, unsigned bits,
                         uint64_t slots_per_point, uint64_t max_bits, uint64_t slot_owners,
                         uint32_t n_members);

/* The lookups the slot's compares do not answer (a search slot, a position
 * past a 32-bit hash's range, u(pos) equal to a bound of the slot): the
 * continuum's search. Pure. Inline like the fast path: as a call, its
 * arguments cost `front` 2% more instructions per lookup in the gate. */
static inline uint32_t rb_front_table_slow(const rb_front_table *ft, const rb_vnode_ring *vr,
                                           uint64_t t, uint64_t pos) {
    if (t >= ft->n_slots) return vr->owner[0]; /* past a 32-bit hash's range: the wrap */
    uint64_t e = ft->slot[t];
    uint32_t o0, o1, o2, search, from;
    if (ft->three)
        o0 = (uint32_t)(e >> 28) & 0xFFF, o1 = (uint32_t)(e >> 40) & 0xFFF,
        o2 = (uint32_t)(e >> 52), search = RB_FRONT_SEARCH3, from = (uint32_t)e & 0xFFFFFFF;
    else
        o0 = (uint32_t)(e >> 32) & 0xFFFF, o1 = o2 = (uint32_t)(e >> 48), search = RB_FRONT_SEARCH2,
        from = (uint32_t)e;
    if (o0 == search) return vr->owner[rb_vnode_ring_find_from(vr, from, vr->n, pos)];
    if (o0 == o1 && o1 == o2) return o0; /* no change in the slot */
    return vr->owner[rb_vnode_ring_find_from(vr, 0, vr->n, pos)];
}

/*
 * rb_front_table_owner — the owner of position `pos` (< 2^bits) on `vr`:
 * the owner of the first point >= pos, wrapping to point 0; exactly
 * vr->owner[rb_vnode_ring_find_from(vr, 0, vr->n, pos)]. Pure; one load of
 * the table for most lookups.
 */
static inline uint32_t rb_front_table_owner(const rb_front_table *ft, const rb_vnode_ring *vr,
                                            uint64_t pos) {
    uint64_t t = pos >> ft->shift;
    if (t < ft->n_slots) {
        uint64_t e = ft->slot[t], off = pos << ft->ushift;
        if (ft->three) {
            uint32_t u = (uint32_t)(off >> 50), b1 = (uint32_t)e & 0x3FFF,
                     b2 = (uint32_t)(e >> 14) & 0x3FFF;
            uint32_t owner = (uint32_t)(e >> (28 + 12 * ((u > b1) + (u > b2)))) & 0xFFF;
            if (u != b1 && u != b2 && owner != RB_FRONT_SEARCH3) return owner;
        } else {
            uint32_t u = (uint32_t)(off >> 32), bound = (uint32_t)e;
            uint32_t owner = (uint32_t)(e >> (u < bound ? 32 : 48)) & 0xFFFF;
            if (u != bound && owner != RB_FRONT_SEARCH2) return owner;
        }
    }
    return rb_front_table_slow(ft, vr, t, pos);
}

/* Bytes held by the slots. */
size_t rb_front_table_bytes(const rb_front_table *ft);

/* Free the slots; safe on a zeroed struct. */
void rb_front_table_free(rb_front_table *ft);

#endif
