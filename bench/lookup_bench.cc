// lookup_bench.cc — the Google Benchmark shim. Registers every case at run
// time from the C registry (rb_algo_count/rb_algo_at, rb_hash_count/
// rb_hash_at): no per-algorithm code here. The measured loops are C
// (bench_work.c); this file only registers, times and labels them.
//
// Cases (names carry named arguments N = members, V = vnodes per member):
//   hash/<mode>/<hash>                   the hash-only control (the floor)
//   key/<mode>/<algo>/<hash>/N:/V:       key -> owner (rb_ring_owner_key)
//   position/<mode>/<algo>/xxh3/N:/V:    raw ring search, precomputed position
//   build/<algo>/xxh3/N:/V:              rb_ring_build + destroy; memory counters
//   join_refill/<algo>/xxh3/N:/V:        N-member ring -> one joins: build + fill B
//   resize/<algo>/xxh3/N:/V:             rb_ring_derive of the N-member ring to N+1
//                                        (incremental when the algorithm has derive,
//                                        else a rebuild; counter `incremental`)
//   qsort_u64/N:/V:                      qsort of N*V random u64 (build control)
//   peer/<mode>/libmemcached-ketama/md5/N:  libmemcached's ketama, key -> server
//   peer/<mode>/ketama/md5/N:            ringbench's ketama on the same MD5 key
//                                        position (peer_ketama.h; both rows only
//                                        when built with libmemcached)
// <mode> is latency or throughput (bench_work.h). V is omitted for
// algorithms without RB_ALGO_USES_VNODES. See bench/README.md.
#include <benchmark/benchmark.h>
#include <jemalloc/jemalloc.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_work.h"
#include "build_info.h"
#ifdef RINGBENCH_HAVE_LIBMEMCACHED
#include "peer_ketama.h"
#endif
extern "C" {
#include "cli.h"
}

namespace {

constexpr size_t kLookupsPerIteration = 256; // one timed iteration = a batch
const std::vector<int64_t> kMembers = {3, 4, 16, 64, 256, 1024};
const std::vector<int64_t> kVnodes = {16, 128, 256};

struct Options {
    std::string keys_path;        // --keys=PATH or $RINGBENCH_KEYS
    size_t n_generated = 1000000; // --n-keys=N when generating order:<n>
    double min_time_s = 0.2;      // --min-time=S per case
    bool smoke = false;           // --smoke: one iteration per case
};
Options g_opt;
rb_config g_params; // --param=NAME=VALUE values (only params/n_params are used)
rb_bench_keys g_keys;
uint64_t *g_positions; // xxh3 positions of g_keys (ring seed 0)

// One built ring is kept between the repeated calls Google Benchmark makes
// to the same case (it calls the function again with more iterations).
struct RingCache {
    const rb_algo *algo = nullptr;
    const rb_hash *hash = nullptr;
    int64_t n = 0, v = 0;
    rb_ring *ring = nullptr;
} g_cache;

struct Members {
    rb_member *members = nullptr;
    char *ids = nullptr;
    explicit Members(uint32_t n) { members = rb_bench_members(n, &ids); }
    ~Members() { std::free(members), std::free(ids); }
};

rb_config make_config(const rb_hash *hash, int64_t v) {
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.ring_hash = cfg.bucket_hash = hash;
    cfg.n_vnodes = static_cast<uint32_t>(v);
    std::memcpy(cfg.params, g_params.params, sizeof cfg.params);
    cfg.n_params = g_params.n_params;
    return cfg;
}

int64_t vnodes_of(const benchmark::State &st, const rb_algo *algo) {
    return (rb_algo_flags(algo, nullptr) & RB_ALGO_USES_VNODES) ? st.range(1) : RB_DEFAULT_N_VNODES;
}

rb_ring *cached_ring(benchmark::State &st, const rb_algo *algo, const rb_hash *hash) {
    int64_t n = st.range(0), v = vnodes_of(st, algo);
    if (g_cache.ring && g_cache.algo == algo && g_cache.hash == hash && g_cache.n == n &&
        g_cache.v == v)
        return g_cache.ring;
    rb_ring_destroy(g_cache.ring);
    g_cache = RingCache();
    Members m(static_cast<uint32_t>(n));
    rb_config cfg = make_config(hash, v);
    rb_ring *ring = nullptr;
    int rc = m.members ? rb_ring_build(algo, &cfg, m.members, n, &ring) : RB_ENOMEM;
    if (rc) {
        st.SkipWithError(rb_error_detail());
        return nullptr;
    }
    g_cache = RingCache{algo, hash, n, v, ring};
    return ring;
}

// The params of `algo` as a case label ("table_size=65537"), so every row of
// the JSON says which parameters it measured.
void label_params(benchmark::State &st, const rb_algo *algo, const rb_config *cfg) {
    char params[256];
    if (rb_params_format(algo, cfg, params, sizeof params)) st.SetLabel(params);
}

void set_lookup_rate(benchmark::State &st) {
    st.counters["lookups_per_s"] = benchmark::Counter(
        static_cast<double>(st.iterations() * kLookupsPerIteration), benchmark::Counter::kIsRate);
}

void bench_hash(benchmark::State &st, const rb_hash *hash, bool latency) {
    rb_config cfg = make_config(hash, RB_DEFAULT_N_VNODES);
    rb_bench_cursor c;
    rb_bench_cursor_init(&c);
    for (auto _ : st) {
        uint64_t sum = latency ? rb_bench_hash_latency(&cfg, &g_keys, &c, kLookupsPerIteration)
                               : rb_bench_hash_throughput(&cfg, &g_keys, &c, kLookupsPerIteration);
        benchmark::DoNotOptimize(sum);
    }
    set_lookup_rate(st);
}

void bench_key(benchmark::State &st, const rb_algo *algo, const rb_hash *hash, bool latency) {
    rb_ring *ring = cached_ring(st, algo, hash);
    if (!ring) return;
    rb_bench_cursor c;
    rb_bench_cursor_init(&c);
    for (auto _ : st) {
        uint64_t sum = latency
                           ? rb_bench_owner_key_latency(ring, &g_keys, &c, kLookupsPerIteration)
                           : rb_bench_owner_key_throughput(ring, &g_keys, &c, kLookupsPerIteration);
        benchmark::DoNotOptimize(sum);
    }
    set_lookup_rate(st);
    label_params(st, algo, rb_ring_config(ring));
}

void bench_position(benchmark::State &st, const rb_algo *algo, bool latency) {
    rb_ring *ring = cached_ring(st, algo, &rb_hash_xxh3);
    if (!ring) return;
    rb_bench_cursor c;
    rb_bench_cursor_init(&c);
    size_t n = g_keys.n_keys;
    for (auto _ : st) {
        uint64_t sum = latency ? rb_bench_owner_position_latency(ring, g_positions, n, &c,
                                                                 kLookupsPerIteration)
                               : rb_bench_owner_position_throughput(ring, g_positions, n, &c,
                                                                    kLookupsPerIteration);
        benchmark::DoNotOptimize(sum);
    }
    set_lookup_rate(st);
    label_params(st, algo, rb_ring_config(ring));
}

// Bytes this thread holds in jemalloc: thread.allocated - thread.deallocated
// (exact per-thread counters of usable bytes; stats.allocated lags behind
// thread caches). 0 when the counters are unavailable.
uint64_t jemalloc_thread_bytes() {
    uint64_t allocated = 0, deallocated = 0;
    size_t sz = sizeof allocated;
    if (mallctl("thread.allocated", &allocated, &sz, nullptr, 0)) return 0;
    sz = sizeof deallocated;
    if (mallctl("thread.deallocated", &deallocated, &sz, nullptr, 0)) return 0;
    return allocated - deallocated;
}

void bench_build(benchmark::State &st, const rb_algo *algo) {
    int64_t n = st.range(0), v = vnodes_of(st, algo);
    Members m(static_cast<uint32_t>(n));
    rb_config cfg = make_config(&rb_hash_xxh3, v);
    // Memory, measured once outside the timed loop.
    uint64_t before = jemalloc_thread_bytes();
    rb_ring *ring = nullptr;
    if (!m.members || rb_ring_build(algo, &cfg, m.members, n, &ring)) {
        st.SkipWithError(m.members ? rb_error_detail() : "out of memory");
        return;
    }
    uint64_t jemalloc_bytes = jemalloc_thread_bytes() - before;
    double n_points = static_cast<double>(rb_ring_n_points(ring));
    size_t held = rb_ring_bytes_held(ring);
    size_t structure = rb_ring_structure_bytes(ring);
    rb_ring_destroy(ring);
    for (auto _ : st) {
        int rc = rb_ring_build(algo, &cfg, m.members, n, &ring);
        benchmark::DoNotOptimize(ring);
        rb_ring_destroy(ring);
        if (rc) {
            st.SkipWithError(rb_error_detail());
            break;
        }
    }
    st.counters["n_points"] = n_points;
    st.counters["bytes_jemalloc"] = static_cast<double>(jemalloc_bytes);
    st.counters["bytes_held"] = static_cast<double>(held);
    st.counters["bytes_per_vnode"] = static_cast<double>(jemalloc_bytes) / n_points;
    st.counters["structure_bytes_per_vnode"] = static_cast<double>(structure) / n_points;
    st.counters["points_per_s"] = benchmark::Counter(
        n_points * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
    label_params(st, algo, &cfg);
}

void bench_join_refill(benchmark::State &st, const rb_algo *algo) {
    int64_t n = st.range(0), v = vnodes_of(st, algo);
    Members m(static_cast<uint32_t>(n + 1)); // the N old members and the one that joins
    rb_config cfg = make_config(&rb_hash_xxh3, v);
    std::vector<uint32_t> owners(cfg.n_buckets);
    if (!m.members) {
        st.SkipWithError("out of memory");
        return;
    }
    for (auto _ : st) {
        int rc = rb_bench_join_refill(algo, &cfg, m.members, n + 1, owners.data());
        benchmark::DoNotOptimize(owners.data());
        if (rc) {
            st.SkipWithError(rb_error_detail());
            break;
        }
    }
}

void bench_resize(benchmark::State &st, const rb_algo *algo) {
    int64_t n = st.range(0), v = vnodes_of(st, algo);
    Members m(static_cast<uint32_t>(n + 1)); // the N old members and the one that joins
    rb_config cfg = make_config(&rb_hash_xxh3, v);
    rb_ring *base = nullptr, *ring = nullptr;
    if (!m.members || rb_ring_build(algo, &cfg, m.members, n, &base)) {
        st.SkipWithError(m.members ? rb_error_detail() : "out of memory");
        return;
    }
    for (auto _ : st) {
        int rc = rb_ring_derive(base, m.members, n + 1, &ring);
        benchmark::DoNotOptimize(ring);
        rb_ring_destroy(ring);
        if (rc) {
            st.SkipWithError(rb_error_detail());
            break;
        }
    }
    rb_ring_destroy(base);
    st.counters["incremental"] = algo->derive ? 1 : 0;
    label_params(st, algo, &cfg);
}

void bench_qsort(benchmark::State &st) {
    size_t n = static_cast<size_t>(st.range(0) * st.range(1));
    std::vector<uint64_t> unsorted(n), work(n);
    rb_bench_random_u64(unsorted.data(), n);
    for (auto _ : st)
        benchmark::DoNotOptimize(rb_bench_qsort_u64(unsorted.data(), work.data(), n));
    st.counters["points_per_s"] = benchmark::Counter(
        static_cast<double>(n) * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
}

// Grid: N x V for vnode algorithms, N alone otherwise.
benchmark::internal::Benchmark *grid(benchmark::internal::Benchmark *b, const rb_algo *algo) {
    if (!algo || (rb_algo_flags(algo, nullptr) & RB_ALGO_USES_VNODES))
        b->ArgNames({"N", "V"})->ArgsProduct({kMembers, kVnodes});
    else
        b->ArgNames({"N"})->ArgsProduct({kMembers});
    if (g_opt.smoke) b->Iterations(1);
    return b;
}

void plain(benchmark::internal::Benchmark *b) {
    if (g_opt.smoke) b->Iterations(1);
}

#ifdef RINGBENCH_HAVE_LIBMEMCACHED
// The ketama peer rows: libmemcached's ketama and ours over the same servers,
// after checking that both give the same server for the first 10,000 keys.
void bench_peer_ketama(benchmark::State &st, bool libmemcached, bool latency) {
    const rb_algo *ketama = rb_algo_by_name("ketama");
    rb_ring *ring = ketama ? cached_ring(st, ketama, &rb_hash_xxh3) : nullptr;
    if (!ring) return;
    Members m(static_cast<uint32_t>(st.range(0)));
    rb_peer_ketama *peer = m.members ? rb_peer_ketama_open(m.members, st.range(0)) : nullptr;
    if (!peer) {
        st.SkipWithError("libmemcached refused the server list");
        return;
    }
    long bad = rb_peer_ketama_first_disagreement(peer, ring, &g_keys, 10000);
    if (bad >= 0) {
        st.SkipWithError(
            ("libmemcached and ketama disagree on key " + std::to_string(bad)).c_str());
        rb_peer_ketama_close(peer);
        return;
    }
    rb_bench_cursor c;
    rb_bench_cursor_init(&c);
    for (auto _ : st) {
        uint64_t sum =
            libmemcached
                ? (latency ? rb_peer_ketama_latency(peer, &g_keys, &c, kLookupsPerIteration)
                           : rb_peer_ketama_throughput(peer, &g_keys, &c, kLookupsPerIteration))
                : (latency
                       ? rb_peer_ketama_ours_latency(ring, &g_keys, &c, kLookupsPerIteration)
                       : rb_peer_ketama_ours_throughput(ring, &g_keys, &c, kLookupsPerIteration));
        benchmark::DoNotOptimize(sum);
    }
    rb_peer_ketama_close(peer);
    set_lookup_rate(st);
}

// libmemcached's continuum holds at most MEMCACHED_CONTINUUM_SIZE points (an
// assertion aborts the process above 100 servers), so N stops at 64 here.
const std::vector<int64_t> kPeerMembers = {3, 4, 16, 64};

void register_peers(const std::string &mode, bool latency) {
    for (bool libmemcached : {true, false}) {
        std::string name =
            "peer/" + mode + (libmemcached ? "/libmemcached-ketama" : "/ketama") + "/md5";
        plain(benchmark::RegisterBenchmark(name.c_str(), bench_peer_ketama, libmemcached, latency)
                  ->ArgNames({"N"})
                  ->ArgsProduct({kPeerMembers}));
    }
}
#else
void register_peers(const std::string &, bool) {}
#endif

void register_all() {
    const char *modes[2] = {"latency", "throughput"};
    for (int lat = 1; lat >= 0; lat--) {
        std::string mode = modes[lat ? 0 : 1];
        for (size_t h = 0; h < rb_hash_count(); h++) {
            const rb_hash *hash = rb_hash_at(h);
            plain(benchmark::RegisterBenchmark(("hash/" + mode + "/" + hash->name).c_str(),
                                               bench_hash, hash, lat == 1));
        }
        for (size_t a = 0; a < rb_algo_count(); a++) {
            const rb_algo *algo = rb_algo_at(a);
            for (size_t h = 0; h < rb_hash_count(); h++) {
                const rb_hash *hash = rb_hash_at(h);
                std::string name = "key/" + mode + "/" + algo->name + "/" + hash->name;
                grid(benchmark::RegisterBenchmark(name.c_str(), bench_key, algo, hash, lat == 1),
                     algo);
            }
        }
        for (size_t a = 0; a < rb_algo_count(); a++) {
            const rb_algo *algo = rb_algo_at(a);
            if (!algo->owner_position) continue;
            std::string name = "position/" + mode + "/" + algo->name + "/xxh3";
            grid(benchmark::RegisterBenchmark(name.c_str(), bench_position, algo, lat == 1), algo);
        }
        register_peers(mode, lat == 1);
    }
    for (size_t a = 0; a < rb_algo_count(); a++) {
        const rb_algo *algo = rb_algo_at(a);
        grid(benchmark::RegisterBenchmark((std::string("build/") + algo->name + "/xxh3").c_str(),
                                          bench_build, algo),
             algo);
    }
    for (size_t a = 0; a < rb_algo_count(); a++) {
        const rb_algo *algo = rb_algo_at(a);
        std::string name = std::string("join_refill/") + algo->name + "/xxh3";
        grid(benchmark::RegisterBenchmark(name.c_str(), bench_join_refill, algo), algo);
    }
    for (size_t a = 0; a < rb_algo_count(); a++) {
        const rb_algo *algo = rb_algo_at(a);
        std::string name = std::string("resize/") + algo->name + "/xxh3";
        grid(benchmark::RegisterBenchmark(name.c_str(), bench_resize, algo), algo);
    }
    grid(benchmark::RegisterBenchmark("qsort_u64", bench_qsort), nullptr);
}

std::string jemalloc_version() {
    const char *v = nullptr;
    size_t sz = sizeof v;
    return mallctl("version", &v, &sz, nullptr, 0) == 0 && v ? v : RB_BUILD_JEMALLOC_VERSION;
}

/* The benchmark's own parameters; the machine record (CPU, compiler, flags, versions, commit)
 * is scripts/machine-record's machine.json, which scripts/bench writes beside. */
void add_context() {
    benchmark::AddCustomContext("cxx_compiler", RB_BUILD_CXX_COMPILER);
    benchmark::AddCustomContext("allocator", "jemalloc " + jemalloc_version());
    benchmark::AddCustomContext("key_source", g_keys.source);
    benchmark::AddCustomContext("n_keys", std::to_string(g_keys.n_keys));
    benchmark::AddCustomContext("lookups_per_iteration", std::to_string(kLookupsPerIteration));
    benchmark::AddCustomContext("min_time_s", g_opt.smoke ? "smoke (1 iteration)"
                                                          : std::to_string(g_opt.min_time_s));
    benchmark::AddCustomContext("n_buckets", std::to_string(RB_DEFAULT_N_BUCKETS));
    benchmark::AddCustomContext("seed", "0");
    benchmark::AddCustomContext("members", "worker-0 .. worker-<N-1>, weight 1");
    rb_config cfg = make_config(&rb_hash_xxh3, RB_DEFAULT_N_VNODES);
    for (size_t a = 0; a < rb_algo_count(); a++) { // params/<algo>: what its rows measured
        char params[256];
        if (rb_params_format(rb_algo_at(a), &cfg, params, sizeof params))
            benchmark::AddCustomContext(std::string("params/") + rb_algo_at(a)->name, params);
    }
}

const char kUsage[] =
    "usage: ringbench-bench [--keys=PATH] [--n-keys=N] [--min-time=S] [--smoke]\n"
    "                       [Google Benchmark flags, e.g. --benchmark_filter=REGEX\n"
    "                        --benchmark_out=FILE --benchmark_out_format=json]\n"
    "  --keys=PATH   key file, one key per line (default $RINGBENCH_KEYS, else\n"
    "                generated keys order:0 .. order:<N-1>)\n"
    "  --n-keys=N    generated keys (default 1000000; 4096 with --smoke)\n"
    "  --min-time=S  minimum seconds per case (default 0.2)\n"
    "  --smoke       one iteration per case (CI smoke test)\n"
    "  --param=NAME=VALUE  a parameter of the algorithms that declare it\n"
    "                (repeatable; `ringbench list`), recorded in the context\n"
    "                (params/<algo>) and each case's label\n";

char g_min_time_flag[64];

// Our options are taken out of argv; the rest goes to Google Benchmark.
// --min-time becomes --benchmark_min_time (unless that is given), so case
// names carry no "/min_time:" suffix and filters stay simple.
int parse_options(int *argc, char **argv) {
    rb_config_init(&g_params);
    const char *env = std::getenv("RINGBENCH_KEYS");
    if (env) g_opt.keys_path = env;
    bool n_keys_set = false, min_time_given = false;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (std::strncmp(a, "--keys=", 7) == 0) {
            g_opt.keys_path = a + 7;
        } else if (std::strncmp(a, "--n-keys=", 9) == 0) {
            uint64_t n;
            int rc = rb_cli_whole(a + 9, 1, 100000000, &n);
            if (rc) {
                char msg[256];
                rb_cli_whole_message("--n-keys", a + 9, rc, 1, 100000000, msg, sizeof msg);
                std::fprintf(stderr, "ringbench-bench: %s\n", msg);
                return 2;
            }
            g_opt.n_generated = n, n_keys_set = true;
        } else if (std::strncmp(a, "--min-time=", 11) == 0) {
            double s;
            if (rb_cli_parse_double(a + 11, &s) || !(s > 0 && s <= 60)) {
                std::fprintf(stderr, "ringbench-bench: --min-time must be in (0, 60], got '%s'\n",
                             a + 11);
                return 2;
            }
            g_opt.min_time_s = s;
        } else if (std::strncmp(a, "--benchmark_min_time=", 21) == 0) {
            min_time_given = true;
            argv[out++] = argv[i];
        } else if (std::strncmp(a, "--param=", 8) == 0) {
            if (rb_config_set_param(&g_params, a + 8)) {
                std::fprintf(stderr, "ringbench-bench: %s\n", rb_error_detail());
                return 2;
            }
        } else if (std::strcmp(a, "--smoke") == 0) {
            g_opt.smoke = true;
        } else if (std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0) {
            std::fputs(kUsage, stdout);
            return 0;
        } else {
            argv[out++] = argv[i];
        }
    }
    std::vector<const rb_algo *> all;
    for (size_t a = 0; a < rb_algo_count(); a++)
        all.push_back(rb_algo_at(a));
    if (rb_algo_check_params(all.data(), all.size(), &g_params)) {
        std::fprintf(stderr, "ringbench-bench: %s\n", rb_error_detail());
        return 2;
    }
    if (g_opt.smoke && !n_keys_set) g_opt.n_generated = 4096;
    if (!min_time_given && !g_opt.smoke) {
        std::snprintf(g_min_time_flag, sizeof g_min_time_flag, "--benchmark_min_time=%g",
                      g_opt.min_time_s);
    }
    *argc = out;
    return -1;
}

} // namespace

int main(int argc, char **argv) {
    int rc = parse_options(&argc, argv);
    if (rc >= 0) return rc;
    std::vector<char *> args(argv, argv + argc);
    if (g_min_time_flag[0]) args.push_back(g_min_time_flag);
    int n_args = static_cast<int>(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&n_args, args.data());
    if (benchmark::ReportUnrecognizedArguments(n_args, args.data())) return 2;
    if ((rc = rb_bench_keys_load(g_opt.keys_path.c_str(), g_opt.n_generated, &g_keys)))
        return rc == -2 ? 2 : 1;
    rb_config cfg = make_config(&rb_hash_xxh3, RB_DEFAULT_N_VNODES);
    if (!(g_positions = rb_bench_positions(&cfg, &g_keys))) {
        std::fprintf(stderr, "ringbench-bench: out of memory for key positions\n");
        return 1;
    }
    add_context();
    register_all();
    /* a filter that matches no case is a usage error (Google Benchmark has
     * printed "Failed to match any benchmarks ..."), not an empty success */
    size_t n_run = benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    rb_ring_destroy(g_cache.ring);
    std::free(g_positions);
    rb_bench_keys_free(&g_keys);
    if (n_run == 0) return 2;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "ringbench-bench: writing output: %s\n", std::strerror(errno));
        return 1;
    }
    return 0;
}
