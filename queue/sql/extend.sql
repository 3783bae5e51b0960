-- extend.sql — lease_expires_at = clock_timestamp() + $4 ms for row $1 (generation $2,
-- worker $3), fenced.
UPDATE inbox SET lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
