-- complete.sql — the fenced completion of row $1 (lease_generation $2, worker $3) and its
-- effect row $4, in one statement (one transaction): the effect exists iff the row is done.
-- attempts counts this handler start unless start.sql already did. The done row leaves the
-- inbox for inbox_done (migration 009: no index entry is written for it in the inbox) and its
-- lease row goes.
WITH done AS (
    DELETE FROM inbox
    WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
    RETURNING *),
-- @include complete_move
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, $3, $4 FROM done
RETURNING inbox_id
