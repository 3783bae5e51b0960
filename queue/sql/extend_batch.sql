-- extend_batch.sql — the lease heartbeat: lease_expires_at = clock_timestamp() + $4 ms for
-- every row of $1 (bigint[]) with generation $2 (bigint[]) still held by worker $3 of
-- incarnation $5, each fenced by its own (id, lease_generation). Rows missing from the result
-- are lost (reclaimed, or the incarnation is dead). One clock_timestamp() for all the rows
-- (an InitPlan, evaluated once): the rows of a batch share one lease end, so a housekeeper
-- reclaims all of them or none, which ordered runs rely on (queue/README.md, "Ordered mode:
-- runs"). "Still claimed" as in complete_batch.sql (status <> ALL the other statuses), so
-- the generic plan probes the primary key per row.
WITH extended AS (
    UPDATE inbox SET lease_expires_at = (SELECT clock_timestamp()) + $4 * interval '1 millisecond'
    FROM unnest($1::bigint[], $2::bigint[]) AS t(id, gen)
    WHERE inbox.id = t.id AND inbox.lease_generation = t.gen AND inbox.claimed_by = $3
      AND inbox.status <> ALL ('{pending,done,failed}')
      AND EXISTS (SELECT 1 FROM workers w
                  WHERE w.id = $3 AND w.incarnation = $5 AND w.status = 'alive')
    RETURNING inbox.id, inbox.lease_generation, inbox.lease_expires_at),
mirrored AS (
    UPDATE inbox_leases l SET lease_expires_at = extended.lease_expires_at FROM extended
    WHERE l.id = extended.id AND l.lease_generation = extended.lease_generation)
SELECT id FROM extended
