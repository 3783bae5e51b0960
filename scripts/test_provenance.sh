#!/usr/bin/env bash
# scripts/test_provenance.sh BUILD_DIR — ctest `report.provenance` (issue 14 §4): scripts/run
# marks a run unpublished when the git tree is dirty or HEAD moves during the run, and then
# leaves results/README.md alone. Runs `scripts/run --smoke --no-pg` twice at once, in two
# throwaway git repositories holding this checkout's tracked files (as they are in the work
# tree, committed):
#   (a) a tracked file changed before the run: run.json says "published": false, dirty at start
#       and end, and exactly two reasons (the smoke profile and the uncommitted change);
#   (b) HEAD moved during the run: scripts/machine-record is wrapped (the wrapper committed
#       before the run, so the tree is clean) by one that makes an empty commit and then runs
#       the real record, so HEAD moves during step 4 of every run; run.json gives exactly the
#       smoke reason and "HEAD moved during the run (start -> end)" with the two commits;
#       scripts/report is wrapped too, by one that first appends a line to results/README.md
#       as the report of a published run rewrites it: the run's own report must not count as
#       an uncommitted change (git_dirty_end false), which once refused a clean full run.
# Each case is the other's control (a clean tree in (b), an unmoved HEAD in (a)). Then, with the
# smoke reason taken out of run.json, scripts/report still does not publish the dirty run: its
# README opens with the remaining reason and results/README.md keeps its bytes.
# KEEP_TMP=1 keeps the temporary folder.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: test_provenance.sh BUILD_DIR}" && pwd)
for x in cli/ringbench bench/ringbench-bench; do
  [ -x "$build/$x" ] || { echo "SKIP: $build/$x is not built"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ringbench-provenance-test.XXXXXX")
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
n_fail=0
fail() { echo "FAIL report.provenance: $*" >&2; n_fail=$((n_fail + 1)); }
repo=$tmp/repo moved=$tmp/moved
g() { git -C "$repo" -c user.name=ringbench-test -c user.email=test@invalid "$@"; }
gm() { git -C "$moved" -c user.name=ringbench-test -c user.email=test@invalid "$@"; }

# the tracked files of this checkout, as they are now, in a repository of their own
mkdir "$repo"
git -C "$src" ls-files -z |
  tar -C "$src" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$repo" -xf - ||
  { echo "FAIL report.provenance: cannot copy the tracked files" >&2; exit 1; }
if ! { g init -q && g add -A && g commit -qm "the checkout under test" &&
       git clone -q "$repo" "$moved"; }; then
  echo "FAIL report.provenance: cannot make the test repositories" >&2
  exit 1
fi
top_sum=$(sha256sum < "$repo/results/README.md")

# smoke REPO NAME: scripts/run --smoke --no-pg into REPO/results/NAME
smoke() {
  if ! "$1/scripts/run" --smoke --no-pg --build "$build" --out "$1/results/$2" \
       > "$tmp/$2.out" 2> "$tmp/$2.err"; then
    echo "FAIL report.provenance: scripts/run --smoke ($2) failed: $(tail -n 5 "$tmp/$2.err")" >&2
    return 1
  fi
}
# reasons RUN_JSON DIRTY_START DIRTY_END WANT_REASON_REGEX: run.json is unpublished with exactly
# the smoke reason and one matching the regex, and records the tree state it names
reasons() {
  python3 - "$@" <<'PY'
import json, re, sys
path, d0, d1, want = sys.argv[1:]
d = json.load(open(path))
why = d.get("unpublished_because", [])
bad = []
if d.get("published") is not False:
    bad.append(f'"published" is {d.get("published")!r}, expected false')
if len(why) != 2 or "smoke profile" not in why[0] or not re.fullmatch(want, why[1]):
    bad.append(f"reasons {why}, expected the smoke profile and /{want}/")
if (str(d.get("git_dirty_start")).lower(), str(d.get("git_dirty_end")).lower()) != (d0, d1):
    bad.append(f"git_dirty_start/end {d.get('git_dirty_start')}/{d.get('git_dirty_end')}, "
               f"expected {d0}/{d1}")
for b in bad:
    print(f"FAIL report.provenance: {path}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# (a) a tracked file changed before the run (and still at its end)
echo "a local edit" >> "$repo/README.md"
# (b) HEAD moves during the run: a committed wrapper commits from inside step 4 (machine)
gm mv scripts/machine-record scripts/machine-record.real
cat > "$moved/scripts/machine-record" <<'SH'
#!/usr/bin/env bash
# test wrapper (scripts/test_provenance.sh): move HEAD, then the real record
git -C "$(dirname "$0")/.." -c user.name=ringbench-test -c user.email=test@invalid \
  commit -q --allow-empty -m "a commit during the run" >&2
exec "$(dirname "$0")/machine-record.real" "$@"
SH
chmod +x "$moved/scripts/machine-record"
gm mv scripts/report scripts/report.real
cat > "$moved/scripts/report" <<'SH'
#!/usr/bin/env bash
# test wrapper (scripts/test_provenance.sh): write the tracked top README as a published
# run's report does, then the real report
[ "${1:-}" = --summary ] || echo "written by the run's report step" >> "$(dirname "$0")/../results/README.md"
exec "$(dirname "$0")/report.real" "$@"
SH
chmod +x "$moved/scripts/report"
gm add scripts/machine-record scripts/report && gm commit -qm "test: machine-record moves HEAD, report writes the top README"
head_before=$(gm rev-parse HEAD)

# both runs at once (two repositories): about half the wall time
smoke "$repo" dirty & pid_a=$!
smoke "$moved" moved & pid_b=$!
if wait "$pid_a"; then
  reasons "$repo/results/dirty/run.json" true true \
    'the git tree had uncommitted changes to tracked files at the start and end' ||
    n_fail=$((n_fail + 1))
  grep -q 'NOT published.*uncommitted changes' "$tmp/dirty.out" ||
    fail "scripts/run stdout does not say NOT published: $(cat "$tmp/dirty.out")"
else
  n_fail=$((n_fail + 1))
fi
if wait "$pid_b"; then
  head_after=$(gm rev-parse HEAD)
  [ "$head_after" != "$head_before" ] || fail "the wrapper did not move HEAD"
  reasons "$moved/results/moved/run.json" false false \
    "HEAD moved during the run \\(${head_before:0:12} -> ${head_after:0:12}\\)" ||
    n_fail=$((n_fail + 1))
else
  n_fail=$((n_fail + 1))
fi

# results/README.md untouched by the dirty run ((b)'s wrapper writes its own on purpose), and by scripts/report on a run unpublished only
# for the dirty tree (the smoke reason taken out of run.json)
[ "$(sha256sum < "$repo/results/README.md")" = "$top_sum" ] || fail "a run rewrote $repo/results/README.md"
run=$repo/results/dirty
if [ -f "$run/run.json" ]; then
  python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); d["unpublished_because"] = d["unpublished_because"][1:]; d["profile"] = "full"; json.dump(d, open(p, "w"))' "$run/run.json"
  "$repo/scripts/report" "$run" 2> "$tmp/report.err" || fail "scripts/report: $(cat "$tmp/report.err")"
  [ "$(sha256sum < "$repo/results/README.md")" = "$top_sum" ] ||
    fail "scripts/report published a run made from a dirty tree over results/README.md"
  grep -q '^\*\*Not published\*\*.*uncommitted changes' "$run/README.md" ||
    fail "$run/README.md does not open with 'Not published' and the dirty tree"
fi

if [ "$n_fail" -ne 0 ]; then
  echo "report.provenance: $n_fail failures" >&2
  exit 1
fi
echo "report.provenance: ok"
