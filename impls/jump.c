/*
 * jump.c — jump consistent hash over member slots.
 * Source: J. Lamping, E. Veach, "A Fast, Minimal Memory, Consistent Hash
 * Algorithm", arXiv:1406.2294 (2014), figure 1 (the 64-bit LCG version).
 *
 * Member order matters: slot j is the j-th member in list order (a member of
 * weight w takes w consecutive slots). Only adding or removing the *last*
 * slot is minimal movement; removing a member from the middle shifts every
 * later slot and moves far more than 1/N (reported by `ringbench verify`).
 */
#include "ring_impl.h"
#include "slots.h"

/* Lamping & Veach, figure 1: the bucket in [0, n) for a 64-bit key. */
static uint32_t jump_hash(uint64_t key, uint32_t n) {
    int64_t b = -1, j = 0;
    while (j < (int64_t)n) {
        b = j;
        key = key * 2862933555777941757ULL + 1;
        j = (int64_t)((double)(b + 1) * ((double)(1LL << 31) / (double)((key >> 33) + 1)));
    }
    return (uint32_t)b;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const rb_slots_ring *r = (const rb_slots_ring *)ring;
    return rb_slot_owner(&r->slots, jump_hash(pos, r->slots.n));
}

uint32_t rb_jump_hash(uint64_t key, uint32_t n_buckets) { return jump_hash(key, n_buckets); }

const rb_algo rb_algo_jump = {
    .name = "jump",
    .description = "jump consistent hash over member slots (list order; minimal only at the end)",
    .source = "Lamping & Veach, A Fast, Minimal Memory, Consistent Hash Algorithm, 2014, fig. 1",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE_LAST | RB_ALGO_WEIGHTED,
    .build = rb_slots_ring_build,
    .owner_position = owner_position,
    .bytes_held = rb_slots_ring_bytes,
    .destroy = rb_slots_ring_destroy,
    /* each bucket moves to the new last slot with probability 1/(N+1) (fig. 1's
     * invariant): binomial around the ideal */
    .movement_bound = 1.5,
};
