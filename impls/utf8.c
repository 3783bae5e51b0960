/*
 * utf8.c — the UTF-8 decoder, validator and cut (ringbench/utf8.h). Rules:
 * RFC 3629 (no overlongs, no surrogates, at most U+10FFFF); an invalid
 * sequence is consumed as the WHATWG Encoding Standard's decoder does
 * (section 4.1, "maximal subpart").
 */
#include "ringbench/utf8.h"

size_t rb_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp, int *valid) {
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

ptrdiff_t rb_utf8_check(const void *data, size_t len) {
    const unsigned char *p = data;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        int valid;
        size_t n = rb_utf8_decode(p + i, len - i, &cp, &valid);
        if (!valid) return (ptrdiff_t)i;
        i += n;
    }
    return -1;
}

size_t rb_utf8_cut(const void *data, size_t len, size_t max_bytes) {
    const unsigned char *p = data;
    if (len <= max_bytes) return len;
    size_t n = max_bytes;
    /* p[n] is the first byte left out: while it continues a sequence, leave out that
     * sequence's start too (at most 3 continuation bytes follow a lead byte) */
    for (int back = 0; n > 0 && back < 3 && (p[n] & 0xC0) == 0x80; back++)
        n--;
    return n;
}
