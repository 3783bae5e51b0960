# smoke.sh — ctest pg_peer_graphile (label pg): `scripts/peer-graphile --smoke` (500 / 200
# jobs, both systems, every configuration) against the pg_server fixture's server, in a
# database of its own (dropped afterwards). Checks that the peer ran and wrote what it
# promises, never a speed: exit 0; peer-graphile.json, .csv, .md present; the versions are the
# pinned ones; every configuration of both systems has a cell; every drain emptied its queue
# (0 jobs left, 0 errored, 0 duplicates), took time, counted commits; the ratio table has a row
# per pair, W and mode; the JSON validates (results/schema/peer-graphile.schema.json).
# SKIPPED (77) without a server (lib.sh), without node/npm, or when the npm packages are not
# installed (scripts/bootstrap installs them: bench/pg/peer/graphile/install).
# shellcheck source=../../../../queue/tests/lib.sh
source "$RB_PG_LIB"
peer=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP [$TEST]: node is not installed (scripts/bootstrap installs it)"
    exit 77
fi
if ! cmp -s "$peer/package-lock.json" "$peer/node_modules/.ringbench-lock"; then
    echo "SKIP [$TEST]: the graphile-worker packages are not installed (scripts/bootstrap, or bench/pg/peer/graphile/install)"
    exit 77
fi
db=ringbench_peer_smoke_$$
on_exit() { psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; }
out=$TMP/out
set +e
"$RB_SCRIPTS/peer-graphile" --smoke --conninfo "$RINGBENCH_PG_CONNINFO" --db "$db" \
    --build "$(dirname "$(dirname "$RB")")" --out "$out" >"$TMP/peer.out" 2>"$TMP/peer.err"
rc=$?
set -e
[[ $rc == 0 ]] || { tail -20 "$TMP/peer.err" >&2; fail "scripts/peer-graphile --smoke: exit $rc, expected 0"; }
for f in peer-graphile.json peer-graphile.csv peer-graphile.md; do
    [[ -s $out/$f ]] || fail "$f: missing or empty"
done
python3 - "$out/peer-graphile.json" "$peer/package.json" <<'PY' || fail "peer-graphile.json (above)"
import json, sys
d = json.load(open(sys.argv[1]))
pinned = json.load(open(sys.argv[2]))["dependencies"]
bad = 0
def check(what, got, want):
    global bad
    if got != want:
        print(f"FAIL {what}: got {got!r}, expected {want!r}"); bad += 1
check("graphile-worker version", d["run"]["graphile_worker"], pinned["graphile-worker"])
check("node-postgres version", d["run"]["node_postgres"], pinned["pg"])
check("node version recorded", d["run"]["node"].startswith("v"), True)
check("server fsync recorded", d["server"]["fsync"] in ("on", "off"), True)
modes = d["parameters"]["modes"]
want = {("graphile-worker", c, None) for c in ("batched", "each-fetch32", "each-fetch1")}
want |= {("ringbench", c, m) for c in ("batch32", "batch32-chain", "batch1", "batch1-chain") for m in modes}
check("configurations with a cell", {(c["system"], c["config"], c["mode"]) for c in d["cells"]} >= want, True)
for c in d["cells"]:
    case = f"{c['system']} {c['config']} {c['mode'] or ''} W={c['workers']}"
    check(f"{case}: jobs left", c["jobs_left"], 0)
    check(f"{case}: jobs errored", c["n_errored"], 0)
    check(f"{case}: duplicates", c["n_duplicates"], 0)
    check(f"{case}: jobs/s > 0", c["jobs_per_s"] > 0, True)
    check(f"{case}: commits counted", c["commits_per_job"] > 0, True)
# the ratio pairs (report.py PAIRS): 4 in the batch-32 group, 2 in the batch-1 group
n_pairs = sum(len(d["parameters"]["workers"][g]) for g in ("b32",) * 4 + ("b1",) * 2) * len(modes)
check("ratio rows", len(d["ratios"]), n_pairs)
for r in d["ratios"]:
    check(f"ratio {r['ringbench_config']}/{r['graphile_config']} W={r['workers']} {r['mode']}",
          abs(r["ratio"] - r["ringbench_jobs_per_s"] / r["graphile_jobs_per_s"]) < 1e-9, True)
sys.exit(1 if bad else 0)
PY
grep -q '^| ringbench | batch32 |' "$out/peer-graphile.md" || fail "peer-graphile.md: no ringbench batch32 row"
grep -q '^group,system,config,mode,workers,jobs' "$out/peer-graphile.csv" || fail "peer-graphile.csv: no header"
check_schema peer-graphile.json "$out"
echo "PASS [$TEST]: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cells"]))' "$out/peer-graphile.json") cells, every queue emptied, 0 duplicates"
