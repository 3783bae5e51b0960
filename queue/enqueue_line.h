/*
 * queue/enqueue_line.h — one input line of `ringbench pg enqueue`, parsed
 * without a database (so it can be unit-tested and fuzzed on its own).
 *
 * Line format (README, queue/README.md): KEY[<TAB>IDEMPOTENCY_KEY[<TAB>PAYLOAD]].
 * The payload is the rest of the line after the second TAB and may contain
 * TABs itself. One trailing CR (a CRLF file) is dropped. Every field is text:
 * no NUL byte, valid UTF-8 (the server stores text and would reject the whole
 * statement). KEY and IDEMPOTENCY_KEY are non-empty and at most
 * RB_ENQUEUE_FIELD_MAX bytes each (both are btree-indexed; an index entry must
 * fit a third of a page); a line without an idempotency key gets KEY#LINE.
 * Pure functions; thread-safe.
 */
#ifndef RINGBENCH_ENQUEUE_LINE_H
#define RINGBENCH_ENQUEUE_LINE_H

#include <stddef.h>

/* Longest KEY or IDEMPOTENCY_KEY in bytes. Postgres refuses a btree entry
 * over 2,704 bytes (8 kB pages; incompressible text); KEY is indexed with
 * the row id (inbox_unfinished_key) and KEY#LINE, up to 2,021 bytes, is the
 * unique idempotency key, so 2,000 leaves room for both. */
#define RB_ENQUEUE_FIELD_MAX 2000u

/* The fields of one line: pointers into the caller's line, not NUL-terminated. */
typedef struct rb_enqueue_line {
    const char *key;
    size_t key_len;      /* 1 .. RB_ENQUEUE_FIELD_MAX */
    const char *idem;    /* NULL: none given (use KEY#LINE) */
    size_t idem_len;     /* 1 .. RB_ENQUEUE_FIELD_MAX when idem is set */
    const char *payload; /* NULL: none given; may be empty and contain TABs */
    size_t payload_len;
} rb_enqueue_line;

enum {
    RB_ENQUEUE_LINE_ROW = 0,   /* *out holds a row */
    RB_ENQUEUE_LINE_BLANK = 1, /* an empty line (after dropping CR): no row */
};

/*
 * rb_enqueue_line_parse — split line[0 .. len) (without its LF; may be NULL
 * when len is 0) into *out. Returns RB_ENQUEUE_LINE_ROW, RB_ENQUEUE_LINE_BLANK,
 * or -1 with a one-line reason (without the line number) in err[0 .. err_size)
 * for: a NUL byte, invalid UTF-8, an empty KEY, an empty IDEMPOTENCY_KEY field,
 * a KEY or IDEMPOTENCY_KEY over RB_ENQUEUE_FIELD_MAX bytes.
 */
int rb_enqueue_line_parse(const char *line, size_t len, rb_enqueue_line *out, char *err,
                          size_t err_size);

#endif
