/*
 * registry.c — the one list of ring algorithms and hashes.
 *
 * Adding an algorithm: write impls/<name>.c defining `const rb_algo
 * rb_algo_<name>` (start from impls/TEMPLATE.c.in) and add one X(<name>) line
 * below; the build compiles every .c file in impls/. The CLI, the verifier, the
 * benchmarks and the reports iterate this list and need no other edit
 * (impls/README.md; the test verify.template does exactly this).
 */
#include <stdio.h>
#include <string.h>

#include "ringbench/ring.h"

#define RB_ALGO_LIST(X)                                                                            \
    X(modn)                                                                                        \
    X(linear)                                                                                      \
    X(binary)                                                                                      \
    X(front)                                                                                       \
    X(jump)                                                                                        \
    X(rendezvous)                                                                                  \
    X(table)                                                                                       \
    X(maglev)                                                                                      \
    X(ketama)                                                                                      \
    X(anchor)                                                                                      \
    X(memento)                                                                                     \
    X(dx)                                                                                          \
    X(jumpback)                                                                                    \
    X(fliphash)                                                                                    \
    X(powerch)                                                                                     \
    X(binomial)                                                                                    \
    X(multiprobe)                                                                                  \
    X(bounded)                                                                                     \
    X(skeleton)

#define RB_ALGO_DECLARE_(ident) extern const rb_algo rb_algo_##ident;
RB_ALGO_LIST(RB_ALGO_DECLARE_)
#undef RB_ALGO_DECLARE_

static const rb_algo *const algos[] = {
#define RB_ALGO_ENTRY_(ident) &rb_algo_##ident,
    RB_ALGO_LIST(RB_ALGO_ENTRY_)
#undef RB_ALGO_ENTRY_
};

static const rb_hash *const hashes[] = {
#define RB_HASH_ENTRY_(ident, name) &rb_hash_##ident,
    RB_HASH_LIST(RB_HASH_ENTRY_)
#undef RB_HASH_ENTRY_
};

#define N_ALGOS (sizeof algos / sizeof algos[0])
#define N_HASHES (sizeof hashes / sizeof hashes[0])

size_t rb_algo_count(void) { return N_ALGOS; }
const rb_algo *rb_algo_at(size_t i) { return i < N_ALGOS ? algos[i] : NULL; }
size_t rb_hash_count(void) { return N_HASHES; }
const rb_hash *rb_hash_at(size_t i) { return i < N_HASHES ? hashes[i] : NULL; }

/* Write "a, b, c" of the registered names into buf. */
static void join_names(char *buf, size_t size, const char *(*name_at)(size_t), size_t n) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", name_at(i));
        if (w < 0) break;
        used += (size_t)w;
    }
}

static const char *algo_name_at(size_t i) { return algos[i]->name; }
static const char *hash_name_at(size_t i) { return hashes[i]->name; }

const rb_algo *rb_algo_by_name(const char *name) {
    for (size_t i = 0; name && i < N_ALGOS; i++)
        if (strcmp(algos[i]->name, name) == 0) return algos[i];
    char list[192];
    join_names(list, sizeof list, algo_name_at, N_ALGOS);
    rb_set_error(RB_EUNKNOWN, "unknown algorithm '%s' (known: %s)", name ? name : "(null)", list);
    return NULL;
}

const rb_hash *rb_hash_by_name(const char *name) {
    for (size_t i = 0; name && i < N_HASHES; i++)
        if (strcmp(hashes[i]->name, name) == 0) return hashes[i];
    char list[192];
    join_names(list, sizeof list, hash_name_at, N_HASHES);
    rb_set_error(RB_EUNKNOWN, "unknown hash '%s' (known: %s)", name ? name : "(null)", list);
    return NULL;
}

int rb_hash_check(const rb_hash *h, const void *data, size_t len) {
    return h->check ? h->check(data, len) : 0;
}
