/*
 * memento.c — MementoHash: jump consistent hash over the b-array of slots
 * plus a replacement set for the removed ones.
 * Source: M. Coluzzi, A. Brocco, P. Antonucci, T. Leidi, "MementoHash: A
 * Stateful, Minimal Memory, Best Performing Consistent Hash Algorithm",
 * IEEE/ACM Transactions on Networking, 2024 (arXiv:2306.09783): the lookup
 * (jump, then re-hash a removed bucket into the view of size `replacer`), the
 * replacement set (removed bucket -> replacer, previous removed) and the
 * add/remove rules, as in the authors' Java (SUPSI-DTI-ISIN/
 * java-consistent-hashing-algorithms, MementoEngine).
 *
 * Slots (the paper's buckets) and their owners follow slotmap.h: a fresh
 * build gives the members slots in list order and equals `jump` bucket for
 * bucket; derive (rb_ring_derive) removes ANY member moving only its buckets,
 * and an add takes the last removed slot (or grows the b-array when none is
 * removed). No capacity: the b-array is n_used slots.
 *
 * The i-th removed slot on the stack (0 = oldest) has replacer n_used - i - 1,
 * the working count just after its removal. Lookup of a ring position `pos`:
 *     b = jump(pos, n_used)                       (rb_jump_hash, jump.c)
 *     while b is removed (r = replacer(b)):
 *         b = range(h(pos, b + 1), r)             re-hash into b's view
 *         while b is removed and replacer(b) >= r: b = replacer(b)
 * with h(pos, j) = rb_slot_hash and range = rb_slot_range (slotmap.h). A
 * working slot is recognised by its owner (owner[b] != RB_SLOT_FREE), so
 * lookups that land on a working slot never touch the replacement set.
 *
 * Memory: 4 bytes per used slot (owner) plus, per removed slot, 4 (stack) and
 * 8 to 16 (the open-addressing replacement set, load factor 1/4 .. 1/2).
 * Built rings are immutable: concurrent lookups need no lock.
 */
#include <stdlib.h>

#include "slotmap.h"

typedef struct {
    uint32_t slot;     /* RB_SLOT_FREE: empty */
    uint32_t replacer; /* working count after the slot was removed */
} memento_entry;

typedef struct {
    rb_ring hdr;
    rb_slotmap map;
    uint32_t mask;        /* table size - 1 (a power of two), 0 with no table */
    memento_entry *table; /* replacement set; NULL when nothing is removed */
} memento_ring;

/* Home index of a slot: a multiplicative hash (Knuth's 2^32 / golden ratio)
 * folded so that the high bits reach the mask. */
static uint32_t table_index(uint32_t slot, uint32_t mask) {
    uint32_t x = slot * 0x9E3779B1u;
    return (x ^ (x >> 16)) & mask;
}

/* Replacer of removed slot b (b must be in the set). */
static uint32_t replacer_of(const memento_ring *r, uint32_t b) {
    uint32_t i = table_index(b, r->mask);
    while (r->table[i].slot != b)
        i = (i + 1) & r->mask;
    return r->table[i].replacer;
}

static int fill_table(memento_ring *r) {
    const rb_slotmap *m = &r->map;
    if (!m->n_removed) return 0;
    uint32_t size = 4;
    while (size < 2 * m->n_removed)
        size *= 2;
    r->table = malloc((size_t)size * sizeof *r->table);
    if (!r->table) return rb_set_error(RB_ENOMEM, "out of memory for %u removed slots", size);
    r->mask = size - 1;
    for (uint32_t i = 0; i < size; i++)
        r->table[i].slot = RB_SLOT_FREE;
    for (uint32_t k = 0; k < m->n_removed; k++) {
        uint32_t i = table_index(m->removed[k], r->mask);
        while (r->table[i].slot != RB_SLOT_FREE)
            i = (i + 1) & r->mask;
        r->table[i] = (memento_entry){m->removed[k], m->n_used - k - 1};
    }
    return 0;
}

static int build(const rb_ring *hdr, rb_ring **out) {
    memento_ring *r = calloc(1, sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    const rb_ring *old = rb_stateful_origin(hdr);
    int rc = old ? rb_slotmap_derive(&r->map, &((const memento_ring *)old)->map, old, hdr, 0,
                                     RB_MAX_POINTS, "memento")
                 : rb_slotmap_fresh(&r->map, hdr, 0);
    if (rc == 0 && (rc = fill_table(r)) != 0) rb_slotmap_free(&r->map);
    if (rc) {
        free(r);
        return rc;
    }
    *out = &r->hdr;
    return 0;
}

static uint32_t memento_slot(const memento_ring *r, uint64_t pos) {
    const uint32_t *owner = r->map.owner;
    uint32_t b = rb_jump_hash(pos, r->map.n_used);
    while (owner[b] == RB_SLOT_FREE) {
        uint32_t view = replacer_of(r, b);
        b = rb_slot_range(rb_slot_hash(pos, (uint64_t)b + 1), view);
        while (owner[b] == RB_SLOT_FREE) {
            uint32_t next = replacer_of(r, b);
            if (next < view) break; /* removed after: the outer loop re-hashes */
            b = next;
        }
    }
    return b;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const memento_ring *r = (const memento_ring *)ring;
    return r->map.owner[memento_slot(r, pos)];
}

static size_t bytes_held(const rb_ring *ring) {
    const memento_ring *r = (const memento_ring *)ring;
    size_t table = r->table ? ((size_t)r->mask + 1) * sizeof *r->table : 0;
    return sizeof *r - sizeof(rb_ring) + rb_slotmap_bytes(&r->map) + table;
}

static void destroy(rb_ring *ring) {
    memento_ring *r = (memento_ring *)ring;
    free(r->table), rb_slotmap_free(&r->map), free(r);
}

const rb_algo rb_algo_memento = {
    .name = "memento",
    .description = "MementoHash: jump + replacement set (list order; derive: any removal "
                   "minimal)",
    .source = "Coluzzi, Brocco, Antonucci, Leidi, MementoHash, IEEE/ACM ToN 2024",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE | RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .derive = rb_stateful_derive,
    /* through derive a change moves exactly the changed member's slots'
     * share: about the ideal; 1.5 leaves room for the spread of slot shares
     * over B = 1024 buckets at small N, as for jump */
    .movement_bound = 1.5,
};
