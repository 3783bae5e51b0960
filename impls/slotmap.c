/* slotmap.c — slots of the stateful algorithms and their owners (slotmap.h). */
#include "slotmap.h"

#include <stdlib.h>
#include <string.h>

_Thread_local const rb_ring *rb_stateful_derive_from;

int rb_stateful_derive(const rb_ring *old, const rb_member *members, size_t n_members,
                       rb_ring **out) {
    const rb_ring *saved = rb_stateful_derive_from;
    rb_stateful_derive_from = old;
    int rc = rb_ring_build(old->algo, &old->cfg, members, n_members, out);
    rb_stateful_derive_from = saved;
    return rc;
}

int rb_stateful_capacity(const rb_ring *hdr, uint32_t origin_capacity, const char *what,
                         uint32_t *a) {
    uint64_t tw = rb_ring_n_points(hdr), cap = origin_capacity;
    if (!cap) cap = rb_ring_param(hdr, "capacity");
    if (!cap)
        for (cap = 1; cap < 2 * tw && cap < RB_MAX_POINTS;)
            cap *= 2;
    if (tw > cap)
        return rb_set_error(RB_ERANGE,
                            "%s: total weight %llu exceeds the capacity %llu slots "
                            "(--param capacity=...)",
                            what, (unsigned long long)tw, (unsigned long long)cap);
    *a = (uint32_t)cap;
    return 0;
}

static uint32_t *alloc_free_owners(uint32_t n) {
    uint32_t *owner = malloc((size_t)(n ? n : 1) * sizeof *owner);
    if (owner) memset(owner, 0xFF, (size_t)n * sizeof *owner); /* RB_SLOT_FREE */
    return owner;
}

int rb_slotmap_fresh(rb_slotmap *m, const rb_ring *hdr, uint32_t n_owner) {
    uint32_t tw = 0;
    for (uint32_t i = 0; i < hdr->n_members; i++)
        tw += hdr->members[i].weight;
    memset(m, 0, sizeof *m);
    m->n_owner = n_owner > tw ? n_owner : tw;
    if (!(m->owner = alloc_free_owners(m->n_owner)))
        return rb_set_error(RB_ENOMEM, "out of memory for %u slots", m->n_owner);
    uint32_t s = 0;
    for (uint32_t i = 0; i < hdr->n_members; i++)
        for (uint32_t w = 0; w < hdr->members[i].weight; w++)
            m->owner[s++] = i;
    m->n_used = m->n_working = tw;
    return 0;
}

/* old_to_new[i]: index in `next` of prev's member i when it stays with the
 * same weight, else RB_SLOT_FREE; kept[j] = 1 when next's member j stays.
 * A merge of the two id-sorted orders. */
static void match_members(const rb_ring *prev, const rb_ring *next, uint32_t *old_to_new,
                          unsigned char *kept) {
    uint32_t i = 0, j = 0;
    for (uint32_t k = 0; k < prev->n_members; k++)
        old_to_new[k] = RB_SLOT_FREE;
    while (i < prev->n_members && j < next->n_members) {
        const rb_member *a = &prev->members[prev->id_order[i]];
        const rb_member *b = &next->members[next->id_order[j]];
        int c = rb_member_id_cmp(a, b);
        if (c == 0 && a->weight == b->weight) {
            old_to_new[prev->id_order[i]] = next->id_order[j];
            kept[next->id_order[j]] = 1;
        }
        i += c <= 0;
        j += c >= 0;
    }
}

static void remove_slot(rb_slotmap *m, uint32_t s) {
    m->owner[s] = RB_SLOT_FREE;
    m->n_working--;
    if (m->n_removed == 0 && s == m->n_used - 1)
        m->n_used--; /* the top slot with nothing removed below: as never handed out */
    else
        m->removed[m->n_removed++] = s;
}

/* Remove the slots of every member of `prev` that does not stay, member by
 * member in list order, each member's slots highest first. `first` and
 * `slots` are scratch: slots grouped by member (counting sort, ascending). */
static void remove_leavers(rb_slotmap *m, const rb_ring *prev, const uint32_t *old_to_new,
                           uint32_t *first, uint32_t *slots) {
    uint32_t n = prev->n_members;
    memset(first, 0, ((size_t)n + 1) * sizeof *first);
    for (uint32_t s = 0; s < m->n_used; s++)
        if (m->owner[s] != RB_SLOT_FREE) first[m->owner[s] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    for (uint32_t s = 0; s < m->n_used; s++)
        if (m->owner[s] != RB_SLOT_FREE) slots[first[m->owner[s]]++] = s;
    /* first[i] now ends member i's run; its run starts at first[i - 1] */
    for (uint32_t i = 0; i < n; i++) {
        if (old_to_new[i] != RB_SLOT_FREE) continue;
        uint32_t begin = i ? first[i - 1] : 0;
        for (uint32_t k = first[i]; k > begin; k--)
            remove_slot(m, slots[k - 1]);
    }
}

/* Give each new member of `next` its slots: the last removed first, then
 * fresh slots from n_used. RB_ERANGE when a slot would reach `limit`. */
static int add_joiners(rb_slotmap *m, const rb_ring *next, const unsigned char *kept,
                       uint32_t limit, const char *what) {
    for (uint32_t j = 0; j < next->n_members; j++) {
        if (kept[j]) continue;
        for (uint32_t w = 0; w < next->members[j].weight; w++) {
            uint32_t s;
            if (m->n_removed)
                s = m->removed[--m->n_removed];
            else if (m->n_used < limit)
                s = m->n_used++;
            else
                return rb_set_error(RB_ERANGE,
                                    "%s: all %u slots are taken; a larger capacity is needed "
                                    "(--param capacity=...)",
                                    what, limit);
            m->owner[s] = j;
            m->n_working++;
        }
    }
    return 0;
}

int rb_slotmap_derive(rb_slotmap *m, const rb_slotmap *old, const rb_ring *prev,
                      const rb_ring *next, uint32_t n_owner, uint32_t limit, const char *what) {
    uint64_t added = 0, gone = 0;
    for (uint32_t j = 0; j < next->n_members; j++)
        added += next->members[j].weight;
    for (uint32_t i = 0; i < prev->n_members; i++)
        gone += prev->members[i].weight;
    /* bounds: at most all of next's weight is new, all of prev's leaves */
    uint64_t need = (uint64_t)old->n_used + added;
    if (need > limit) need = limit; /* slots stay below limit (>= old->n_used) */
    if (need < n_owner) need = n_owner;
    if (need < old->n_used) need = old->n_used;
    memset(m, 0, sizeof *m);
    uint32_t *o2n = malloc(((size_t)prev->n_members + 1) * sizeof *o2n);
    uint32_t *first = malloc(((size_t)prev->n_members + 1) * sizeof *first);
    uint32_t *slots = malloc(((size_t)old->n_used + 1) * sizeof *slots);
    unsigned char *kept = calloc((size_t)next->n_members + 1, 1);
    m->owner = alloc_free_owners((uint32_t)need);
    m->removed = malloc(((size_t)old->n_removed + gone + 1) * sizeof *m->removed);
    int rc = 0;
    if (!o2n || !first || !slots || !kept || !m->owner || !m->removed) {
        rc = rb_set_error(RB_ENOMEM, "out of memory deriving %u slots", (uint32_t)need);
        goto done;
    }
    m->n_owner = (uint32_t)need;
    m->n_used = old->n_used;
    m->n_working = old->n_working;
    m->n_removed = old->n_removed;
    memcpy(m->owner, old->owner, (size_t)old->n_used * sizeof *m->owner);
    if (old->n_removed) /* old->removed may be NULL when nothing is removed */
        memcpy(m->removed, old->removed, (size_t)old->n_removed * sizeof *m->removed);
    match_members(prev, next, o2n, kept);
    remove_leavers(m, prev, o2n, first, slots);
    for (uint32_t s = 0; s < m->n_used; s++)
        if (m->owner[s] != RB_SLOT_FREE) m->owner[s] = o2n[m->owner[s]];
    rc = add_joiners(m, next, kept, limit, what);
done:
    free(o2n), free(first), free(slots), free(kept);
    if (rc) rb_slotmap_free(m);
    return rc;
}

void rb_slotmap_free(rb_slotmap *m) {
    free(m->owner);
    free(m->removed);
    m->owner = m->removed = NULL;
}

size_t rb_slotmap_bytes(const rb_slotmap *m) {
    return ((size_t)m->n_owner + m->n_removed) * sizeof(uint32_t);
}
