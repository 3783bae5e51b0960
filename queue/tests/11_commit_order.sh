# Scenario 11 (issue 11, target 5): order by commit, not by id. Ordered mode must never process a
# key's row while an earlier-inserted row of that key may still be uncommitted: the guard cannot
# see an uncommitted row. Producers draw a key's ids in the order their transactions end
# (migration 008: a stripe lock per key, taken before the id is drawn, held to the end).
# (a) The issue's scenario: P1 inserts acct:42 first and commits 2 s later; P2 enqueues acct:42
#     (`pg enqueue`) meanwhile. P2 waits for P1, and the completion order is k0, p1, p2.
# (b) Overlapping producers (a fresh user's find, 810 such rows in 16,000): A takes an xid,
#     B inserts b of acct:42 and stays open, A inserts a of acct:42 and commits. Under the old
#     rule (claimable once the inserter's xid is below the snapshot's xmin) a ran before b
#     committed. Expected: a waits for B, and completes after b. Once with the window (the only
#     live member) and once with the walk (--claim-scan walk), and once with A's late rows a
#     multi-row INSERT of three keys.
# (c) No stall behind other transactions: a transaction holding an xid stays open 6 s; 20 rows
#     enqueued meanwhile all complete while it is still open (the old rule held them all back:
#     a long transaction anywhere on the server stopped ordered claims).
# (d) No deadlock between producers: two `pg enqueue`s of the same three keys (on three
#     stripes) in opposite orders, held at the middle key's stripe by an open insert, then
#     released; both exit 0 (enqueue.sql takes the keys' stripes in stripe order before the
#     first row; row-by-row locks alone deadlock). Then two of 6,000 rows over 300 keys, one in
#     ascending and one in descending key order, at once.
source "$(dirname "$0")/lib.sh"
W=(worker --mode ordered --batch 4 --poll-ms 10 --heartbeat-ms 200 --ttl-ms 3000)

# start_queue NAME [WORKER OPTIONS...] — a migrated schema NAME with row k0 of acct:42 completed
# by an ordered worker (bg NAME) that keeps running; sets $bucket (acct:42's bucket, for raw
# inserts on a server without the extension).
start_queue() {
    use_schema "$1"
    "$RB" pg migrate >/dev/null
    printf 'acct:42\tk0\n' | "$RB" pg enqueue >/dev/null
    bg "$1" "${W[@]}" "${@:2}"
    wait_for 10 "SELECT count(*) = 1 FROM effects"
    bucket=$(q "SELECT partition_bucket FROM inbox_all WHERE idempotency_key = 'k0'")
}
ins() { echo "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('acct:42', $bucket, '$1')"; }
key_order() { q "SELECT string_agg(idempotency_key, ',' ORDER BY id) FROM inbox_all WHERE partition_key = 'acct:42'"; }
done_order() { q "SELECT string_agg(idempotency_key, ',' ORDER BY seq) FROM effects WHERE partition_key = 'acct:42'"; }

# (a)
start_queue a --duration-ms 9000
hold_open p1 2 "$(ins p1)"
printf 'acct:42\tp2\n' >"$TMP/p2.keys"
bg p2 enqueue "$TMP/p2.keys"
sleep 0.5
running p1 || fail "(a) P1 ended within 0.5 s: the check proves nothing"
running p2 || fail "(a) P2's enqueue did not wait for P1's open insert of its key"
wait_ok p1
wait_ok p2
wait_for 10 "SELECT count(*) = 3 FROM effects"
expect_eq "(a) ids in insert order" "$(key_order)" "k0,p1,p2"
expect_eq "(a) completion order (effects.seq)" "$(done_order)" "k0,p1,p2"
wait_ok a

# (b) A: an xid, then (after B's insert) its row a of acct:42, alone or (rows=multi) between rows
# of keys x and y in one INSERT; B: its row b, then open 4 s
overlap() {
    local name=$1 rows=$2 late
    shift 2
    start_queue "$name" --duration-ms 12000 "$@"
    late=$(ins a)
    [[ $rows == multi ]] && late="INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('x', 0, 'x1'), ('acct:42', $bucket, 'a'), ('y', 1, 'y1')"
    hold_open A 1.5 "SELECT pg_current_xact_id()" "$late"
    hold_open B 4 "$(ins b)"
    wait_ok A
    wait_ok B
    wait_for 10 "SELECT count(*) = $(q "SELECT count(*) FROM inbox_all") FROM effects"
    expect_eq "(b $name) ids of acct:42 in insert order" "$(key_order)" "k0,b,a"
    expect_eq "(b $name) completion order of acct:42 (effects.seq)" "$(done_order)" "k0,b,a"
    wait_ok "$name"
}
overlap window one
overlap walk one --claim-scan walk
overlap multirow multi

# (c)
use_schema c
"$RB" pg migrate >/dev/null
hold_open long 6 "SELECT pg_current_xact_id()"
for i in $(seq 1 20); do printf 'k%s\tc%s\n' $((i % 5)) "$i"; done | "$RB" pg enqueue >/dev/null
bg c "${W[@]}" --until-empty
wait_for 4 "SELECT count(*) = 20 FROM effects"
running long || fail "(c) the long transaction ended before the rows completed: the check proves nothing"
wait_ok c
wait_ok long

# (d)
use_schema d
"$RB" pg migrate >/dev/null
# keys on three different stripes; H holds the gate's stripe while E1 (ka, gate, kb) and E2 (kb,
# gate, ka) enqueue. Row by row, E1 would hold ka's stripe and E2 kb's, both waiting at the gate:
# once H ends, a deadlock. Taken in stripe order first, one of them waits holding nothing.
read -r ka kb gate < <(q "SELECT string_agg(k, ' ') FROM (SELECT DISTINCT ON (inbox_key_stripe(k)) k FROM (SELECT 'key' || i AS k FROM generate_series(1, 30) i) x ORDER BY inbox_key_stripe(k), k LIMIT 3) y")
hold_open H 2 "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('$gate', 0, 'gate')"
printf '%s\te1a\n%s\te1g\n%s\te1b\n' "$ka" "$gate" "$kb" >"$TMP/e1.keys"
printf '%s\te2b\n%s\te2g\n%s\te2a\n' "$kb" "$gate" "$ka" >"$TMP/e2.keys"
# --retry-ms 0: the library retries a deadlock victim's statement, which would hide it
bg e1 enqueue --retry-ms 0 "$TMP/e1.keys"
bg e2 enqueue --retry-ms 0 "$TMP/e2.keys"
wait_for 5 "SELECT count(*) = 2 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 29283 AND objid IN (SELECT (inbox_key_stripe(k)::bigint & 4294967295)::text::oid FROM unnest(ARRAY['$ka', '$kb', '$gate']) k)"
running H || fail "(d) H ended before both enqueues waited: the check proves nothing"
wait_ok H
wait_ok e1
wait_ok e2
# and at scale: 6,000 rows over 300 keys each, ascending and descending, at once
for i in $(seq 1 6000); do printf 'key%03d\tup%s\n' $((i % 300)) "$i"; done >"$TMP/up.keys"
for i in $(seq 6000 -1 1); do printf 'key%03d\tdown%s\n' $((i % 300)) "$i"; done >"$TMP/down.keys"
bg up enqueue --retry-ms 0 "$TMP/up.keys"
bg down enqueue --retry-ms 0 "$TMP/down.keys"
wait_ok up
wait_ok down
expect_eq "(d) rows" "$(q "SELECT count(*) FROM inbox_all")" 12007
echo "PASS [$TEST]"
