/*
 * ringbench/hash.h — the hash functions that place keys, buckets and vnodes.
 *
 * A hash maps (bytes, seed) to an unsigned integer of `bits` bits (32 or 64),
 * returned in a uint64_t whose unused high bits are zero. All hashes read
 * every byte of the input and give the same value on every host (byte order
 * and word size do not matter).
 *
 * Registered hashes (one X-macro list, rb_hash_by_name() finds them):
 *   fnv1a32     FNV-1a 32-bit over the key's bytes (Fowler, Noll, Vo;
 *               draft-eastlake-fnv). Equal to the seed's JavaScript `hash()`
 *               for ASCII keys.
 *   fnv1a32-js  the seed's JavaScript `hash()` exactly: FNV-1a 32 over the
 *               UTF-16 code units of the key decoded as UTF-8 (charCodeAt).
 *               Invalid UTF-8 is an error through rb_hash_check(); the hash
 *               function itself hashes an invalid sequence as U+FFFD where
 *               JavaScript's TextDecoder (WHATWG UTF-8 decoder) puts one, so
 *               lookups cannot fail.
 *   xxh3        XXH3_64bits_withSeed from xxHash (Collet); 64-bit, the fast
 *               default.
 *
 * Seeds: xxh3 uses its native seed. For the FNV hashes, seed 0 is the
 * published function; a non-zero seed first hashes the 8 bytes of the seed in
 * little-endian order, then the key.
 */
#ifndef RINGBENCH_HASH_H
#define RINGBENCH_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * rb_hash_fn — hash `len` bytes at `data` (may be NULL when len is 0) with
 * `seed`. Pure; thread-safe; cannot fail.
 */
typedef uint64_t (*rb_hash_fn)(const void *data, size_t len, uint64_t seed);

/*
 * rb_hash — a hash descriptor. Registered descriptors are static and live for
 * the program; a caller may also pass its own descriptor (e.g. a test that
 * forces vnode collisions with a coarse hash) wherever an rb_hash is taken.
 */
typedef struct rb_hash {
    const char *name;        /* registry name, e.g. "xxh3" */
    const char *description; /* one line */
    unsigned bits;           /* 32 or 64: width of the result */
    rb_hash_fn fn;           /* the function */
    /* optional: 0 if `data` is valid input, else a negative RB_E* code with a
     * detail message; NULL means every byte string is valid */
    int (*check)(const void *data, size_t len);
} rb_hash;

/* Hash registry: X(c_identifier, "name"). */
#define RB_HASH_LIST(X)                                                                            \
    X(fnv1a32, "fnv1a32")                                                                          \
    X(fnv1a32_js, "fnv1a32-js")                                                                    \
    X(xxh3, "xxh3")

#define RB_HASH_DECLARE_(ident, name) extern const rb_hash rb_hash_##ident;
RB_HASH_LIST(RB_HASH_DECLARE_)
#undef RB_HASH_DECLARE_

/* Number of registered hashes and the i-th one (0 <= i < rb_hash_count()),
 * in registry order. NULL when i is out of range. */
size_t rb_hash_count(void);
const rb_hash *rb_hash_at(size_t i);

/* rb_hash_by_name — the registered hash called `name`, or NULL (and an
 * RB_EUNKNOWN detail message listing the valid names). */
const rb_hash *rb_hash_by_name(const char *name);

/* rb_hash_check — 0 if `data` is valid input for `h`, else a negative code
 * (RB_EENCODING for invalid UTF-8 under fnv1a32-js) with a detail message
 * naming the byte offset. */
int rb_hash_check(const rb_hash *h, const void *data, size_t len);

/*
 * rb_hash_fmix64 — MurmurHash3's 64-bit finaliser (Appleby): a bijective
 * avalanche mix of one 64-bit word. Used to derive independent scores from a
 * position and a member (rendezvous) and by generators. Pure.
 */
static inline uint64_t rb_hash_fmix64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

#ifdef __cplusplus
}
#endif
#endif
