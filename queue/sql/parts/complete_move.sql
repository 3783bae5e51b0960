-- parts/complete_move.sql — the two CTEs every completion ends with (complete.sql,
-- complete_batch.sql put it in at their `-- @include complete_move` line, at build time:
-- queue/embed_sql.cmake): the rows of CTE done (DELETE ... RETURNING inbox.*) go to
-- inbox_done as the completion leaves them, and their lease rows are deleted by
-- (id, lease_generation) (migration 009). Its column list is inbox's: a migration that
-- changes inbox's columns changes it too.
kept AS (
    INSERT INTO inbox_done (id, partition_key, partition_bucket, idempotency_key, payload,
                            claimed_by, claimed_at, lease_expires_at, lease_generation, attempts,
                            last_error, run_at, created_at, completed_at, claims,
                            started_generation, failed_at, redrive_count, inserted_xid, state,
                            status)
    SELECT id, partition_key, partition_bucket, idempotency_key, payload, NULL, claimed_at, NULL,
           lease_generation,
           attempts + CASE WHEN started_generation = lease_generation THEN 0 ELSE 1 END,
           last_error, run_at, created_at, now(), claims, started_generation, failed_at,
           redrive_count, inserted_xid, 'done', 'done'
    FROM done),
unleased AS (
    DELETE FROM inbox_leases l USING done
    WHERE l.id = done.id AND l.lease_generation = done.lease_generation)
