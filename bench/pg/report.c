/*
 * report.c — the outputs of `ringbench pg bench` (report.h): one JSON
 * document with every parameter, the machine record and every figure; the
 * Markdown tables published in results/; the scale-event timeline as CSV.
 * Ratios against pgbench are rows/s (or tx/s) divided by pgbench
 * simple-update TPS at the same client count, measured in the same run.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "backlog.h"
#include "cli.h"
#include "json_out.h"
#include "machine.h"
#include "report.h"

static const char *dist_name(rbb_dist d) { return d == RBB_DIST_ZIPF ? "zipf" : "uniform"; }

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* A latency (µs, or ms) in whole units, or "-" when none was measured (NaN: no timed claim,
 * a crash kill's event not seen). */
static void us_or_dash(char *out, size_t size, double us) {
    if (isnan(us))
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%.0f", us);
}

/* A cell's completion style, as the JSON names it (cells[].completion, targets[].completion). */
static const char *completion_name(const rbb_params *p, int chain) {
    return chain ? "chain" : p->complete_each ? "each" : "batch";
}

/* Shorthands of the JSON builders (cli/json_out.h). */
#define F(x, d) rb_json_fixed((x), (d))
#define G(x) rb_json_sig((x), 6) /* "%g" */
#define U(x) rb_json_u64((uint64_t)(x))
#define S(x) rb_json_str(x)
#define B(x) json_boolean(x)

static json_t *json_counts(const rbb_queue_counts *q) {
    json_t *o = json_object();
    rb_json_set(o, "n_rows", U(q->n_rows));
    rb_json_set(o, "n_pending", U(q->n_pending));
    rb_json_set(o, "n_claimed", U(q->n_claimed));
    rb_json_set(o, "n_completed", U(q->n_completed));
    rb_json_set(o, "n_failed", U(q->n_failed));
    rb_json_set(o, "n_effects", U(q->n_effects));
    rb_json_set(o, "n_duplicates", U(q->n_duplicates));
    rb_json_set(o, "n_completed_no_effect", U(q->n_completed_no_effect));
    rb_json_set(o, "n_dead_tup", U(q->n_dead_tup));
    return o;
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

static json_t *json_waits(const rbb_waits *w) {
    size_t idx[RBB_MAX_WAIT_LABELS];
    size_t n = waits_order(w, idx);
    json_t *o = json_object(), *share = json_object();
    rb_json_set(o, "n_rounds", U(w->n_samples));
    rb_json_set(o, "n_backend_samples", U(w->n_backend_samples));
    for (size_t i = 0; i < n; i++)
        rb_json_set(share, w->label[idx[i]],
                    F(ratio((double)w->count[idx[i]], (double)w->n_backend_samples), 4));
    rb_json_set(o, "share", share);
    return o;
}

static json_t *json_u32s(const uint32_t *v, size_t n) {
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        rb_json_push(a, U(v[i]));
    return a;
}

static json_t *json_reals(const double *v, size_t n, int decimals) {
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        rb_json_push(a, F(v[i], decimals));
    return a;
}

static json_t *json_params(const rbb_params *p) {
    json_t *o = json_object(), *modes = json_array(), *dists = json_array();
    rb_json_set(o, "profile", S(p->profile));
    rb_json_set(o, "profile_overridden", B(p->profile_overridden));
    rb_json_set(o, "queue_db", S(p->queue_db));
    rb_json_set(o, "pgbench_db", S(p->pgbench_db));
    rb_json_set(o, "workers", json_u32s(p->workers, p->n_workers));
    for (size_t i = 0; i < p->n_modes; i++)
        rb_json_push(modes, S(rbb_mode_name(p->modes[i])));
    rb_json_set(o, "modes", modes);
    rb_json_set(o, "batches", json_u32s(p->batches, p->n_batches));
    for (size_t i = 0; i < p->n_dists; i++)
        rb_json_push(dists, S(dist_name(p->dists[i])));
    rb_json_set(o, "dists", dists);
    rb_json_set(o, "rows_per_cell", U(p->n_rows));
    rb_json_set(o, "n_keys", U(p->n_keys));
    rb_json_set(o, "zipf_s", G(p->zipf_s));
    rb_json_set(o, "seed", U(p->seed));
    rb_json_set(o, "key_format", S("order:<rank>"));
    rb_json_set(o, "cell_s", G(p->cell_s));
    rb_json_set(o, "pgbench_s", G(p->pgbench_s));
    rb_json_set(o, "synchronous_commit", S(p->sync_commit ? "on (server default)" : "off"));
    rb_json_set(o, "ring_algo", S(p->ring_algo));
    rb_json_set(o, "age_bound_ms", U(p->age_bound_ms));
    const rb_config *ring = rbb_queue_ring_config();
    if (ring->ring_hash) { /* set once the queue schema is prepared */
        rb_json_set(o, "ring_hash", S(ring->ring_hash->name));
        rb_json_set(o, "bucket_hash", S(ring->bucket_hash->name));
        rb_json_set(o, "n_vnodes", U(ring->n_vnodes));
        rb_json_set(o, "n_buckets", U(ring->n_buckets));
    }
    rb_json_set(o, "scale", B(p->scale));
    rb_json_set(o, "scale_pre_s", G(p->scale_pre_s));
    rb_json_set(o, "scale_post_s", G(p->scale_post_s));
    rb_json_set(o, "scale_batch", U(p->scale_batch));
    rb_json_set(o, "crash", B(p->crash));
    rb_json_set(o, "crash_kills", U(p->crash_kills));
    rb_json_set(o, "crash_workers", U(p->crash_workers));
    rb_json_set(o, "crash_batch", U(p->crash_batch));
    rb_json_set(o, "crash_handler_us", U(p->crash_handler_us));
    rb_json_set(o, "crash_rows", U(p->crash_rows));
    rb_json_set(o, "crash_lease_ms", U(p->crash_lease_ms));
    rb_json_set(o, "crash_ttl_ms", U(p->crash_ttl_ms));
    rb_json_set(o, "crash_heartbeat_ms", U(p->crash_heartbeat_ms));
    rb_json_set(o, "timeline_bin_ms", json_integer(RBB_BIN_MS));
    rb_json_set(o, "pgbench_group_s", G(p->pgbench_group_s));
    rb_json_set(o, "repeats", U(p->repeats));
    rb_json_set(o, "pgbench_drift_max", F(RBB_DRIFT_MAX, 2));
    rb_json_set(o, "soak_s", G(p->soak_s));
    rb_json_set(o, "soak_retention_ms", U(p->soak_retention_ms));
    rb_json_set(o, "heap_order", S(rbb_heap_order_name(p->heap_order)));
    json_t *backlogs = json_array();
    for (size_t i = 0; i < p->n_backlogs; i++)
        rb_json_push(backlogs, U(p->backlogs[i]));
    rb_json_set(o, "backlogs", backlogs);
    rb_json_set(o, "backlog_s", G(p->backlog_s));
    rb_json_set(o, "chain_workers", json_u32s(p->chain_workers, p->n_chain_workers));
    rb_json_set(o, "completion",
                S(p->complete_each ? "one commit per row"
                  : p->chain       ? "one commit per batch, shared with the next claim"
                                   : "one commit per batch"));
    json_t *not_read = json_array(); /* recorded above all the same, read by no part */
    for (size_t i = 0; i < p->n_not_read; i++)
        rb_json_push(not_read, S(p->not_read[i]));
    rb_json_set(o, "not_read", not_read);
    return o;
}

int rbb_params_differ(const rbb_params *a, const rbb_params *b) {
    static const char *const where[] = {"profile_overridden", "queue_db", "pgbench_db", "not_read"};
    json_t *x = json_params(a), *y = json_params(b);
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
        json_object_del(x, where[i]), json_object_del(y, where[i]);
    int differ = !json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return differ;
}

static json_t *json_cell(const rbb_params *p, const rbb_cell *c) {
    json_t *o = json_object();
    rb_json_set(o, "mode", S(rbb_mode_name(c->mode)));
    rb_json_set(o, "n_workers", U(c->n_workers));
    rb_json_set(o, "batch", U(c->batch));
    rb_json_set(o, "dist", S(dist_name(c->dist)));
    rb_json_set(o, "completion", S(completion_name(p, c->chain)));
    rb_json_set(o, "failed", B(c->failed));
    rb_json_set(o, "not_run", B(c->not_run));
    rb_json_set(o, "n_rows_enqueued", U(c->n_rows_enqueued));
    rb_json_set(o, "elapsed_s", F(c->elapsed_s, 4));
    rb_json_set(o, "n_rows", U(c->n_rows));
    rb_json_set(o, "n_claims", U(c->n_claims));
    rb_json_set(o, "n_empty_claims", U(c->n_empty_claims));
    rb_json_set(o, "n_short_claims", U(c->n_short_claims));
    rb_json_set(o, "n_rows_aged", U(c->n_rows_aged));
    rb_json_set(o, "n_complete_tx", U(c->n_complete_tx));
    rb_json_set(o, "n_fenced", U(c->n_fenced));
    rb_json_set(o, "n_errors", U(c->n_errors));
    rb_json_set(o, "rows_per_s", F(c->rows_per_s, 1));
    rb_json_set(o, "claims_per_s", F(c->claims_per_s, 1));
    rb_json_set(o, "tx_per_s", F(c->tx_per_s, 1));
    /* NaN (null): a chain cell, whose claims have no time of their own (cells.c) */
    rb_json_set(o, "claim_p50_us", F(c->claim_p50_us, 1));
    rb_json_set(o, "claim_p99_us", F(c->claim_p99_us, 1));
    rb_json_set(o, "complete_p50_us", F(c->complete_p50_us, 1));
    rb_json_set(o, "complete_p99_us", F(c->complete_p99_us, 1));
    rb_json_set(o, "wal_bytes_per_row", F(c->wal_bytes_per_row, 1));
    rb_json_set(o, "buffers_per_row", F(c->buffers_per_row, 1));
    rb_json_set(o, "commits_per_wal_flush", F(c->commits_per_wal_flush, 2));
    rb_json_set(o, "wal_fpi_per_krow", F(c->wal_fpi_per_krow, 1));
    rb_json_set(o, "wal_flush_ms", F(c->wal_flush_ms, 3));
    rb_json_set(o, "client_cpu_us_per_row", F(c->client_cpu_us_per_row, 1));
    rb_json_set(o, "machine_cpu_us_per_row", F(c->machine_cpu_us_per_row, 1));
    rb_json_set(o, "bucket_correlation", F(c->bucket_correlation, 3));
    rb_json_set(o, "pgbench_tps", F(c->pgbench_tps, 1));
    rb_json_set(o, "pgbench_adjacent_before_tps", F(c->pgbench_adjacent_before_tps, 1));
    rb_json_set(o, "pgbench_adjacent_after_tps", F(c->pgbench_adjacent_after_tps, 1));
    rb_json_set(o, "pgbench_run_tps", F(c->pgbench_run_tps, 1));
    rb_json_set(o, "rows_per_s_vs_pgbench", F(ratio(c->rows_per_s, c->pgbench_tps), 3));
    rb_json_set(o, "tx_per_s_vs_pgbench", F(ratio(c->tx_per_s, c->pgbench_tps), 3));
    rb_json_set(o, "n_lost", U(c->n_lost));
    rb_json_set(o, "n_dup_executions", U(c->n_dup_executions));
    rb_json_set(o, "backlog_exhausted", B(c->backlog_exhausted));
    rb_json_set(o, "after", json_counts(&c->after));
    rb_json_set(o, "wait_events", json_waits(&c->waits));
    rb_json_set(o, "n_repeats", U(c->n_repeats));
    rb_json_set(o, "rows_per_s_is", S("median of the repetitions"));
    rb_json_set(o, "rows_per_s_min", F(c->rows_per_s_min, 1));
    rb_json_set(o, "rows_per_s_max", F(c->rows_per_s_max, 1));
    rb_json_set(o, "repeat_rows_per_s", json_reals(c->rep_rows_per_s, c->n_repeats, 1));
    rb_json_set(o, "repeat_claim_p50_us", json_reals(c->rep_claim_p50_us, c->n_repeats, 1));
    rb_json_set(o, "pgbench_drift", F(c->pgbench_drift, 3));
    rb_json_set(o, "pgbench_drift_flagged", B(c->drift_flagged));
    rb_json_set(o, "remeasured", B(c->remeasured));
    rb_json_set(o, "first_pgbench_drift", F(c->first_drift, 3));
    return o;
}

static const rbb_cell *find_cell(const rbb_run *run, rbb_mode m, uint32_t w, uint32_t b, rbb_dist d,
                                 int chain) {
    for (size_t i = 0; i < run->n_cells; i++) {
        const rbb_cell *c = &run->cells[i];
        if (c->mode == m && c->n_workers == w && c->batch == b && c->dist == d &&
            c->chain == chain && !c->failed)
            return c;
    }
    return NULL;
}

/* The three targets of issue 6, evaluated on every (W, batch, dist). */
typedef struct target_row {
    const char *name;
    uint32_t w, b;
    rbb_dist d;
    int chain;               /* the cells' completion (the chain group's targets: 1) */
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

/* The chain group's target (issue 11, target 4): chained batch-1 rows/s against pgbench. */
static const char *const vs_pgbench_chain[RBB_N_MODES] = {"competing chain b1 rows/s / pgbench TPS",
                                                          "affinity chain b1 rows/s / pgbench TPS",
                                                          "ordered chain b1 rows/s / pgbench TPS"};
#define CHAIN_WANTED 0.8

static size_t targets(const rbb_run *run, target_row *out, size_t max) {
    size_t n = 0;
    const rbb_params *p = &run->p;
    const int ch = p->chain; /* the matrix cells' completion */
    for (size_t d = 0; d < p->n_dists; d++) {
        for (size_t w = 0; w < p->n_chain_workers; w++)
            for (int m = 0; m < RBB_N_MODES; m++) {
                const rbb_cell *c =
                    find_cell(run, (rbb_mode)m, p->chain_workers[w], 1, p->dists[d], 1);
                if (c && c->pgbench_tps > 0 && n < max)
                    out[n++] = (target_row){vs_pgbench_chain[m],
                                            c->n_workers,
                                            1,
                                            c->dist,
                                            1,
                                            ratio(c->rows_per_s, c->pgbench_tps),
                                            CHAIN_WANTED};
            }
        for (size_t w = 0; w < p->n_workers; w++)
            for (size_t b = 0; b < p->n_batches; b++) {
                uint32_t W = p->workers[w], B = p->batches[b];
                rbb_dist D = p->dists[d];
                const rbb_cell *comp = find_cell(run, RBB_MODE_COMPETING, W, B, D, ch);
                const rbb_cell *aff = find_cell(run, RBB_MODE_AFFINITY, W, B, D, ch);
                /* issue 11, target 1: affinity at least as fast as competing, every cell */
                if (comp && aff && n < max)
                    out[n++] = (target_row){"affinity / competing rows/s",
                                            W,
                                            B,
                                            D,
                                            ch,
                                            ratio(aff->rows_per_s, comp->rows_per_s),
                                            1.0};
                /* issue 11, target 2: ordered >= 0.8 x competing at batch 32 under Zipf */
                const rbb_cell *ord = find_cell(run, RBB_MODE_ORDERED, W, B, D, ch);
                if (comp && ord && B == 32 && D == RBB_DIST_ZIPF && n < max)
                    out[n++] = (target_row){"ordered / competing rows/s",
                                            W,
                                            B,
                                            D,
                                            ch,
                                            ratio(ord->rows_per_s, comp->rows_per_s),
                                            0.8};
                for (size_t t = 0; t < sizeof vs_pgbench / sizeof vs_pgbench[0]; t++) {
                    if (B != vs_pgbench[t].batch) continue;
                    for (int m = 0; m < RBB_N_MODES; m++) {
                        const rbb_cell *c = find_cell(run, (rbb_mode)m, W, B, D, ch);
                        if (c && c->pgbench_tps > 0 && n < max)
                            out[n++] = (target_row){vs_pgbench[t].name[m],
                                                    W,
                                                    B,
                                                    D,
                                                    ch,
                                                    ratio(c->rows_per_s, c->pgbench_tps),
                                                    vs_pgbench[t].wanted};
                    }
                }
            }
    }
    return n;
}

static json_t *json_scale(const rbb_scale *s) {
    json_t *o = json_object();
    rb_json_set(o, "algo", S(s->algo ? s->algo : "?"));
    rb_json_set(o, "failed", B(s->failed));
    rb_json_set(o, "n_before", U(s->n_before));
    rb_json_set(o, "batch", U(s->batch));
    rb_json_set(o, "n_buckets", U(s->n_buckets));
    rb_json_set(o, "n_moved_buckets", U(s->n_moved_buckets));
    rb_json_set(o, "ideal_moved_buckets", U(s->n_before ? s->n_buckets / (s->n_before + 1) : 0));
    rb_json_set(o, "n_moved_to_new", U(s->n_moved_to_new));
    rb_json_set(o, "n_claimed_on_moved_at_join", U(s->n_claimed_on_moved));
    rb_json_set(o, "n_pending_on_moved_at_join", U(s->n_pending_on_moved));
    rb_json_set(o, "n_lost", U(s->n_lost));
    rb_json_set(o, "baseline_rows_per_s", F(s->rec.baseline_rows_per_s, 1));
    rb_json_set(o, "min_rows_per_s", F(s->rec.min_rows_per_s, 1));
    rb_json_set(o, "min_at_ms", F(s->rec.min_at_ms, 0));
    rb_json_set(o, "dip_fraction", F(s->rec.dip_fraction, 3));
    rb_json_set(o, "recovery_to_90pct_ms", F(s->rec.recovery_ms, 0));
    rb_json_set(o, "post_join_1s_rows_per_s", F(s->post_rows_per_s, 1));
    rb_json_set(o, "before_join_1s_rows_per_s", F(s->dip_1s.before_rows_per_s, 1));
    rb_json_set(o, "dip_1s_fraction", F(s->dip_1s.dip_fraction, 3));
    rb_json_set(o, "pre_join_1s_variation", F(s->dip_1s.pre_variation, 3));
    rb_json_set(o, "n_pre_join_windows", U(s->dip_1s.n_pre_windows));
    rb_json_set(o, "member_ids", S("scale-<algo>-s<seed>-w<i>"));
    rb_json_set(o, "after", json_counts(&s->after));
    rb_json_set(o, "join_bin", U(s->join_bin));
    rb_json_set(o, "rows_per_s_timeline", json_reals(s->rows_per_s, s->n_bins, 0));
    return o;
}

static json_t *json_crash(const rbb_crash *c) {
    json_t *o = json_object(), *kills = json_array();
    rb_json_set(o, "failed", B(c->failed));
    rb_json_set(o, "chain", B(c->chain));
    rb_json_set(o, "n_workers", U(c->n_workers));
    rb_json_set(o, "batch", U(c->batch));
    rb_json_set(o, "handler_us", U(c->handler_us));
    rb_json_set(o, "lease_ms", U(c->lease_ms));
    rb_json_set(o, "ttl_ms", U(c->ttl_ms));
    rb_json_set(o, "heartbeat_ms", U(c->heartbeat_ms));
    rb_json_set(o, "n_rows_enqueued", U(c->n_rows_enqueued));
    rb_json_set(o, "drain_s", F(c->drain_s, 3));
    rb_json_set(o, "n_lost", U(c->n_lost));
    rb_json_set(o, "n_fenced", U(c->n_fenced));
    rb_json_set(o, "stall_ms", F(c->stall_ms, 0));
    rb_json_set(o, "n_stall_held", U(c->n_stall_held));
    rb_json_set(o, "after", json_counts(&c->after));
    for (size_t i = 0; i < c->n_kills; i++) {
        const rbb_kill *k = &c->kills[i];
        json_t *x = json_object();
        rb_json_set(x, "at_s", F(k->at_s, 3));
        rb_json_set(x, "worker_id", S(k->worker_id));
        rb_json_set(x, "n_rows_held", U(k->n_rows_held));
        rb_json_set(x, "n_rows_orphaned", U(k->n_rows_orphaned));
        /* null: not seen (rbb_kill: -1) */
        rb_json_set(x, "detect_ms", F(k->detect_ms < 0 ? NAN : k->detect_ms, 0));
        rb_json_set(x, "reclaim_ms", F(k->reclaim_ms < 0 ? NAN : k->reclaim_ms, 0));
        rb_json_set(x, "redone_ms", F(k->redone_ms < 0 ? NAN : k->redone_ms, 0));
        rb_json_push(kills, x);
    }
    rb_json_set(o, "kills", kills);
    return o;
}

/* The backlog sweep: per mode, claim p50 (median of the repetitions) at the largest backlog
 * size asked for / at the smallest (the pending rows of those points in *lo, *hi). 0 when
 * there is no ratio, with why in why[] ("" when the sweep has one size): a point at either
 * size failed or was not measured (the sweep stopped) — never a ratio of other sizes. */
static double backlog_ratio(const rbb_run *run, rbb_mode m, uint64_t *lo, uint64_t *hi, char *why,
                            size_t why_size) {
    const rbb_params *p = &run->p;
    uint64_t small = UINT64_MAX, large = 0;
    for (size_t i = 0; i < p->n_backlogs; i++) {
        if (p->backlogs[i] < small) small = p->backlogs[i];
        if (p->backlogs[i] > large) large = p->backlogs[i];
    }
    why[0] = '\0';
    if (p->n_backlogs < 2) return 0;
    const rbb_backlog_point *a = NULL, *b = NULL;
    for (size_t i = 0; i < run->n_backlog; i++) {
        const rbb_backlog_point *x = &run->backlog[i];
        if (x->cell.mode != m) continue;
        if (x->size == small) a = x;
        if (x->size == large) b = x;
    }
    const rbb_backlog_point *bad = !a || a->cell.failed ? a : b;
    uint64_t at = !a || a->cell.failed ? small : large;
    if (a && b && !a->cell.failed && !b->cell.failed) {
        *lo = a->backlog, *hi = b->backlog;
        return ratio(b->claim_p50_us, a->claim_p50_us);
    }
    snprintf(why, why_size, "no ratio: the point at %llu %s", (unsigned long long)at,
             bad ? "failed" : "was not measured (the sweep stopped)");
    return 0;
}

static json_t *json_backlog(const rbb_run *run) {
    const rbb_params *p = &run->p;
    json_t *o = json_object(), *points = json_array(), *targets = json_array();
    rb_json_set(o, "n_workers", U(p->backlog_workers));
    rb_json_set(o, "batch", U(p->backlog_batch));
    rb_json_set(o, "secs", G(p->backlog_s));
    rb_json_set(o, "max_consumed_share", json_real(RBB_BACKLOG_MAX_SHARE));
    rb_json_set(o, "hot_key", S(RBB_HOT_KEY));
    rb_json_set(o, "hot_share", F(p->backlog_hot_every ? 1.0 / p->backlog_hot_every : 0.0, 3));
    rb_json_set(o, "hot_head_in_flight", B(p->backlog_hot_every));
    for (size_t i = 0; i < run->n_backlog; i++) {
        const rbb_backlog_point *x = &run->backlog[i];
        const rbb_cell *c = &x->cell;
        json_t *pt = json_object();
        rb_json_set(pt, "backlog", U(x->backlog));
        rb_json_set(pt, "n_hot_pending", U(x->n_hot_pending));
        rb_json_set(pt, "mode", S(rbb_mode_name(c->mode)));
        rb_json_set(pt, "failed", B(c->failed));
        rb_json_set(pt, "n_repeats", U(c->n_repeats));
        rb_json_set(pt, "n_failed_repeats", U(x->n_failed_repeats));
        rb_json_set(pt, "claim_p50_is",
                    S("median of the claim p50 of the repetitions that did not fail"));
        rb_json_set(pt, "claim_p50_us", F(x->claim_p50_us, 1));
        rb_json_set(pt, "claim_p50_min_us", F(x->claim_p50_min_us, 1));
        rb_json_set(pt, "claim_p50_max_us", F(x->claim_p50_max_us, 1));
        rb_json_set(pt, "repeat_claim_p50_us", json_reals(c->rep_claim_p50_us, c->n_repeats, 1));
        rb_json_set(pt, "claim_p99_us", F(x->claim_p99_us, 1));
        rb_json_set(pt, "rows_per_s", F(c->rows_per_s, 1));
        rb_json_set(pt, "consumed_share", F(x->consumed_share, 3));
        /* the median repetition's: what a claim at this backlog makes the server write */
        rb_json_set(pt, "wal_bytes_per_row", F(c->wal_bytes_per_row, 1));
        rb_json_set(pt, "wal_fpi_per_krow", F(c->wal_fpi_per_krow, 1));
        rb_json_set(pt, "buffers_per_row", F(c->buffers_per_row, 1));
        rb_json_set(pt, "n_claims", U(c->n_claims));
        rb_json_set(pt, "n_empty_claims", U(c->n_empty_claims));
        rb_json_set(pt, "n_lost", U(c->n_lost));
        rb_json_set(pt, "n_duplicates", U(c->after.n_duplicates + c->n_dup_executions));
        rb_json_push(points, pt);
    }
    rb_json_set(o, "points", points);
    for (size_t m = 0; m < p->n_modes; m++) {
        uint64_t lo = 0, hi = 0;
        char why[128];
        double r = backlog_ratio(run, p->modes[m], &lo, &hi, why, sizeof why);
        if (r <= 0 && !why[0]) continue;
        json_t *t = json_object();
        rb_json_set(t, "target", S("claim p50 at the largest backlog / at the smallest"));
        rb_json_set(t, "mode", S(rbb_mode_name(p->modes[m])));
        rb_json_set(t, "backlog_small", r > 0 ? U(lo) : json_null());
        rb_json_set(t, "backlog_large", r > 0 ? U(hi) : json_null());
        rb_json_set(t, "measured", r > 0 ? F(r, 3) : json_null());
        rb_json_set(t, "wanted_at_most", json_real(1.5));
        rb_json_set(t, "met", B(r > 0 && r <= 1.5));
        rb_json_set(t, "why_not_measured", why[0] ? S(why) : json_null());
        rb_json_push(targets, t);
    }
    rb_json_set(o, "targets", targets);
    const rbb_backlog_stop *st = &run->backlog_stop;
    json_t *stop = json_null();
    if (st->error[0]) {
        stop = json_object();
        rb_json_set(stop, "backlog", U(st->backlog));
        rb_json_set(stop, "step", S(st->step));
        rb_json_set(stop, "repetition", st->repetition ? U(st->repetition) : json_null());
        rb_json_set(stop, "mode", st->repetition ? S(rbb_mode_name(st->mode)) : json_null());
        rb_json_set(stop, "error", S(st->error));
    }
    rb_json_set(o, "stopped", stop);
    return o;
}

/* v, or null when the soak failed: a soak cut short has no totals or ratios to give (its
 * intervals measured so far stay), and zeros would read as measured. Takes v. */
static json_t *soak_total(const rbb_soak *s, json_t *v) {
    if (!s->failed) return v;
    json_decref(v);
    return json_null();
}

/* Did both pgbench references around the soak run (tps > 0)? Without both there is no drift. */
static int soak_referenced(const rbb_soak *s) {
    return s->pgbench_before.tps > 0 && s->pgbench_after.tps > 0;
}

static json_t *json_soak(const rbb_soak *s) {
    json_t *o = json_object(), *iv = json_array();
    rb_json_set(o, "failed", B(s->failed));
    rb_json_set(o, "secs", G(s->secs));
    rb_json_set(o, "interval_s", G(s->interval_s));
    rb_json_set(o, "n_workers", U(s->n_workers));
    rb_json_set(o, "batch", U(s->batch));
    rb_json_set(o, "mode", S("affinity"));
    rb_json_set(o, "backlog", U(s->backlog));
    rb_json_set(o, "n_rows", soak_total(s, U(s->n_rows)));
    rb_json_set(o, "n_lost", soak_total(s, U(s->n_lost)));
    rb_json_set(o, "n_duplicates", soak_total(s, U(s->n_duplicates)));
    rb_json_set(o, "last_vs_first", soak_total(s, F(s->last_vs_first, 3)));
    rb_json_set(o, "wanted_last_vs_first", json_real(0.9));
    rb_json_set(o, "retention_ms", U(s->retention_ms));
    rb_json_set(o, "retention_batch", U(s->retention_batch));
    rb_json_set(o, "heartbeat_ms", U(s->heartbeat_ms));
    rb_json_set(o, "done_bound_rows", soak_total(s, F(s->done_bound_rows, 0)));
    rb_json_set(o, "inbox_bounded",
                soak_total(s, s->retention_ms ? B(s->inbox_bounded)
                                              : json_null())); /* null: retention off */
    rb_json_set(o, "autovacuum", S(s->autovacuum));
    rb_json_set(o, "n_claims", U(s->n_claims));
    rb_json_set(o, "n_empty_claims", U(s->n_empty_claims));
    rb_json_set(o, "n_rows_aged", U(s->n_rows_aged));
    rb_json_set(o, "buffers_last_vs_first", soak_total(s, F(s->buffers_last_vs_first, 3)));
    rb_json_set(o, "cpu_last_vs_first", soak_total(s, F(s->cpu_last_vs_first, 3)));
    json_t *ref = json_object();
    rb_json_set(ref, "clients", U(s->n_workers));
    rb_json_set(ref, "before_tps",
                s->pgbench_before.tps > 0 ? F(s->pgbench_before.tps, 1) : json_null());
    rb_json_set(ref, "after_tps",
                s->pgbench_after.tps > 0 ? F(s->pgbench_after.tps, 1) : json_null());
    rb_json_set(ref, "secs", G(s->pgbench_before.secs));
    int both = soak_referenced(s);
    rb_json_set(ref, "drift", both ? F(s->pgbench_drift, 3) : json_null());
    rb_json_set(ref, "drift_flagged", both ? B(s->drift_flagged) : json_null());
    json_t *unsettled = json_array(); /* before, after: why the server was not settled, or null */
    for (int k = 0; k < 2; k++)
        json_array_append_new(unsettled, s->unsettled[k][0] ? S(s->unsettled[k]) : json_null());
    rb_json_set(ref, "not_settled", unsettled);
    rb_json_set(o, "pgbench", ref);
    for (size_t i = 0; i < s->n_intervals; i++) {
        const rbb_soak_interval *v = &s->iv[i];
        json_t *x = json_object();
        rb_json_set(x, "t_end_s", F(v->t_end_s, 1));
        rb_json_set(x, "rows_per_s", F(v->rows_per_s, 1));
        rb_json_set(x, "n_inbox_rows", U(v->n_inbox_rows));
        rb_json_set(x, "n_pending", U(v->n_pending));
        rb_json_set(x, "n_done", U(v->n_done));
        rb_json_set(x, "n_completed", U(v->n_completed));
        rb_json_set(x, "n_dead_tup", U(v->n_dead_tup));
        rb_json_set(x, "inbox_bytes", U(v->inbox_bytes));
        rb_json_set(x, "inbox_heap_bytes", U(v->inbox_heap_bytes));
        rb_json_set(x, "inbox_index_bytes", U(v->inbox_index_bytes));
        rb_json_set(x, "n_autovacuum", U(v->n_autovacuum));
        rb_json_set(x, "oldest_pending_ms", U(v->oldest_pending_ms));
        rb_json_set(x, "buffers_per_row", F(v->buffers_per_row, 1));
        rb_json_set(x, "wal_bytes_per_row", F(v->wal_bytes_per_row, 0));
        rb_json_set(x, "wal_fpi_per_krow", F(v->wal_fpi_per_krow, 1));
        rb_json_set(x, "machine_cpu_us_per_row", F(v->machine_cpu_us_per_row, 1));
        rb_json_set(x, "cores_busy", F(v->cores_busy, 2));
        rb_json_set(x, "steal_share", F(v->steal_share, 3));
        rb_json_set(x, "wal_flush_ms", F(v->wal_flush_ms, 3));
        rb_json_set(x, "n_checkpoints", F(v->n_checkpoints, 0));
        json_t *av = json_object(); /* null: unknown (no sample, or not visible to the role) */
        for (int k = 0; k < RBB_SOAK_N_TABLES; k++)
            rb_json_set(av, rbb_soak_tables[k], F(v->autovacuum_share[k], 3));
        rb_json_set(x, "autovacuum_share", av);
        rb_json_push(iv, x);
    }
    rb_json_set(o, "intervals", iv);
    return o;
}

static json_t *json_pgbench(const rbb_run *run) {
    json_t *o = json_object(), *runs = json_array();
    rb_json_set(o, "ok", B(run->pgbench_ok));
    rb_json_set(o, "skipped", B(run->pgbench_skipped)); /* no cell to divide by it */
    rb_json_set(o, "error", S(run->pgbench_ok || run->pgbench_skipped ? "" : run->pgbench_error));
    rb_json_set(o, "script", S("simple-update (built-in)"));
    rb_json_set(o, "scale", json_integer(1));
    rb_json_set(o, "reference_tps",
                S("per cell: mean of the runs right before and after its group of modes "
                  "(cells[].pgbench_adjacent_*); runs[]: before and after the matrix"));
    for (int round = 0; round < run->pgbench_rounds; round++)
        for (size_t i = 0; run->pgbench_ok && i < run->p.n_workers; i++) {
            const rbb_pgbench_result *r = round ? &run->pgbench_after[i] : &run->pgbench[i];
            json_t *x = json_object();
            rb_json_set(x, "when", S(round ? "after" : "before"));
            rb_json_set(x, "clients", U(r->clients));
            rb_json_set(x, "secs", G(r->secs));
            rb_json_set(x, "tps", F(r->tps, 1));
            rb_json_set(x, "latency_avg_ms", F(r->latency_avg_ms, 3));
            rb_json_set(x, "n_transactions", U(r->n_transactions));
            rb_json_push(runs, x);
        }
    rb_json_set(o, "runs", runs);
    return o;
}

/* Mode m against competing across the matrix (the cells at p->chain's completion), paired by
 * round: in each cell, the mean over its rounds of ln(m's rows/s ÷ competing's rows/s in the
 * same round — measured next to each other, so the machine's drift cancels), rounds where
 * either failed left out; then the mean of those per-cell means over the cells and its 95%
 * interval (cells as the draws: the estimate is of the matrix as a whole, whose cells differ).
 * exp() of it is the geometric mean ratio. 0, or -1 without two such cells. */
typedef struct mode_ratio {
    size_t n_cells, n_pairs, n_cells_at_least_1;
    double geomean, lo, hi;
} mode_ratio;
static int mode_vs_competing(const rbb_run *run, rbb_mode m, mode_ratio *out) {
    double *cell_log = calloc(run->n_cells ? run->n_cells : 1, sizeof *cell_log);
    if (!cell_log) return -1;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < run->n_cells; i++) {
        const rbb_cell *c = &run->cells[i], *k = NULL;
        if (c->mode != m || c->chain != run->p.chain) continue;
        for (size_t j = 0; j < run->n_cells && !k; j++) {
            const rbb_cell *x = &run->cells[j];
            if (x->mode == RBB_MODE_COMPETING && x->n_workers == c->n_workers &&
                x->batch == c->batch && x->dist == c->dist && x->chain == c->chain)
                k = x;
        }
        double sum = 0;
        size_t n = 0;
        for (uint32_t r = 0; k && r < c->n_repeats && r < k->n_repeats; r++)
            if (c->rep_rows_per_s[r] > 0 && k->rep_rows_per_s[r] > 0) /* NaN: failed */
                sum += log(c->rep_rows_per_s[r] / k->rep_rows_per_s[r]), n++;
        if (!n) continue;
        cell_log[out->n_cells] = sum / (double)n;
        out->n_cells_at_least_1 += cell_log[out->n_cells] >= 0;
        out->n_cells++, out->n_pairs += n;
    }
    double mean, lo, hi;
    int rc = rbb_mean_ci95(cell_log, out->n_cells, &mean, &lo, &hi);
    free(cell_log);
    if (rc) return -1;
    out->geomean = exp(mean), out->lo = exp(lo), out->hi = exp(hi);
    return 0;
}

/* How much repetitions of one cell and mode differ: the pooled standard deviation of
 * ln(rows/s) within each (cell, mode) over its repetitions that did not fail (cells with
 * two or more). NaN without any. *n_cells: the cells it pools. */
static double repetition_log_sd(const rbb_run *run, size_t *n_cells) {
    double ss = 0;
    size_t df = 0;
    *n_cells = 0;
    for (size_t i = 0; i < run->n_cells; i++) {
        const rbb_cell *c = &run->cells[i];
        double v[RBB_MAX_REPEATS], mean = 0;
        size_t n = 0;
        for (uint32_t r = 0; r < c->n_repeats; r++)
            if (c->rep_rows_per_s[r] > 0) mean += v[n++] = log(c->rep_rows_per_s[r]);
        if (n < 2) continue;
        mean /= (double)n;
        for (size_t r = 0; r < n; r++)
            ss += (v[r] - mean) * (v[r] - mean);
        df += n - 1;
        (*n_cells)++;
    }
    return df ? sqrt(ss / (double)df) : NAN;
}

/* The matrix as a whole: every other mode against competing (mode_vs_competing) and the
 * repetitions' noise (repetition_log_sd), which a single cell's ratio carries. */
static json_t *json_mode_summary(const rbb_run *run) {
    json_t *o = json_object(), *a = json_array();
    for (size_t i = 0; i < run->p.n_modes; i++) {
        mode_ratio r;
        if (run->p.modes[i] == RBB_MODE_COMPETING || mode_vs_competing(run, run->p.modes[i], &r))
            continue;
        json_t *x = json_object();
        rb_json_set(x, "mode", S(rbb_mode_name(run->p.modes[i])));
        rb_json_set(x, "vs", S("competing"));
        rb_json_set(x, "n_cells", U(r.n_cells));
        rb_json_set(x, "n_pairs", U(r.n_pairs));
        rb_json_set(x, "n_cells_at_least_1", U(r.n_cells_at_least_1));
        rb_json_set(x, "geomean_rows_per_s_ratio", F(r.geomean, 3));
        rb_json_set(x, "ci95_low", F(r.lo, 3));
        rb_json_set(x, "ci95_high", F(r.hi, 3));
        rb_json_push(a, x);
    }
    rb_json_set(o, "is",
                S("per cell the mean over its rounds of ln(mode rows/s / competing "
                  "rows/s in the same round); exp of their mean over the matrix's "
                  "cells, 95% interval with the cells as draws (Student's t)"));
    rb_json_set(o, "vs_competing", a);
    size_t n_sd = 0;
    double sd = repetition_log_sd(run, &n_sd);
    rb_json_set(o, "repetition_log_sd", F(sd, 3));
    rb_json_set(o, "repetition_log_sd_cells", U(n_sd));
    return o;
}

static json_t *json_targets(const rbb_run *run) {
    json_t *a = json_array();
    target_row t[512];
    size_t nt = targets(run, t, 512);
    for (size_t i = 0; i < nt; i++) {
        json_t *x = json_object();
        rb_json_set(x, "target", S(t[i].name));
        rb_json_set(x, "n_workers", U(t[i].w));
        rb_json_set(x, "batch", U(t[i].b));
        rb_json_set(x, "dist", S(dist_name(t[i].d)));
        rb_json_set(x, "completion", S(completion_name(&run->p, t[i].chain)));
        rb_json_set(x, "measured", F(t[i].measured, 3));
        rb_json_set(x, "wanted", F(t[i].wanted, 2));
        rb_json_set(x, "met", B(t[i].measured >= t[i].wanted));
        rb_json_push(a, x);
    }
    return a;
}

json_t *rbb_report_json(const rbb_run *run) {
    json_t *o = json_object(), *cells = json_array(), *scale = json_array(),
           *explain = json_object();
    rb_json_set(o, "benchmark", S("ringbench pg bench"));
    rb_json_set(o, "date", S(run->date));
    json_t *stop = json_null(); /* a stop signal: what finished before it is all there is */
    if (run->stop_signal) {
        stop = json_object();
        rb_json_set(stop, "signal", S(run->stop_signal == SIGINT ? "SIGINT" : "SIGTERM"));
        rb_json_set(stop, "during", S(run->part));
    }
    rb_json_set(o, "interrupted", stop);
    rb_json_set(o, "machine", rb_json_parse(run->machine_json));
    rb_json_set(o, "parameters", json_params(&run->p));
    rb_json_set(o, "server_settings", S(run->server_settings));
    rb_json_set(o, "pgbench", json_pgbench(run));
    for (size_t i = 0; i < run->n_cells; i++)
        rb_json_push(cells, json_cell(&run->p, &run->cells[i]));
    rb_json_set(o, "cells", cells);
    rb_json_set(o, "targets", json_targets(run));
    rb_json_set(o, "matrix_summary", run->n_cells ? json_mode_summary(run) : json_null());
    for (size_t i = 0; i < run->n_scale; i++)
        rb_json_push(scale, json_scale(&run->scale[i]));
    rb_json_set(o, "scale_events", scale);
    rb_json_set(explain, "backlog_rows", U(run->explain_backlog));
    rb_json_set(explain, "text", S(run->explain ? run->explain : ""));
    rb_json_set(o, "explain", explain);
    rb_json_set(o, "backlog_sweep", run->p.n_backlogs ? json_backlog(run) : json_null());
    rb_json_set(o, "soak", run->has_soak ? json_soak(&run->soak) : json_null());
    rb_json_set(o, "crash", run->has_crash ? json_crash(&run->crash) : json_null());
    rb_json_set(o, "crash_chain",
                run->has_crash_chain ? json_crash(&run->crash_chain) : json_null());
    return o;
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
            "rows at every size; a measurement stops at %g s or once it has done %.0f%% of the "
            "backlog, and the backlog is topped up to its size before the next one. "
            "Every point is measured %u time(s), interleaved across the modes: claim latency in "
            "µs is the median of the repetitions' p50 (min..max) and p99, a failed repetition left "
            "out; rows/s the median repetition's; consumed: its rows done / the backlog; WAL "
            "B/row, full-page images "
            "per 1,000 rows and buffers/row: the median repetition's (server-wide WAL; a page's "
            "first change after a checkpoint logs the whole page).\n\n| backlog | mode | "
            "pending of the hot key | claim p50 µs | claim p99 µs | rows/s | consumed | WAL B/row "
            "| FPI/1k rows | buffers/row | dup | lost |\n"
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            p->backlog_workers, p->backlog_batch, p->backlog_s, RBB_HOT_KEY, p->backlog_hot_every,
            p->backlog_s, 100 * RBB_BACKLOG_MAX_SHARE, p->repeats);
    for (size_t i = 0; i < run->n_backlog; i++) {
        const rbb_backlog_point *x = &run->backlog[i];
        const rbb_cell *c = &x->cell;
        if (x->n_failed_repeats == c->n_repeats) {
            fprintf(f, "| %llu | %s | failed ||||||||||\n", (unsigned long long)x->backlog,
                    rbb_mode_name(c->mode));
            continue;
        }
        char mode[64];
        snprintf(mode, sizeof mode, "%s%s", rbb_mode_name(c->mode),
                 x->n_failed_repeats ? " (a repetition failed)" : "");
        char p50[32], lo[32], hi[32], p99[32];
        us_or_dash(p50, sizeof p50, x->claim_p50_us);
        us_or_dash(lo, sizeof lo, x->claim_p50_min_us);
        us_or_dash(hi, sizeof hi, x->claim_p50_max_us);
        us_or_dash(p99, sizeof p99, x->claim_p99_us);
        fprintf(f,
                "| %llu | %s | %llu | %s (%s..%s) | %s | %.0f | %.2f | %.0f | %.1f | %.1f | %llu | "
                "%llu |\n",
                (unsigned long long)x->backlog, mode, (unsigned long long)x->n_hot_pending, p50, lo,
                hi, p99, c->rows_per_s, x->consumed_share, c->wal_bytes_per_row,
                c->wal_fpi_per_krow, c->buffers_per_row,
                (unsigned long long)(c->after.n_duplicates + c->n_dup_executions),
                (unsigned long long)c->n_lost);
    }
    const rbb_backlog_stop *st = &run->backlog_stop;
    if (st->error[0]) {
        char where[96] = "while filling the queue";
        if (st->repetition)
            snprintf(where, sizeof where, "%s, repetition %u, %s", st->step, st->repetition,
                     rbb_mode_name(st->mode));
        fprintf(f,
                "\n**The sweep stopped** at backlog %llu, %s: %s. The points above are the "
                "repetitions measured before it.\n",
                (unsigned long long)st->backlog, where, st->error);
    }
    fprintf(f, "\n| mode | claim p50 at the largest backlog / at the smallest | wanted | met "
               "|\n|---|---:|---:|---|\n");
    if (p->n_backlogs < 2)
        fprintf(f, "| (one backlog size: no ratio; the target compares two, e.g. --backlog "
                   "10k,1M) | | | |\n");
    for (size_t m = 0; m < p->n_modes; m++) {
        uint64_t lo = 0, hi = 0;
        char why[128];
        double r = backlog_ratio(run, p->modes[m], &lo, &hi, why, sizeof why);
        if (r > 0)
            fprintf(f, "| %s | %.2f (%llu vs %llu rows) | <= 1.5 | %s |\n",
                    rbb_mode_name(p->modes[m]), r, (unsigned long long)hi, (unsigned long long)lo,
                    r <= 1.5 ? "yes" : "**no**");
        else if (why[0])
            fprintf(f, "| %s | %s | <= 1.5 | **no** |\n", rbb_mode_name(p->modes[m]), why);
    }
}

/* The soak's second table: what each interval cost per row and what the machine did. */
static void md_soak_work(FILE *f, const rbb_soak *s) {
    fprintf(f,
            "\nWork per row completed and the machine, per interval (buffers: shared-buffer "
            "accesses in the queue database; WAL and full-page images server-wide; CPU: the "
            "whole machine's; steal: CPU time given to other guests; flush: one WAL flush; "
            "autovacuum: the share of 0.5 s samples with a VACUUM or ANALYZE of the table in "
            "progress):\n\n"
            "| until s | rows/s | buffers/row | WAL B/row | FPI/1k rows | CPU µs/row | cores busy "
            "| steal %% | flush ms | checkpoints | autovacuum %% inbox / done / leases / effects "
            "|\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < s->n_intervals; i++) {
        const rbb_soak_interval *v = &s->iv[i];
        char av[64] = "", *end = av; /* "-": unknown */
        for (int k = 0; k < RBB_SOAK_N_TABLES; k++)
            end += isnan(v->autovacuum_share[k])
                       ? snprintf(end, 16, "%s-", k ? " / " : "")
                       : snprintf(end, 16, "%s%.0f", k ? " / " : "", 100 * v->autovacuum_share[k]);
        fprintf(f, "| %.0f | %.0f | %.1f | %.0f | %.1f | %.1f | %.2f | %.1f | %.3f | %.0f | %s |\n",
                v->t_end_s, v->rows_per_s, v->buffers_per_row, v->wal_bytes_per_row,
                v->wal_fpi_per_krow, v->machine_cpu_us_per_row, v->cores_busy, 100 * v->steal_share,
                v->wal_flush_ms, v->n_checkpoints, av);
    }
    if (!s->failed) /* a soak cut short has no last interval */
        fprintf(f, "\nWork per row, last interval ÷ first: buffers %.2f, machine CPU %.2f.\n",
                s->buffers_last_vs_first, s->cpu_last_vs_first);
    fprintf(f,
            "\nClaims: %llu, of which %llu found no row (%.1f%%: a worker whose owned buckets "
            "ran dry walks them all); %llu rows claimed for their age.\n",
            (unsigned long long)s->n_claims, (unsigned long long)s->n_empty_claims,
            s->n_claims ? 100.0 * (double)s->n_empty_claims / (double)s->n_claims : 0.0,
            (unsigned long long)s->n_rows_aged);
}

/* The pgbench reference around the soak, and whether the server was settled before each. */
static void md_soak_reference(FILE *f, const rbb_soak *s) {
    for (int k = 0; k < 2; k++)
        if (s->unsettled[k][0])
            fprintf(f,
                    "\nThe server was not settled before the pgbench reference %s the soak "
                    "(VACUUM and CHECKPOINT of the queue tables): %s.\n",
                    k ? "after" : "before", s->unsettled[k]);
    if (!soak_referenced(s)) {
        fprintf(f, "\npgbench reference around the soak: not run (see stderr of the run).\n");
        return;
    }
    fprintf(f,
            "\npgbench simple-update, %u clients, %.0f s, right before and right after the soak: "
            "%.0f / %.0f tps (after ÷ before %.2f, drift %.0f%%%s).\n",
            s->n_workers, s->pgbench_before.secs, s->pgbench_before.tps, s->pgbench_after.tps,
            s->pgbench_after.tps / s->pgbench_before.tps, 100 * s->pgbench_drift,
            s->drift_flagged ? ", **flagged**: the server or machine moved over the soak" : "");
}

static void md_soak(FILE *f, const rbb_soak *s) {
    fprintf(f, "\n## Soak: %u affinity workers, batch %u, %.0f s, backlog kept at %llu rows\n\n",
            s->n_workers, s->batch, s->secs, (unsigned long long)s->backlog);
    if (s->failed) {
        fprintf(f, "**failed** (see stderr of the run): %s.\n\n",
                s->n_intervals ? "the intervals measured before it stopped, no totals"
                               : "no interval was measured");
        if (!s->n_intervals) return;
    }
    if (s->retention_ms)
        fprintf(f,
                "Retention in effect: done rows deleted by the housekeepers %llu ms after "
                "completion, at most %u per round (`pg migrate --retention-ms`; effects kept).\n\n",
                (unsigned long long)s->retention_ms, s->retention_batch);
    else
        fprintf(f, "Retention in effect: **off** (done rows kept in inbox).\n\n");
    fprintf(f, "| until s | rows/s | inbox rows | pending | done | dead tuples | inbox MB | "
               "heap MB | indexes MB | autovacuums | oldest pending s |\n"
               "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < s->n_intervals; i++) {
        const rbb_soak_interval *v = &s->iv[i];
        fprintf(f,
                "| %.0f | %.0f | %llu | %llu | %llu | %llu | %.1f | %.1f | %.1f | %llu | %.1f |\n",
                v->t_end_s, v->rows_per_s, (unsigned long long)v->n_inbox_rows,
                (unsigned long long)v->n_pending, (unsigned long long)v->n_done,
                (unsigned long long)v->n_dead_tup, (double)v->inbox_bytes / 1048576.0,
                (double)v->inbox_heap_bytes / 1048576.0, (double)v->inbox_index_bytes / 1048576.0,
                (unsigned long long)v->n_autovacuum, (double)v->oldest_pending_ms / 1000.0);
    }
    md_soak_work(f, s);
    if (s->failed) {
        md_soak_reference(f, s);
        return;
    }
    fprintf(f,
            "\nrows/s of the last interval ÷ the first: **%.2f** (wanted >= 0.9); %llu rows done, "
            "lost **%llu**, duplicated **%llu**. Autovacuum and shared buffers: `%s`.\n",
            s->last_vs_first, (unsigned long long)s->n_rows, (unsigned long long)s->n_lost,
            (unsigned long long)s->n_duplicates, s->autovacuum);
    md_soak_reference(f, s);
    if (s->retention_ms && s->n_intervals)
        fprintf(f,
                "\nInbox bounded: **%s**: %llu done rows at the end against at most %.0f, the "
                "rows completed since the latest interval end at least the retention + one "
                "heartbeat interval (%llu ms) before the last, plus one retention batch.\n",
                s->inbox_bounded ? "yes" : "no",
                (unsigned long long)s->iv[s->n_intervals - 1].n_done, s->done_bound_rows,
                (unsigned long long)(s->retention_ms + s->heartbeat_ms));
}

/* The target table: rendered by bench/report.py --pg-targets from the JSON document just
 * written, so the verdict ("met" / "missed by P%", P the distance as a share of the wanted
 * ratio) and a miss's limiting cause (the cell's top wait events, a dry backlog) have one
 * definition, shared with results/README.md (scripts/report). */
static void md_targets(FILE *f, const char *json_path) {
    const char *args[] = {json_path, "--pg-targets", NULL};
    char *table = json_path ? rb_source_script("bench/report.py", args) : NULL;
    fprintf(f, "\n## Targets (measured ratio vs wanted)\n\n");
    if (table)
        fprintf(f, "%s\n", table);
    else
        fprintf(f,
                "Not rendered: `bench/report.py --pg-targets %s` could not run (python3); the "
                "targets are in the JSON document.\n",
                json_path ? json_path : "pgbench.json");
    free(table);
}

/* The crash injection section (chain: the workers chained completions with their claims). */
static void md_crash(FILE *f, const rbb_crash *c) {
    fprintf(f,
            "\n## Crash injection%s: %u workers, batch %u, SIGKILL mid-batch (TTL %u ms, "
            "heartbeat %u ms, lease %u ms)\n\n",
            c->chain ? " with chain workers (each completion commits with the next claim)" : "",
            c->n_workers, c->batch, c->ttl_ms, c->heartbeat_ms, c->lease_ms);
    if (c->failed) fprintf(f, "**failed** (see stderr of the run)\n\n");
    fprintf(f, "`-`: not seen (reclaim and redone: the worker held no row when killed, or it "
               "did not happen before the drain ended).\n\n"
               "| kill | at s | rows held | orphaned | detect ms (TTL) | reclaim ms (lease) "
               "| redone ms |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < c->n_kills; i++) {
        const rbb_kill *k = &c->kills[i];
        char ms[3][32]; /* -1: not seen */
        us_or_dash(ms[0], sizeof ms[0], k->detect_ms < 0 ? NAN : k->detect_ms);
        us_or_dash(ms[1], sizeof ms[1], k->reclaim_ms < 0 ? NAN : k->reclaim_ms);
        us_or_dash(ms[2], sizeof ms[2], k->redone_ms < 0 ? NAN : k->redone_ms);
        fprintf(f, "| %zu | %.2f | %llu | %llu | %s | %s | %s |\n", i + 1, k->at_s,
                (unsigned long long)k->n_rows_held, (unsigned long long)k->n_rows_orphaned, ms[0],
                ms[1], ms[2]);
    }
    fprintf(f,
            "\n%llu rows drained in %.1f s; rows lost **%llu**, effects duplicated **%llu**; "
            "one worker paused %.0f ms holding %llu rows, then resumed: stale completions "
            "fenced **%llu**.\n",
            (unsigned long long)c->n_rows_enqueued, c->drain_s, (unsigned long long)c->n_lost,
            (unsigned long long)c->after.n_duplicates, c->stall_ms,
            (unsigned long long)c->n_stall_held, (unsigned long long)c->n_fenced);
}

/* The MD title and the sentence of the run's parameters. */
static void md_header(FILE *f, const rbb_run *run) {
    const rbb_params *p = &run->p;
    fprintf(f, "# ringbench pg bench — %s profile%s, %s\n\n", p->profile,
            p->profile_overridden ? " with options overriding it (every parameter: pgbench.json)"
                                  : "",
            run->date);
    int zipf = 0;
    for (size_t i = 0; i < p->n_dists; i++)
        zipf |= p->dists[i] == RBB_DIST_ZIPF;
    char dists[96], age[48] = "no age bound (`--age-bound-ms 0`)";
    snprintf(dists, sizeof dists, "%s",
             p->n_dists > 1 ? "uniform and Zipf" : dist_name(p->dists[0]));
    if (zipf)
        snprintf(dists + strlen(dists), sizeof dists - strlen(dists), "; Zipf s = %g", p->zipf_s);
    if (p->age_bound_ms) snprintf(age, sizeof age, "age bound %u ms", p->age_bound_ms);
    char cells[256] = "no matrix or chain-group cell"; /* the sweep and events draw uniform keys */
    if (p->n_batches || p->n_chain_workers)
        snprintf(cells, sizeof cells, "cells: %u keys (%s), %.1f s each, their backlog on disk %s",
                 p->n_keys, dists, p->cell_s,
                 p->heap_order == RBB_HEAP_LOADED ? "as loaded (id order)"
                 : p->heap_order == RBB_HEAP_ID
                     ? "rewritten in id order (`--heap-order id`)"
                     : "rewritten in bucket order (`--heap-order bucket`)");
    fprintf(f,
            "synchronous_commit **%s**; seed %llu; %s; affinity ring `%s`, 1,024 buckets, %s. "
            "Server settings: `%s`. Machine record and every parameter: `pgbench.json`.\n\n",
            p->sync_commit ? "on" : "off", (unsigned long long)p->seed, cells, p->ring_algo, age,
            run->server_settings);
}

/* The pgbench reference section: its runs, why it failed, or why it did not run. */
static void md_pgbench(FILE *f, const rbb_run *run) {
    const rbb_params *p = &run->p;
    fprintf(f, "## pgbench simple-update (reference, same server, same run)\n\n");
    if (run->pgbench_skipped) {
        fprintf(f,
                "Not run around cells: the run measures none (`--batch none --chain-workers "
                "none`)%s.\n\n",
                run->has_soak ? "; the soak's own reference is in the soak's section" : "");
    } else if (!run->pgbench_ok) {
        fprintf(f, "pgbench failed: %s\n\n", run->pgbench_error);
    } else {
        fprintf(f,
                "| clients | TPS before | TPS after | reference (mean) |\n|---:|---:|---:|---:|\n");
        for (size_t i = 0; i < p->n_workers; i++) { /* "-": not measured (a stopped run) */
            double tps[3] = {run->pgbench[i].tps,
                             run->pgbench_rounds > 1 ? run->pgbench_after[i].tps : 0,
                             rbb_pgbench_tps_for(run, p->workers[i])};
            fprintf(f, "| %u |", run->pgbench[i].clients);
            for (int k = 0; k < 3; k++)
                if (tps[k] > 0)
                    fprintf(f, " %.0f |", tps[k]);
                else
                    fprintf(f, " - |");
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
    }
}

/* The claim throughput section: every cell of the matrix and the chain group, the targets. */
static void md_throughput(FILE *f, const rbb_run *run, const char *json_path) {
    const rbb_params *p = &run->p;
    char reps[160] = "one repetition (no spread; the figures are its own)";
    if (p->repeats > 1)
        snprintf(reps, sizeof reps,
                 "the median of %u repetitions measured in interleaved order (min-max beside "
                 "it); the other figures are the median repetition's",
                 p->repeats);
    fprintf(f, "## Claim throughput\n\n");
    fprintf(f,
            "rows/s: rows completed (effect written) per second, %s; tx/s: claim + completion "
            "commits per second; WAL B/row: WAL bytes the server wrote during the cell per row "
            "done (server-wide); buffers/row: shared-buffer accesses in the queue database per "
            "row done (a claim whose rows lie on more heap pages makes more); x pgbench: rows/s "
            "÷ pgbench TPS at the same client count, "
            "measured right before and after the group of modes (mean; column ref TPS; "
            "drift: |after - before| / mean, **flagged** above %.0f%%, and the group is then "
            "measured once more: `again`). "
            "`*`: the backlog ran dry for some worker (rows/s is a floor). completion: one commit "
            "per claimed batch (`batch`), per row (`each`), or the batch's completion and the "
            "next claim in one commit (`chain`, `pg worker --chain`: the chain group at batch "
            "1, one commit per row; its claim latency is inside the completion's commit, so "
            "`-`).\n\n",
            reps, 100 * RBB_DRIFT_MAX);
    fprintf(f,
            "| dist | W | batch | completion | mode | rows/s | min-max | ref TPS | drift | x "
            "pgbench | tx/s | "
            "tx x pgbench | claim p50 µs | claim p99 µs | WAL B/row | buffers/row | empty claims | "
            "dead tuples | dup | lost | top wait events |\n|---|---:|---:|---|---|---:|---:|---:|"
            "---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (size_t i = 0; i < run->n_cells; i++) {
        const rbb_cell *c = &run->cells[i];
        if (c->failed) { /* "not run": a stop came first (the run's header says which) */
            fprintf(f, "| %s | %u | %u | %s | %s | %s ||||||||||||||||\n", dist_name(c->dist),
                    c->n_workers, c->batch, completion_name(p, c->chain), rbb_mode_name(c->mode),
                    c->not_run ? "not run" : "failed");
            continue;
        }
        /* a chained claim commits inside the completion: its claim time is not measured */
        char p50[32], p99[32];
        us_or_dash(p50, sizeof p50, c->claim_p50_us);
        us_or_dash(p99, sizeof p99, c->claim_p99_us);
        fprintf(
            f,
            "| %s | %u | %u | %s | %s | %.0f%s | %.0f-%.0f | %.0f | %s%.0f%%%s%s | %.2f | %.0f | "
            "%.2f | %s | %s | %.0f | %.1f | %llu | %llu | %llu | %llu | ",
            dist_name(c->dist), c->n_workers, c->batch, completion_name(p, c->chain),
            rbb_mode_name(c->mode), c->rows_per_s, c->backlog_exhausted ? "*" : "",
            c->rows_per_s_min, c->rows_per_s_max, c->pgbench_tps, c->drift_flagged ? "**" : "",
            100 * c->pgbench_drift, c->drift_flagged ? " flagged**" : "",
            c->remeasured ? " again" : "", ratio(c->rows_per_s, c->pgbench_tps), c->tx_per_s,
            ratio(c->tx_per_s, c->pgbench_tps), p50, p99, c->wal_bytes_per_row, c->buffers_per_row,
            (unsigned long long)c->n_empty_claims, (unsigned long long)c->after.n_dead_tup,
            (unsigned long long)(c->after.n_duplicates + c->n_dup_executions),
            (unsigned long long)c->n_lost);
        md_top_waits(f, &c->waits);
        fprintf(f, " |\n");
    }
    target_row t[512];
    if (targets(run, t, 512)) md_targets(f, json_path);
}

void rbb_report_md(FILE *f, const rbb_run *run, const char *json_path) {
    md_header(f, run);
    if (run->stop_signal)
        fprintf(f,
                "**Interrupted** by %s during %s: the figures below are what finished before "
                "it (a part cut short shows as failed); the parts after it did not run.\n\n",
                run->stop_signal == SIGINT ? "SIGINT" : "SIGTERM", run->part);
    md_pgbench(f, run);
    if (run->n_cells) md_throughput(f, run, json_path);
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
    if (run->n_backlog || run->backlog_stop.error[0]) md_backlog(f, run);
    if (run->has_soak) md_soak(f, &run->soak);
    if (run->has_crash) md_crash(f, &run->crash);
    if (run->has_crash_chain) md_crash(f, &run->crash_chain);
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
