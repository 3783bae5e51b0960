/* cmd_ring.c — `ringbench list|hash|owner|table`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

int rb_cmd_list(int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        if (strcmp(argv[1], "--help") == 0) {
            printf("usage: ringbench list\n\nOne algorithm per line: name, description, source.\n");
            return RB_EXIT_OK;
        }
        return rb_cli_usage_error("list", "takes no arguments (got '%s')", argv[1]);
    }
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        printf("%-11s %s\n", a->name, a->description);
    }
    return RB_EXIT_OK;
}

static const char hash_help[] =
    "usage: ringbench hash --hash H [--seed S] [--format text|json|csv] KEY...\n"
    "\n"
    "Hash each KEY (or each line of stdin when no KEY is given) with H:\n"
    "fnv1a32, fnv1a32-js or xxh3. Prints key and hash (unsigned decimal).\n";

int rb_cmd_hash(int argc, char **argv) {
    const rb_hash *h = NULL;
    uint64_t seed = 0;
    rb_format fmt = RB_FMT_TEXT;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--help") == 0) {
            fputs(hash_help, stdout);
            return RB_EXIT_OK;
        }
        if (i + 1 >= argc) return rb_cli_usage_error("hash", "%s needs a value", argv[i]);
        const char *v = argv[++i];
        if (strcmp(argv[i - 1], "--hash") == 0) {
            if (!(h = rb_hash_by_name(v))) return rb_cli_usage_error("hash", "%s", rb_error_detail());
        } else if (strcmp(argv[i - 1], "--seed") == 0) {
            if (rb_cli_parse_u64(v, &seed))
                return rb_cli_usage_error("hash", "--seed must be a whole number, got '%s'", v);
        } else if (strcmp(argv[i - 1], "--format") == 0) {
            if (rb_cli_parse_format(v, 0, &fmt))
                return rb_cli_usage_error("hash", "--format must be text, json or csv, got '%s'", v);
        } else {
            return rb_cli_usage_error("hash", "unknown option '%s' (see --help)", argv[i - 1]);
        }
    }
    if (!h) return rb_cli_usage_error("hash", "--hash is required (fnv1a32, fnv1a32-js, xxh3)");
    rb_key_list keys;
    int rc = i < argc ? rb_key_list_from_argv(argc - i, argv + i, &keys) : rb_key_list_read(stdin, &keys);
    if (rc) return rb_cli_fail("hash", "cannot read keys");
    for (size_t k = 0; k < keys.n; k++) {
        if (rb_hash_check(h, keys.keys[k], keys.len[k])) {
            rb_cli_usage_error("hash", "key %zu: %s", k + 1, rb_error_detail());
            rb_key_list_free(&keys);
            return RB_EXIT_USAGE;
        }
    }
    if (fmt == RB_FMT_JSON) fputc('[', stdout);
    if (fmt == RB_FMT_CSV) puts("key,hash");
    for (size_t k = 0; k < keys.n; k++) {
        unsigned long long v = h->fn(keys.keys[k], keys.len[k], seed);
        if (fmt == RB_FMT_JSON) {
            fputs(k ? ",\n {\"key\": " : "{\"key\": ", stdout);
            rb_json_string(stdout, keys.keys[k], keys.len[k]);
            printf(", \"hash\": %llu}", v);
        } else if (fmt == RB_FMT_CSV) {
            rb_csv_field(stdout, keys.keys[k], keys.len[k]);
            printf(",%llu\n", v);
        } else {
            fwrite(keys.keys[k], 1, keys.len[k], stdout);
            printf("\t%llu\n", v);
        }
    }
    if (fmt == RB_FMT_JSON) fputs("]\n", stdout);
    rb_key_list_free(&keys);
    return RB_EXIT_OK;
}

/* Parse the options of `owner` and `table`; non-option arguments from `*first`
 * on. Returns -1 to go on, else an exit code (help printed, or usage error). */
static int parse_ring_command(const char *cmd, const char *help, int argc, char **argv,
                              rb_cli_ring *o, rb_format *fmt, int *first) {
    rb_cli_ring_init(o);
    *fmt = RB_FMT_TEXT;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--help") == 0) {
            printf("%s\noptions:\n%s  --format F         text, json or csv (default text)\n", help,
                   rb_cli_ring_help);
            return RB_EXIT_OK;
        }
        int used = rb_cli_ring_option(cmd, o, argc, argv, &i);
        if (used < 0) return RB_EXIT_USAGE;
        if (used) continue;
        if (strcmp(argv[i], "--format") == 0) {
            if (i + 1 >= argc) return rb_cli_usage_error(cmd, "--format needs a value");
            if (rb_cli_parse_format(argv[++i], 0, fmt))
                return rb_cli_usage_error(cmd, "--format must be text, json or csv, got '%s'", argv[i]);
            continue;
        }
        return rb_cli_usage_error(cmd, "unknown option '%s' (see --help)", argv[i]);
    }
    *first = i;
    return -1;
}

static void put_member(FILE *f, rb_format fmt, const rb_ring *r, uint32_t owner) {
    size_t len;
    const void *id = rb_ring_member_id(r, owner, &len);
    if (fmt == RB_FMT_JSON)
        rb_json_string(f, id, len);
    else if (fmt == RB_FMT_CSV)
        rb_csv_field(f, id, len);
    else
        fwrite(id, 1, len, f);
}

static const char owner_help[] =
    "usage: ringbench owner --algo A --members m1,m2,... [options] [KEY...]\n"
    "\n"
    "For each KEY (or each line of stdin when none is given) print the key, its\n"
    "bucket (bucket_hash(key) mod B) and its owner (member id).\n";

int rb_cmd_owner(int argc, char **argv) {
    rb_cli_ring o;
    rb_format fmt;
    int first, rc = parse_ring_command("owner", owner_help, argc, argv, &o, &fmt, &first);
    if (rc >= 0) return rc;
    rb_member_list members;
    rb_ring *ring;
    if ((rc = rb_cli_ring_build("owner", &o, &members, &ring))) return rc;
    rb_key_list keys;
    if (first < argc ? rb_key_list_from_argv(argc - first, argv + first, &keys)
                     : rb_key_list_read(stdin, &keys)) {
        rc = rb_cli_fail("owner", "cannot read keys");
        goto out_ring;
    }
    for (size_t k = 0; k < keys.n; k++) {
        if (rb_hash_check(o.cfg.bucket_hash, keys.keys[k], keys.len[k])) {
            rc = rb_cli_usage_error("owner", "key %zu: %s", k + 1, rb_error_detail());
            goto out_keys;
        }
    }
    if (fmt == RB_FMT_JSON) fputc('[', stdout);
    if (fmt == RB_FMT_CSV) puts("key,bucket,owner");
    for (size_t k = 0; k < keys.n; k++) {
        uint32_t b = rb_bucket_of(&ring->cfg, keys.keys[k], keys.len[k]);
        uint32_t owner = rb_ring_owner_bucket(ring, b);
        if (fmt == RB_FMT_JSON) {
            fputs(k ? ",\n {\"key\": " : "{\"key\": ", stdout);
            rb_json_string(stdout, keys.keys[k], keys.len[k]);
            printf(", \"bucket\": %u, \"owner\": ", b);
            put_member(stdout, fmt, ring, owner);
            fputc('}', stdout);
        } else {
            if (fmt == RB_FMT_CSV)
                rb_csv_field(stdout, keys.keys[k], keys.len[k]);
            else
                fwrite(keys.keys[k], 1, keys.len[k], stdout);
            printf(fmt == RB_FMT_CSV ? ",%u," : "\t%u\t", b);
            put_member(stdout, fmt, ring, owner);
            fputc('\n', stdout);
        }
    }
    if (fmt == RB_FMT_JSON) fputs("]\n", stdout);
    rc = RB_EXIT_OK;
out_keys:
    rb_key_list_free(&keys);
out_ring:
    rb_ring_destroy(ring);
    rb_member_list_free(&members);
    return rc;
}

static const char table_help[] =
    "usage: ringbench table --algo A --members m1,m2,... [options]\n"
    "\n"
    "Print the owner of every bucket 0..B-1 (json: an array of member ids indexed\n"
    "by bucket).\n";

int rb_cmd_table(int argc, char **argv) {
    rb_cli_ring o;
    rb_format fmt;
    int first, rc = parse_ring_command("table", table_help, argc, argv, &o, &fmt, &first);
    if (rc >= 0) return rc;
    if (first < argc) return rb_cli_usage_error("table", "unexpected argument '%s'", argv[first]);
    rb_member_list members;
    rb_ring *ring;
    if ((rc = rb_cli_ring_build("table", &o, &members, &ring))) return rc;
    if (fmt == RB_FMT_JSON) fputc('[', stdout);
    if (fmt == RB_FMT_CSV) puts("bucket,owner");
    for (uint32_t b = 0; b < ring->cfg.n_buckets; b++) {
        uint32_t owner = rb_ring_owner_bucket(ring, b);
        if (fmt == RB_FMT_JSON) {
            if (b) fputs(", ", stdout);
        } else {
            printf(fmt == RB_FMT_CSV ? "%u," : "%u\t", b);
        }
        put_member(stdout, fmt, ring, owner);
        if (fmt != RB_FMT_JSON) fputc('\n', stdout);
    }
    if (fmt == RB_FMT_JSON) fputs("]\n", stdout);
    rb_ring_destroy(ring);
    rb_member_list_free(&members);
    return RB_EXIT_OK;
}
