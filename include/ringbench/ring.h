/*
 * ringbench/ring.h — one C interface for every ring algorithm.
 *
 * Routing in the measured system (shared/DESIGN.md):
 *
 *     key --bucket_hash mod B--> bucket --ring--> owner (member index)
 *
 * A bucket b (0 <= b < B) has a fixed ring position: ring_hash of its label,
 * the decimal ASCII digits of b ("0" .. "1023"), under the ring seed. So with
 * the fnv1a32 hash, the owner of bucket b is the seed's lookupOwner(String(b)).
 * Positional algorithms (all but `table`) map any position to an owner; the
 * owner of a bucket is the owner of its position, the owner of a key the owner
 * of its bucket.
 *
 * A built ring (rb_ring) is immutable: any number of threads may look up
 * concurrently without locks. A membership change builds a new ring.
 *
 * Vnodes: a member of weight w has V*w vnodes. Vnode i of member `id` sits at
 * ring_hash(label) where label = id bytes, '#', decimal digits of i. The label
 * is injective in (id, i): the last '#' splits it, digits contain no '#'.
 * Ring points are totally ordered by (position, member id bytes compared with
 * memcmp then length, vnode index); a position equal to several points is
 * owned by the first in that order, so `linear`, `binary` and `table` agree
 * and removing one of the colliding members leaves the other's point.
 *
 * Errors: 0 or a negative RB_E* code (ringbench/error.h) with a detail
 * message from rb_error_detail(). Lookups cannot fail.
 */
#ifndef RINGBENCH_RING_H
#define RINGBENCH_RING_H

#include <stddef.h>
#include <stdint.h>

#include "ringbench/error.h"
#include "ringbench/hash.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defaults: the seed's example values. */
#define RB_DEFAULT_N_VNODES 128u   /* the seed's "128 points on the ring" */
#define RB_DEFAULT_N_BUCKETS 1024u /* the seed's 1,024 database buckets */

/* Limits that keep sizes far from overflow; larger requests get RB_ERANGE. */
#define RB_MAX_MEMBERS (1u << 20) /* members in one membership */
#define RB_MAX_POINTS (1u << 26)  /* vnodes (or slots) in one ring: 67M */
#define RB_MAX_BUCKETS (1u << 24) /* B */
#define RB_MAX_ID_BYTES 1024u     /* bytes in one member id */
#define RB_MAX_WEIGHT (1u << 16)  /* weight of one member */

/* One member of a membership. The caller owns `id`; rb_ring_build copies it. */
typedef struct rb_member {
    const void *id;  /* member id bytes (non-empty, unique in the membership) */
    size_t id_len;   /* length of id in bytes, 1 .. RB_MAX_ID_BYTES */
    uint32_t weight; /* 1 .. RB_MAX_WEIGHT; 0 leaves no point and is rejected */
} rb_member;

/* Per-algorithm parameters: at most RB_MAX_PARAMS set on one config, names of
 * at most RB_MAX_PARAM_NAME - 1 bytes, values whole numbers (decimal digits
 * only). RB_MAX_PARAM_TEXT holds the 20 digits of 2^64 - 1, "..." and NUL. */
#define RB_MAX_PARAMS 4u
#define RB_MAX_PARAM_NAME 32u
#define RB_MAX_PARAM_TEXT 24u

/* One parameter set on a config: `name=value`. `text` is the value as written (cut to
 * 20 bytes + "..."), quoted by messages; `past_u64` is 1 when it is all digits but above
 * 2^64 - 1 (value is then UINT64_MAX and the algorithm's range check refuses it). */
typedef struct rb_param {
    char name[RB_MAX_PARAM_NAME];
    uint64_t value;
    char text[RB_MAX_PARAM_TEXT];
    int past_u64;
} rb_param;

/*
 * rb_param_spec — one parameter an algorithm declares (rb_algo.params).
 * `check`, when not NULL, validates a value already inside [min, max]:
 * returns 0, or RB_EINVAL with a detail ("65536 is not prime"). Checks that
 * need the membership (Maglev's M >= N) belong in the algorithm's build.
 */
typedef struct rb_param_spec {
    const char *name; /* e.g. "table_size" */
    const char *help; /* one line for `ringbench list` and --help */
    uint64_t def;     /* value when not set */
    uint64_t min, max;
    int (*check)(uint64_t value);
} rb_param_spec;

/* Parameters of a ring. Initialise with rb_config_init(), then override. */
typedef struct rb_config {
    uint32_t n_vnodes;          /* V, vnodes per unit of weight; >= 1 */
    uint32_t n_buckets;         /* B, >= 1 */
    const rb_hash *ring_hash;   /* places vnodes and bucket positions */
    const rb_hash *bucket_hash; /* key -> bucket (bucket_hash(key) mod B) */
    uint64_t seed;              /* seed of both hashes */
    const char *table_source;   /* `table` only: algorithm that fills it ("binary") */
    /* per-algorithm parameters (`--param NAME=VALUE`), set with
     * rb_config_set_param; an algorithm reads those it declares
     * (rb_algo.params) and ignores the others. */
    rb_param params[RB_MAX_PARAMS];
    uint32_t n_params;
} rb_config;

/*
 * rb_config_init — defaults: V = 128, B = 1024, both hashes xxh3, seed 0,
 * table_source "binary". Never fails.
 */
void rb_config_init(rb_config *cfg);

/* rb_ring — a built ring: an opaque handle (its layout is private to
 * impls/, see impls/ring_impl.h); read it through the accessors below. */
typedef struct rb_ring rb_ring;
typedef struct rb_algo rb_algo;

/* Algorithm properties (rb_algo.flags). */
enum {
    RB_ALGO_POSITIONAL = 1u << 0,    /* owner_position is implemented */
    RB_ALGO_ORDER_FREE = 1u << 1,    /* owners do not depend on member order */
    RB_ALGO_USES_VNODES = 1u << 2,   /* n_vnodes changes the mapping */
    RB_ALGO_MONOTONE = 1u << 3,      /* adding/removing any member moves only its items */
    RB_ALGO_MONOTONE_LAST = 1u << 4, /* ... only when it is the last member (jump) */
    RB_ALGO_CONTROL = 1u << 5,       /* a deliberately non-consistent baseline (modn) */
    RB_ALGO_WEIGHTED = 1u << 6,      /* a member's expected load is proportional to its weight */
    RB_ALGO_OWN_HASH = 1u << 7,      /* ring positions come from the algorithm's own hash
                                      * (ketama: MD5), not cfg.ring_hash; see
                                      * rb_ring_bucket_position */
    RB_ALGO_MAY_REFUSE_WEIGHTS = 1u << 8, /* build may refuse valid weights that
                                           * leave a member no point (RB_ENOPOINT;
                                           * ketama: floor(40 N w / total) digests);
                                           * no other algorithm may return it */
    RB_ALGO_READS_SOURCE = 1u << 9,       /* build reads cfg.table_source and passes it the
                                           * config, so the source's --param apply (table,
                                           * bounded); in rb_algo.flags only, not flags_for */
};

/*
 * rb_algo — the operations table of one algorithm. Every table is static and
 * listed once in the registry (impls/registry.c). Members after `destroy` are
 * optional extensions (NULL when absent); new members are only ever appended.
 */
struct rb_algo {
    const char *name;        /* registry name, e.g. "binary" */
    const char *description; /* one line for `ringbench list` */
    const char *source;      /* paper / origin of the algorithm */
    unsigned flags;          /* RB_ALGO_* */

    /* build: given the header `hdr` already validated and filled by
     * rb_ring_build, allocate the algorithm's ring (which embeds rb_ring as its
     * first member, copied from *hdr) and store it in *out. Returns 0, or
     * RB_ENOMEM / RB_ERANGE / RB_ENOTSUP with a detail; on failure *out is
     * untouched and nothing leaks. */
    int (*build)(const rb_ring *hdr, rb_ring **out);

    /* owner_position: member index owning 64-bit ring position `pos`.
     * NULL for non-positional algorithms (`table`). Cannot fail. */
    uint32_t (*owner_position)(const rb_ring *r, uint64_t pos);

    /* owner_bucket: member index owning bucket b, 0 <= b < B (not checked in
     * the hot path). Cannot fail. NULL (positional algorithms): the default,
     * owner_position of the bucket's position (rb_ring_bucket_position). */
    uint32_t (*owner_bucket)(const rb_ring *r, uint32_t b);

    /* bytes_held: bytes the algorithm allocated beyond the header (see
     * rb_ring_bytes_held). Cannot fail. */
    size_t (*bytes_held)(const rb_ring *r);

    /* destroy: free what build allocated, including r itself. */
    void (*destroy)(rb_ring *r);

    /* --- optional extensions (NULL when absent) --- */

    /* owners_k: up to k distinct owners of bucket b in preference order into
     * out[0..k); returns the number written (min(k, n_members)). For
     * replicas. */
    uint32_t (*owners_k)(const rb_ring *r, uint32_t b, uint32_t *out, uint32_t k);

    /* derive: build a new ring from `old` after one membership change, for
     * stateful algorithms with incremental add/remove (AnchorHash,
     * MementoHash). `members` is the full new membership. NULL: rebuild. */
    int (*derive)(const rb_ring *old, const rb_member *members, size_t n_members, rb_ring **out);

    /* params: the parameters this algorithm reads (n_params entries; NULL
     * when none). Values reach build through cfg->params; read them with
     * rb_ring_param. */
    const rb_param_spec *params;
    size_t n_params;

    /* flags_for: the properties under a given configuration, when they depend
     * on it (`table` inherits its source's). NULL: `flags`. Read through
     * rb_algo_flags. Cannot fail. */
    unsigned (*flags_for)(const rb_config *cfg);

    /* movement_bound: the declared worst mean movement fraction after one
     * membership change, as a multiple of the ideal (1/(N+1) on add, 1/N on
     * remove), for the changes the algorithm claims are monotone (all three
     * when RB_ALGO_MONOTONE, add and remove-last when RB_ALGO_MONOTONE_LAST,
     * add and remove-last for a non-monotone algorithm that declares it,
     * e.g. Maglev). `ringbench verify` checks it per row (mean over the
     * seeds). 0: no bound declared (nothing checked). */
    double movement_bound;

    /* movement_excess: a fraction of all buckets that may move beyond
     * movement_bound x ideal (Maglev's disruption: entries that change hands
     * between members that stay, about constant in N). 0 for the minimal
     * algorithms. Checked with movement_bound. */
    double movement_excess;
};

/* --- the registry --- */

/* Number of registered algorithms, and the i-th in registry order (NULL when
 * out of range). The CLI, the verifier and the benchmarks iterate these. */
size_t rb_algo_count(void);
const rb_algo *rb_algo_at(size_t i);

/* rb_algo_by_name — the algorithm called `name`, or NULL with an RB_EUNKNOWN
 * detail listing the valid names. */
const rb_algo *rb_algo_by_name(const char *name);

/* rb_algo_flags — the RB_ALGO_* properties `algo` has under `cfg`
 * (flags_for when the algorithm has it, else flags). Verify checks these and
 * only these. cfg may be NULL (then `flags`). Pure. */
unsigned rb_algo_flags(const rb_algo *algo, const rb_config *cfg);

/* rb_algo_flags_format — the properties in `flags` as comma-separated names
 * ("positional,order_free,vnodes,monotone,monotone_last,control,weighted,
 * own_hash")
 * into buf; returns the length needed (as snprintf). */
size_t rb_algo_flags_format(unsigned flags, char *buf, size_t size);

/* rb_algo_param_spec — the parameter `name` that `algo` declares, or NULL. */
const rb_param_spec *rb_algo_param_spec(const rb_algo *algo, const char *name);

/* --- per-algorithm parameters --- */

/*
 * rb_config_set_param — record `assign` ("NAME=VALUE", VALUE decimal digits
 * only: no sign, space, "0x" or empty) on cfg. Syntax only: which algorithm
 * reads it, and its range, are checked by rb_algo_check_params (a value past
 * 2^64 - 1 too, so its message gives the parameter's own range). Returns 0, or
 * RB_EINVAL (no '=', empty or too long name, "--param NAME: 'VALUE' is not a
 * whole number", the name set twice, more than RB_MAX_PARAMS) with a detail.
 * Copies the name and the value's text.
 */
int rb_config_set_param(rb_config *cfg, const char *assign);

/*
 * rb_algo_check_params — validate cfg's parameters against the algorithms
 * algos[0..n): each parameter must be declared by at least one of them
 * (RB_EUNKNOWN naming the parameters they have), and its value must pass the
 * range and check of every one that declares it (RB_EINVAL / RB_ERANGE with
 * a detail). rb_ring_build runs the value checks for its algorithm too.
 */
int rb_algo_check_params(const rb_algo *const *algos, size_t n, const rb_config *cfg);

/* rb_config_param — value of parameter `name` for `algo`: the one set on cfg,
 * else the declared default; 0 when `algo` does not declare it. Pure. */
uint64_t rb_config_param(const rb_algo *algo, const rb_config *cfg, const char *name);

/*
 * rb_params_format — the effective parameters of `algo` under cfg as
 * "name=value,name=value" (declared ones with their defaults, plus any set on
 * cfg that another algorithm reads, e.g. a `table` source's) into buf; "" when
 * there are none. Returns the length it needed (as snprintf). For records.
 */
size_t rb_params_format(const rb_algo *algo, const rb_config *cfg, char *buf, size_t size);

/* --- building --- */

/*
 * rb_ring_build — build a ring of `algo` over members[0 .. n_members).
 * Validates (the code returned when violated):
 *   n_members >= 1 (RB_EEMPTY) and <= RB_MAX_MEMBERS (RB_ERANGE);
 *   members non-NULL, ids non-empty (RB_EINVAL), <= RB_MAX_ID_BYTES
 *   (RB_ERANGE) and unique (RB_EDUP);
 *   weights >= 1 (RB_ENOPOINT) and <= RB_MAX_WEIGHT (RB_ERANGE);
 *   V >= 1 (RB_ENOPOINT); B >= 1 and <= RB_MAX_BUCKETS (RB_ERANGE);
 *   points (V x total weight for vnode algorithms, total weight otherwise)
 *   <= RB_MAX_POINTS (RB_ERANGE; compared without overflow);
 *   cfg, algo and both hashes non-NULL (RB_EINVAL);
 *   ids valid input for the ring hash (RB_EENCODING: invalid UTF-8 under
 *   fnv1a32-js).
 * `verify/test_contract.c` checks each of these for every algorithm.
 * Copies the ids; the caller keeps ownership of `members`.
 * On success *out owns a ring to free with rb_ring_destroy. On failure *out is
 * set to NULL. Thread-safe (no shared state).
 */
int rb_ring_build(const rb_algo *algo, const rb_config *cfg, const rb_member *members,
                  size_t n_members, rb_ring **out);

/*
 * rb_ring_derive — the ring of old's algorithm and configuration over the new
 * membership members[0 .. n_members) (typically old's plus or minus one
 * member), by the algorithm's incremental `derive` when it has one, else by
 * rb_ring_build. Same validation, errors and ownership as rb_ring_build; `old`
 * is not changed and stays valid. Thread-safe against lookups on `old`.
 */
int rb_ring_derive(const rb_ring *old, const rb_member *members, size_t n_members, rb_ring **out);

/* rb_ring_destroy — free a ring; NULL is a no-op. Not concurrent with lookups
 * on the same ring. */
void rb_ring_destroy(rb_ring *r);

/* --- lookups (thread-safe, cannot fail) --- */

/* rb_bucket_of — bucket of a key: bucket_hash(key, seed) mod B. */
uint32_t rb_bucket_of(const rb_config *cfg, const void *key, size_t len);

/* rb_ring_bucket_of_hash — bucket of a precomputed bucket hash h: h mod B. */
uint32_t rb_ring_bucket_of_hash(const rb_ring *r, uint64_t h);

/* rb_ring_owner_bucket — owner (member index) of bucket b, 0 <= b < B. */
uint32_t rb_ring_owner_bucket(const rb_ring *r, uint32_t b);

/* rb_ring_owner_hash — owner of a key whose bucket hash is h (the value a
 * producer stores), i.e. owner of bucket h mod B. */
uint32_t rb_ring_owner_hash(const rb_ring *r, uint64_t h);

/* rb_ring_owner_position — owner of 64-bit ring position `pos` for a
 * positional algorithm (RB_ALGO_POSITIONAL); UINT32_MAX for any other. */
uint32_t rb_ring_owner_position(const rb_ring *r, uint64_t pos);

/* rb_ring_bucket_position — the ring position of bucket b (0 <= b < B) of a
 * positional ring: ring_hash of its decimal label, or the algorithm's own
 * hash of it under RB_ALGO_OWN_HASH; 0 for a non-positional ring. */
uint64_t rb_ring_bucket_position(const rb_ring *r, uint32_t b);

/* rb_ring_owner_key — owner of a key (any bytes; NULL allowed when len 0). */
uint32_t rb_ring_owner_key(const rb_ring *r, const void *key, size_t len);

/* rb_ring_fill_table — owners of all B buckets into owners[0 .. B). */
void rb_ring_fill_table(const rb_ring *r, uint32_t *owners);

/*
 * rb_ring_owners — replicas: the k distinct owners of bucket b (< B) in
 * preference order into out[0 .. k); out[0] is rb_ring_owner_bucket(r, b).
 * Vnode rings (linear, binary): the ring walk clockwise from the bucket's
 * point, skipping members already chosen, wrapping; rendezvous: the k highest
 * scores; multiprobe: the owner, then ascending probe distance. Returns k, or
 * RB_EINVAL (k == 0, b >= B), RB_ERANGE (k > n_members) or RB_ENOTSUP (an
 * algorithm without owners_k: the slot algorithms, table) with a detail.
 * Thread-safe on a built ring. impls/replicas.c.
 */
int rb_ring_owners(const rb_ring *r, uint32_t b, uint32_t *out, uint32_t k);

/* rb_ring_member_id — id bytes of member `idx` (< n_members); *len gets the
 * length. Pointer valid while the ring lives. */
const void *rb_ring_member_id(const rb_ring *r, uint32_t idx, size_t *len);

/* --- accessors (a ring is an opaque handle; pure, thread-safe) --- */

/* rb_ring_algo — the algorithm the ring was built with. */
const rb_algo *rb_ring_algo(const rb_ring *r);

/* rb_ring_config — the ring's configuration (a copy made at build; valid
 * while the ring lives; table_source points at the caller's string). */
const rb_config *rb_ring_config(const rb_ring *r);

/* rb_ring_n_members / rb_ring_n_buckets — N and B. */
uint32_t rb_ring_n_members(const rb_ring *r);
uint32_t rb_ring_n_buckets(const rb_ring *r);

/* rb_ring_member — member `idx` (< N): its id (ring-owned copy), length and
 * weight. Pointer valid while the ring lives. */
const rb_member *rb_ring_member(const rb_ring *r, uint32_t idx);

/* rb_ring_flags — rb_algo_flags of the ring's algorithm and configuration. */
unsigned rb_ring_flags(const rb_ring *r);

/* rb_ring_param — parameter `name` of the ring's algorithm (set or default;
 * 0 when undeclared). */
uint64_t rb_ring_param(const rb_ring *r, const char *name);

/* rb_ring_bytes_held — bytes held by the ring: the algorithm's structures plus
 * the header, the copied ids and the bucket positions. */
size_t rb_ring_bytes_held(const rb_ring *r);

/* rb_ring_structure_bytes — bytes the algorithm's own structures hold (the
 * vnode arrays, tables, ...), without the shared header, ids and bucket
 * positions. */
size_t rb_ring_structure_bytes(const rb_ring *r);

/* rb_ring_n_points — number of vnodes/slots a ring of these members has:
 * V * total weight for vnode algorithms, total weight otherwise. */
uint64_t rb_ring_n_points(const rb_ring *r);

/* rb_vnode_label — write the label of vnode `i` of member `id` (id, '#',
 * decimal i) into buf (size >= id_len + 12); returns its length. */
size_t rb_vnode_label(char *buf, const void *id, size_t id_len, uint32_t i);

/* rb_jump_hash — Lamping & Veach's jump consistent hash (arXiv:1406.2294,
 * figure 1): the bucket in [0, n_buckets) of a 64-bit key; n_buckets >= 1.
 * Exposed for known-answer tests. Pure. */
uint32_t rb_jump_hash(uint64_t key, uint32_t n_buckets);

#ifdef __cplusplus
}
#endif
#endif
