/* report.c — one table, four formats (report.h). */
#include "report.h"

#include "json_out.h"
#include "machine.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rb_report_begin(rb_report *r, FILE *f, rb_format fmt, const rb_col *cols, size_t n_cols) {
    *r = (rb_report){.f = f, .fmt = fmt, .cols = cols, .n_cols = n_cols};
    for (size_t c = 0; c < n_cols; c++) {
        if (cols[c].width == 0 && (fmt == RB_FMT_TEXT || fmt == RB_FMT_MD)) continue;
        switch (fmt) {
        case RB_FMT_TEXT:
            fprintf(f, "%s%*s", c ? " " : "", cols[c].width, cols[c].label);
            break;
        case RB_FMT_MD:
            fprintf(f, "| %s ", cols[c].label);
            break;
        case RB_FMT_CSV:
            fprintf(f, "%s%s", c ? "," : "", cols[c].name);
            break;
        case RB_FMT_JSON:
            break;
        }
    }
    if (fmt == RB_FMT_MD) {
        fputs("|\n", f);
        for (size_t c = 0; c < n_cols; c++)
            if (cols[c].width) fputs(cols[c].kind == RB_COL_STR ? "|---" : "|--:", f);
        fputs("|\n", f);
    } else if (fmt == RB_FMT_JSON) {
        r->rows = json_array();
    } else {
        fputc('\n', f);
    }
}

int rb_cell_missing(rb_col_kind kind, const rb_cell *v) {
    if (kind == RB_COL_STR) return 0;
    if (kind == RB_COL_U64) return v->u == RB_CELL_NONE;
    return isnan(v->d);
}

static int decimals(rb_col_kind k) { return k == RB_COL_F2 ? 2 : k == RB_COL_F3 ? 3 : 4; }

void rb_report_row(rb_report *r, const rb_cell *cells) {
    FILE *f = r->f;
    json_t *obj = r->fmt == RB_FMT_JSON ? json_object() : NULL;
    for (size_t c = 0; c < r->n_cols; c++) {
        const rb_col *col = &r->cols[c];
        const rb_cell *v = &cells[c];
        switch (r->fmt) {
        case RB_FMT_TEXT:
        case RB_FMT_MD:
            if (col->width == 0) break;
            fputs(r->fmt == RB_FMT_MD ? "| " : c ? " " : "", f);
            if (col->kind == RB_COL_STR)
                fprintf(f, "%*s", r->fmt == RB_FMT_MD ? 0 : col->width, v->s);
            else if (rb_cell_missing(col->kind, v))
                fprintf(f, "%*s", r->fmt == RB_FMT_MD ? 0 : col->width, "-");
            else if (col->kind == RB_COL_U64)
                fprintf(f, "%*llu", r->fmt == RB_FMT_MD ? 0 : col->width, (unsigned long long)v->u);
            else
                fprintf(f, "%*.*f", r->fmt == RB_FMT_MD ? 0 : col->width, decimals(col->kind),
                        v->d);
            if (r->fmt == RB_FMT_MD) fputc(' ', f);
            break;
        case RB_FMT_CSV:
            if (c) fputc(',', f);
            if (col->kind == RB_COL_STR)
                rb_csv_field(f, v->s, strlen(v->s));
            else if (rb_cell_missing(col->kind, v))
                ; /* empty field */
            else if (col->kind == RB_COL_U64)
                fprintf(f, "%llu", (unsigned long long)v->u);
            else
                fprintf(f, "%.9g", v->d);
            break;
        case RB_FMT_JSON:
            if (col->kind == RB_COL_STR)
                rb_json_set(obj, col->name, rb_json_str(v->s));
            else if (rb_cell_missing(col->kind, v))
                rb_json_set(obj, col->name, json_null());
            else if (col->kind == RB_COL_U64)
                rb_json_set(obj, col->name, rb_json_u64(v->u));
            else
                rb_json_set(obj, col->name, rb_json_sig(v->d, 9));
            break;
        }
    }
    if (r->fmt == RB_FMT_JSON)
        rb_json_push(r->rows, obj);
    else
        fputs(r->fmt == RB_FMT_MD ? "|\n" : "\n", f);
    r->n_rows++;
}

json_t *rb_report_end(rb_report *r) {
    json_t *rows = r->rows;
    r->rows = NULL;
    return rows;
}

void rb_report_note(FILE *f, rb_format fmt, const char *fmt_str, ...) {
    if (fmt != RB_FMT_TEXT && fmt != RB_FMT_MD) return;
    fputs(fmt == RB_FMT_MD ? "- " : "# ", f);
    va_list ap;
    va_start(ap, fmt_str);
    vfprintf(f, fmt_str, ap);
    va_end(ap);
    fputc('\n', f);
}

json_t *rb_report_json_meta(void) {
    char *record = rb_machine_record();
    json_t *v = rb_json_parse(record);
    free(record);
    return v;
}
