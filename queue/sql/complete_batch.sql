-- complete_batch.sql — complete.sql for many rows in one statement: rows $1 (bigint[]) with
-- lease generations $2 (bigint[]) and effects $4 (text[]) of worker $3. Each row is fenced
-- by its own (id, lease_generation); a row whose lease was lost changes nothing and is
-- missing from the result. attempts counts the handler start as in complete.sql. The effect
-- rows are written in id order, so effects.seq follows id within a batch (an ordered run's
-- rows complete in order).
-- "Still claimed" is written status <> ALL (the other three statuses; the inbox_status_check
-- constraint allows no fourth), not status = 'claimed': the planner cannot match it to the
-- partial index inbox_claimed_lease, so every plan, the generic one included (worker
-- sessions run generic plans only: queue.c, session_generic_plans), probes the primary key
-- once per row, O(batch). With = 'claimed' the generic plan read every worker's claimed
-- rows through that index (bench/pg/README.md, claim queries 6 and 7).
WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $4::text[]) AS t(id, gen, effect)),
done AS (
    UPDATE inbox SET status = 'done', completed_at = now(), claimed_by = NULL,
           lease_expires_at = NULL,
           attempts = inbox.attempts
                      + CASE WHEN inbox.started_generation = inbox.lease_generation THEN 0 ELSE 1 END
    FROM input
    WHERE inbox.id = input.id AND inbox.lease_generation = input.gen
      AND inbox.claimed_by = $3 AND inbox.status <> ALL ('{pending,done,failed}')
    RETURNING inbox.id, inbox.idempotency_key, inbox.partition_key, inbox.lease_generation,
              input.effect)
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, $3, effect FROM done ORDER BY id
RETURNING inbox_id
