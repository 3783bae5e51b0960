#!/bin/sh
# test_seed_oracle.sh BINARY tables|seed-example — the seed's own JavaScript
# (verify/kat/seed_ring_ref.mjs: hash() and lookupOwner() verbatim) as an
# independent oracle, run by node:
#   tables        ctest verify.seed_js_oracle: `ringbench table` of linear, binary and table
#                 under fnv1a32 equals the oracle's owner of every bucket, for several
#                 memberships, V and B;
#   seed-example  ctest verify.seed_example_cli: `ringbench verify --seed-example` reports the
#                 oracle's moved buckets for 3 -> 4 workers (the rings and the modn control)
#                 and 0 moved elsewhere than worker-4.
# Without node the test SKIPs (exit 77); scripts/bootstrap installs node.
set -u
RB=$1
MODE=$2
REF=$(dirname "$0")/kat/seed_ring_ref.mjs
command -v node >/dev/null 2>&1 || { echo "SKIP: node not found (scripts/bootstrap installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
fail() { echo "FAIL $*" >&2; fails=$((fails + 1)); }

case $MODE in
tables)
    # memberships (ids with ':' and '-', 1 to 7 members, a reordered list), V, B
    for case in "worker-1,worker-2,worker-3 128 1024" "worker-1,worker-2,worker-3,worker-4 128 1024" \
        "w1 16 64" "a,b 1 100" "node:7,node:3,node:11,node:5 4 257" \
        "worker-4,worker-2,worker-1,worker-3 32 4096" "alpha,beta,gamma,delta,epsilon,zeta,eta 64 1000" \
        "x,y,z 1000 512"; do
        set -- $case
        node "$REF" table "$2" "$3" "$1" >"$tmp/want" || { fail "oracle failed on $case"; continue; }
        for algo in linear binary table; do
            checks=$((checks + 1))
            "$RB" table --algo $algo --members "$1" --vnodes "$2" --buckets "$3" --hash fnv1a32 \
                --format json | tr -d ' \n' >"$tmp/got" || { fail "$algo $case: ringbench failed"; continue; }
            tr -d ' \n' <"$tmp/want" >"$tmp/want1"
            if ! cmp -s "$tmp/got" "$tmp/want1"; then
                fail "$algo members $1 V $2 B $3: ringbench table differs from the seed's lookupOwner"
                python3 - "$tmp/got" "$tmp/want1" <<'PY' >&2 || true
import json, sys
g, w = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
d = [i for i in range(min(len(g), len(w))) if g[i] != w[i]]
print("  %d buckets differ (of %d / %d); first: %s" % (len(d), len(g), len(w),
      ", ".join("bucket %d got %s expected %s" % (i, g[i], w[i]) for i in d[:3])))
PY
            fi
        done
    done ;;
seed-example)
    ids=worker-1,worker-2,worker-3,worker-4
    ring=$(node "$REF" moved 128 1024 $ids) && modn=$(node "$REF" modn-moved 128 1024 $ids) ||
        { echo "FAIL oracle failed" >&2; exit 1; }
    "$RB" verify --seed-example --seeds 8 --format json >"$tmp/got" || { echo "FAIL ringbench exit $?" >&2; exit 1; }
    out=$(python3 - "$tmp/got" "$ring" "$modn" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = {"linear": int(sys.argv[2]), "binary": int(sys.argv[2]), "table": int(sys.argv[2]),
        "modn": int(sys.argv[3])}
rows = {r["algo"]: r for r in d["rows"] if r["hash"] == "fnv1a32"}
for algo, moved in want.items():
    r = rows.get(algo)
    if r is None:
        print("FAIL %s: no fnv1a32 row" % algo); continue
    print("CHECK")
    if r["moved_buckets"] != moved:
        print("FAIL %s: moved %d buckets, the seed's JavaScript moves %d" % (algo, r["moved_buckets"], moved))
    if r["ideal_buckets"] != 256:
        print("FAIL %s: ideal %d, expected 1024/4 = 256" % (algo, r["ideal_buckets"]))
    if algo != "modn" and r["violating_buckets"] != 0:
        print("FAIL %s: %d buckets moved elsewhere than worker-4, expected 0" % (algo, r["violating_buckets"]))
PY
)
    checks=$(printf '%s\n' "$out" | grep -c CHECK)
    printf '%s\n' "$out" | grep FAIL >&2 && fails=$(printf '%s\n' "$out" | grep -c FAIL)
    echo "oracle: rings move $ring buckets, hash % N moves $modn" ;;
*) echo "usage: test_seed_oracle.sh BINARY tables|seed-example" >&2; exit 2 ;;
esac
echo "test_seed_oracle $MODE: $checks checks, $fails failed"
[ "$checks" -gt 0 ] && [ "$fails" -eq 0 ]
