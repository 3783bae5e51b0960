/*
 * children.c — worker processes of `ringbench pg bench` (children.h): fork a
 * worker, wait until every worker is connected and registered, release them
 * all at once, collect their reports while sampling the server's wait events.
 *
 * Protocol between a worker and the driver (one pipe per worker, binary, the
 * same executable on both ends): a READY rbb_report_head once the worker is
 * registered; the driver closes the shared "go" pipe (EOF releases every
 * worker at the same instant); at the end a FINAL head followed by n_samples
 * rbb_sample records. A worker killed on purpose writes no FINAL head.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"
#include "stats.h"

static int write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int rbb_report_send(int fd, const rbb_report_head *h, const rbb_sample *samples) {
    if (write_all(fd, h, sizeof *h)) return -1;
    if (h->n_samples && write_all(fd, samples, (size_t)h->n_samples * sizeof *samples)) return -1;
    return 0;
}

pid_t rbb_spawn(rbb_child *ch, int go_rfd, int go_wfd,
                void (*body)(void *arg, int go_fd, int report_fd), void *arg) {
    int p[2];
    memset(ch, 0, sizeof *ch);
    ch->fd = -1;
    if (pipe(p) != 0) return -1;
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        /* a driver that dies (SIGKILL, a crash, a second stop signal after the same-stop
         * window) takes its workers along: SIGTERM, their stop (they leave, releasing their
         * rows), not orphans claiming on; a driver already gone before the prctl: leave now */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(1);
        close(p[0]);
        if (go_wfd >= 0) close(go_wfd);
        signal(SIGPIPE, SIG_IGN);
        body(arg, go_rfd, p[1]); /* never returns */
        _exit(1);
    }
    close(p[1]);
    ch->pid = pid;
    ch->fd = p[0];
    return pid;
}

/* Read what is available on ch->fd into its buffer; 1 at EOF, 0 otherwise. */
static int pump(rbb_child *ch) {
    if (ch->len + 65536 > ch->cap) {
        size_t cap = ch->cap ? ch->cap * 2 : 131072;
        while (cap < ch->len + 65536)
            cap *= 2;
        char *b = realloc(ch->buf, cap);
        if (!b) return 1; /* out of memory: treat as EOF, the report is incomplete */
        ch->buf = b;
        ch->cap = cap;
    }
    ssize_t n = read(ch->fd, ch->buf + ch->len, ch->cap - ch->len);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (n <= 0) return 1;
    ch->len += (size_t)n;
    return 0;
}

int rbb_wait_ready(rbb_child *ch, int timeout_ms, char *why, size_t why_size) {
    uint64_t deadline = rb_now_ns() + (uint64_t)timeout_ms * 1000000ull;
    while (ch->len < sizeof(rbb_report_head)) {
        uint64_t now = rb_now_ns();
        if (rbb_stop_signal) return rbb_stop_reason(why, why_size), -1;
        if (now >= deadline) {
            snprintf(why, why_size, "was not ready after %.0f s (a stall?) and was killed",
                     timeout_ms / 1e3);
            return kill(ch->pid, SIGKILL), -1;
        }
        struct pollfd pf = {.fd = ch->fd, .events = POLLIN};
        int rc = poll(&pf, 1, (int)((deadline - now) / 1000000ull) + 1);
        if (rc < 0 && errno == EINTR) continue;
        if (rc < 0) return snprintf(why, why_size, "poll: %s", strerror(errno)), -1;
        if (rc > 0 && pump(ch)) break;
    }
    rbb_report_head h;
    if (ch->len >= sizeof h) memcpy(&h, ch->buf, sizeof h);
    if (ch->len < sizeof h || h.magic != RBB_REPORT_MAGIC || h.kind != RBB_REPORT_READY) {
        snprintf(why, why_size, "ended before it was ready (see its message above)");
        return -1;
    }
    memcpy(ch->worker_id, h.worker_id, sizeof ch->worker_id);
    ch->worker_id[sizeof ch->worker_id - 1] = '\0';
    ch->ready = 1;
    return 0;
}

/* One pg_stat_activity sample of the bench database: every other backend's
 * state as "type:event" (CPU:running when active without a wait event). */
static void sample_waits(PGconn *c, rbb_waits *w) {
    if (!c || PQstatus(c) == CONNECTION_BAD) return; /* lost: libpq's message kept */
    PGresult *r = PQexec(c, "SELECT CASE WHEN state = 'active' AND wait_event IS NULL "
                            "THEN 'CPU:running' ELSE coalesce(wait_event_type, 'none') || ':' || "
                            "coalesce(wait_event, state) END, count(*) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                            "AND backend_type = 'client backend' GROUP BY 1");
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        w->n_samples++;
        for (int i = 0; i < PQntuples(r); i++)
            rbb_waits_add(w, PQgetvalue(r, i, 0), strtoull(PQgetvalue(r, i, 1), NULL, 10));
    }
    PQclear(r);
}

void rbb_waits_add(rbb_waits *w, const char *label, uint64_t n) {
    size_t i;
    for (i = 0; i < w->n; i++)
        if (strcmp(w->label[i], label) == 0) break;
    if (i == w->n) {
        if (w->n == RBB_MAX_WAIT_LABELS) return;
        snprintf(w->label[i], sizeof w->label[i], "%s", label);
        w->count[i] = 0;
        w->n++;
    }
    w->count[i] += n;
    w->n_backend_samples += n;
}

double rbb_overrun_slack_s(double secs) { return 1.0 + secs / 4; }

/* Send sig to every child whose report pipe is still open; kill marks them overran. */
static void signal_open(rbb_child *ch, size_t n, int sig) {
    for (size_t i = 0; i < n; i++) {
        if (ch[i].fd < 0 || ch[i].pid <= 0) continue;
        kill(ch[i].pid, sig);
        if (sig == SIGKILL) ch[i].overran = 1;
    }
}

void rbb_collect(rbb_child *ch, size_t n, PGconn *sampler, rbb_waits *waits, int sample_interval_ms,
                 uint64_t deadline_ns) {
    size_t open = 0;
    for (size_t i = 0; i < n; i++)
        open += ch[i].fd >= 0;
    struct pollfd *pf = calloc(n ? n : 1, sizeof *pf);
    if (!pf) return;
    uint64_t next_sample = rb_now_ns();
    int stop_passed = 0, killed = 0;
    while (open > 0) {
        uint64_t now = rb_now_ns();
        if (rbb_stop_signal && !stop_passed) {
            signal_open(ch, n, SIGTERM);
            stop_passed = 1;
            uint64_t grace = now + (uint64_t)(RBB_STOP_GRACE_S * 1e9);
            if (!deadline_ns || grace < deadline_ns) deadline_ns = grace;
        }
        if (deadline_ns && now >= deadline_ns && !killed) {
            signal_open(ch, n, SIGKILL);
            killed = 1;
        }
        if (sampler && waits && !killed && now >= next_sample) {
            sample_waits(sampler, waits);
            next_sample = rb_now_ns() + (uint64_t)sample_interval_ms * 1000000ull;
        }
        for (size_t i = 0; i < n; i++) { /* poll ignores negative fds */
            pf[i].fd = ch[i].fd;
            pf[i].events = POLLIN;
            pf[i].revents = 0;
        }
        int rc = poll(pf, n, sample_interval_ms);
        if (rc < 0 && errno != EINTR) break;
        for (size_t i = 0; rc > 0 && i < n; i++) {
            if (ch[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (pump(&ch[i])) {
                close(ch[i].fd);
                ch[i].fd = -1;
                open--;
            }
        }
    }
    free(pf);
    for (size_t i = 0; i < n; i++)
        rbb_child_finish(&ch[i]);
}

void rbb_child_finish(rbb_child *ch) {
    if (ch->fd >= 0) {
        while (!pump(ch)) {
        }
        close(ch->fd);
        ch->fd = -1;
    }
    if (ch->pid > 0) {
        int st;
        while (waitpid(ch->pid, &st, 0) < 0 && errno == EINTR) {
        }
        ch->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        ch->exit_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        ch->pid = 0;
    }
    /* Parse: READY head, then FINAL head + samples. */
    size_t off = ch->ready ? sizeof(rbb_report_head) : 0;
    if (!ch->ready && ch->len >= sizeof(rbb_report_head)) off = sizeof(rbb_report_head);
    if (ch->len >= off + sizeof(rbb_report_head)) {
        rbb_report_head h;
        memcpy(&h, ch->buf + off, sizeof h);
        size_t need = off + sizeof h + (size_t)h.n_samples * sizeof(rbb_sample);
        if (h.magic == RBB_REPORT_MAGIC && h.kind == RBB_REPORT_FINAL && ch->len >= need) {
            ch->final = h;
            ch->samples = (const rbb_sample *)(const void *)(ch->buf + off + sizeof h);
            ch->has_final = 1;
        }
    }
}

const char *rbb_child_end(const rbb_child *ch, char *buf, size_t size) {
    const char *report = ch->has_final ? "" : " without a report";
    if (ch->overran)
        snprintf(buf, size, "was still running at its deadline (a stall?) and was killed%s",
                 report);
    else if (ch->exit_signal)
        snprintf(buf, size, "was killed by signal %d (%s)%s", ch->exit_signal,
                 strsignal(ch->exit_signal), report);
    else
        snprintf(buf, size, "exited with status %d%s", ch->exit_status, report);
    return buf;
}

void rbb_child_free(rbb_child *ch) {
    if (ch->fd >= 0) close(ch->fd);
    free(ch->buf);
    memset(ch, 0, sizeof *ch);
    ch->fd = -1;
}

int rbb_spawn_ready(rbb_child *ch, void (*body)(void *arg, int go_fd, int report_fd), void *arg,
                    char *err, size_t err_size) {
    if (rbb_spawn(ch, -1, -1, body, arg) < 0) {
        snprintf(err, err_size, "fork: %s", strerror(errno));
        return -1;
    }
    char why[160];
    if (rbb_wait_ready(ch, RBB_READY_TIMEOUT_MS, why, sizeof why)) {
        if (rbb_stop_signal)
            rbb_stop_reason(err, err_size);
        else
            snprintf(err, err_size, "a worker %s", why);
        kill(ch->pid, SIGKILL);
        return -1;
    }
    return 0;
}
