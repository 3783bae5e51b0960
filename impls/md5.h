/*
 * md5.h — internal: MD5 (R. Rivest, RFC 1321, 1992) for the ketama ring,
 * whose points and key positions are MD5 digests by definition. Not a ring
 * hash of the registry (it is not offered for --hash). Pure, thread-safe.
 */
#ifndef RINGBENCH_MD5_H
#define RINGBENCH_MD5_H

#include <stddef.h>
#include <stdint.h>

/* rb_md5 — the 16-byte MD5 digest of data[0..len) into out (NULL data allowed
 * when len is 0). */
void rb_md5(const void *data, size_t len, unsigned char out[16]);

/* rb_md5_le32 — the first 4 bytes of MD5(data[0..len)), little-endian:
 * libketama's ketama_hashi, a key's position on a ketama continuum. */
static inline uint32_t rb_md5_le32(const void *data, size_t len) {
    unsigned char d[16];
    rb_md5(data, len, d);
    return (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
}

#endif
