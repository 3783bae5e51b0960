/*
 * backlog.c — the backlog sweep (backlog.h): does a claim cost the same at 10 k and at
 * 1 M pending rows? A queue's claim should cost O(batch) whatever the backlog (issue 11,
 * target 3). The backlog is filled once per size (a 1 M-row COPY takes most of a minute
 * here) and topped up after each measurement, so every measurement starts from the same
 * pending rows, in all and of the hot key; every point is measured p->repeats times, interleaved
 * across the modes, and reports the median; the hot key's head row stays in flight all along, so
 * ordered mode's guard meets the hot key's blocked rows at every size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backlog.h"
#include "db.h"

/* The worker id that holds the hot key's head row all along (no such worker runs). */
#define HOLDER "backlog-holder"

/* Put the hot key's oldest pending row in flight: leased for an hour to a holder
 * that never completes it (no housekeeper takes it back within the sweep). */
static int hold_hot_head(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(c, err, err_size,
                       "WITH held AS (UPDATE inbox SET claimed_by = '" HOLDER "', "
                       "claimed_at = now(), lease_expires_at = now() + interval '1 hour', "
                       "lease_generation = lease_generation + 1, attempts = attempts + 1 "
                       "WHERE id = (SELECT min(id) FROM inbox WHERE partition_key = '%s' AND "
                       "status = 'pending') RETURNING id, lease_generation, lease_expires_at) "
                       "INSERT INTO inbox_leases SELECT * FROM held ON CONFLICT (id) DO UPDATE SET "
                       "lease_generation = excluded.lease_generation, "
                       "lease_expires_at = excluded.lease_expires_at",
                       RBB_HOT_KEY);
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

/* Back to the backlog the point's first measurement started from: `pending` rows, `hot` of
 * them of the hot key. Deletes what the workers completed (and its effects), puts back to
 * pending what a worker killed mid-measurement left leased (as the housekeeper would once its
 * lease ran out; the holder's row stays held) and marks it dead (no worker runs here; a killed
 * one would otherwise stay a member of the next measurement's ring), enqueues the
 * hot key's and the other keys' missing rows (the other keys from the same key stream), and
 * VACUUM ANALYZEs: every repetition starts from the same backlog, whatever each mode took
 * (ordered mode takes no hot row while the hot head is held; the others take 10% of theirs). */
static int top_up(PGconn *c, uint64_t pending, uint64_t hot, rbb_keys *keys, const char *tag,
                  char *err, size_t err_size) {
    uint64_t now_all = 0, now_hot = 0;
    int rc = rbb_db_exec(c, err, err_size,
                         "DELETE FROM effects; DELETE FROM inbox_done; "
                         "DELETE FROM inbox_leases l USING inbox i WHERE l.id = i.id "
                         "AND i.claimed_by <> '" HOLDER "'; "
                         "UPDATE inbox SET claimed_by = NULL, "
                         "lease_expires_at = NULL, lease_generation = lease_generation + 1 "
                         "WHERE status = 'claimed' AND claimed_by <> '" HOLDER "'; "
                         "UPDATE workers SET status = 'dead', dead_at = now() "
                         "WHERE status = 'alive'");
    if (!rc) rc = count_pending(c, &now_all, &now_hot, err, err_size);
    uint64_t add_hot = now_hot < hot ? hot - now_hot : 0;
    uint64_t add = now_all < pending ? pending - now_all : 0;
    if (add < add_hot) add = add_hot;
    if (!rc && add) rc = rbb_queue_fill(c, add, add_hot, keys, tag, err, err_size);
    if (!rc) rc = rbb_queue_settle(c, err, err_size);
    return rc;
}

/* The median (nearest rank) of the values v[0..n) that are not NaN, their smallest in *lo
 * and largest in *hi; all three NaN when there is none. Sorts v's copy, not v. */
static double median_of(const double *v, size_t n, double *lo, double *hi) {
    double s[RBB_MAX_REPEATS];
    size_t k = 0;
    for (size_t i = 0; i < n && i < RBB_MAX_REPEATS; i++) {
        if (isnan(v[i])) continue;
        size_t j = k++;
        for (; j > 0 && s[j - 1] > v[i]; j--)
            s[j] = s[j - 1];
        s[j] = v[i];
    }
    *lo = k ? s[0] : NAN, *hi = k ? s[k - 1] : NAN;
    return k ? s[rb_nearest_rank(k, 50)] : NAN;
}

/* After a driver step failed with err: 1 when the driver's connection had been lost and is
 * open again (run the step once more), else 0 with err saying why. */
static int reopened(PGconn *c, char *err, size_t err_size) {
    return PQstatus(c) == CONNECTION_BAD && rbb_queue_reconnect(c, err, err_size) == 0;
}

/* One measurement (repetition `rep`, 0-based) of `mode` over the backlog as it is in the
 * queue; the pending rows it started from in *pending (*hot of the hot key). 0, or -1 with
 * err when the driver cannot go on (its connection lost for good, a stop signal); a failed
 * measurement is marked in cell->failed and is not fatal. */
static int measure_once(const rbb_params *p, const char *conninfo, PGconn *c, rbb_mode mode,
                        size_t rep, rbb_cell *cell, uint64_t *pending, uint64_t *hot, char *err,
                        size_t err_size) {
    memset(cell, 0, sizeof *cell);
    cell->mode = mode;
    /* the sweep times claims: a claim chained into a completion has no time of its own,
     * so with --complete chain the sweep completes per batch */
    cell->chain = 0;
    cell->n_workers = p->backlog_workers;
    cell->batch = p->backlog_batch;
    cell->dist = RBB_DIST_UNIFORM;
    int rc = count_pending(c, pending, hot, err, err_size);
    if (rc && reopened(c, err, err_size)) rc = count_pending(c, pending, hot, err, err_size);
    if (rc) return -1;
    cell->n_rows_enqueued = *pending; /* the held row is not pending */
    /* a point measures claims at its backlog: the workers stop before they drain more than
     * RBB_BACKLOG_MAX_SHARE of it */
    uint64_t cap = (uint64_t)((double)*pending * RBB_BACKLOG_MAX_SHARE) / cell->n_workers;
    cell->n_rows_held = p->backlog_hot_every ? 1 : 0; /* the hot key's head, leased on purpose */
    int failed = rbb_cell_measure(p, conninfo, c, cell, p->backlog_s, cap ? cap : 1, err, err_size);
    if (failed) {
        fprintf(stderr, "pg bench:   %s over %llu pending, repetition %zu: FAILED: %s\n",
                rbb_mode_name(mode), (unsigned long long)*pending, rep + 1, err);
        if (rbb_stop_signal) return -1; /* the sweep stops here, err says why */
        /* what ended its workers may have ended the driver's session too */
        return PQstatus(c) == CONNECTION_BAD ? rbb_queue_reconnect(c, err, err_size) : 0;
    }
    fprintf(stderr,
            "pg bench:   %s over %llu pending (%llu of the hot key): claim p50 %.0f us, p99 "
            "%.0f us, %.0f rows/s\n",
            rbb_mode_name(mode), (unsigned long long)*pending, (unsigned long long)*hot,
            cell->claim_p50_us, cell->claim_p99_us, cell->rows_per_s);
    return 0;
}

/* A point from its repetitions reps[0..n) (in the order measured): a failed repetition counts
 * in n_failed_repeats and in no figure. */
static void point_of(rbb_backlog_point *pt, const rbb_cell *reps, size_t n) {
    double p50[RBB_MAX_REPEATS], p99[RBB_MAX_REPEATS], lo, hi;
    pt->n_failed_repeats = 0;
    for (size_t r = 0; r < n; r++) {
        p50[r] = reps[r].failed ? NAN : reps[r].claim_p50_us;
        p99[r] = reps[r].failed ? NAN : reps[r].claim_p99_us;
        pt->n_failed_repeats += reps[r].failed != 0;
    }
    rbb_cell_aggregate(&pt->cell, reps, n);
    for (size_t r = 0; r < n; r++)
        pt->cell.rep_claim_p50_us[r] = p50[r];
    pt->claim_p50_us = median_of(p50, n, &pt->claim_p50_min_us, &pt->claim_p50_max_us);
    pt->claim_p99_us = median_of(p99, n, &lo, &hi);
    pt->consumed_share = pt->backlog && pt->n_failed_repeats < n
                             ? (double)pt->cell.n_rows / (double)pt->backlog
                             : NAN;
}

/* The repetitions of one backlog size: reps[m * n_rep + r] is mode m's repetition r, of which
 * n_done[m] were measured (first[m]: the pending rows and hot-key rows its first one started
 * from). */
typedef struct size_reps {
    rbb_cell *reps;
    uint64_t size; /* the backlog size asked for */
    size_t n_rep, n_done[RBB_N_MODES];
    uint64_t first_pending[RBB_N_MODES], first_hot[RBB_N_MODES];
} size_reps;

/* Fill the queue with `size` rows (1 in p->backlog_hot_every of the hot key, its head row
 * held in flight) and VACUUM ANALYZE; the backlog every measurement starts from in *all
 * (*hot of the hot key). 0, or -1 with err. */
static int fill_size(const rbb_params *p, PGconn *c, uint64_t size, rbb_keys *keys, uint64_t *all,
                     uint64_t *hot, char *err, size_t err_size) {
    char tag[64];
    snprintf(tag, sizeof tag, "backlog%llu", (unsigned long long)size);
    fprintf(stderr, "pg bench: backlog sweep: enqueueing %llu rows\n", (unsigned long long)size);
    int rc = rbb_queue_reset(c, err, err_size);
    uint64_t n_hot =
        p->backlog_hot_every ? (size + p->backlog_hot_every - 1) / p->backlog_hot_every : 0;
    if (!rc) rc = rbb_queue_fill(c, size, n_hot, keys, tag, err, err_size);
    if (!rc && p->backlog_hot_every) rc = hold_hot_head(c, err, err_size);
    if (!rc) rc = rbb_queue_settle(c, err, err_size);
    if (!rc) rc = count_pending(c, all, hot, err, err_size);
    return rc;
}

/* One backlog size: fill the queue, then p->repeats rounds over the modes (interleaved, like
 * the matrix), topping the backlog up after each measurement. 0, or -1 with err and *stop
 * set (where it stopped); s holds the repetitions measured either way. */
static int sweep_size(const rbb_params *p, const char *conninfo, PGconn *c, uint64_t size,
                      size_reps *s, rbb_backlog_stop *stop, char *err, size_t err_size) {
    rbb_keys keys;
    if (rbb_keys_init(&keys, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s, p->seed))
        return snprintf(err, err_size, "out of memory"), -1;
    uint64_t start_all = 0, start_hot = 0; /* the backlog every measurement starts from */
    int rc = rbb_stop_signal ? (rbb_stop_reason(err, err_size), -1)
                             : fill_size(p, c, size, &keys, &start_all, &start_hot, err, err_size);
    if (rc && reopened(c, err, err_size))
        rc = fill_size(p, c, size, &keys, &start_all, &start_hot, err, err_size);
    *stop = (rbb_backlog_stop){.backlog = size, .step = "filling"};
    for (size_t r = 0; !rc && r < s->n_rep; r++)
        for (size_t m = 0; !rc && m < p->n_modes; m++) {
            *stop = (rbb_backlog_stop){.backlog = size,
                                       .step = "measuring",
                                       .repetition = (uint32_t)r + 1,
                                       .mode = p->modes[m]};
            uint64_t pending = 0, hot = 0;
            rc = measure_once(p, conninfo, c, p->modes[m], r, &s->reps[m * s->n_rep + r], &pending,
                              &hot, err, err_size);
            if (rc) break;
            if (s->n_done[m]++ == 0) s->first_pending[m] = pending, s->first_hot[m] = hot;
            stop->step = "topping up";
            char tag[64];
            snprintf(tag, sizeof tag, "backlog%llu-%zu-%zu", (unsigned long long)size, r, m);
            rc = top_up(c, start_all, start_hot, &keys, tag, err, err_size);
            if (rc && reopened(c, err, err_size))
                rc = top_up(c, start_all, start_hot, &keys, tag, err, err_size);
        }
    if (rc) snprintf(stop->error, sizeof stop->error, "%s", err);
    rbb_keys_free(&keys);
    return rc;
}

/* Append the points of one backlog size to run->backlog: one per mode with a repetition
 * measured; the number that failed or found duplicates or lost rows. */
static int append_points(rbb_run *run, const size_reps *s) {
    const rbb_params *p = &run->p;
    int n_bad = 0;
    for (size_t m = 0; m < p->n_modes; m++) {
        if (!s->n_done[m]) continue;
        rbb_backlog_point *pt = &run->backlog[run->n_backlog++];
        pt->size = s->size;
        pt->backlog = s->first_pending[m], pt->n_hot_pending = s->first_hot[m];
        point_of(pt, &s->reps[m * s->n_rep], s->n_done[m]);
        const rbb_cell *cell = &pt->cell;
        if (cell->failed || cell->n_lost || cell->after.n_duplicates || cell->n_dup_executions)
            n_bad++;
        if (pt->n_failed_repeats == cell->n_repeats) {
            fprintf(stderr, "pg bench:   %s over %llu: every repetition failed\n",
                    rbb_mode_name(cell->mode), (unsigned long long)pt->backlog);
            continue;
        }
        fprintf(stderr,
                "pg bench:   %s over %llu: claim p50 %.0f us (median of %u; %.0f..%.0f)%s\n",
                rbb_mode_name(cell->mode), (unsigned long long)pt->backlog, pt->claim_p50_us,
                cell->n_repeats - pt->n_failed_repeats, pt->claim_p50_min_us, pt->claim_p50_max_us,
                pt->n_failed_repeats ? ", a repetition failed" : "");
    }
    return n_bad;
}

int rbb_run_backlog(rbb_run *run, const char *conninfo, PGconn *c, char *err, size_t err_size) {
    const rbb_params *p = &run->p;
    size_t n_points = p->n_backlogs * p->n_modes, n_rep = p->repeats ? p->repeats : 1;
    run->backlog = calloc(n_points ? n_points : 1, sizeof *run->backlog);
    size_reps s = {.reps = calloc(p->n_modes * n_rep, sizeof *s.reps), .n_rep = n_rep};
    if (!run->backlog || !s.reps) return free(s.reps), snprintf(err, err_size, "out of memory"), -1;
    int n_bad = 0, rc = 0;
    for (size_t i = 0; !rc && i < p->n_backlogs; i++) {
        memset(s.n_done, 0, sizeof s.n_done);
        s.size = p->backlogs[i];
        rc = sweep_size(p, conninfo, c, p->backlogs[i], &s, &run->backlog_stop, err, err_size);
        n_bad += append_points(run, &s);
    }
    if (!rc) memset(&run->backlog_stop, 0, sizeof run->backlog_stop);
    free(s.reps);
    return rc ? -1 : n_bad;
}
