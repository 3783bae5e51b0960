/*
 * test_scale.c — the seed's scale event as a test (issue 2): three workers
 * become four, 1,024 buckets, 128 vnodes, under fnv1a32 (the seed's hash)
 * and xxh3.
 *
 *   - every algorithm flagged RB_ALGO_MONOTONE or RB_ALGO_MONOTONE_LAST moves
 *     buckets only to the new member (strict, under both hashes: zero
 *     monotonicity violations, for buckets and for 100,000 keys);
 *   - the reverse event (the fourth worker dies) moves only its buckets;
 *     each change derives the new ring from the old (rb_ring_derive);
 *     for RB_ALGO_MONOTONE also removing a worker from the middle of the list;
 *   - under xxh3 the moved fraction lies in the binomial band of band.h
 *     (ideal ± 4.5 sd at B = 1024 and the ring's N·V vnodes; false-alarm
 *     rate 6.8e-6 per check): about 1/4 for the consistent algorithms, about
 *     3/4 for `modn`-like controls (RB_ALGO_CONTROL; a bucket keeps its owner
 *     when h mod 3 == h mod 4, probability 1/4), the problem the seed
 *     describes. Under fnv1a32 the band is not asserted: the seed's hash
 *     places the vnodes of one fixed membership in clusters (remove worker-2:
 *     0.402 against 0.25, 6.5 sd; prop_spread and verify/README.md document
 *     it), so the model's premise does not hold; prop_seed_example asserts
 *     the band under fnv1a32 on the mean over 32 memberships instead.
 * The measured fractions are printed to stdout for the record.
 */
#include <string.h>

#include "band.h"
#include "ringbench/ring.h"
#include "unit.h"

enum { N_KEYS = 100000 };

typedef struct {
    unsigned long moved, violations, n;
} movement;

static int same_id(const rb_ring *a, uint32_t ia, const rb_ring *b, uint32_t ib) {
    size_t la, lb;
    const void *x = rb_ring_member_id(a, ia, &la), *y = rb_ring_member_id(b, ib, &lb);
    return la == lb && memcmp(x, y, la) == 0;
}

static int is_member(const rb_ring *r, uint32_t idx, const char *id) {
    size_t len;
    const void *x = rb_ring_member_id(r, idx, &len);
    return len == strlen(id) && memcmp(x, id, len) == 0;
}

/* Movement from `before` to `after` for one bucket or key whose owners are
 * ob, oa; `changed` is the member added or removed. A move is a violation
 * unless it goes to the added member (add) or comes from the removed one. */
static void count(movement *mv, const rb_ring *before, uint32_t ob, const rb_ring *after,
                  uint32_t oa, const char *changed, int is_add) {
    mv->n++;
    if (same_id(before, ob, after, oa)) return;
    mv->moved++;
    if (is_add ? !is_member(after, oa, changed) : !is_member(before, ob, changed)) mv->violations++;
}

static void measure(const rb_ring *before, const rb_ring *after, const char *changed, int is_add,
                    movement *buckets, movement *keys) {
    memset(buckets, 0, sizeof *buckets);
    memset(keys, 0, sizeof *keys);
    for (uint32_t b = 0; b < rb_ring_n_buckets(before); b++)
        count(buckets, before, rb_ring_owner_bucket(before, b), after,
              rb_ring_owner_bucket(after, b), changed, is_add);
    char key[32];
    for (unsigned k = 0; k < N_KEYS; k++) {
        size_t len = (size_t)snprintf(key, sizeof key, "order:%u", k);
        count(keys, before, rb_ring_owner_key(before, key, len), after,
              rb_ring_owner_key(after, key, len), changed, is_add);
    }
}

static void event(const rb_algo *a, const rb_config *cfg, const rb_member *before, size_t nb,
                  const rb_member *after, size_t na, const char *changed, const char *what) {
    int is_add = na > nb;
    char c[160];
    snprintf(c, sizeof c, "%s (%s, V=%u, B=%u)", what, cfg->ring_hash->name, cfg->n_vnodes,
             cfg->n_buckets);
    /* the change as a running system makes it: `after` derived from `before`
     * (rb_ring_derive: incremental for the stateful algorithms, a rebuild
     * for the others) */
    rb_ring *rb = rb_unit_build(a, cfg, before, nb, c), *ra = NULL;
    if (rb && rb_ring_derive(rb, after, na, &ra))
        rb_unit_true(a->name, c, 0, "derive failed: %s", rb_error_detail());
    if (rb && ra) {
        movement mb, mk;
        measure(rb, ra, changed, is_add, &mb, &mk);
        double frac = (double)mb.moved / mb.n, kfrac = (double)mk.moved / mk.n;
        double ideal = is_add ? 1.0 / (double)na : 1.0 / (double)nb;
        int control = (a->flags & RB_ALGO_CONTROL) != 0;
        /* modn 3 -> 4 (or 4 -> 3): a bucket stays when h mod 3 == h mod 4. */
        double p = control ? 0.75 : ideal;
        uint64_t points =
            (a->flags & RB_ALGO_USES_VNODES) ? (uint64_t)(is_add ? na : nb) * cfg->n_vnodes : 0;
        rb_band band = rb_movement_band(p, cfg->n_buckets, points, 1);
        int banded = cfg->ring_hash == &rb_hash_xxh3;
        printf(
            "%-11s %-8s %-34s moved buckets %4lu/%lu = %.3f (expected %.3f, band %.3f .. %.3f%s), "
            "keys %.3f, monotonicity violations %lu buckets, %lu keys\n",
            a->name, cfg->ring_hash->name, what, mb.moved, mb.n, frac, p, band.lo, band.hi,
            banded ? "" : ", not asserted", kfrac, mb.violations, mk.violations);
        if (!control) {
            snprintf(c, sizeof c, "%s (%s): buckets moved elsewhere than %s %s", what,
                     cfg->ring_hash->name, is_add ? "to the new member" : "from the removed member",
                     changed);
            rb_unit_eq(a->name, c, mb.violations, 0);
            snprintf(c, sizeof c, "%s (%s): keys moved elsewhere than %s %s", what,
                     cfg->ring_hash->name, is_add ? "to the new member" : "from the removed member",
                     changed);
            rb_unit_eq(a->name, c, mk.violations, 0);
        }
        if (banded) {
            snprintf(c, sizeof c, "%s (%s): bucket movement fraction", what, cfg->ring_hash->name);
            rb_unit_true(a->name, c, frac >= band.lo && frac <= band.hi,
                         "got %.3f, expected %.3f ± %.1f sd = %.3f .. %.3f", frac, p, RB_BAND_Z,
                         band.lo, band.hi);
        }
    }
    rb_ring_destroy(rb);
    rb_ring_destroy(ra);
}

int main(void) {
    const rb_member four[4] = {
        {"worker-1", 8, 1}, {"worker-2", 8, 1}, {"worker-3", 8, 1}, {"worker-4", 8, 1}};
    const rb_member without_2[3] = {four[0], four[2], four[3]};
    static const rb_hash *const hashes[] = {&rb_hash_fnv1a32, &rb_hash_xxh3};
    size_t n_checked = 0;
    for (size_t hi = 0; hi < sizeof hashes / sizeof hashes[0]; hi++) {
        rb_config cfg;
        rb_config_init(&cfg);
        cfg.ring_hash = cfg.bucket_hash = hashes[hi];
        cfg.n_vnodes = 128;
        cfg.n_buckets = 1024;
        for (size_t i = 0; i < rb_algo_count(); i++) {
            const rb_algo *a = rb_algo_at(i);
            int monotone = (a->flags & (RB_ALGO_MONOTONE | RB_ALGO_MONOTONE_LAST)) != 0;
            if (!monotone && !(a->flags & RB_ALGO_CONTROL)) {
                printf("%-11s not flagged monotone or control: movement not asserted\n", a->name);
                continue;
            }
            n_checked++;
            event(a, &cfg, four, 3, four, 4, "worker-4", "add worker-4 to 3 (the seed's event)");
            event(a, &cfg, four, 4, four, 3, "worker-4", "remove worker-4 (last) from 4");
            if (a->flags & RB_ALGO_MONOTONE)
                event(a, &cfg, four, 4, without_2, 3, "worker-2",
                      "remove worker-2 (middle) from 4");
        }
    }
    rb_unit_true("registry", "algorithms checked", n_checked > 0, "got 0, expected > 0");
    return rb_unit_finish("test_scale");
}
