-- claim_affinity_state.sql — layouts k and m: claim_affinity_status.sql with the claim of
-- claim_competing_state.sql (a HOT update; the expiry in leases).
\set pos random(1, 1024 / :nw)
WITH picked AS MATERIALIZED (
    SELECT c.id FROM own o
    CROSS JOIN LATERAL unnest(o.buckets[:pos::int:] || o.buckets[:(:pos::int - 1)]) AS b(bucket)
    CROSS JOIN LATERAL (
        SELECT id FROM inbox
        WHERE partition_bucket = b.bucket AND state = 'open' AND claimed_by IS NULL
          AND run_at <= now()
        ORDER BY run_at, id LIMIT :batch FOR UPDATE SKIP LOCKED) c
    WHERE o.client = :client_id LIMIT :batch),
leased AS MATERIALIZED (SELECT array_agg(id) AS ids, clock_timestamp() AS at FROM picked),
claimed AS (
    UPDATE inbox SET claimed_by = 'w' || :client_id, claimed_at = leased.at,
           lease_expires_at = leased.at + interval '30 s',
           lease_generation = inbox.lease_generation + 1, claims = inbox.claims + 1
    FROM leased WHERE inbox.id = ANY (leased.ids)
    RETURNING inbox.id, inbox.lease_generation, inbox.lease_expires_at, inbox.partition_key,
              inbox.idempotency_key, inbox.payload),
lease_rows AS (INSERT INTO leases SELECT id, lease_expires_at FROM claimed)
SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(lease_generation), '{}') AS gens
FROM claimed
\gset
