/* out.c — rows of named fields as text, CSV or JSON (rb_out, cli.h); JSON through
 * cli/json_out.h, one row object dumped at a time so a million keys are never one tree. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "json_out.h"

/* Separator before a field that is not the first of its row (text, csv). */
static const char *const field_sep[] = {
    [RB_FMT_TEXT] = "\t", [RB_FMT_JSON] = ", ", [RB_FMT_CSV] = ",", [RB_FMT_MD] = " | "};

void rb_out_begin(rb_out *o, FILE *f, rb_format fmt, const char *csv_header,
                  const char *json_bare) {
    *o = (rb_out){.f = f, .fmt = fmt, .json_bare = json_bare};
    if (fmt == RB_FMT_JSON) fputc('[', f);
    if (fmt == RB_FMT_CSV) fprintf(f, "%s\n", csv_header);
}

/* A JSON field: into the row object, or (a bare array) the value itself when it is the
 * json_bare field (other fields are dropped). Steals v. */
static void json_field(rb_out *o, const char *name, json_t *v) {
    if (o->json_bare) {
        if (strcmp(name, o->json_bare) != 0) {
            json_decref(v);
            return;
        }
        json_decref(o->row);
        o->row = v;
        return;
    }
    if (!o->row) o->row = json_object();
    rb_json_set(o->row, name, v);
}

/* Separator of a text or csv field. */
static void text_field_start(rb_out *o) {
    if (o->n_fields++) fputs(field_sep[o->fmt], o->f);
}

void rb_out_str(rb_out *o, const char *name, const void *data, size_t len) {
    if (o->fmt == RB_FMT_JSON) {
        json_field(o, name, rb_json_bytes(data, len));
        return;
    }
    text_field_start(o);
    if (o->fmt == RB_FMT_CSV)
        rb_csv_field(o->f, data, len);
    else
        fwrite(data, 1, len, o->f);
}

void rb_out_u64(rb_out *o, const char *name, uint64_t v) {
    if (o->fmt == RB_FMT_JSON) {
        json_field(o, name, rb_json_u64(v));
        return;
    }
    text_field_start(o);
    fprintf(o->f, "%llu", (unsigned long long)v);
}

void rb_out_row_end(rb_out *o) {
    if (o->fmt == RB_FMT_JSON) {
        const char *sep = !o->n_rows ? "" : o->json_bare ? ", " : ",\n ";
        if (!o->failed && (fputs(sep, o->f) < 0 || rb_json_dump(o->row, o->f)))
            o->failed = errno ? errno : EIO;
        json_decref(o->row);
        o->row = NULL;
    } else {
        fputc('\n', o->f);
    }
    o->n_rows++;
    o->n_fields = 0;
}

int rb_out_end(rb_out *o, const char *cmd) {
    if (o->fmt == RB_FMT_JSON) fputs("]\n", o->f);
    if (!o->failed) return 0; /* a write error is main()'s rb_cli_finish_output's to report */
    return rb_cli_fail(cmd, "writing output: %s", strerror(o->failed));
}
