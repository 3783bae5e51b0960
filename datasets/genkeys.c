/*
 * genkeys.c — `ringbench-genkeys`: deterministic synthetic key sets, one key
 * per line (LF) on stdout.
 *
 *   --kind order   order:<n> for n = start .. start+count-1 (the seed's keys,
 *                  e.g. order:9182; sequential like a producer's order ids;
 *                  --seed is accepted and has no effect)
 *   --kind uuid    random version-4 UUIDs, lowercase 8-4-4-4-12 hex
 *                  (RFC 9562, section 5.4): 122 random bits from two
 *                  splitmix64 outputs, version nibble 4, variant bits 10
 *   --kind zipf    customer:<id>, id in 1..K drawn from Zipf(s):
 *                  P(id = k) = k^-s / H(K, s), H(K, s) = sum_{j=1..K} j^-s;
 *                  customer:1 is the most frequent. s = 0 is uniform.
 *
 * Random numbers: splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), in the form Vigna publishes
 * as splitmix64.c (prng.di.unimi.it): state += 0x9e3779b97f4a7c15, then the
 * output is the state mixed by Stafford's "variant 13" finaliser. The state
 * starts at --seed. A uniform double in [0, 1) is the top 53 bits times 2^-53.
 *
 * Zipf sampling: inversion by search (Devroye, "Non-Uniform Random Variate
 * Generation", Springer 1986, chapter III, section 2): the cumulative weights
 * W(k) = sum_{j<=k} j^-s are computed once (K doubles), and each draw returns
 * the smallest k with W(k) > u * W(K) by binary search. Exact up to double
 * rounding, O(K) memory and O(log K) per key; no rejection step, so the
 * sequence for a seed does not depend on floating-point corner cases of a
 * rejection test.
 *
 * Exit 0; 2 with one line on stderr on bad arguments; 1 when the output
 * cannot be written or memory runs out.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "keygen.h"

#define CMD "genkeys"
/* Cap on K: the cumulative-weight table is 8 bytes per customer (800 MB). */
#define N_CUSTOMERS_MAX 100000000u
#define N_CUSTOMERS_DEFAULT 10000u
/* YCSB's default Zipf exponent ("zipfian constant", Cooper et al., SoCC 2010). */
#define ZIPF_S_DEFAULT 0.99
#define ZIPF_S_MAX 100.0
/* stdout buffer; keys are short, so a large buffer saves write calls. */
#define OUT_BUFFER_BYTES (1u << 20)

typedef enum { KIND_NONE, KIND_ORDER, KIND_UUID, KIND_ZIPF } key_kind;

typedef struct genkeys_options {
    key_kind kind;
    uint64_t n_keys;
    int n_keys_set;
    uint64_t seed;
    uint64_t start;
    int start_set;
    uint32_t n_customers;
    int n_customers_set;
    double zipf_s;
    int zipf_s_set;
} genkeys_options;

static const char usage_text[] =
    "usage: ringbench-genkeys --kind order|uuid|zipf --count N [--seed S]\n"
    "                         [--start N] [--customers K] [--zipf-s S]\n"
    "\n"
    "Deterministic synthetic keys, one per line on stdout (datasets/README.md).\n"
    "  --kind order   order:<n>, n = start, start+1, ... (the seed's keys)\n"
    "  --kind uuid    random UUIDv4s (splitmix64 from --seed)\n"
    "  --kind zipf    customer:<id>, id in 1..K drawn Zipf(s), customer:1 hottest\n"
    "  --count N      number of keys (0 allowed)\n"
    "  --seed S       PRNG seed, unsigned 64-bit decimal (default 1; order ignores it)\n"
    "  --start N      first order number (order only; default 1)\n"
    "  --customers K  number of customers, 1..100000000 (zipf only; default 10000)\n"
    "  --zipf-s S     Zipf exponent, 0 (uniform) .. 100 (zipf only; default 0.99)\n";

static int write_order(FILE *out, const genkeys_options *o) {
    for (uint64_t i = 0; i < o->n_keys; i++)
        if (fprintf(out, "order:%" PRIu64 "\n", o->start + i) < 0) return -1;
    return 0;
}

static int write_uuid(FILE *out, const genkeys_options *o) {
    static const char hex[] = "0123456789abcdef";
    uint64_t state = o->seed;
    for (uint64_t i = 0; i < o->n_keys; i++) {
        unsigned char b[16];
        uint64_t hi = rb_splitmix64(&state), lo = rb_splitmix64(&state);
        for (int j = 0; j < 8; j++) {
            b[j] = (unsigned char)(hi >> (56 - 8 * j));
            b[8 + j] = (unsigned char)(lo >> (56 - 8 * j));
        }
        b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
        b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* variant 10 (RFC 9562) */
        char line[37];
        size_t p = 0;
        for (int j = 0; j < 16; j++) {
            if (j == 4 || j == 6 || j == 8 || j == 10) line[p++] = '-';
            line[p++] = hex[b[j] >> 4];
            line[p++] = hex[b[j] & 15];
        }
        line[p++] = '\n';
        if (fwrite(line, 1, p, out) != p) return -1;
    }
    return 0;
}

/* Returns 0, -1 on a write error, -2 when the weight table cannot be held. */
static int write_zipf(FILE *out, const genkeys_options *o) {
    rb_zipf z;
    if (rb_zipf_init(&z, o->n_customers, o->zipf_s)) return -2;
    uint64_t state = o->seed;
    int rc = 0;
    for (uint64_t i = 0; i < o->n_keys && rc == 0; i++)
        if (fprintf(out, "customer:%" PRIu32 "\n", rb_zipf_next(&z, &state) + 1) < 0) rc = -1;
    rb_zipf_free(&z);
    return rc;
}

/* rb_cli_opt_fn of genkeys: one option and its value into the options. */
static int genkeys_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    static const char *const names[] = {"--kind",  "--count",     "--seed",
                                        "--start", "--customers", "--zipf-s"};
    genkeys_options *o = ctx;
    const char *a = argv[*i];
    size_t which = 0, n_names = sizeof names / sizeof names[0];
    while (which < n_names && strcmp(a, names[which]) != 0)
        which++;
    if (which == n_names) return 0; /* unknown: rb_cli_parse_args says so */
    const char *v = rb_cli_opt_value(cmd, argc, argv, i);
    if (!v) return -1;
    switch (which) {
    case 0:
        if (strcmp(v, "order") == 0)
            o->kind = KIND_ORDER;
        else if (strcmp(v, "uuid") == 0)
            o->kind = KIND_UUID;
        else if (strcmp(v, "zipf") == 0)
            o->kind = KIND_ZIPF;
        else
            return rb_cli_usage_error(cmd, "unknown --kind '%s' (order, uuid, zipf)", v), -1;
        break;
    case 1:
        if (rb_cli_u64_arg(cmd, "--count", v, 0, UINT64_MAX, &o->n_keys)) return -1;
        o->n_keys_set = 1;
        break;
    case 2:
        if (rb_cli_u64_arg(cmd, "--seed", v, 0, UINT64_MAX, &o->seed)) return -1;
        break;
    case 3:
        if (rb_cli_u64_arg(cmd, "--start", v, 0, UINT64_MAX, &o->start)) return -1;
        o->start_set = 1;
        break;
    case 4:
        if (rb_cli_u32_arg(cmd, "--customers", v, 1, N_CUSTOMERS_MAX, &o->n_customers)) return -1;
        o->n_customers_set = 1;
        break;
    default:
        if (rb_cli_double_arg(cmd, "--zipf-s", v, 0, ZIPF_S_MAX, &o->zipf_s)) return -1;
        o->zipf_s_set = 1;
        break;
    }
    return 1;
}

/* Parse argv into *o with the shared parser (options anywhere, each once).
 * RB_CLI_CONTINUE to generate; else the exit code: RB_EXIT_OK after --help,
 * RB_EXIT_USAGE after one line on stderr, RB_EXIT_FAILURE (out of memory). */
static int parse_options(int argc, char **argv, genkeys_options *o) {
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->start = 1;
    o->n_customers = N_CUSTOMERS_DEFAULT;
    o->zipf_s = ZIPF_S_DEFAULT;
    static const char *const help[] = {usage_text, NULL};
    int n_pos, rc = rb_cli_parse_args(CMD, help, genkeys_option, o, argc, argv, &n_pos);
    if (rc != RB_CLI_CONTINUE) return rc;
    if (n_pos)
        return rb_cli_usage_error(CMD, "unexpected argument '%s' (--help shows usage)", argv[1]);
    if (o->kind == KIND_NONE) return rb_cli_usage_error(CMD, "--kind is required");
    if (!o->n_keys_set) return rb_cli_usage_error(CMD, "--count is required");
    if (o->kind != KIND_ZIPF && (o->n_customers_set || o->zipf_s_set))
        return rb_cli_usage_error(CMD, "--customers and --zipf-s apply only to --kind zipf");
    if (o->kind != KIND_ORDER && o->start_set)
        return rb_cli_usage_error(CMD, "--start applies only to --kind order");
    if (o->kind == KIND_ORDER && o->n_keys > 0 && o->n_keys - 1 > UINT64_MAX - o->start)
        return rb_cli_usage_error(CMD, "--start + --count overflows a 64-bit order number");
    return RB_CLI_CONTINUE;
}

int main(int argc, char **argv) {
    genkeys_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != RB_CLI_CONTINUE) return rc;

    static char out_buffer[OUT_BUFFER_BYTES];
    setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    switch (o.kind) {
    case KIND_ORDER:
        rc = write_order(stdout, &o);
        break;
    case KIND_UUID:
        rc = write_uuid(stdout, &o);
        break;
    default:
        rc = write_zipf(stdout, &o);
        break;
    }
    if (rc == -2)
        return rb_cli_fail(CMD, "out of memory for %" PRIu32 " customers' weights", o.n_customers);
    if (rc || fflush(stdout) == EOF || ferror(stdout))
        return rb_cli_fail(CMD, "cannot write the keys: %s", strerror(errno));
    return RB_EXIT_OK;
}
