-- complete.sql — the fenced completion of row $1 (lease_generation $2, worker $3) and its
-- effect row $4, in one statement (one transaction): the effect exists iff the row is done.
-- attempts counts this handler start unless start.sql already did. The done row leaves the
-- inbox for inbox_done (migration 009: no index entry is written for it in the inbox) and its
-- lease row goes.
WITH done AS (
    DELETE FROM inbox
    WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
    RETURNING *),
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
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, $3, $4 FROM done
RETURNING inbox_id
