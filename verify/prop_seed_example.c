/*
 * prop_seed_example.c — the seed's headline: 3 -> 4 workers, 1,024 buckets,
 * 128 vnodes, the seed's hash (fnv1a32). Prints moved buckets for every
 * algorithm against the ideal 256 and checks:
 *   - monotone algorithms move nothing except to the new member;
 *   - linear, binary and table (same placement rule) move the same buckets;
 *   - consistent algorithms move, on the mean over 32 random memberships,
 *     between 0.5 and 1.5 times the ideal; the control (modn) more than 2x.
 */
#include <string.h>

#include "prop_util.h"

int main(void) {
    enum { N_SEEDS = 32 };
    const rb_hash *h = &rb_hash_fnv1a32;
    printf("the seed's example: 3 -> 4 workers, %u buckets, %u vnodes, hash %s; ideal %u\n",
           RB_SEED_EXAMPLE_BUCKETS, RB_SEED_EXAMPLE_VNODES, h->name,
           RB_SEED_EXAMPLE_BUCKETS / (RB_SEED_EXAMPLE_N + 1));
    printf("%-10s %6s %6s %11s %10s %12s %6s\n", "algo", "moved", "ideal", "moved/ideal",
           "not to new", "random mean", "worst");
    uint64_t ring_moved = UINT64_MAX;
    for (size_t ai = 0; ai < rb_algo_count(); ai++) {
        const rb_algo *a = rb_algo_at(ai);
        rb_seed_example ex;
        if (rb_seed_example_run(a, h, N_SEEDS, 1, &ex)) {
            fprintf(stderr, "FAIL algo %s: %s\n", a->name, rb_error_detail());
            return 1;
        }
        printf("%-10s %6llu %6llu %11.2f %10llu %12.1f %6llu\n", a->name,
               (unsigned long long)ex.n_moved_buckets, (unsigned long long)ex.n_ideal_buckets,
               (double)ex.n_moved_buckets / (double)ex.n_ideal_buckets,
               (unsigned long long)ex.n_violating_buckets, ex.mean_moved_buckets,
               (unsigned long long)ex.worst_moved_buckets);
        double ratio = ex.mean_moved_buckets / (double)ex.n_ideal_buckets;
        if (a->flags & (RB_ALGO_MONOTONE | RB_ALGO_MONOTONE_LAST)) {
            prop_check(ex.n_violating_buckets == 0,
                       "algo %s seed example: %llu buckets moved elsewhere than worker-4, "
                       "expected 0",
                       a->name, (unsigned long long)ex.n_violating_buckets);
            prop_check(ratio > 0.5 && ratio < 1.5,
                       "algo %s seed example: mean moved %.1f over %d memberships, expected "
                       "0.5 .. 1.5 x ideal %llu",
                       a->name, ex.mean_moved_buckets, N_SEEDS,
                       (unsigned long long)ex.n_ideal_buckets);
        }
        if (a->flags & RB_ALGO_CONTROL)
            prop_check(ratio > 2.0,
                       "control %s seed example: mean moved %.1f, expected > 2 x ideal %llu",
                       a->name, ex.mean_moved_buckets, (unsigned long long)ex.n_ideal_buckets);
        if (!strcmp(a->name, "linear") || !strcmp(a->name, "binary") || !strcmp(a->name, "table")) {
            if (ring_moved == UINT64_MAX) ring_moved = ex.n_moved_buckets;
            prop_check(ex.n_moved_buckets == ring_moved,
                       "algo %s seed example: moved %llu, expected %llu like the other sorted "
                       "vnode rings",
                       a->name, (unsigned long long)ex.n_moved_buckets,
                       (unsigned long long)ring_moved);
        }
    }
    return prop_finish("prop_seed_example");
}
