/*
 * cells.c — what a measured cell of `ringbench pg bench` shares with the
 * events and the report (cells.h): the backlog a cell is given, the pgbench
 * reference it is divided by, its latency percentiles.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cells.h"
#include "db.h"
#include "ringbench/common.h" /* rb_nearest_rank */

/* Rows to enqueue (see cells.h): the best total rate measured so far at this
 * batch size, at any W (2 cores: W beyond 2 adds little), times the cell time
 * and a head-room of 2.5 for the swings of a shared disk; a default estimate
 * before the first cell. A cell that still runs dry is flagged
 * backlog_exhausted. */
static struct {
    uint32_t batch;
    double rows_per_s;
} rates_seen[16];

void rbb_note_rate(uint32_t batch, uint32_t n_workers, double rows_per_s) {
    (void)n_workers;
    for (size_t i = 0; i < 16; i++) {
        if (rates_seen[i].batch != batch && rates_seen[i].batch != 0) continue;
        rates_seen[i].batch = batch;
        if (rows_per_s > rates_seen[i].rows_per_s) rates_seen[i].rows_per_s = rows_per_s;
        return;
    }
}

uint64_t rbb_rows_for(const rbb_params *p, uint32_t batch, uint32_t n_workers, double secs) {
    (void)n_workers;
    if (p->n_rows) return p->n_rows;
    double per_s = batch <= 1 ? 1500 : batch <= 8 ? 8000 : 20000;
    for (size_t i = 0; i < 16; i++)
        if (rates_seen[i].batch == batch) per_s = rates_seen[i].rows_per_s;
    uint64_t r = (uint64_t)(per_s * secs * 2.5);
    return r < 1000 ? 1000 : r;
}

void rbb_cell_latencies(rbb_cell *c, const rbb_child *ch, size_t n) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += ch[i].has_final ? ch[i].final.n_samples : 0;
    uint64_t *claim = malloc((total ? total : 1) * sizeof *claim);
    uint64_t *comp = malloc((total ? total : 1) * sizeof *comp);
    if (!claim || !comp) {
        free(claim);
        free(comp);
        return;
    }
    size_t k = 0, n_timed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ch[i].has_final) continue;
        for (uint64_t j = 0; j < ch[i].final.n_samples; j++, k++) {
            if (ch[i].samples[j].claim_timed) claim[n_timed++] = ch[i].samples[j].claim_ns;
            comp[k] = ch[i].samples[j].complete_ns;
        }
    }
    rbb_sort_u64(claim, n_timed);
    rbb_sort_u64(comp, total);
    /* claims made inside a chained completion have no time of their own: none timed, no
     * figure (NaN: JSON null, "-"), never 0 */
    c->claim_p50_us = n_timed ? rbb_percentile_sorted(claim, n_timed, 50) / 1e3 : NAN;
    c->claim_p99_us = n_timed ? rbb_percentile_sorted(claim, n_timed, 99) / 1e3 : NAN;
    c->complete_p50_us = rbb_percentile_sorted(comp, total, 50) / 1e3;
    c->complete_p99_us = rbb_percentile_sorted(comp, total, 99) / 1e3;
    free(claim);
    free(comp);
}

double rbb_pgbench_tps_for(const rbb_run *run, uint32_t n_workers) {
    if (!run->pgbench_ok) return 0;
    for (size_t i = 0; i < run->p.n_workers; i++)
        if (run->p.workers[i] == n_workers)
            return run->pgbench_rounds > 1 ? (run->pgbench[i].tps + run->pgbench_after[i].tps) / 2
                                           : run->pgbench[i].tps;
    return 0;
}

/* A cell with no repetition that did not fail: its measured figures NaN (null in the JSON,
 * "failed" in the MD), its counts kept. */
static void no_figures(rbb_cell *c) {
    c->rows_per_s = c->claims_per_s = c->tx_per_s = NAN;
    c->claim_p50_us = c->claim_p99_us = NAN;
    c->wal_bytes_per_row = c->buffers_per_row = c->wal_fpi_per_krow = NAN;
    c->commits_per_wal_flush = c->wal_flush_ms = NAN;
    c->client_cpu_us_per_row = c->machine_cpu_us_per_row = NAN;
    c->rows_per_s_min = c->rows_per_s_max = NAN;
}

void rbb_cell_aggregate(rbb_cell *out, const rbb_cell *reps, size_t n) {
    size_t order[RBB_MAX_REPEATS], n_ok = 0;
    for (size_t i = 0; i < n; i++) /* insertion sort of the good ones by rows/s */
        if (!reps[i].failed) {
            size_t j = n_ok++;
            for (; j > 0 && reps[order[j - 1]].rows_per_s > reps[i].rows_per_s; j--)
                order[j] = order[j - 1];
            order[j] = i;
        }
    /* the median repetition: the one percentile definition (nearest rank, p 50) */
    rbb_cell agg = n_ok ? reps[order[rb_nearest_rank(n_ok, 50)]] : reps[0];
    agg.n_repeats = (uint32_t)n;
    agg.n_lost = agg.n_dup_executions = agg.after.n_duplicates = 0;
    agg.not_run = 1; /* not run: none of its repetitions started */
    for (size_t i = 0; i < n; i++) {
        agg.rep_rows_per_s[i] = reps[i].rows_per_s;
        agg.rep_claim_p50_us[i] = reps[i].claim_p50_us;
        agg.n_lost += reps[i].n_lost;
        agg.n_dup_executions += reps[i].n_dup_executions;
        agg.after.n_duplicates += reps[i].after.n_duplicates;
        agg.failed |= reps[i].failed;
        agg.not_run &= reps[i].not_run;
    }
    agg.rows_per_s_min = n_ok ? reps[order[0]].rows_per_s : 0;
    agg.rows_per_s_max = n_ok ? reps[order[n_ok - 1]].rows_per_s : 0;
    for (size_t i = 0; i < n; i++) /* a failed repetition's figures are no figures (null) */
        if (reps[i].failed) agg.rep_rows_per_s[i] = agg.rep_claim_p50_us[i] = NAN;
    if (!n_ok) no_figures(&agg);
    *out = agg;
}

/* Wait until no other backend is connected to the bench database, so the
 * workers' statistics (n_dead_tup) are flushed: a backend flushes at exit. */
static void wait_backends_gone(PGconn *c) {
    for (int i = 0; i < 200; i++) {
        double n = 0;
        char err[256];
        if (rbb_db_double(c, &n, err, sizeof err,
                          "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                          "current_database() AND pid <> pg_backend_pid() AND backend_type = "
                          "'client backend'") ||
            n == 0)
            break;
        rbb_sleep_us(10000);
    }
}

/* Run one cell over the backlog as it is (cell->n_rows_enqueued rows in the queue). */
int rbb_cell_measure(const rbb_params *p, const char *conninfo, PGconn *c, rbb_cell *cell,
                     double secs, uint64_t max_rows, char *err, size_t err_size) {
    if (rbb_stop_signal)
        return rbb_stop_reason(err, err_size), cell->failed = cell->not_run = 1, -1;
    int rc = 0;
    rbb_worker_spec spec = {.conninfo = conninfo,
                            .mode = cell->mode,
                            .batch = cell->batch,
                            .ring_algo = p->ring_algo,
                            .age_bound_ms = p->age_bound_ms,
                            .run_s = secs,
                            .max_rows = max_rows,
                            .max_samples = 1u << 20,
                            .complete_each = p->complete_each && !cell->chain,
                            .chain = cell->chain};
    int go[2];
    if (pipe(go)) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        return cell->failed = 1, -1;
    }
    rbb_child ch[64];
    size_t n = cell->n_workers;
    for (size_t i = 0; i < n; i++) {
        if (rbb_spawn(&ch[i], go[0], go[1], rbb_worker_body, &spec) < 0) {
            n = i;
            snprintf(err, err_size, "fork: %s", strerror(errno));
            rc = -1;
            break;
        }
    }
    close(go[0]);
    char why[160];
    for (size_t i = 0; !rc && i < n; i++)
        if (rbb_wait_ready(&ch[i], RBB_READY_TIMEOUT_MS, why, sizeof why)) {
            snprintf(err, err_size, "worker %zu %s", i, why);
            rc = -1;
        }
    if (rc)
        for (size_t i = 0; i < n; i++)
            kill(ch[i].pid, SIGTERM);
    rbb_work w0, w1, busy1;
    rbb_work_now(c, &w0);
    uint64_t t_go = rb_now_ns();
    close(go[1]); /* EOF: every worker starts now */
    memset(&cell->waits, 0, sizeof cell->waits);
    rbb_collect(ch, n, c, &cell->waits, 50,
                t_go + (uint64_t)((secs + rbb_overrun_slack_s(secs)) * 1e9));
    rbb_work_now(NULL, &busy1); /* the machine's CPU only: the server's counts come later */
    double busy_us = busy1.busy_us - w0.busy_us, client_us = 0;
    if (rc) {
        for (size_t i = 0; i < n; i++)
            rbb_child_free(&ch[i]);
        if (rbb_stop_signal) rbb_stop_reason(err, err_size);
        return cell->failed = 1, -1;
    }

    uint64_t t_end = t_go;
    size_t n_ended = 0; /* workers that failed (no report, or a non-zero exit) */
    for (size_t i = 0; i < n; i++) {
        if (!ch[i].has_final || ch[i].exit_status != 0) {
            if (n_ended++) continue; /* the first one named, the others counted */
            cell->failed = 1;
            char how[96];
            snprintf(err, err_size, "worker %zu %s", i, rbb_child_end(&ch[i], how, sizeof how));
            if (ch[i].overran)
                snprintf(err + strlen(err), err_size - strlen(err),
                         " (the %.1f s measurement + %.1f s)", secs, rbb_overrun_slack_s(secs));
            continue;
        }
        const rbb_report_head *h = &ch[i].final;
        if (h->t_end_ns > t_end) t_end = h->t_end_ns;
        cell->n_rows += h->n_rows;
        cell->n_claims += h->n_claims;
        cell->n_empty_claims += h->n_empty_claims;
        cell->n_short_claims += h->n_short_claims;
        cell->n_rows_aged += h->n_rows_aged;
        cell->n_complete_tx += h->n_complete_tx;
        cell->n_fenced += h->n_fenced;
        cell->n_errors += h->n_errors;
        client_us += (double)h->cpu_ns / 1e3;
    }
    if (n_ended > 1)
        snprintf(err + strlen(err), err_size - strlen(err), "; %zu more failed", n_ended - 1);
    if (rbb_stop_signal) cell->failed = 1, rbb_stop_reason(err, err_size);
    cell->elapsed_s = (double)(t_end - t_go) / 1e9;
    if (cell->elapsed_s > 0) {
        cell->rows_per_s = (double)cell->n_rows / cell->elapsed_s;
        cell->claims_per_s = (double)cell->n_claims / cell->elapsed_s;
        cell->tx_per_s = (double)(cell->n_claims + cell->n_complete_tx) / cell->elapsed_s;
    }
    cell->client_cpu_us_per_row = cell->n_rows ? client_us / (double)cell->n_rows : NAN;
    cell->machine_cpu_us_per_row = cell->n_rows ? busy_us / (double)cell->n_rows : NAN;
    rbb_cell_latencies(cell, ch, n);
    /* a chain cell's timed claims are only its workers' first ones (and fallbacks): no figure */
    if (cell->chain) cell->claim_p50_us = cell->claim_p99_us = NAN;
    rbb_note_rate(cell->batch, cell->n_workers, cell->rows_per_s);
    for (size_t i = 0; i < n; i++)
        rbb_child_free(&ch[i]);

    wait_backends_gone(c);
    rbb_work_now(c, &w1);
    cell->wal_bytes_per_row =
        cell->n_rows ? (w1.wal_bytes - w0.wal_bytes) / (double)cell->n_rows : NAN;
    cell->buffers_per_row = cell->n_rows ? (w1.buffers - w0.buffers) / (double)cell->n_rows : NAN;
    double flushes = w1.wal_syncs - w0.wal_syncs;
    cell->commits_per_wal_flush =
        flushes > 0 ? (double)(cell->n_claims + cell->n_complete_tx) / flushes : NAN;
    cell->wal_fpi_per_krow =
        cell->n_rows ? (w1.wal_fpi - w0.wal_fpi) * 1000 / (double)cell->n_rows : NAN;
    double flush_ms = w1.wal_sync_ms - w0.wal_sync_ms; /* 0: track_wal_io_timing off */
    cell->wal_flush_ms = flushes > 0 && flush_ms > 0 ? flush_ms / flushes : NAN;
    if (rbb_queue_count(c, &cell->after, err, err_size)) return cell->failed = 1, -1;
    /* lost: rows gone (neither completed, pending, failed nor leased), and rows graceful workers
     * left leased (they leave none but the rows held on purpose); a worker that failed (killed,
     * stalled) leaves its batch leased until the lease runs out: in flight, not lost */
    uint64_t accounted = cell->after.n_completed + cell->after.n_pending + cell->after.n_failed +
                         cell->after.n_claimed;
    cell->n_lost = cell->n_rows_enqueued > accounted ? cell->n_rows_enqueued - accounted : 0;
    if (!n_ended && cell->after.n_claimed > cell->n_rows_held)
        cell->n_lost += cell->after.n_claimed - cell->n_rows_held;
    /* completions the workers saw succeed beyond the rows done: a row done twice */
    if (cell->n_rows > cell->after.n_completed)
        cell->n_dup_executions = cell->n_rows - cell->after.n_completed;
    cell->backlog_exhausted = cell->after.n_pending == 0 || cell->n_empty_claims > 0;
    return cell->failed ? -1 : 0;
}
