/*
 * utf8.c — the UTF-8 validator and cut (ringbench/utf8.h; the decoder is inline there). Rules:
 * RFC 3629 (no overlongs, no surrogates, at most U+10FFFF); an invalid
 * sequence is consumed as the WHATWG Encoding Standard's decoder does
 * (section 4.1, "maximal subpart").
 */
#include "ringbench/utf8.h"

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
