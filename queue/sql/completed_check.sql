-- completed_check.sql — after a reconnect: which of rows $1 (bigint[]) with generations $2
-- (bigint[]) did worker $3 complete before the connection dropped (their effect rows).
SELECT e.inbox_id FROM effects e
JOIN unnest($1::bigint[], $2::bigint[]) AS t(id, gen)
  ON e.inbox_id = t.id AND e.lease_generation = t.gen
WHERE e.worker_id = $3
