-- retention_purge.sql — one retention round (migration 006), in one statement (one
-- transaction) under the housekeeper's pg_try_advisory_xact_lock (housekeep.sql's lock: one
-- housekeeper at a time): delete up to queue_config.retention_batch done rows completed more
-- than queue_config.retention_ms ago (database clock), oldest first, through
-- inbox_done_completed (a round reads about retention_batch index entries). Pending, claimed
-- and failed rows are never deleted. A done row is deleted only while its effect row (same
-- idempotency key) exists: that row keeps the key, and the inbox_done_key trigger skips a
-- re-enqueue of it (queue/README.md, "Retention"). Retention off (NULL): the cutoff is NULL
-- and nothing is deleted. Returns (lock won, rows deleted, retention_batch): a batch that came
-- back full tells the caller (rb_queue_housekeep) that more may be due, and it runs the
-- statement again, each run bounded by retention_batch rows.
WITH lock AS MATERIALIZED (
    SELECT pg_try_advisory_xact_lock(29282, hashtext(current_schema())) AS won),
old AS MATERIALIZED (
    SELECT i.ctid AS tid FROM inbox_done i
    WHERE i.completed_at < (SELECT now() - retention_ms * interval '1 millisecond'
                            FROM queue_config)
      AND (SELECT won FROM lock)
      AND EXISTS (SELECT 1 FROM effects e WHERE e.idempotency_key = i.idempotency_key)
    ORDER BY i.completed_at
    LIMIT (SELECT retention_batch FROM queue_config)
    -- locked, so no other purge deletes them meanwhile and their ctid stays theirs
    FOR UPDATE OF i SKIP LOCKED),
gone AS (
    -- The locked rows as one array of tuple ids (inbox_done has no index on id, migration
    -- 009): a TID scan, O(batch) whatever inbox_done holds. A join with `old` (DELETE ...
    -- USING old) was planned, before 009, as a scan of every done row x the batch when the
    -- statistics said few done rows: 13 s for 2,000 of 25,000 done rows (the published soak).
    DELETE FROM inbox_done i WHERE i.ctid = ANY ((SELECT array_agg(tid) FROM old)::tid[])
    RETURNING 1)
SELECT (SELECT won FROM lock), (SELECT count(*) FROM gone),
       (SELECT retention_batch FROM queue_config)
