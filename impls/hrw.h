/*
 * hrw.h — internal: the weighted highest-random-weight score that
 * `rendezvous` and `skeleton` compare. Not a public header.
 *
 * Score of a choice with key `id` and weight w for position pos: w / -ln(u),
 * u in (0, 1) from the top 53 bits of fmix64(pos ^ id). With E = -ln(u)
 * exponential of rate 1, the highest w / E (the lowest E / w, exponential of
 * rate w) is choice i with probability w_i / sum(w): the logarithmic method
 * (Schindelhauer & Schomaker, "Weighted Distributed Hash Tables", SPAA 2005;
 * J. Resch, "New Hashing Algorithms for Data Storage", 2015).
 */
#ifndef RINGBENCH_HRW_H
#define RINGBENCH_HRW_H

#include <math.h>
#include <stdint.h>

#include "ringbench/hash.h"

/* u in (0, 1) from the top 53 bits, ((x >> 11) + 0.5) / 2^53: never 0 or 1, so ln(u) < 0 is
 * finite. The top input's 2^53 - 0.5 is not a double and rounds to 2^53 (u = 1.0, a score of
 * -inf for the largest hash: issue 12, section 3), so it is held at the largest double below 1
 * (1 - 2^-53, what the input below it gives); every other input maps as the formula says. */
static inline double rb_hrw_unit_open(uint64_t x) {
    double u = ((double)(x >> 11) + 0.5) * 0x1.0p-53;
    return u < 1.0 ? u : 0x1.fffffffffffffp-1;
}

/* The weighted score w / -ln(u) of (pos, id); > 0, finite for w > 0. Pure. */
static inline double rb_hrw_score(double w, uint64_t pos, uint64_t id) {
    return -w / log(rb_hrw_unit_open(rb_hash_fmix64(pos ^ id)));
}

#endif
