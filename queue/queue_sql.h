/*
 * queue/queue_sql.h — the SQL of the queue, compiled in from queue/sql/ by embed_sql.cmake
 * (private to the queue library).
 *
 *   statements  queue/sql/NAME.sql, one statement each, looked up by NAME
 *               (rb_queue_sql("complete")); a claim is the rows picked
 *               (claim_competing.sql; affinity: claim_affinity.sql over the bucket walk
 *               claim_walk.sql; ordered: claim_run.sql over the walk with the guard
 *               claim_ordered.sql) + claim_lease.sql, joined by queue.c (claim_sql_of).
 *   migrations  queue/sql/migrations/NNN_words.sql in ascending version NNN; `ringbench pg
 *               migrate` runs those above the schema's recorded version (schema_migrations),
 *               all in one transaction. Adding a migration = adding a file: the build globs
 *               the folder (CONFIGURE_DEPENDS), and a duplicate number fails the build.
 *               The text @N_BUCKETS@ in a migration is replaced by the queue's B.
 */
#ifndef RINGBENCH_QUEUE_SQL_H
#define RINGBENCH_QUEUE_SQL_H

#include <stddef.h>

typedef struct rb_queue_sql_text {
    const char *name; /* file name without .sql */
    int version;      /* migrations: NNN; statements: 0 */
    const char *sql;  /* the file's text (NUL-terminated) */
} rb_queue_sql_text;

extern const rb_queue_sql_text rb_queue_sql_statements[];
extern const size_t rb_queue_sql_n_statements;
extern const rb_queue_sql_text rb_queue_sql_migrations[]; /* ascending version */
extern const size_t rb_queue_sql_n_migrations;

/* rb_queue_sql — the text of statement `name`; aborts with a message when no
 * queue/sql/<name>.sql was compiled in (a programming error, caught by any test). */
const char *rb_queue_sql(const char *name);

#endif
