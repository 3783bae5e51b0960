/*
 * pg_connect.c — libpq's non-blocking connect with a stop flag and connect_timeout
 * (pg_connect.h). The loop is libpq's documented one (PostgreSQL manual, "Database Connection
 * Control Functions", PQconnectStartParams): wait for the socket as PQconnectPoll last asked
 * (writable right after the start), call it again, until it says OK or FAILED.
 */
#include "pg_connect.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringbench/common.h"

/* connect_timeout of c's options (conninfo, else PGCONNECT_TIMEOUT) in ms; 0: none. libpq
 * waits at least 2 s when one is set. */
static uint64_t timeout_ms(PGconn *c) {
    PQconninfoOption *opts = PQconninfo(c);
    long s = 0;
    for (PQconninfoOption *o = opts; o && o->keyword; o++)
        if (strcmp(o->keyword, "connect_timeout") == 0 && o->val && *o->val)
            s = strtol(o->val, NULL, 10);
    PQconninfoFree(opts);
    if (s <= 0) return 0;
    return (uint64_t)(s < 2 ? 2 : s) * 1000u;
}

/* Abandon c with reason `what`: NULL. */
static PGconn *give_up(PGconn *c, const char *what, char *why, size_t why_size) {
    PQfinish(c);
    snprintf(why, why_size, "%s", what);
    return NULL;
}

PGconn *rb_pg_connect(const char *const *kw, const char *const *val,
                      const volatile sig_atomic_t *stop, char *why, size_t why_size) {
    PGconn *c = PQconnectStartParams(kw, val, 1);
    if (!c) return give_up(NULL, "out of memory", why, why_size);
    if (PQstatus(c) == CONNECTION_BAD) return c;
    uint64_t limit = timeout_ms(c), now = rb_now_ms(), deadline = limit ? now + limit : 0;
    int stopping = stop && *stop; /* a connect made after the stop (a worker's leave): bounded */
    if (stopping && (!deadline || deadline > now + RB_PG_CONNECT_STOPPING_MS))
        deadline = now + RB_PG_CONNECT_STOPPING_MS;
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
        struct pollfd p = {.fd = PQsocket(c),
                           .events = st == PGRES_POLLING_READING ? POLLIN : POLLOUT};
        for (;;) { /* until the socket is ready, the stop flag or the deadline */
            if (!stopping && stop && *stop)
                return give_up(c, "connection attempt stopped", why, why_size);
            if (deadline && rb_now_ms() >= deadline)
                return give_up(c, "timeout expired", why, why_size);
            int n = poll(&p, 1, 50);
            if (n > 0 || (n < 0 && errno != EINTR)) break; /* ready, or PQconnectPoll says why */
        }
        st = PQconnectPoll(c);
    }
    return c;
}
