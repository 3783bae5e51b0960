/* slots.c — member slots for the index-based algorithms (see slots.h). */
#include "slots.h"

#include <stdlib.h>

int rb_slots_ring_build(const rb_ring *hdr, rb_ring **out) {
    rb_slots_ring *r = malloc(sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    r->slots.n = (uint32_t)rb_ring_n_points(hdr); /* no vnodes: the total weight */
    r->slots.owner = NULL;
    if (r->slots.n != hdr->n_members) {
        r->slots.owner = malloc((size_t)r->slots.n * sizeof *r->slots.owner);
        if (!r->slots.owner) {
            free(r);
            return rb_set_error(RB_ENOMEM, "out of memory for %u slots", hdr->n_members);
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < hdr->n_members; i++)
            for (uint32_t w = 0; w < hdr->members[i].weight; w++)
                r->slots.owner[k++] = i;
    }
    *out = &r->hdr;
    return 0;
}

size_t rb_slots_ring_bytes(const rb_ring *ring) {
    const rb_slots_ring *r = (const rb_slots_ring *)ring;
    size_t table = r->slots.owner ? (size_t)r->slots.n * sizeof *r->slots.owner : 0;
    return sizeof *r - sizeof(rb_ring) + table;
}

void rb_slots_ring_destroy(rb_ring *ring) {
    rb_slots_ring *r = (rb_slots_ring *)ring;
    free(r->slots.owner);
    free(r);
}
