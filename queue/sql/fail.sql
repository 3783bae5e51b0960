-- fail.sql — the handler of row $1 (generation $2, worker $3) failed with error $4: back to
-- pending with run_at = now() + $5 ms, or 'failed' (a dead letter) once attempts >= $6.
UPDATE inbox SET status = CASE WHEN attempts >= $6::int THEN 'failed' ELSE 'pending' END,
       last_error = $4, run_at = now() + $5 * interval '1 millisecond',
       claimed_by = NULL, lease_expires_at = NULL
WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
