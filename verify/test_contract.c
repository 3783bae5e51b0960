/*
 * test_contract.c — the contract every registered algorithm keeps (issue 2,
 * shared/DESIGN.md "Semantics every implementation keeps"). The suite
 * iterates the registry and names no algorithm: a new algorithm is checked
 * by adding it to the registry.
 *
 * Cases: registry well-formed; rejected inputs (empty membership, duplicate
 * ids, empty or oversized ids, weight 0 or too large, vnodes 0 or absurdly
 * large, N x V that overflows 64 bits, buckets 0 or too many, missing
 * hashes, member ids that are invalid UTF-8 under fnv1a32-js) each give the
 * documented code, a NULL ring and a non-empty detail; accepted inputs give
 * owners < n_members for every bucket, position and key (empty keys, keys
 * with NUL bytes, keys whose hash has the top bit set, non-ASCII keys); a
 * bucket's owner is the owner of its ring position; order-free algorithms do
 * not change a single owner id when the membership is shuffled; vnode labels
 * are injective.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ringbench/common.h"
#include "ringbench/ring.h"
#include "unit.h"

static rb_config config(const rb_hash *h, uint32_t n_buckets, uint64_t seed) {
    rb_config c;
    rb_config_init(&c);
    c.ring_hash = c.bucket_hash = h;
    c.n_buckets = n_buckets;
    c.seed = seed;
    return c;
}

static void test_registry(void) {
    rb_unit_true("registry", "count", rb_algo_count() >= 1, "got %zu algorithms, expected >= 1",
                 rb_algo_count());
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        rb_unit_true(a->name, "ops present",
                     a->build && (a->owner_bucket || a->owner_position) && a->bytes_held &&
                         a->destroy && a->description && a->description[0] && a->source &&
                         a->source[0],
                     "a required member of the ops table is NULL or empty");
        rb_unit_true(a->name, "POSITIONAL iff owner_position",
                     !!(a->flags & RB_ALGO_POSITIONAL) == (a->owner_position != NULL),
                     "got flags 0x%x with owner_position %s", a->flags,
                     a->owner_position ? "set" : "NULL");
        rb_unit_true(a->name, "found by name", rb_algo_by_name(a->name) == a,
                     "rb_algo_by_name did not return the registered table");
        for (size_t k = 0; k < i; k++)
            rb_unit_true(a->name, "unique name", strcmp(a->name, rb_algo_at(k)->name) != 0,
                         "got the name twice (positions %zu and %zu)", k, i);
    }
    rb_unit_true("registry", "rb_algo_at past the end", rb_algo_at(rb_algo_count()) == NULL,
                 "got non-NULL");
    rb_set_error(0, "%s", "");
    rb_unit_true("registry", "unknown algorithm",
                 rb_algo_by_name("no-such-algo") == NULL && rb_error_detail()[0],
                 "got a table or an empty detail");
    rb_set_error(0, "%s", "");
    rb_unit_true("registry", "unknown hash",
                 rb_hash_by_name("no-such-hash") == NULL && rb_error_detail()[0],
                 "got a hash or an empty detail");
    /* A detail as long as a libpq connect error with its conninfo is kept whole; a
     * longer one than the buffer ends in "..." (it was cut at 255 bytes, mid-word). */
    rb_set_error(0, "%500s|", "x");
    rb_unit_true("registry", "500-byte detail kept",
                 strlen(rb_error_detail()) == 501 && rb_error_detail()[500] == '|', "got %zu bytes",
                 strlen(rb_error_detail()));
    rb_set_error(0, "%2000s", "x");
    size_t cut = strlen(rb_error_detail());
    rb_unit_true("registry", "overlong detail ends in ...",
                 cut > 500 && strcmp(rb_error_detail() + cut - 3, "...") == 0,
                 "got %zu bytes ending '%s'", cut, rb_error_detail() + (cut > 3 ? cut - 3 : 0));
    for (size_t i = 0; i < rb_hash_count(); i++)
        rb_unit_true(rb_hash_at(i)->name, "hash found by name",
                     rb_hash_by_name(rb_hash_at(i)->name) == rb_hash_at(i),
                     "got another descriptor");
    for (int code = 0; code >= RB_EMISMATCH; code--)
        rb_unit_true("rb_strerror", "every code has a message",
                     rb_strerror(code)[0] && strcmp(rb_strerror(code), "unknown error") != 0,
                     "code %d has no message", code);
    rb_unit_true("rb_strerror", "unknown code", strcmp(rb_strerror(12345), "unknown error") == 0,
                 "got '%s'", rb_strerror(12345));
}

/* The build must fail with `code`, leave *out NULL and say why. */
static void expect_error(const rb_algo *a, const rb_config *cfg, const rb_member *m, size_t n,
                         int code, const char *case_) {
    rb_ring *r = (rb_ring *)(uintptr_t)1; /* must be overwritten with NULL */
    rb_set_error(0, "%s", "");
    int rc = rb_ring_build(a, cfg, m, n, &r);
    rb_unit_true(a->name, case_, rc == code, "got %d (%s), expected %d (%s)", rc, rb_strerror(rc),
                 code, rb_strerror(code));
    if (rc == 0) {
        rb_ring_destroy(r);
        return;
    }
    rb_unit_true(a->name, case_, r == NULL, "got a non-NULL ring on failure, expected NULL");
    rb_unit_true(a->name, case_, rb_error_detail()[0] != '\0',
                 "got an empty error detail, expected a message");
}

/* Build must succeed; then the ring must pass check_ring. */
static void check_ring(const rb_algo *a, const rb_ring *r, const char *case_);

static void expect_ok(const rb_algo *a, const rb_config *cfg, const rb_member *m, size_t n,
                      const char *case_) {
    rb_ring *r = rb_unit_build(a, cfg, m, n, case_);
    if (!r) return;
    rb_unit_eq(a->name, case_, rb_ring_n_members(r), n);
    check_ring(a, r, case_);
    rb_ring_destroy(r);
}

static void test_rejected(const rb_algo *a) {
    rb_config cfg = config(&rb_hash_xxh3, 1024, 0);
    rb_member m[4] = {{"a", 1, 1}, {"b", 1, 1}, {"a", 1, 1}, {"c", 1, 1}};
    expect_error(a, &cfg, NULL, 0, RB_EEMPTY, "empty membership (NULL, 0)");
    expect_error(a, &cfg, m, 0, RB_EEMPTY, "empty membership (n 0)");
    expect_error(a, &cfg, NULL, 2, RB_EINVAL, "members NULL with n 2");
    expect_error(a, &cfg, m, 3, RB_EDUP, "duplicate ids a,b,a");
    rb_member dup2[2] = {{"s1:1", 4, 1}, {"s1:1", 4, 3}};
    expect_error(a, &cfg, dup2, 2, RB_EDUP, "duplicate ids with different weights");
    rb_member empty_id[2] = {{"a", 1, 1}, {"", 0, 1}};
    expect_error(a, &cfg, empty_id, 2, RB_EINVAL, "empty id");
    static char long_id[RB_MAX_ID_BYTES + 1];
    memset(long_id, 'x', sizeof long_id);
    rb_member big_id[1] = {{long_id, sizeof long_id, 1}};
    expect_error(a, &cfg, big_id, 1, RB_ERANGE, "id longer than RB_MAX_ID_BYTES");
    rb_member w0[2] = {{"a", 1, 1}, {"b", 1, 0}};
    expect_error(a, &cfg, w0, 2, RB_ENOPOINT, "weight 0");
    rb_member wbig[1] = {{"a", 1, RB_MAX_WEIGHT + 1}};
    expect_error(a, &cfg, wbig, 1, RB_ERANGE, "weight above RB_MAX_WEIGHT");

    rb_config c = cfg;
    c.n_vnodes = 0;
    expect_error(a, &c, m, 2, RB_ENOPOINT, "vnodes 0");
    c = cfg;
    c.n_vnodes = UINT32_MAX;
    if (a->flags & RB_ALGO_USES_VNODES)
        expect_error(a, &c, m, 2, RB_ERANGE, "vnodes 2^32-1");
    else
        expect_ok(a, &c, m, 2, "vnodes 2^32-1 (not a vnode algorithm: ignored)");
    c = cfg;
    c.n_buckets = 0;
    expect_error(a, &c, m, 2, RB_ERANGE, "buckets 0");
    c.n_buckets = RB_MAX_BUCKETS + 1;
    expect_error(a, &c, m, 2, RB_ERANGE, "buckets above RB_MAX_BUCKETS");
    c = cfg;
    c.ring_hash = NULL;
    expect_error(a, &c, m, 2, RB_EINVAL, "ring hash NULL");
    c = cfg;
    c.bucket_hash = NULL;
    expect_error(a, &c, m, 2, RB_EINVAL, "bucket hash NULL");
    expect_error(a, NULL, m, 2, RB_EINVAL, "config NULL");

    c = config(&rb_hash_fnv1a32_js, 1024, 0);
    rb_member bad_utf8[2] = {{"a", 1, 1}, {"w\xff", 2, 1}};
    expect_error(a, &c, bad_utf8, 2, RB_EENCODING, "member id invalid UTF-8 under fnv1a32-js");
    c = config(&rb_hash_fnv1a32, 1024, 0);
    expect_ok(a, &c, bad_utf8, 2, "member id with byte 0xff under fnv1a32 (bytes)");
}

/* Sizes at and past the limits, built once and shared by every algorithm. */
static rb_unit_members overflow_members, too_many_members;

static void test_sizes(const rb_algo *a) {
    rb_config cfg = config(&rb_hash_xxh3, 1024, 0);
    /* 2^17 members of weight 2^16 with 2^31 vnodes: 2^64 points, which wraps a
     * 64-bit product to 0; every algorithm must still say RB_ERANGE (the
     * total weight 2^33 alone exceeds RB_MAX_POINTS). */
    cfg.n_vnodes = 1u << 31;
    expect_error(a, &cfg, overflow_members.m, overflow_members.n, RB_ERANGE,
                 "N x V = 2^17 x 2^16 x 2^31 = 2^64 (wraps)");
    cfg.n_vnodes = 1;
    expect_error(a, &cfg, too_many_members.m, too_many_members.n, RB_ERANGE,
                 "RB_MAX_MEMBERS + 1 members");
    /* exactly RB_MAX_POINTS points is accepted for vnode algorithms */
    rb_member two[2] = {{"a", 1, 1}, {"b", 1, 1}};
    cfg.n_vnodes = RB_MAX_POINTS / 2 + 1;
    if (a->flags & RB_ALGO_USES_VNODES)
        expect_error(a, &cfg, two, 2, RB_ERANGE, "2 x (RB_MAX_POINTS/2 + 1) vnodes");
}

/* Keys whose bucket hash has its top bit set (bit bits-1), found by search. */
static size_t top_bit_key(const rb_config *cfg, char *buf, size_t size) {
    const rb_hash *h = cfg->bucket_hash;
    for (unsigned i = 0;; i++) {
        int len = snprintf(buf, size, "top-bit-%u", i);
        if ((h->fn(buf, (size_t)len, cfg->seed) >> (h->bits - 1)) & 1) return (size_t)len;
    }
}

static void check_key(const rb_algo *a, const rb_ring *r, const void *key, size_t len,
                      const char *case_, const char *key_desc) {
    char c[256];
    snprintf(c, sizeof c, "%s, key %s", case_, key_desc);
    const rb_config *cfg = rb_ring_config(r);
    uint64_t h = cfg->bucket_hash->fn(key, len, cfg->seed);
    uint64_t expected_bucket = h % cfg->n_buckets; /* unsigned 64-bit arithmetic */
    rb_unit_eq(a->name, c, rb_bucket_of(cfg, key, len), expected_bucket);
    uint32_t owner = rb_ring_owner_key(r, key, len);
    rb_unit_true(a->name, c, owner < rb_ring_n_members(r), "got owner %u, expected < %u", owner,
                 rb_ring_n_members(r));
    rb_unit_eq(a->name, c, owner, rb_ring_owner_bucket(r, (uint32_t)expected_bucket));
    rb_unit_eq(a->name, c, rb_ring_owner_hash(r, h), owner);
}

static void check_ring(const rb_algo *a, const rb_ring *r, const char *case_) {
    const rb_config *cfg = rb_ring_config(r);
    char c[256];
    uint32_t bad = 0;
    for (uint32_t b = 0; b < cfg->n_buckets; b++) {
        uint32_t owner = rb_ring_owner_bucket(r, b);
        if (owner >= rb_ring_n_members(r)) bad++;
        if (a->owner_position) {
            char label[12];
            int len = snprintf(label, sizeof label, "%u", b);
            uint64_t pos = (rb_algo_flags(a, cfg) & RB_ALGO_OWN_HASH)
                               ? rb_ring_bucket_position(r, b)
                               : cfg->ring_hash->fn(label, (size_t)len, cfg->seed);
            snprintf(c, sizeof c, "%s, bucket %u = owner of its position (\"%u\")", case_, b, b);
            if (a->owner_position(r, pos) != owner)
                rb_unit_eq(a->name, c, owner, a->owner_position(r, pos));
        }
    }
    snprintf(c, sizeof c, "%s, buckets with owner >= n_members", case_);
    rb_unit_eq(a->name, c, bad, 0);
    if (a->owner_position) {
        const uint64_t top = cfg->ring_hash->bits == 64 ? UINT64_MAX : 0xFFFFFFFFu;
        const uint64_t pos[] = {0, 1, top / 2, top - 1, top, UINT64_MAX};
        for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
            uint32_t owner = a->owner_position(r, pos[i]);
            snprintf(c, sizeof c, "%s, position %llu", case_, (unsigned long long)pos[i]);
            rb_unit_true(a->name, c, owner < rb_ring_n_members(r), "got owner %u, expected < %u",
                         owner, rb_ring_n_members(r));
        }
    }
    static const struct {
        const char *key;
        size_t len;
        const char *desc;
    } keys[] = {
        {NULL, 0, "empty (NULL, 0)"},
        {"", 0, "empty"},
        {"a\0b", 3, "a\\0b (NUL inside)"},
        {"\0\0", 2, "two NUL bytes"},
        {"order:9182", 10, "order:9182"},
        {"\xc3\xa9", 2, "U+00E9"},
        {"\xe6\x97\xa5\xe6\x9c\xac", 6, "CJK"},
        {"\xf0\x9f\x98\x80", 4, "emoji (4-byte UTF-8)"},
        {"order:\xe6\xb3\xa8\xf0\x9f\x8e\x89", 13, "mixed"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        check_key(a, r, keys[i].key, keys[i].len, case_, keys[i].desc);
    char top[32];
    size_t top_len = top_bit_key(cfg, top, sizeof top);
    check_key(a, r, top, top_len, case_, "with the hash's top bit set");
    static char long_key[4096];
    memset(long_key, 'k', sizeof long_key);
    check_key(a, r, long_key, sizeof long_key, case_, "4096 bytes");

    snprintf(c, sizeof c, "%s, bytes held", case_);
    rb_unit_true(a->name, c, rb_ring_bytes_held(r) > 0, "got 0 bytes, expected > 0");
    uint64_t tw = 0;
    for (uint32_t i = 0; i < rb_ring_n_members(r); i++)
        tw += rb_ring_member(r, i)->weight;
    snprintf(c, sizeof c, "%s, n_points", case_);
    rb_unit_eq(a->name, c, rb_ring_n_points(r),
               (a->flags & RB_ALGO_USES_VNODES) ? tw * cfg->n_vnodes : tw);
}

static void test_accepted(const rb_algo *a) {
    char c[160];
    for (size_t hi = 0; hi < rb_hash_count(); hi++) {
        const rb_hash *h = rb_hash_at(hi);
        const struct {
            uint32_t n_buckets;
            uint64_t seed;
        } shapes[] = {{1024, 0}, {1000, 42}, {1, 0}};
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            rb_config cfg = config(h, shapes[s].n_buckets, shapes[s].seed);
            cfg.n_vnodes = 16;
            rb_member one[1] = {{"only", 4, 1}};
            snprintf(c, sizeof c, "%s B=%u seed=%llu, one member", h->name, cfg.n_buckets,
                     (unsigned long long)cfg.seed);
            rb_ring *r = rb_unit_build(a, &cfg, one, 1, c);
            if (r) {
                check_ring(a, r, c);
                uint32_t not_zero = 0;
                for (uint32_t b = 0; b < cfg.n_buckets; b++)
                    not_zero += rb_ring_owner_bucket(r, b) != 0;
                rb_unit_eq(a->name, c, not_zero, 0);
                rb_ring_destroy(r);
            }
            rb_member several[6] = {{"w1", 2, 1},    {"w2", 2, 3},   {"s1:1", 4, 1},
                                    {"s1:11", 5, 2}, {"a\0b", 3, 1}, {"\xc3\xa9t\xc3\xa9", 6, 1}};
            snprintf(c, sizeof c,
                     "%s B=%u seed=%llu, 6 weighted members (ids with ':', NUL, UTF-8)", h->name,
                     cfg.n_buckets, (unsigned long long)cfg.seed);
            expect_ok(a, &cfg, several, 6, c);
        }
    }
    /* ids that differ only in length are different members */
    rb_config cfg = config(&rb_hash_xxh3, 1024, 0);
    rb_member prefix[3] = {{"a", 1, 1}, {"a\0", 2, 1}, {"aa", 2, 1}};
    expect_ok(a, &cfg, prefix, 3, "ids a, a\\0, aa (prefixes, not duplicates)");
}

/* Fisher-Yates shuffle of members. */
static void shuffle(rb_member *m, size_t n, uint64_t *rng) {
    for (size_t i = n; i > 1; i--) {
        size_t j = rb_unit_rand(rng) % i;
        rb_member t = m[i - 1];
        m[i - 1] = m[j];
        m[j] = t;
    }
}

/* Owner ids of every bucket and of sample positions, as indices into the
 * id-sorted membership (independent of list order). */
static void owner_ids(const rb_algo *a, const rb_ring *r, const uint64_t *pos, size_t n_pos,
                      char (*out)[32]) {
    uint32_t B = rb_ring_n_buckets(r);
    for (uint32_t b = 0; b < B; b++)
        snprintf(out[b], 32, "%s", rb_unit_member_name(r, rb_ring_owner_bucket(r, b)));
    for (size_t i = 0; a->owner_position && i < n_pos; i++)
        snprintf(out[B + i], 32, "%s", rb_unit_member_name(r, a->owner_position(r, pos[i])));
}

static void test_order(const rb_algo *a) {
    enum { N = 12, N_POS = 2000 };
    uint64_t rng = 0x5eed0f0f;
    for (size_t hi = 0; hi < rb_hash_count(); hi++) {
        rb_config cfg = config(rb_hash_at(hi), 1024, 7);
        cfg.n_vnodes = 32;
        rb_unit_members ms;
        rb_unit_members_make(&ms, N, "worker-%u");
        for (size_t i = 0; i < N; i++)
            ms.m[i].weight = rb_unit_rand_range(&rng, 1, 3);
        uint64_t pos[N_POS];
        uint64_t mask = cfg.ring_hash->bits == 64 ? UINT64_MAX : 0xFFFFFFFFu;
        for (size_t i = 0; i < N_POS; i++)
            pos[i] = rb_unit_rand(&rng) & mask;
        static char base[1024 + N_POS][32], now[1024 + N_POS][32];
        char c[160];
        snprintf(c, sizeof c, "%s, 12 weighted members, list order", cfg.ring_hash->name);
        rb_ring *r = rb_unit_build(a, &cfg, ms.m, N, c);
        if (!r) {
            rb_unit_members_free(&ms);
            continue;
        }
        owner_ids(a, r, pos, N_POS, base);
        rb_ring_destroy(r);
        for (int round = 0; round < 5; round++) {
            int order_free = (rb_algo_flags(a, &cfg) & RB_ALGO_ORDER_FREE) != 0;
            if (order_free)
                shuffle(ms.m, N, &rng); /* else: the same order must give the same owners */
            snprintf(c, sizeof c, "%s, %s %d", cfg.ring_hash->name,
                     order_free ? "shuffled membership" : "rebuilt in the same order", round);
            if (!(r = rb_unit_build(a, &cfg, ms.m, N, c))) continue;
            owner_ids(a, r, pos, N_POS, now);
            size_t n_rows = 1024 + (a->owner_position ? N_POS : 0), n_diff = 0, first = 0;
            for (size_t i = 0; i < n_rows; i++)
                if (strcmp(base[i], now[i]) != 0 && n_diff++ == 0) first = i;
            rb_unit_true(a->name, c, n_diff == 0,
                         "got %zu owners changed (first: %s %zu owner %s), expected 0", n_diff,
                         first < 1024 ? "bucket" : "position", first < 1024 ? first : first - 1024,
                         n_diff ? now[first] : "");
            if (n_diff) rb_unit_true(a->name, c, 0, "expected owner %s", base[first]);
            rb_ring_destroy(r);
        }
        rb_unit_members_free(&ms);
    }
}

static int cmp_label(const void *x, const void *y) {
    return strcmp((const char *)x, (const char *)y);
}

/* Vnode labels are injective in (id, vnode index): ids that contain '#' and
 * digits, and ids that are prefixes of each other, give distinct labels. */
static void test_labels(void) {
    static const char *ids[] = {"s1:1", "s1:11", "a", "a#1", "a#1#0", "1", "11", "a#", "#"};
    enum { N_IDS = sizeof ids / sizeof ids[0], V = 40 };
    static char labels[N_IDS * V][32];
    size_t n = 0;
    for (size_t i = 0; i < N_IDS; i++)
        for (uint32_t v = 0; v < V; v++) {
            size_t len = rb_vnode_label(labels[n], ids[i], strlen(ids[i]), v);
            labels[n++][len] = '\0';
        }
    rb_unit_eq("rb_vnode_label", "s1:1 vnode 10", strcmp(labels[10], "s1:1#10"), 0);
    qsort(labels, n, sizeof labels[0], cmp_label);
    size_t dups = 0;
    for (size_t i = 1; i < n; i++)
        if (strcmp(labels[i - 1], labels[i]) == 0 && dups++ == 0)
            rb_unit_true("rb_vnode_label", "injective", 0, "got label '%s' twice, expected unique",
                         labels[i]);
    rb_unit_eq("rb_vnode_label", "duplicate labels", dups, 0);
    char big[RB_MAX_ID_BYTES + 12];
    memset(big, 'x', RB_MAX_ID_BYTES);
    rb_unit_eq("rb_vnode_label", "longest id, vnode 2^32-1",
               rb_vnode_label(big, big, RB_MAX_ID_BYTES, UINT32_MAX), RB_MAX_ID_BYTES + 11);
}

/* ringbench/common.h: the one percentile (nearest rank, NIST/Hyndman-Fan definition 1: the
 * smallest sample with at least p % at or below it) and the one PRNG (Vigna's splitmix64.c,
 * first outputs from seed 0, published in its test vectors and reproduced by
 * datasets/genkeys_ref.py). */
static void test_common(void) {
    static const struct {
        size_t n;
        double p;
        size_t idx;
    } ranks[] = {{100, 99, 98}, {100, 50, 49}, {100, 100, 99}, {100, 0, 0},
                 {100, 1, 0},   {100, 1.5, 1}, {1, 99, 0},     {7, 50, 3},
                 {10, 99, 9},   {10, 90, 8},   {200, 99, 197}};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        char c[64];
        snprintf(c, sizeof c, "rb_nearest_rank(n %zu, p %g)", ranks[i].n, ranks[i].p);
        rb_unit_eq("common", c, rb_nearest_rank(ranks[i].n, ranks[i].p), ranks[i].idx);
    }
    uint64_t st = 0;
    rb_unit_eq("common", "splitmix64 seed 0, output 1", rb_splitmix64(&st), 0xe220a8397b1dcdafULL);
    rb_unit_eq("common", "splitmix64 seed 0, output 2", rb_splitmix64(&st), 0x6e789e6aa1b965f4ULL);
}

int main(void) {
    test_common();
    rb_unit_members_make(&overflow_members, 1u << 17, "m%u");
    for (size_t i = 0; i < overflow_members.n; i++)
        overflow_members.m[i].weight = 1u << 16;
    rb_unit_members_make(&too_many_members, RB_MAX_MEMBERS + 1, "m%u");
    test_registry();
    test_labels();
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        unsigned long before = rb_unit_failures();
        test_rejected(a);
        test_sizes(a);
        test_accepted(a);
        test_order(a);
        fprintf(stderr, "contract %-11s %s\n", a->name,
                rb_unit_failures() == before ? "ok" : "FAILED");
    }
    rb_unit_members_free(&overflow_members);
    rb_unit_members_free(&too_many_members);
    return rb_unit_finish("test_contract");
}
