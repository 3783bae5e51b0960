/*
 * fuzz_keys.c — key input: the LF line splitter the commands use for stdin
 * (rb_key_list_read), then every registered hash and the bucket of each key,
 * then the JSON and CSV writers of key bytes. The first 12 input bytes are
 * B (4) and the seed (8); the rest is the key file. Contract: lines are the
 * bytes between LFs (the last needs none; an empty line is the empty key),
 * their lengths plus the LFs add up to the input; every hash is below
 * 2^bits and repeats; rb_hash_check accepts exactly the keys the hash calls
 * valid (fnv1a32-js: UTF-8) and hashing an invalid key does not crash; the
 * bucket is < B; the JSON string reads back, with one character per valid UTF-8 sequence
 * or invalid byte.
 */
#include "cli.h"
#include "fuzz_util.h"
#include "json_out.h"
#include "ringbench/ring.h"

/* An independent strict UTF-8 reading (RFC 3629 section 3: decode by the
 * lead byte's length, then refuse overlongs, surrogates and > U+10FFFF).
 * When valid, *h gets FNV-1a 32 over the UTF-16 code units (seed 0): what
 * the seed's JavaScript computes. Returns 1 when valid. */
static int utf16_fnv(const unsigned char *p, size_t len, uint32_t *h) {
    *h = 2166136261u;
    for (size_t i = 0; i < len;) {
        unsigned c = p[i], n = c < 0x80       ? 0
                               : c >> 5 == 6  ? 1
                               : c >> 4 == 14 ? 2
                               : c >> 3 == 30 ? 3
                                              : 9;
        if (n == 9 || i + n >= len + (n == 0)) return 0;
        uint32_t cp = n == 0 ? c : c & (0x3Fu >> n);
        for (unsigned k = 1; k <= n; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        static const uint32_t min_cp[] = {0, 0x80, 0x800, 0x10000};
        if (cp < min_cp[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            *h = (*h ^ (0xD800 + (cp >> 10))) * 16777619u;
            cp = 0xDC00 + (cp & 0x3FF);
        }
        *h = (*h ^ cp) * 16777619u;
        i += n + 1;
    }
    return 1;
}

static void check_writers(const char *key, size_t len) {
    /* the JSON form (rb_json_bytes, jansson) reads back: valid UTF-8 as it was, each
     * invalid byte as one character U+00XX */
    json_t *v = rb_json_bytes(key, len);
    FUZZ_CHECK(v && json_is_string(v), "rb_json_bytes gave no string");
    char *text = json_dumps(v, JSON_ENCODE_ANY);
    FUZZ_CHECK(text, "json_dumps failed");
    json_t *back = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    FUZZ_CHECK(back && json_equal(back, v), "JSON text of the key does not read back");
    size_t n_chars = 0, want_chars = 0;
    const unsigned char *s = (const unsigned char *)json_string_value(back);
    for (size_t i = 0; i < json_string_length(back); i++)
        n_chars += (s[i] & 0xC0) != 0x80;
    uint32_t ignored;
    for (size_t i = 0; i < len;) { /* characters of the key: valid sequences, invalid bytes */
        size_t k = 1;
        while (k <= 4 && i + k <= len && !utf16_fnv((const unsigned char *)key + i, k, &ignored))
            k++;
        i += k <= 4 && i + k <= len ? k : 1;
        want_chars++;
    }
    FUZZ_CHECK(n_chars == want_chars, "JSON string has %zu characters, the key %zu", n_chars,
               want_chars);
    free(text);
    json_decref(back);
    json_decref(v);
    char *buf = NULL;
    size_t n = 0;
    FILE *f;
    buf = NULL;
    f = open_memstream(&buf, &n);
    if (!f) abort();
    rb_csv_field(f, key, len);
    fclose(f);
    FUZZ_CHECK(n >= len, "csv field shorter than the key");
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.n_buckets = fuzz_take_u32(&in) % RB_MAX_BUCKETS + 1;
    cfg.seed = fuzz_take_u64(&in);
    if (in.n == 0) return 0; /* fmemopen needs a non-empty buffer */
    FILE *f = fmemopen((void *)in.p, in.n, "rb");
    if (!f) abort();
    rb_key_list keys;
    FUZZ_CHECK(rb_key_list_read(f, &keys) == 0, "rb_key_list_read failed");
    fclose(f);
    size_t n_lf = 0, total = 0;
    for (size_t i = 0; i < in.n; i++)
        n_lf += in.p[i] == '\n';
    FUZZ_CHECK(keys.n == n_lf + (in.p[in.n - 1] != '\n'), "%zu lines for %zu LFs", keys.n, n_lf);
    for (size_t k = 0; k < keys.n; k++) {
        const char *key = keys.keys[k];
        size_t len = keys.len[k];
        FUZZ_CHECK(!memchr(key, '\n', len), "LF inside key %zu", k);
        FUZZ_CHECK(memcmp(key, in.p + total, len) == 0, "key %zu is not the input's bytes", k);
        total += len + (total + len < in.n); /* its LF, if any */
        for (size_t h = 0; h < rb_hash_count(); h++) {
            const rb_hash *hash = rb_hash_at(h);
            uint64_t v = hash->fn(key, len, cfg.seed);
            FUZZ_CHECK(hash->bits == 64 || v >> hash->bits == 0, "%s: %llu over %u bits",
                       hash->name, (unsigned long long)v, hash->bits);
            FUZZ_CHECK(v == hash->fn(key, len, cfg.seed), "%s does not repeat", hash->name);
            int rc = rb_hash_check(hash, key, len);
            FUZZ_CHECK(rc == 0 || (rc < 0 && rb_error_detail()[0]), "%s check %d", hash->name, rc);
            cfg.bucket_hash = hash;
            FUZZ_CHECK(rb_bucket_of(&cfg, key, len) < cfg.n_buckets, "bucket >= B");
        }
        uint32_t want;
        int valid = utf16_fnv((const unsigned char *)key, len, &want);
        FUZZ_CHECK(valid == (rb_hash_check(&rb_hash_fnv1a32_js, key, len) == 0),
                   "fnv1a32-js check says %s, strict UTF-8 says %s", valid ? "invalid" : "valid",
                   valid ? "valid" : "invalid");
        FUZZ_CHECK(!valid || rb_hash_fnv1a32_js.fn(key, len, 0) == want,
                   "fnv1a32-js %llu, UTF-16 FNV-1a %u",
                   (unsigned long long)rb_hash_fnv1a32_js.fn(key, len, 0), want);
        check_writers(key, len);
    }
    FUZZ_CHECK(total == in.n, "lines cover %zu of %zu bytes", total, in.n);
    rb_key_list_free(&keys);
    return 0;
}
