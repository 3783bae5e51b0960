-- claim_competing_status.sql — layouts s and d: claim_competing.sql + claim_lease.sql of
-- queue/sql, reduced to what a pgbench client needs (the worker check and the age-scan
-- columns left out). :batch rows for client :client_id; the ids and lease generations are
-- kept (\gset) for the completion that follows. status is in the partial indexes' predicates.
WITH picked AS MATERIALIZED (
    SELECT id FROM inbox WHERE status = 'pending' AND run_at <= now()
    ORDER BY run_at, id LIMIT :batch FOR UPDATE SKIP LOCKED),
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
