#!/bin/sh
# test_json_u64.sh BINARY — ctest cli.json_u64: every unsigned 64-bit integer the commands
# write in JSON keeps all its digits, as the text output prints them. Half of all xxh3
# hashes and every seed from 2^63 up are above jansson's json_int_t; written as reals they
# lost their last 4-5 digits (1.66290344318907e19 for 16629034431890738719). Python's json
# module reads integers of any size, so it is the independent reader. SKIPPED without python3.
set -u
RB=$1
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
keys="a b c order:9182 user-42 zz 0 ~"
SEED=18446744073709551000
fail=0
for h in xxh3 fnv1a32 fnv1a32-js; do
    # shellcheck disable=SC2086 # the keys are words
    "$RB" hash --hash "$h" $keys >"$tmp/$h.txt" &&
        "$RB" hash --hash "$h" --format json $keys >"$tmp/$h.json" || fail=1
done
"$RB" verify --seed-example --seeds 2 --seed "$SEED" --format json >"$tmp/seed.json" 2>/dev/null || fail=1
"$RB" vnodes --quiet --members 3..4 --max-vnodes 16 --seeds 3 --seed "$SEED" --format json \
    >"$tmp/vnodes.json" 2>/dev/null || fail=1
[ "$fail" = 0 ] || { echo "FAIL a command failed"; exit 1; }
python3 - "$tmp" "$SEED" <<'PY'
import json, sys
t, seed = sys.argv[1], int(sys.argv[2])
bad = 0
def check(ok, what, got, want):
    global bad
    if not ok:
        bad += 1
        print(f"FAIL {what}: got {got!r}, expected {want!r}")
for h in ("xxh3", "fnv1a32", "fnv1a32-js"):
    text = [line.split("\t") for line in open(f"{t}/{h}.txt").read().splitlines()]
    rows = json.load(open(f"{t}/{h}.json"))
    check(len(rows) == len(text), f"hash {h}: rows", len(rows), len(text))
    for (key, digits), row in zip(text, rows):
        check(type(row["hash"]) is int and row["hash"] == int(digits), f"hash {h} {key}", row["hash"], int(digits))
    if h == "xxh3":
        check(any(int(d) >= 2**63 for _, d in text), "xxh3 keys include a hash >= 2^63", False, True)
doc = json.load(open(f"{t}/seed.json"))
check(doc["seeds"] == [seed, seed + 1], "verify --seed-example seeds", doc["seeds"], [seed, seed + 1])
doc = json.load(open(f"{t}/vnodes.json"))
check(doc["seeds"] == list(range(seed, seed + 9)), "vnodes seeds", doc["seeds"], list(range(seed, seed + 9)))
firsts = [b["first_seed"] for b in doc["blocks"]]
check(firsts == [seed, seed + 3, seed + 6], "vnodes blocks first_seed", firsts, [seed, seed + 3, seed + 6])
print(f"test_json_u64: {'FAILED' if bad else 'all integers exact'} ({bad} failures)")
sys.exit(1 if bad else 0)
PY
