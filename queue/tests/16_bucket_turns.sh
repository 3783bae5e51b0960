# Scenario 16: an affinity worker's owned buckets take turns. Each claim walks the owned buckets
# from the one after the bucket the previous claim served last (queue.c, walk_next_start), so a
# bucket with a deep backlog cannot hold the worker while the other buckets wait. The last
# bucket served is read from every claimed row, not from the last row returned: RETURNING
# promises no order, and the lease (claim_lease.sql) returns the rows in primary-key order.
# wA claims beside a member that never claims (wB, a live member by SQL, so wA owns about
# half the buckets and sends the affinity claim). Its walk starts at its first owned bucket,
# which gets 100 rows; the next 60 owned buckets get 1 row each, inserted in reverse walk
# order (a later bucket holds a smaller id). wA makes 10 claims of batch 4. Buckets taking
# turns: the first claim takes 4 rows of the deep bucket, the next 9 claims 36 of the other
# buckets, so the deep bucket's rows done are 4 (at most 8 accepted). A walk that always
# restarts at its first bucket takes 40. (A walk restarting after the last row returned, the
# claim's first bucket here, re-reads buckets it has just emptied: slower, not starved, so
# this test cannot see it.)
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
q "INSERT INTO workers (id, ttl_ms, mode) VALUES ('wB', 3600000, 'affinity')" >/dev/null
bg a worker --mode affinity --id wA --batch 4 --heartbeat-ms 100 --ttl-ms 2000 --poll-ms 20 \
    --max-claims 10 --duration-ms 60000
wait_for 20 "SELECT view_members = '{wA,wB}'::text[] FROM workers WHERE id = 'wA'"
owned=$(q "SELECT cardinality(owned_buckets) FROM workers WHERE id = 'wA'")
((owned > 100 && owned < 1024)) || fail "wA owns $owned buckets, expected about half of 1024"
q "BEGIN;
   INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT 'deep', b, 'deep' || g FROM generate_series(1, 100) g,
          (SELECT owned_buckets[1] AS b FROM workers WHERE id = 'wA') o;
   INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT 'b' || k, (SELECT owned_buckets[k] FROM workers WHERE id = 'wA'), 'one' || k
   FROM generate_series(61, 2, -1) k ORDER BY k DESC;
   COMMIT" >/dev/null
wait_ok a
expect_eq "rows done in 10 claims of 4" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" 40
deep=$(q "SELECT count(*) FROM inbox_all WHERE status = 'done' AND partition_key = 'deep'")
others=$(q "SELECT count(DISTINCT partition_bucket) FROM inbox_all WHERE status = 'done' AND partition_key <> 'deep'")
note "done: $deep rows of the deep bucket, rows of $others other buckets"
((deep <= 8)) || fail "the deep bucket held the worker: $deep of 40 rows done are its own, expected <= 8"
((others >= 32)) || fail "rows of $others other buckets done, expected >= 32 (the buckets take turns)"
echo "PASS [$TEST]: the owned buckets took turns ($deep rows of the deep bucket, $others other buckets)"
