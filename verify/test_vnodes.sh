#!/bin/sh
# test_vnodes.sh BINARY small|blocks — `ringbench vnodes` output, read back:
#   small   ctest verify.vnodes_small: N 3..8, V 1..256, 2 seeds x 2 blocks, default target 1.10:
#           one row per power of two, worst >= mean >= 1, worst >= the integer floor, and since
#           1.10 is below the sampling floor, no recommendation and a note that says why;
#   blocks  ctest verify.vnodes_blocks_agree (issue 14): the published parameters (N 3..12,
#           target 1.35) with the default seed blocks: every block chooses the same V, that V
#           is the recommendation, its margin is >= 0, and so for a second, disjoint set of
#           blocks (--seed 301) too.
set -u
RB=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # JSON-FILE MODE
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); mode = sys.argv[2]
bad = []
def want(ok, msg):
    if not ok: bad.append(msg)
rows = d["rows"]
if mode == "small":
    want([r["n_vnodes"] for r in rows] == [1 << i for i in range(9)],
         "rows V %s, expected 1 .. 256" % [r["n_vnodes"] for r in rows])
    for r in rows:
        want(r["peak_to_mean_worst"] >= r["peak_to_mean_mean"] >= 1.0,
             "V %d: worst %.3f, mean %.3f, expected worst >= mean >= 1" % (r["n_vnodes"], r["peak_to_mean_worst"], r["peak_to_mean_mean"]))
        want(r["peak_to_mean_worst"] >= d["integer_floor_worst"] - 1e-9,
             "V %d: worst %.4f below the integer floor %.4f" % (r["n_vnodes"], r["peak_to_mean_worst"], d["integer_floor_worst"]))
    want(d["sampling_floor_worst"] > d["target_peak"], "sampling floor %.3f, expected above the target 1.10" % d["sampling_floor_worst"])
    want(d["recommended_vnodes"] is None, "recommended %s, expected none (target below the sampling floor)" % d["recommended_vnodes"])
    want(d["sampling_note"].startswith("target 1.100 is below the sampling floor"), "sampling note: %r" % d["sampling_note"])
    want(d["n_blocks"] == 2 and len(d["blocks"]) == 2, "blocks: %s, expected 2" % d["n_blocks"])
else:
    choices = [b["recommended_vnodes"] for b in d["blocks"]]
    want(d["n_blocks"] == 3 and len(choices) == 3, "%d blocks, expected the default 3" % len(choices))
    want(None not in choices and len(set(choices)) == 1, "the blocks choose V = %s, expected one V" % choices)
    want(d["blocks_agree"] is True, "blocks_agree %s" % d["blocks_agree"])
    want(d["recommended_vnodes"] == choices[0], "recommended %s, blocks %s" % (d["recommended_vnodes"], choices))
    want(d["recommended_margin"] is not None and d["recommended_margin"] >= 0, "margin %s" % d["recommended_margin"])
    print("blocks from seed %d: V = %s, margin %+.3f" % (d["blocks"][0]["first_seed"], choices, d["recommended_margin"] or 0))
for b in bad: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
}
case $2 in
small)
    "$RB" vnodes --quiet --members 3..8 --max-vnodes 256 --seeds 2 --blocks 2 --format json >"$tmp/o.json" ||
        { echo "FAIL ringbench vnodes exit $?"; exit 1; }
    check "$tmp/o.json" small ;;
blocks)
    rc=0
    for seed in 1 301; do
        "$RB" vnodes --quiet --members 3..12 --target-peak 1.35 --max-vnodes 256 --seed $seed \
            --format json >"$tmp/o.json" || { echo "FAIL ringbench vnodes exit $?"; exit 1; }
        check "$tmp/o.json" blocks || rc=1
    done
    exit $rc ;;
*) echo "usage: test_vnodes.sh BINARY small|blocks" >&2; exit 2 ;;
esac
