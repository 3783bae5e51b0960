#!/bin/sh
# test_vnodes.sh BINARY small|blocks|bounded — `ringbench vnodes` output, read back:
#   small   ctest verify.vnodes_small: N 3..8, V 1..256, 2 seeds x 2 blocks, default target 1.10:
#           one row per power of two, worst >= mean >= 1, worst >= the integer floor, and since
#           1.10 is below the sampling floor, no recommendation and a note that says why;
#   blocks  ctest verify.vnodes_blocks_agree (issue 14): the published parameters (N 3..12,
#           target 1.35) with the default seed blocks: every block chooses the same V, that V
#           is the recommendation, its margin is >= 0, and so for a second, disjoint set of
#           blocks (--seed 301) too;
#   bounded ctest verify.vnodes_bounded (issue 13): the bounded-loads rows. A Python reference
#           computes the capacity ceil((1+eps)B/N) in integers: every row's worst peak-to-mean
#           is at most it over B/N (one N per run, so the bound is exact per N) and its cap
#           column equals it; meets_target and the largest eps meeting the target agree with the
#           rows; the eps the bound guarantees is the largest whose capacity meets the target
#           at every N. Tiny case (B 64, `ringbench table`): the bounded owners against the
#           source's (binary, V 1): every member holds at least min(first-choice buckets,
#           capacity), at most the capacity, and exactly the capacity when its first choices
#           exceed it (a full member refuses only beyond its capacity).
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
check_bounded() { # JSON-FILE
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); bad = []
tol = 1e-6  # the JSON holds about 9 digits
B, T = d["n_buckets"], d["target_peak"]
ns = [int(x) for x in d["members"].split(" ")[0].split("..")]
ns = list(range(ns[0], ns[-1] + 1))
def cap(e, n):  # ceil((100 + e) B / (100 n)): the capacity, in integers
    return -(-(100 + e) * B // (100 * n))
def cap_p2m(e, n):
    return cap(e, n) * n / B
rows = d["bounded_rows"]
for r in rows:
    e, n = r["eps_pct"], r["worst_at_n_members"]
    if len(ns) == 1:
        want = cap_p2m(e, ns[0])
        if r["peak_to_mean_worst"] > want + tol:
            bad.append("N %d eps %d%%: worst peak-to-mean %.4f, expected <= ceil((1+eps)B/N)/(B/N) = %.4f" % (ns[0], e, r["peak_to_mean_worst"], want))
    if abs(r["cap_peak_to_mean"] - cap_p2m(e, n)) > tol or r["peak_to_mean_worst"] > cap_p2m(e, n) + tol:
        bad.append("eps %d%% at N %d: worst %.4f, cap %.4f, expected cap %.4f and worst <= it" % (e, n, r["peak_to_mean_worst"], r["cap_peak_to_mean"], cap_p2m(e, n)))
    if (r["meets_target"] == "yes") != (r["peak_to_mean_worst"] <= T):
        bad.append("eps %d%%: meets %s with worst %.4f and target %.3f" % (e, r["meets_target"], r["peak_to_mean_worst"], T))
if [r["eps_pct"] for r in rows] != sorted({r["eps_pct"] for r in rows}):
    bad.append("eps rows %s, expected ascending without repeats" % [r["eps_pct"] for r in rows])
meeting = [r["eps_pct"] for r in rows if r["peak_to_mean_worst"] <= T]
if d["bounded_eps_pct_meeting"] != (max(meeting) if meeting else None):
    bad.append("largest eps meeting %s, the rows say %s" % (d["bounded_eps_pct_meeting"], max(meeting) if meeting else None))
ok = [e for e in range(10001) if all(cap_p2m(e, n) <= T + 1e-12 for n in ns)]
guar = max(ok) if ok and ok == list(range(len(ok))) else None
if d["bounded_eps_pct_for_target"] != guar:
    bad.append("eps for the target %s, expected %s" % (d["bounded_eps_pct_for_target"], guar))
print("N %s target %.2f: eps %% %s, worst p2m %s, add/ideal %s; meeting %s, guaranteed %s" % (
    d["members"], T, [r["eps_pct"] for r in rows], ["%.3f" % r["peak_to_mean_worst"] for r in rows],
    ["%.2f" % r["add_ratio_mean"] for r in rows], d["bounded_eps_pct_meeting"], guar))
for b in bad: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
}
tiny_bounded() { # RB: source vs bounded tables, B 64 (sets tiny_rc)
    tiny_rc=0
    for n in 3 4 6; do
        ms=$(seq -s, -f "m%g" 1 $n)
        for e in 0 10 25 100; do
            if ! "$RB" table --algo binary --vnodes 1 --buckets 64 --members "$ms" --format json \
                >"$tmp/src.json"; then echo "FAIL ringbench table (binary) failed"; return 1; fi
            if ! "$RB" table --algo bounded --table-source binary --vnodes 1 --buckets 64 --members "$ms" \
                --param eps_pct=$e --format json >"$tmp/bnd.json"; then
                echo "FAIL ringbench table (bounded) failed"; return 1
            fi
            python3 - "$tmp/src.json" "$tmp/bnd.json" $n $e <<'PY' || tiny_rc=1
import json, sys
src, bnd = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])); n, e = int(sys.argv[3]), int(sys.argv[4])
B = len(src); cap = -(-(100 + e) * B // (100 * n)); bad = []
for m in sorted(set(src) | set(bnd)):
    first, got = src.count(m), bnd.count(m)
    lo = min(first, cap)
    if not lo <= got <= cap or (first >= cap and got != cap):
        bad.append("N %d eps %d%% member %s: %d first choices, holds %d, expected %d..%d (exactly %d when first >= cap)" % (n, e, m, first, got, lo, cap, cap))
for b in bad: print("FAIL", b)
sys.exit(1 if bad else 0)
PY
        done
    done
    return $tiny_rc
}
case $2 in
bounded)
    rc=0
    for n in 3 5 7 12; do
        "$RB" vnodes --quiet --members $n --max-vnodes 1 --seeds 4 --blocks 1 --buckets 100 \
            --target-peak 1.2 --eps 0,5,10,25,35 --format json >"$tmp/o.json" ||
            { echo "FAIL ringbench vnodes exit $?"; exit 1; }
        check_bounded "$tmp/o.json" || rc=1
    done
    "$RB" vnodes --quiet --members 3..8 --max-vnodes 2 --seeds 3 --blocks 2 --target-peak 1.3 \
        --format json >"$tmp/o.json" || { echo "FAIL ringbench vnodes exit $?"; exit 1; }
    check_bounded "$tmp/o.json" || rc=1
    tiny_bounded || rc=1
    exit $rc ;;
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
*) echo "usage: test_vnodes.sh BINARY small|blocks|bounded" >&2; exit 2 ;;
esac
