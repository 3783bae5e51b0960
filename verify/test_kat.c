/*
 * test_kat.c — known-answer tests of the hashes, of jump (issue 2) and of
 * the constant-memory bucket hashes (issue 13).
 *
 *   fnv1a32     the published FNV-1a 32 test vectors (Landon Curt Noll's
 *               test_fnv.c; draft-eastlake-fnv), with and without a trailing
 *               NUL byte;
 *   fnv1a32-js  kat/fnv1a32_js.tsv, worked out by running the seed's
 *               JavaScript hash() in node (kat/fnv_js.mjs), including
 *               invalid UTF-8 as TextDecoder sees it;
 *   xxh3        xxHash's own sanity vectors (cli/xsum_sanity_check.c: a
 *               generated buffer, seeds 0 and PRIME64);
 *   jump        kat/jump.tsv from an independent implementation of the
 *               paper's figure 1 (kat/jump_ref.py);
 *   jumpback, fliphash, powerch, binomial
 *               kat/<name>.tsv from independent Python implementations
 *               (kat/bucket_ref.py) that check themselves against the
 *               values published for the reference implementations;
 *   multiprobe  kat/multiprobe.tsv from an independent Python implementation
 *               of the scheme as impls/multiprobe.c documents it
 *               (kat/multiprobe_ref.py), through the registered ring;
 * plus the seed convention of the FNV hashes and "every byte counts".
 */
#include <stdio.h>
#include <string.h>

#include "../impls/md5.h" /* internal: white-box known answers */
#include "ringbench/consistent.h"
#include "ringbench/hash.h"
#include "ringbench/ring.h"
#include "unit.h"

/* Published FNV-1a 32 vectors: the string, and its hash without and with a
 * trailing NUL byte (test_fnv.c TEST / TEST0). */
static const struct {
    const char *s;
    uint32_t hash, hash_nul;
} fnv_published[] = {
    {"", 0x811c9dc5, 0x050c5d1f},      {"a", 0xe40c292c, 0x2b24d044},
    {"b", 0xe70c2de5, 0x9d2c3f7f},     {"c", 0xe60c2c52, 0x7729c516},
    {"d", 0xe10c2473, 0xb91d6109},     {"e", 0xe00c22e0, 0x931ae6a0},
    {"f", 0xe30c2799, 0x052255db},     {"fo", 0x6222e842, 0xbef39fe6},
    {"foo", 0xa9f37ed7, 0x6150ac75},   {"foob", 0x3f5076ef, 0x9aab3a3d},
    {"fooba", 0x39aaa18a, 0x519c4c3e}, {"foobar", 0xbf9cf968, 0x0c1c9eb8},
};

static void test_fnv_published(void) {
    char case_[64];
    for (size_t i = 0; i < sizeof fnv_published / sizeof fnv_published[0]; i++) {
        const char *s = fnv_published[i].s;
        size_t len = strlen(s);
        snprintf(case_, sizeof case_, "published \"%s\"", s);
        rb_unit_eq("fnv1a32", case_, rb_hash_fnv1a32.fn(s, len, 0), fnv_published[i].hash);
        /* ASCII: the JavaScript variant is the same function */
        rb_unit_eq("fnv1a32-js", case_, rb_hash_fnv1a32_js.fn(s, len, 0), fnv_published[i].hash);
        snprintf(case_, sizeof case_, "published \"%s\\0\"", s);
        rb_unit_eq("fnv1a32", case_, rb_hash_fnv1a32.fn(s, len + 1, 0), fnv_published[i].hash_nul);
        rb_unit_eq("fnv1a32-js", case_, rb_hash_fnv1a32_js.fn(s, len + 1, 0),
                   fnv_published[i].hash_nul);
    }
}

static int is_ascii(const unsigned char *p, long n) {
    for (long i = 0; i < n; i++)
        if (p[i] >= 0x80) return 0;
    return 1;
}

static void test_fnv_js(void) {
    FILE *f = rb_kat_open("fnv1a32_js.tsv");
    if (!f) return;
    char *field[4], case_[300];
    unsigned char key[256];
    int n, n_vectors = 0;
    while ((n = rb_kat_next(f, field, 4)) >= 0) {
        if (!rb_unit_true("fnv1a32-js", "vector file", n == 4, "a line with %d fields, expected 4",
                          n))
            continue;
        long len = rb_hex_decode(field[0], key, sizeof key);
        uint64_t expected;
        int valid = strcmp(field[2], "1") == 0;
        snprintf(case_, sizeof case_, "%s (utf8 %s)", field[3], field[0]);
        if (!rb_unit_true("fnv1a32-js", case_,
                          len >= 0 &&
                              sscanf(field[1], "%llu", (unsigned long long *)&expected) == 1,
                          "malformed vector"))
            continue;
        n_vectors++;
        rb_unit_eq("fnv1a32-js", case_, rb_hash_fnv1a32_js.fn(key, (size_t)len, 0), expected);
        rb_set_error(0, "%s", "");
        int rc = rb_hash_check(&rb_hash_fnv1a32_js, key, (size_t)len);
        rb_unit_eq("fnv1a32-js check", case_, (uint64_t)(int64_t)rc,
                   (uint64_t)(int64_t)(valid ? 0 : RB_EENCODING));
        if (!valid)
            rb_unit_true("fnv1a32-js check", case_, rb_error_detail()[0] != '\0',
                         "got an empty error detail, expected a message");
        /* fnv1a32 (bytes) equals the seed for ASCII keys only, and never rejects */
        if (is_ascii(key, len))
            rb_unit_eq("fnv1a32", case_, rb_hash_fnv1a32.fn(key, (size_t)len, 0), expected);
        rb_unit_eq("fnv1a32 check", case_,
                   (uint64_t)rb_hash_check(&rb_hash_fnv1a32, key, (size_t)len), 0);
    }
    fclose(f);
    rb_unit_true("fnv1a32-js", "vector file", n_vectors >= 20, "got %d vectors, expected >= 20",
                 n_vectors);
}

/* xxHash's sanity buffer: byte i = top byte of PRIME32 * PRIME64^i (mod 2^64). */
#define XXH_PRIME32 2654435761ULL
#define XXH_PRIME64 11400714785074694797ULL

static void test_xxh3(void) {
    static const struct {
        size_t len;
        uint64_t seed, hash;
    } v[] = {
        {0, 0, 0x2D06800538D394C2ULL},    {0, XXH_PRIME64, 0xA8A6B918B2F0364AULL},
        {1, 0, 0xC44BDFF4074EECDBULL},    {1, XXH_PRIME64, 0x032BE332DD766EF8ULL},
        {6, 0, 0x27B56A84CD2D7325ULL},    {6, XXH_PRIME64, 0x84589C116AB59AB9ULL},
        {12, 0, 0xA713DAF0DFBB77E7ULL},   {12, XXH_PRIME64, 0xE7303E1B2336DE0EULL},
        {24, 0, 0xA3FE70BF9D3510EBULL},   {24, XXH_PRIME64, 0x850E80FC35BDD690ULL},
        {48, 0, 0x397DA259ECBA1F11ULL},   {48, XXH_PRIME64, 0xADC2CBAA44ACC616ULL},
        {80, 0, 0xBCDEFBBB2C47C90AULL},   {80, XXH_PRIME64, 0xC6DD0CB699532E73ULL},
        {195, 0, 0xCD94217EE362EC3AULL},  {195, XXH_PRIME64, 0xBA68003D370CB3D9ULL},
        {403, 0, 0xCDEB804D65C6DEA4ULL},  {403, XXH_PRIME64, 0x6259F6ECFD6443FDULL},
        {512, 0, 0x617E49599013CB6BULL},  {512, XXH_PRIME64, 0x3CE457DE14C27708ULL},
        {2048, 0, 0xDD59E2C3A5F038E0ULL}, {2048, XXH_PRIME64, 0x66F81670669ABABCULL},
    };
    static unsigned char buf[2048];
    uint64_t gen = XXH_PRIME32;
    for (size_t i = 0; i < sizeof buf; i++) {
        buf[i] = (unsigned char)(gen >> 56);
        gen *= XXH_PRIME64;
    }
    char case_[64];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        snprintf(case_, sizeof case_, "sanity buffer len %zu seed %s", v[i].len,
                 v[i].seed ? "PRIME64" : "0");
        rb_unit_eq("xxh3", case_, rb_hash_xxh3.fn(v[i].len ? buf : NULL, v[i].len, v[i].seed),
                   v[i].hash);
    }
    rb_unit_eq("xxh3", "bits", rb_hash_xxh3.bits, 64);
}

/* The bucket hashes: (key, n_buckets) -> bucket, from kat/<name>.tsv. */
typedef struct {
    const char *name;
    uint32_t (*fn)(uint64_t key, uint32_t n_buckets);
    int min_vectors;
} bucket_kat;

static const bucket_kat bucket_kats[] = {
    {"jump", rb_jump_hash, 300},         {"jumpback", rb_jumpback_hash, 400},
    {"fliphash", rb_flip_hash, 400},     {"powerch", rb_power_hash, 400},
    {"binomial", rb_binomial_hash, 400},
};

static void test_bucket_kat(const bucket_kat *k) {
    char file[64], case_[128];
    snprintf(file, sizeof file, "%s.tsv", k->name);
    FILE *f = rb_kat_open(file);
    if (!f) return;
    char *field[3];
    int n, n_vectors = 0;
    while ((n = rb_kat_next(f, field, 3)) >= 0) {
        unsigned long long key, nb, expected;
        if (!rb_unit_true(k->name, "vector file",
                          n == 3 && sscanf(field[0], "%llu", &key) == 1 &&
                              sscanf(field[1], "%llu", &nb) == 1 &&
                              sscanf(field[2], "%llu", &expected) == 1,
                          "malformed line"))
            continue;
        n_vectors++;
        snprintf(case_, sizeof case_, "%s(%llu, %llu)", k->name, key, nb);
        rb_unit_eq(k->name, case_, k->fn(key, (uint32_t)nb), expected);
    }
    fclose(f);
    rb_unit_true(k->name, "vector file", n_vectors >= k->min_vectors,
                 "got %d vectors, expected >= %d", n_vectors, k->min_vectors);
}

/* multi-probe through the registered ring: kat/multiprobe.tsv (n_members,
 * k, bucket, owner) with ring hash fnv1a32, seed 0, members "m<j>", k set
 * through --param probes=K. */
static void test_multiprobe(void) {
    FILE *f = rb_kat_open("multiprobe.tsv");
    if (!f) return;
    const rb_algo *a = rb_algo_by_name("multiprobe");
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.ring_hash = &rb_hash_fnv1a32;
    rb_unit_members ms = {0};
    rb_ring *r = NULL;
    char *field[4], case_[128];
    int n, n_vectors = 0;
    unsigned long long have_n = 0, have_k = 0;
    while ((n = rb_kat_next(f, field, 4)) >= 0) {
        unsigned long long nm, k, b, expected;
        if (!rb_unit_true("multiprobe", "vector file",
                          a && n == 4 && sscanf(field[0], "%llu", &nm) == 1 &&
                              sscanf(field[1], "%llu", &k) == 1 &&
                              sscanf(field[2], "%llu", &b) == 1 &&
                              sscanf(field[3], "%llu", &expected) == 1 && nm >= 1 && k >= 1 &&
                              b < cfg.n_buckets,
                          "malformed line"))
            continue;
        if (nm != have_n || k != have_k) {
            char assign[32];
            snprintf(assign, sizeof assign, "probes=%llu", k);
            cfg.n_params = 0;
            rb_ring_destroy(r);
            rb_unit_members_free(&ms);
            rb_unit_members_make(&ms, (size_t)nm, "m%u");
            r = rb_config_set_param(&cfg, assign) == 0
                    ? rb_unit_build(a, &cfg, ms.m, ms.n, "kat members m0..")
                    : NULL;
            have_n = nm;
            have_k = k;
        }
        if (!r) continue;
        n_vectors++;
        snprintf(case_, sizeof case_, "N %llu k %llu bucket %llu (fnv1a32)", nm, k, b);
        rb_unit_eq("multiprobe", case_, rb_ring_owner_bucket(r, (uint32_t)b), expected);
    }
    rb_ring_destroy(r);
    rb_unit_members_free(&ms);
    fclose(f);
    rb_unit_true("multiprobe", "vector file", n_vectors >= 1300, "got %d vectors, expected >= 1300",
                 n_vectors);
}

/* FNV seeds: a non-zero seed hashes its 8 little-endian bytes first. Every
 * registered hash reads every byte: "a" and "a\0" and "a\0b" differ. */
/* RFC 1321 appendix A.5, the test suite's seven published digests (MD5 of
 * the ketama ring, impls/md5.c). */
static void test_md5(void) {
    static const struct {
        const char *in, *hex;
    } v[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"1234567890123456789012345678901234567890123456789012345678901234567890123456789"
         "0",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        unsigned char d[16];
        char hex[33];
        rb_md5(v[i].in, strlen(v[i].in), d);
        for (int k = 0; k < 16; k++)
            snprintf(hex + 2 * k, 3, "%02x", d[k]);
        char case_[64];
        snprintf(case_, sizeof case_, "RFC 1321 A.5 vector %zu", i + 1);
        rb_unit_true("md5", case_, strcmp(hex, v[i].hex) == 0, "got %s, expected %s", hex,
                     v[i].hex);
    }
}

static void test_seed_and_bytes(void) {
    static const char key[] = "order:9182";
    const uint64_t seed = 0x0123456789abcdefULL;
    unsigned char prefixed[8 + sizeof key];
    for (int i = 0; i < 8; i++)
        prefixed[i] = (unsigned char)(seed >> (8 * i));
    memcpy(prefixed + 8, key, sizeof key);
    const rb_hash *fnv[] = {&rb_hash_fnv1a32, &rb_hash_fnv1a32_js};
    for (int k = 0; k < 2; k++)
        rb_unit_eq(fnv[k]->name, "seed = 8 LE bytes hashed first",
                   fnv[k]->fn(key, sizeof key - 1, seed),
                   rb_hash_fnv1a32.fn(prefixed, 8 + sizeof key - 1, 0));
    for (size_t i = 0; i < rb_hash_count(); i++) {
        const rb_hash *h = rb_hash_at(i);
        uint64_t a = h->fn("a", 1, 0), a0 = h->fn("a\0", 2, 0), a0b = h->fn("a\0b", 3, 0);
        rb_unit_true(h->name, "NUL bytes are hashed", a != a0 && a0 != a0b && a != a0b,
                     "got a=%llu a\\0=%llu a\\0b=%llu, expected three different values",
                     (unsigned long long)a, (unsigned long long)a0, (unsigned long long)a0b);
        rb_unit_true(h->name, "width", h->bits == 32 || h->bits == 64,
                     "got %u bits, expected 32 or 64", h->bits);
        if (h->bits == 32)
            rb_unit_eq(h->name, "32-bit value has zero high bits", h->fn("order:9182", 10, 7) >> 32,
                       0);
        rb_unit_true(h->name, "seed changes the hash", h->fn("k", 1, 0) != h->fn("k", 1, 1),
                     "got equal hashes for seeds 0 and 1, expected different");
    }
}

int main(void) {
    test_md5();
    test_fnv_published();
    test_fnv_js();
    test_xxh3();
    for (size_t i = 0; i < sizeof bucket_kats / sizeof bucket_kats[0]; i++)
        test_bucket_kat(&bucket_kats[i]);
    test_multiprobe();
    test_seed_and_bytes();
    return rb_unit_finish("test_kat");
}
