-- complete_m.sql — layout m: complete_d.sql (the done row moved to done) deleting the rows'
-- leases as complete_k.sql does.
WITH input AS (SELECT * FROM unnest(:ids::bigint[], :gens::bigint[]) AS t(id, gen)),
done_rows AS (
    DELETE FROM inbox USING input
    WHERE inbox.id = input.id AND inbox.lease_generation = input.gen
      AND inbox.claimed_by = 'w' || :client_id AND inbox.state <> ALL ('{done,failed}')
    RETURNING inbox.*),
kept AS (
    INSERT INTO done (id, partition_key, partition_bucket, idempotency_key, payload, state,
                      claimed_at, lease_generation, attempts, last_error, run_at, created_at,
                      completed_at, started_generation, claims, status)
    SELECT id, partition_key, partition_bucket, idempotency_key, payload, 'done', claimed_at,
           lease_generation, attempts + 1, last_error, run_at, created_at, now(),
           started_generation, claims, 'done'
    FROM done_rows),
unleased AS (DELETE FROM leases WHERE id = ANY (:ids::bigint[]))
INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
SELECT idempotency_key, id, partition_key, lease_generation, 'w' || :client_id, 'e'
FROM done_rows ORDER BY id;
