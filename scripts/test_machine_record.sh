#!/usr/bin/env bash
# scripts/test_machine_record.sh BUILD_DIR RINGBENCH — ctest `machine_record.keys` (issue 14 §5,
# one machine record): scripts/machine-record is its one writer. Checks that
#  1. its output is one JSON object and KEY=VALUE arguments add exactly those keys;
#  2. the "meta" record ringbench's JSON output carries (vnodes, verify --seed-example; pg bench
#     uses the same rb_machine_record) has exactly scripts/machine-record's key set;
#  3. no other tracked file reads the machine itself (/proc/cpuinfo, "model name", nproc,
#     _SC_NPROCESSORS, uname, MemTotal): a second writer would drift from the first.
# (The machine.json files of a scripts/run folder are checked by results/schema/machine.schema.json.)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: test_machine_record.sh BUILD_DIR RINGBENCH}
rb=${2:?usage: test_machine_record.sh BUILD_DIR RINGBENCH}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ringbench-machine-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n_fail=0
fail() { echo "FAIL: $*" >&2; n_fail=$((n_fail + 1)); }

"$root/scripts/machine-record" "$build" > "$tmp/ref.json" || fail "scripts/machine-record exited $?"
"$root/scripts/machine-record" "$build" kind=test command="a b" > "$tmp/extra.json" ||
  fail "scripts/machine-record with KEY=VALUE exited $?"
"$rb" vnodes --quiet --members 3..4 --max-vnodes 16 --seeds 1 --format json > "$tmp/vnodes.json" ||
  fail "ringbench vnodes exited $?"
"$rb" verify --seed-example --seeds 1 --format json > "$tmp/seed.json" ||
  fail "ringbench verify --seed-example exited $?"

python3 - "$tmp" <<'PY' || n_fail=$((n_fail + 1))
import json, sys
t = sys.argv[1]
bad = 0
def load(name):
    with open(f"{t}/{name}") as f:
        return json.load(f)
ref = load("ref.json")
if not isinstance(ref, dict) or len(ref) < 10:
    print(f"FAIL: scripts/machine-record printed no record: {ref!r}", file=sys.stderr)
    sys.exit(1)
keys = set(ref)
def same(what, got, want):
    global bad
    if set(got) != want:
        print(f"FAIL: {what}: keys differ from scripts/machine-record's: missing "
              f"{sorted(want - set(got))}, extra {sorted(set(got) - want)}", file=sys.stderr)
        bad += 1
    else:
        print(f"{what}: the {len(want)} keys of scripts/machine-record")
same("machine-record kind=test command='a b'", load("extra.json"), keys | {"kind", "command"})
if load("extra.json").get("command") != "a b":
    print("FAIL: machine-record command=... not kept as given", file=sys.stderr)
    bad += 1
for name in ("vnodes.json", "seed.json"):
    meta = load(name).get("meta")
    if not isinstance(meta, dict):
        print(f"FAIL: {name}: meta is {meta!r}, expected the machine record", file=sys.stderr)
        bad += 1
        continue
    same(f"{name} meta", meta, keys)
    for k in ("git_commit", "cpu_model", "n_cores", "c_flags"):
        if meta.get(k) != ref.get(k):
            print(f"FAIL: {name} meta {k} = {meta.get(k)!r}, machine-record says {ref.get(k)!r}",
                  file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY

# 3. one writer: nothing else reads the machine
others=$(git -C "$root" grep -n -I -E '/proc/cpuinfo|model name|_SC_NPROCESSORS|\bnproc\b|uname -|MemTotal' \
  -- . ':!results' ':!scripts/machine-record' ':!scripts/test_machine_record.sh' 2>/dev/null)
[ -z "$others" ] || fail "a second machine-record writer (read the machine only in scripts/machine-record):
$others"

[ "$n_fail" -eq 0 ] || { echo "machine_record.keys: $n_fail failure(s)" >&2; exit 1; }
echo "machine_record.keys: ok"
