/*
 * cmd_ring.c — `ringbench list|hash|owner|table`: the ring library on the
 * command line. Argument parsing, key input and the output formats are the
 * shared helpers of cli.h; this file only says what each command prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ring_impl.h" /* rb_ring_owner_bucket_of, inline */

/* --- list --- */

static const char *const list_help[] = {
    "usage: ringbench list [--format text|json|csv]\n"
    "\n"
    "The registered ring algorithms, one per line: name (first column) and a\n"
    "short description (with its --param defaults); json/csv add the source\n"
    "(paper), the properties it declares (verify checks them) and its\n"
    "parameters with their defaults.\n"
    "\n"
    "options:\n",
    rb_cli_format_help, NULL};

static int list_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    return rb_cli_format_option(cmd, 0, ctx, argc, argv, i);
}

int rb_cmd_list(int argc, char **argv) {
    rb_format fmt = RB_FMT_TEXT;
    int n_pos, rc = rb_cli_parse_args("list", list_help, list_option, &fmt, argc, argv, &n_pos);
    if (rc != RB_CLI_CONTINUE) return rc;
    if (n_pos) return rb_cli_usage_error("list", "takes no arguments (got '%s')", argv[1]);
    rb_config defaults;
    rb_config_init(&defaults);
    char params[256], props[128];
    if (fmt == RB_FMT_TEXT) { /* aligned columns for people; one line each */
        for (size_t i = 0; i < rb_algo_count(); i++) {
            const rb_algo *a = rb_algo_at(i);
            rb_params_format(a, &defaults, params, sizeof params);
            printf("%-11s %s%s%s%s\n", a->name, a->description, *params ? " [--param " : "", params,
                   *params ? "]" : "");
        }
        return RB_EXIT_OK;
    }
    rb_out out;
    rb_out_begin(&out, stdout, fmt, "name,description,source,properties,params", NULL);
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        rb_params_format(a, &defaults, params, sizeof params);
        rb_algo_flags_format(rb_algo_flags(a, &defaults), props, sizeof props);
        rb_out_str(&out, "name", a->name, strlen(a->name));
        rb_out_str(&out, "description", a->description, strlen(a->description));
        rb_out_str(&out, "source", a->source, strlen(a->source));
        rb_out_str(&out, "properties", props, strlen(props));
        rb_out_str(&out, "params", params, strlen(params));
        rb_out_row_end(&out);
    }
    return rb_out_end(&out, "list");
}

/* --- hash --- */

static const char *const hash_help[] = {
    "usage: ringbench hash --hash H [--seed S] [--format text|json|csv] [KEY...]\n"
    "\n"
    "Hash each KEY (or each line of stdin when no KEY is given) with H:\n"
    "fnv1a32, fnv1a32-js or xxh3. Prints the key and its hash as an unsigned\n"
    "decimal integer (json: [{\"key\": ..., \"hash\": ...}, ...]).\n"
    "\n"
    "options:\n"
    "  --hash H           fnv1a32, fnv1a32-js or xxh3 (required)\n"
    "  --seed S           hash seed (default 0: the published function)\n",
    rb_cli_format_help, NULL};

typedef struct {
    const rb_hash *hash;
    uint64_t seed;
    rb_format fmt;
} hash_opts;

static int hash_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    hash_opts *o = ctx;
    int is_hash = strcmp(argv[*i], "--hash") == 0, is_seed = strcmp(argv[*i], "--seed") == 0;
    if (!is_hash && !is_seed) return rb_cli_format_option(cmd, 0, &o->fmt, argc, argv, i);
    const char *v = rb_cli_opt_value(cmd, argc, argv, i);
    if (!v) return -1;
    if (is_hash && !(o->hash = rb_hash_by_name(v))) {
        rb_cli_usage_error(cmd, "%s", rb_error_detail());
        return -1;
    }
    if (is_seed && rb_cli_u64_arg(cmd, "--seed", v, 0, UINT64_MAX, &o->seed)) return -1;
    return 1;
}

/* Under --format json, every key and member id must be UTF-8: a JSON string holds text,
 * and a byte that is not UTF-8 has no form a reader could tell from a real character
 * (0xFF would read back as U+00FF, the same as the key "\u00ff"). Checked before any output,
 * so a refused batch writes nothing. json_keys_check: the keys (`keys` may be NULL);
 * json_members_check: the members of the printed ring, named by where the user wrote them
 * (`origin`: "--members", "--derive step 2"). Both: 0, or RB_EXIT_USAGE after one line
 * naming the first offender, counted from 1. */
static const char json_why[] =
    "a JSON string holds text only; --format csv or text writes the bytes";

static int json_keys_check(const char *cmd, rb_format fmt, const rb_key_list *keys) {
    for (size_t k = 0; fmt == RB_FMT_JSON && keys && k < keys->n; k++) {
        ptrdiff_t bad = rb_utf8_check(keys->keys[k], keys->len[k]);
        if (bad >= 0)
            return rb_cli_usage_error(cmd,
                                      "--format json: key %zu is not UTF-8 (invalid byte at "
                                      "offset %td); %s",
                                      k + 1, bad, json_why);
    }
    return 0;
}

static int json_members_check(const char *cmd, rb_format fmt, const rb_member_list *members,
                              const char *origin) {
    for (size_t m = 0; fmt == RB_FMT_JSON && m < members->n; m++) {
        ptrdiff_t bad = rb_utf8_check(members->members[m].id, members->members[m].id_len);
        if (bad >= 0)
            return rb_cli_usage_error(cmd,
                                      "--format json: member %zu of %s is not UTF-8 (invalid "
                                      "byte at offset %td); %s",
                                      m + 1, origin, bad, json_why);
    }
    return 0;
}

int rb_cmd_hash(int argc, char **argv) {
    hash_opts o = {.hash = NULL, .seed = 0, .fmt = RB_FMT_TEXT};
    int n_pos, rc = rb_cli_parse_args("hash", hash_help, hash_option, &o, argc, argv, &n_pos);
    if (rc != RB_CLI_CONTINUE) return rc;
    if (!o.hash)
        return rb_cli_usage_error("hash", "--hash is required (fnv1a32, fnv1a32-js, xxh3)");
    rb_key_list keys;
    if ((rc = rb_cli_read_keys("hash", n_pos, argv + 1, o.hash, &keys))) return rc;
    if ((rc = json_keys_check("hash", o.fmt, &keys))) {
        rb_key_list_free(&keys);
        return rc;
    }
    rb_out out;
    rb_out_begin(&out, stdout, o.fmt, "key,hash", NULL);
    for (size_t k = 0; k < keys.n; k++) {
        rb_out_str(&out, "key", keys.keys[k], keys.len[k]);
        rb_out_u64(&out, "hash", o.hash->fn(keys.keys[k], keys.len[k], o.seed));
        rb_out_row_end(&out);
    }
    rc = rb_out_end(&out, "hash");
    rb_key_list_free(&keys);
    return rc;
}

/* --- owner and table: the shared ring options plus --format --- */

typedef struct {
    rb_cli_ring ring;
    rb_format fmt;
    uint32_t replicas;  /* owner --replicas K; 0 when not given */
    const char *derive; /* --derive: memberships separated by ';', or NULL */
} ring_opts;

static const char derive_help[] =
    "  --derive 'L1;L2;..' then change the membership to L1, then to L2, ... (each a\n"
    "                     --members list), one step at a time by incremental derive\n"
    "                     (anchor, memento, dx: members keep their slots; the others\n"
    "                     rebuild); prints the last ring's owners\n";

static int ring_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    ring_opts *o = ctx;
    if (strcmp(argv[*i], "--derive") == 0) {
        o->derive = rb_cli_opt_value(cmd, argc, argv, i);
        return o->derive ? 1 : -1;
    }
    int used = rb_cli_ring_option(cmd, &o->ring, argc, argv, i);
    return used ? used : rb_cli_format_option(cmd, 0, &o->fmt, argc, argv, i);
}

/* owner: the ring options, --format and --replicas K (1 .. RB_MAX_MEMBERS). */
static int owner_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    ring_opts *o = ctx;
    if (strcmp(argv[*i], "--replicas") == 0) {
        const char *v = rb_cli_opt_value(cmd, argc, argv, i);
        if (!v) return -1;
        return rb_cli_u32_arg(cmd, "--replicas", v, 1, RB_MAX_MEMBERS, &o->replicas) ? -1 : 1;
    }
    return ring_option(cmd, ctx, argc, argv, i);
}

/* Step `step` (counted from 1) of --derive: *ring (over *members) becomes the ring over
 * `spec`. 0, or prints a message naming the step and returns an exit code (the old ring and
 * list stay with the caller). */
static int derive_step(const char *cmd, size_t step, const char *spec, rb_member_list *members,
                       rb_ring **ring) {
    rb_member_list next;
    char err[256];
    size_t len = strlen(spec), cut = rb_utf8_cut(spec, len, 60); /* messages quote 60 bytes */
    char where[128]; /* what every message of this step starts with */
    snprintf(where, sizeof where, "step %zu of --derive ('%.*s%s')", step, (int)cut, spec,
             cut < len ? "..." : "");
    if (rb_member_list_parse(spec, &next, err, sizeof err))
        return rb_cli_usage_error(cmd, "%s: %s", where, err);
    rb_ring *derived = NULL;
    int rc = rb_ring_derive(*ring, next.members, next.n, &derived);
    if (rc) {
        rb_member_list_free(&next);
        if (rc == RB_ENOMEM) return rb_cli_fail(cmd, "%s", rb_error_detail());
        return rb_cli_usage_error(cmd, "%s: %s", where, rb_error_detail());
    }
    rb_ring_destroy(*ring);
    rb_member_list_free(members);
    *ring = derived;
    *members = next;
    return 0;
}

/* Apply the --derive steps in order; *n_steps counts those applied. 0 or an exit code
 * (message printed). */
static int derive_all(const char *cmd, const char *steps, rb_member_list *members, rb_ring **ring,
                      size_t *n_steps) {
    *n_steps = 0;
    while (steps) { /* an empty list or step ('', 'a;', 'a;;b') is an error, not "no step" */
        const char *end = strchr(steps, ';');
        size_t len = end ? (size_t)(end - steps) : strlen(steps), step = *n_steps + 1;
        if (len == 0)
            return rb_cli_usage_error(cmd, "step %zu of --derive is empty (steps count from 1)",
                                      step);
        char *spec = strndup(steps, len); /* as long as --members may be */
        if (!spec) return rb_cli_fail(cmd, "out of memory for a --derive step of %zu bytes", len);
        int rc = derive_step(cmd, step, spec, members, ring);
        free(spec);
        if (rc) return rc;
        *n_steps = step;
        steps = end ? end + 1 : NULL;
    }
    return 0;
}

/* Parse, then build the ring. RB_CLI_CONTINUE with *ring and *members set
 * (free with ring_free), else an exit code (help printed or error). */
static int ring_command_setup(const char *cmd, const char *const *help, rb_cli_opt_fn opt, int argc,
                              char **argv, ring_opts *o, int *n_pos, rb_member_list *members,
                              rb_ring **ring) {
    rb_cli_ring_init(&o->ring);
    o->fmt = RB_FMT_TEXT;
    o->replicas = 0;
    o->derive = NULL;
    int rc = rb_cli_parse_args(cmd, help, opt, o, argc, argv, n_pos);
    if (rc != RB_CLI_CONTINUE) return rc;
    rc = rb_cli_ring_build(cmd, &o->ring, members, ring);
    if (rc) return rc;
    size_t n_steps;
    char origin[48] = "--members"; /* where the printed ring's members were written */
    if (!(rc = derive_all(cmd, o->derive, members, ring, &n_steps)) && n_steps)
        snprintf(origin, sizeof origin, "--derive step %zu", n_steps);
    if (rc || (rc = json_members_check(cmd, o->fmt, members, origin))) {
        rb_ring_destroy(*ring);
        rb_member_list_free(members);
        return rc;
    }
    rb_cli_warn_id_collisions(cmd, *ring);
    return RB_CLI_CONTINUE;
}

static void ring_free(rb_member_list *members, rb_ring *ring) {
    rb_ring_destroy(ring);
    rb_member_list_free(members);
}

static void out_member(rb_out *out, const char *name, const rb_ring *r, uint32_t idx) {
    size_t len;
    const void *id = rb_ring_member_id(r, idx, &len);
    rb_out_str(out, name, id, len);
}

static const char *const owner_help[] = {
    "usage: ringbench owner --algo A --members m1,m2,... [options] [KEY...]\n"
    "\n"
    "For each KEY (or each line of stdin when no KEY is given) print the key,\n"
    "its bucket (bucket_hash(key) mod B) and its owner (member id); json:\n"
    "[{\"key\": ..., \"bucket\": ..., \"owner\": ...}, ...]. Options may follow\n"
    "the keys; a key that starts with -- goes after a lone --.\n"
    "\n"
    "With --replicas K: K rows per key, its K distinct owners in preference\n"
    "order (replica 0 is the owner): key, bucket, replica, owner. Vnode rings\n"
    "walk clockwise from the bucket's point skipping members already chosen;\n"
    "rendezvous takes the K highest scores; multiprobe ranks members by their\n"
    "closest point after any probe. K > N members, and algorithms without a\n"
    "replica scheme (every one but linear, binary, front, rendezvous and multiprobe:\n"
    "the error lists those that have one), are errors (exit 2).\n"
    "\n"
    "options:\n"
    "  --replicas K       K distinct owners per key (default: the owner only)\n",
    rb_cli_ring_help, derive_help, rb_cli_format_help, NULL};

/* Rows of one key: its owner, or its K replicas (key, bucket, replica,
 * owner). The replica count was checked against the ring before. */
static void owner_rows(rb_out *out, const rb_ring *ring, uint32_t replicas, const char *key,
                       size_t len, uint32_t *owners) {
    uint32_t b = rb_bucket_of(rb_ring_config(ring), key, len);
    uint32_t n = replicas ? (uint32_t)rb_ring_owners(ring, b, owners, replicas) : 1;
    if (!replicas) owners[0] = rb_ring_owner_bucket_of(ring, b);
    for (uint32_t r = 0; r < n; r++) {
        rb_out_str(out, "key", key, len);
        rb_out_u64(out, "bucket", b);
        if (replicas) rb_out_u64(out, "replica", r);
        out_member(out, "owner", ring, owners[r]);
        rb_out_row_end(out);
    }
}

int rb_cmd_owner(int argc, char **argv) {
    ring_opts o;
    rb_member_list members;
    rb_ring *ring;
    int n_pos, rc = ring_command_setup("owner", owner_help, owner_option, argc, argv, &o, &n_pos,
                                       &members, &ring);
    if (rc != RB_CLI_CONTINUE) return rc;
    uint32_t *owners = malloc(sizeof *owners * (o.replicas ? o.replicas : 1));
    if (!owners) {
        ring_free(&members, ring);
        return rb_cli_fail("owner", "out of memory for %u replicas", o.replicas);
    }
    /* K against this ring (K <= N, a replica scheme) before any output */
    if (o.replicas && rb_ring_owners(ring, 0, owners, o.replicas) < 0) {
        free(owners);
        ring_free(&members, ring);
        return rb_cli_usage_error("owner", "--replicas %u: %s", o.replicas, rb_error_detail());
    }
    rb_key_list keys;
    rc = rb_cli_read_keys("owner", n_pos, argv + 1, o.ring.cfg.bucket_hash, &keys);
    if (!rc && (rc = json_keys_check("owner", o.fmt, &keys))) rb_key_list_free(&keys);
    if (rc) {
        free(owners);
        ring_free(&members, ring);
        return rc;
    }
    rb_out out;
    rb_out_begin(&out, stdout, o.fmt, o.replicas ? "key,bucket,replica,owner" : "key,bucket,owner",
                 NULL);
    for (size_t k = 0; k < keys.n; k++)
        owner_rows(&out, ring, o.replicas, keys.keys[k], keys.len[k], owners);
    rc = rb_out_end(&out, "owner");
    rb_key_list_free(&keys);
    free(owners);
    ring_free(&members, ring);
    return rc;
}

static const char *const table_help[] = {
    "usage: ringbench table --algo A --members m1,m2,... [options]\n"
    "\n"
    "Print the owner of every bucket 0..B-1: text/csv one line per bucket\n"
    "(bucket, owner); json an array of member ids indexed by bucket.\n"
    "\n"
    "options:\n",
    rb_cli_ring_help, derive_help, rb_cli_format_help, NULL};

int rb_cmd_table(int argc, char **argv) {
    ring_opts o;
    rb_member_list members;
    rb_ring *ring;
    int n_pos, rc = ring_command_setup("table", table_help, ring_option, argc, argv, &o, &n_pos,
                                       &members, &ring);
    if (rc != RB_CLI_CONTINUE) return rc;
    if (n_pos) {
        ring_free(&members, ring);
        return rb_cli_usage_error("table", "unexpected argument '%s'", argv[1]);
    }
    rb_out out;
    rb_out_begin(&out, stdout, o.fmt, "bucket,owner", "owner");
    for (uint32_t b = 0; b < rb_ring_n_buckets(ring); b++) {
        rb_out_u64(&out, "bucket", b);
        out_member(&out, "owner", ring, rb_ring_owner_bucket_of(ring, b));
        rb_out_row_end(&out);
    }
    rc = rb_out_end(&out, "table");
    ring_free(&members, ring);
    return rc;
}
