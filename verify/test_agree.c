/*
 * test_agree.c — `linear` == `binary` == `front` == `table` (issues 2, 13).
 *
 * The test keeps its own reference ring: every vnode's position, sorted by
 * the documented total order (position, member id bytes then length, vnode
 * index), searched for the first point at or after a position with a wrap
 * to point 0 (the seed's lookupOwner). For many random memberships (N 1..64,
 * random V and weights, fnv1a32 and xxh3, seeds 0 and not) every ring
 * algorithm of the vnode family must give the reference owner on all 1,024
 * buckets, on 100,000 keys, at positions 0, 1, the top of the hash space and
 * past it, and exactly on, just before and just after every point; `table`
 * must equal the ring it was filled from.
 *
 * Forced collisions: a test-only coarse hash keeps only the top 8 bits of
 * xxh3 (64-bit) or of fnv1a32 (32-bit), so many vnodes share a position and
 * many buckets sit exactly on points. Besides agreement, removing any one
 * member must leave every other colliding member's point in place (the next
 * member in id order owns the position) and must not move any position that
 * the removed member did not own.
 *
 * `front` (issue 13) besides: equal to `binary` on every bucket, on random
 * positions and on both sides of slot boundaries of every front table size,
 * for N up to 1,024, weights, seeds, four hashes (two coarse ones put
 * points on the first and on the last position of slots) and
 * front tables of 2 slots (max_bits=1), of the default size and of up to
 * 2^22 slots (slots_per_point=64, max_bits=22), in both slot formats
 * (slot_owners 3 and 2); on, just below and just
 * above every point (a slot's one boundary, and the positions that share
 * its stored top offset bits); and at N 4,095 / 4,096 and 65,535 / 65,536,
 * the last membership of each slot format (12-bit owners, 16-bit owners)
 * and the first past it.
 */
#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"
#include "unit.h"

/* --- the test-only coarse hashes --- */

static uint64_t coarse64_fn(const void *data, size_t len, uint64_t seed) {
    return rb_hash_xxh3.fn(data, len, seed) & 0xFF00000000000000ULL;
}
static uint64_t coarse32_fn(const void *data, size_t len, uint64_t seed) {
    return rb_hash_fnv1a32.fn(data, len, seed) & 0xFF000000u;
}
/* Points on the last position of front table slots (low 56 bits set). */
static uint64_t coarse64_end_fn(const void *data, size_t len, uint64_t seed) {
    return rb_hash_xxh3.fn(data, len, seed) | 0x00FFFFFFFFFFFFFFULL;
}
static const rb_hash coarse64 = {"coarse64", "test only: top 8 bits of xxh3", 64, coarse64_fn,
                                 NULL};
static const rb_hash coarse32 = {"coarse32", "test only: top 8 bits of fnv1a32", 32, coarse32_fn,
                                 NULL};
static const rb_hash coarse64_end = {"coarse64-end", "test only: top 8 bits of xxh3, low bits set",
                                     64, coarse64_end_fn, NULL};

/* --- the reference ring --- */

typedef struct {
    uint64_t pos;
    uint32_t member; /* index into the membership list */
    uint32_t vnode;
} ref_point;

typedef struct {
    ref_point *p;
    size_t n;
    const rb_member *m;
} ref_ring;

static const rb_member *sort_members; /* for qsort's comparator */

static int id_cmp(const rb_member *a, const rb_member *b) {
    size_t n = a->id_len < b->id_len ? a->id_len : b->id_len;
    int c = memcmp(a->id, b->id, n);
    return c ? c : (a->id_len > b->id_len) - (a->id_len < b->id_len);
}

static int point_cmp(const void *x, const void *y) {
    const ref_point *a = x, *b = y;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    int c = id_cmp(&sort_members[a->member], &sort_members[b->member]);
    if (c) return c;
    return (a->vnode > b->vnode) - (a->vnode < b->vnode);
}

static void ref_build(ref_ring *r, const rb_config *cfg, const rb_member *m, size_t n) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += (size_t)cfg->n_vnodes * m[i].weight;
    r->p = malloc(total * sizeof *r->p);
    r->n = total;
    r->m = m;
    if (!r->p) exit(1);
    char label[64];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t v = 0; v < cfg->n_vnodes * m[i].weight; v++) {
            size_t len = rb_vnode_label(label, m[i].id, m[i].id_len, v);
            r->p[k++] = (ref_point){cfg->ring_hash->fn(label, len, cfg->seed), (uint32_t)i, v};
        }
    sort_members = m;
    qsort(r->p, total, sizeof *r->p, point_cmp);
}

/* Index of the member owning `pos`: first point >= pos, else point 0. */
static uint32_t ref_owner(const ref_ring *r, uint64_t pos) {
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->p[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return r->p[lo == r->n ? 0 : lo].member;
}

static uint64_t bucket_position(const rb_config *cfg, uint32_t b) {
    char label[12];
    int len = snprintf(label, sizeof label, "%u", b);
    return cfg->ring_hash->fn(label, (size_t)len, cfg->seed);
}

/* --- the rings under test --- */

enum { N_RINGS = 5, N_POSITIONAL = 3 };
typedef struct {
    rb_ring *r[N_RINGS]; /* linear, binary, front, table from binary, table from linear */
    const char *name[N_RINGS];
} rings;

static int rings_build(rings *rs, const rb_config *cfg, const rb_member *m, size_t n,
                       const char *case_) {
    static const char *const algo[N_RINGS] = {"linear", "binary", "front", "table", "table"};
    static const char *const source[N_RINGS] = {"binary", "binary", "binary", "binary", "linear"};
    static const char *const name[N_RINGS] = {"linear", "binary", "front", "table(binary)",
                                              "table(linear)"};
    int ok = 1;
    for (int i = 0; i < N_RINGS; i++) {
        rb_config c = *cfg;
        c.table_source = source[i];
        rs->name[i] = name[i];
        rs->r[i] = rb_unit_build(rb_algo_by_name(algo[i]), &c, m, n, case_);
        ok &= rs->r[i] != NULL;
    }
    return ok;
}

static void rings_free(rings *rs) {
    for (int i = 0; i < N_RINGS; i++)
        rb_ring_destroy(rs->r[i]);
}

/* Compare each ring's owner (by id) with the reference owner's id. */
static void expect_owner(const char *algo, const char *case_, const rb_ring *r, uint32_t got,
                         const ref_ring *ref, uint32_t expected, unsigned long *n_bad) {
    const rb_member *e = &ref->m[expected];
    size_t len;
    const void *id = rb_ring_member_id(r, got, &len);
    if (len == e->id_len && memcmp(id, e->id, len) == 0) return;
    if ((*n_bad)++ < 3) /* the first few, then only the count */
        rb_unit_true(algo, case_, 0, "got owner '%s', expected '%.*s'", rb_unit_member_name(r, got),
                     (int)e->id_len, (const char *)e->id);
}

static const char *key_bytes[100000];
static size_t key_len[100000];
static char key_storage[100000 * 24];

static void make_keys(uint64_t *rng) {
    char *p = key_storage;
    for (size_t i = 0; i < 100000; i++) {
        key_bytes[i] = p;
        if (i % 2 == 0) { /* producer-style keys */
            key_len[i] = (size_t)snprintf(p, 24, "order:%zu", i);
        } else { /* arbitrary bytes, NULs and invalid UTF-8 included */
            key_len[i] = rb_unit_rand_range(rng, 0, 23);
            for (size_t k = 0; k < key_len[i]; k++)
                p[k] = (char)rb_unit_rand(rng);
        }
        p += 24;
    }
}

/* Agreement of the four rings with the reference on one membership. */
static void check_agreement(const rb_config *cfg, const rb_member *m, size_t n, int with_keys,
                            const char *case_) {
    rings rs;
    ref_ring ref;
    ref_build(&ref, cfg, m, n);
    if (!rings_build(&rs, cfg, m, n, case_)) {
        rings_free(&rs);
        free(ref.p);
        return;
    }
    unsigned long bad[N_RINGS] = {0};
    char c[256];
    snprintf(c, sizeof c, "%s, buckets", case_);
    for (uint32_t b = 0; b < cfg->n_buckets; b++) {
        uint32_t e = ref_owner(&ref, bucket_position(cfg, b));
        for (int i = 0; i < N_RINGS; i++)
            expect_owner(rs.name[i], c, rs.r[i], rb_ring_owner_bucket(rs.r[i], b), &ref, e,
                         &bad[i]);
    }
    /* positions: the ends of the hash space, past it, and every point +-1 */
    const uint64_t top = cfg->ring_hash->bits == 64 ? UINT64_MAX : 0xFFFFFFFFu;
    const uint64_t ends[] = {0, 1, top - 1, top, UINT64_MAX};
    for (size_t k = 0; k < ref.n + 5; k++) {
        uint64_t at[3];
        size_t n_at = 0;
        if (k < 5) {
            at[n_at++] = ends[k];
        } else {
            uint64_t p = ref.p[k - 5].pos;
            at[n_at++] = p;
            if (p > 0) at[n_at++] = p - 1;
            if (p < top) at[n_at++] = p + 1;
        }
        for (size_t j = 0; j < n_at; j++) {
            uint32_t e = ref_owner(&ref, at[j]);
            snprintf(c, sizeof c, "%s, position %llu%s", case_, (unsigned long long)at[j],
                     k < 5 ? " (an end of the hash space)" : " (on or next to a point)");
            for (int i = 0; i < N_POSITIONAL; i++) /* linear, binary and front */
                expect_owner(rs.name[i], c, rs.r[i], rb_ring_owner_position(rs.r[i], at[j]), &ref,
                             e, &bad[i]);
        }
    }
    if (with_keys) {
        snprintf(c, sizeof c, "%s, 100k keys", case_);
        for (size_t k = 0; k < 100000; k++) {
            uint64_t h = cfg->bucket_hash->fn(key_bytes[k], key_len[k], cfg->seed);
            uint32_t e = ref_owner(&ref, bucket_position(cfg, (uint32_t)(h % cfg->n_buckets)));
            for (int i = 0; i < N_RINGS; i++)
                expect_owner(rs.name[i], c, rs.r[i],
                             rb_ring_owner_key(rs.r[i], key_bytes[k], key_len[k]), &ref, e,
                             &bad[i]);
        }
    }
    for (int i = 0; i < N_RINGS; i++) {
        snprintf(c, sizeof c, "%s, disagreements with the reference", case_);
        rb_unit_eq(rs.name[i], c, bad[i], 0);
    }
    rings_free(&rs);
    free(ref.p);
}

static void random_members(rb_unit_members *ms, uint64_t *rng, uint32_t max_n, int weighted) {
    uint32_t n = rb_unit_rand_range(rng, 1, max_n);
    char fmt[32];
    snprintf(fmt, sizeof fmt, "w%%u-%llx", (unsigned long long)(rb_unit_rand(rng) & 0xFFFF));
    rb_unit_members_make(ms, n, fmt);
    for (size_t i = 0; weighted && i < n; i++)
        ms->m[i].weight = rb_unit_rand_range(rng, 1, 3);
}

static void test_random_memberships(uint64_t *rng) {
    const rb_hash *hashes[] = {&rb_hash_fnv1a32, &rb_hash_xxh3};
    for (int round = 0; round < 24; round++) {
        for (int hi = 0; hi < 2; hi++) {
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.ring_hash = cfg.bucket_hash = hashes[hi];
            cfg.n_vnodes = rb_unit_rand_range(rng, 1, 200);
            cfg.seed = round % 3 == 2 ? rb_unit_rand(rng) : 0;
            rb_unit_members ms;
            random_members(&ms, rng, 64, round % 4 == 3);
            char c[160];
            snprintf(c, sizeof c, "%s seed %llu, N=%zu V=%u%s", hashes[hi]->name,
                     (unsigned long long)cfg.seed, ms.n, cfg.n_vnodes,
                     round % 4 == 3 ? " weighted" : "");
            check_agreement(&cfg, ms.m, ms.n, 1, c);
            rb_unit_members_free(&ms);
        }
    }
}

/* Collision checks on one membership under a coarse hash. */
static void check_collisions(const rb_config *cfg, const rb_member *m, size_t n,
                             const char *case_) {
    check_agreement(cfg, m, n, 0, case_);
    ref_ring ref;
    ref_build(&ref, cfg, m, n);
    rings full;
    if (!rings_build(&full, cfg, m, n, case_)) {
        rings_free(&full);
        free(ref.p);
        return;
    }
    size_t n_shared = 0; /* positions held by two or more members */
    for (size_t k = 1; k < ref.n; k++)
        n_shared += ref.p[k].pos == ref.p[k - 1].pos && ref.p[k].member != ref.p[k - 1].member;
    char c[256];
    snprintf(c, sizeof c, "%s, shared positions exist", case_);
    rb_unit_true("coarse hash", c, n < 2 || n_shared > 0, "got 0 shared positions, expected > 0");

    rb_member *rest = malloc(n * sizeof *rest);
    for (size_t x = 0; x < n && n > 1; x++) { /* remove member x */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (i != x) rest[k++] = m[i];
        snprintf(c, sizeof c, "%s, without '%.*s'", case_, (int)m[x].id_len, (const char *)m[x].id);
        rings less;
        if (!rings_build(&less, cfg, rest, n - 1, c)) {
            rings_free(&less);
            continue;
        }
        unsigned long bad[N_RINGS] = {0};
        /* Every point position: the owner after the removal is the first point
         * at or after it that is not x's — at a shared position that is the
         * next colliding member in id order, whose point stays. */
        for (size_t p = 0; p < ref.n; p++) {
            size_t q = p;
            while (q < ref.n && ref.p[q].member == x)
                q++;
            uint32_t e;
            if (q < ref.n) {
                e = ref.p[q].member;
            } else { /* wrap: the first point that is not x's */
                q = 0;
                while (ref.p[q].member == x)
                    q++;
                e = ref.p[q].member;
            }
            if (p > 0 && ref.p[p - 1].pos == ref.p[p].pos) continue; /* one check per position */
            char cc[300];
            snprintf(cc, sizeof cc, "%s, position %llu", c, (unsigned long long)ref.p[p].pos);
            for (int i = 0; i < N_POSITIONAL; i++) {
                uint32_t got = rb_ring_owner_position(less.r[i], ref.p[p].pos);
                expect_owner(less.name[i], cc, less.r[i], got, &ref, e, &bad[i]);
                /* monotone: a position x did not own keeps its owner */
                uint32_t before = ref_owner(&ref, ref.p[p].pos);
                if (before != x)
                    expect_owner(less.name[i], cc, less.r[i], got, &ref, before, &bad[i]);
            }
        }
        for (uint32_t b = 0; b < cfg->n_buckets; b++) {
            uint32_t before = ref_owner(&ref, bucket_position(cfg, b));
            if (before == x) continue;
            char cc[300];
            snprintf(cc, sizeof cc, "%s, bucket %u keeps its owner", c, b);
            for (int i = 0; i < N_RINGS; i++)
                expect_owner(less.name[i], cc, less.r[i], rb_ring_owner_bucket(less.r[i], b), &ref,
                             before, &bad[i]);
        }
        for (int i = 0; i < N_RINGS; i++)
            rb_unit_eq(less.name[i], c, bad[i], 0);
        rings_free(&less);
    }
    free(rest);
    rings_free(&full);
    free(ref.p);
}

static void test_collisions(uint64_t *rng) {
    const rb_hash *coarse[] = {&coarse64, &coarse32};
    for (int round = 0; round < 12; round++) {
        for (int hi = 0; hi < 2; hi++) {
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.ring_hash = coarse[hi];
            cfg.bucket_hash = &rb_hash_xxh3;
            cfg.n_vnodes = rb_unit_rand_range(rng, 4, 64);
            rb_unit_members ms;
            random_members(&ms, rng, 16, round % 3 == 2);
            char c[160];
            snprintf(c, sizeof c, "%s collisions, N=%zu V=%u", coarse[hi]->name, ms.n,
                     cfg.n_vnodes);
            check_collisions(&cfg, ms.m, ms.n, c);
            rb_unit_members_free(&ms);
        }
    }
    /* Two members that share every position: a one-point-per-member hash. */
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.ring_hash = &coarse64;
    cfg.n_vnodes = 300; /* 300 points per member on 256 positions */
    rb_member two[2] = {{"b", 1, 1}, {"a", 1, 1}};
    check_collisions(&cfg, two, 2, "coarse64, a and b with 300 vnodes each");
}

/* --- front == binary over large rings and every front table size --- */

/* Count positions where front's owner differs from binary's (the first few
 * printed). */
static void front_expect(const rb_ring *bin, const rb_ring *fr, uint64_t pos, const char *case_,
                         unsigned long *n_bad) {
    uint32_t e = rb_ring_owner_position(bin, pos), got = rb_ring_owner_position(fr, pos);
    if (got != e && (*n_bad)++ < 3)
        rb_unit_true("front", case_, 0, "position %llu: got owner '%s', expected binary's '%s'",
                     (unsigned long long)pos, rb_unit_member_name(fr, got),
                     rb_unit_member_name(bin, e));
}

/* One membership: every bucket, 200,000 random positions (of the hash's
 * width and of 64 bits), and both sides of every slot boundary of every
 * front table size 2^1 .. 2^26 at random slots. */
static void check_front(const rb_config *cfg, const rb_member *m, size_t n, const char *case_,
                        uint64_t *rng) {
    rb_ring *bin = rb_unit_build(rb_algo_by_name("binary"), cfg, m, n, case_);
    rb_ring *fr = rb_unit_build(rb_algo_by_name("front"), cfg, m, n, case_);
    if (bin && fr) {
        unsigned long bad = 0;
        for (uint32_t b = 0; b < cfg->n_buckets; b++)
            if (rb_ring_owner_bucket(bin, b) != rb_ring_owner_bucket(fr, b) && bad++ < 3)
                rb_unit_true("front", case_, 0, "bucket %u: got '%s', expected binary's '%s'", b,
                             rb_unit_member_name(fr, rb_ring_owner_bucket(fr, b)),
                             rb_unit_member_name(bin, rb_ring_owner_bucket(bin, b)));
        unsigned bits = cfg->ring_hash->bits;
        uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        for (int k = 0; k < 200000; k++) {
            uint64_t x = rb_unit_rand(rng);
            front_expect(bin, fr, k % 4 ? x & mask : x, case_, &bad);
        }
        for (unsigned k = 1; k <= 26 && k <= bits; k++)
            for (int j = 0; j < 64; j++) {
                uint64_t t = rb_unit_rand(rng) & (((uint64_t)1 << k) - 1);
                uint64_t at = t << (bits - k);
                front_expect(bin, fr, at, case_, &bad);
                front_expect(bin, fr, at - 1, case_, &bad); /* t = 0: the top of 64 bits */
                front_expect(bin, fr, at + 1, case_, &bad);
            }
        /* On, just below and just above every point: a slot's one boundary
         * is a point, and x +- 1 share the top 32 bits of the slot offset
         * with it (u(x) == bound, the exact fallback) at 64 bits. */
        char label[64];
        for (size_t i = 0; i < n; i++)
            for (uint32_t v = 0; v < cfg->n_vnodes * m[i].weight; v++) {
                size_t len = rb_vnode_label(label, m[i].id, m[i].id_len, v);
                uint64_t p = cfg->ring_hash->fn(label, len, cfg->seed);
                front_expect(bin, fr, p, case_, &bad);
                front_expect(bin, fr, p - 1, case_, &bad);
                front_expect(bin, fr, p + 1, case_, &bad);
            }
        rb_unit_eq("front", case_, bad, 0);
    }
    rb_ring_destroy(bin);
    rb_ring_destroy(fr);
}

static void test_front(uint64_t *rng) {
    const rb_hash *hashes[] = {&rb_hash_fnv1a32, &rb_hash_xxh3, &coarse64, &coarse64_end};
    const uint32_t sizes[] = {1, 2, 3, 16, 64, 256, 1024};
    const char *spp[] = {NULL, "slots_per_point=1", "slots_per_point=64"};
    const char *max_bits[] = {NULL, "max_bits=1", "max_bits=22"};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int round = 0; round < 8; round++) {
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.ring_hash = cfg.bucket_hash = hashes[round % 4];
            cfg.n_vnodes = rb_unit_rand_range(rng, 1, sizes[si] >= 256 ? 160 : 300);
            cfg.seed = round % 2 ? rb_unit_rand(rng) : 0;
            if (spp[round % 3] && rb_config_set_param(&cfg, spp[round % 3]) != 0) exit(1);
            if (max_bits[round % 3] && rb_config_set_param(&cfg, max_bits[round % 3]) != 0) exit(1);
            int two = round % 4 == 1; /* the two-owner slot format at every N */
            if (two && rb_config_set_param(&cfg, "slot_owners=2") != 0) exit(1);
            rb_unit_members ms;
            char fmt[32];
            snprintf(fmt, sizeof fmt, "f%%u-%llx", (unsigned long long)(rb_unit_rand(rng) & 0xFFF));
            rb_unit_members_make(&ms, sizes[si], fmt);
            for (size_t i = 0; round >= 4 && i < ms.n; i++)
                ms.m[i].weight = rb_unit_rand_range(rng, 1, 4);
            char c[200];
            snprintf(c, sizeof c, "front vs binary, %s seed %llu, N=%zu V=%u%s %s %s%s",
                     cfg.ring_hash->name, (unsigned long long)cfg.seed, ms.n, cfg.n_vnodes,
                     round >= 4 ? " weighted" : "", spp[round % 3] ? spp[round % 3] : "",
                     max_bits[round % 3] ? max_bits[round % 3] : "", two ? " slot_owners=2" : "");
            check_front(&cfg, ms.m, ms.n, c, rng);
            rb_unit_members_free(&ms);
        }
    /* Slot formats: 12-bit owners up to 4,095 members, 16-bit owners up to
     * 65,535 (0xFFF / 0xFFFF mark a search slot), then every slot searches:
     * the last membership of each format and the first past it. */
    const uint32_t edges[] = {4095, 4096, 65535, 65536};
    for (size_t e = 0; e < 2 * sizeof edges / sizeof edges[0]; e++) {
        uint32_t n = edges[e / 2];
        rb_config cfg;
        rb_config_init(&cfg);
        cfg.n_vnodes = 1;
        /* 64 slots per point: nearly every point alone in its slot, so the
         * last member's index is stored as a slot's owner */
        if (e % 2 && (rb_config_set_param(&cfg, "slots_per_point=64") != 0 ||
                      rb_config_set_param(&cfg, "max_bits=22") != 0))
            exit(1);
        rb_unit_members ms;
        rb_unit_members_make(&ms, n, "m%u");
        char c[120];
        snprintf(c, sizeof c, "front vs binary, xxh3, N=%u V=1 (slot format edge)%s", n,
                 e % 2 ? " slots_per_point=64 max_bits=22" : "");
        check_front(&cfg, ms.m, ms.n, c, rng);
        rb_unit_members_free(&ms);
    }
}

int main(void) {
    uint64_t rng = 20261130;
    make_keys(&rng);
    test_random_memberships(&rng);
    test_collisions(&rng);
    test_front(&rng);
    return rb_unit_finish("test_agree");
}
