/*
 * queue/pg_connect.h — a libpq connect that a stop flag ends. PQconnectdb blocks until the
 * server answers or connect_timeout passes; a server that accepts the TCP connection and never
 * answers the startup packet (a hung backend, a proxy in front of a dead server) held `pg
 * worker`, `pg enqueue`, `pg chaos` and `pg bench` past SIGINT and SIGTERM until SIGKILL when no
 * connect_timeout was set. Every connect of the project's commands goes through here
 * (queue.c's sessions, pg chaos's driver, pg bench's driver).
 */
#ifndef RINGBENCH_PG_CONNECT_H
#define RINGBENCH_PG_CONNECT_H

#include <libpq-fe.h>
#include <signal.h>
#include <stddef.h>

/*
 * rb_pg_connect — PQconnectdbParams(kw, val, 1) (so a "dbname" value may be a whole conninfo
 * or URI, and a later "dbname" overrides its database) through libpq's non-blocking connect
 * (PQconnectStartParams, PQconnectPoll), waiting on the socket at most 50 ms at a time.
 * Returns libpq's connection once libpq ends the attempt: CONNECTION_OK, or CONNECTION_BAD with
 * PQerrorMessage (the caller PQfinishes it either way). Returns NULL, with why (why_size bytes,
 * one line) "connection attempt stopped", when *stop (may be NULL: never) becomes non-zero
 * during the attempt; "timeout expired" when the conninfo's connect_timeout (or
 * PGCONNECT_TIMEOUT; seconds, 2 at least, as libpq counts it; here for the whole attempt over
 * every host) passes, or RB_PG_CONNECT_STOPPING_MS when *stop was set before the call (the
 * connect a stopping worker makes to leave and release its rows: it goes ahead, bounded);
 * "out of memory". kw and val are NULL-terminated arrays as libpq's. Thread-safe (one call per
 * PGconn); a signal handler may set *stop from any thread.
 */
#define RB_PG_CONNECT_STOPPING_MS 5000
PGconn *rb_pg_connect(const char *const *kw, const char *const *val,
                      const volatile sig_atomic_t *stop, char *why, size_t why_size);

#endif
