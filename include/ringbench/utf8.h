/*
 * ringbench/utf8.h — UTF-8 text: the one validator (RFC 3629 rules, decoded
 * as the WHATWG Encoding Standard's UTF-8 decoder does, section 4.1) and a
 * cut that never splits a character. fnv1a32-js hashes through the same
 * decoder; the CLI checks ids and keys bound for JSON with rb_utf8_check and
 * cuts quoted input with rb_utf8_cut.
 */
#ifndef RINGBENCH_UTF8_H
#define RINGBENCH_UTF8_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * rb_utf8_decode — decode the one UTF-8 sequence at p[0..n) (n >= 1). Returns
 * the bytes consumed (1 to 4) and stores the code point in *cp; an invalid
 * sequence (overlong, surrogate, above U+10FFFF, a stray continuation byte, a
 * truncated sequence) stores U+FFFD, sets *valid to 0 and consumes its maximal
 * valid prefix (at least the lead byte), which is where TextDecoder puts one
 * replacement character; else *valid is 1. Pure; thread-safe; cannot fail.
 * Inline: fnv1a32-js decodes every key with it (the gate counts its
 * instructions; a call per character more than doubled them).
 */
static inline size_t rb_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp, int *valid) {
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

/*
 * rb_utf8_check — whether the `len` bytes at `data` (may be NULL when len is
 * 0; NUL bytes are characters like any other) are valid UTF-8. Returns -1
 * when they are, else the byte offset (0 .. len - 1) of the first sequence
 * that is not. Pure (sets no error detail); thread-safe.
 */
ptrdiff_t rb_utf8_check(const void *data, size_t len);

/*
 * rb_utf8_cut — the length of the longest prefix of data[0..len) that has at
 * most `max_bytes` bytes and does not end inside a UTF-8 sequence: len when
 * len <= max_bytes, else max_bytes backed off over at most three continuation
 * bytes. For quoting user input in a message: `'%.*s%s', (int)n, s, n < len ?
 * "..." : ""`. Bytes that are not UTF-8 are cut like single characters. Pure;
 * thread-safe.
 */
size_t rb_utf8_cut(const void *data, size_t len, size_t max_bytes);

#ifdef __cplusplus
}
#endif
#endif
