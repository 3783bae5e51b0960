-- complete_k.sql — layout k: complete_s.sql writing state (status is derived) and deleting
-- the rows' leases. Not HOT: state is in the partial indexes' predicates.
WITH input AS (SELECT * FROM unnest(:ids::bigint[], :gens::bigint[]) AS t(id, gen)),
done AS (
    UPDATE inbox SET state = 'done', completed_at = now(), claimed_by = NULL,
           lease_expires_at = NULL, attempts = inbox.attempts + 1
    FROM input
    WHERE inbox.id = input.id AND inbox.lease_generation = input.gen
      AND inbox.claimed_by = 'w' || :client_id AND inbox.state <> ALL ('{done,failed}')
    RETURNING inbox.id, inbox.idempotency_key, inbox.partition_key, inbox.lease_generation),
unleased AS (DELETE FROM leases WHERE id = ANY (:ids::bigint[]))
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, 'w' || :client_id, 'e'
FROM done ORDER BY id;
