-- claim_lease.sql — the lease every claim hands out, appended by the queue library to the
-- CTE picked(id, aged) of claim_<mode>.sql (rb_queue_open assembles one statement per mode, so
-- each is still one statement, prepared once per session, with the plan it always had).
-- Worker $1 of incarnation $4 takes the rows picked with a lease of $3 ms: the lease starts
-- at clock_timestamp(), when the rows are locked, not at the statement's start (now()), so a
-- claim that waited behind a lock still hands out whole leases. lease_generation (the
-- fencing token every completion, failure, release and extension checks) moves on by one.
-- The update writes no indexed column (status follows claimed_by: migration 009), so it is
-- HOT; the lease's expiry goes to inbox_leases too (the housekeeper's index), same statement.
-- attempts is not charged here (it counts handler starts); claims is. leased: one row, the
-- ids picked and one clock_timestamp(), read after the aggregate has pulled (and so locked)
-- every picked row: every row of a batch gets the same lease end, so a housekeeper reclaims
-- all of them or none, which ordered runs rely on (queue/README.md, "Ordered mode: runs").
-- The rows are leased through primary-key probes (id = ANY(ids)), so the plan is O(batch)
-- under a generic plan too, where LIMIT $2 is unknown: joined to picked, the planner took
-- 10% of the pending rows for picked and hashed all of inbox (bench/pg/README.md, claim
-- query 8). The rows come back in no promised order (rb_queue_claim sorts each batch by id).
-- After claims, suspect: the row's handler was started under an earlier lease (start.sql) and
-- neither completed nor failed since (fail.sql and redrive.sql clear the mark): its worker
-- died, stalled or lost the lease inside it, so it may be a poison row (the worker loop runs it
-- after the batch's other rows). The next column, aged_run_at_us: for a row picked for its
-- age (claim_aged.sql) its run_at in microseconds since 1970 (exact: numeric), where
-- affinity's next age scan starts; NULL for
-- every other row (computed for the aged rows only: not on every claim's rows). The two after
-- it, at the mark at the end: for claim_aged.sql where its read of the oldest rows ended
-- (age_scan_end: run_at in microseconds, id) when the read was full, the same on every row;
-- NULL otherwise and for every other claim (the library puts in the text: queue.c,
-- claim_sql_of).
, leased AS MATERIALIZED (
    SELECT array_agg(id) AS ids, array_agg(id) FILTER (WHERE aged) AS aged_ids,
           clock_timestamp() AS at
    FROM picked),
claimed AS (
    UPDATE inbox SET claimed_by = $1, claimed_at = leased.at,
           lease_expires_at = leased.at + $3 * interval '1 millisecond',
           lease_generation = inbox.lease_generation + 1, claims = inbox.claims + 1
    FROM leased
    WHERE inbox.id = ANY (leased.ids)
    RETURNING inbox.id, inbox.lease_generation, inbox.partition_bucket, inbox.attempts,
              inbox.partition_key, inbox.idempotency_key, inbox.payload, inbox.claims,
              inbox.started_generation IS NOT NULL AS suspect,
              CASE WHEN inbox.id = ANY (leased.aged_ids)
                   THEN (extract(epoch FROM inbox.run_at) * 1000000)::bigint END AS aged_us,
              inbox.lease_expires_at),
lease_rows AS (
    INSERT INTO inbox_leases (id, lease_generation, lease_expires_at)
    SELECT id, lease_generation, lease_expires_at FROM claimed
    ON CONFLICT (id) DO UPDATE SET lease_generation = excluded.lease_generation,
                                   lease_expires_at = excluded.lease_expires_at)
SELECT id, lease_generation, partition_bucket, attempts, partition_key, idempotency_key,
       payload, claims, suspect, aged_us,
       @AGE_SCAN_END@
FROM claimed
