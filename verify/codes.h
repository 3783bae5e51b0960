/*
 * codes.h — verification codes: one 64-bit number per (algorithm, hash) that
 * folds the mapping of a fixed input, so any change of mapping is caught
 * (after SMHasher3's verification values). The procedure (version 1):
 *
 *   for N in 1, 2, 3, 4, 7, 16, 64:
 *     members worker-0 .. worker-<N-1>, weight 1, in that list order
 *     for V in 1, 16, 128:
 *       ring: B = 1024, ring hash = bucket hash = H, hash seed 0,
 *             table_source binary
 *       fold the owner of bucket 0, 1, ..., 1023
 *       fold the owner (rb_ring_owner_key) of each fixed key, in order:
 *         "order:0" .. "order:999", "", "café:1", "注文:9182", "📦:42"
 *
 * fold(x): FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3)
 * over the 4 bytes of the owner index x, little-endian, continuing one
 * running value from the first fold to the last. Every (algorithm, hash) runs
 * the whole procedure (algorithms without vnodes too).
 *
 * The expected codes live in impls/verification_codes.txt, one line
 * "ALGO HASH 0x<16 hex digits>", '#' comments.
 */
#ifndef RINGBENCH_CODES_H
#define RINGBENCH_CODES_H

#include <stddef.h>
#include <stdint.h>

#include "ringbench/ring.h"

#define RB_CODES_VERSION 1

/*
 * rb_verification_code — run the procedure for `algo` under `hash` and store
 * the folded value in *code. Returns 0, or a build error (with detail).
 * Thread-safe.
 */
int rb_verification_code(const rb_algo *algo, const rb_hash *hash, uint64_t *code);

/* One line of the codes file. */
typedef struct rb_code_entry {
    char algo[64];
    char hash[64];
    uint64_t code;
} rb_code_entry;

/*
 * rb_codes_load — read a codes file into *entries (malloc'd, caller frees) and
 * *n. Returns 0; RB_EIO when the file cannot be opened or read; RB_EINVAL
 * with a detail naming the line when a line is malformed.
 */
int rb_codes_load(const char *path, rb_code_entry **entries, size_t *n);

/* rb_codes_find — the entry for (algo, hash) or NULL. */
const rb_code_entry *rb_codes_find(const rb_code_entry *entries, size_t n, const char *algo,
                                   const char *hash);

#endif
