/*
 * refresh_reject.c — issue 10, kind 11: a failed rb_queue_refresh_membership must
 * not report success later. Registers worker "a" in the schema given by
 * $RINGBENCH_PG_SCHEMA (migrated, the workers.id bound dropped by the calling
 * script), refreshes (owns all B buckets), inserts a live worker whose id the
 * ring rejects (2,000 bytes > RB_MAX_ID_BYTES), then refreshes twice: both
 * calls must fail, and the owned buckets must still be the last good view.
 * Exit 0 on success, 1 with a line on stderr otherwise.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

#include "queue.h"
#include "ringbench/error.h"

static int fail(const char *what) {
    fprintf(stderr, "FAIL [refresh_reject] %s (%s)\n", what, rb_error_detail());
    return 1;
}

int main(void) {
    rb_queue_config cfg;
    rb_queue_config_init(&cfg);
    cfg.conninfo = getenv("RINGBENCH_PG_CONNINFO");
    cfg.schema = getenv("RINGBENCH_PG_SCHEMA");
    cfg.worker_id = "a";
    cfg.mode = RB_CLAIM_AFFINITY;
    rb_queue *q;
    if (rb_queue_open(&cfg, &q) || rb_queue_register(q)) return fail("open/register");
    size_t n_owned = 0;
    if (rb_queue_refresh_membership(q, NULL)) return fail("first refresh");
    rb_queue_owned_buckets(q, &n_owned);
    uint32_t B = rb_queue_ring_config(q)->n_buckets;
    if (n_owned != B) return fail("a lone worker does not own every bucket");
    PGconn *c = PQconnectdb(cfg.conninfo ? cfg.conninfo : "");
    char sql[256];
    snprintf(sql, sizeof sql,
             "INSERT INTO \"%s\".workers (id, ttl_ms, mode) VALUES (repeat('x', 2000), 60000, "
             "'affinity')",
             cfg.schema);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "FAIL [refresh_reject] insert: %s", PQresultErrorMessage(r));
        return 1;
    }
    PQclear(r);
    PQfinish(c);
    for (int round = 1; round <= 2; round++) {
        int changed = 0;
        int rc = rb_queue_refresh_membership(q, &changed);
        if (rc == 0) {
            fprintf(stderr,
                    "FAIL [refresh_reject] refresh %d with a rejected member returned 0 "
                    "(changed=%d)\n",
                    round, changed);
            return 1;
        }
        rb_queue_owned_buckets(q, &n_owned);
        if (n_owned != B) {
            fprintf(stderr,
                    "FAIL [refresh_reject] after failed refresh %d: owns %zu buckets, "
                    "expected the last good view's %u\n",
                    round, n_owned, B);
            return 1;
        }
    }
    rb_queue_close(q);
    printf("PASS [refresh_reject]\n");
    return 0;
}
