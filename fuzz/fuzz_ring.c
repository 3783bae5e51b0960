/*
 * fuzz_ring.c — the member-list parser, then rb_ring_build and lookups on
 * every registered algorithm (the registry is iterated: a new algorithm is
 * fuzzed without an edit here). Input: hash (1 byte), flags (1), V (1 or 4),
 * B (2 or 4), seed (8), shuffle seed (4), table source (1), parameters
 * (1 + up to 2 x 10), the extra algorithm (1), the shuffled algorithm (1),
 * then the member list `id[=weight],...` up to the first NUL.
 * Contract (include/ringbench/ring.h, shared/DESIGN.md):
 *   - rb_member_list_parse agrees with an independent split (at ',', the
 *     weight after the last '=', empty ids refused);
 *   - rb_ring_build refuses every membership or parameter the contract
 *     refuses (empty, duplicate ids, weight 0 or > RB_MAX_WEIGHT, V 0, B 0 or
 *     > RB_MAX_BUCKETS, too many points, ids too long or not valid for the
 *     ring hash) with a negative code and a message, and builds every other
 *     one (an algorithm may refuse with RB_ENOTSUP), never crashing whatever
 *     the parameters (flag bit 0 takes V and B as raw 32-bit values);
 *   - owners of all buckets, positions and keys are < N; fill_table equals
 *     owner_bucket; member ids are the list's;
 *   - linear = binary on every bucket and tested position; table = the
 *     algorithm that filled it (chosen from the positional ones);
 *   - order-free algorithms give the same owner ids on a shuffled list
 *     (the flags under this config, rb_algo_flags: `table` only when its
 *     source is);
 *   - with per-algorithm parameters (`--param`, names from the algorithms'
 *     declarations, values from the input) a build either works (and all of
 *     the above holds) or is refused with a message.
 * Valid configurations with more than 4,096 points or 1,024 buckets are
 * skipped (speed); invalid ones of any size are built (they must be refused).
 */
#include "cli.h"
#include "fuzz_util.h"
#include "ringbench/ring.h"

#define MAX_POINTS_BUILT 4096u
#define MAX_BUCKETS_BUILT 1024u
#define MAX_ALGOS 64

/* Independent split of the member list; 0 when it parses, -1 when it must not. */
static int ref_check(const char *spec, const rb_member_list *got) {
    size_t k = 0;
    const char *p = spec;
    for (;; k++) {
        const char *end = strchr(p, ',');
        size_t seg = end ? (size_t)(end - p) : strlen(p);
        const char *eq = NULL;
        for (size_t i = 0; i < seg; i++)
            if (p[i] == '=') eq = p + i;
        size_t id_len = eq ? (size_t)(eq - p) : seg;
        uint64_t w = eq ? 0 : 1;
        if (eq) {
            if (eq + 1 == p + seg) return -1;
            for (const char *d = eq + 1; d < p + seg; d++) {
                if (*d < '0' || *d > '9' || w > (UINT32_MAX - (unsigned)(*d - '0')) / 10) return -1;
                w = w * 10 + (unsigned)(*d - '0');
            }
        }
        if (id_len == 0 || w < 1 || w > RB_MAX_WEIGHT) return -1; /* weights 1 .. 65536 */
        if (got) {
            FUZZ_CHECK(k < got->n, "parser found %zu members, more in '%s'", got->n, spec);
            FUZZ_CHECK(got->members[k].id_len == id_len && !memcmp(got->members[k].id, p, id_len),
                       "member %zu id differs in '%s'", k, spec);
            FUZZ_CHECK(got->members[k].weight == w, "member %zu weight %u, want %llu", k,
                       got->members[k].weight, (unsigned long long)w);
        }
        if (!end) break;
        p = end + 1;
    }
    FUZZ_CHECK(!got || got->n == k + 1, "parser found %zu members, want %zu", got->n, k + 1);
    return 0;
}

/* Must rb_ring_build accept this membership for `a`? (See ring.h.) */
static int ref_valid(const rb_algo *a, const rb_config *c, const rb_member *m, size_t n,
                     uint64_t *points) {
    uint64_t total_w = 0;
    int ok = n >= 1 && n <= RB_MAX_MEMBERS && c->n_vnodes >= 1 && c->n_buckets >= 1 &&
             c->n_buckets <= RB_MAX_BUCKETS;
    for (size_t i = 0; i < n; i++) {
        total_w += m[i].weight;
        ok = ok && m[i].weight >= 1 && m[i].weight <= RB_MAX_WEIGHT &&
             m[i].id_len <= RB_MAX_ID_BYTES &&
             rb_hash_check(c->ring_hash, m[i].id, m[i].id_len) == 0;
        for (size_t j = 0; ok && j < i; j++)
            ok = !(m[i].id_len == m[j].id_len && !memcmp(m[i].id, m[j].id, m[i].id_len));
    }
    int vn = (rb_algo_flags(a, c) & RB_ALGO_USES_VNODES) != 0;
    if (vn && c->n_vnodes && total_w > UINT64_MAX / c->n_vnodes)
        *points = UINT64_MAX;
    else
        *points = vn ? total_w * c->n_vnodes : total_w;
    return ok && *points <= RB_MAX_POINTS;
}

static uint32_t next_rand(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

/* Owner of every bucket, checked < N and equal to fill_table. */
static uint32_t *owners_of(const rb_ring *r) {
    uint32_t B = rb_ring_n_buckets(r), N = rb_ring_n_members(r), *own = malloc(B * sizeof *own),
             *tab = malloc(B * sizeof *tab);
    if (!own || !tab) abort();
    rb_ring_fill_table(r, tab);
    for (uint32_t b = 0; b < B; b++) {
        own[b] = rb_ring_owner_bucket(r, b);
        FUZZ_CHECK(own[b] < N, "%s: bucket %u owner %u >= N %u", rb_ring_algo(r)->name, b, own[b],
                   N);
        FUZZ_CHECK(own[b] == tab[b], "%s: bucket %u owner %u, fill_table %u", rb_ring_algo(r)->name,
                   b, own[b], tab[b]);
    }
    free(tab);
    return own;
}

/* Positions to probe: both ends, each bucket's position (ring_hash of its
 * decimal label, ring.h) and its neighbours, then random ones. */
static size_t probe_positions(const rb_config *c, uint64_t seed, uint64_t *pos, size_t cap) {
    size_t n = 0;
    pos[n++] = 0;
    pos[n++] = UINT64_MAX;
    pos[n++] = (uint64_t)UINT32_MAX;
    for (uint32_t b = 0; b < c->n_buckets && n + 3 <= cap; b++) {
        char label[16];
        int len = snprintf(label, sizeof label, "%u", b);
        uint64_t p = c->ring_hash->fn(label, (size_t)len, c->seed);
        pos[n++] = p;
        pos[n++] = p + 1;
        pos[n++] = p - 1;
    }
    while (n < cap)
        pos[n++] = (uint64_t)next_rand(&seed) << 32 | next_rand(&seed);
    return n;
}

static const char *id_of(const rb_ring *r, uint32_t i, size_t *len) {
    return rb_ring_member_id(r, i, len);
}

static void same_ids(const rb_ring *a, const uint32_t *oa, const rb_ring *b, const uint32_t *ob,
                     const char *what) {
    for (uint32_t k = 0; k < rb_ring_n_buckets(a); k++) {
        size_t la, lb;
        const char *ia = id_of(a, oa[k], &la), *ib = id_of(b, ob[k], &lb);
        FUZZ_CHECK(la == lb && !memcmp(ia, ib, la), "%s: bucket %u owners '%.*s' vs '%.*s'", what,
                   k, (int)la, ia, (int)lb, ib);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.ring_hash = cfg.bucket_hash = rb_hash_at(fuzz_take_u8(&in) % rb_hash_count());
    unsigned flags = fuzz_take_u8(&in);
    if (flags & 1) { /* any parameter: must be refused or work, never crash */
        cfg.n_vnodes = fuzz_take_u32(&in);
        cfg.n_buckets = fuzz_take_u32(&in);
    } else {
        cfg.n_vnodes = fuzz_take_u8(&in) % 32 + 1;
        cfg.n_buckets = (fuzz_take_u8(&in) << 8 | fuzz_take_u8(&in)) % MAX_BUCKETS_BUILT + 1;
    }
    cfg.seed = fuzz_take_u64(&in);
    uint64_t shuffle = fuzz_take_u32(&in);
    unsigned src_pick = fuzz_take_u8(&in), n_set = fuzz_take_u8(&in) % 4;
    unsigned extra_pick = fuzz_take_u8(&in), shuffle_pick = fuzz_take_u8(&in);
    /* up to 2 parameters an algorithm declares: mostly near its range, sometimes raw */
    for (unsigned k = 0; k < n_set && k < 2; k++) {
        const rb_algo *a = rb_algo_at(fuzz_take_u8(&in) % rb_algo_count());
        unsigned which = fuzz_take_u8(&in);
        uint64_t raw = fuzz_take_u64(&in);
        if (!a->n_params) continue;
        const rb_param_spec *sp = &a->params[which % a->n_params];
        uint64_t span = sp->max - sp->min < 4096 ? sp->max - sp->min + 1 : 4096;
        uint64_t v = which & 0x80 ? raw : sp->min + raw % (span ? span : 1);
        char assign[80];
        snprintf(assign, sizeof assign, "%s=%llu", sp->name, (unsigned long long)v);
        rb_config_set_param(&cfg, assign); /* a repeated name is refused: fine */
    }
    char *spec = fuzz_take_string(&in);

    rb_member_list list;
    char err[256];
    int rc = rb_member_list_parse(spec, &list, err, sizeof err);
    int want = ref_check(spec, NULL);
    FUZZ_CHECK((rc == 0) == (want == 0), "'%s': parse %d, reference %d (%s)", spec, rc, want,
               rc ? err : "");
    if (rc) {
        FUZZ_CHECK(err[0], "parse error without a message");
        free(spec);
        return 0;
    }
    ref_check(spec, &list);

    /* table's source: one of the positional algorithms */
    const rb_algo *pos_algos[MAX_ALGOS];
    size_t n_pos = 0, n_algos = rb_algo_count();
    for (size_t i = 0; i < n_algos && n_pos < MAX_ALGOS; i++)
        if (rb_algo_flags(rb_algo_at(i), NULL) & RB_ALGO_POSITIONAL)
            pos_algos[n_pos++] = rb_algo_at(i);
    if (n_pos) cfg.table_source = pos_algos[src_pick % n_pos]->name;

    /* Built on each input: linear, binary, table and table's source (the
     * agreement checks) plus one more algorithm the input picks, so a costly
     * build (e.g. a 65,537-entry Maglev table) does not slow every input;
     * across inputs every registered algorithm is built. */
    const rb_algo *lin = rb_algo_by_name("linear"), *bin = rb_algo_by_name("binary"),
                  *tab = rb_algo_by_name("table");
    const rb_algo *extra = rb_algo_at(extra_pick % n_algos);
    rb_ring *rings[MAX_ALGOS] = {0};
    uint32_t *owners[MAX_ALGOS] = {0};
    for (size_t i = 0; i < n_algos && i < MAX_ALGOS; i++) {
        const rb_algo *a = rb_algo_at(i);
        if (a != lin && a != bin && a != tab && a != extra &&
            !(cfg.table_source && !strcmp(a->name, cfg.table_source)))
            continue;
        uint64_t points;
        int valid = ref_valid(a, &cfg, list.members, list.n, &points);
        if (valid && (points > MAX_POINTS_BUILT || cfg.n_buckets > MAX_BUCKETS_BUILT)) continue;
        if (!valid && cfg.n_buckets <= RB_MAX_BUCKETS && cfg.n_buckets > MAX_BUCKETS_BUILT &&
            points <= RB_MAX_POINTS)
            continue; /* refused late (e.g. a duplicate id) after a large allocation: slow */
        rb_ring *r = NULL;
        rc = rb_ring_build(a, &cfg, list.members, list.n, &r);
        if (!valid) {
            FUZZ_CHECK(rc < 0 && !r, "%s: built a ring the contract refuses (V %u, B %u, '%s')",
                       a->name, cfg.n_vnodes, cfg.n_buckets, spec);
            FUZZ_CHECK(rb_error_detail()[0], "%s: refused without a message", a->name);
            continue;
        }
        if (rc == RB_ENOTSUP) continue;
        /* an algorithm that declares RB_ALGO_MAY_REFUSE_WEIGHTS may refuse
         * weights that leave a member no point (ketama gives a server
         * floor(40 N w / total) digests; ref_valid cannot predict which);
         * from any other algorithm RB_ENOPOINT breaks the contract */
        if (rc == RB_ENOPOINT) {
            FUZZ_CHECK(rb_algo_flags(a, &cfg) & RB_ALGO_MAY_REFUSE_WEIGHTS,
                       "%s: RB_ENOPOINT for a valid membership, but the algorithm does not "
                       "declare RB_ALGO_MAY_REFUSE_WEIGHTS: %s (V %u, B %u, '%s')",
                       a->name, rb_error_detail(), cfg.n_vnodes, cfg.n_buckets, spec);
            FUZZ_CHECK(rb_error_detail()[0], "%s: refused without a message", a->name);
            continue;
        }
        /* a parameter value the algorithm refuses (range, or a check like "prime") */
        if (cfg.n_params && (rc == RB_EINVAL || rc == RB_ERANGE) && rb_error_detail()[0]) continue;
        FUZZ_CHECK(rc == 0 && r, "%s: refused a valid membership: %d %s (V %u, B %u, '%s')",
                   a->name, rc, rb_error_detail(), cfg.n_vnodes, cfg.n_buckets, spec);
        FUZZ_CHECK(rb_ring_n_members(r) == list.n, "%s: %u members, want %zu", a->name,
                   rb_ring_n_members(r), list.n);
        for (uint32_t m = 0; m < list.n; m++) {
            size_t len;
            const char *id = id_of(r, m, &len);
            FUZZ_CHECK(len == list.members[m].id_len && !memcmp(id, list.members[m].id, len),
                       "%s: member %u id differs", a->name, m);
        }
        rings[i] = r;
        owners[i] = owners_of(r);
        for (size_t k = 0, off = 0; off <= strlen(spec); k++, off += k) /* keys: prefixes */
            FUZZ_CHECK(rb_ring_owner_key(r, spec, off) < list.n, "%s: key owner", a->name);
        if (rb_algo_flags(a, &cfg) & RB_ALGO_POSITIONAL) {
            uint64_t pos[64];
            size_t np = probe_positions(&cfg, cfg.seed ^ 1, pos, 64);
            for (size_t k = 0; k < np; k++)
                FUZZ_CHECK(rb_ring_owner_position(r, pos[k]) < list.n, "%s: position owner",
                           a->name);
        }
    }

    /* linear = binary on buckets and positions; table = its source */
    rb_ring *rl = NULL, *rbn = NULL, *rt = NULL, *rsrc = NULL;
    uint32_t *ol = NULL, *ob = NULL, *ot = NULL, *osrc = NULL;
    for (size_t i = 0; i < n_algos && i < MAX_ALGOS; i++) {
        const rb_algo *a = rb_algo_at(i);
        if (a == lin) rl = rings[i], ol = owners[i];
        if (a == bin) rbn = rings[i], ob = owners[i];
        if (a == tab) rt = rings[i], ot = owners[i];
        if (cfg.table_source && !strcmp(a->name, cfg.table_source))
            rsrc = rings[i], osrc = owners[i];
    }
    if (rl && rbn) {
        same_ids(rl, ol, rbn, ob, "linear vs binary");
        uint64_t pos[256];
        size_t np = probe_positions(&cfg, cfg.seed, pos, 256);
        for (size_t k = 0; k < np; k++) {
            uint32_t a = rb_ring_owner_position(rl, pos[k]),
                     b = rb_ring_owner_position(rbn, pos[k]);
            FUZZ_CHECK(a == b, "position %llu: linear %u, binary %u", (unsigned long long)pos[k], a,
                       b);
        }
    }
    if (rt && rsrc) same_ids(rt, ot, rsrc, osrc, "table vs its source");

    /* order-free algorithms on a shuffled list */
    rb_member *shuffled = malloc(list.n * sizeof *shuffled);
    if (!shuffled) abort();
    memcpy(shuffled, list.members, list.n * sizeof *shuffled);
    for (size_t k = list.n; k > 1; k--) {
        size_t j = next_rand(&shuffle) % k;
        rb_member t = shuffled[k - 1];
        shuffled[k - 1] = shuffled[j];
        shuffled[j] = t;
    }
    for (size_t i = 0; i < n_algos && i < MAX_ALGOS; i++) {
        /* the properties under this config: table takes its source's */
        if (!rings[i] || !(rb_algo_flags(rb_algo_at(i), &cfg) & RB_ALGO_ORDER_FREE)) continue;
        if (i != shuffle_pick % n_algos) continue; /* one per input (speed) */
        rb_ring *r2 = NULL;
        rc = rb_ring_build(rb_algo_at(i), &cfg, shuffled, list.n, &r2);
        FUZZ_CHECK(rc == 0, "%s: shuffled list refused: %s", rb_algo_at(i)->name,
                   rb_error_detail());
        uint32_t *o2 = owners_of(r2);
        same_ids(rings[i], owners[i], r2, o2, rb_algo_at(i)->name);
        free(o2);
        rb_ring_destroy(r2);
    }
    free(shuffled);
    for (size_t i = 0; i < MAX_ALGOS; i++) {
        rb_ring_destroy(rings[i]);
        free(owners[i]);
    }
    rb_member_list_free(&list);
    free(spec);
    return 0;
}
