/*
 * worker.c — the worker loop (worker.h): claim, run handlers, batched fenced
 * completion, with a keeper thread that heartbeats and extends leases on its
 * own session.
 */
#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ringbench/common.h"
#include "ringbench/error.h"

void rb_worker_options_init(rb_worker_options *o) {
    memset(o, 0, sizeof *o);
    o->poll_us = 20000;
    o->fail_attempts = 1;
}

static void sleep_us(uint64_t us) {
    struct timespec ts = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000L};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

/* ---- the keeper: heartbeats and lease extension on their own schedule ---- */

typedef struct held {
    int64_t id, gen;
    uint64_t deadline_ms; /* local, conservative: the lease surely lasts until then */
    int lost;
} held;

typedef struct keeper {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rb_queue *session; /* the companion: its own connection */
    uint32_t interval_ms, lease_ms;
    held *rows;
    size_t n, cap;
    int stop, paused, dead, failed;
    char error[512];
    uint64_t n_heartbeats, n_extensions;
    uint64_t last_beat_ms; /* send time of the last successful heartbeat */
} keeper;

static void *keeper_main(void *arg) {
    keeper *k = arg;
    int64_t *ids = malloc(sizeof *ids * k->cap), *gens = malloc(sizeof *gens * k->cap);
    unsigned char *kept = malloc(k->cap ? k->cap : 1);
    pthread_mutex_lock(&k->mu);
    if (!ids || !gens || !kept) {
        k->failed = 1;
        snprintf(k->error, sizeof k->error, "keeper: out of memory");
    }
    while (!k->stop && !k->failed && !k->dead) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)k->interval_ms * 1000000u;
        until.tv_sec += (time_t)(ns / 1000000000u);
        until.tv_nsec = (long)(ns % 1000000000u);
        while (!k->stop && pthread_cond_timedwait(&k->cv, &k->mu, &until) != ETIMEDOUT) {
        }
        if (k->stop) break;
        if (k->paused) continue;
        size_t n = k->n;
        for (size_t i = 0; i < n; i++) {
            ids[i] = k->rows[i].id;
            gens[i] = k->rows[i].gen;
        }
        pthread_mutex_unlock(&k->mu);
        uint64_t sent = rb_now_ms();
        int rc = rb_queue_heartbeat(k->session);
        int xrc = rc ? rc : rb_queue_extend_batch(k->session, ids, gens, n, k->lease_ms, kept);
        pthread_mutex_lock(&k->mu);
        k->n_heartbeats += rc == 0;
        if (rc == 0 && sent > k->last_beat_ms) k->last_beat_ms = sent;
        k->n_extensions += n && xrc == 0;
        if (rc == RB_ELOST) {
            k->dead = 1;
            snprintf(k->error, sizeof k->error, "%s", rb_error_detail());
        } else if (rc || xrc) {
            k->failed = 1;
            snprintf(k->error, sizeof k->error, "%s", rb_error_detail());
        } else {
            /* The batch may have changed meanwhile: match by (id, generation). */
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < k->n; j++)
                    if (k->rows[j].id == ids[i] && k->rows[j].gen == gens[i]) {
                        if (kept[i])
                            k->rows[j].deadline_ms = sent + k->lease_ms;
                        else
                            k->rows[j].lost = 1;
                    }
        }
    }
    pthread_mutex_unlock(&k->mu);
    free(ids);
    free(gens);
    free(kept);
    return NULL;
}

static int keeper_start(keeper *k, rb_queue *q, size_t cap) {
    const rb_queue_config *c = rb_queue_config_of(q);
    memset(k, 0, sizeof *k);
    k->lease_ms = c->lease_ms;
    uint32_t third = c->lease_ms / 3 ? c->lease_ms / 3 : 1;
    k->interval_ms = c->heartbeat_ms < third ? c->heartbeat_ms : third;
    k->cap = cap;
    if (!(k->rows = calloc(cap, sizeof *k->rows))) return rb_set_error(RB_ENOMEM, "out of memory");
    int rc = rb_queue_open_companion(q, &k->session);
    if (rc) {
        free(k->rows);
        return rc;
    }
    k->last_beat_ms = rb_now_ms(); /* registration and the first refresh just happened */
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    /* Signals go to the caller's thread, never to this one: a stop handler may then cancel
     * the caller's statement (rb_queue_cancel) knowing it runs beside no other use of it. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int failed = pthread_create(&k->thread, NULL, keeper_main, k);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (failed) {
        rb_queue_close(k->session);
        free(k->rows);
        return rb_set_error(RB_ENOMEM, "cannot start the heartbeat thread");
    }
    return 0;
}

static void keeper_stop(keeper *k) {
    pthread_mutex_lock(&k->mu);
    k->stop = 1;
    pthread_cond_signal(&k->cv);
    pthread_mutex_unlock(&k->mu);
    pthread_join(k->thread, NULL);
    rb_queue_close(k->session); /* a companion: does not leave */
    pthread_mutex_destroy(&k->mu);
    pthread_cond_destroy(&k->cv);
    free(k->rows);
}

/* Hand the claimed rows to the keeper (deadline: the claim's send time + lease). */
static void keeper_hold(keeper *k, const rb_queue_batch *b, uint64_t sent_ms) {
    pthread_mutex_lock(&k->mu);
    k->n = b->n;
    for (size_t i = 0; i < b->n; i++)
        k->rows[i] = (held){b->rows[i].id, b->rows[i].lease_generation, sent_ms + k->lease_ms, 0};
    pthread_mutex_unlock(&k->mu);
}

static void keeper_drop_all(keeper *k) {
    pthread_mutex_lock(&k->mu);
    k->n = 0;
    pthread_mutex_unlock(&k->mu);
}

/* May the handler of held row i start? Not when its lease is lost or may have run out. */
static int keeper_row_ok(keeper *k, size_t i) {
    pthread_mutex_lock(&k->mu);
    int ok = !k->rows[i].lost && !k->dead && rb_now_ms() < k->rows[i].deadline_ms;
    pthread_mutex_unlock(&k->mu);
    return ok;
}

static void keeper_pause(keeper *k, int paused) {
    pthread_mutex_lock(&k->mu);
    k->paused = paused;
    pthread_mutex_unlock(&k->mu);
}

/* Has the keeper heartbeated within two of its intervals? (Not after a stall or
 * a SIGSTOP of the whole process: then the loop checks before acting.) */
static int keeper_fresh(keeper *k) {
    pthread_mutex_lock(&k->mu);
    int fresh = rb_now_ms() - k->last_beat_ms <= 2 * (uint64_t)k->interval_ms;
    pthread_mutex_unlock(&k->mu);
    return fresh;
}

/* A heartbeat by the loop itself (on its own session); RB_ELOST marks the keeper dead. */
static int keeper_beat_now(keeper *k, rb_queue *q) {
    uint64_t sent = rb_now_ms();
    int rc = rb_queue_heartbeat(q);
    pthread_mutex_lock(&k->mu);
    if (rc == 0 && sent > k->last_beat_ms) k->last_beat_ms = sent;
    if (rc == RB_ELOST) {
        k->dead = 1;
        snprintf(k->error, sizeof k->error, "%s", rb_error_detail());
    }
    pthread_mutex_unlock(&k->mu);
    return rc == RB_ELOST ? 0 : rc;
}

/* 0, or RB_ELOST (dead incarnation) / RB_EDB (keeper failed) with the detail set. */
static int keeper_status(keeper *k) {
    pthread_mutex_lock(&k->mu);
    int rc = k->dead ? RB_ELOST : k->failed ? RB_EDB : 0;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", k->error);
    pthread_mutex_unlock(&k->mu);
    return rc ? rb_set_error(rc, "%s", msg) : 0;
}

/* ---- the loop ---- */

typedef struct run {
    rb_queue *q;
    const rb_worker_options *o;
    const rb_worker_hooks *h;
    rb_worker_stats *st;
    keeper k;
    rb_queue_batch next; /* opts->chain: claimed in the transaction of the last completion */
    int have_next;
    uint64_t next_sent; /* rb_now_ms() when that transaction was sent */
} run;

static void event(run *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void event(run *r, const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (r->h && r->h->on_event)
        r->h->on_event(r->h->ctx, r->q, line);
    else
        fprintf(stderr, "ringbench pg worker [%s]: %s\n", rb_queue_worker_id(r->q), line);
}

static int stop_asked(run *r) { return r->h && r->h->should_stop && r->h->should_stop(r->h->ctx); }

/* The sleep after an empty claim, in slices of at most 50 ms that watch the stop: a worker
 * polling every few seconds stopped only when its sleep ended. */
static void poll_nap(run *r, uint64_t us) {
    while (us && !stop_asked(r)) {
        uint64_t slice = us < 50000 ? us : 50000;
        sleep_us(slice);
        us -= slice;
    }
}

/* Membership and housekeeping (the heartbeat itself is the keeper's). */
static int duties(run *r) {
    int changed = 0, rc = rb_queue_refresh_membership(r->q, &changed);
    if (rc && rc != RB_EDB) {
        /* The ring rejected the membership (e.g. a member id it cannot take) or
         * memory ran out: the previous view stays, and the next round tries again. */
        event(r, "membership refresh failed, keeping the previous view: %s", rb_error_detail());
        rc = 0;
    }
    if (rc) return rc;
    if (changed) {
        size_t n_owned;
        rb_queue_owned_buckets(r->q, &n_owned);
        r->st->n_membership_changes++;
        event(r, "membership: %zu live, owns %zu buckets%s", rb_queue_n_live(r->q), n_owned,
              n_owned || rb_queue_config_of(r->q)->mode == RB_CLAIM_COMPETING
                  ? ""
                  : " (none: more members than buckets, or this id hashes like another "
                    "member's under a 32-bit ring hash; `ringbench table` warns of that)");
    }
    rb_queue_housekeeping hk;
    if ((rc = rb_queue_housekeep(r->q, &hk))) return rc;
    if (hk.n_marked_dead) event(r, "housekeeper: marked dead: %s", hk.marked_dead);
    if (hk.n_released || hk.n_failed)
        event(r, "housekeeper: released %zu expired leases, %zu rows out of attempts or claims",
              hk.n_released, hk.n_failed);
    r->st->n_marked_dead += hk.n_marked_dead;
    r->st->n_released += hk.n_released;
    r->st->n_purged += hk.n_purged;
    r->st->n_dead_lettered += hk.n_failed;
    free(hk.marked_dead);
    return 0;
}

/* The simulated handler: sleep work_us; fail the first fail_attempts runs of fail_pct % of rows. */
static int simulated(run *r, const rb_queue_row *row, char *err, size_t err_size) {
    if (r->o->crash_on_key && strcmp(row->partition_key, r->o->crash_on_key) == 0) {
        fflush(NULL);
        raise(SIGKILL); /* a poison row: the handler takes its worker down */
    }
    if (r->o->work_us) sleep_us(r->o->work_us);
    if (!r->o->fail_pct || row->attempts >= r->o->fail_attempts) return 0;
    uint64_t h = rb_hash_xxh3.fn(row->idempotency_key, strlen(row->idempotency_key), 7);
    if (h % 100 >= r->o->fail_pct) return 0;
    snprintf(err, err_size, "injected failure (attempt %u)", row->attempts + 1);
    return 1;
}

/* --stale-probe: every fenced write on the stale rows, and a heartbeat. */
static void stale_probe(run *r, const rb_queue_batch *b) {
    for (size_t i = 0; i < b->n; i++) {
        const rb_queue_row *row = &b->rows[i];
        int rc[3] = {rb_queue_complete(r->q, row, "stale"), rb_queue_release(r->q, row),
                     rb_queue_extend(r->q, row, rb_queue_config_of(r->q)->lease_ms)};
        static const char *const what[] = {"complete", "release", "extend"};
        for (int w = 0; w < 3; w++)
            printf("stale %s id=%lld lease_generation=%lld: %s\n", what[w], (long long)row->id,
                   (long long)row->lease_generation, rc[w] ? rb_strerror(rc[w]) : "ok");
    }
    int rc = rb_queue_heartbeat(r->q);
    printf("stale heartbeat: %s\n", rc ? rb_strerror(rc) : "ok");
    fflush(stdout);
}

/* Release the rows of b from index `from` on whose handler did not start (fenced; a lost
 * lease is fine). */
static void release_rest(run *r, const rb_queue_batch *b, size_t from) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", rb_error_detail());
    for (size_t i = from; i < b->n; i++)
        rb_queue_release(r->q, &b->rows[i]);
    rb_set_error(RB_EDB, "%s", msg); /* keep the reason */
}

/* Ordered mode: row i of b did not run to success (its handler failed, or it was not
 * started): mark the later rows of its key in b (a run, in id order) to be held back, so
 * none of them runs before row i does (queue/README.md, "Ordered mode: runs"). */
static void hold_back_run(run *r, const rb_queue_batch *b, size_t i, unsigned char *back,
                          const char *why) {
    if (rb_queue_config_of(r->q)->mode != RB_CLAIM_ORDERED) return;
    size_t n = 0;
    for (size_t j = i + 1; j < b->n; j++)
        if (!back[j] && strcmp(b->rows[j].partition_key, b->rows[i].partition_key) == 0) {
            back[j] = 1;
            n++;
        }
    if (n)
        event(r,
              "row %lld of key %s %s: the %zu later rows of its key in this batch are released "
              "unrun",
              (long long)b->rows[i].id, b->rows[i].partition_key, why, n);
}

/* Is there a suspect of row j's key before it in batch b? */
static int suspect_before(const rb_queue_batch *b, size_t j) {
    for (size_t i = 0; i < j; i++)
        if (b->rows[i].suspect && strcmp(b->rows[i].partition_key, b->rows[j].partition_key) == 0)
            return 1;
    return 0;
}

/* Put batch b's suspects (rb_queue_row.suspect: a handler started under an earlier lease and
 * never finished, perhaps a poison row that kills its worker) after its other rows, in id
 * order; in ordered mode each with the later rows of its key right behind it (they must not
 * run before it, and need not wait behind another key's suspect: a fresh user saw k1's fresh
 * rows claimed twice behind a poison suspect). Each key's rows stay in id order. Without it a
 * poison row killed its worker at every claim before the rows behind it in its batch ran, and
 * every such claim counted toward their max_row_claims: with two poison rows in a batch of 8 at
 * --max-attempts 1 the innocent rows became dead letters unrun (a fresh user). tmp: scratch for
 * b->n rows. */
static void defer_suspects(run *r, rb_queue_batch *b, rb_queue_row *tmp) {
    int ordered = rb_queue_config_of(r->q)->mode == RB_CLAIM_ORDERED;
    size_t n_suspects = 0, k = 0;
    for (size_t j = 0; j < b->n; j++)
        n_suspects += (size_t)b->rows[j].suspect;
    if (!n_suspects) return;
    for (size_t j = 0; j < b->n; j++)
        if (!b->rows[j].suspect && !(ordered && suspect_before(b, j))) tmp[k++] = b->rows[j];
    size_t n_first = k;
    for (size_t s = 0; s < b->n; s++) {
        if (!b->rows[s].suspect || (ordered && suspect_before(b, s))) continue;
        for (size_t j = s; j < b->n; j++) /* the suspect, and in ordered mode its key's run */
            if (j == s ||
                (ordered && strcmp(b->rows[j].partition_key, b->rows[s].partition_key) == 0))
                tmp[k++] = b->rows[j];
    }
    memcpy(b->rows, tmp, b->n * sizeof *tmp);
    event(r,
          "%zu of %zu rows are suspects (a handler started under an earlier lease and never "
          "finished: a crash or a stall); the last %zu rows run after the others, from row "
          "%lld of key %s",
          n_suspects, b->n, b->n - n_first, (long long)b->rows[n_first].id,
          b->rows[n_first].partition_key);
}

/* Complete row (its handler succeeded with effect) in its own transaction; counts into info.
 * 0 (done, or the lease was lost: counted), or the error. */
static int complete_now(run *r, const rb_queue_row *row, const char *effect,
                        rb_worker_batch_info *info) {
    int c = rb_queue_complete(r->q, row, effect);
    r->st->n_complete_tx++;
    if (c == 0)
        info->n_done++;
    else if (c == RB_ELOST) {
        info->n_lost++;
        event(r, "%s", rb_error_detail());
    }
    return c == RB_ELOST ? 0 : c;
}

/* Count a completion of ok_rows[0 .. n) that committed n_done of them (done[i]: row i). */
static void count_completed(run *r, const rb_queue_row *ok_rows, size_t n,
                            const unsigned char *done, size_t n_done, rb_worker_batch_info *info) {
    info->n_done += n_done;
    info->n_lost += n - n_done;
    for (size_t i = 0; i < n; i++)
        if (!done[i])
            event(r, "complete of row %lld (lease_generation %lld): lease lost",
                  (long long)ok_rows[i].id, (long long)ok_rows[i].lease_generation);
}

/* Complete ok_rows[0 .. n) (handlers succeeded, in the order they ran: each key's in id order)
 * with their effects: one transaction (rb_queue_complete_batch), or one per row under
 * opts.complete_each. 0 or the error. Called at the end of a batch, before a suspect starts
 * (defer_suspects), and at once after a re-claimed row (row->claims > 1)
 * succeeded, with the rows before it: such a row's batch may hold the row that killed the last
 * worker, and completed only at the end, the rows before that poison row were started at every
 * claim and never completed, so they ran out of attempts beside it (a fresh user: innocent
 * rows 1-2 before the poison in a batch of 4, dead letters with it). The rows before it are
 * completed with it, never after it, so ordered mode's runs still complete in id order. */
static int complete_ok(run *r, const rb_queue_row *ok_rows, size_t n, const char **effects,
                       unsigned char *done, rb_worker_batch_info *info) {
    int crc = 0;
    if (r->o->complete_each) {
        for (size_t i = 0; i < n && !crc; i++)
            crc = complete_now(r, &ok_rows[i], effects[i], info);
        return crc;
    }
    size_t n_done = 0;
    crc = rb_queue_complete_batch(r->q, ok_rows, n, effects, done, &n_done);
    r->st->n_complete_tx++;
    if (!crc) count_completed(r, ok_rows, n, done, n_done, info);
    return crc;
}

/* Run the handlers of one claimed batch and complete it. Sets *stop_now when a
 * stop condition came up between rows. back[b->n]: scratch for hold_back_run. */
static int run_batch(run *r, rb_queue_batch *b, rb_worker_batch_info *info, const char **effects,
                     unsigned char *done, rb_queue_row *ok_rows, unsigned char *back,
                     int *stop_now) {
    size_t n_ok = 0;
    uint64_t t0 = rb_now_ns();
    int rc = 0;
    memset(back, 0, b->n);
    for (size_t i = 0; i < b->n; i++) {
        const rb_queue_row *row = &b->rows[i];
        /* After a pause of the whole process the keeper has not spoken for a while:
         * learn whether this incarnation is still alive before acting. */
        if (!keeper_fresh(&r->k) && (rc = keeper_beat_now(&r->k, r->q))) {
            release_rest(r, b, i);
            break;
        }
        if ((rc = keeper_status(&r->k)) || stop_asked(r)) {
            if (!rc) *stop_now = 1;
            /* A dead incarnation does not act again, not even to release. */
            for (size_t j = i; j < b->n && rc != RB_ELOST; j++)
                if (rb_queue_release(r->q, &b->rows[j]) == 0) info->n_skipped++;
            break;
        }
        if (back[i]) { /* an older row of its key in this batch did not run: not before it */
            int rrc = rb_queue_release(r->q, row); /* fenced: a no-op when no longer ours */
            if (rrc && rrc != RB_ELOST) {
                rc = rrc;
                release_rest(r, b, i + 1);
                break;
            }
            info->n_held_back++;
            continue;
        }
        if (!keeper_row_ok(&r->k, i)) {
            info->n_skipped++;
            event(r,
                  "row %lld (lease_generation %lld): lease lost or may have expired; handler "
                  "not started",
                  (long long)row->id, (long long)row->lease_generation);
            rb_queue_release(r->q, row); /* fenced: a no-op when it is no longer ours */
            hold_back_run(r, b, i, back, "was not started");
            continue;
        }
        /* A suspect may kill this worker: what ran before it is completed first, or a
         * first claim's successful rows would run again (a fresh user: done with 2 claims). */
        if (row->suspect && n_ok) {
            rc = complete_ok(r, ok_rows, n_ok, effects, done, info);
            n_ok = 0;
            if (rc) {
                release_rest(r, b, i);
                break;
            }
        }
        /* A row claimed before may have killed its worker: charge the start first. */
        if (row->claims > 1 && (rc = rb_queue_start(r->q, row))) {
            if (rc != RB_ELOST) {
                release_rest(r, b, i);
                break;
            }
            rc = 0;
            info->n_skipped++;
            event(r, "%s; handler not started", rb_error_detail());
            hold_back_run(r, b, i, back, "was not started");
            continue;
        }
        r->st->n_handler_runs++;
        char err[256] = "";
        const char *effect = rb_queue_worker_id(r->q);
        int failed = r->h && r->h->handle ? r->h->handle(r->h->ctx, row, &effect, err, sizeof err)
                                          : simulated(r, row, err, sizeof err);
        if (!failed) {
            ok_rows[n_ok] = *row;
            effects[n_ok++] = effect;
            if (row->claims > 1) { /* see complete_ok */
                rc = complete_ok(r, ok_rows, n_ok, effects, done, info);
                n_ok = 0;
                if (rc) {
                    release_rest(r, b, i + 1);
                    break;
                }
            }
            continue;
        }
        int frc = rb_queue_fail(r->q, row, err[0] ? err : "handler failed", 0);
        if (frc == 0) {
            info->n_failed++;
            hold_back_run(r, b, i, back, "failed");
        } else if (frc == RB_ELOST) {
            info->n_lost++;
            event(r, "%s", rb_error_detail());
            hold_back_run(r, b, i, back, "failed and its lease was lost");
        } else {
            rc = frc;
            release_rest(r, b, i + 1);
            break;
        }
    }
    info->handler_ns = rb_now_ns() - t0;
    /* Complete what ran, even when stopping: their effects must not be lost. */
    uint64_t t1 = rb_now_ns();
    int crc = 0;
    if (n_ok && r->o->chain && !r->o->complete_each && !rc && !*stop_now) {
        /* the completion and the next claim share one transaction (one commit) */
        size_t n_done = 0;
        int chained = 0;
        r->next_sent = rb_now_ms();
        crc = rb_queue_complete_and_claim(r->q, ok_rows, n_ok, effects, done, &n_done, &r->next,
                                          &chained);
        r->have_next = crc == 0;
        r->st->n_chained += (uint64_t)chained;
        r->st->n_complete_tx++;
        if (!crc) count_completed(r, ok_rows, n_ok, done, n_done, info);
    } else if (n_ok)
        crc = complete_ok(r, ok_rows, n_ok, effects, done, info);
    info->complete_ns = n_ok ? rb_now_ns() - t1 : 0;
    return rc ? rc : crc;
}

/* Is there nothing left for --until-empty? */
static int queue_empty(run *r, int *empty) {
    rb_queue_counts c;
    int rc = rb_queue_counts_get(r->q, &c);
    if (rc) return rc;
    const rb_queue_config *cfg = rb_queue_config_of(r->q);
    int64_t blocked = cfg->mode == RB_CLAIM_ORDERED && !cfg->ordered_skip_failed ? c.n_blocked : 0;
    *empty = c.n_pending - blocked <= 0 && c.n_claimed == 0;
    return 0;
}

static int loop(run *r) {
    const rb_worker_options *o = r->o;
    const rb_queue_config *cfg = rb_queue_config_of(r->q);
    rb_worker_stats *st = r->st;
    size_t batch = cfg->batch;
    const char **effects = calloc(batch, sizeof *effects);
    unsigned char *done = calloc(batch, 1);
    rb_queue_row *ok_rows = calloc(batch, sizeof *ok_rows);
    unsigned char *back = calloc(batch, 1);
    rb_queue_row *order = calloc(batch, sizeof *order);
    int rc =
        effects && done && ok_rows && back && order ? 0 : rb_set_error(RB_ENOMEM, "out of memory");
    uint64_t start = rb_now_ms(), last_duties = start, last_row = start;
    rb_queue_batch b = {0};
    while (!rc) {
        uint64_t now = rb_now_ms();
        if (stop_asked(r)) break;
        if ((rc = keeper_status(&r->k))) break;
        if (o->duration_ms && now - start >= o->duration_ms) break;
        if (o->max_claims && st->n_claims >= o->max_claims) break;
        if (o->idle_ms && now - last_row >= o->idle_ms) {
            event(r, "idle for %u ms: stopping", o->idle_ms);
            break;
        }
        if (now - last_duties >= cfg->heartbeat_ms) {
            if ((rc = duties(r))) break;
            last_duties = now;
        }
        rb_worker_batch_info info = {0};
        uint64_t sent = rb_now_ms(), t0 = rb_now_ns();
        if (r->have_next) { /* claimed with the last completion: not timed */
            b = r->next;
            memset(&r->next, 0, sizeof r->next);
            r->have_next = 0;
            sent = r->next_sent;
        } else {
            if ((rc = rb_queue_claim(r->q, &b))) break;
            info.claim_ns = rb_now_ns() - t0;
            info.claim_timed = 1;
        }
        info.n_claimed = b.n;
        if (b.n == 0) {
            st->n_empty_claims++;
            if (r->h && r->h->on_batch) r->h->on_batch(r->h->ctx, &info);
            if (o->until_empty) {
                int empty = 0;
                if ((rc = queue_empty(r, &empty)) || empty) break;
            }
            poll_nap(r, o->poll_us);
            continue;
        }
        last_row = rb_now_ms();
        defer_suspects(r, &b, order);
        keeper_hold(&r->k, &b, sent);
        st->n_claims++;
        st->n_rows_claimed += b.n;
        for (size_t i = 0; i < b.n; i++)
            st->n_rows_aged += (uint64_t)b.rows[i].aged;
        if (b.n > st->max_claim_rows) st->max_claim_rows = b.n;
        if (o->exit_after_claim) {
            event(r, "fault: exiting with %zu claimed rows, no completion, no leave", b.n);
            break;
        }
        if (o->stall_after_claim_ms) {
            event(r, "fault: stalling %u ms holding %zu rows (lease %u ms), no heartbeats",
                  o->stall_after_claim_ms, b.n, cfg->lease_ms);
            keeper_pause(&r->k, 1);
            sleep_us((uint64_t)o->stall_after_claim_ms * 1000u);
            keeper_pause(&r->k, 0);
            if (o->stale_probe) {
                stale_probe(r, &b);
                break;
            }
        }
        int stop_now = 0;
        rc = run_batch(r, &b, &info, effects, done, ok_rows, back, &stop_now);
        keeper_drop_all(&r->k);
        st->n_completed += info.n_done;
        st->n_failed += info.n_failed;
        st->n_lost += info.n_lost;
        st->n_skipped += info.n_skipped;
        st->n_held_back += info.n_held_back;
        if (r->h && r->h->on_batch) r->h->on_batch(r->h->ctx, &info);
        rb_queue_batch_free(&b);
        if (stop_now) break;
    }
    if (rc && rc != RB_ENOMEM && rc != RB_ELOST && b.n) release_rest(r, &b, 0);
    rb_queue_batch_free(&b);
    /* A chained claim not yet started (a stop came first): give its rows back, fenced. */
    for (size_t i = 0; r->have_next && rc != RB_ELOST && i < r->next.n; i++)
        rb_queue_release(r->q, &r->next.rows[i]);
    rb_queue_batch_free(&r->next);
    free(effects);
    free(done);
    free(ok_rows);
    free(back);
    free(order);
    st->elapsed_ms = rb_now_ms() - start;
    return rc;
}

int rb_worker_run(rb_queue *q, const rb_worker_options *opts, const rb_worker_hooks *hooks,
                  rb_worker_stats *stats) {
    memset(stats, 0, sizeof *stats);
    run r = {q, opts, hooks, stats, {0}, {0}, 0, 0};
    int rc = rb_queue_registered(q) ? 0 : rb_queue_register(q);
    if (!rc) rc = duties(&r);
    if (rc) return rc;
    if (hooks && hooks->on_ready) {
        if (hooks->on_ready(hooks->ctx, q)) return 0;
        /* It may have waited (a benchmark's start signal) while other workers registered:
         * see them before the first claim, not a heartbeat interval later. */
        if ((rc = duties(&r))) return rc;
    }
    if ((rc = keeper_start(&r.k, q, rb_queue_config_of(q)->batch))) return rc;
    rc = loop(&r);
    int exit_after_claim = opts->exit_after_claim && stats->n_claims > 0;
    keeper_stop(&r.k);
    stats->n_heartbeats = r.k.n_heartbeats;
    stats->n_extensions = r.k.n_extensions;
    if (exit_after_claim) rb_queue_abandon(q);
    if (rc == RB_ELOST) {
        /* This incarnation is over: it must not leave (the id may be another's now). */
        char msg[512];
        snprintf(msg, sizeof msg, "%s", rb_error_detail());
        rb_queue_abandon(q);
        rb_set_error(RB_ELOST, "%s", msg);
    }
    return rc;
}
