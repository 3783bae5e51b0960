-- fail.sql — the handler of row $1 (generation $2, worker $3) failed with error $4. attempts
-- counts this start (unless start.sql did); the row goes back to pending after an exponential
-- backoff with equal jitter, delay = min($7, $5 * 2^(attempts - 1)) ms, run_at = now() +
-- delay * (0.5 + random() / 2) (AWS Architecture Blog, "Exponential Backoff And Jitter",
-- 2015), or becomes 'failed' (a dead letter) once attempts >= $6. The start mark is cleared:
-- the handler ended (a failure, not a crash), so the row's next claim does not return it as a
-- suspect (claim_lease.sql).
WITH counted AS (
    SELECT id, attempts + CASE WHEN started_generation = lease_generation THEN 0 ELSE 1 END AS n
    FROM inbox
    WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'),
unleased AS (
    DELETE FROM inbox_leases
    WHERE id = $1 AND lease_generation = $2 AND EXISTS (SELECT 1 FROM counted))
UPDATE inbox SET state = CASE WHEN counted.n >= $6::int THEN 'failed' ELSE 'open' END,
       attempts = counted.n, last_error = $4, failed_at = now(),
       run_at = now() + least($7::float8, $5::float8 * power(2, least(counted.n - 1, 30)))
                        * (0.5 + random() / 2) * interval '1 millisecond',
       claimed_by = NULL, lease_expires_at = NULL, started_generation = NULL
FROM counted WHERE inbox.id = counted.id
