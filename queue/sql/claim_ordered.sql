-- claim_ordered.sql — claim_affinity.sql plus the ordering guard: a row is claimable only
-- when no older row with the same partition_key is still unfinished (pending or claimed).
WITH picked AS MATERIALIZED (
    SELECT id FROM inbox
    WHERE status = 'pending' AND run_at <= now()
      AND partition_bucket = ANY($4::int[])
      AND NOT EXISTS (SELECT 1 FROM inbox older
                      WHERE older.partition_key = inbox.partition_key
                        AND older.id < inbox.id AND older.status IN ('pending', 'claimed'))
    ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE inbox SET status = 'claimed', claimed_by = $1, claimed_at = now(),
       lease_expires_at = now() + $3 * interval '1 millisecond',
       lease_generation = inbox.lease_generation + 1, attempts = inbox.attempts + 1
FROM picked WHERE inbox.id = picked.id
RETURNING inbox.id, inbox.lease_generation, inbox.partition_bucket, inbox.attempts,
          inbox.partition_key, inbox.idempotency_key, inbox.payload
