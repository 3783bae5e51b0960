/*
 * vnode_ring.h — internal: the sorted vnode ring that `linear`, `binary` (and
 * through them `table`) search, and the sorted continuum that `front` and
 * `ketama` put behind a front table (front_table.h). Not a public header.
 *
 * Points are sorted by (position, member id order, vnode index): the total
 * order documented in ringbench/ring.h. Stored as two parallel arrays
 * (structure of arrays) so a search touches only positions: 8 + 4 bytes per
 * vnode.
 */
#ifndef RINGBENCH_VNODE_RING_H
#define RINGBENCH_VNODE_RING_H

#include <stdint.h>

#include "ring_impl.h"

typedef struct rb_vnode_ring {
    uint64_t *pos;   /* n ring positions, ascending */
    uint32_t *owner; /* n member indices, owner[i] owns pos[i] */
    uint32_t n;      /* V * total weight */
} rb_vnode_ring;

/* Build the sorted points of the members in `hdr`. 0, or RB_ENOMEM with a
 * detail (nothing allocated then). */
int rb_vnode_ring_build(const rb_ring *hdr, rb_vnode_ring *vr);

/*
 * rb_vnode_ring_walk — replicas on a vnode ring: the first k distinct owners
 * met walking clockwise from point `start` (< n), wrapping past the last
 * point to the first, into out[0 .. k) in that order. k <= the number of
 * members; returns k (every member has a point). Pure; O(points walked * k).
 */
uint32_t rb_vnode_ring_walk(const rb_vnode_ring *vr, uint32_t start, uint32_t *out, uint32_t k);

/*
 * rb_vnode_ring_find_from — index of the point owning `pos`: the first point
 * at index >= i with position >= pos, given that every point below i lies
 * below pos and that the answer is at most `hi` (<= n; n when unknown); 0
 * when there is none (the wrap). Two branch-free steps cover the usual one
 * or two points (a branchy scan mispredicts on most lookups: measured 4x
 * slower in throughput), then a binary search up to hi for rare long runs.
 * Pure. `front` searches with it from its front table; `binary` takes the
 * same steps (rb_vnode_ring_step_) but finds its run's end only on the rare
 * slow path (computing it up front cost +3.8% instructions per lookup in the
 * callgrind gate).
 */
static inline uint32_t rb_vnode_ring_step_(const uint64_t *p, uint32_t n, uint32_t i,
                                           uint64_t pos) {
    uint32_t j = i < n ? i : n - 1; /* the clamp keeps the read in bounds; i stays at n */
    return i + ((uint32_t)(i < n) & (uint32_t)(p[j] < pos));
}

static inline uint32_t rb_vnode_ring_find_from(const rb_vnode_ring *vr, uint32_t i, uint32_t hi,
                                               uint64_t pos) {
    const uint64_t *p = vr->pos;
    uint32_t n = vr->n;
    i = rb_vnode_ring_step_(p, n, rb_vnode_ring_step_(p, n, i, pos), pos);
    if (i < n && p[i] < pos) {
        while (i < hi) {
            uint32_t mid = i + (hi - i) / 2;
            if (p[mid] < pos)
                i = mid + 1;
            else
                hi = mid;
        }
    }
    return i == n ? 0 : i;
}

/* Free the arrays; safe on a zeroed struct. */
void rb_vnode_ring_free(rb_vnode_ring *vr);

/* Bytes held by the arrays. */
size_t rb_vnode_ring_bytes(const rb_vnode_ring *vr);

/*
 * rb_sort_u64_stable — stable LSD radix sort of keys[0..n) carrying vals
 * along; passes whose byte is equal in every key are skipped (so 32-bit
 * positions take 4 passes). `tmp_keys`/`tmp_vals` are n-element scratch.
 */
void rb_sort_u64_stable(uint64_t *keys, uint32_t *vals, uint64_t *tmp_keys, uint32_t *tmp_vals,
                        size_t n);

#endif
