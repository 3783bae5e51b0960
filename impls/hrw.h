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

/* u in (0, 1) from the top 53 bits with the lowest forced to 1, ((x >> 11) | 1) / 2^53: an
 * odd multiple of 2^-53 from 2^-53 to 1 - 2^-53, exact in a double, so never 0 or 1 and
 * ln(u) < 0 is finite. (The former ((x >> 11) + 0.5) / 2^53 rounded to 1.0 for the top
 * input, 2^53 - 0.5 not being a double: a score of -inf for the largest hash, issue 12,
 * section 3.) Two inputs that differ only in bit 11 tie; the callers break ties by index. */
static inline double rb_hrw_unit_open(uint64_t x) { return (double)((x >> 11) | 1) * 0x1.0p-53; }

/* The weighted score w / -ln(u) of (pos, id); > 0, finite for w > 0. Pure. */
static inline double rb_hrw_score(double w, uint64_t pos, uint64_t id) {
    return -w / log(rb_hrw_unit_open(rb_hash_fmix64(pos ^ id)));
}

#endif
