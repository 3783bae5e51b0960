-- claim_competing.sql — claim up to $2 pending rows whose run_at has come, for worker $1 of
-- incarnation $4, with a lease of $3 ms (competing consumers: any row).
-- The MATERIALIZED CTE bounds the rows locked to $2 under every plan; SKIP LOCKED lets
-- concurrent claims pass each other. The lease starts at clock_timestamp(), when the rows are
-- locked, not at the statement's start (now()): a claim that waited behind a lock still hands
-- out whole leases. A dead or replaced incarnation claims nothing. attempts is not charged
-- here (it counts handler starts); claims is.
WITH picked AS MATERIALIZED (
    SELECT id FROM inbox
    WHERE status = 'pending' AND run_at <= now()
      AND EXISTS (SELECT 1 FROM workers w
                  WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
    ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE inbox SET status = 'claimed', claimed_by = $1, claimed_at = locked.at,
       lease_expires_at = locked.at + $3 * interval '1 millisecond',
       lease_generation = inbox.lease_generation + 1, claims = inbox.claims + 1
FROM picked CROSS JOIN LATERAL (SELECT clock_timestamp() AS at) locked
WHERE inbox.id = picked.id
RETURNING inbox.id, inbox.lease_generation, inbox.partition_bucket, inbox.attempts,
          inbox.partition_key, inbox.idempotency_key, inbox.payload, inbox.claims
