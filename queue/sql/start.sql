-- start.sql — record, before its handler runs, that worker $3 starts the handler of row $1
-- (generation $2): attempts + 1, durably, so a handler that kills its worker is charged.
-- Fenced; 0 rows = the lease was lost and the handler must not run.
UPDATE inbox SET attempts = attempts + 1, started_generation = lease_generation
WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
