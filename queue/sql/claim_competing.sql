-- claim_competing.sql — claim up to $2 pending rows whose run_at has come, for worker $1,
-- with a lease of $3 ms (competing consumers: any row). The MATERIALIZED CTE bounds the
-- rows locked to $2 under every plan; SKIP LOCKED lets concurrent claims pass each other.
WITH picked AS MATERIALIZED (
    SELECT id FROM inbox
    WHERE status = 'pending' AND run_at <= now()
    ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE inbox SET status = 'claimed', claimed_by = $1, claimed_at = now(),
       lease_expires_at = now() + $3 * interval '1 millisecond',
       lease_generation = inbox.lease_generation + 1, attempts = inbox.attempts + 1
FROM picked WHERE inbox.id = picked.id
RETURNING inbox.id, inbox.lease_generation, inbox.partition_bucket, inbox.attempts,
          inbox.partition_key, inbox.idempotency_key, inbox.payload
