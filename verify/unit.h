/*
 * unit.h — what the unit and contract tests of verify/ share (issue 2):
 * failure counting, known-answer vector files, a deterministic PRNG and
 * membership helpers. Test-only; not part of the library.
 *
 * A check that fails prints one line to stderr naming the algorithm (or
 * hash), the case, what it got and what it expected, and counts the failure;
 * tests go on after a failure and rb_unit_finish() prints the summary
 * "N passed, N failed" and gives the exit status. Single-threaded.
 */
#ifndef RINGBENCH_VERIFY_UNIT_H
#define RINGBENCH_VERIFY_UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ringbench/ring.h"

/* rb_unit_eq — count a check of got == expected (unsigned integers). Returns
 * 1 when it passed. `what` names the algorithm or hash, `case_` the input. */
int rb_unit_eq(const char *what, const char *case_, uint64_t got, uint64_t expected);

/* rb_unit_true — count a check of `ok`; on failure print the case and a
 * printf-formatted "got ..., expected ..." explanation. Returns ok. */
int rb_unit_true(const char *what, const char *case_, int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* rb_unit_finish — print "<name>: N passed, N failed" to stdout; returns 0
 * when nothing failed and at least one check ran, else 1. */
int rb_unit_finish(const char *name);

/* rb_unit_failures — failures counted so far. */
unsigned long rb_unit_failures(void);

/*
 * rb_kat_open — open the known-answer file `name` in verify/kat/ (the
 * directory is compiled in as RINGBENCH_KAT_DIR). NULL, with a failure
 * counted, when it cannot be opened.
 */
FILE *rb_kat_open(const char *name);

/*
 * rb_kat_next — next vector line of a tab-separated KAT file: skips blank
 * lines and '#' comments, splits at tabs into fields[0 .. max_fields) (the
 * line buffer is reused: fields are valid until the next call). Returns the
 * number of fields, or -1 at end of file.
 */
int rb_kat_next(FILE *f, char **fields, int max_fields);

/* rb_hex_decode — decode lowercase/uppercase hex `hex` into out (capacity
 * out_size). Returns the byte count, or -1 on a malformed string. */
long rb_hex_decode(const char *hex, unsigned char *out, size_t out_size);

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): a deterministic PRNG for test
 * inputs, so a failing case can be replayed. */
uint64_t rb_unit_rand(uint64_t *state);
/* Uniform in [lo, hi] (hi - lo < 2^32). */
uint32_t rb_unit_rand_range(uint64_t *state, uint32_t lo, uint32_t hi);

/* A membership whose ids live in one buffer: "w<index>-<tag>" style ids
 * chosen by the test. */
typedef struct rb_unit_members {
    rb_member *m;
    size_t n;
    char (*ids)[32];
} rb_unit_members;

/* rb_unit_members_make — n members with ids printf(fmt, i) (fmt takes one
 * unsigned), weight 1. Exits the test on out of memory. */
void rb_unit_members_make(rb_unit_members *ms, size_t n, const char *fmt);
void rb_unit_members_free(rb_unit_members *ms);

/* rb_unit_build — rb_ring_build that counts a failure (printing the detail)
 * when the build fails; returns the ring or NULL. */
rb_ring *rb_unit_build(const rb_algo *a, const rb_config *cfg, const rb_member *m, size_t n,
                       const char *case_);

/* Id of member `idx` of `r` as a NUL-terminated string (ids in the tests are
 * printable), for messages and comparisons by id. */
const char *rb_unit_member_name(const rb_ring *r, uint32_t idx);

#endif
