-- claim_affinity_status.sql — layouts s and d: claim_walk.sql + claim_lease.sql of queue/sql,
-- reduced as in claim_competing_status.sql. Client :client_id owns the buckets of own (b mod
-- :nw = client); the walk starts at a random owned bucket (the worker starts past the last one
-- served) and reads inbox's (partition_bucket, run_at, id) index bucket by bucket.
\set pos random(1, 1024 / :nw)
WITH picked AS MATERIALIZED (
    SELECT c.id FROM own o
    CROSS JOIN LATERAL unnest(o.buckets[:pos::int:] || o.buckets[:(:pos::int - 1)]) AS b(bucket)
    CROSS JOIN LATERAL (
        SELECT id FROM inbox
        WHERE partition_bucket = b.bucket AND status = 'pending' AND run_at <= now()
        ORDER BY run_at, id LIMIT :batch FOR UPDATE SKIP LOCKED) c
    WHERE o.client = :client_id LIMIT :batch),
leased AS MATERIALIZED (SELECT array_agg(id) AS ids, clock_timestamp() AS at FROM picked),
claimed AS (
    UPDATE inbox SET status = 'claimed', claimed_by = 'w' || :client_id, claimed_at = leased.at,
           lease_expires_at = leased.at + interval '30 s',
           lease_generation = inbox.lease_generation + 1, claims = inbox.claims + 1
    FROM leased WHERE inbox.id = ANY (leased.ids)
    RETURNING inbox.id, inbox.lease_generation, inbox.partition_key, inbox.idempotency_key,
              inbox.payload)
SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(lease_generation), '{}') AS gens
FROM claimed
\gset
