/*
 * report.h — one table, four formats: the rows the `verify` and `vnodes`
 * commands print go through here, so text, md, csv and json always carry the
 * same columns. Not thread-safe (one report per stream).
 */
#ifndef RINGBENCH_REPORT_H
#define RINGBENCH_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "cli.h"

typedef enum {
    RB_COL_STR, /* string */
    RB_COL_U64, /* unsigned integer */
    RB_COL_F2,  /* double, 2 decimals in text/md (full precision in csv/json) */
    RB_COL_F3,  /* double, 3 decimals in text/md */
    RB_COL_F4,  /* double, 4 decimals in text/md */
} rb_col_kind;

typedef struct rb_col {
    const char *name;  /* csv header / json key, e.g. "add_ratio_mean" */
    const char *label; /* short text/md header, e.g. "add/ideal" */
    int width;         /* text width in characters; 0: csv/json only */
    rb_col_kind kind;
} rb_col;

typedef union rb_cell {
    const char *s;
    uint64_t u;
    double d;
} rb_cell;

/* A missing value: RB_CELL_NONE for RB_COL_U64, NAN for the doubles. Text and
 * md print "-", csv an empty field, json null. */
#define RB_CELL_NONE UINT64_MAX
int rb_cell_missing(rb_col_kind kind, const rb_cell *v);

typedef struct rb_report {
    FILE *f;
    rb_format fmt;
    const rb_col *cols;
    size_t n_cols;
    size_t n_rows;
    json_t *rows; /* json: the rows so far (an array of objects) */
} rb_report;

/* Start a table: text and md print the header, csv the header line; json starts an array
 * (printed by the command, in its document, through cli/json_out.h). */
void rb_report_begin(rb_report *r, FILE *f, rb_format fmt, const rb_col *cols, size_t n_cols);
/* One row of n_cols cells (json: an object keyed by column name; doubles with 9
 * significant digits, as csv). */
void rb_report_row(rb_report *r, const rb_cell *cells);
/* End the table. json: returns the array of rows (a new reference for the caller's
 * document; NULL when out of memory); other formats: NULL, nothing printed. */
json_t *rb_report_end(rb_report *r);

/* A metadata line: text "# key: value", md "- key: value"; json and csv print
 * nothing (the command puts metadata into its json object). */
void rb_report_note(FILE *f, rb_format fmt, const char *fmt_str, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* rb_report_json_meta — the value of a json document's "meta": the machine record of
 * scripts/machine-record (rb_machine_record, cli/machine.h), the one writer of those fields,
 * or null when the script cannot run. A new reference. */
json_t *rb_report_json_meta(void);

#endif
