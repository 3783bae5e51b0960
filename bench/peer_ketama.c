/*
 * peer_ketama.c — libmemcached's ketama and ringbench's `ketama` on the same
 * MD5 key positions (see peer_ketama.h).
 */
#include "peer_ketama.h"

#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md5.h"

#define KETAMA_DEFAULT_PORT 11211

struct rb_peer_ketama {
    memcached_st *memc;
};

rb_peer_ketama *rb_peer_ketama_open(const rb_member *members, uint32_t n) {
    rb_peer_ketama *p = calloc(1, sizeof *p);
    if (!p || !(p->memc = memcached_create(NULL))) {
        free(p);
        return NULL;
    }
    memcached_behavior_set(p->memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    for (uint32_t i = 0; i < n; i++) {
        char host[256];
        snprintf(host, sizeof host, "%.*s", (int)members[i].id_len, (const char *)members[i].id);
        if (memcached_server_add_with_weight(p->memc, host, KETAMA_DEFAULT_PORT, 1) !=
            MEMCACHED_SUCCESS) {
            rb_peer_ketama_close(p);
            return NULL;
        }
    }
    return p;
}

void rb_peer_ketama_close(rb_peer_ketama *p) {
    if (!p) return;
    memcached_free(p->memc);
    free(p);
}

static uint32_t peer_server(const rb_peer_ketama *p, const char *key, size_t len) {
    return memcached_generate_hash(p->memc, key, len);
}

long rb_peer_ketama_first_disagreement(const rb_peer_ketama *p, const rb_ring *ring,
                                       const rb_bench_keys *k, size_t n_check) {
    for (size_t i = 0; i < n_check && i < k->n_keys; i++) {
        uint32_t s = peer_server(p, k->key[i], k->len[i]);
        const memcached_instance_st *in = memcached_server_instance_by_position(p->memc, s);
        size_t id_len;
        const void *id = rb_ring_member_id(
            ring, rb_ring_owner_position(ring, rb_md5_le32(k->key[i], k->len[i])), &id_len);
        const char *name = memcached_server_name(in);
        if (strlen(name) != id_len || memcmp(name, id, id_len) != 0) return (long)i;
    }
    return -1;
}

uint64_t rb_peer_ketama_latency(const rb_peer_ketama *p, const rb_bench_keys *k, rb_bench_cursor *c,
                                size_t n_lookups) {
    RB_BENCH_LOOP(1, k->n_keys, peer_server(p, k->key[i], k->len[i]));
}

uint64_t rb_peer_ketama_throughput(const rb_peer_ketama *p, const rb_bench_keys *k,
                                   rb_bench_cursor *c, size_t n_lookups) {
    RB_BENCH_LOOP(0, k->n_keys, peer_server(p, k->key[i], k->len[i]));
}

uint64_t rb_peer_ketama_ours_latency(const rb_ring *r, const rb_bench_keys *k, rb_bench_cursor *c,
                                     size_t n_lookups) {
    RB_BENCH_LOOP(1, k->n_keys, rb_ring_owner_position(r, rb_md5_le32(k->key[i], k->len[i])));
}

uint64_t rb_peer_ketama_ours_throughput(const rb_ring *r, const rb_bench_keys *k,
                                        rb_bench_cursor *c, size_t n_lookups) {
    RB_BENCH_LOOP(0, k->n_keys, rb_ring_owner_position(r, rb_md5_le32(k->key[i], k->len[i])));
}
