/*
 * ketama_libmemcached.c — the peer for the ketama known-answer test:
 * libmemcached's own ketama (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED: MD5 points,
 * 160 per server scaled by weight, 4 per digest) over a server list, printing
 * the server of the keys "0" .. "B-1" one per line as libmemcached labels its
 * points: "host" for the default port 11211, "host:port" otherwise (which is
 * the member id ringbench's `ketama` must be given to agree).
 *
 * usage: ketama_libmemcached B host:port[=weight],...
 * Exit 2 on bad arguments, 1 when libmemcached refuses the list. Uses no
 * network: hashing only.
 */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Add "host:port[=weight]" to memc; 0 or -1 after a message. */
static int add_server(memcached_st *memc, char *spec) {
    char *eq = strrchr(spec, '='), *colon;
    uint32_t weight = 1;
    if (eq) *eq = '\0', weight = (uint32_t)strtoul(eq + 1, NULL, 10);
    if (!(colon = strrchr(spec, ':'))) {
        fprintf(stderr, "ketama_libmemcached: '%s' is not host:port\n", spec);
        return -1;
    }
    *colon = '\0';
    in_port_t port = (in_port_t)strtoul(colon + 1, NULL, 10);
    if (memcached_server_add_with_weight(memc, spec, port, weight) != MEMCACHED_SUCCESS) {
        fprintf(stderr, "ketama_libmemcached: libmemcached refused %s:%u\n", spec, port);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: ketama_libmemcached B host:port[=weight],...\n");
        return 2;
    }
    unsigned long n_buckets = strtoul(argv[1], NULL, 10);
    memcached_st *memc = memcached_create(NULL);
    if (!memc) return 1;
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    int rc = 0;
    for (char *save = NULL, *s = strtok_r(argv[2], ",", &save); s && !rc;
         s = strtok_r(NULL, ",", &save))
        rc = add_server(memc, s);
    for (unsigned long b = 0; b < n_buckets && !rc; b++) {
        char key[24];
        int len = snprintf(key, sizeof key, "%lu", b);
        uint32_t i = memcached_generate_hash(memc, key, (size_t)len);
        const memcached_instance_st *in = memcached_server_instance_by_position(memc, i);
        if (memcached_server_port(in) == 11211)
            printf("%s\n", memcached_server_name(in));
        else
            printf("%s:%u\n", memcached_server_name(in), (unsigned)memcached_server_port(in));
    }
    memcached_free(memc);
    return rc ? 1 : 0;
}
