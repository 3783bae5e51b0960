# Scenario 12 (issue 11, target 2): ordered mode claims runs of a hot key. (a) 100 pending rows
# of key hot beside 5 keys x 3 rows, batch 32: one claim takes 32 rows, several of hot and of
# other keys, each key's rows its oldest ones (a prefix by id); a drain completes all 115 in
# id order per key in a handful of claims (one row in flight per key would need >= 100).
# (b) A failure in the middle of a run: 10% of hot's 100 rows fail their first run (backoff
# 100..200 ms): the later rows of the run are released unrun (held_back > 0) and every row
# still completes in id order, so none ran before its failed elder's retry. (c) A run never
# jumps an uncommitted older row: hot#1..5 committed, P1 inserts p1 and holds its transaction
# open 5 s, P2 enqueues p2a..p2c meanwhile: P2 waits for P1 (the stripe lock of migration 008),
# the worker's runs end at hot#5 while P1 is open: completion order hot#1..5, p1, p2a..p2c. (d) A row of the run locked by another session ends the run
# there: with hot#4 of 10 locked FOR UPDATE, a claim takes hot#1..3 only. (e) The run reads
# O(batch) rows under every plan: with 3,000 rows of hot beside 2,000 keys of 13-14 rows
# (statistics: about 14 rows per key), the custom plan of a batch-32 claim (what the first 5
# claims of a session and every `pg explain` get) scans the run through inbox_blocking_key in
# id order, not by a bitmap heap scan of all the key's rows and a sort (queue.c,
# ordered_planner_off), both from an ordered session and from the ordered part of
# `pg explain` in a competing session.
source "$(dirname "$0")/lib.sh"
# --claim-scan walk: the runs are the walk's, which a worker with peers sends (the only live
# member claims the whole queue in (run_at, id) order instead: scenario 17)
W=(worker --mode ordered --claim-scan walk --batch 32 --poll-ms 10 --heartbeat-ms 100 --ttl-ms 2000 --lease-ms 5000)
inversions() { # completions (effects.seq order) whose row id is lower than an earlier sibling's
    q "SELECT count(*) FROM (SELECT inbox_id, max(inbox_id) OVER (PARTITION BY partition_key ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev FROM effects) x WHERE prev > inbox_id"
}
# claimed rows that have an older row of their key not claimed by the same worker
gaps() {
    q "SELECT count(*) FROM inbox_all c WHERE c.status = 'claimed' AND EXISTS (SELECT 1 FROM inbox_all o WHERE o.partition_key = c.partition_key AND o.id < c.id AND (o.status <> 'claimed' OR o.claimed_by <> c.claimed_by))"
}

# (a) runs
use_schema a
"$RB" pg migrate >/dev/null
{
    for i in $(seq 1 100); do
        echo "hot"
        ((i <= 15)) && echo "k$(((i - 1) % 5))"
    done
} >"$TMP/a.keys"
"$RB" pg enqueue "$TMP/a.keys" >/dev/null
"$RB" pg "${W[@]}" --id probe-a --max-claims 1 --exit-after-claim >"$TMP/probe-a.out" 2>"$TMP/probe-a.err" || fail "probe a: exit $? ($(tail -2 "$TMP/probe-a.err"))"
expect_eq "(a) rows in the first claim" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed'")" 32
n_hot=$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed' AND partition_key = 'hot'")
n_keys=$(q "SELECT count(DISTINCT partition_key) FROM inbox_all WHERE status = 'claimed'")
note "(a) first claim: $n_hot rows of hot, $n_keys keys"
((n_hot >= 17)) || fail "(a) rows of hot in the first claim: got $n_hot, expected >= 17 (a run)"
((n_keys >= 2)) || fail "(a) keys in the first claim: got $n_keys, expected >= 2"
expect_eq "(a) claimed rows with an older row of their key left out" "$(gaps)" 0
# the probe is gone: give its rows back and let it leave
q "DELETE FROM inbox_leases; UPDATE inbox SET claimed_by = NULL, lease_expires_at = NULL WHERE status = 'claimed'; UPDATE workers SET status = 'left'" >/dev/null
"$RB" pg "${W[@]}" --until-empty >"$TMP/a.out" 2>"$TMP/a.err" || fail "(a) drain: exit $? ($(tail -2 "$TMP/a.err"))"
expect_eq "(a) effects" "$(q "SELECT count(*) FROM effects")" 115
expect_eq "(a) out-of-order completions" "$(inversions)" 0
expect_eq "(a) largest claim" "$(field a max_claim_rows)" 32
claims=$(field a claims)
note "(a) drain: 115 rows in $claims claims"
((claims <= 6)) || fail "(a) claims for 115 rows: got $claims, expected <= 6 (runs of 32)"

# (b) a failure in the middle of a run
use_schema b
"$RB" pg migrate >/dev/null
for _ in $(seq 1 100); do echo hot; done >"$TMP/b.keys"
"$RB" pg enqueue "$TMP/b.keys" >/dev/null
"$RB" pg "${W[@]}" --until-empty --fail-pct 10 --backoff-base-ms 100 --backoff-cap-ms 200 >"$TMP/b.out" 2>"$TMP/b.err" || fail "(b) drain: exit $? ($(tail -2 "$TMP/b.err"))"
n_failed=$(q "SELECT count(*) FROM inbox_all WHERE last_error LIKE 'injected%'")
held=$(field b held_back)
note "(b) $n_failed rows failed once, $held rows held back behind them"
expect_eq "(b) effects" "$(q "SELECT count(*) FROM effects")" 100
expect_eq "(b) completion order = id order" "$(q "SELECT string_agg(inbox_id::text, ',' ORDER BY seq) FROM effects")" "$(q "SELECT string_agg(id::text, ',' ORDER BY id) FROM inbox_all")"
((n_failed >= 2)) || fail "(b) rows that failed once: got $n_failed, expected >= 2"
((held >= 1)) || fail "(b) rows held back: got $held, expected >= 1 (a failure inside a run)"
expect_eq "(b) handler starts: 1 per row, 2 per failed row" "$(q "SELECT sum(attempts) FROM inbox_all")" $((100 + n_failed))

# (c) commit order inside a run
use_schema c
"$RB" pg migrate >/dev/null
for i in 1 2 3 4 5; do printf 'hot\thot#%s\n' "$i"; done | "$RB" pg enqueue >/dev/null
bucket=$(q "SELECT partition_bucket FROM inbox_all WHERE idempotency_key = 'hot#1'")
hold_open p1 5 "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('hot', $bucket, 'p1')"
printf 'hot\tp2a\nhot\tp2b\nhot\tp2c\n' >"$TMP/p2.keys"
bg p2 enqueue "$TMP/p2.keys"
bg c "${W[@]}" --duration-ms 9000 # not --until-empty: while P1 is open the queue looks empty
wait_for 5 "SELECT count(*) >= 5 FROM effects"
sleep 0.3
running p1 || fail "(c) P1 committed before the worker's first run: the check proves nothing"
running p2 || fail "(c) P2's enqueue of hot did not wait for P1's open insert of hot"
expect_eq "(c) rows of P2 done while P1 is open" "$(q "SELECT string_agg(idempotency_key, ',' ORDER BY seq) FROM effects WHERE idempotency_key LIKE 'p2%'")" ""
wait_ok p1
wait_ok p2
wait_for 10 "SELECT count(*) = 9 FROM effects"
expect_eq "(c) ids in insert order" "$(q "SELECT string_agg(idempotency_key, ',' ORDER BY id) FROM inbox_all")" "hot#1,hot#2,hot#3,hot#4,hot#5,p1,p2a,p2b,p2c"
expect_eq "(c) completion order (effects.seq)" "$(q "SELECT string_agg(idempotency_key, ',' ORDER BY seq) FROM effects")" "hot#1,hot#2,hot#3,hot#4,hot#5,p1,p2a,p2b,p2c"
wait_ok c

# (d) a run ends at a row another session holds
use_schema d
"$RB" pg migrate >/dev/null
for i in $(seq 1 10); do printf 'hot\thot#%s\n' "$i"; done | "$RB" pg enqueue >/dev/null
hold_open lock 5 "SELECT id FROM inbox WHERE idempotency_key = 'hot#4' FOR UPDATE"
"$RB" pg "${W[@]}" --id probe-d --max-claims 1 --exit-after-claim >"$TMP/probe-d.out" 2>"$TMP/probe-d.err" || fail "probe d: exit $? ($(tail -2 "$TMP/probe-d.err"))"
running lock || fail "(d) the lock ended before the claim: the check proves nothing"
expect_eq "(d) claimed with hot#4 locked" "$(q "SELECT string_agg(idempotency_key, ',' ORDER BY id) FROM inbox_all WHERE status = 'claimed'")" "hot#1,hot#2,hot#3"
wait_ok lock

# (e) the run's plan
use_schema e
"$RB" pg migrate >/dev/null
awk 'BEGIN { for (i = 0; i < 30000; i++) print (i % 10 == 0 ? "hot" : "k" (i % 2000)) }' >"$TMP/e.keys"
"$RB" pg enqueue "$TMP/e.keys" >/dev/null
q "ANALYZE inbox" >/dev/null
run_scan() { # the scan of the run's rows (alias x in claim_run.sql) in a plan on stdin
    grep -E 'on inbox x ' | sed -E 's/^ *(->  )?//; s/ \(.*//'
}
"$RB" pg explain --mode ordered --batch 32 --analyze >"$TMP/e1.plan" 2>"$TMP/e1.err" || fail "(e) explain: exit $? ($(tail -2 "$TMP/e1.err"))"
expect_eq "(e) run scan, ordered session" "$(run_scan <"$TMP/e1.plan")" "Index Scan using inbox_blocking_key on inbox x"
"$RB" pg explain --batch 32 --analyze >"$TMP/e2.plan" 2>"$TMP/e2.err" || fail "(e) explain: exit $? ($(tail -2 "$TMP/e2.err"))"
expect_eq "(e) run scan, competing session" "$(run_scan <"$TMP/e2.plan")" "Index Scan using inbox_blocking_key on inbox x"
# a worker's first claim (a custom plan) with hot's head first in its walk: no row of a bucket
# below hot's, and hot's rows are the oldest of its bucket
hb=$(q "SELECT partition_bucket FROM inbox_all WHERE partition_key = 'hot' LIMIT 1")
q "DELETE FROM inbox WHERE partition_bucket < $hb; ANALYZE inbox" >/dev/null
ix_read() { q "SELECT idx_tup_read FROM pg_stat_user_indexes WHERE schemaname = current_schema() AND indexrelname = 'inbox_blocking_key'"; }
before=$(ix_read)
"$RB" pg "${W[@]}" --id probe-e --max-claims 1 --exit-after-claim >"$TMP/probe-e.out" 2>"$TMP/probe-e.err" || fail "probe e: exit $? ($(tail -2 "$TMP/probe-e.err"))"
expect_eq "(e) rows of hot in the worker's first claim" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed' AND partition_key = 'hot'")" 32
wait_for 5 "SELECT idx_tup_read > $before FROM pg_stat_user_indexes WHERE schemaname = current_schema() AND indexrelname = 'inbox_blocking_key'"
read_n=$(($(ix_read) - before))
note "(e) the worker's first claim read $read_n entries of inbox_blocking_key (hot has 3,000 rows)"
((read_n <= 200)) || fail "(e) entries of inbox_blocking_key read by one claim: got $read_n, expected <= 200 (O(batch), not all of hot's rows)"
echo "PASS [$TEST]"
