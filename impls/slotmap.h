/*
 * slotmap.h — internal: the slots of the stateful algorithms (`anchor`,
 * `memento`, `dx`) and which member owns each.
 *
 * The papers speak of "buckets" 0 .. a-1; ringbench calls them *slots* (a
 * bucket here is a partition bucket). A member of weight w owns w slots. A
 * fresh build gives the members slots in list order, as `jump` does: member 0
 * the first w_0 slots, member 1 the next w_1, ... So a fresh build over
 * N members (all weight 1) owns slots 0 .. N-1.
 *
 * Incremental changes (rb_slotmap_derive) keep every remaining member on its
 * slots:
 *   - a removed member's slots are removed one by one, highest slot first;
 *     a removed slot is pushed on the removed-slot stack, except the top slot
 *     (n_used - 1) while the stack is empty, which just shrinks n_used;
 *   - an added member takes its w slots one by one: the top of the stack (the
 *     last removed slot) while there is one, else slot n_used (which grows).
 * Members that left are removed first (in the old list's order), then the
 * new ones are added (in the new list's order). A member whose weight
 * changed is removed and added again.
 *
 * This is the state of all three algorithms: AnchorHash's removed-bucket
 * stack R with the initial removals a-1 .. N (Mendelson et al., ToN 2021),
 * MementoHash's chain of last-removed buckets over its b-array of n_used
 * slots (Coluzzi et al., ToN 2024), DxHash's stack of removed nodes (Dong &
 * Wang, arXiv:2107.07930). While the stack is not empty n_used does not
 * change, so the i-th stack entry (0 = oldest) was removed when n_used - i
 * slots worked and n_used - i - 1 work after it: AnchorHash's A[b] and
 * MementoHash's replacer. Each algorithm rebuilds its arrays from the slot
 * map, so a derived ring equals the one its paper's add/remove sequence
 * gives.
 *
 * Thread safety: a slot map is written while its ring is built and read-only
 * after. Memory: 4 bytes per slot of `owner` plus 4 per removed slot.
 */
#ifndef RINGBENCH_SLOTMAP_H
#define RINGBENCH_SLOTMAP_H

#include <stdint.h>

#include "ring_impl.h"

#define RB_SLOT_FREE UINT32_MAX /* owner[] of a slot no member owns */

typedef struct rb_slotmap {
    uint32_t n_used;    /* slots [0, n_used) handed out at some time; above: never */
    uint32_t n_working; /* slots a member owns now (the total weight) */
    uint32_t n_removed; /* removed slots below n_used: the stack */
    uint32_t n_owner;   /* entries in owner (>= n_used: the lookup range) */
    uint32_t *removed;  /* n_removed slots, oldest first (top: the last removed) */
    uint32_t *owner;    /* n_owner entries: member index, or RB_SLOT_FREE */
} rb_slotmap;

/*
 * rb_slotmap_fresh — slots in list order for the members of `hdr`; owner[]
 * gets n_owner >= total weight entries (the rest RB_SLOT_FREE). Returns 0 or
 * RB_ENOMEM (nothing allocated then).
 */
int rb_slotmap_fresh(rb_slotmap *m, const rb_ring *hdr, uint32_t n_owner);

/*
 * rb_slotmap_derive — the slot map of `next` (its members) from `old`'s map
 * over the members of `prev`, by the rules above. Slots stay below `limit`
 * (the capacity; RB_ERANGE naming `what` when an add needs slot `limit`).
 * owner[] gets max(n_owner, n_used) entries. Returns 0, RB_ERANGE or
 * RB_ENOMEM; on failure nothing is allocated.
 */
int rb_slotmap_derive(rb_slotmap *m, const rb_slotmap *old, const rb_ring *prev,
                      const rb_ring *next, uint32_t n_owner, uint32_t limit, const char *what);

/* rb_slotmap_free — free what fresh/derive allocated. */
void rb_slotmap_free(rb_slotmap *m);

/* rb_slotmap_bytes — bytes of owner[] and the stack. */
size_t rb_slotmap_bytes(const rb_slotmap *m);

/*
 * rb_slot_hash — the hashes the three algorithms draw from one position:
 * fmix64(pos + j * 0x9E3779B97F4A7C15) (MurmurHash3's 64-bit finaliser over
 * a Weyl sequence step). j = 0 is the first draw; anchor and memento use
 * j = b + 1 for the re-hash of removed slot b, dx uses j = i for its i-th
 * candidate. Any 32- or 64-bit position mixes to 64 bits. Pure.
 */
static inline uint64_t rb_slot_hash(uint64_t pos, uint64_t j) {
    return rb_hash_fmix64(pos + j * 0x9E3779B97F4A7C15ULL);
}

/*
 * rb_slot_range — floor(x * n / 2^64): a 64-bit hash onto [0, n) by
 * multiplication (Lemire, "Fast Random Integer Generation in an Interval",
 * ACM TOMACS 2019) instead of a division; exact in 64-bit arithmetic:
 * x = hi * 2^32 + lo gives (hi * n + (lo * n >> 32)) >> 32. Pure.
 */
static inline uint32_t rb_slot_range(uint64_t x, uint32_t n) {
    uint64_t hi = x >> 32, lo = x & 0xFFFFFFFFu;
    return (uint32_t)((hi * n + ((lo * n) >> 32)) >> 32);
}

/*
 * rb_stateful_derive_from — set by an algorithm's derive around its
 * rb_ring_build call, so that its build (which rb_ring_build calls after
 * validating the new membership and filling the new header) starts from this
 * ring's slot map instead of a fresh one. Per thread; NULL otherwise.
 */
extern _Thread_local const rb_ring *rb_stateful_derive_from;

/* rb_stateful_origin — the ring a build of `hdr` derives from: the one set
 * in rb_stateful_derive_from when it is of the same algorithm, else NULL (a
 * fresh build). */
static inline const rb_ring *rb_stateful_origin(const rb_ring *hdr) {
    const rb_ring *old = rb_stateful_derive_from;
    return old && old->algo == hdr->algo ? old : NULL;
}

/*
 * rb_stateful_capacity — the capacity a (slots) of a ring of `hdr` for
 * `anchor` and `dx`: a derived ring keeps its origin's (`origin_capacity`,
 * non-zero); else `--param capacity` when set (non-zero); else automatic: the
 * smallest power of two >= 2 x the total weight (DxHash's NSArray sizing, with
 * room for as many members again), at most RB_MAX_POINTS. 0 and *a set, or
 * RB_ERANGE naming `what` when the total weight exceeds a.
 */
int rb_stateful_capacity(const rb_ring *hdr, uint32_t origin_capacity, const char *what,
                         uint32_t *a);

/* rb_stateful_derive — rb_algo.derive of the three algorithms: rb_ring_build
 * of old's algorithm and config over `members` with rb_stateful_derive_from
 * = old. Same errors as rb_ring_build, plus RB_ERANGE from the capacity. */
int rb_stateful_derive(const rb_ring *old, const rb_member *members, size_t n_members,
                       rb_ring **out);

#endif
