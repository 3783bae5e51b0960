/*
 * cells.c — what a measured cell of `ringbench pg bench` shares with the
 * events and the report (cells.h): the backlog a cell is given, the pgbench
 * reference it is divided by, its latency percentiles.
 */
#include <stdlib.h>

#include "cells.h"

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
    for (size_t i = 0; i < n; i++) total += ch[i].has_final ? ch[i].final.n_samples : 0;
    uint32_t *claim = malloc((total ? total : 1) * sizeof *claim);
    uint32_t *comp = malloc((total ? total : 1) * sizeof *comp);
    if (!claim || !comp) {
        free(claim);
        free(comp);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ch[i].has_final) continue;
        for (uint64_t j = 0; j < ch[i].final.n_samples; j++, k++) {
            claim[k] = ch[i].samples[j].claim_ns;
            comp[k] = ch[i].samples[j].complete_ns;
        }
    }
    rbb_sort_u32(claim, total);
    rbb_sort_u32(comp, total);
    c->claim_p50_us = rbb_percentile_sorted(claim, total, 50) / 1e3;
    c->claim_p99_us = rbb_percentile_sorted(claim, total, 99) / 1e3;
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


void rbb_cell_aggregate(rbb_cell *out, const rbb_cell *reps, size_t n) {
    size_t order[RBB_MAX_REPEATS], n_ok = 0;
    for (size_t i = 0; i < n; i++) /* insertion sort of the good ones by rows/s */
        if (!reps[i].failed) {
            size_t j = n_ok++;
            for (; j > 0 && reps[order[j - 1]].rows_per_s > reps[i].rows_per_s; j--)
                order[j] = order[j - 1];
            order[j] = i;
        }
    rbb_cell agg = n_ok ? reps[order[n_ok / 2]] : reps[0];
    agg.n_repeats = (uint32_t)n;
    agg.n_lost = agg.n_dup_executions = agg.after.n_duplicates = 0;
    for (size_t i = 0; i < n; i++) {
        agg.rep_rows_per_s[i] = reps[i].rows_per_s;
        agg.rep_claim_p50_us[i] = reps[i].claim_p50_us;
        agg.n_lost += reps[i].n_lost;
        agg.n_dup_executions += reps[i].n_dup_executions;
        agg.after.n_duplicates += reps[i].after.n_duplicates;
        agg.failed |= reps[i].failed;
    }
    agg.rows_per_s_min = n_ok ? reps[order[0]].rows_per_s : 0;
    agg.rows_per_s_max = n_ok ? reps[order[n_ok - 1]].rows_per_s : 0;
    *out = agg;
}
