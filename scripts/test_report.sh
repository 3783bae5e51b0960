#!/usr/bin/env bash
# scripts/test_report.sh BUILD_DIR — ctest `report.smoke`: runs the real tools
# with tiny sizes (scripts/run --smoke) into a temporary folder, then checks
# what scripts/report made of them: both READMEs and every SVG exist, figures
# in the README equal the ones in the JSON the tools wrote, an existing folder
# is not clobbered, a failing step or a missing result is reported by name, and every JSON
# file of the run validates against results/schema/ (scripts/check-schema).
# Postgres only when RINGBENCH_PG_CONNINFO is set (scripts/test sets it to its
# embedded server; scripts/run then uses that server).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: test_report.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ringbench-report-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n_fail=0
fail() { echo "FAIL: $*" >&2; n_fail=$((n_fail + 1)); }

# 1. a failing step stops the run and names the step
mkdir "$tmp/empty-build"
if "$root/scripts/run" --smoke --no-pg --build "$tmp/empty-build" --out "$tmp/bad" \
     > "$tmp/bad.out" 2> "$tmp/bad.err"; then
  fail "scripts/run with an empty build folder: got exit 0, expected 1"
fi
grep -q 'step 2/[0-9]* (build' "$tmp/bad.err" ||
  fail "failing build step: stderr does not name step 2 (build); got: $(tail -n 3 "$tmp/bad.err")"

# 1b. an --out whose parent cannot be made (a regular file on the path): one line, exit 2 (bad input; scripts/out-dir)
touch "$tmp/afile"
"$root/scripts/run" --smoke --no-pg --build "$tmp/empty-build" --out "$tmp/afile/out" \
  > /dev/null 2> "$tmp/afile.err"
rc=$?
if [ "$rc" != 2 ] || [ "$(wc -l < "$tmp/afile.err")" != 1 ] ||
   ! grep -q "^scripts/run: cannot create --out folder '$tmp/afile': it exists and is not a folder" "$tmp/afile.err"; then
  fail "--out under a regular file: exit $rc, stderr: $(cat "$tmp/afile.err")"
fi

# 2. a real smoke run; the folder exists already, so the run must use run-2
mkdir "$tmp/run" && touch "$tmp/run/keep"
pg=--no-pg
[ -z "${RINGBENCH_PG_CONNINFO:-}" ] || pg=
# shellcheck disable=SC2086
if ! "$root/scripts/run" --smoke $pg --build "$build" --out "$tmp/run" > "$tmp/run.out" 2> "$tmp/run.err"; then
  cat "$tmp/run.err" >&2
  echo "FAIL: scripts/run --smoke failed" >&2
  exit 1
fi
if [ ! -f "$tmp/run/keep" ] || [ -e "$tmp/run/README.md" ]; then fail "existing folder $tmp/run was written into"; fi
run=$tmp/run-2
[ -d "$run" ] || { echo "FAIL: expected the results in $run (folder not clobbered)" >&2; exit 1; }
grep -q "^report: $run/README.md$" "$tmp/run.out" || fail "stdout does not give the report path: $(cat "$tmp/run.out")"

# 3. a --smoke run is not published (issue 14): run.json says why, its README opens with it,
# and the README beside it is not written; marked published, scripts/report writes it
python3 - "$run/run.json" <<'PY' || fail "run.json of a --smoke run: expected published false, the profile named"
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["published"] is False and any("smoke profile" in w for w in d["unpublished_because"])
ok = ok and all(k in d for k in ("git_commit_start", "git_commit_end", "git_dirty_start", "git_dirty_end"))
sys.exit(0 if ok else 1)
PY
[ -e "$tmp/README.md" ] && fail "a --smoke run wrote the README beside its folder ($tmp/README.md)"
grep -q '^\*\*Not published\*\*.*smoke profile' "$run/README.md" || fail "$run/README.md does not open with 'Not published'"
python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); d["published"] = True; d["unpublished_because"] = []; json.dump(d, open(p, "w"))' "$run/run.json"
"$root/scripts/report" "$run" 2> "$tmp/report.err" || fail "scripts/report on a published run: $(cat "$tmp/report.err")"

# 4. the report and its plots
for f in "$run/README.md" "$tmp/README.md"; do
  [ -s "$f" ] || fail "$f missing or empty"
done
plots="headline movement-vs-n spread-vs-vnodes latency-vs-n build-vs-points bytes-per-vnode"
[ -z "${RINGBENCH_PG_CONNINFO:-}" ] || plots="$plots pg-claims pg-backlog"
for p in $plots; do
  svg=$run/plots/$p.svg
  if [ ! -s "$svg" ] || ! grep -q '<svg' "$svg"; then fail "$svg missing or not SVG"; fi
  grep -q "](plots/$p.svg)" "$run/README.md" || fail "README does not show plots/$p.svg"
  grep -q "]($(basename "$run")/plots/$p.svg)" "$tmp/README.md" || fail "top README does not show $p.svg"
done

# 5. figures in the README are the ones in the JSON
python3 - "$run" <<'PY' || n_fail=$((n_fail + 1))
import json, sys
run = sys.argv[1]
readme = open(f"{run}/README.md").read()
bad = 0
def expect(what, line):
    global bad
    if line not in readme:
        print(f"FAIL: {what}: expected the line\n  {line}\nin {run}/README.md", file=sys.stderr)
        bad += 1
seed = json.load(open(f"{run}/seed-fnv1a32.json"))
for r in seed["rows"]:
    expect(f"seed headline, algo {r['algo']}",
           f"| {r['algo']} | {r['hash']} | {r['moved_buckets']} | {r['ideal_buckets']} | {r['ratio']:.2f} |")
vn = json.load(open(f"{run}/vnodes-buckets.json"))
expect("vnodes verdict", f"**Verdict:** {vn['verdict']}.")
b0 = vn["bounded_rows"][0]
expect("vnodes bounded loads", f"| {b0['eps']:.2f} | {b0['n_vnodes']} | {b0['peak_to_mean_worst']:.3f} | ")
expect("vnodes bounded note", vn["bounded_note"] + ".")
hf = json.load(open(f"{run}/hyperfine/hyperfine.json"))
r = hf["results"][0]
expect("hyperfine mean", f"| {r.get('command_name') or r['command']} | {r['mean'] * 1e3:.1f} |")
hp = json.load(open(f"{run}/hyperfine/params.json"))
expect("hyperfine parameters", f"to {hp['members']} members (V = {hp['vnodes']}, hash ")
lk = json.load(open(f"{run}/bench/lookup.json"))
b = next(b for b in lk["benchmarks"] if b["name"].startswith("key/latency/table/xxh3/N:16/V:128"))
expect("table lookup latency", f"| table | xxh3 | latency | {1e9 / b['lookups_per_s']:.2f} |")
import os
if os.path.exists(f"{run}/pg/pgbench.json"):
    pg = json.load(open(f"{run}/pg/pgbench.json"))
    for r in pg["pgbench"]["runs"]:
        expect(f"pgbench TPS at {r['clients']} clients",
               f"| {r['clients']} | {r.get('when', '-')} | {r['tps']:.1f} | {r['latency_avg_ms']:.3f} |")
    ch = json.load(open(f"{run}/pg/chaos/chaos.json"))
    expect("chaos verdict", "**Verdict: pass**" if ch["verdict"] == "pass" else "**Verdict: FAIL**")
    expect("chaos lost", f"| **lost** | {ch['lost']} | 0 |")
    expect("chaos kills", f"| kill | SIGKILL of a worker (replaced) | {ch['faults']['kill']['injected']} |")
    c = pg["cells"][0]
    expect(f"pg cell {c['mode']} W {c['n_workers']} batch {c['batch']}",
           f"| {c['dist']} | {c['n_workers']} | {c['batch']} | {c.get('completion', 'batch')} | "
           f"{c['mode']} | {c['rows_per_s']:.1f}")
    # The enqueue row (scripts/bench-enqueue), or the reason it was skipped.
    eq = json.load(open(f"{run}/pg/enqueue.json"))
    if eq.get("skipped"):
        expect("enqueue skipped", f"Not measured in this run: {eq['skipped']}.")
    else:
        v = next(v for v in eq["variants"] if v["variant"] == "trigger")
        expect("enqueue trigger rows/s", f"| `trigger` | no bucket sent; the queue's trigger calls ringbench_bucket() | {v['rows_per_s']:.0f} | {v['vs_client']:.3f} |")
        pr = eq.get("producers")
        if pr and not pr.get("skipped"):
            c = next(c for c in pr["cells"] if c["keys"] == 1 and c["clients"] == 4)
            expect("producers one key 4 clients", f"| 1 | 4 | {c['tps_median']:.0f} |")
else:
    expect("chaos not run", "**Not run in this run** (--no-pg): no chaos figures.")
sys.exit(1 if bad else 0)
PY

# 6. a missing result is an error naming the file, not a silently shorter report
mkdir "$tmp/broken" && cp -r "$run"/. "$tmp/broken/" && rm "$tmp/broken"/seed-*.json
if "$root/scripts/report" "$tmp/broken" 2> "$tmp/broken.err"; then
  fail "scripts/report without seed-*.json: got exit 0, expected 1"
fi
grep -q 'seed-fnv1a32.json is missing' "$tmp/broken.err" ||
  fail "missing seed result: stderr does not name the file: $(cat "$tmp/broken.err")"

# 7. every JSON file of the run validates against its schema in results/schema/ (issue 14 §6)
"$root/scripts/check-schema" "$run" > "$tmp/schema.out"
case $? in
  0) ;;
  77) echo "report.smoke: schemas not checked: $(cat "$tmp/schema.out")" >&2 ;;
  *) fail "scripts/check-schema $run: invalid or unknown JSON (above)" ;;
esac

if [ "$n_fail" -ne 0 ]; then
  echo "report.smoke: $n_fail failures" >&2
  exit 1
fi
echo "report.smoke: ok ($run)"
