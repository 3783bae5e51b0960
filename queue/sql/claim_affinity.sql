-- claim_affinity.sql — the rows to claim (bucket affinity): up to $2 pending rows of the
-- buckets $5 (int[], ascending) this worker owns on the ring over the live membership, for
-- worker $1 of incarnation $4. claim_lease.sql, appended at load time, leases them ($3 ms)
-- and returns them.
-- The claim walks the owned buckets, starting at position $6 (1-based; the client moves it
-- past the last bucket served, so the buckets take turns), and in each bucket reads the
-- index inbox_pending_bucket (partition_bucket, run_at, id) in order: it never reads another
-- worker's rows, and it stops as soon as $2 rows are found, so a claim costs O($2 + empty
-- owned buckets) at any backlog (issue 11; bench/pg/README.md has the plans before and
-- after). Order: (run_at, id) within a bucket; buckets in turn.
-- The MATERIALIZED CTE bounds the rows locked to $2 under every plan; SKIP LOCKED lets
-- concurrent claims pass each other. A dead or replaced incarnation claims nothing.
-- Ordered mode is this walk with the ordering guard of claim_ordered.sql put in at the mark
-- below (in affinity mode the mark is left empty); the library joins them (queue.c,
-- claim_sql_of).
WITH picked AS MATERIALIZED (
    SELECT c.id
    FROM unnest(($5::int[])[$6::int:] || ($5::int[])[:$6::int - 1]) AS b(bucket)
    CROSS JOIN LATERAL (
        SELECT id FROM inbox
        WHERE partition_bucket = b.bucket AND status = 'pending' AND run_at <= now()
          @ORDERED_GUARD@
        ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) c
    WHERE EXISTS (SELECT 1 FROM workers w
                  WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
    LIMIT $2)
