#!/bin/sh
# test_stateful_kat.sh — known answers of the stateful algorithms (anchor,
# memento, dx): `ringbench table --derive` against verify/kat/stateful_ref.py,
# an independent Python implementation of each paper's pseudo-code, bucket by
# bucket, over fresh memberships and sequences of removals (first, middle,
# last, several at once), re-adds, weights and weight changes.
#
#   sh verify/test_stateful_kat.sh BUILD/cli/ringbench verify/kat
#
# Every case runs for all three algorithms; a failure prints the algorithm,
# the case and the first differing lines (got = ringbench, expected = the
# reference). Exit 0 when all agree, 1 otherwise, 77 (ctest SKIPPED) when
# python3 is missing.
bin=$1
kat=$2
command -v python3 >/dev/null || { echo "stateful kat: python3 not installed; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
cases=0
# a lookup that loops forever fails its case instead of hanging the test
limit=
command -v timeout >/dev/null && limit="timeout 60"

# check ALGO BUCKETS MEMBERS DERIVE LABEL [CAPACITY]
check() {
    algo=$1 buckets=$2 members=$3 derive=$4 label=$5 cap=${6:-1024}
    cases=$((cases + 1))
    if ! python3 "$kat/stateful_ref.py" --algo "$algo" --buckets "$buckets" --members "$members" \
        --derive "$derive" --capacity "$cap" >"$tmp/expected"; then
        echo "FAIL $algo $label: the reference failed"
        fails=$((fails + 1))
        return
    fi
    set --
    [ -n "$derive" ] && set -- --derive "$derive"
    [ "$algo" != memento ] && [ "$cap" != 0 ] && set -- "$@" --param capacity="$cap"
    if ! $limit "$bin" table --algo "$algo" --hash fnv1a32 --buckets "$buckets" --members "$members" \
        "$@" --format csv >"$tmp/got"; then
        echo "FAIL $algo $label: ringbench table failed"
        fails=$((fails + 1))
        return
    fi
    if ! cmp -s "$tmp/got" "$tmp/expected"; then
        echo "FAIL $algo $label: owners differ (got < > expected):"
        diff "$tmp/got" "$tmp/expected" | head -6
        fails=$((fails + 1))
    fi
}

# 40 members m0..m39, and the steps that remove m7, m0, m39, m20 one by one,
# then add n1, n2, n3.
big=$(python3 -c 'print(",".join(f"m{i}" for i in range(40)))')
steps=$(python3 -c '
m = [f"m{i}" for i in range(40)]
out = []
for x in ["m7", "m0", "m39", "m20"]:
    m.remove(x); out.append(",".join(m))
for x in ["n1", "n2", "n3"]:
    m.append(x); out.append(",".join(m))
print(";".join(out))')

for algo in anchor memento dx; do
    check $algo 64 a,b,c,d,e "" "fresh, 5 members"
    check $algo 64 w1 "" "fresh, 1 member"
    check $algo 64 a,b,c,d,e "a,b,d,e" "remove the middle member"
    check $algo 64 a,b,c,d,e "b,c,d,e" "remove the first member"
    check $algo 64 a,b,c,d,e "a,b,c,d" "remove the last member"
    check $algo 64 a,b,c,d,e "a,e" "remove three at once"
    check $algo 64 a,b,c,d,e "a,b,d,e;a,d,e;a,d,e,f;a,d,e,f,g" "remove c, b; add f, g"
    check $algo 64 a,b,c,d,e "a,b,c,d;a,b,c;a,b,c,x;a,b,c,x,y;a,c,x,y" "shrink, grow, remove"
    check $algo 256 a=2,b,c=3,d "a=2,b,d;a=2,b,d,e=2;a,b,d,e=2" "weights: remove, add, change"
    check $algo 1024 "$big" "$steps" "40 members: remove 4, add 3"
    # small capacities: most draws land on removed slots (anchor's
    # translations, dx's long sequences)
    check $algo 256 a,b,c,d,e "a,c,d,e;a,c,e;a,c,e,f;a,c,e,f,g,h,i,j" "capacity 8: to full" 8
    check $algo 256 a,b,c,d,e "a,b,d,e;a,b,d,e,f" "capacity 5 (= N)" 5
    check $algo 256 a,b "a;a,c;c;c,d,e" "capacity 40, N 1..3" 40
    check $algo 256 a,b,c,d,e "a,b,d,e;a,b,d,e,f;a,b,d,e,f,g,h" "automatic capacity (16)" 0
    check $algo 256 w1=3,w2 "w1=3;w1=3,w3" "automatic capacity, weights (8)" 0
done

# a full capacity is bad input (exit 2, one line naming it), not a wrong table
for algo in anchor dx; do
    cases=$((cases + 1))
    $limit "$bin" table --algo $algo --param capacity=3 --members a,b,c --derive a,b,c,d \
        >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -q "capacity" "$tmp/err"; then
        echo "FAIL $algo full capacity: exit $rc, stderr '$(cat "$tmp/err")', expected 2 naming the capacity"
        fails=$((fails + 1))
    fi
done
echo "stateful kat: $cases cases, $fails failed"
[ "$fails" -eq 0 ]
