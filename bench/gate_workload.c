/*
 * gate_workload.c — the fixed workload the regression gate (scripts/gate)
 * runs under valgrind's callgrind. For every registered algorithm: one build
 * of N members x V vnodes, then a fixed number of key lookups (and raw ring
 * searches for positional algorithms); and the hash-only control per hash.
 *
 * Each phase runs between CALLGRIND_ZERO_STATS and CALLGRIND_DUMP_STATS_AT
 * (valgrind/callgrind.h), so callgrind writes one dump per phase whose
 * instruction total belongs to that phase alone; key generation, member
 * setup and ring destruction fall outside every phase. Outside valgrind the
 * client requests are no-ops and the program just runs.
 *
 * stdout: first "# key<TAB>value" lines describing the build (compiler,
 * flags, xxHash version, parameters), then one line per phase, "<phase>\t<n_ops>", in dump order,
 * where n_ops is what the phase's instructions are divided by (members built, lookups).
 * Deterministic: fixed keys, fixed seed, no clocks, no addresses hashed.
 *
 * usage: ringbench-gate-workload [--members N] [--vnodes V] [--lookups L]
 *                                [--keys K] [--algo NAME]
 * Exit 0; 2 on bad arguments; 1 on a build failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include <xxhash.h>

#include "bench_work.h"
#include "build_info.h"
#include "cli.h"

typedef struct gate_params {
    uint32_t n_members, n_vnodes, n_lookups, n_keys;
    const char *algo; /* NULL: all */
} gate_params;

static void phase_done(const char *kind, const char *name, uint64_t n_ops) {
    char label[128];
    snprintf(label, sizeof label, "%s/%s", kind, name);
    CALLGRIND_DUMP_STATS_AT(label);
    printf("%s\t%llu\n", label, (unsigned long long)n_ops);
}

static int run_algo(const rb_algo *algo, const gate_params *p, const rb_member *members,
                    const rb_bench_keys *keys, const uint64_t *positions, uint64_t *sink) {
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.n_vnodes = p->n_vnodes;
    rb_ring *ring;
    CALLGRIND_ZERO_STATS;
    int rc = rb_ring_build(algo, &cfg, members, p->n_members, &ring);
    if (rc) {
        fprintf(stderr, "ringbench-gate-workload: build %s: %s\n", algo->name, rb_error_detail());
        return 1;
    }
    /* Per member: every algorithm has members, while its "points" are vnodes
     * for some, table slots for others (Maglev's 65,537) and nothing for jump. */
    phase_done("build", algo->name, p->n_members);

    rb_bench_cursor c;
    rb_bench_cursor_init(&c);
    CALLGRIND_ZERO_STATS;
    *sink += rb_bench_owner_key_latency(ring, keys, &c, p->n_lookups);
    phase_done("key", algo->name, p->n_lookups);

    if (algo->owner_position) {
        rb_bench_cursor_init(&c);
        CALLGRIND_ZERO_STATS;
        *sink += rb_bench_owner_position_latency(ring, positions, keys->n_keys, &c, p->n_lookups);
        phase_done("position", algo->name, p->n_lookups);
    }
    rb_ring_destroy(ring);
    return 0;
}

static int parse(int argc, char **argv, gate_params *p) {
    *p = (gate_params){.n_members = 16, .n_vnodes = 128, .n_lookups = 20000, .n_keys = 65536};
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t *target = !strcmp(opt, "--members")   ? &p->n_members
                           : !strcmp(opt, "--vnodes")  ? &p->n_vnodes
                           : !strcmp(opt, "--lookups") ? &p->n_lookups
                           : !strcmp(opt, "--keys")    ? &p->n_keys
                                                       : NULL;
        if (!target && strcmp(opt, "--algo") != 0) {
            fprintf(stderr, "ringbench-gate-workload: unknown option '%s'\n", opt);
            return 2;
        }
        if (!v) {
            fprintf(stderr, "ringbench-gate-workload: %s needs a value\n", opt);
            return 2;
        }
        i++;
        if (!target) {
            if (!rb_algo_by_name(v)) {
                fprintf(stderr, "ringbench-gate-workload: %s\n", rb_error_detail());
                return 2;
            }
            p->algo = v;
        } else {
            uint64_t x;
            int rc = rb_cli_whole(v, 1, 10000000, &x);
            if (rc) {
                char msg[256];
                rb_cli_whole_message(opt, v, rc, 1, 10000000, msg, sizeof msg);
                fprintf(stderr, "ringbench-gate-workload: %s\n", msg);
                return 2;
            }
            *target = (uint32_t)x;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    gate_params p;
    int rc = parse(argc, argv, &p);
    if (rc) return rc;
    rb_bench_keys keys;
    if (rb_bench_keys_load(NULL, p.n_keys, &keys)) return 1;
    char *ids;
    rb_member *members = rb_bench_members(p.n_members, &ids);
    rb_config cfg;
    rb_config_init(&cfg);
    uint64_t *positions = rb_bench_positions(&cfg, &keys);
    if (!members || !positions) {
        fprintf(stderr, "ringbench-gate-workload: out of memory\n");
        return 1;
    }
    printf("# c_compiler\t%s\n# c_flags\t%s\n# build_type\t%s\n# xxhash\t%u\n", RB_BUILD_C_COMPILER,
           RB_BUILD_C_FLAGS, RB_BUILD_TYPE, XXH_versionNumber());
    printf("# members\t%u\n# vnodes\t%u\n# lookups\t%u\n# keys\tgenerated order:%u\n", p.n_members,
           p.n_vnodes, p.n_lookups, p.n_keys);
    uint64_t sink = 0;
    for (size_t h = 0; h < rb_hash_count() && !p.algo; h++) {
        rb_config hc = cfg;
        hc.bucket_hash = rb_hash_at(h);
        rb_bench_cursor c;
        rb_bench_cursor_init(&c);
        CALLGRIND_ZERO_STATS;
        sink += rb_bench_hash_latency(&hc, &keys, &c, p.n_lookups);
        phase_done("hash", hc.bucket_hash->name, p.n_lookups);
    }
    for (size_t a = 0; a < rb_algo_count() && rc == 0; a++) {
        const rb_algo *algo = rb_algo_at(a);
        if (p.algo && strcmp(p.algo, algo->name) != 0) continue;
        rc = run_algo(algo, &p, members, &keys, positions, &sink);
    }
    fprintf(stderr, "ringbench-gate-workload: checksum %llu\n", (unsigned long long)sink);
    free(positions);
    free(members), free(ids);
    rb_bench_keys_free(&keys);
    return rc;
}
