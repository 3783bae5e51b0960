/*
 * slots.h — internal: member slots for the index-based algorithms (`jump`,
 * `modn`). Member i of weight w owns w consecutive slots, in member list
 * order; with all weights 1 slot j is member j and no table is kept.
 */
#ifndef RINGBENCH_SLOTS_H
#define RINGBENCH_SLOTS_H

#include <stdint.h>

#include "ring_impl.h"

typedef struct rb_slots {
    uint32_t n;      /* total weight */
    uint32_t *owner; /* n entries, or NULL when every weight is 1 */
} rb_slots;

/* A ring that is only its header and its slots: `jump` and `modn`. */
typedef struct rb_slots_ring {
    rb_ring hdr;
    rb_slots slots;
} rb_slots_ring;

/* rb_algo.build / bytes_held / destroy for an rb_slots_ring. */
int rb_slots_ring_build(const rb_ring *hdr, rb_ring **out);
size_t rb_slots_ring_bytes(const rb_ring *ring);
void rb_slots_ring_destroy(rb_ring *ring);

static inline uint32_t rb_slot_owner(const rb_slots *s, uint32_t slot) {
    return s->owner ? s->owner[slot] : slot;
}

/*
 * RB_SLOT_LOOKUPS(fn) — define the static owner_position of a slot algorithm
 * whose slot of a position is fn(position, n_slots) (fn a pure
 * uint32_t (uint64_t key, uint32_t n); inlined, no indirect call). Buckets
 * take the default owner_bucket (the owner of the bucket's position).
 */
#define RB_SLOT_LOOKUPS(fn)                                                                        \
    static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {                            \
        const rb_slots_ring *r = (const rb_slots_ring *)ring;                                      \
        return rb_slot_owner(&r->slots, fn(pos, r->slots.n));                                      \
    }

#endif
