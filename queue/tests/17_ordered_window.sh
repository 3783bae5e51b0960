# Scenario 17 (issue 11, targets 2 and 4): an ordered worker that owns every bucket (the only
# live member) claims with claim_window.sql: the oldest claimable rows of the whole queue in
# (run_at, id) order, each with every older row of its key that blocks it (queue.c,
# owns_every_bucket). Batch 32 throughout.
# (a) The window: 200 rows, every 4th of key hot, the rest of 50 keys: the first claim takes
#     exactly the 32 oldest ids (the walk takes one key's run, bucket by bucket), and no claimed
#     row has an older row of its key left out.
# (b) A row another session holds ends its key there: 40 rows, hot#1..10 every 4th, hot#4
#     locked FOR UPDATE: the claim takes hot#1..3 and no later row of hot, and the 24 rows of
#     other keys among the 32 oldest ids.
# (c) Keys blocked at their oldest row are passed over, so the window fills from other keys:
#     key dl (60 rows, the oldest ids) has its first row failed for good (a dead letter, block
#     policy): a claim takes the 20 rows of other keys behind it, none of dl. Key r (60 rows)
#     has its first row due but with a later run_at than its other 59 (a retry whose backoff
#     ran out): the claim takes r#1 (the key's oldest) and the 10 rows of other keys, no later
#     row of r (which would come first in (run_at, id) order and block the window).
# (d) A drain with failures: 100 rows of hot and 50 of other keys, 10% of rows fail their
#     first run (backoff 100-200 ms): every row completes once and, per key, in id order.
# Commit order (claims only rows inserted before every transaction in flight) under the window
# is scenario 11's (one worker) and 12 (c)'s under the walk.
source "$(dirname "$0")/lib.sh"
W=(worker --mode ordered --batch 32 --poll-ms 10 --heartbeat-ms 100 --ttl-ms 2000 --lease-ms 5000)
inversions() { # completions (effects.seq order) whose row id is lower than an earlier sibling's
    q "SELECT count(*) FROM (SELECT inbox_id, max(inbox_id) OVER (PARTITION BY partition_key ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev FROM effects) x WHERE prev > inbox_id"
}
gaps() { # claimed rows that have an older row of their key not claimed by the same worker
    q "SELECT count(*) FROM inbox_all c WHERE c.status = 'claimed' AND EXISTS (SELECT 1 FROM inbox_all o WHERE o.partition_key = c.partition_key AND o.id < c.id AND (o.status <> 'claimed' OR o.claimed_by <> c.claimed_by))"
}
probe() { # NAME: one claim by a worker that then exits without completing (or 5 s without a row)
    "$RB" pg "${W[@]}" --id "probe-$1" --max-claims 1 --exit-after-claim --idle-ms 5000 >"$TMP/probe-$1.out" \
        2>"$TMP/probe-$1.err" || fail "probe $1: exit $? ($(tail -2 "$TMP/probe-$1.err"))"
    grep -q "owns 1024 buckets" "$TMP/probe-$1.err" || fail "probe $1 did not own every bucket"
}
claimed() { q "SELECT coalesce(string_agg(idempotency_key, ',' ORDER BY id), '') FROM inbox_all WHERE status = 'claimed' AND $1"; }

# (a) the window
use_schema a
"$RB" pg migrate >/dev/null
for i in $(seq 1 200); do
    if ((i % 4 == 1)); then printf 'hot\thot#%s\n' "$i"; else printf 'k%s\tk#%s\n' $((i % 50)) "$i"; fi
done | "$RB" pg enqueue >/dev/null
probe a
expect_eq "(a) ids claimed" "$(q "SELECT string_agg(id::text, ',' ORDER BY id) FROM inbox_all WHERE status = 'claimed'")" \
    "$(q "SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM inbox_all ORDER BY id LIMIT 32) x")"
expect_eq "(a) claimed rows with an older row of their key left out" "$(gaps)" 0

# (b) a row another session holds
use_schema b
"$RB" pg migrate >/dev/null
for i in $(seq 1 40); do
    if ((i % 4 == 1)); then printf 'hot\thot#%s\n' $(((i + 3) / 4)); else printf 'k%s\tk#%s\n' "$i" "$i"; fi
done | "$RB" pg enqueue >/dev/null
hold_open lock 5 "SELECT id FROM inbox WHERE idempotency_key = 'hot#4' FOR UPDATE"
probe b
running lock || fail "(b) the lock ended before the claim: the check proves nothing"
expect_eq "(b) rows of hot claimed with hot#4 held" "$(claimed "partition_key = 'hot'")" "hot#1,hot#2,hot#3"
# the window: the 32 oldest ids but hot#4 (held): 8 of hot, 24 of other keys; hot#5..9 dropped
expect_eq "(b) rows of other keys claimed" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed' AND partition_key <> 'hot'")" 24
expect_eq "(b) claimed rows with an older row of their key left out" "$(gaps)" 0
wait_ok lock

# (c) keys blocked at their oldest row are passed over
use_schema c
"$RB" pg migrate >/dev/null
{
    for i in $(seq 1 60); do printf 'dl\tdl#%s\n' "$i"; done
    for i in $(seq 1 20); do printf 'o%s\to#%s\n' "$i" "$i"; done
} | "$RB" pg enqueue >/dev/null
q "UPDATE inbox SET state = 'failed', last_error = 'dead letter (test)' WHERE idempotency_key = 'dl#1'" >/dev/null
probe c1
expect_eq "(c) rows of dl claimed behind its dead letter" "$(claimed "partition_key = 'dl'")" ""
expect_eq "(c) rows of other keys claimed" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed' AND partition_key <> 'dl'")" 20
use_schema c2
"$RB" pg migrate >/dev/null
{
    for i in $(seq 1 60); do printf 'r\tr#%s\n' "$i"; done
    for i in $(seq 1 10); do printf 'o%s\to#%s\n' "$i" "$i"; done
} | "$RB" pg enqueue >/dev/null
q "UPDATE inbox SET run_at = now() - CASE WHEN idempotency_key = 'r#1' THEN interval '1 second'
                                          WHEN partition_key = 'r' THEN interval '10 seconds'
                                          ELSE interval '5 seconds' END" >/dev/null
probe c2
expect_eq "(c) rows of r claimed (r#1 due, with the latest run_at)" "$(claimed "partition_key = 'r'")" "r#1"
expect_eq "(c) rows of other keys claimed beside r#1" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed' AND partition_key <> 'r'")" 10

# (d) a drain with failures
use_schema d
"$RB" pg migrate >/dev/null
for i in $(seq 1 150); do if ((i % 3)); then echo hot; else echo "k$((i % 20))"; fi; done >"$TMP/d.keys"
"$RB" pg enqueue "$TMP/d.keys" >/dev/null
"$RB" pg "${W[@]}" --until-empty --fail-pct 10 --backoff-base-ms 100 --backoff-cap-ms 200 >"$TMP/d.out" 2>"$TMP/d.err" || fail "(d) drain: exit $? ($(tail -2 "$TMP/d.err"))"
n_failed=$(q "SELECT count(*) FROM inbox_all WHERE last_error LIKE 'injected%'")
note "(d) $n_failed rows failed once, $(field d held_back) held back behind them"
((n_failed >= 2)) || fail "(d) rows that failed once: got $n_failed, expected >= 2"
expect_eq "(d) effects" "$(q "SELECT count(*) FROM effects")" 150
expect_eq "(d) out-of-order completions" "$(inversions)" 0
expect_eq "(d) handler starts: 1 per row, 2 per failed row" "$(q "SELECT sum(attempts) FROM inbox_all")" $((150 + n_failed))
echo "PASS [$TEST]"
