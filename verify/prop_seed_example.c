/*
 * prop_seed_example.c — the seed's headline: 3 -> 4 workers, 1,024 buckets,
 * 128 vnodes, the seed's hash (fnv1a32). Prints moved buckets for every
 * algorithm against the ideal 256 and checks:
 *   - monotone algorithms move nothing except to the new member;
 *   - linear, binary and table (same placement rule) move the same buckets;
 *   - consistent algorithms move, on the mean over 32 random memberships,
 *     the ideal within the binomial band of band.h (±4.5 sd, false-alarm rate
 *     6.8e-6 per check): B = 1,024, the ring's 512 vnodes, and 32 independent
 *     draws for algorithms whose placement depends on the member ids
 *     (RB_ALGO_ORDER_FREE); positional ones (jump) place the same whatever
 *     the ids, so their 32 memberships are one draw; the control (modn) more
 *     moves 3/4 of the buckets (h mod 3 == h mod 4 keeps 1/4), in the same
 *     binomial band.
 */
#include <string.h>

#include "band.h"
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
        if (a->flags & (RB_ALGO_MONOTONE | RB_ALGO_MONOTONE_LAST)) {
            prop_check(ex.n_violating_buckets == 0,
                       "algo %s seed example: %llu buckets moved elsewhere than worker-4, "
                       "expected 0",
                       a->name, (unsigned long long)ex.n_violating_buckets);
            uint64_t points = (a->flags & RB_ALGO_USES_VNODES)
                                  ? (uint64_t)(RB_SEED_EXAMPLE_N + 1) * RB_SEED_EXAMPLE_VNODES
                                  : 0;
            double draws = (a->flags & RB_ALGO_ORDER_FREE) ? (double)N_SEEDS : 1.0;
            rb_band band = rb_movement_band(1.0 / (RB_SEED_EXAMPLE_N + 1), RB_SEED_EXAMPLE_BUCKETS,
                                            points, draws);
            double B = RB_SEED_EXAMPLE_BUCKETS;
            prop_check(ex.mean_moved_buckets >= band.lo * B && ex.mean_moved_buckets <= band.hi * B,
                       "algo %s seed example: mean moved %.1f over %d memberships, expected "
                       "%.0f ± %.1f sd = %.1f .. %.1f",
                       a->name, ex.mean_moved_buckets, N_SEEDS, band.ideal * B, RB_BAND_Z,
                       band.lo * B, band.hi * B);
            printf("%-10s band %.1f .. %.1f (independent draws: %g)\n", a->name, band.lo * B,
                   band.hi * B, draws);
        }
        if (a->flags & RB_ALGO_CONTROL) {
            /* modn: a bucket keeps its owner when h mod 3 == h mod 4 (1/4). */
            rb_band band = rb_movement_band(0.75, RB_SEED_EXAMPLE_BUCKETS, 0, 1);
            double B = RB_SEED_EXAMPLE_BUCKETS;
            prop_check(ex.mean_moved_buckets >= band.lo * B && ex.mean_moved_buckets <= band.hi * B,
                       "control %s seed example: mean moved %.1f, expected 3/4 of %u ± %.1f sd = "
                       "%.1f .. %.1f",
                       a->name, ex.mean_moved_buckets, RB_SEED_EXAMPLE_BUCKETS, RB_BAND_Z,
                       band.lo * B, band.hi * B);
        }
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
