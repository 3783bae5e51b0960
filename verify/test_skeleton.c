/*
 * test_skeleton.c — what `skeleton` (weighted skeleton-based rendezvous,
 * impls/skeleton.c) claims (issue 13):
 *
 *   spread by weight  each member owns w / sum(w) of 200,000 random
 *                     positions, within 6 binomial standard deviations, at
 *                     fanout_bits 1, 3 and 8, N 40 and 1,024 (weights 1..4),
 *                     and when every member's key is equal (a test-only ring
 *                     hash that returns 0: one group resolved by xxh3 ids);
 *   movement          adding a member of weight 2, or removing one, moves at
 *                     least the ideal share (the new member gets its share
 *                     within 6 standard deviations; the removed member's
 *                     positions all move) and at most the declared
 *                     movement_bound x ideal; the measured multiple is printed
 *                     to stderr (bench/README.md, "skeleton", quotes it).
 *
 * Known answers: verify/test_skeleton_kat.sh against kat/skeleton_ref.py.
 * Positions: splitmix64 from a fixed seed (replayable). Failures name the
 * case, got and expected.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"
#include "unit.h"

enum { N_POS = 200000 };

static uint64_t zero_fn(const void *data, size_t len, uint64_t seed) {
    (void)data, (void)len, (void)seed;
    return 0;
}
static const rb_hash zero32 = {"zero32", "test only: every input hashes to 0", 32, zero_fn, NULL};

static rb_config config(const rb_hash *h, const char *param) {
    rb_config c;
    rb_config_init(&c);
    c.ring_hash = c.bucket_hash = h;
    if (param && rb_config_set_param(&c, param) != 0) exit(1);
    return c;
}

static void weigh(rb_unit_members *ms) {
    for (size_t i = 0; i < ms->n; i++)
        ms->m[i].weight = (uint32_t)(i % 4 + 1);
}

static void check_spread(const rb_config *cfg, size_t n, const char *case_) {
    rb_unit_members ms;
    rb_unit_members_make(&ms, n, "sk-%u");
    weigh(&ms);
    rb_ring *r = rb_unit_build(rb_algo_by_name("skeleton"), cfg, ms.m, ms.n, case_);
    uint32_t *count = calloc(n, sizeof *count);
    if (r && count) {
        uint64_t rng = 7;
        for (int k = 0; k < N_POS; k++)
            count[rb_ring_owner_position(r, rb_unit_rand(&rng))]++;
        double total_w = 0;
        for (size_t i = 0; i < n; i++)
            total_w += ms.m[i].weight;
        unsigned bad = 0;
        for (size_t i = 0; i < n; i++) {
            double p = ms.m[i].weight / total_w, mean = N_POS * p, sd = sqrt(N_POS * p * (1 - p));
            if (fabs(count[i] - mean) > 6 * sd && bad++ < 3)
                rb_unit_true("skeleton", case_, 0,
                             "member %s (weight %u): got %u positions, "
                             "expected %.0f +- %.0f (6 sd)",
                             ms.ids[i], ms.m[i].weight, count[i], mean, 6 * sd);
        }
        rb_unit_eq("skeleton", case_, bad, 0);
    }
    free(count);
    rb_ring_destroy(r);
    rb_unit_members_free(&ms);
}

/* Moved fraction between two rings, by owner id; `to_new` counts the moves
 * onto member id `new_id` (NULL: none). */
static double moved(const rb_ring *a, const rb_ring *b, const char *new_id, double *to_new) {
    uint64_t rng = 11;
    unsigned long n_moved = 0, n_new = 0;
    for (int k = 0; k < N_POS; k++) {
        uint64_t pos = rb_unit_rand(&rng);
        const char *x = rb_unit_member_name(a, rb_ring_owner_position(a, pos));
        const char *y = rb_unit_member_name(b, rb_ring_owner_position(b, pos));
        if (strcmp(x, y) != 0) n_moved++, n_new += new_id && strcmp(y, new_id) == 0;
    }
    *to_new = (double)n_new / N_POS;
    return (double)n_moved / N_POS;
}

static void check_movement(const rb_config *cfg, size_t n, const char *case_) {
    const rb_algo *a = rb_algo_by_name("skeleton");
    rb_unit_members ms;
    rb_unit_members_make(&ms, n + 1, "mv-%u");
    weigh(&ms);
    ms.m[n].weight = 2;
    double total_w = 0;
    for (size_t i = 0; i < n; i++)
        total_w += ms.m[i].weight;
    char c[160];
    rb_ring *before = rb_unit_build(a, cfg, ms.m, n, case_);
    rb_ring *added = rb_unit_build(a, cfg, ms.m, n + 1, case_);
    /* remove member n / 2 (weight n / 2 % 4 + 1): swap it to the end */
    rb_member gone = ms.m[n / 2];
    ms.m[n / 2] = ms.m[n - 1];
    rb_ring *removed = rb_unit_build(a, cfg, ms.m, n - 1, case_);
    if (before && added && removed) {
        double to_new, ideal = 2 / (total_w + 2), bound = a->movement_bound * ideal;
        double got = moved(before, added, ms.ids[n], &to_new);
        double sd = sqrt(ideal * (1 - ideal) / N_POS);
        snprintf(c, sizeof c, "%s, add a member of weight 2", case_);
        rb_unit_true("skeleton", c, fabs(to_new - ideal) <= 6 * sd,
                     "got %.4f of the positions onto the new member, expected %.4f +- %.4f", to_new,
                     ideal, 6 * sd);
        rb_unit_true("skeleton", c, got >= to_new && got <= bound,
                     "got %.4f moved, expected %.4f (onto it) .. %.4f (bound %.1f x ideal)", got,
                     to_new, bound, a->movement_bound);
        fprintf(stderr, "skeleton %s: moved %.2f x ideal\n", c, got / ideal);
        ideal = gone.weight / total_w, bound = a->movement_bound * ideal;
        got = moved(before, removed, NULL, &to_new);
        snprintf(c, sizeof c, "%s, remove a member of weight %u", case_, gone.weight);
        rb_unit_true("skeleton", c,
                     got >= ideal - 6 * sqrt(ideal * (1 - ideal) / N_POS) && got <= bound,
                     "got %.4f moved, expected %.4f (its share) .. %.4f (bound %.1f x ideal)", got,
                     ideal, bound, a->movement_bound);
        fprintf(stderr, "skeleton %s: moved %.2f x ideal\n", c, got / ideal);
    }
    rb_ring_destroy(before), rb_ring_destroy(added), rb_ring_destroy(removed);
    rb_unit_members_free(&ms);
}

int main(void) {
    const char *fanouts[] = {"fanout_bits=1", "fanout_bits=3", "fanout_bits=8"};
    char c[160];
    for (int f = 0; f < 3; f++) {
        rb_config cfg = config(&rb_hash_xxh3, fanouts[f]);
        for (size_t n = 40; n <= 1024; n += 984) {
            snprintf(c, sizeof c, "xxh3 %s N=%zu weights 1..4, spread", fanouts[f], n);
            check_spread(&cfg, n, c);
            snprintf(c, sizeof c, "xxh3 %s N=%zu", fanouts[f], n);
            check_movement(&cfg, n, c);
        }
    }
    rb_config fnv = config(&rb_hash_fnv1a32, NULL);
    check_spread(&fnv, 64, "fnv1a32 N=64 weights 1..4, spread");
    check_movement(&fnv, 64, "fnv1a32 N=64");
    rb_config zero = config(&zero32, NULL);
    check_spread(&zero, 24, "every key equal (one group by xxh3 ids), weights 1..4, spread");
    return rb_unit_finish("test_skeleton");
}
