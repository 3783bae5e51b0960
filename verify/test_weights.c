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
 *   collisions      ids whose 32-bit ring hashes collide (mlpfs, m4vja under
 *                   fnv1a32, 3706980687) own their weight's share, in both
 *                   list orders (under rendezvous one owned nothing), and a
 *                   colliding member's join or leave moves positions only to
 *                   or from it, about 1/N of them (a fix that re-keyed only
 *                   colliding ids moved positions among existing members);
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

/* The ids mlpfs and m4vja collide under fnv1a32 (fresh user). */
static const char *const COLL_A = "mlpfs", *const COLL_B = "m4vja";

/* Members ids[0 .. n) with weights w[i] (NULL: all 1) into ms. */
static void set_members(rb_unit_members *ms, const char *const *ids, const uint32_t *w, size_t n) {
    rb_unit_members_make(ms, n, "c%u");
    for (size_t i = 0; i < n; i++) {
        ms->m[i].id = ids[i];
        ms->m[i].id_len = strlen(ids[i]);
        ms->m[i].weight = w ? w[i] : 1;
    }
}

/* With weights (3, 1, 1) over mlpfs, m4vja, x each must own its share w / 5 of N_POS
 * positions within 6 binomial standard deviations, in both list orders. */
static void check_collision_shares(const char *algo, const rb_hash *h) {
    const char *ids[2][3] = {{COLL_A, COLL_B, "x"}, {"x", COLL_B, COLL_A}};
    const uint32_t w[2][3] = {{3, 1, 1}, {1, 1, 3}};
    for (int order = 0; order < 2; order++) {
        rb_unit_members ms;
        set_members(&ms, ids[order], w[order], 3);
        char case_[64];
        snprintf(case_, sizeof case_, "%s fnv1a32, list order %d", algo, order);
        uint32_t *o = owners(algo, h, &ms, case_), count[3] = {0};
        for (int k = 0; o && k < N_POS; k++)
            count[o[k]]++;
        for (int i = 0; o && i < 3; i++) {
            double p = w[order][i] / 5.0, want = p * N_POS, sd = sqrt(N_POS * p * (1 - p));
            rb_unit_true("colliding ids own their weight's share", case_,
                         fabs(count[i] - want) <= 6 * sd, "%s owns %u of %d, want %.0f +- %.0f",
                         ids[order][i], count[i], N_POS, want, 6 * sd);
        }
        free(o);
        rb_unit_members_free(&ms);
    }
}

/* Members x, y, mlpfs (3) and the same plus m4vja (4): under a monotone algorithm
 * (rendezvous) every position whose owner differs belongs to m4vja in the larger membership
 * (its join moves positions only to it, its leave only from it), and about N_POS / 4 move;
 * otherwise (skeleton) at most the declared movement_bound x N_POS / 4 move. Then the partner
 * leaves: x, y, m4vja against the four, positions moving only from mlpfs. */
static void check_collision_join(const char *algo, const rb_hash *h) {
    const char *four[] = {"x", COLL_A, "y", COLL_B}, *without_b[] = {"x", COLL_A, "y"},
               *without_a[] = {"x", "y", COLL_B};
    const char *const *small[2] = {without_b, without_a}, *changed[2] = {COLL_B, COLL_A};
    const rb_algo *a = rb_algo_by_name(algo);
    int monotone = (a->flags & RB_ALGO_MONOTONE) != 0;
    rb_unit_members big;
    set_members(&big, four, NULL, 4);
    char case_[64];
    snprintf(case_, sizeof case_, "%s fnv1a32, 4 members", algo);
    uint32_t *ob = owners(algo, h, &big, case_);
    for (int t = 0; ob && t < 2; t++) {
        rb_unit_members sm;
        set_members(&sm, small[t], NULL, 3);
        snprintf(case_, sizeof case_, "%s fnv1a32, %s joins/leaves", algo, changed[t]);
        uint32_t *os = owners(algo, h, &sm, case_);
        size_t moved = 0, among_others = 0;
        for (int k = 0; os && k < N_POS; k++) {
            const char *before = small[t][os[k]], *after = four[ob[k]];
            if (strcmp(before, after) == 0) continue;
            moved++;
            among_others += strcmp(after, changed[t]) != 0;
        }
        double want = N_POS / 4.0, sd = sqrt(N_POS * 0.25 * 0.75);
        if (monotone) {
            rb_unit_true("a colliding member's join moves positions only to it", case_,
                         os && among_others == 0, "%zu of %zu moved positions went between others",
                         among_others, moved);
            rb_unit_true("a colliding member's join moves about 1/N", case_,
                         os && fabs(moved - want) <= 6 * sd, "moved %zu of %d, want %.0f +- %.0f",
                         moved, N_POS, want, 6 * sd);
        } else {
            rb_unit_true("a colliding member's join moves within the declared bound", case_,
                         os && moved <= a->movement_bound * want, "moved %zu of %d, bound %.0f",
                         moved, N_POS, a->movement_bound * want);
        }
        free(os);
        rb_unit_members_free(&sm);
    }
    free(ob);
    rb_unit_members_free(&big);
}

static void check_collision(const char *algo) {
    const rb_hash *h = rb_hash_by_name("fnv1a32");
    rb_unit_true("precondition: the ids collide", "fnv1a32",
                 h->fn(COLL_A, 5, 0) == h->fn(COLL_B, 5, 0), "%llu vs %llu",
                 (unsigned long long)h->fn(COLL_A, 5, 0), (unsigned long long)h->fn(COLL_B, 5, 0));
    check_collision_shares(algo, h);
    check_collision_join(algo, h);
}

int main(void) {
    check_unit_interval();
    check_collision("rendezvous");
    check_collision("skeleton");
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
