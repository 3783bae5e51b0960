/*
 * hash_fnv1a.c — FNV-1a 32-bit (Fowler, Noll, Vo; draft-eastlake-fnv-17,
 * section 2) over bytes, and the seed's JavaScript variant over UTF-16 code
 * units. Offset basis 2166136261, prime 16777619 (the seed's constants).
 */
#include <stdint.h>

#include "ringbench/error.h"
#include "ringbench/hash.h"

#define FNV32_BASIS 2166136261u
#define FNV32_PRIME 16777619u

static uint32_t fnv_bytes(uint32_t h, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= FNV32_PRIME;
    }
    return h;
}

/* A non-zero seed is hashed first as 8 little-endian bytes (host-independent). */
static uint32_t fnv_basis(uint64_t seed) {
    if (seed == 0) return FNV32_BASIS;
    unsigned char le[8];
    for (int i = 0; i < 8; i++) le[i] = (unsigned char)(seed >> (8 * i));
    return fnv_bytes(FNV32_BASIS, le, sizeof le);
}

static uint64_t fnv1a32(const void *data, size_t len, uint64_t seed) {
    return fnv_bytes(fnv_basis(seed), data, len);
}

/*
 * Decode one UTF-8 sequence at p[0..n) (n >= 1) per RFC 3629 (no overlongs, no
 * surrogates, max U+10FFFF). Returns the sequence length and stores the code
 * point, or returns 0 when the sequence is invalid.
 */
static size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp) {
    unsigned char c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

static uint32_t fnv_unit(uint32_t h, uint32_t unit) {
    h ^= unit;
    return h * FNV32_PRIME;
}

/* JavaScript: h ^= str.charCodeAt(i); h = Math.imul(h, 16777619) for every
 * UTF-16 code unit. An invalid byte counts as U+FFFD (TextDecoder's choice). */
static uint64_t fnv1a32_js(const void *data, size_t len, uint64_t seed) {
    const unsigned char *p = data;
    uint32_t h = fnv_basis(seed);
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (n == 0) {
            cp = 0xFFFD;
            n = 1;
        }
        i += n;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            h = fnv_unit(h, 0xD800 + (cp >> 10));
            h = fnv_unit(h, 0xDC00 + (cp & 0x3FF));
        } else {
            h = fnv_unit(h, cp);
        }
    }
    return h;
}

static int utf8_check(const void *data, size_t len) {
    const unsigned char *p = data;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (n == 0) return rb_set_error(RB_EENCODING, "invalid UTF-8 at byte offset %zu", i);
        i += n;
    }
    return 0;
}

const rb_hash rb_hash_fnv1a32 = {
    .name = "fnv1a32",
    .description = "FNV-1a 32-bit over the key's bytes (the seed's hash for ASCII keys)",
    .bits = 32,
    .fn = fnv1a32,
    .check = NULL,
};

const rb_hash rb_hash_fnv1a32_js = {
    .name = "fnv1a32-js",
    .description = "the seed's JavaScript hash exactly: FNV-1a 32 over UTF-16 code units",
    .bits = 32,
    .fn = fnv1a32_js,
    .check = utf8_check,
};
