/*
 * backlog.c — the backlog sweep (backlog.h): does a claim cost the same at 10 k and at
 * 1 M pending rows? A queue's claim should cost O(batch) whatever the backlog (issue 11,
 * target 3). The backlog is filled once per size (a 1 M-row COPY takes most of a minute
 * here) and topped up after each mode, so every mode starts from the same number of
 * pending rows; the hot key's head row stays in flight all along, so ordered mode's
 * guard meets the hot key's blocked rows at every size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backlog.h"
#include "db.h"

/* Put the hot key's oldest pending row in flight: leased for an hour to a holder
 * that never completes it (no housekeeper takes it back within the sweep). */
static int hold_hot_head(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(c, err, err_size,
                       "UPDATE inbox SET status = 'claimed', claimed_by = 'backlog-holder', "
                       "claimed_at = now(), lease_expires_at = now() + interval '1 hour', "
                       "lease_generation = lease_generation + 1, attempts = attempts + 1 "
                       "WHERE id = (SELECT min(id) FROM inbox WHERE partition_key = '%s' AND "
                       "status = 'pending')",
                       RBB_HOT_KEY);
}

/* Back to `size` pending rows: delete what the workers completed (and its effects),
 * enqueue as many new rows from the same key stream, VACUUM ANALYZE. */
static int top_up(PGconn *c, uint64_t size, rbb_keys *keys, uint32_t hot_every, const char *tag,
                  char *err, size_t err_size) {
    double pending = 0;
    int rc = rbb_db_exec(c, err, err_size,
                         "DELETE FROM effects; DELETE FROM inbox WHERE status = 'done'");
    if (!rc)
        rc = rbb_db_double(c, &pending, err, err_size,
                           "SELECT count(*) FROM inbox WHERE status = 'pending'");
    if (!rc && (uint64_t)pending < size)
        rc = rbb_queue_fill(c, size - (uint64_t)pending, keys, hot_every, tag, err, err_size);
    if (!rc) rc = rbb_queue_settle(c, err, err_size);
    return rc;
}

/* Pending rows in all and of the hot key. */
static int count_pending(PGconn *c, uint64_t *all, uint64_t *hot, char *err, size_t err_size) {
    double a = 0, h = 0;
    int rc =
        rbb_db_double(c, &a, err, err_size, "SELECT count(*) FROM inbox WHERE status = 'pending'");
    if (!rc)
        rc = rbb_db_double(c, &h, err, err_size,
                           "SELECT count(*) FROM inbox WHERE status = 'pending' AND "
                           "partition_key = '%s'",
                           RBB_HOT_KEY);
    *all = (uint64_t)a, *hot = (uint64_t)h;
    return rc;
}

int rbb_run_backlog(rbb_run *run, const char *conninfo, PGconn *c, char *err, size_t err_size) {
    const rbb_params *p = &run->p;
    size_t n_points = p->n_backlogs * p->n_modes;
    run->backlog = calloc(n_points ? n_points : 1, sizeof *run->backlog);
    if (!run->backlog) return snprintf(err, err_size, "out of memory"), -1;
    int n_bad = 0;
    for (size_t i = 0; i < p->n_backlogs; i++) {
        uint64_t size = p->backlogs[i];
        rbb_keys keys;
        if (rbb_keys_init(&keys, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s, p->seed))
            return snprintf(err, err_size, "out of memory"), -1;
        char tag[64];
        snprintf(tag, sizeof tag, "backlog%llu", (unsigned long long)size);
        fprintf(stderr, "pg bench: backlog sweep: enqueueing %llu rows\n",
                (unsigned long long)size);
        int rc = rbb_queue_reset(c, err, err_size);
        if (!rc) rc = rbb_queue_fill(c, size, &keys, p->backlog_hot_every, tag, err, err_size);
        if (!rc && p->backlog_hot_every) rc = hold_hot_head(c, err, err_size);
        if (!rc) rc = rbb_queue_settle(c, err, err_size);
        for (size_t m = 0; !rc && m < p->n_modes; m++) {
            rbb_backlog_point *pt = &run->backlog[run->n_backlog++];
            rbb_cell *cell = &pt->cell;
            cell->mode = p->modes[m];
            /* the sweep times claims: a claim chained into a completion has no time of its
             * own, so with --complete chain the sweep completes per batch */
            cell->chain = 0;
            cell->n_workers = p->backlog_workers;
            cell->batch = p->backlog_batch;
            cell->dist = RBB_DIST_UNIFORM;
            uint64_t held = p->backlog_hot_every ? 1 : 0;
            rc = count_pending(c, &pt->backlog, &pt->n_hot_pending, err, err_size);
            if (rc) break;
            cell->n_rows_enqueued = pt->backlog; /* the held row is not pending */
            if (rbb_cell_measure(p, conninfo, c, cell, p->backlog_s, err, err_size)) {
                fprintf(stderr, "pg bench:   %s: FAILED: %s\n", rbb_mode_name(cell->mode), err);
                n_bad++;
            } else {
                /* the held head row is still leased on purpose: not lost */
                cell->n_lost = cell->n_lost >= held ? cell->n_lost - held : 0;
                if (cell->n_lost || cell->after.n_duplicates || cell->n_dup_executions) n_bad++;
                fprintf(stderr,
                        "pg bench:   %s over %llu pending (%llu of the hot key): claim p50 %.0f "
                        "us, p99 %.0f us, %.0f rows/s\n",
                        rbb_mode_name(cell->mode), (unsigned long long)pt->backlog,
                        (unsigned long long)pt->n_hot_pending, cell->claim_p50_us,
                        cell->claim_p99_us, cell->rows_per_s);
            }
            snprintf(tag, sizeof tag, "backlog%llu-%zu", (unsigned long long)size, m);
            rc = top_up(c, size, &keys, p->backlog_hot_every, tag, err, err_size);
        }
        rbb_keys_free(&keys);
        if (rc) return -1;
    }
    return n_bad;
}
