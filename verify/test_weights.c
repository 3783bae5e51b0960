/*
 * test_weights.c — the weighted score of the rendezvous family (impls/hrw.h:
 * `rendezvous` and `skeleton`) at the ends of the unit interval, and what a
 * weight means to it (issue 12, section 3):
 *
 *   unit interval   u = rb_hrw_unit_open(x) is strictly inside (0, 1) for x = 0,
 *                   1, 2^11 - 1, 2^11 and the top inputs 2^64 - 1 and
 *                   2^64 - 2^11 (whose top 53 bits are all ones: (2^53 - 0.5) /
 *                   2^53 rounds to 1.0 in a double, which gave a score of -inf);
 *                   the top input maps to the largest double below 1, 0 to
 *                   2^-53, and the score of every one of them is finite and > 0;
 *   the issue's case `owner --algo rendezvous --hash fnv1a32 --buckets 262144
 *                   k64756` over w-Byyd07, y: the same owner with weights
 *                   (1, 1), (2, 2) and (5, 1) (it was y for the last two);
 *   scaling         multiplying every weight by k (2, 3, 7) changes no owner of
 *                   100,000 random positions, N 2, 5 and 17, weights 1..4;
 *   raising         raising one member's weight (x2, +1) never loses it a
 *                   position; under rendezvous no other member gains one either
 *                   (skeleton may move positions to the member's group-mates:
 *                   their group weighs more).
 *
 * Both properties follow from the score w / -ln(u): every score scales by k;
 * a member's raised weight raises only its own scores (in skeleton, only the
 * total weight of the groups on its path).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../impls/hrw.h"
#include "ringbench/ring.h"
#include "unit.h"

enum { N_POS = 100000 };

static void check_unit_interval(void) {
    const uint64_t xs[] = {0, 1, 2047, 2048, UINT64_MAX, UINT64_MAX - 2047, UINT64_MAX - 2048};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double u = rb_hrw_unit_open(xs[i]), s = rb_hrw_score(1.0, xs[i], 0);
        char case_[64];
        snprintf(case_, sizeof case_, "x = %llu", (unsigned long long)xs[i]);
        rb_unit_true("u strictly inside (0, 1)", case_, u > 0.0 && u < 1.0, "u = %.17g", u);
        rb_unit_true("score finite and > 0", case_, isfinite(s) && s > 0, "score = %g", s);
    }
    rb_unit_true("top input maps to 1 - 2^-53", "x = 2^64 - 1",
                 rb_hrw_unit_open(UINT64_MAX) == 0x1.fffffffffffffp-1, "u = %.17g",
                 rb_hrw_unit_open(UINT64_MAX));
    rb_unit_true("0 maps to 2^-53", "x = 0", rb_hrw_unit_open(0) == 0x1.0p-53, "u = %.17g",
                 rb_hrw_unit_open(0));
}

/* Owner id of `key` on algo over members with the given weights (fnv1a32, B 262144). */
static const char *issue_owner(const char *algo, uint32_t w0, uint32_t w1, char *buf) {
    rb_member m[2] = {{.id = "w-Byyd07", .id_len = 8, .weight = w0},
                      {.id = "y", .id_len = 1, .weight = w1}};
    rb_config c;
    rb_config_init(&c);
    c.ring_hash = c.bucket_hash = rb_hash_by_name("fnv1a32");
    c.n_buckets = 262144;
    rb_ring *r = rb_unit_build(rb_algo_by_name(algo), &c, m, 2, "issue 12 case");
    if (!r) return "(no ring)";
    uint32_t b = rb_bucket_of(rb_ring_config(r), "k64756", 6);
    strcpy(buf, rb_unit_member_name(r, rb_ring_owner_bucket(r, b)));
    rb_ring_destroy(r);
    return buf;
}

static void check_issue_case(void) {
    char a[64], b[64], c[64];
    issue_owner("rendezvous", 1, 1, a);
    rb_unit_true("issue 12 case, weights (2, 2)", "rendezvous",
                 strcmp(issue_owner("rendezvous", 2, 2, b), a) == 0, "owner %s, (1, 1) gives %s", b,
                 a);
    rb_unit_true("issue 12 case, weights (5, 1)", "rendezvous",
                 strcmp(issue_owner("rendezvous", 5, 1, c), a) == 0, "owner %s, (1, 1) gives %s", c,
                 a);
}

/* Owners of N_POS random positions (seeded) on algo over ms. Caller frees. */
static uint32_t *owners(const char *algo, const rb_hash *h, const rb_unit_members *ms,
                        const char *case_) {
    rb_config c;
    rb_config_init(&c);
    c.ring_hash = c.bucket_hash = h;
    rb_ring *r = rb_unit_build(rb_algo_by_name(algo), &c, ms->m, ms->n, case_);
    uint32_t *o = r ? malloc(N_POS * sizeof *o) : NULL;
    if (o) {
        uint64_t rng = 12;
        for (int k = 0; k < N_POS; k++)
            o[k] = rb_ring_owner_position(r, rb_unit_rand(&rng));
    }
    rb_ring_destroy(r);
    return o;
}

/* Positions whose owner differs between a and b; *lost: positions member m owned in a and
 * not in b; *gained_other: positions a member other than m owns in b and not in a. */
static size_t diff(const uint32_t *a, const uint32_t *b, uint32_t m, size_t *lost,
                   size_t *gained_other) {
    size_t n = 0;
    *lost = *gained_other = 0;
    for (int k = 0; k < N_POS; k++) {
        if (a[k] == b[k]) continue;
        n++;
        *lost += a[k] == m;
        *gained_other += b[k] != m;
    }
    return n;
}

static void check_weights(const char *algo, const rb_hash *h, size_t n) {
    rb_unit_members ms;
    rb_unit_members_make(&ms, n, "wt-%u");
    for (size_t i = 0; i < n; i++)
        ms.m[i].weight = (uint32_t)(i % 4 + 1);
    char case_[96];
    snprintf(case_, sizeof case_, "%s %s N %zu", algo, h->name, n);
    uint32_t *base = owners(algo, h, &ms, case_);
    for (uint32_t k = 2; base && k <= 7; k += k == 3 ? 4 : 1) { /* k = 2, 3, 7 */
        for (size_t i = 0; i < n; i++)
            ms.m[i].weight = (uint32_t)(i % 4 + 1) * k;
        uint32_t *o = owners(algo, h, &ms, case_);
        size_t lost, other, moved = o ? diff(base, o, 0, &lost, &other) : 1;
        rb_unit_true("scaling every weight changes no owner", case_, moved == 0,
                     "x%u moved %zu of %d positions", k, moved, N_POS);
        free(o);
    }
    for (size_t i = 0; i < n; i++)
        ms.m[i].weight = (uint32_t)(i % 4 + 1);
    for (uint32_t m = 0; base && m < n; m += (uint32_t)(n > 4 ? n / 3 : 1)) {
        uint32_t w = ms.m[m].weight;
        for (int step = 0; step < 2; step++) {
            ms.m[m].weight = step ? w + 1 : w * 2;
            uint32_t *o = owners(algo, h, &ms, case_);
            size_t lost = 1, other = 1;
            if (o) diff(base, o, m, &lost, &other);
            /* flat rendezvous: only m's own scores rise, so any move is to m; skeleton:
             * the groups on m's path weigh more, so a move may go to m's group-mates */
            int flat = strcmp(algo, "rendezvous") == 0;
            rb_unit_true("raising a weight loses its member nothing", case_,
                         lost == 0 && (!flat || other == 0),
                         "member %u weight %u -> %u: lost %zu, others gained %zu", m, w,
                         ms.m[m].weight, lost, other);
            free(o);
        }
        ms.m[m].weight = w;
    }
    free(base);
    rb_unit_members_free(&ms);
}

int main(void) {
    check_unit_interval();
    check_issue_case();
    const char *algos[] = {"rendezvous", "skeleton"};
    const char *hashes[] = {"fnv1a32", "xxh3"};
    const size_t ns[] = {2, 5, 17};
    for (size_t a = 0; a < 2; a++)
        for (size_t h = 0; h < 2; h++)
            for (size_t i = 0; i < 3; i++)
                check_weights(algos[a], rb_hash_by_name(hashes[h]), ns[i]);
    return rb_unit_finish("test_weights");
}
