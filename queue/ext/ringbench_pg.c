/*
 * ringbench_pg.c — the `ringbench` Postgres extension: the library's key -> bucket -> owner
 * routing in SQL, so a producer in any language (or plain SQL) stores the same
 * partition_bucket as `ringbench owner` and the C enqueue path (issue 15).
 *
 *   ringbench_hash(key text, hash text, seed bigint) -> numeric
 *       the hash of the key's bytes (unsigned, 32 or 64 bits; `ringbench hash`)
 *   ringbench_bucket(key text, n_buckets int, hash text, seed bigint) -> int
 *       hash(key, seed) mod n_buckets (the `bucket` column of `ringbench owner`)
 *   ringbench_owner(bucket int, members text[], algo text, n_vnodes int, n_buckets int,
 *                   hash text, seed bigint) -> text
 *       the member owning the bucket on a ring of `algo` over `members` (ids, weight 1), the
 *       ring hash `hash` (`ringbench table --hash H`). Errors name an array element as
 *       members[i] (SQL, from 1); a library message names member k counted from 0 (as the
 *       CLI does) and says so in its HINT: member k is members[k+1].
 *
 * Keys are hashed as the bytes Postgres stores: UTF-8 in a UTF8 database, which is what the
 * CLI and the C enqueue path hash. Other server encodings are refused (SQL_ASCII is accepted:
 * it stores the client's bytes as given). All functions are STRICT (NULL in, NULL out),
 * IMMUTABLE and PARALLEL SAFE. Bad arguments raise ERROR with SQLSTATE 22023
 * (invalid_parameter_value) and a message naming the function and the argument.
 *
 * ringbench_owner keeps the last ring it built per backend (one entry, keyed by every
 * argument but the bucket), so `SELECT ringbench_owner(b, ...) FROM generate_series(...)`
 * builds the ring once. The ring is malloc'd by the library and freed when replaced.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(ringbench_hash);
PG_FUNCTION_INFO_V1(ringbench_bucket);
PG_FUNCTION_INFO_V1(ringbench_owner);

/* The numbering of members in messages. The library's messages name a member by its index,
 * counted from 0 as everywhere in the library and the CLI (`--members a,b,a`: "duplicate
 * member id 'a' (members 0 and 2)"); SQL arrays count from 1, so this function's own messages
 * name array elements as members[i] and a library message that names a member carries this
 * hint. queue/ext/README.md, "Member numbers"; checked by tests/agree.sh. */
#define MEMBER_NUMBERS_HINT                                                                        \
    "members are numbered from 0 here, as in the library and the CLI: member k is "                \
    "members[k+1] of the SQL array"

#define BAD_ARG(fn, ...)                                                                           \
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg(fn ": " __VA_ARGS__)))

/* The registered hash called `name`, or ERROR listing the known ones. */
static const rb_hash *hash_arg(const char *fn, text *name) {
    char *s = text_to_cstring(name);
    const rb_hash *h = rb_hash_by_name(s);
    if (!h)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: %s", fn, rb_error_detail())));
    pfree(s);
    return h;
}

/* A seed: bigint >= 0 (the library's seeds are uint64; queue_config keeps them as numeric). */
static uint64_t seed_arg(const char *fn, int64 seed) {
    if (seed < 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: seed must be >= 0, got " INT64_FORMAT, fn, seed)));
    return (uint64_t)seed;
}

/* The key's bytes, checked against the hash (fnv1a32-js needs UTF-8) and the encoding. */
static void key_arg(const char *fn, const rb_hash *h, text *key, const char **data, size_t *len) {
    int enc = GetDatabaseEncoding();
    if (enc != PG_UTF8 && enc != PG_SQL_ASCII)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: the database encoding is %s; keys are hashed as UTF-8 bytes, "
                               "so it must be UTF8 (or SQL_ASCII)",
                               fn, GetDatabaseEncodingName())));
    *data = VARDATA_ANY(key);
    *len = VARSIZE_ANY_EXHDR(key);
    if (rb_hash_check(h, *data, *len))
        ereport(ERROR,
                (errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
                 errmsg("%s: key is not valid for hash %s: %s", fn, h->name, rb_error_detail())));
}

/* A bucket count: 1 .. RB_MAX_BUCKETS. */
static uint32_t n_buckets_arg(const char *fn, int32 n) {
    if (n < 1 || (uint32_t)n > RB_MAX_BUCKETS)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: n_buckets must be 1 .. %u, got %d", fn, RB_MAX_BUCKETS, n)));
    return (uint32_t)n;
}

Datum ringbench_hash(PG_FUNCTION_ARGS) {
    const rb_hash *h = hash_arg("ringbench_hash", PG_GETARG_TEXT_PP(1));
    uint64_t seed = seed_arg("ringbench_hash", PG_GETARG_INT64(2));
    const char *data;
    size_t len;
    char buf[24];
    key_arg("ringbench_hash", h, PG_GETARG_TEXT_PP(0), &data, &len);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)h->fn(data, len, seed));
    PG_RETURN_DATUM(DirectFunctionCall3(numeric_in, CStringGetDatum(buf),
                                        ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
}

Datum ringbench_bucket(PG_FUNCTION_ARGS) {
    rb_config cfg;
    const char *data;
    size_t len;
    rb_config_init(&cfg);
    cfg.n_buckets = n_buckets_arg("ringbench_bucket", PG_GETARG_INT32(1));
    cfg.bucket_hash = hash_arg("ringbench_bucket", PG_GETARG_TEXT_PP(2));
    cfg.seed = seed_arg("ringbench_bucket", PG_GETARG_INT64(3));
    key_arg("ringbench_bucket", cfg.bucket_hash, PG_GETARG_TEXT_PP(0), &data, &len);
    PG_RETURN_INT32((int32)rb_bucket_of(&cfg, data, len));
}

/* ---- ringbench_owner: a one-entry ring cache per backend ---- */

static rb_ring *cached_ring;
static char *cached_key; /* malloc'd: every argument but the bucket, serialised */
static size_t cached_key_len;

/* Serialise (algo, hash, V, B, seed, members) into a palloc'd buffer for the cache key. */
static char *ring_key(const char *algo, const char *hash, int32 v, int32 b, int64 seed,
                      ArrayType *members, size_t *len_out) {
    StringInfoData s;
    initStringInfo(&s);
    appendStringInfo(&s, "%s|%s|%d|%d|" INT64_FORMAT "|", algo, hash, v, b, seed);
    appendBinaryStringInfo(&s, (const char *)members, VARSIZE(members));
    *len_out = (size_t)s.len;
    return s.data;
}

/* Build the ring for the arguments (ERROR on bad ones), or reuse the cached one. */
static const rb_ring *owner_ring(FunctionCallInfo fcinfo) {
    const char *fn = "ringbench_owner";
    ArrayType *members = PG_GETARG_ARRAYTYPE_P(1);
    char *algo_name = text_to_cstring(PG_GETARG_TEXT_PP(2));
    int32 v = PG_GETARG_INT32(3), b = PG_GETARG_INT32(4);
    char *hash_name = text_to_cstring(PG_GETARG_TEXT_PP(5));
    int64 seed = PG_GETARG_INT64(6);
    size_t key_len;
    char *key = ring_key(algo_name, hash_name, v, b, seed, members, &key_len);
    const rb_algo *algo;
    rb_config cfg;
    Datum *elems;
    bool *nulls;
    int n, rc;
    rb_member *m;
    rb_ring *ring;

    if (cached_ring && key_len == cached_key_len && memcmp(key, cached_key, key_len) == 0)
        return cached_ring;

    algo = rb_algo_by_name(algo_name);
    if (!algo)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: %s", fn, rb_error_detail())));
    rb_config_init(&cfg);
    if (v < 1) BAD_ARG("ringbench_owner", "n_vnodes must be >= 1, got %d", v);
    cfg.n_vnodes = (uint32_t)v;
    cfg.n_buckets = n_buckets_arg(fn, b);
    cfg.ring_hash = cfg.bucket_hash = hash_arg(fn, PG_GETARG_TEXT_PP(5));
    cfg.seed = seed_arg(fn, seed);

    if (ARR_NDIM(members) > 1)
        BAD_ARG("ringbench_owner", "members must be a one-dimensional text[]");
    deconstruct_array(members, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
    if (n == 0) BAD_ARG("ringbench_owner", "members is empty (a ring needs at least one member)");
    m = palloc(sizeof *m * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (nulls[i]) BAD_ARG("ringbench_owner", "members[%d] is NULL", i + 1);
        m[i].id = VARDATA_ANY(DatumGetPointer(elems[i]));
        m[i].id_len = VARSIZE_ANY_EXHDR(DatumGetPointer(elems[i]));
        m[i].weight = 1;
    }
    rc = rb_ring_build(algo, &cfg, m, (size_t)n, &ring);
    if (rc == RB_ENOMEM)
        ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", fn)));
    if (rc)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s: %s", fn, rb_error_detail()),
                 strstr(rb_error_detail(), "member") ? errhint(MEMBER_NUMBERS_HINT) : 0));

    /* Replace the cache only once the new ring exists (an ERROR above keeps the old one). */
    free(cached_key);
    cached_key = malloc(key_len);
    if (!cached_key) {
        rb_ring_destroy(ring);
        rb_ring_destroy(cached_ring);
        cached_ring = NULL;
        ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", fn)));
    }
    memcpy(cached_key, key, key_len);
    cached_key_len = key_len;
    rb_ring_destroy(cached_ring);
    cached_ring = ring;
    return ring;
}

Datum ringbench_owner(PG_FUNCTION_ARGS) {
    int32 bucket = PG_GETARG_INT32(0), n_buckets = PG_GETARG_INT32(4);
    const rb_ring *ring = owner_ring(fcinfo); /* validates n_buckets */
    size_t len;
    const char *id;
    if (bucket < 0 || bucket >= n_buckets)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                 errmsg("ringbench_owner: bucket must be 0 .. %d, got %d", n_buckets - 1, bucket)));
    id = rb_ring_member_id(ring, rb_ring_owner_bucket(ring, (uint32_t)bucket), &len);
    PG_RETURN_TEXT_P(cstring_to_text_with_len(id, (int)len));
}
