-- enqueue.sql — insert rows from parallel arrays: partition keys $1, buckets $2, idempotency
-- keys $3, payloads $4; a duplicate idempotency key inserts nothing.
INSERT INTO inbox (partition_key, partition_bucket, idempotency_key, payload)
SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])
ON CONFLICT (idempotency_key) DO NOTHING
