-- complete_s.sql — layout s: complete_batch.sql of queue/sql (the rows claimed just before,
-- fenced by id, lease generation and claimant; their effect rows in the same statement).
WITH input AS (SELECT * FROM unnest(:ids::bigint[], :gens::bigint[]) AS t(id, gen)),
done AS (
    UPDATE inbox SET status = 'done', completed_at = now(), claimed_by = NULL,
           lease_expires_at = NULL, attempts = inbox.attempts + 1
    FROM input
    WHERE inbox.id = input.id AND inbox.lease_generation = input.gen
      AND inbox.claimed_by = 'w' || :client_id AND inbox.status <> ALL ('{pending,done,failed}')
    RETURNING inbox.id, inbox.idempotency_key, inbox.partition_key, inbox.lease_generation)
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, 'w' || :client_id, 'e'
FROM done ORDER BY id;
