/*
 * queue/conninfo_redact.h — a libpq conninfo with its secrets hidden, for
 * error messages. Every place that prints a conninfo goes through
 * rb_conninfo_redact (queue.c; nothing else prints one).
 *
 * What is hidden (replaced by "***"):
 *   - key=value form: the value of `password` and `sslpassword` (any case), quoted or not,
 *     with backslash escapes, up to its end (also an unterminated quote);
 *     and the whole value of `dbname` when that value is itself a conninfo or
 *     URI holding a secret (libpq expands dbname in some paths);
 *   - URI form (postgresql:// or postgres://, any case): the password of the
 *     user info (`user:***@host`; the user stays: from the first ':' to the
 *     last '@' of the string, a superset of libpq's reading), and the value of
 *     every query parameter whose name, after
 *     percent-decoding, is `password` or `sslpassword`, or that libpq does not know;
 *   - both forms: the value of a keyword libpq does not know (a mistyped `passwrd`).
 * Nothing else changes, so the message still says which host and user.
 * Pure; thread-safe.
 */
#ifndef RINGBENCH_CONNINFO_REDACT_H
#define RINGBENCH_CONNINFO_REDACT_H

#include <stddef.h>

/*
 * rb_conninfo_redact — write the redacted `conninfo` (NUL-terminated; NULL
 * is treated as "") into out[0 .. out_size), truncated to fit and always
 * NUL-terminated when out_size >= 1. Returns `out`.
 */
char *rb_conninfo_redact(const char *conninfo, char *out, size_t out_size);

/*
 * rb_conninfo_redact_message — copy libpq's error message `msg` about
 * `conninfo` (both NUL-terminated; NULL is "") into out[0 .. out_size) with
 * every occurrence of a text that rb_conninfo_redact hides in `conninfo`
 * replaced by "***": libpq's parse errors echo the whole URI or a token of it
 * (`invalid percent-encoded token: "pass%zz"`). Same truncation as above.
 */
char *rb_conninfo_redact_message(const char *conninfo, const char *msg, char *out, size_t out_size);
/*
 * rb_conninfo_parse_error — libpq's message about a conninfo it could not parse, for a message
 * that does not echo the conninfo (a string libpq cannot parse cannot be told apart into
 * keywords and values, so its secrets cannot be found): every double-quoted part of `msg`
 * becomes "***" unless it is "=" or a keyword as typed in `conninfo` (at its start or after
 * white space, followed by '='): `invalid connection option "passwrd"` keeps the mistyped
 * keyword, `missing "=" after "password hunter2"` hides the text. Same truncation as above.
 */
char *rb_conninfo_parse_error(const char *conninfo, const char *msg, char *out, size_t out_size);
/*
 * rb_conninfo_check — can libpq parse `conninfo` (keywords or URI; NULL or "" is fine: the PG*
 * defaults)? 0, or -1 with `out` (out_size bytes, one line) set to "bad conninfo (not shown):
 * " and rb_conninfo_parse_error's message. Thread-safe; connects to nothing.
 */
int rb_conninfo_check(const char *conninfo, char *out, size_t out_size);

#endif
