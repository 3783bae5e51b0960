# smoke.sh [PROFILE] — ctest pg_bench_smoke / pg_bench_quick (label pg): `ringbench pg
# bench --PROFILE` (smoke by default, or quick) against the
# pg_server fixture's server (queue/tests/lib.sh: RINGBENCH_PG_CONNINFO, else the embedded
# cluster, else SKIP). Correctness only, never speed: every cell, the crash runs and the exit
# status must show duplicates == 0 and lost == 0; the chain group (batch 1, worker --chain)
# must be there with its target row, and the crash run with chain workers too; every point
# of the backlog sweep has --repeats repetitions and its claim p50 is their median; quick's 10 s
# soak: no row lost or done twice, its work per row measured in every
# interval, its ratios and pgbench drift as recomputed here. Own
# databases, so it runs beside the scenario tests.
# shellcheck source=../../queue/tests/lib.sh
source "$RB_PG_LIB"
profile=${1:-smoke}
case $profile in smoke | quick) ;; *) fail "unknown profile '$profile' (smoke or quick)" ;; esac
out=$TMP/out
set +e
# smoke: --repeats 1 --kills 1 repeat the profile's own settings, not an override (checked below);
# quick: 2 repetitions instead of its 3 (CI's time; an override, checked below)
same=(--repeats 2)
[[ $profile == smoke ]] && same=(--repeats 1 --kills 1)
# quick: a 10 s soak too (5 intervals of 2 s) with its pgbench reference around it (quick is
# overridden already; on smoke it would be an override, and smoke checks that repeating the
# profile's own settings is none)
soak=()
[[ $profile == quick ]] && soak=(--soak 10)
# its own databases afresh: one an older pg bench left unmarked (a server that outlives the
# tests, RINGBENCH_PG_CONNINFO) would be refused as a queue the bench did not make
for d in "ringbench_bench_$profile" ringbench_bench_order; do
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null
done
"$RB" pg bench "--$profile" --queue-db "ringbench_bench_$profile" --pgbench-db "ringbench_pgbench_$profile" \
    "${same[@]}" "${soak[@]}" --out "$out" --format json >"$TMP/bench.json" 2>"$TMP/bench.err"
rc=$?
set -e
python3 - "$TMP/bench.json" <<'PY' || fail "duplicates, lost rows or a wrong figure (above)"
import json, os, sys
d = json.load(open(sys.argv[1]))
bad = 0
for c in d["cells"]:
    case = "%s W=%d batch=%d %s %s" % (c["mode"], c["n_workers"], c["batch"], c["dist"],
                                        c["completion"])
    dup = c["after"]["n_duplicates"] + c["n_dup_executions"]
    for what, got in (("failed", c["failed"]), ("duplicates", dup), ("lost", c["n_lost"]),
                      ("completed without effect", c["after"]["n_completed_no_effect"])):
        if got:
            print("FAIL %s: %s: got %s, expected 0/false" % (case, what, got)); bad += 1
    if c["n_rows"] == 0:
        print("FAIL %s: rows completed: got 0, expected > 0" % case); bad += 1
    # the commit path (pg_stat_wal, PostgreSQL 14+): every commit of the cell was flushed by
    # some WAL flush, so at least one flush and a positive figure
    if c["n_rows"] and not (c.get("commits_per_wal_flush") or 0) > 0:
        print("FAIL %s: commits per WAL flush: got %s, expected > 0"
              % (case, c.get("commits_per_wal_flush"))); bad += 1
    if c.get("wal_fpi_per_krow") is None:
        print("FAIL %s: full-page images per 1,000 rows: got null" % case); bad += 1
    # with track_wal_io_timing on (scripts/pg sets it), the mean flush time too
    if "track_wal_io_timing=on" in (d.get("server_settings") or "") and c["n_rows"] and \
            not (c.get("wal_flush_ms") or 0) > 0:
        print("FAIL %s: WAL flush ms: got %s, expected > 0" % (case, c.get("wal_flush_ms"))); bad += 1
    # CPU per row: the workers spend some on every row, the machine at least that (Linux)
    cpu_m, cpu_c = c.get("machine_cpu_us_per_row"), c.get("client_cpu_us_per_row")
    if c["n_rows"] and not (cpu_c or 0) > 0:
        print("FAIL %s: workers' CPU/row: got %s, expected > 0" % (case, cpu_c)); bad += 1
    if c["n_rows"] and os.path.exists("/proc/stat") and not (cpu_m or 0) >= 0.5 * (cpu_c or 0):
        print("FAIL %s: machine CPU/row %s below the workers' %s" % (case, cpu_m, cpu_c)); bad += 1
chain = [c for c in d["cells"] if c["completion"] == "chain" and c["batch"] == 1]
if len(chain) != 3 * len(d["parameters"]["dists"]):
    print("FAIL chain group: got %d cells, expected 3 modes x W 1 x %d dists"
          % (len(chain), len(d["parameters"]["dists"]))); bad += 1
if not [t for t in d["targets"] if t["target"].endswith("chain b1 rows/s / pgbench TPS")
        and t["completion"] == "chain" and t["wanted"] == 0.8]:
    print("FAIL chain group: no 'MODE chain b1 rows/s / pgbench TPS' target row"); bad += 1
for name, chained in (("crash", False), ("crash_chain", True)):
    k = d[name]
    if k is None or k["failed"] or k["chain"] != chained:
        print("FAIL %s run: failed or missing (chain %s)" % (name, chained)); bad += 1
        continue
    for what, got in (("duplicates", k["after"]["n_duplicates"]), ("lost", k["n_lost"])):
        if got:
            print("FAIL %s run: %s: got %d, expected 0" % (name, what, got)); bad += 1
    if k["after"]["n_completed"] != k["n_rows_enqueued"]:
        print("FAIL %s run: rows done: got %d, expected %d"
              % (name, k["after"]["n_completed"], k["n_rows_enqueued"])); bad += 1
b = d["backlog_sweep"]
n_rep = d["parameters"]["repeats"]
if b is None or not b["points"] or len(b["points"]) % 3:
    print("FAIL backlog sweep: missing, or not one point per mode and size"); bad += 1
for x in (b or {}).get("points", []):
    case = "backlog %d %s" % (x["backlog"], x["mode"])
    reps = [v for v in x["repeat_claim_p50_us"] if v is not None]
    if x["failed"] or x["n_duplicates"] or x["n_lost"]:
        print("FAIL %s: failed, duplicates or lost rows" % case); bad += 1
    # a point measures claims at its backlog: at most max_consumed_share of it done, give or
    # take the batch each worker had in hand when it reached its share
    slack = b["n_workers"] * b["batch"] / x["backlog"]
    if x["consumed_share"] > b["max_consumed_share"] + slack + 1e-3:
        print("FAIL %s: consumed %.3f of the backlog, expected at most %.3f"
              % (case, x["consumed_share"], b["max_consumed_share"] + slack)); bad += 1
    if x["n_repeats"] != n_rep or len(x["repeat_claim_p50_us"]) != n_rep:
        print("FAIL %s: got %d repetitions, expected %d" % (case, x["n_repeats"], n_rep)); bad += 1
    # the point's p50 is the median (nearest rank) of its repetitions' p50, recomputed here
    med = sorted(reps)[(len(reps) + 1) // 2 - 1] if reps else None
    if med is None or abs(x["claim_p50_us"] - med) > 0.11 or \
            (x["claim_p50_min_us"], x["claim_p50_max_us"]) != (min(reps), max(reps)):
        print("FAIL %s: claim p50 %s (%s..%s), expected the median %s of %s"
              % (case, x["claim_p50_us"], x["claim_p50_min_us"], x["claim_p50_max_us"], med, reps)); bad += 1
# the soak (quick only): no row lost or done twice, every interval's work per row measured,
# and its ratios and the pgbench drift recomputed here from the figures beside them
s = d["soak"]
if d["parameters"]["soak_s"] and (s is None or s["failed"]):
    print("FAIL soak: failed or missing"); bad += 1
elif s:
    iv = s["intervals"]
    for what, got in (("duplicates", s["n_duplicates"]), ("lost", s["n_lost"])):
        if got:
            print("FAIL soak: %s: got %d, expected 0" % (what, got)); bad += 1
    if len(iv) < 2:
        print("FAIL soak: %d intervals, expected >= 2" % len(iv)); bad += 1
    for v in iv:
        for k in ("buffers_per_row", "wal_bytes_per_row", "cores_busy"):
            if not (v.get(k) or 0) > 0:
                print("FAIL soak interval until %s s: %s: got %s, expected > 0" % (v["t_end_s"], k, v.get(k))); bad += 1
        if os.path.exists("/proc/stat") and not (v.get("machine_cpu_us_per_row") or 0) > 0:
            print("FAIL soak interval until %s s: machine CPU/row: got %s" % (v["t_end_s"], v.get("machine_cpu_us_per_row"))); bad += 1
        # the test's role is a superuser: every table's vacuum share is seen (a number)
        av = v.get("autovacuum_share") or {}
        if sorted(av) != ["effects", "inbox", "inbox_done", "inbox_leases"] or \
                not all(isinstance(x, (int, float)) and 0 <= x <= 1 for x in av.values()):
            print("FAIL soak interval until %s s: autovacuum_share %s, expected 4 tables, each 0..1" % (v["t_end_s"], av)); bad += 1
    if len(iv) >= 2:
        for k, num, den in (("last_vs_first", iv[-1]["rows_per_s"], iv[0]["rows_per_s"]),
                            ("buffers_last_vs_first", iv[-1]["buffers_per_row"], iv[0]["buffers_per_row"]),
                            ("cpu_last_vs_first", iv[-1].get("machine_cpu_us_per_row"), iv[0].get("machine_cpu_us_per_row"))):
            if num is None or not den:
                continue  # no /proc/stat: no CPU per row
            if abs(s[k] - num / den) > 0.002 + 0.002 * num / den:
                print("FAIL soak: %s %s, expected %.3f" % (k, s[k], num / den)); bad += 1
    r = s["pgbench"]
    if not ((r["before_tps"] or 0) > 0 and (r["after_tps"] or 0) > 0):
        print("FAIL soak: pgbench reference %s / %s tps, expected both > 0" % (r["before_tps"], r["after_tps"])); bad += 1
    else:
        want = abs(r["after_tps"] - r["before_tps"]) / ((r["after_tps"] + r["before_tps"]) / 2)
        if abs(r["drift"] - want) > 0.002 or r["drift_flagged"] != (want > d["parameters"]["pgbench_drift_max"]):
            print("FAIL soak: pgbench drift %s (flagged %s), expected %.3f" % (r["drift"], r["drift_flagged"], want)); bad += 1
sys.exit(1 if bad else 0)
PY
# matrix_summary recomputed from the cells' repetitions, its 95% interval with a Student t
# quantile found here by integrating the t density (Simpson) and bisecting, not from a table
python3 - "$TMP/bench.json" <<'PY' || fail "matrix_summary (above)"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
def t975(df):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    pdf = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    def cdf0(x, n=4000):  # P(0 < T < x)
        h = x / n
        return h / 3 * (pdf(0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n)))
    lo, hi = 0.0, 20.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf0(mid) < 0.475 else (lo, mid)
    return (lo + hi) / 2
ms, bad = d["matrix_summary"], 0
chain = d["parameters"]["completion"] == "one commit per batch, shared with the next claim"
for m in ms["vs_competing"]:
    logs = []
    for c in d["cells"]:
        if c["mode"] != m["mode"] or (c["completion"] == "chain") != chain:
            continue
        k = [x for x in d["cells"] if x["mode"] == "competing" and x["completion"] == c["completion"]
             and (x["n_workers"], x["batch"], x["dist"]) == (c["n_workers"], c["batch"], c["dist"])][0]
        pairs = [math.log(a / b) for a, b in zip(c["repeat_rows_per_s"], k["repeat_rows_per_s"])
                 if a and b]
        if pairs:
            logs.append(sum(pairs) / len(pairs))
    mean, n = statistics.mean(logs), len(logs)
    half = t975(n - 1) * statistics.stdev(logs) / math.sqrt(n)
    want = (math.exp(mean), math.exp(mean - half), math.exp(mean + half), n)
    got = (m["geomean_rows_per_s_ratio"], m["ci95_low"], m["ci95_high"], m["n_cells"])
    if got[3] != want[3] or any(abs(g - w) > 0.0015 for g, w in zip(got[:3], want[:3])):
        print("FAIL matrix_summary %s: got %s, expected %s" % (m["mode"], got, want)); bad += 1
if len(ms["vs_competing"]) != len(d["parameters"]["modes"]) - 1:
    print("FAIL matrix_summary: %d modes against competing" % len(ms["vs_competing"])); bad += 1
sys.exit(1 if bad else 0)
PY
[[ $rc == 0 ]] || { tail -5 "$TMP/bench.err" >&2; fail "ringbench pg bench --$profile: exit $rc, expected 0"; }
# the JSON it wrote validates against results/schema/pgbench.schema.json (issue 14 §6)
mkdir -p "$TMP/stdout" && cp "$TMP/bench.json" "$TMP/stdout/pgbench.json"
check_schema "the pgbench JSON" "$out" "$TMP/stdout"
# --heap-order bucket rewrites each cell's backlog in bucket order before the cell: the cell
# records partition_bucket's correlation with the physical order (ANALYZE after the rewrite),
# ~1 (as loaded, uniform keys give ~0: the main run's cells above). --age-bound-ms 1 reaches
# the workers: the two affinity workers claim rows for their age (n_rows_aged > 0); the main
# run records the default (30000). The parameters: the profile and whether options overrode it.
"$RB" pg bench --queue-db ringbench_bench_order --pgbench-db ringbench_pgbench_order --modes affinity \
    --workers 2 --age-bound-ms 1 --batch 8 --dist uniform --secs 0.2 --repeats 1 --pgbench-secs 1 --pgbench-group-secs 1 \
    --chain-workers none --backlog none --no-scale --no-crash --heap-order bucket \
    --out "$TMP/order" --format json >"$TMP/order.json" 2>"$TMP/order.err" ||
    fail "pg bench --heap-order bucket: exit $? ($(tail -1 "$TMP/order.err"))"
python3 - "$TMP/order.json" "$TMP/bench.json" <<'PY' || fail "pg bench --heap-order bucket (above)"
import json, sys
d, loaded = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
bad = d["parameters"].get("heap_order") != "bucket"
main = loaded["parameters"]["profile"]
for run, want in ((d, ("full", True, 1)), (loaded, (main, main == "quick", 30000))):
    par = run["parameters"]
    got = (par["profile"], par.get("profile_overridden"), par.get("age_bound_ms"))
    if got != want:
        print("FAIL profile, overridden, age bound: %s, expected %s" % (got, want)); bad = True
if not sum(c.get("n_rows_aged", 0) for c in d["cells"]) > 0:
    print("FAIL --age-bound-ms 1: no row claimed for its age"); bad = True
for c in d["cells"]:
    if not (c.get("bucket_correlation") or 0) > 0.9 or c["n_lost"] or c["n_dup_executions"]:
        print("FAIL --heap-order bucket: correlation %s (expected > 0.9), lost %s, duplicates %s"
              % (c.get("bucket_correlation"), c["n_lost"], c["n_dup_executions"])); bad = True
for c in loaded["cells"]:
    if c["dist"] == "uniform" and not abs(c.get("bucket_correlation") or 0) < 0.5:
        print("FAIL as loaded: correlation %s, expected about 0" % c.get("bucket_correlation")); bad = True
sys.exit(1 if bad else 0)
PY
echo "PASS [$TEST]: $(grep -c '"mode"' "$TMP/bench.json") cells, crash runs (batch, chain): 0 duplicates, 0 lost"
