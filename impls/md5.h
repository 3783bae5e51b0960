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

#endif
