/*
 * report.c — the outputs of `ringbench pg bench` (report.h): one JSON
 * document with every parameter, the machine record and every figure; the
 * Markdown tables published in results/; the scale-event timeline as CSV.
 * Ratios against pgbench are rows/s (or tx/s) divided by pgbench
 * simple-update TPS at the same client count, measured in the same run.
 */
#include <string.h>

#include "cli.h"
#include "report.h"

static const char *dist_name(rbb_dist d) { return d == RBB_DIST_ZIPF ? "zipf" : "uniform"; }

static void jstr(FILE *f, const char *s) { rb_json_string(f, s, strlen(s)); }

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

static void json_counts(FILE *f, const rbb_queue_counts *q) {
    fprintf(f,
            "{\"n_rows\": %llu, \"n_pending\": %llu, \"n_claimed\": %llu, \"n_completed\": %llu, "
            "\"n_failed\": %llu, \"n_effects\": %llu, \"n_duplicates\": %llu, "
            "\"n_completed_no_effect\": %llu, \"n_dead_tup\": %llu}",
            (unsigned long long)q->n_rows, (unsigned long long)q->n_pending,
            (unsigned long long)q->n_claimed, (unsigned long long)q->n_completed,
            (unsigned long long)q->n_failed, (unsigned long long)q->n_effects,
            (unsigned long long)q->n_duplicates, (unsigned long long)q->n_completed_no_effect,
            (unsigned long long)q->n_dead_tup);
}

/* The wait-event labels in descending order of samples, as indices. */
static size_t waits_order(const rbb_waits *w, size_t *idx) {
    for (size_t i = 0; i < w->n; i++)
        idx[i] = i;
    for (size_t i = 1; i < w->n; i++)
        for (size_t j = i; j > 0 && w->count[idx[j]] > w->count[idx[j - 1]]; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return w->n;
}

static void json_waits(FILE *f, const rbb_waits *w) {
    size_t idx[RBB_MAX_WAIT_LABELS];
    size_t n = waits_order(w, idx);
    fprintf(f, "{\"n_rounds\": %llu, \"n_backend_samples\": %llu, \"share\": {",
            (unsigned long long)w->n_samples, (unsigned long long)w->n_backend_samples);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        jstr(f, w->label[idx[i]]);
        fprintf(f, ": %.4f", ratio((double)w->count[idx[i]], (double)w->n_backend_samples));
    }
    fprintf(f, "}}");
}

static void json_params(FILE *f, const rbb_params *p) {
    fprintf(f, "{\"profile\": ");
    jstr(f, p->profile);
    fprintf(f, ", \"queue_db\": ");
    jstr(f, p->queue_db);
    fprintf(f, ", \"pgbench_db\": ");
    jstr(f, p->pgbench_db);
    fprintf(f, ", \"workers\": [");
    for (size_t i = 0; i < p->n_workers; i++)
        fprintf(f, "%s%u", i ? ", " : "", p->workers[i]);
    fprintf(f, "], \"modes\": [");
    for (size_t i = 0; i < p->n_modes; i++) {
        fprintf(f, "%s", i ? ", " : "");
        jstr(f, rbb_mode_name(p->modes[i]));
    }
    fprintf(f, "], \"batches\": [");
    for (size_t i = 0; i < p->n_batches; i++)
        fprintf(f, "%s%u", i ? ", " : "", p->batches[i]);
    fprintf(f, "], \"dists\": [");
    for (size_t i = 0; i < p->n_dists; i++) {
        fprintf(f, "%s", i ? ", " : "");
        jstr(f, dist_name(p->dists[i]));
    }
    fprintf(f,
            "], \"rows_per_cell\": %llu, \"n_keys\": %u, \"zipf_s\": %g, \"seed\": %llu, "
            "\"key_format\": \"order:<rank>\", \"cell_s\": %g, \"pgbench_s\": %g, "
            "\"synchronous_commit\": \"%s\", \"ring_algo\": ",
            (unsigned long long)p->n_rows, p->n_keys, p->zipf_s, (unsigned long long)p->seed,
            p->cell_s, p->pgbench_s, p->sync_commit ? "on (server default)" : "off");
    jstr(f, p->ring_algo);
    const rb_config *ring = rbb_queue_ring_config();
    if (ring->ring_hash) /* set once the queue schema is prepared */
        fprintf(f,
                ", \"ring_hash\": \"%s\", \"bucket_hash\": \"%s\", \"n_vnodes\": %u, "
                "\"n_buckets\": %u",
                ring->ring_hash->name, ring->bucket_hash->name, ring->n_vnodes, ring->n_buckets);
    fprintf(f,
            ", \"scale\": %s, \"scale_pre_s\": %g, \"scale_post_s\": %g, \"scale_batch\": %u, "
            "\"crash\": %s, \"crash_kills\": %u, \"crash_workers\": %u, \"crash_batch\": %u, "
            "\"crash_handler_us\": %u, \"crash_rows\": %llu, \"crash_lease_ms\": %u, "
            "\"crash_ttl_ms\": %u, \"crash_heartbeat_ms\": %u, \"timeline_bin_ms\": %d, "
            "\"pgbench_group_s\": %g, \"repeats\": %u, \"pgbench_drift_max\": %.2f, "
            "\"soak_s\": %g, \"soak_retention_ms\": %llu, \"completion\": \"%s\"}",
            p->scale ? "true" : "false", p->scale_pre_s, p->scale_post_s, p->scale_batch,
            p->crash ? "true" : "false", p->crash_kills, p->crash_workers, p->crash_batch,
            p->crash_handler_us, (unsigned long long)p->crash_rows, p->crash_lease_ms,
            p->crash_ttl_ms, p->crash_heartbeat_ms, RBB_BIN_MS, p->pgbench_group_s, p->repeats,
            RBB_DRIFT_MAX, p->soak_s, (unsigned long long)p->soak_retention_ms,
            p->complete_each ? "one commit per row"
            : p->chain       ? "one commit per batch, shared with the next claim"
                             : "one commit per batch");
}

static void json_cell(FILE *f, const rbb_cell *c) {
    fprintf(f, "{\"mode\": \"%s\", \"n_workers\": %u, \"batch\": %u, \"dist\": \"%s\", ",
            rbb_mode_name(c->mode), c->n_workers, c->batch, dist_name(c->dist));
    fprintf(f,
            "\"failed\": %s, \"n_rows_enqueued\": %llu, \"elapsed_s\": %.4f, \"n_rows\": %llu, "
            "\"n_claims\": %llu, \"n_empty_claims\": %llu, \"n_short_claims\": %llu, "
            "\"n_complete_tx\": %llu, \"n_fenced\": %llu, \"n_errors\": %llu, ",
            c->failed ? "true" : "false", (unsigned long long)c->n_rows_enqueued, c->elapsed_s,
            (unsigned long long)c->n_rows, (unsigned long long)c->n_claims,
            (unsigned long long)c->n_empty_claims, (unsigned long long)c->n_short_claims,
            (unsigned long long)c->n_complete_tx, (unsigned long long)c->n_fenced,
            (unsigned long long)c->n_errors);
    fprintf(f,
            "\"rows_per_s\": %.1f, \"claims_per_s\": %.1f, \"tx_per_s\": %.1f, "
            "\"claim_p50_us\": %.1f, \"claim_p99_us\": %.1f, \"complete_p50_us\": %.1f, "
            "\"complete_p99_us\": %.1f, \"pgbench_tps\": %.1f, \"pgbench_adjacent_before_tps\": "
            "%.1f, \"pgbench_adjacent_after_tps\": %.1f, \"pgbench_run_tps\": %.1f, "
            "\"rows_per_s_vs_pgbench\": %.3f, "
            "\"tx_per_s_vs_pgbench\": %.3f, \"n_lost\": %llu, \"n_dup_executions\": %llu, "
            "\"backlog_exhausted\": %s, \"after\": ",
            c->rows_per_s, c->claims_per_s, c->tx_per_s, c->claim_p50_us, c->claim_p99_us,
            c->complete_p50_us, c->complete_p99_us, c->pgbench_tps, c->pgbench_adjacent_before_tps,
            c->pgbench_adjacent_after_tps, c->pgbench_run_tps, ratio(c->rows_per_s, c->pgbench_tps),
            ratio(c->tx_per_s, c->pgbench_tps), (unsigned long long)c->n_lost,
            (unsigned long long)c->n_dup_executions, c->backlog_exhausted ? "true" : "false");
    json_counts(f, &c->after);
    fprintf(f, ", \"wait_events\": ");
    json_waits(f, &c->waits);
    fprintf(f,
            ", \"n_repeats\": %u, \"rows_per_s_is\": \"median of the repetitions\", "
            "\"rows_per_s_min\": %.1f, \"rows_per_s_max\": %.1f, \"repeat_rows_per_s\": [",
            c->n_repeats, c->rows_per_s_min, c->rows_per_s_max);
    for (uint32_t i = 0; i < c->n_repeats; i++)
        fprintf(f, "%s%.1f", i ? ", " : "", c->rep_rows_per_s[i]);
    fprintf(f, "], \"repeat_claim_p50_us\": [");
    for (uint32_t i = 0; i < c->n_repeats; i++)
        fprintf(f, "%s%.1f", i ? ", " : "", c->rep_claim_p50_us[i]);
    fprintf(f,
            "], \"pgbench_drift\": %.3f, \"pgbench_drift_flagged\": %s, \"remeasured\": %s, "
            "\"first_pgbench_drift\": %.3f}",
            c->pgbench_drift, c->drift_flagged ? "true" : "false", c->remeasured ? "true" : "false",
            c->first_drift);
}

static const rbb_cell *find_cell(const rbb_run *run, rbb_mode m, uint32_t w, uint32_t b,
                                 rbb_dist d) {
    for (size_t i = 0; i < run->n_cells; i++) {
        const rbb_cell *c = &run->cells[i];
        if (c->mode == m && c->n_workers == w && c->batch == b && c->dist == d && !c->failed)
            return c;
    }
    return NULL;
}

/* The three targets of issue 6, evaluated on every (W, batch, dist). */
typedef struct target_row {
    const char *name;
    uint32_t w, b;
    rbb_dist d;
    double measured, wanted; /* ratio measured, ratio required */
} target_row;

/* rows/s against the cell's pgbench reference: batch, wanted ratio, names. */
static const struct {
    uint32_t batch;
    double wanted;
    const char *name[RBB_N_MODES];
} vs_pgbench[] = {
    {32,
     5.0,
     {"competing b32 rows/s / pgbench TPS", "affinity b32 rows/s / pgbench TPS",
      "ordered b32 rows/s / pgbench TPS"}},
    {1,
     0.4,
     {"competing b1 rows/s / pgbench TPS", "affinity b1 rows/s / pgbench TPS",
      "ordered b1 rows/s / pgbench TPS"}},
};

static size_t targets(const rbb_run *run, target_row *out, size_t max) {
    size_t n = 0;
    const rbb_params *p = &run->p;
    for (size_t d = 0; d < p->n_dists; d++)
        for (size_t w = 0; w < p->n_workers; w++)
            for (size_t b = 0; b < p->n_batches; b++) {
                uint32_t W = p->workers[w], B = p->batches[b];
                rbb_dist D = p->dists[d];
                const rbb_cell *comp = find_cell(run, RBB_MODE_COMPETING, W, B, D);
                const rbb_cell *aff = find_cell(run, RBB_MODE_AFFINITY, W, B, D);
                /* issue 11, target 1: affinity at least as fast as competing, every cell */
                if (comp && aff && n < max)
                    out[n++] = (target_row){"affinity / competing rows/s",
                                            W,
                                            B,
                                            D,
                                            ratio(aff->rows_per_s, comp->rows_per_s),
                                            1.0};
                /* issue 11, target 2: ordered >= 0.8 x competing at batch 32 under Zipf */
                const rbb_cell *ord = find_cell(run, RBB_MODE_ORDERED, W, B, D);
                if (comp && ord && B == 32 && D == RBB_DIST_ZIPF && n < max)
                    out[n++] = (target_row){"ordered / competing rows/s",
                                            W,
                                            B,
                                            D,
                                            ratio(ord->rows_per_s, comp->rows_per_s),
                                            0.8};
                for (size_t t = 0; t < sizeof vs_pgbench / sizeof vs_pgbench[0]; t++) {
                    if (B != vs_pgbench[t].batch) continue;
                    for (int m = 0; m < RBB_N_MODES; m++) {
                        const rbb_cell *c = find_cell(run, (rbb_mode)m, W, B, D);
                        if (c && c->pgbench_tps > 0 && n < max)
                            out[n++] = (target_row){vs_pgbench[t].name[m],
                                                    W,
                                                    B,
                                                    D,
                                                    ratio(c->rows_per_s, c->pgbench_tps),
                                                    vs_pgbench[t].wanted};
                    }
                }
            }
    return n;
}

static void json_scale(FILE *f, const rbb_scale *s) {
    fprintf(f, "{\"algo\": ");
    jstr(f, s->algo ? s->algo : "?");
    fprintf(f,
            ", \"failed\": %s, \"n_before\": %u, \"batch\": %u, \"n_buckets\": %u, "
            "\"n_moved_buckets\": %u, \"ideal_moved_buckets\": %u, \"n_moved_to_new\": %u, "
            "\"n_claimed_on_moved_at_join\": %llu, \"n_pending_on_moved_at_join\": %llu, "
            "\"n_lost\": %llu, \"baseline_rows_per_s\": %.1f, \"min_rows_per_s\": %.1f, "
            "\"min_at_ms\": %.0f, \"dip_fraction\": %.3f, \"recovery_to_90pct_ms\": %.0f, "
            "\"post_join_1s_rows_per_s\": %.1f, \"before_join_1s_rows_per_s\": %.1f, "
            "\"dip_1s_fraction\": %.3f, \"pre_join_1s_variation\": %.3f, "
            "\"n_pre_join_windows\": %zu, \"member_ids\": \"scale-<algo>-s<seed>-w<i>\", "
            "\"after\": ",
            s->failed ? "true" : "false", s->n_before, s->batch, s->n_buckets, s->n_moved_buckets,
            s->n_before ? s->n_buckets / (s->n_before + 1) : 0, s->n_moved_to_new,
            (unsigned long long)s->n_claimed_on_moved, (unsigned long long)s->n_pending_on_moved,
            (unsigned long long)s->n_lost, s->rec.baseline_rows_per_s, s->rec.min_rows_per_s,
            s->rec.min_at_ms, s->rec.dip_fraction, s->rec.recovery_ms, s->post_rows_per_s,
            s->dip_1s.before_rows_per_s, s->dip_1s.dip_fraction, s->dip_1s.pre_variation,
            s->dip_1s.n_pre_windows);
    json_counts(f, &s->after);
    fprintf(f, ", \"join_bin\": %zu, \"rows_per_s_timeline\": [", s->join_bin);
    for (size_t i = 0; i < s->n_bins; i++)
        fprintf(f, "%s%.0f", i ? ", " : "", s->rows_per_s[i]);
    fprintf(f, "]}");
}

static void json_crash(FILE *f, const rbb_crash *c) {
    fprintf(f,
            "{\"failed\": %s, \"n_workers\": %u, \"batch\": %u, \"handler_us\": %u, "
            "\"lease_ms\": %u, \"ttl_ms\": %u, \"heartbeat_ms\": %u, \"n_rows_enqueued\": %llu, "
            "\"drain_s\": %.3f, \"n_lost\": %llu, \"n_fenced\": %llu, \"stall_ms\": %.0f, "
            "\"n_stall_held\": %llu, \"after\": ",
            c->failed ? "true" : "false", c->n_workers, c->batch, c->handler_us, c->lease_ms,
            c->ttl_ms, c->heartbeat_ms, (unsigned long long)c->n_rows_enqueued, c->drain_s,
            (unsigned long long)c->n_lost, (unsigned long long)c->n_fenced, c->stall_ms,
            (unsigned long long)c->n_stall_held);
    json_counts(f, &c->after);
    fprintf(f, ", \"kills\": [");
    for (size_t i = 0; i < c->n_kills; i++) {
        const rbb_kill *k = &c->kills[i];
        fprintf(f, "%s{\"at_s\": %.3f, \"worker_id\": ", i ? ", " : "", k->at_s);
        jstr(f, k->worker_id);
        fprintf(f,
                ", \"n_rows_held\": %llu, \"n_rows_orphaned\": %llu, \"detect_ms\": %.0f, "
                "\"reclaim_ms\": %.0f, \"redone_ms\": %.0f}",
                (unsigned long long)k->n_rows_held, (unsigned long long)k->n_rows_orphaned,
                k->detect_ms, k->reclaim_ms, k->redone_ms);
    }
    fprintf(f, "]}");
}

/* The backlog sweep: per mode, claim p50 at the largest backlog / at the smallest. */
static double backlog_ratio(const rbb_run *run, rbb_mode m, uint64_t *lo, uint64_t *hi) {
    const rbb_backlog_point *a = NULL, *b = NULL;
    for (size_t i = 0; i < run->n_backlog; i++) {
        const rbb_backlog_point *x = &run->backlog[i];
        if (x->cell.mode != m || x->cell.failed) continue;
        if (!a || x->backlog < a->backlog) a = x;
        if (!b || x->backlog > b->backlog) b = x;
    }
    if (!a || !b || a == b) return 0;
    *lo = a->backlog, *hi = b->backlog;
    return ratio(b->cell.claim_p50_us, a->cell.claim_p50_us);
}

static void json_backlog(FILE *f, const rbb_run *run) {
    const rbb_params *p = &run->p;
    fprintf(f,
            "{\"n_workers\": %u, \"batch\": %u, \"secs\": %g, \"hot_key\": \"%s\", "
            "\"hot_share\": %.3f, \"hot_head_in_flight\": %s, \"points\": [",
            p->backlog_workers, p->backlog_batch, p->backlog_s, RBB_HOT_KEY,
            p->backlog_hot_every ? 1.0 / p->backlog_hot_every : 0.0,
            p->backlog_hot_every ? "true" : "false");
    for (size_t i = 0; i < run->n_backlog; i++) {
        const rbb_backlog_point *x = &run->backlog[i];
        const rbb_cell *c = &x->cell;
        fprintf(f,
                "%s\n    {\"backlog\": %llu, \"n_hot_pending\": %llu, \"mode\": \"%s\", "
                "\"failed\": %s, \"claim_p50_us\": %.1f, \"claim_p99_us\": %.1f, "
                "\"rows_per_s\": %.1f, \"n_claims\": %llu, \"n_empty_claims\": %llu, "
                "\"n_lost\": %llu, \"n_duplicates\": %llu}",
                i ? "," : "", (unsigned long long)x->backlog, (unsigned long long)x->n_hot_pending,
                rbb_mode_name(c->mode), c->failed ? "true" : "false", c->claim_p50_us,
                c->claim_p99_us, c->rows_per_s, (unsigned long long)c->n_claims,
                (unsigned long long)c->n_empty_claims, (unsigned long long)c->n_lost,
                (unsigned long long)(c->after.n_duplicates + c->n_dup_executions));
    }
    fprintf(f, "], \"targets\": [");
    for (size_t m = 0, k = 0; m < p->n_modes; m++) {
        uint64_t lo = 0, hi = 0;
        double r = backlog_ratio(run, p->modes[m], &lo, &hi);
        if (r <= 0) continue;
        fprintf(f,
                "%s{\"target\": \"claim p50 at the largest backlog / at the smallest\", "
                "\"mode\": \"%s\", \"backlog_small\": %llu, \"backlog_large\": %llu, "
                "\"measured\": %.3f, \"wanted_at_most\": 1.5, \"met\": %s}",
                k++ ? ", " : "", rbb_mode_name(p->modes[m]), (unsigned long long)lo,
                (unsigned long long)hi, r, r <= 1.5 ? "true" : "false");
    }
    fprintf(f, "]}");
}

static void json_soak(FILE *f, const rbb_soak *s) {
    fprintf(f,
            "{\"failed\": %s, \"secs\": %g, \"interval_s\": %g, \"n_workers\": %u, "
            "\"batch\": %u, \"mode\": \"affinity\", \"backlog\": %llu, \"n_rows\": %llu, "
            "\"n_lost\": %llu, \"n_duplicates\": %llu, \"last_vs_first\": %.3f, "
            "\"wanted_last_vs_first\": 0.9, \"retention_ms\": %llu, \"retention_batch\": %u, "
            "\"autovacuum\": ",
            s->failed ? "true" : "false", s->secs, s->interval_s, s->n_workers, s->batch,
            (unsigned long long)s->backlog, (unsigned long long)s->n_rows,
            (unsigned long long)s->n_lost, (unsigned long long)s->n_duplicates, s->last_vs_first,
            (unsigned long long)s->retention_ms, s->retention_batch);
    jstr(f, s->autovacuum);
    fprintf(f, ", \"intervals\": [");
    for (size_t i = 0; i < s->n_intervals; i++) {
        const rbb_soak_interval *v = &s->iv[i];
        fprintf(f,
                "%s{\"t_end_s\": %.1f, \"rows_per_s\": %.1f, \"n_inbox_rows\": %llu, "
                "\"n_pending\": %llu, \"n_dead_tup\": %llu, \"inbox_bytes\": %llu, "
                "\"n_autovacuum\": %llu}",
                i ? ", " : "", v->t_end_s, v->rows_per_s, (unsigned long long)v->n_inbox_rows,
                (unsigned long long)v->n_pending, (unsigned long long)v->n_dead_tup,
                (unsigned long long)v->inbox_bytes, (unsigned long long)v->n_autovacuum);
    }
    fprintf(f, "]}");
}

void rbb_report_json(FILE *f, const rbb_run *run) {
    fprintf(f, "{\n  \"benchmark\": \"ringbench pg bench\",\n  \"date\": ");
    jstr(f, run->date);
    fprintf(f, ",\n  \"machine\": %s,\n  \"parameters\": ",
            run->machine_json ? run->machine_json : "null");
    json_params(f, &run->p);
    fprintf(f, ",\n  \"pgbench\": {\"ok\": %s, \"error\": ", run->pgbench_ok ? "true" : "false");
    jstr(f, run->pgbench_ok ? "" : run->pgbench_error);
    fprintf(f, ", \"script\": \"simple-update (built-in)\", \"scale\": 1, "
               "\"reference_tps\": \"per cell: mean of the runs right before and after its group "
               "of modes (cells[].pgbench_adjacent_*); runs[]: before and after the matrix\", "
               "\"runs\": [");
    for (int round = 0; round < run->pgbench_rounds; round++)
        for (size_t i = 0; run->pgbench_ok && i < run->p.n_workers; i++) {
            const rbb_pgbench_result *r = round ? &run->pgbench_after[i] : &run->pgbench[i];
            fprintf(f,
                    "%s{\"when\": \"%s\", \"clients\": %u, \"secs\": %g, \"tps\": %.1f, "
                    "\"latency_avg_ms\": %.3f, \"n_transactions\": %llu}",
                    round || i ? ", " : "", round ? "after" : "before", r->clients, r->secs, r->tps,
                    r->latency_avg_ms, (unsigned long long)r->n_transactions);
        }
    fprintf(f, "]},\n  \"cells\": [\n");
    for (size_t i = 0; i < run->n_cells; i++) {
        fprintf(f, "    ");
        json_cell(f, &run->cells[i]);
        fprintf(f, "%s\n", i + 1 < run->n_cells ? "," : "");
    }
    fprintf(f, "  ],\n  \"targets\": [\n");
    target_row t[512];
    size_t nt = targets(run, t, 512);
    for (size_t i = 0; i < nt; i++)
        fprintf(f,
                "    {\"target\": \"%s\", \"n_workers\": %u, \"batch\": %u, \"dist\": \"%s\", "
                "\"measured\": %.3f, \"wanted\": %.2f, \"met\": %s}%s\n",
                t[i].name, t[i].w, t[i].b, dist_name(t[i].d), t[i].measured, t[i].wanted,
                t[i].measured >= t[i].wanted ? "true" : "false", i + 1 < nt ? "," : "");
    fprintf(f, "  ],\n  \"scale_events\": [");
    for (size_t i = 0; i < run->n_scale; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        json_scale(f, &run->scale[i]);
    }
    fprintf(f,
            "%s],\n  \"explain\": {\"backlog_rows\": %llu, \"text\": ", run->n_scale ? "\n  " : "",
            (unsigned long long)run->explain_backlog);
    jstr(f, run->explain ? run->explain : "");
    fprintf(f, "},\n  \"backlog_sweep\": ");
    if (run->p.n_backlogs)
        json_backlog(f, run);
    else
        fprintf(f, "null");
    fprintf(f, ",\n  \"soak\": ");
    if (run->has_soak)
        json_soak(f, &run->soak);
    else
        fprintf(f, "null");
    fprintf(f, ",\n  \"crash\": ");
    if (run->has_crash)
        json_crash(f, &run->crash);
    else
        fprintf(f, "null");
    fprintf(f, "\n}\n");
}

static void md_top_waits(FILE *f, const rbb_waits *w) {
    size_t idx[RBB_MAX_WAIT_LABELS];
    size_t n = waits_order(w, idx);
    for (size_t i = 0; i < n && i < 3; i++)
        fprintf(f, "%s%s %.0f%%", i ? ", " : "", w->label[idx[i]],
                100 * ratio((double)w->count[idx[i]], (double)w->n_backend_samples));
}

static void md_backlog(FILE *f, const rbb_run *run) {
    const rbb_params *p = &run->p;
    fprintf(f,
            "\n## Backlog sweep: claim p50 against the pending rows (W %u, batch %u, %g s each)\n\n"
            "One hot key (`%s`) holds 1/%u of the backlog and its head row is in flight (leased "
            "to a holder that never completes it), so ordered mode's guard meets its blocked "
            "rows at every size; the backlog is topped up to its size before each mode. Claim "
            "latency in µs (p50 / p99).\n\n| backlog | mode | pending of the hot key | claim p50 "
            "µs | claim p99 µs | rows/s | dup | lost |\n|---:|---|---:|---:|---:|---:|---:|---:|\n",
            p->backlog_workers, p->backlog_batch, p->backlog_s, RBB_HOT_KEY, p->backlog_hot_every);
    for (size_t i = 0; i < run->n_backlog; i++) {
        const rbb_backlog_point *x = &run->backlog[i];
        const rbb_cell *c = &x->cell;
        if (c->failed) {
            fprintf(f, "| %llu | %s | failed ||||||\n", (unsigned long long)x->backlog,
                    rbb_mode_name(c->mode));
            continue;
        }
        fprintf(f, "| %llu | %s | %llu | %.0f | %.0f | %.0f | %llu | %llu |\n",
                (unsigned long long)x->backlog, rbb_mode_name(c->mode),
                (unsigned long long)x->n_hot_pending, c->claim_p50_us, c->claim_p99_us,
                c->rows_per_s, (unsigned long long)(c->after.n_duplicates + c->n_dup_executions),
                (unsigned long long)c->n_lost);
    }
    fprintf(f, "\n| mode | claim p50 at the largest backlog / at the smallest | wanted | met "
               "|\n|---|---:|---:|---|\n");
    for (size_t m = 0; m < p->n_modes; m++) {
        uint64_t lo = 0, hi = 0;
        double r = backlog_ratio(run, p->modes[m], &lo, &hi);
        if (r > 0)
            fprintf(f, "| %s | %.2f (%llu vs %llu rows) | <= 1.5 | %s |\n",
                    rbb_mode_name(p->modes[m]), r, (unsigned long long)hi, (unsigned long long)lo,
                    r <= 1.5 ? "yes" : "**no**");
    }
}

static void md_soak(FILE *f, const rbb_soak *s) {
    fprintf(f, "\n## Soak: %u affinity workers, batch %u, %.0f s, backlog kept at %llu rows\n\n",
            s->n_workers, s->batch, s->secs, (unsigned long long)s->backlog);
    if (s->failed) {
        fprintf(f, "**failed** (see stderr of the run)\n");
        return;
    }
    if (s->retention_ms)
        fprintf(f,
                "Retention in effect: done rows deleted by the housekeepers %llu ms after "
                "completion, at most %u per round (`pg migrate --retention-ms`; effects kept).\n\n",
                (unsigned long long)s->retention_ms, s->retention_batch);
    else
        fprintf(f, "Retention in effect: **off** (done rows kept in inbox).\n\n");
    fprintf(f,
            "| until s | rows/s | inbox rows | pending | dead tuples | inbox MB | autovacuums |\n"
            "|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < s->n_intervals; i++)
        fprintf(f, "| %.0f | %.0f | %llu | %llu | %llu | %.1f | %llu |\n", s->iv[i].t_end_s,
                s->iv[i].rows_per_s, (unsigned long long)s->iv[i].n_inbox_rows,
                (unsigned long long)s->iv[i].n_pending, (unsigned long long)s->iv[i].n_dead_tup,
                (double)s->iv[i].inbox_bytes / 1048576.0,
                (unsigned long long)s->iv[i].n_autovacuum);
    fprintf(f,
            "\nrows/s of the last interval ÷ the first: **%.2f** (wanted >= 0.9); %llu rows done, "
            "lost **%llu**, duplicated **%llu**. Autovacuum: `%s`.\n",
            s->last_vs_first, (unsigned long long)s->n_rows, (unsigned long long)s->n_lost,
            (unsigned long long)s->n_duplicates, s->autovacuum);
}

void rbb_report_md(FILE *f, const rbb_run *run) {
    const rbb_params *p = &run->p;
    fprintf(f, "# ringbench pg bench — %s profile, %s\n\n", p->profile, run->date);
    fprintf(f,
            "synchronous_commit **%s**; %u keys (%s; Zipf s = %g), seed %llu; %.1f s per cell; "
            "affinity ring `%s`, 1,024 buckets. Machine record and every parameter: "
            "`pgbench.json`.\n\n",
            p->sync_commit ? "on" : "off", p->n_keys,
            p->n_dists > 1 ? "uniform and Zipf" : dist_name(p->dists[0]), p->zipf_s,
            (unsigned long long)p->seed, p->cell_s, p->ring_algo);
    fprintf(f, "## pgbench simple-update (reference, same server, same run)\n\n");
    if (!run->pgbench_ok) {
        fprintf(f, "pgbench failed: %s\n\n", run->pgbench_error);
    } else {
        fprintf(f,
                "| clients | TPS before | TPS after | reference (mean) |\n|---:|---:|---:|---:|\n");
        for (size_t i = 0; i < p->n_workers; i++)
            fprintf(f, "| %u | %.0f | %.0f | %.0f |\n", run->pgbench[i].clients,
                    run->pgbench[i].tps, run->pgbench_rounds > 1 ? run->pgbench_after[i].tps : 0,
                    rbb_pgbench_tps_for(run, p->workers[i]));
        fprintf(f, "\n");
    }
    fprintf(f, "## Claim throughput\n\n");
    fprintf(f,
            "rows/s: rows completed (effect written) per second, the median of %u "
            "repetitions measured in interleaved order (min-max beside it); the other figures "
            "are the median repetition's; tx/s: claim + completion "
            "commits per second; x pgbench: rows/s ÷ pgbench TPS at the same client count, "
            "measured right before and after the group of modes (mean; column ref TPS; "
            "drift: |after - before| / mean, **flagged** above %.0f%%, and the group is then "
            "measured once more: `again`). "
            "`*`: the backlog ran dry for some worker (rows/s is a floor).\n\n",
            p->repeats, 100 * RBB_DRIFT_MAX);
    fprintf(f,
            "| dist | W | batch | mode | rows/s | min-max | ref TPS | drift | x pgbench | tx/s | "
            "tx x pgbench | claim p50 µs | claim p99 µs | empty claims | dead tuples | dup | "
            "lost | top wait events |\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
            "---:|---:|---:|---:|---:|---:|---|\n");
    for (size_t i = 0; i < run->n_cells; i++) {
        const rbb_cell *c = &run->cells[i];
        if (c->failed) {
            fprintf(f, "| %s | %u | %u | %s | failed ||||||||||||||\n", dist_name(c->dist),
                    c->n_workers, c->batch, rbb_mode_name(c->mode));
            continue;
        }
        fprintf(f,
                "| %s | %u | %u | %s | %.0f%s | %.0f-%.0f | %.0f | %s%.0f%%%s%s | %.2f | %.0f | "
                "%.2f | %.0f | %.0f | %llu | %llu | %llu | %llu | ",
                dist_name(c->dist), c->n_workers, c->batch, rbb_mode_name(c->mode), c->rows_per_s,
                c->backlog_exhausted ? "*" : "", c->rows_per_s_min, c->rows_per_s_max,
                c->pgbench_tps, c->drift_flagged ? "**" : "", 100 * c->pgbench_drift,
                c->drift_flagged ? " flagged**" : "", c->remeasured ? " again" : "",
                ratio(c->rows_per_s, c->pgbench_tps), c->tx_per_s,
                ratio(c->tx_per_s, c->pgbench_tps), c->claim_p50_us, c->claim_p99_us,
                (unsigned long long)c->n_empty_claims, (unsigned long long)c->after.n_dead_tup,
                (unsigned long long)(c->after.n_duplicates + c->n_dup_executions),
                (unsigned long long)c->n_lost);
        md_top_waits(f, &c->waits);
        fprintf(f, " |\n");
    }
    target_row t[512];
    size_t nt = targets(run, t, 512);
    if (nt) {
        fprintf(f, "\n## Targets (measured ratio vs wanted)\n\n| target | dist | W | batch | "
                   "measured | wanted | met |\n|---|---|---:|---:|---:|---:|---|\n");
        for (size_t i = 0; i < nt; i++)
            fprintf(f, "| %s | %s | %u | %u | %.2f | %.2f | %s |\n", t[i].name, dist_name(t[i].d),
                    t[i].w, t[i].b, t[i].measured, t[i].wanted,
                    t[i].measured >= t[i].wanted ? "yes" : "**no**");
    }
    if (run->n_scale) {
        fprintf(f, "\n## Scale event: 3 workers, a 4th joins (timeline: `scale-timeline.csv`)\n\n");
        fprintf(f, "Member ids are fixed by the seed (`scale-<algo>-s<seed>-w<i>`), so the "
                   "moved buckets are the same in every run. Dip over 1 s: 1 - (first 1 s after "
                   "the join) / (1 s before it); beside it the pre-join variation of the same "
                   "1 s means (1 - min / max over every 1 s window before the join, the first "
                   "0.5 s skipped): a dip within it is noise.\n\n");
        fprintf(f,
                "| ownership | moved buckets | ideal | moved to joiner | rows claimed on moved "
                "at join | backlog on moved at join | baseline rows/s (1 s before) | first "
                "1 s after | dip over 1 s | pre-join 1 s variation | min 100 ms bin (2 s "
                "after) | dip (100 ms bin) | back to 90%% ms | dup | lost "
                "|\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (size_t i = 0; i < run->n_scale; i++) {
            const rbb_scale *s = &run->scale[i];
            if (s->failed) {
                fprintf(f, "| %s | failed |||||||||||||\n", s->algo);
                continue;
            }
            fprintf(f,
                    "| %s | %u | %u | %u | %llu | %llu | %.0f | %.0f | %.0f%% | %.0f%% | %.0f | "
                    "%.0f%% | %.0f | %llu | %llu |\n",
                    s->algo, s->n_moved_buckets, s->n_buckets / (s->n_before + 1),
                    s->n_moved_to_new, (unsigned long long)s->n_claimed_on_moved,
                    (unsigned long long)s->n_pending_on_moved, s->rec.baseline_rows_per_s,
                    s->post_rows_per_s, 100 * s->dip_1s.dip_fraction, 100 * s->dip_1s.pre_variation,
                    s->rec.min_rows_per_s, 100 * s->rec.dip_fraction, s->rec.recovery_ms,
                    (unsigned long long)s->after.n_duplicates, (unsigned long long)s->n_lost);
        }
    }
    if (run->n_backlog) md_backlog(f, run);
    if (run->has_soak) md_soak(f, &run->soak);
    if (run->has_crash) {
        const rbb_crash *c = &run->crash;
        fprintf(f,
                "\n## Crash injection: %u workers, batch %u, SIGKILL mid-batch (TTL %u ms, "
                "heartbeat %u ms, lease %u ms)\n\n",
                c->n_workers, c->batch, c->ttl_ms, c->heartbeat_ms, c->lease_ms);
        if (c->failed) fprintf(f, "**failed** (see stderr of the run)\n\n");
        fprintf(f, "| kill | at s | rows held | orphaned | detect ms (TTL) | reclaim ms (lease) "
                   "| redone ms |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        for (size_t i = 0; i < c->n_kills; i++)
            fprintf(f, "| %zu | %.2f | %llu | %llu | %.0f | %.0f | %.0f |\n", i + 1,
                    c->kills[i].at_s, (unsigned long long)c->kills[i].n_rows_held,
                    (unsigned long long)c->kills[i].n_rows_orphaned, c->kills[i].detect_ms,
                    c->kills[i].reclaim_ms, c->kills[i].redone_ms);
        fprintf(f,
                "\n%llu rows drained in %.1f s; rows lost **%llu**, effects duplicated **%llu**; "
                "one worker paused %.0f ms holding %llu rows, then resumed: stale completions "
                "fenced **%llu**.\n",
                (unsigned long long)c->n_rows_enqueued, c->drain_s, (unsigned long long)c->n_lost,
                (unsigned long long)c->after.n_duplicates, c->stall_ms,
                (unsigned long long)c->n_stall_held, (unsigned long long)c->n_fenced);
    }
}

void rbb_report_timeline_csv(FILE *f, const rbb_run *run) {
    fprintf(f, "algo,t_ms_from_join,rows_per_s\n");
    for (size_t i = 0; i < run->n_scale; i++) {
        const rbb_scale *s = &run->scale[i];
        for (size_t b = 0; b < s->n_bins; b++)
            fprintf(f, "%s,%ld,%.0f\n", s->algo, ((long)b - (long)s->join_bin) * RBB_BIN_MS,
                    s->rows_per_s[b]);
    }
}
