/*
 * dx.c — DxHash: the first working slot in a pseudo-random sequence of slots
 * drawn from the position.
 * Source: C. Dong, F. Wang, "DxHash: A Scalable Consistent Hash Based on the
 * Pseudo-Random Sequence", arXiv:2107.07930 (2021; v2 2023): the lookup over
 * the NSArray of a slots (walk the key's pseudo-random sequence until an
 * active node) and the updates (a removed node is marked inactive and pushed
 * on a stack; an added node reuses the last removed one), as in the Java of
 * SUPSI-DTI-ISIN/java-consistent-hashing-algorithms (DxEngine).
 *
 * Slots 0 .. a-1, a = the capacity (parameter `capacity`; default 0: the
 * power of two >= 2 x the total weight of the first build, as the paper sizes
 * its NSArray, which a derived ring keeps; see rb_stateful_capacity). Owners
 * and the removed-slot stack follow slotmap.h (fresh build: list order;
 * derive: removing ANY member moves only its buckets, an add takes the last
 * removed slot). The paper's doubling of
 * the NSArray when it is full is not implemented: it would move buckets of
 * every member; a full capacity is an error instead.
 *
 * Lookup of a ring position `pos`: candidate i (i = 0, 1, ...) is slot
 * range(h(pos, i), a), h = rb_slot_hash, range = rb_slot_range (slotmap.h);
 * the first candidate a member owns wins. The expected number of candidates
 * is a / (total weight). So that no lookup can run long, after 8a candidates
 * (probability at most e^-8 when one slot of a works) the owner is the first
 * working slot at or after the last candidate, wrapping at a: this bound is
 * ours, not the paper's, and keeps every change minimal (a scan from a fixed
 * start meets a removed slot only if it was the answer, and an added slot
 * only if it becomes the answer).
 *
 * Memory: 4 bytes per slot of capacity (owner; the paper's NSArray is one bit
 * per slot) plus 4 per removed slot. Built rings are immutable: concurrent
 * lookups need no lock.
 */
#include <stdlib.h>

#include "slotmap.h"

#define DX_PROBES_PER_SLOT 8u /* candidates before the scan: 8a */
/* A lookup walks about a / (total weight) candidates, so the capacity sets its
 * cost: 65,536 slots keep a one-member ring's lookup under ~0.1 ms (the
 * fuzzer found a 2^24-slot ring whose table took minutes to fill). A larger
 * pool takes the default capacity, 2 x its total weight. */
#define DX_MAX_CAPACITY (1u << 16)

typedef struct {
    rb_ring hdr;
    rb_slotmap map;    /* owner[] has `capacity` entries */
    uint32_t capacity; /* a */
    uint64_t n_probes; /* DX_PROBES_PER_SLOT * a */
} dx_ring;

static const rb_param_spec params[] = {
    {"capacity",
     "slots a (<= 65536), >= the total member weight; 0: the power of two >= 2 x the total weight",
     0, 0, DX_MAX_CAPACITY, NULL},
};

static int build(const rb_ring *hdr, rb_ring **out) {
    const rb_ring *old = rb_stateful_origin(hdr);
    uint32_t a;
    int rc = rb_stateful_capacity(hdr, old ? ((const dx_ring *)old)->capacity : 0, "dx", &a);
    if (rc) return rc;
    dx_ring *r = calloc(1, sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    r->capacity = a;
    r->n_probes = (uint64_t)DX_PROBES_PER_SLOT * a;
    rc = old ? rb_slotmap_derive(&r->map, &((const dx_ring *)old)->map, old, hdr, a, a, "dx")
             : rb_slotmap_fresh(&r->map, hdr, a);
    if (rc) {
        free(r);
        return rc;
    }
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const dx_ring *r = (const dx_ring *)ring;
    const uint32_t *owner = r->map.owner;
    uint32_t s = 0;
    for (uint64_t i = 0; i < r->n_probes; i++) {
        s = rb_slot_range(rb_slot_hash(pos, i), r->capacity);
        if (owner[s] != RB_SLOT_FREE) return owner[s];
    }
    while (owner[s] == RB_SLOT_FREE)
        s = s + 1 == r->capacity ? 0 : s + 1;
    return owner[s];
}

static size_t bytes_held(const rb_ring *ring) {
    const dx_ring *r = (const dx_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_slotmap_bytes(&r->map);
}

static void destroy(rb_ring *ring) {
    dx_ring *r = (dx_ring *)ring;
    rb_slotmap_free(&r->map), free(r);
}

const rb_algo rb_algo_dx = {
    .name = "dx",
    .description = "DxHash: first working slot of a pseudo-random slot sequence (list order; "
                   "derive: any removal minimal)",
    .source = "Dong & Wang, DxHash: A Scalable Consistent Hash Based on the Pseudo-Random "
              "Sequence, arXiv:2107.07930, 2021",
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
    .params = params,
    .n_params = sizeof params / sizeof params[0],
};
