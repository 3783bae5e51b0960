#!/bin/sh
# test_bench_smoke.sh BENCH RINGBENCH OUT.json — ctest bench_smoke: one iteration of every case
# on 4,096 generated keys, then read the output back: no case reported an error; every
# algorithm of `ringbench list` has key and build cases (and position cases when positional); every rate is a positive
# finite number; each build case's n_points is N x V for vnode algorithms and N otherwise (from
# the case name, an independent count), with bytes_held > 0 and bytes_per_vnode =
# bytes_jemalloc / n_points. Correctness of the harness only: no figure is judged for speed.
set -u
"$1" --smoke --n-keys=4096 --benchmark_format=json --benchmark_out="$3" >/dev/null ||
    { echo "FAIL ringbench-bench --smoke exit $?"; exit 1; }
"$2" list --format json >"$3.list" || { echo "FAIL ringbench list exit $?"; exit 1; }
python3 - "$3" "$3.list" <<'PY'
import json, math, re, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
algos = {a["name"]: a["properties"].split(",") for a in json.load(open(sys.argv[2]))}
bad = []
def want(ok, msg):
    if not ok: bad.append(msg)
want(len(runs) > 0, "no benchmark ran")
seen = {}
for r in runs:
    name = r["name"]
    want(not r.get("error_occurred"), "%s: error %s" % (name, r.get("error_message")))
    want(r.get("iterations", 0) >= 1, "%s: %s iterations" % (name, r.get("iterations")))
    for k in ("lookups_per_s", "points_per_s"):
        if k in r:
            want(math.isfinite(r[k]) and r[k] > 0, "%s: %s = %s" % (name, k, r[k]))
    parts = name.split("/")
    fam = "/".join(parts[:2]) if parts[0] in ("key", "position") else parts[0]
    algo = parts[2] if parts[0] in ("key", "position") else parts[1] if len(parts) > 1 else ""
    seen.setdefault(fam, set()).add(algo)
    if parts[0] == "build":
        n = int(re.search(r"/N:(\d+)", name).group(1))
        m = re.search(r"/V:(\d+)", name)
        v = int(m.group(1)) if m and "vnodes" in algos.get(algo, []) else 1
        want(r.get("n_points") == n * v, "%s: n_points %s, expected N x V = %d" % (name, r.get("n_points"), n * v))
        want(r.get("bytes_held", 0) > 0, "%s: bytes_held %s" % (name, r.get("bytes_held")))
        if r.get("n_points"):
            want(abs(r["bytes_per_vnode"] - r["bytes_jemalloc"] / r["n_points"]) < 1e-6,
                 "%s: bytes_per_vnode %s, expected bytes_jemalloc / n_points" % (name, r["bytes_per_vnode"]))
for fam in ("key/latency", "key/throughput", "position/latency", "build"):
    # position cases exist for positional algorithms only (`table` maps buckets, not positions)
    expect = {a for a, p in algos.items() if fam != "position/latency" or "positional" in p}
    missing = sorted(expect - seen.get(fam, set()))
    want(not missing, "%s: no case for %s" % (fam, ", ".join(missing)))
for b in bad[:30]: print("FAIL", b)
print("bench_smoke: %d cases, %d algorithms, %d failed checks" % (len(runs), len(algos), len(bad)))
sys.exit(1 if bad else 0)
PY
