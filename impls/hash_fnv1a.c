/*
 * hash_fnv1a.c — FNV-1a 32-bit (Fowler, Noll, Vo; draft-eastlake-fnv-17,
 * section 2) over bytes, and the seed's JavaScript variant over UTF-16 code
 * units (decoded by rb_utf8_decode, ringbench/utf8.h). Offset basis
 * 2166136261, prime 16777619 (the seed's constants).
 */
#include <stdint.h>

#include "ringbench/error.h"
#include "ringbench/hash.h"
#include "ringbench/utf8.h"

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
        i += rb_utf8_decode(p + i, len - i, &cp, &valid);
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

/* fnv1a32-js's input check: valid UTF-8 (rb_utf8_check), else RB_EENCODING naming the byte. */
static int utf8_check(const void *data, size_t len) {
    ptrdiff_t bad = rb_utf8_check(data, len);
    return bad < 0 ? 0 : rb_set_error(RB_EENCODING, "invalid UTF-8 at byte offset %td", bad);
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
