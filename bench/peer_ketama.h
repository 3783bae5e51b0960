/*
 * peer_ketama.h — the ketama peer rows of the lookup benchmark (issue 12,
 * "speed, measured side by side"): libmemcached's own ketama
 * (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED; memcached_generate_hash = MD5 of the
 * key, then its continuum search) against ringbench's `ketama` given the same
 * key position (the first 4 bytes of MD5(key), little-endian, as libketama's
 * ketama_hashi), over the same servers "worker-0" .. "worker-<N-1>" (port
 * 11211, which libmemcached labels by host alone, so both hash the same point
 * labels "worker-i-k").
 *
 * Built only when libmemcached-dev is installed (RINGBENCH_HAVE_LIBMEMCACHED).
 * Not thread-safe: a peer belongs to one thread. No network is used.
 */
#ifndef RINGBENCH_PEER_KETAMA_H
#define RINGBENCH_PEER_KETAMA_H
#include <stddef.h>
#include <stdint.h>

#include "bench_work.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct rb_peer_ketama rb_peer_ketama;

/* rb_peer_ketama_open — a libmemcached handle holding members[0 .. n)
 * (their ids as host names, port 11211, weight 1). NULL when libmemcached
 * refuses a server or memory runs out. Free with rb_peer_ketama_close. */
rb_peer_ketama *rb_peer_ketama_open(const rb_member *members, uint32_t n);
void rb_peer_ketama_close(rb_peer_ketama *p);

/* rb_peer_ketama_first_disagreement — the index of the first of k's first
 * n_check keys whose libmemcached server differs from `ring`'s owner of the
 * same MD5 position (ring must be ringbench's `ketama` over the same members
 * in the same order), or -1 when all agree: the rows compare the same answer. */
long rb_peer_ketama_first_disagreement(const rb_peer_ketama *p, const rb_ring *ring,
                                       const rb_bench_keys *k, size_t n_check);

/* n_lookups key lookups through libmemcached (memcached_generate_hash), in
 * the modes of bench_work.h; returns the sum of server indexes. */
uint64_t rb_peer_ketama_latency(const rb_peer_ketama *p, const rb_bench_keys *k, rb_bench_cursor *c,
                                size_t n_lookups);
uint64_t rb_peer_ketama_throughput(const rb_peer_ketama *p, const rb_bench_keys *k,
                                   rb_bench_cursor *c, size_t n_lookups);

/* The same lookups through ringbench: rb_ring_owner_position of the MD5 key
 * position (what a libketama user's key costs with ringbench's ring). */
uint64_t rb_peer_ketama_ours_latency(const rb_ring *r, const rb_bench_keys *k, rb_bench_cursor *c,
                                     size_t n_lookups);
uint64_t rb_peer_ketama_ours_throughput(const rb_ring *r, const rb_bench_keys *k,
                                        rb_bench_cursor *c, size_t n_lookups);

#ifdef __cplusplus
}
#endif
#endif
