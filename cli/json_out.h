/*
 * json_out.h — the one way the command line writes JSON: documents are built as jansson
 * trees (libjansson, Debian libjansson-dev; objects keep the order their keys were set in)
 * and written by rb_json_emit, never by printf. The library (libringbench) does not use it.
 *
 * Numbers keep the precision the outputs have always had: rb_json_fixed(x, 1) is the number
 * "%.1f" printed, rb_json_sig(x, 6) the number "%.6g" printed, rb_json_fixed(x, 0) an
 * integer; every real is rounded through that decimal text and written with 15 significant
 * digits, so a value reads back exactly as it was rounded (0.3 is written 0.3, not
 * 0.29999999999999999) as long as that text has at most 15 significant digits (every figure
 * the commands write: 1e11 rows/s with 4 decimals would be the first to lose). A non-finite
 * double is written null.
 *
 * Building: the constructors return a new reference, or NULL when out of memory;
 * rb_json_set and rb_json_push steal the value (NULL allowed) and remember a failure, which
 * the next rb_json_emit reports as ENOMEM, so a document missing a field is never written.
 * Not thread-safe (the failure flag is one per process; the CLI is single-threaded).
 */
#ifndef RINGBENCH_CLI_JSON_OUT_H
#define RINGBENCH_CLI_JSON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* rb_json_fixed — x rounded to `decimals` places (0..9), as "%.*f" prints it; decimals 0
 * gives an integer. NaN and infinities give null. */
json_t *rb_json_fixed(double x, int decimals);
/* rb_json_sig — x rounded to `digits` significant digits (1..15), as "%.*g" prints it. */
json_t *rb_json_sig(double x, int digits);
/* rb_json_u64 — an unsigned integer, written with its exact digits up to 2^64 - 1. Above
 * 2^63 - 1 (beyond jansson's json_int_t) it is a private object that only rb_json_emit and
 * rb_json_dump write as a number: do not hand such a tree to jansson's own dump functions. */
json_t *rb_json_u64(uint64_t v);
/* rb_json_bytes — bytes as a JSON string: valid UTF-8 is kept as is; each byte of an
 * invalid sequence becomes the character U+00XX of its value (what "\u00XX" read back
 * gives). That form is lossy (0xFF and the UTF-8 of U+00FF read back the same), so the
 * commands refuse user bytes that are not UTF-8 under --format json (cmd_ring.c
 * json_text_check, pg worker --id) and this fallback only keeps a stray byte (a path) from
 * failing the whole document. */
json_t *rb_json_bytes(const void *data, size_t len);
/* rb_json_str — a NUL-terminated string (rb_json_bytes of it); NULL gives null. */
json_t *rb_json_str(const char *s);
/* rb_json_parse — the value of a JSON text (e.g. the machine record); null when text is
 * NULL or does not parse. */
json_t *rb_json_parse(const char *text);

/* rb_json_set — obj[key] = v (steals v). rb_json_push — append v to array arr (steals v). */
void rb_json_set(json_t *obj, const char *key, json_t *v);
void rb_json_push(json_t *arr, json_t *v);

/* Layouts of rb_json_emit. RB_JSON_LINE: the whole value on one line ({"a": 1, "b": [2]}).
 * RB_JSON_TOP_LINES: an object with each member on its own line, an array member of objects
 * with one element per line, everything deeper on one line (readable diffs of the
 * published files without one line per number). */
enum { RB_JSON_LINE = 0, RB_JSON_TOP_LINES = 1 };

/*
 * rb_json_emit — write doc and a newline to f (doc is released: the reference is stolen;
 * NULL is a failure). 0 when written; -1 with errno set (ENOMEM: building or dumping ran
 * out of memory; a write error's errno; EIO when f has its error flag set) — nothing is
 * printed, and the caller reports one line. f is flushed; it is not closed.
 */
int rb_json_emit(json_t *doc, FILE *f, int layout);

/*
 * rb_json_dump — write v on one line, no newline, not flushed: the piece of a streamed
 * writer (rb_out). 0; -1 with errno set when building v failed (ENOMEM, as rb_json_emit) or
 * the dump failed. Does not release v.
 */
int rb_json_dump(const json_t *v, FILE *f);

/*
 * rb_json_write_file — rb_json_emit into a new file at `path` (created or truncated), then
 * close it. 0, or prints "ringbench CMD: cannot write PATH: reason" on stderr and returns
 * RB_EXIT_FAILURE (1); doc is released either way.
 */
int rb_json_write_file(const char *cmd, const char *path, json_t *doc, int layout);

/*
 * rb_json_write_stdout — rb_json_emit to stdout. 0, or prints "ringbench CMD: writing
 * output: reason" and returns RB_EXIT_FAILURE (main() then adds no second line).
 */
int rb_json_write_stdout(const char *cmd, json_t *doc, int layout);

#endif
