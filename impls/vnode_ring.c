/*
 * vnode_ring.c — building the sorted vnode ring (Karger et al., "Consistent
 * hashing and random trees", STOC 1997, section 4: each cache at several
 * random points; the seed's `ring` array).
 *
 * Order: points are generated member by member in id order, vnode by vnode;
 * a stable sort by position then yields the documented total order
 * (position, id, vnode) without comparing ids in the sort.
 */
#include "vnode_ring.h"

#include <stdlib.h>
#include <string.h>

void rb_sort_u64_stable(uint64_t *keys, uint32_t *vals, uint64_t *tmp_keys, uint32_t *tmp_vals,
                        size_t n) {
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++)
        all_or |= keys[i], all_and &= keys[i];
    uint64_t varying = all_or ^ all_and; /* bits that differ between some keys */
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (((varying >> shift) & 0xFF) == 0) continue; /* this byte orders nothing */
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((keys[i] >> shift) & 0xFF) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++) {
            size_t to = count[(keys[i] >> shift) & 0xFF]++;
            tmp_keys[to] = keys[i];
            tmp_vals[to] = vals[i];
        }
        memcpy(keys, tmp_keys, n * sizeof *keys);
        memcpy(vals, tmp_vals, n * sizeof *vals);
    }
}

int rb_vnode_ring_build(const rb_ring *hdr, rb_vnode_ring *vr) {
    memset(vr, 0, sizeof *vr);
    size_t n = (size_t)rb_ring_n_points(hdr); /* validated <= RB_MAX_POINTS */
    uint32_t nm = hdr->n_members;
    uint64_t *pos = malloc(n * sizeof *pos), *tmp_pos = malloc(n * sizeof *tmp_pos);
    uint32_t *owner = malloc(n * sizeof *owner), *tmp_owner = malloc(n * sizeof *tmp_owner);
    char *label = malloc(RB_MAX_ID_BYTES + 12);
    int rc = 0;
    if (!pos || !tmp_pos || !owner || !tmp_owner || !label) {
        rc = rb_set_error(RB_ENOMEM, "out of memory for a ring of %zu vnodes", n);
        goto done;
    }
    const uint32_t *order = hdr->id_order;
    const rb_hash *h = hdr->cfg.ring_hash;
    size_t k = 0;
    for (uint32_t r = 0; r < nm; r++) {
        const rb_member *m = &hdr->members[order[r]];
        uint32_t nv = hdr->cfg.n_vnodes * m->weight;
        for (uint32_t v = 0; v < nv; v++, k++) {
            size_t len = rb_vnode_label(label, m->id, m->id_len, v);
            pos[k] = h->fn(label, len, hdr->cfg.seed);
            owner[k] = order[r];
        }
    }
    rb_sort_u64_stable(pos, owner, tmp_pos, tmp_owner, n);
    vr->pos = pos, vr->owner = owner, vr->n = (uint32_t)n;
    pos = NULL, owner = NULL;
done:
    free(pos), free(tmp_pos), free(owner), free(tmp_owner), free(label);
    return rc;
}

void rb_vnode_ring_free(rb_vnode_ring *vr) {
    free(vr->pos);
    free(vr->owner);
    memset(vr, 0, sizeof *vr);
}

size_t rb_vnode_ring_bytes(const rb_vnode_ring *vr) {
    return (size_t)vr->n * (sizeof *vr->pos + sizeof *vr->owner);
}

uint32_t rb_vnode_ring_walk(const rb_vnode_ring *vr, uint32_t start, uint32_t *out, uint32_t k) {
    uint32_t got = 0;
    for (uint32_t step = 0; step < vr->n && got < k; step++) {
        uint32_t i = start + step, o;
        o = vr->owner[i < vr->n ? i : i - vr->n];
        uint32_t j = 0;
        while (j < got && out[j] != o)
            j++;
        if (j == got) out[got++] = o; /* a member not chosen yet */
    }
    return got;
}
