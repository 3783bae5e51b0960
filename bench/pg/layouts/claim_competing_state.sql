-- claim_competing_state.sql — layouts k and m: claim_competing_status.sql with the claim a HOT
-- update (it writes no indexed column: status is derived from state and claimed_by) and the
-- lease's expiry written to leases, where the housekeeper's index is.
WITH picked AS MATERIALIZED (
    SELECT id FROM inbox WHERE state = 'open' AND claimed_by IS NULL AND run_at <= now()
    ORDER BY run_at, id LIMIT :batch FOR UPDATE SKIP LOCKED),
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
