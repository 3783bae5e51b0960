/*
 * modn.c — `hash(key) mod N`, the baseline the seed argues against: a bucket
 * goes to slot (position mod total weight). Adding a fourth worker to three
 * moves about 3/4 of all buckets. A deliberately non-consistent control: the
 * verifier must report its monotonicity violations. Member list order matters
 * (slots as in `jump`).
 */
#include "ring_impl.h"
#include "slots.h"

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const rb_slots_ring *r = (const rb_slots_ring *)ring;
    return rb_slot_owner(&r->slots, (uint32_t)(pos % r->slots.n));
}

const rb_algo rb_algo_modn = {
    .name = "modn",
    .description = "hash mod N: the non-consistent baseline (control)",
    .source = "the seed's hash(key) % N; Karger et al. 1997, sec. 1 (why it fails)",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_CONTROL | RB_ALGO_WEIGHTED,
    .build = rb_slots_ring_build,
    .owner_position = owner_position,
    .bytes_held = rb_slots_ring_bytes,
    .destroy = rb_slots_ring_destroy,
};
