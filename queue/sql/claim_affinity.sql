-- claim_affinity.sql — claim up to $2 pending rows of the buckets $5 (int[], ascending) this
-- worker owns on the ring over the live membership (bucket affinity), for worker $1 of
-- incarnation $4, with a lease of $3 ms.
-- The claim walks the owned buckets, starting at position $6 (1-based; the client moves it
-- past the last bucket served, so the buckets take turns), and in each bucket reads the
-- index inbox_pending_bucket (partition_bucket, run_at, id) in order: it never reads another
-- worker's rows, and it stops as soon as $2 rows are found, so a claim costs O($2 + empty
-- owned buckets) at any backlog (issue 11; bench/pg/README.md has the plans before and
-- after). Order: (run_at, id) within a bucket; buckets in turn.
-- The MATERIALIZED CTE bounds the rows locked to $2 under every plan; SKIP LOCKED lets
-- concurrent claims pass each other. The lease starts at clock_timestamp(), when the rows are
-- locked, not at the statement's start (now()): a claim that waited behind a lock still hands
-- out whole leases. A dead or replaced incarnation claims nothing. attempts is not charged
-- here (it counts handler starts); claims is.
WITH picked AS MATERIALIZED (
    SELECT c.id
    FROM unnest(($5::int[])[$6::int:] || ($5::int[])[:$6::int - 1]) AS b(bucket)
    CROSS JOIN LATERAL (
        SELECT id FROM inbox
        WHERE partition_bucket = b.bucket AND status = 'pending' AND run_at <= now()
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
