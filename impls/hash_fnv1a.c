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
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(seed >> (8 * i));
    return fnv_bytes(FNV32_BASIS, le, sizeof le);
}

static uint64_t fnv1a32(const void *data, size_t len, uint64_t seed) {
    return fnv_bytes(fnv_basis(seed), data, len);
}

/*
 * Decode one UTF-8 sequence at p[0..n) (n >= 1) with the WHATWG Encoding
 * Standard's UTF-8 decoder (section 4.1; the validity rules of RFC 3629: no
 * overlongs, no surrogates, at most U+10FFFF). Returns the bytes consumed
 * (>= 1) and stores the code point; an invalid sequence stores U+FFFD, sets
 * *valid to 0 and consumes its maximal valid prefix (the lead byte and the
 * continuation bytes that fit it), which is where TextDecoder puts one
 * replacement character.
 */
static size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp, int *valid) {
    unsigned char c = p[0];
    *valid = 1;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t need;
    uint32_t v;
    unsigned char lo = 0x80, hi = 0xBF; /* range of the next continuation byte */
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1, v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2, v = c & 0x0F;
        if (c == 0xE0) lo = 0xA0; /* overlong below U+0800 */
        if (c == 0xED) hi = 0x9F; /* surrogates U+D800..DFFF */
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3, v = c & 0x07;
        if (c == 0xF0) lo = 0x90; /* overlong below U+10000 */
        if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
    } else {
        need = 0, v = 0; /* 80..C1, F5..FF never start a sequence */
        *valid = 0;
    }
    size_t i = 1;
    for (; *valid && i <= need; i++) {
        if (i >= n || p[i] < lo || p[i] > hi) {
            *valid = 0;
            break;
        }
        v = (v << 6) | (p[i] & 0x3F);
        lo = 0x80, hi = 0xBF;
    }
    *cp = *valid ? v : 0xFFFD;
    return i;
}

static uint32_t fnv_unit(uint32_t h, uint32_t unit) {
    h ^= unit;
    return h * FNV32_PRIME;
}

/* JavaScript: h ^= str.charCodeAt(i); h = Math.imul(h, 16777619) for every
 * UTF-16 code unit of the key decoded as UTF-8. An invalid sequence counts as
 * one U+FFFD where TextDecoder would put one. */
static uint64_t fnv1a32_js(const void *data, size_t len, uint64_t seed) {
    const unsigned char *p = data;
    uint32_t h = fnv_basis(seed);
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        int valid;
        i += utf8_decode(p + i, len - i, &cp, &valid);
        if (cp >= 0x10000) { /* a surrogate pair: two code units */
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
        int valid;
        size_t n = utf8_decode(p + i, len - i, &cp, &valid);
        if (!valid) return rb_set_error(RB_EENCODING, "invalid UTF-8 at byte offset %zu", i);
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
