/* hash_xxh3.c — XXH3 64-bit from xxHash (Yann Collet), seeded. */
#include <xxhash.h>

#include "ringbench/hash.h"

static uint64_t xxh3(const void *data, size_t len, uint64_t seed) {
    return XXH3_64bits_withSeed(data, len, seed);
}

const rb_hash rb_hash_xxh3 = {
    .name = "xxh3",
    .description = "XXH3 64-bit (xxHash), seeded; the fast default",
    .bits = 64,
    .fn = xxh3,
    .check = NULL,
};
