-- claim_affinity.sql — claim_competing.sql restricted to the buckets $4 (int[]) this worker
-- owns on the ring over the live membership (bucket affinity).
WITH picked AS MATERIALIZED (
    SELECT id FROM inbox
    WHERE status = 'pending' AND run_at <= now()
      AND partition_bucket = ANY($4::int[])
    ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE inbox SET status = 'claimed', claimed_by = $1, claimed_at = now(),
       lease_expires_at = now() + $3 * interval '1 millisecond',
       lease_generation = inbox.lease_generation + 1, attempts = inbox.attempts + 1
FROM picked WHERE inbox.id = picked.id
RETURNING inbox.id, inbox.lease_generation, inbox.partition_bucket, inbox.attempts,
          inbox.partition_key, inbox.idempotency_key, inbox.payload
