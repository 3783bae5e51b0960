/*
 * cli.h — what every `ringbench` command shares: the command table, exit
 * codes, option parsing, member lists, key input and output formats.
 *
 * Conventions (README, "Command line"):
 *   - data to stdout, progress and diagnostics to stderr;
 *   - bad arguments or input: one line "ringbench CMD: message" on stderr,
 *     exit RB_EXIT_USAGE (2); runtime failure: exit RB_EXIT_FAILURE (1);
 *   - --format text|json|csv (and md where a command offers it).
 * Not thread-safe (the CLI is single-threaded).
 */
#ifndef RINGBENCH_CLI_H
#define RINGBENCH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ringbench/ring.h"
#include "ringbench/utf8.h"

#define RB_EXIT_OK 0
#define RB_EXIT_FAILURE 1
#define RB_EXIT_USAGE 2

/* A subcommand: argv[0] is the command name; returns an RB_EXIT_* code. */
typedef struct rb_command {
    const char *name;
    const char *summary; /* one line for `ringbench --help` */
    int (*run)(int argc, char **argv);
} rb_command;

/* Output formats. */
typedef enum { RB_FMT_TEXT, RB_FMT_JSON, RB_FMT_CSV, RB_FMT_MD } rb_format;

/*
 * rb_cli_usage_error — print "ringbench CMD: <message>" to stderr and return
 * RB_EXIT_USAGE. rb_cli_fail does the same and returns RB_EXIT_FAILURE.
 */
int rb_cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int rb_cli_fail(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Argument parsing shared by every command. Options ("--name", "--name VALUE")
 * may stand anywhere among the positional arguments; "--" ends the options
 * (everything after it is positional, e.g. a key "--x"); "--help" or "-h"
 * prints the command's help. Any other argument, including "-" and "-5", is
 * positional.
 *
 * rb_cli_opt_fn — a command's option handler, called with argv[*i] an option.
 * Consumes it (and its value, advancing *i): returns 1 when consumed, 0 when
 * it is not an option of this command, -1 after printing a usage error.
 */
typedef int (*rb_cli_opt_fn)(const char *cmd, void *ctx, int argc, char **argv, int *i);

#define RB_CLI_CONTINUE (-1) /* parsing succeeded: run the command */

/*
 * rb_cli_parse_args — parse argv[1 .. argc) of command `cmd` with `opt`
 * (may be NULL: no options). `help` is a NULL-terminated list of strings
 * printed in order for --help. Positional arguments are moved, in order, to
 * argv[1 .. 1 + *n_pos) (argv is permuted in place). Returns RB_CLI_CONTINUE,
 * RB_EXIT_OK after printing help, or RB_EXIT_USAGE after a usage error (an
 * unknown option, a missing value, an option given twice), or
 * RB_EXIT_FAILURE when out of memory.
 */
int rb_cli_parse_args(const char *cmd, const char *const *help, rb_cli_opt_fn opt, void *ctx,
                      int argc, char **argv, int *n_pos);

/*
 * rb_cli_opt_value — the value of option argv[*i] (advancing *i past it), or
 * NULL after printing "OPTION needs a value".
 */
const char *rb_cli_opt_value(const char *cmd, int argc, char **argv, int *i);

/*
 * rb_cli_nonempty — 0 when the value v of option opt is not empty, else RB_EXIT_USAGE after
 * printing "OPT: empty value (omit it for the default)": an empty name, path or conninfo is
 * a mistake (`--db "$DB"` with DB unset took libpq's defaults, perhaps another server).
 */
int rb_cli_nonempty(const char *cmd, const char *opt, const char *v);

/*
 * rb_cli_format_option — handle "--format F" at argv[*i] like an rb_cli_opt_fn:
 * 1 consumed (*fmt set), 0 not --format, -1 usage error printed (md accepted
 * only when allow_md).
 */
int rb_cli_format_option(const char *cmd, int allow_md, rb_format *fmt, int argc, char **argv,
                         int *i);

/* Help line of --format for text|json|csv commands. */
extern const char rb_cli_format_help[];

/*
 * rb_cli_out_dir — the output folder `path` of option `opt` (e.g. "--out"):
 * created with its parents when missing (mkdir -p) and checked to be a
 * writable folder, before the command does any work. 0, or prints
 * "ringbench CMD: cannot create --out folder 'P': <reason>" and returns
 * RB_EXIT_USAGE (exit 2: the folder named cannot be one). A folder that
 * exists must be empty ("ringbench CMD: --out folder 'P' is not empty (it
 * holds 'F'): ...", exit 2): a run never overwrites or mixes with an earlier
 * one's files. *made (may be NULL) records what it created, for
 * rb_cli_out_dir_undo. Every command with
 * an output folder uses it (pg bench, pg chaos).
 */
/* rb_cli_folder_entry — 1 and the name of an entry of folder `path` (not "." or "..") into
 * name[size]; 0 when the folder is empty, missing or unreadable. */
int rb_cli_folder_entry(const char *path, char *name, size_t size);
#define RB_CLI_OUT_MADE_MAX 64
typedef struct rb_cli_out_made {
    char path[4096];                      /* the folder asked for */
    size_t made_len[RB_CLI_OUT_MADE_MAX]; /* the prefixes of path it created, outermost first */
    size_t n_made;
} rb_cli_out_made;
int rb_cli_out_dir(const char *cmd, const char *opt, const char *path, rb_cli_out_made *made);
/* rb_cli_out_dir_undo — a command that fails before it writes anything (no server) removes
 * the folders rb_cli_out_dir made (*m: its record, emptied), innermost first, each only when
 * empty: exactly those it created ("new" of "new/../old"), never one that existed. No error
 * (a folder not removed stays). rb_cli_out_dir undoes its own when it refuses the folder. */
void rb_cli_out_dir_undo(rb_cli_out_made *m);

/*
 * rb_cli_finish_output — flush stdout and check it for a write error (closed
 * or full): 0 when all output was written, else prints "ringbench CMD:
 * writing output: <reason>" and returns RB_EXIT_FAILURE. main() calls it
 * after every command that succeeded.
 */
int rb_cli_finish_output(const char *cmd);

/*
 * rb_out — rows of named fields written as text (tab-separated, no header),
 * CSV (header line, RFC 4180 fields) or JSON (an array of objects, one per
 * row and line; or, with json_bare set, an array of the single field named
 * json_bare, e.g. `table`'s array of member ids). Usage: rb_out_begin, then
 * per row rb_out_str / rb_out_u64 for each field and rb_out_row_end, then
 * rb_out_end. Every row must give the same fields in the same order. JSON goes
 * through cli/json_out.h (jansson), one row at a time (cli/out.c).
 */
typedef struct rb_out {
    FILE *f;
    rb_format fmt;
    const char *json_bare; /* NULL: rows are objects */
    size_t n_rows;         /* rows ended so far */
    size_t n_fields;       /* fields written in the current row (text, csv) */
    struct json_t *row;    /* json: the current row (object, or the bare value) */
    int failed;            /* json: errno of the first row not built or written, else 0 */
} rb_out;

/* `csv_header` is the CSV header line without newline (e.g. "key,hash"). */
void rb_out_begin(rb_out *o, FILE *f, rb_format fmt, const char *csv_header, const char *json_bare);
void rb_out_str(rb_out *o, const char *name, const void *data, size_t len);
void rb_out_u64(rb_out *o, const char *name, uint64_t v);
void rb_out_row_end(rb_out *o);
/* rb_out_end — close the output: 0, or prints "ringbench CMD: writing output: reason" and
 * returns RB_EXIT_FAILURE when a JSON row could not be built or written (a plain write error
 * is left to rb_cli_finish_output). */
int rb_out_end(rb_out *o, const char *cmd);

/*
 * rb_cli_parse_format — "text", "json", "csv" (and "md" when allow_md) into
 * *out. 0 on success, -1 on an unknown name (nothing printed).
 */
int rb_cli_parse_format(const char *s, int allow_md, rb_format *out);

/*
 * rb_cli_whole — the one reader of whole numbers on the command line: `s`
 * must be decimal digits only (no sign, spaces or trailing bytes). Returns 0
 * with *out set when its value is in [min, max]; RB_CLI_NOT_WHOLE when s is
 * not a whole number; RB_CLI_OUT_OF_RANGE when it is one but outside
 * [min, max], including past 2^64 - 1 ("99999999999999999999"). Prints
 * nothing; *out untouched on failure.
 */
#define RB_CLI_NOT_WHOLE (-1)
#define RB_CLI_OUT_OF_RANGE (-2)
int rb_cli_whole(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * rb_cli_whole_message — the message for rb_cli_whole's failure `rc` on `s`,
 * for the value called `what` (an option name, "--eps item 2", "member 1
 * weight"), into buf (snprintf rules; returns the length needed):
 *   RB_CLI_NOT_WHOLE:    "WHAT must be a whole number from MIN to MAX, got 'S'"
 *   RB_CLI_OUT_OF_RANGE: "WHAT: S is out of range (MIN..MAX)"
 * The range printed is the range checked: callers pass the same min and max
 * to both, so the message cannot name another option's range.
 */
size_t rb_cli_whole_message(const char *what, const char *s, int rc, uint64_t min, uint64_t max,
                            char *buf, size_t size);

/*
 * rb_cli_u64_arg / rb_cli_u32_arg — rb_cli_whole of `s` in [min, max] into
 * *out: 0, or prints "ringbench CMD: <rb_cli_whole_message>" and returns -1
 * (exit 2). Every whole-number option of the CLI goes through these.
 */
int rb_cli_u64_arg(const char *cmd, const char *what, const char *s, uint64_t min, uint64_t max,
                   uint64_t *out);
int rb_cli_u32_arg(const char *cmd, const char *what, const char *s, uint32_t min, uint32_t max,
                   uint32_t *out);

/*
 * rb_cli_parse_u32 / rb_cli_parse_u64 — rb_cli_whole without the reason:
 * 0, or -1 (not a whole number, or outside [min, max]). Prints nothing.
 */
int rb_cli_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
int rb_cli_parse_u64(const char *s, uint64_t *out);

/*
 * rb_cli_list — the items of a comma-separated option value ("5,10,25"),
 * in order; items point into storage. rb_cli_list_split fills it: an empty
 * value, an empty item ("5,,10", ",5", "5,") or more than max_items items is
 * a usage error naming the option and the item's position, counted from 1
 * ("--eps: item 2 of '5,,10' is empty (items count from 1)"): 0, or -1 after
 * printing (nothing to free). rb_cli_list_unique: 0 when no two items are
 * equal, else prints "--modes: 'ordered' is listed twice (items 1 and 3)"
 * and returns -1. Lists of numbers compare values instead (5 and 05 are the
 * same): verify/cmd_verify.c, bench/pg/bench.c. Free with rb_cli_list_free.
 */
typedef struct rb_cli_list {
    char **items;
    size_t n;
    char *storage;
} rb_cli_list;

int rb_cli_list_split(const char *cmd, const char *opt, const char *spec, size_t max_items,
                      rb_cli_list *out);
int rb_cli_list_unique(const char *cmd, const char *opt, const rb_cli_list *l);
void rb_cli_list_free(rb_cli_list *l);

/*
 * rb_cli_parse_double — a finite decimal number, the whole string: an optional sign, digits with
 * an optional point, an optional exponent ("20", "-0.5", "1e3", ".5"); not leading or trailing
 * spaces, hex ("0x14"), "inf", "nan", nor a value past DBL_MAX ("1e999"); a value below the
 * smallest double is its nearest double ("1e-400": 0, as strtod rounds it). *out set on 0; -1
 * otherwise (out untouched).
 */
int rb_cli_parse_double(const char *s, double *out);

/*
 * rb_cli_decimal — rb_cli_parse_double of `s` in [min, max] into *out: 0;
 * RB_CLI_NOT_DECIMAL when s is not decimal syntax; RB_CLI_OUT_OF_RANGE when it
 * is but its value is outside [min, max] or not a finite double ("1e999").
 * Prints nothing; *out untouched on failure.
 * rb_cli_double_arg — the same, printing "ringbench CMD: WHAT: S is out of range
 * (MIN..MAX)" or "... WHAT must be a decimal number from MIN to MAX, got 'S'"
 * (rb_cli_whole_message's wording, bounds as %.15g) and returning -1 (exit 2).
 * Every decimal option of the CLI goes through these.
 */
#define RB_CLI_NOT_DECIMAL (-3)
int rb_cli_decimal(const char *s, double min, double max, double *out);
int rb_cli_double_arg(const char *cmd, const char *what, const char *s, double min, double max,
                      double *out);

/*
 * rb_member_list — members parsed from "id[=weight],id[=weight],...". Ids
 * may contain ':' (e.g. "s1:1"); the weight follows the last '='. Each id is
 * a non-empty byte string without ','; weight 1 when absent, else a whole
 * number 1 .. RB_MAX_WEIGHT (the message of a bad one names the member,
 * counted from 1 like every position the CLI prints, and that range). Owns
 * the ids.
 */
typedef struct rb_member_list {
    rb_member *members;
    size_t n;
    char *storage; /* the copied list the ids point into */
} rb_member_list;

/* Parse `spec` into *out. 0, or -1 with a message in `err` (size err_size). */
int rb_member_list_parse(const char *spec, rb_member_list *out, char *err, size_t err_size);
void rb_member_list_free(rb_member_list *l);

/*
 * rb_key_list — keys read one per line (LF; a trailing CR is kept, bytes
 * preserved, NUL bytes allowed) or taken from argv. Owns its storage.
 */
typedef struct rb_key_list {
    char **keys; /* n pointers into storage */
    size_t *len; /* n lengths */
    size_t n;
    char *storage;
} rb_key_list;

/* Read keys from `f` until EOF. 0, or -1 on a read error / out of memory. */
int rb_key_list_read(FILE *f, rb_key_list *out);
/* Keys from argv[0..argc) (copied). 0 or -1. */
int rb_key_list_from_argv(int argc, char **argv, rb_key_list *out);
void rb_key_list_free(rb_key_list *l);

/*
 * rb_cli_read_keys — the keys of a command: argv[0 .. n) when n > 0, else
 * the lines of stdin. 0, or prints "cannot read keys" and returns
 * RB_EXIT_FAILURE. With `h` non-NULL, every key must be valid input for h
 * (fnv1a32-js: UTF-8): else prints "key K: <detail>", frees the list and
 * returns RB_EXIT_USAGE.
 */
int rb_cli_read_keys(const char *cmd, int n, char **argv, const rb_hash *h, rb_key_list *out);

/*
 * rb_text_field — write bytes for a human reader (text tables, the one-line
 * messages of rb_cli_usage_error / rb_cli_fail): bytes from 0x20 up (UTF-8
 * included) as they are; control bytes (below 0x20, and DEL) as C escapes
 * \r \n \t or \xNN, so a value stays on its line and a CR cannot
 * overwrite what was printed before it; then spaces up to `width` columns
 * (bytes written; 0: no padding). A backslash is written as is. The data
 * formats (json, csv, text rows of `hash`/`owner`) keep the bytes instead.
 */
void rb_text_field(FILE *f, const void *data, size_t len, int width);

/*
 * rb_csv_field — write bytes as an RFC 4180 CSV field (quoted when needed). JSON strings:
 * rb_json_bytes (cli/json_out.h).
 */
void rb_csv_field(FILE *f, const void *data, size_t len);

/*
 * rb_cli_ring_options — the ring options every ring command shares:
 *   --algo A  --members LIST  --vnodes V  --buckets B  --hash H
 *   --bucket-hash H  --seed S  --table-source A
 * rb_cli_ring_option consumes argv[*i] (and its value) when it is one of
 * them: returns 1 when consumed, 0 when not a ring option, -1 after printing a
 * usage error (exit 2). Defaults from rb_config_init; --hash sets both hashes
 * unless --bucket-hash is given.
 */
/* Bits of rb_cli_ring.given: which ring options the command line gave. */
enum {
    RB_RING_OPT_ALGO = 1u << 0,
    RB_RING_OPT_MEMBERS = 1u << 1,
    RB_RING_OPT_VNODES = 1u << 2,
    RB_RING_OPT_BUCKETS = 1u << 3,
    RB_RING_OPT_HASH = 1u << 4,
    RB_RING_OPT_BUCKET_HASH = 1u << 5,
    RB_RING_OPT_SEED = 1u << 6,
    RB_RING_OPT_TABLE_SOURCE = 1u << 7,
    RB_RING_OPT_PARAM = 1u << 8,
};

typedef struct rb_cli_ring {
    const rb_algo *algo;
    rb_config cfg;
    const char *members_spec;
    int bucket_hash_set;
    unsigned given; /* RB_RING_OPT_* of the options given */
    /* RB_RING_OPT_* the command refuses (set before parsing; rb_pg_parse_options leaves them
     * out of --help) */
    unsigned refused;
    uint64_t seed_max; /* the largest --seed the command takes (default UINT64_MAX) */
} rb_cli_ring;

void rb_cli_ring_init(rb_cli_ring *o);
int rb_cli_ring_option(const char *cmd, rb_cli_ring *o, int argc, char **argv, int *i);

/* Build the ring the options describe (requires --algo and --members).
 * 0 with *members and *out to free (rb_ring_destroy, rb_member_list_free), or
 * prints a message, frees what it allocated and returns RB_EXIT_USAGE
 * (bad options or membership) / RB_EXIT_FAILURE (out of memory). */
int rb_cli_ring_build(const char *cmd, rb_cli_ring *o, rb_member_list *members, rb_ring **out);

/* rb_cli_warn_id_collisions — under a ring hash of fewer than 64 bits, one line on stderr
 * (`ringbench CMD: warning: ...`) for each pair of member ids that hash alike when one of the
 * two owns no bucket of `ring`: the FNV hashes are state machines over the bytes, so every
 * vnode label that extends one id hashes like the same label of the other, their ring points
 * coincide, and the documented tie order gives all of them to one member (vnode rings,
 * multiprobe; rendezvous and skeleton key such ids apart). The ring is left as built (it is the
 * seed's behaviour). Costs one lookup per bucket, only when two ids collide. Not thread safe
 * (writes stderr); no error. */
void rb_cli_warn_id_collisions(const char *cmd, const rb_ring *ring);

/* The help text of the shared ring options (for each command's --help);
 * rb_cli_parse_args follows it with rb_cli_print_algos. */
extern const char rb_cli_ring_help[];

/* rb_cli_ring_option_name — the name ("--buckets") of the first RB_RING_OPT_* bit set in
 * `given`, NULL when none. */
const char *rb_cli_ring_option_name(unsigned given);

/* rb_cli_ring_help_except — rb_cli_ring_help without the lines of the options in `refused`
 * (RB_RING_OPT_* bits), for a command that refuses them, into buf (NUL-terminated; a line that
 * would not fit is left out); with --bucket-hash refused, --hash's line names the ring hash
 * only. Returns the length written. Thread safe; no error. */
size_t rb_cli_ring_help_except(unsigned refused, char *buf, size_t size);

/* rb_cli_print_algos — the registered algorithms with their descriptions and
 * parameters (from the registry; with_params 0: without them, for a command that refuses
 * --param), for --help. */
void rb_cli_print_algos(FILE *f, int with_params);

/*
 * rb_cli_ring_check_params — the --param values of `o` against the
 * algorithms algos[0..n) a command will build (and the table source when one
 * of them builds from it: RB_ALGO_READS_SOURCE, table and bounded): 0, or
 * prints one usage line ("unknown parameter 'x' (parameters: maglev
 * table_size)", "maglev: --param table_size=65536: 65536 is not prime",
 * "--table-source does not apply to --algo binary ...") and returns -1
 * (exit 2).
 */
int rb_cli_ring_check_params(const char *cmd, const rb_cli_ring *o, const rb_algo *const *algos,
                             size_t n);

#endif
