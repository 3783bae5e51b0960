# smoke.sh [PROFILE] — ctest pg_bench_smoke / pg_bench_quick (label pg): `ringbench pg
# bench --PROFILE` (smoke by default, or quick) against the
# pg_server fixture's server (queue/tests/lib.sh: RINGBENCH_PG_CONNINFO, else the embedded
# cluster, else SKIP). Correctness only, never speed: every cell, the crash run and the exit
# status must show duplicates == 0 and lost == 0. Own databases, so it runs beside the
# scenario tests.
# shellcheck source=../../queue/tests/lib.sh
source "$RB_PG_LIB"
profile=${1:-smoke}
case $profile in smoke | quick) ;; *) fail "unknown profile '$profile' (smoke or quick)" ;; esac
out=$TMP/out
set +e
"$RB" pg bench "--$profile" --queue-db "ringbench_bench_$profile" --pgbench-db "ringbench_pgbench_$profile" \
    --out "$out" --format json >"$TMP/bench.json" 2>"$TMP/bench.err"
rc=$?
set -e
python3 - "$TMP/bench.json" <<'PY' || fail "duplicates or lost rows (above)"
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for c in d["cells"]:
    case = "%s W=%d batch=%d %s" % (c["mode"], c["n_workers"], c["batch"], c["dist"])
    dup = c["after"]["n_duplicates"] + c["n_dup_executions"]
    for what, got in (("failed", c["failed"]), ("duplicates", dup), ("lost", c["n_lost"]),
                      ("completed without effect", c["after"]["n_completed_no_effect"])):
        if got:
            print("FAIL %s: %s: got %s, expected 0/false" % (case, what, got)); bad += 1
    if c["n_rows"] == 0:
        print("FAIL %s: rows completed: got 0, expected > 0" % case); bad += 1
k = d["crash"]
if k is None or k["failed"]:
    print("FAIL crash run: failed"); bad += 1
else:
    for what, got in (("duplicates", k["after"]["n_duplicates"]), ("lost", k["n_lost"])):
        if got:
            print("FAIL crash run: %s: got %d, expected 0" % (what, got)); bad += 1
    if k["after"]["n_completed"] != k["n_rows_enqueued"]:
        print("FAIL crash run: rows done: got %d, expected %d" % (k["after"]["n_completed"], k["n_rows_enqueued"])); bad += 1
sys.exit(1 if bad else 0)
PY
[[ $rc == 0 ]] || { tail -5 "$TMP/bench.err" >&2; fail "ringbench pg bench --$profile: exit $rc, expected 0"; }
# the JSON it wrote validates against results/schema/pgbench.schema.json (issue 14 §6)
mkdir -p "$TMP/stdout" && cp "$TMP/bench.json" "$TMP/stdout/pgbench.json"
check_schema "the pgbench JSON" "$out" "$TMP/stdout"
echo "PASS [$TEST]: $(grep -c '"mode"' "$TMP/bench.json") cells, crash run: 0 duplicates, 0 lost"
