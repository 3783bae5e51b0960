-- claim_walk.sql — the walk over the owned buckets, shared by affinity mode (claim_affinity.sql
-- claims its rows) and ordered mode (claim_run.sql claims a run of each row's key): up to $2
-- pending rows (id, partition_key) of the buckets worker $1 of incarnation $4 owns, read from
-- its published view (workers.owned_buckets, int[] ascending, which the library publishes
-- before it adopts a view: publish_view.sql), each locked (FOR UPDATE SKIP LOCKED, so
-- concurrent claims pass each other). A dead or replaced incarnation gets nothing; so does a
-- worker that has not published a view since it registered (owned_buckets NULL).
-- The owned buckets are read here, not sent: a claim's parameters stay a few bytes whatever
-- the number of owned buckets (sent as a 256-1,024-element array, its parse cost every claim
-- about 15 µs; bench/pg/README.md, claim query 1).
-- The walk starts at position $5 of the owned buckets (1-based; the client moves it past the
-- last bucket served, so the buckets take turns), and in each bucket reads the index
-- inbox_pending_bucket (partition_bucket, run_at, id) in order: it never reads another
-- worker's rows, and it stops as soon as $2 rows are found (the rows are pulled one at a
-- time by whatever consumes the walk), so it costs O($2 + empty owned buckets) at any backlog
-- (issue 11; bench/pg/README.md has the plans before and after). Order: (run_at, id) within
-- a bucket; buckets in turn.
-- Ordered mode puts the ordering guard of claim_ordered.sql in at the mark below, so the walk
-- yields the heads of keys (in affinity mode the mark is left empty); the library joins the
-- parts (queue.c, claim_sql_of).
SELECT c.id, c.partition_key
FROM workers w
CROSS JOIN LATERAL unnest(w.owned_buckets[$5::int:] || w.owned_buckets[:$5::int - 1]) AS b(bucket)
CROSS JOIN LATERAL (
    SELECT id, partition_key FROM inbox
    WHERE partition_bucket = b.bucket AND state = 'open' AND claimed_by IS NULL
      AND run_at <= now()
      @ORDERED_GUARD@
    ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) c
WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive'
LIMIT $2
