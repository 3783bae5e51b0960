-- enqueue.sql — insert rows from parallel arrays: partition keys $1, buckets $2, idempotency
-- keys $3, payloads $4; a duplicate idempotency key inserts nothing. The keys' stripe locks
-- are taken first, all at once in stripe order (inbox_lock_keys, an InitPlan evaluated before
-- the first row), so two enqueues of overlapping keys wait for each other instead of
-- deadlocking in the row-by-row locks of the trigger that draws each id (migration 008:
-- order by commit).
INSERT INTO inbox (partition_key, partition_bucket, idempotency_key, payload)
SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])
WHERE (SELECT inbox_lock_keys($1::text[])) >= 0
ON CONFLICT (idempotency_key) DO NOTHING
