/*
 * band.h — the acceptance band of a movement fraction, derived from its
 * binomial spread at the test's size instead of picked by hand. Used by
 * test_scale.c and prop_seed_example.c (header only: both link different
 * libraries).
 *
 * Model. A change that should move a share p of the B buckets (p = 1/(N+1)
 * on an add, 1/N on a remove) moves, when placement behaves as random:
 *   - per-bucket draws (rendezvous, jump, the modn control): Binomial(B, p)
 *     buckets, variance B p (1 - p);
 *   - a ring of n_points random vnodes where the changed member holds a
 *     share s of the circle: s is the sum of its vnodes' arcs, Beta
 *     distributed with variance p (1 - p) / (n_points + 1); given s the B
 *     buckets land Binomial(B, s). Total variance of the fraction, to first
 *     order: p (1 - p) (1/B + 1/(n_points + 1)).
 * A mean over n_draws independent memberships divides the variance by
 * n_draws. The band is p ± RB_BAND_Z standard deviations.
 */
#ifndef RINGBENCH_BAND_H
#define RINGBENCH_BAND_H

#include <math.h>
#include <stdint.h>

/* z of the band: a two-sided normal tail of 6.8e-6, the false-alarm rate of
 * one check when the code is right (about 1 in 147,000 checks). */
#define RB_BAND_Z 4.5
#define RB_BAND_FALSE_ALARM "6.8e-6"

typedef struct rb_band {
    double ideal, sd, lo, hi; /* fractions of the buckets */
} rb_band;

/*
 * rb_movement_band — band of a movement fraction with ideal share p over B
 * buckets; n_points = vnodes on the ring (0 for per-bucket placement);
 * n_draws = independent memberships averaged (>= 1).
 */
static inline rb_band rb_movement_band(double p, uint32_t n_buckets, uint64_t n_points,
                                       double n_draws) {
    double var = p * (1 - p) / (double)n_buckets;
    if (n_points) var += p * (1 - p) / ((double)n_points + 1);
    rb_band b = {.ideal = p, .sd = sqrt(var / n_draws)};
    b.lo = p - RB_BAND_Z * b.sd;
    b.hi = p + RB_BAND_Z * b.sd;
    return b;
}

#endif
