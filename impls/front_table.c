/*
 * front_table.c — building the direct-mapped front table over a sorted
 * continuum and its slow path (front_table.h has the layout and the
 * source: Knuth, TAOCP vol. 3, 6.2.1 and 6.4).
 */
#include "front_table.h"

#include <stdlib.h>

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
static inline uint32_t front_u(const rb_front_table *ft, uint64_t pos) {
    return (uint32_t)((pos << ft->ushift) >> (ft->three ? 50 : 32));
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
static uint64_t slot_of_points(const rb_front_table *ft, const rb_vnode_ring *vr,
                               uint32_t n_members, uint32_t first, uint32_t i) {
    uint32_t n = vr->n, max = ft->three ? 2 : 1, n_ch = 0, q[3];
    if (!ft->three && n_members > RB_FRONT_SEARCH2)
        return slot2(first, RB_FRONT_SEARCH2, RB_FRONT_SEARCH2);
    for (uint32_t j = first; j < i && n_ch <= max; j++)
        if (vr->owner[j] != vr->owner[j + 1 == n ? 0 : j + 1]) q[n_ch++] = j;
    if (n_ch > max)
        return ft->three ? slot3(first & 0x3FFF, first >> 14, RB_FRONT_SEARCH3, RB_FRONT_SEARCH3,
                                 RB_FRONT_SEARCH3)
                         : slot2(first, RB_FRONT_SEARCH2, RB_FRONT_SEARCH2);
    uint32_t o[3], u[2] = {0, 0};
    o[0] = vr->owner[n_ch ? q[0] : i == n ? 0 : i];
    for (uint32_t c = 0; c < n_ch; c++) {
        u[c] = front_u(ft, vr->pos[q[c]]);
        o[c + 1] = vr->owner[q[c] + 1 == n ? 0 : q[c] + 1];
    }
    for (uint32_t c = n_ch + 1; c < 3; c++) /* no more changes: the last owner holds */
        o[c] = o[c - 1];
    if (n_ch == 1) u[1] = u[0];
    return ft->three ? slot3(u[0], u[1], o[0], o[1], o[2]) : slot2(u[0], o[0], o[1]);
}

/* Fill the slots: i(t) by one sweep over the sorted points. */
static void fill(rb_front_table *ft, const rb_vnode_ring *vr, uint32_t n_members) {
    uint32_t i = 0;
    for (size_t t = 0; t < ft->n_slots; t++) {
        uint32_t first = i;                             /* i(t) */
        uint64_t next = (uint64_t)(t + 1) << ft->shift; /* first position of slot t + 1 */
        while (i < vr->n && (t + 1 == ft->n_slots || vr->pos[i] < next))
            i++;
        ft->slot[t] = slot_of_points(ft, vr, n_members, first, i); /* i = i(t + 1) */
    }
}

int rb_front_table_build(rb_front_table *ft, const rb_vnode_ring *vr, unsigned bits,
                         uint64_t slots_per_point, uint64_t max_bits, uint64_t slot_owners,
                         uint32_t n_members) {
    unsigned k = front_bits(slots_per_point, max_bits, vr->n, bits);
    ft->shift = bits - k;
    ft->ushift = 64 - ft->shift;
    ft->three = slot_owners == 3 && n_members <= RB_FRONT_SEARCH3 && vr->n < (1u << 28);
    ft->n_slots = (size_t)1 << k;
    ft->slot = malloc(ft->n_slots * sizeof *ft->slot);
    if (!ft->slot)
        return rb_set_error(RB_ENOMEM, "out of memory for a front table of %zu slots", ft->n_slots);
    fill(ft, vr, n_members);
    return 0;
}

size_t rb_front_table_bytes(const rb_front_table *ft) { return ft->n_slots * sizeof *ft->slot; }

void rb_front_table_free(rb_front_table *ft) {
    free(ft->slot);
    ft->slot = NULL;
    ft->n_slots = 0;
}
