-- complete_batch.sql — complete.sql for many rows in one statement: rows $1 (bigint[]) with
-- lease generations $2 (bigint[]) and effects $4 (text[]) of worker $3. Each row is fenced
-- by its own (id, lease_generation); a row whose lease was lost changes nothing and is
-- missing from the result. attempts counts the handler start as in complete.sql. The effect
-- rows are written in id order, so effects.seq follows id within a batch (an ordered run's
-- rows complete in order).
-- The done rows leave the inbox for inbox_done and their lease rows go, as in complete.sql.
-- "Still claimed" is written status <> ALL (the other three statuses), not status = 'claimed':
-- until migration 009 the planner matched = 'claimed' to the partial index inbox_claimed_lease
-- and the generic plan (worker sessions run generic plans only: queue.c,
-- session_generic_plans) read every worker's claimed rows through it (bench/pg/README.md,
-- claim queries 6 and 7); status is now a generated column no index names, and every plan
-- probes the primary key once per row, O(batch).
WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $4::text[]) AS t(id, gen, effect)),
done AS (
    DELETE FROM inbox USING input
    WHERE inbox.id = input.id AND inbox.lease_generation = input.gen
      AND inbox.claimed_by = $3 AND inbox.status <> ALL ('{pending,done,failed}')
    RETURNING inbox.*, input.effect),
-- @include complete_move
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, $3, effect FROM done ORDER BY id
RETURNING inbox_id
