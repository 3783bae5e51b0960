-- complete.sql — the fenced completion of row $1 (lease_generation $2, worker $3) and its
-- effect row $4, in one statement (one transaction): the effect exists iff the row is done.
-- attempts counts this handler start unless start.sql already did.
WITH done AS (
    UPDATE inbox SET status = 'done', completed_at = now(), claimed_by = NULL,
           lease_expires_at = NULL,
           attempts = attempts + CASE WHEN started_generation = lease_generation THEN 0 ELSE 1 END
    WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
    RETURNING id, idempotency_key, partition_key, lease_generation)
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, $3, $4 FROM done
RETURNING inbox_id
