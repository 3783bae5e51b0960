/*
 * prop_control.c — a verifier that cannot fail is caught here. `modn`
 * (RB_ALGO_CONTROL) must show monotonicity violations on every add for
 * N >= 2 and on every remove for N >= 3, and move far more than the ideal;
 * and the movement counter itself is checked on hand-made tables whose
 * answer is known (no change; one violating bucket; one allowed move).
 */
#include <string.h>

#include "prop_util.h"

static void hand_made(void) {
    /* 4 buckets, 3 members before. */
    uint32_t before[4] = {0, 1, 2, 1};
    rb_movement m;
    rb_sweep_movement(before, before, 4, 3, RB_CHANGE_ADD, NULL, 0, &m);
    prop_check(m.n_moved_buckets == 0 && m.n_violating_buckets == 0,
               "hand-made add, no change: moved %llu violating %llu, expected 0 0",
               (unsigned long long)m.n_moved_buckets, (unsigned long long)m.n_violating_buckets);
    uint32_t add[4] = {3, 0, 2,
                       1}; /* bucket 0 to the new member 3: fine; bucket 1 1->0: violation */
    uint32_t keys[4] = {10, 20, 30, 40};
    rb_sweep_movement(before, add, 4, 3, RB_CHANGE_ADD, keys, 100, &m);
    prop_check(m.n_moved_buckets == 2 && m.n_violating_buckets == 1 && m.n_moved_keys == 30 &&
                   m.n_violating_keys == 20,
               "hand-made add: moved %llu violating %llu keys %llu/%llu, expected 2 1 30/20",
               (unsigned long long)m.n_moved_buckets, (unsigned long long)m.n_violating_buckets,
               (unsigned long long)m.n_moved_keys, (unsigned long long)m.n_violating_keys);
    /* remove the middle member 1 of 3: after-index 1 is old member 2 */
    uint32_t rm[4] = {0, 0, 1, 1}; /* b1 1->0 ok (removed), b2 2->2 stays, b3 1->2 ok */
    rb_sweep_movement(before, rm, 4, 3, RB_CHANGE_REMOVE_MIDDLE, NULL, 0, &m);
    prop_check(m.n_moved_buckets == 2 && m.n_violating_buckets == 0,
               "hand-made remove middle: moved %llu violating %llu, expected 2 0",
               (unsigned long long)m.n_moved_buckets, (unsigned long long)m.n_violating_buckets);
    uint32_t rm_bad[4] = {1, 0, 1, 1}; /* b0 0->2 although 0 stayed: violation */
    rb_sweep_movement(before, rm_bad, 4, 3, RB_CHANGE_REMOVE_MIDDLE, NULL, 0, &m);
    prop_check(m.n_violating_buckets == 1,
               "hand-made remove middle with a stray move: violating %llu, expected 1",
               (unsigned long long)m.n_violating_buckets);
}

int main(void) {
    hand_made();
    const rb_algo *modn = rb_algo_by_name("modn");
    if (!modn || !(modn->flags & RB_ALGO_CONTROL)) {
        fprintf(stderr, "FAIL modn is not registered as a control\n");
        return 1;
    }
    for (size_t hi = 0; hi < PROP_N_HASHES; hi++)
        for (uint32_t n = 2; n <= 64; n++)
            for (uint64_t seed = 1; seed <= 4; seed++) {
                rb_case c;
                prop_case(modn, prop_hashes[hi], n, 1, 1024, seed, &c);
                const rb_movement *add = &c.change[RB_CHANGE_ADD];
                prop_check(add->n_violating_buckets > 0,
                           "algo modn hash %s N %u seed %llu add: verifier reported 0 violations, "
                           "expected > 0",
                           prop_hashes[hi]->name, n, (unsigned long long)seed);
                prop_check(add->moved_bucket_fraction > 1.5 * add->ideal_fraction,
                           "algo modn hash %s N %u seed %llu add: moved %.3f, expected > 1.5 x "
                           "ideal %.3f",
                           prop_hashes[hi]->name, n, (unsigned long long)seed,
                           add->moved_bucket_fraction, add->ideal_fraction);
                for (int k = RB_CHANGE_REMOVE_LAST; n >= 3 && k <= RB_CHANGE_REMOVE_MIDDLE; k++)
                    prop_check(c.change[k].n_violating_buckets > 0,
                               "algo modn hash %s N %u seed %llu %s: verifier reported 0 "
                               "violations, expected > 0",
                               prop_hashes[hi]->name, n, (unsigned long long)seed,
                               rb_change_name(k));
            }
    return prop_finish("prop_control");
}
