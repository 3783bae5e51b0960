# smoke.sh — ctest pg_layouts_smoke (label pg): `scripts/pg-layouts` on the pg_server fixture's
# server, smallest profile (W 2, batch 8, one round of 1 s, 40,000 rows), in a database of its
# own (dropped afterwards). Checks what the lab promises, never a speed: exit 0; layouts.json,
# .csv, .md written; a run per (layout, mode) with rows done; the claims of k and m HOT (more
# HOT updates than half the rows: fillfactor 80 leaves room) and no HOT update in s or d (status
# in the partial indexes' predicates): the property the lab exists to compare. Bad input: an
# unknown layout exits 2 with one line; a database the lab did not make is refused (exit 1).
# shellcheck source=../../../queue/tests/lib.sh
source "$RB_PG_LIB"
db=ringbench_layouts_smoke_$$
other=ringbench_layouts_other_$$
on_exit() {
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "DROP DATABASE IF EXISTS $db" \
        -c "DROP DATABASE IF EXISTS $other" >/dev/null 2>&1
}
out=$TMP/out
lab() { "$RB_SCRIPTS/pg-layouts" --conninfo "$RINGBENCH_PG_CONNINFO" "$@"; }
set +e
lab --db "$db" --out "$out" --workers 2 --batch 8 --repeats 1 --secs 1 --rows 40000 \
    >"$TMP/lab.out" 2>"$TMP/lab.err"
rc=$?
set -e
[[ $rc == 0 ]] || { tail -5 "$TMP/lab.err" >&2; fail "scripts/pg-layouts: exit $rc, expected 0"; }
for f in layouts.json layouts.csv layouts.md; do
    [[ -s $out/$f ]] || fail "$f: missing or empty"
done
python3 - "$out/layouts.json" <<'PY' || fail "layouts.json (above)"
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
runs = {(r["layout"], r["mode"]): r for r in d["runs"]}
for lay in "sdkm":
    for mode in ("competing", "affinity"):
        r = runs.get((lay, mode))
        if r is None or r["rows"] <= 0:
            bad.append(f"{lay} {mode}: no run or no row done ({r})")
            continue
        if lay in "km" and not r["hot_updates"] > r["rows"] / 2:
            bad.append(f"{lay} {mode}: {r['hot_updates']} HOT updates for {r['rows']} rows: "
                       "the claim is not HOT")
        if lay in "sd" and r["hot_updates"] != 0:
            bad.append(f"{lay} {mode}: {r['hot_updates']} HOT updates, expected 0")
if len(d["cells"]) != 4 or set(d["summary"]) != set("sdkm"):
    bad.append(f"{len(d['cells'])} cells, summary {sorted(d['summary'])}: expected 4 and s,d,k,m")
for b in bad:
    print("layouts.json:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
grep -q '^| layout | affinity ÷ competing' "$out/layouts.md" || fail "layouts.md: no summary table"
check_schema layouts.json "$out"

set +e
lab --db "$db" --out "$TMP/o2" --layouts s,x >"$TMP/bad.out" 2>"$TMP/bad.err"
rc=$?
set -e
if ! [[ $rc == 2 && $(wc -l <"$TMP/bad.err") == 1 ]] || ! grep -q "layouts" "$TMP/bad.err"; then
    fail "--layouts s,x: exit $rc, stderr '$(cat "$TMP/bad.err")'; expected 2 and one line"
fi
psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "CREATE DATABASE $other" >/dev/null
set +e
lab --db "$other" --out "$TMP/o3" --repeats 1 >"$TMP/other.out" 2>"$TMP/other.err"
rc=$?
set -e
if [[ $rc != 1 ]] || ! grep -q "was not made by this lab" "$TMP/other.err"; then
    fail "a database the lab did not make: exit $rc, stderr '$(cat "$TMP/other.err")'"
fi
echo "PASS [$TEST]: 8 runs, k and m claims HOT, s and d none, bad input refused"
