-- claim_ordered_skip.sql — claim_ordered.sql with the skip policy: a dead letter does not
-- block the rows after it (only pending or claimed older rows do).
-- Order by commit (issue 11, target 5): a row is claimable only when the transaction that
-- inserted it is older than every transaction still in flight (inserted_xid below the
-- snapshot's xmin, as PgQ does): an earlier-inserted row of its key that is still
-- uncommitted is invisible to the guard, so without this its younger sibling could run
-- first. It delays a row until the transactions older than its inserter have ended (none
-- on a quiet server; a long transaction anywhere on the server holds ordered claims back).
-- Rows of a queue older than migration 005 have no inserted_xid: committed long ago.
-- The walk over the owned buckets from position $6, the locking and the lease are those of
-- claim_affinity.sql.
WITH picked AS MATERIALIZED (
    SELECT c.id
    FROM unnest(($5::int[])[$6::int:] || ($5::int[])[:$6::int - 1]) AS b(bucket)
    CROSS JOIN LATERAL (
        SELECT id FROM inbox
        WHERE partition_bucket = b.bucket AND status = 'pending' AND run_at <= now()
          AND (inserted_xid IS NULL
               OR inserted_xid < pg_snapshot_xmin(pg_current_snapshot()))
          AND NOT EXISTS (SELECT 1 FROM inbox older
                          WHERE older.partition_key = inbox.partition_key
                            AND older.id < inbox.id
                            AND older.status IN ('pending', 'claimed'))
        ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) c
    WHERE EXISTS (SELECT 1 FROM workers w
                  WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
    LIMIT $2)
UPDATE inbox SET status = 'claimed', claimed_by = $1, claimed_at = locked.at,
       lease_expires_at = locked.at + $3 * interval '1 millisecond',
       lease_generation = inbox.lease_generation + 1, claims = inbox.claims + 1
FROM picked CROSS JOIN LATERAL (SELECT clock_timestamp() AS at) locked
WHERE inbox.id = picked.id
RETURNING inbox.id, inbox.lease_generation, inbox.partition_bucket, inbox.attempts,
          inbox.partition_key, inbox.idempotency_key, inbox.payload, inbox.claims
